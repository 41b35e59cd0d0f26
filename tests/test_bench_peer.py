"""``bench --peer`` (issue 10): the library's run and the ratios, on a tiny workload
(no speed is asserted here: figures belong to the bench, not to the tests)."""

from __future__ import annotations

import json

import pytest

from ledger.bench import peer as bench_peer
from ledger.bench.appends import board_growth
from ledger.cli import main

pytest.importorskip("eventsourcing")


def test_the_library_runs_the_same_three_steps_with_durable_commits() -> None:
    figures = bench_peer.library_sqlite(streams=3, events=4)
    assert figures["append_per_event_eps"] > 0 and figures["append_per_batch_eps"] > 0
    assert figures["replay_eps"] > 0
    assert figures["sqlite_synchronous"] == 2  # FULL, as the ledger's


def test_ratios_are_ours_over_the_library() -> None:
    ours = {"append_per_event_eps": 300.0, "append_per_board_eps": 5000.0, "replay_eps": 0}
    peer = {"append_per_event_eps": 200.0, "append_per_batch_eps": 10000.0, "replay_eps": 100.0}
    assert bench_peer.ratios(ours, peer) == {"per_event": 1.5, "per_board_vs_batch": 0.5, "replay": None}


def test_board_growth_reports_the_first_and_the_last_sample() -> None:
    figures = board_growth(boards=4, sample=2)
    assert set(figures) == {"board_ms_at_2", "board_ms_at_4", "board_cpu_ms_at_2", "board_cpu_ms_at_4"}
    assert figures["board_ms_at_2"] > 0 and figures["board_ms_at_4"] > 0


def test_bench_peer_prints_ours_the_library_and_the_ratios(capsys, monkeypatch) -> None:
    monkeypatch.delenv("LEDGER_DB", raising=False)
    monkeypatch.setattr(bench_peer, "STREAMS", 2)
    monkeypatch.setattr(bench_peer, "library_sqlite", lambda synchronous: {
        "append_per_event_eps": 1.0, "append_per_batch_eps": 1.0, "replay_eps": 1.0, "sqlite_synchronous": 2})
    monkeypatch.setattr("ledger.bench.appends.board_growth", lambda seed: {"board_ms_at_200": 1.0})
    code = main(["bench", "--boards", "1", "--json", "--peer"])
    figures = json.loads(capsys.readouterr().out)
    assert code == 0
    assert figures["ratios"]["per_event"] == figures["append_per_event_eps"]
    assert figures["peer"]["library"].startswith("eventsourcing ")
    assert figures["full_board_ms_p50"] > 0 and figures["append_event_ms_at_end"] > 0


def test_the_library_can_run_at_normal_like_the_ledger_when_asked() -> None:
    assert bench_peer.library_sqlite(streams=1, events=2, synchronous="normal")["sqlite_synchronous"] == 1
