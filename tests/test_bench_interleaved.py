"""The interleaved bench (issue 28, item 7): every side alternated in chunks in one
process, medians and per-round ratios, the load beside each round; and a writer
process that dies is reported at once, never waited for. No speed is asserted."""

from __future__ import annotations

import json
import os
import time

import pytest

from ledger.bench import peer as bench_peer
from ledger.bench.interleaved import RATIOS, run_interleaved
from ledger.cli import main


def test_every_side_and_workload_is_measured_in_every_round_with_the_load():
    pytest.importorskip("eventsourcing")
    found = run_interleaved(rounds=2, chunk=0.05)["interleaved"]
    assert len(found["load_1min_per_round"]) == 2
    sides = {"ours.per_event", "ours.per_batch", "ours.replay", "recorder.per_event", "recorder.per_batch",
             "recorder.replay", "application.per_event", "application.per_batch", "application.replay",
             "ceiling_row.per_event", "ceiling_shape.per_event", "ceiling_read.replay"}
    assert set(found["medians_eps"]) == sides and all(v > 0 for v in found["medians_eps"].values())
    assert set(found["ratios_median"]) == set(RATIOS)
    for name, (low, high) in found["ratio_spread"].items():
        assert low <= found["ratios_median"][name] <= high, name
    assert found["library_synchronous"] == {"recorder": 2}  # FULL, as ours


def test_without_the_library_ours_and_the_ceilings_still_run():
    found = run_interleaved(rounds=1, chunk=0.05, library=False)["interleaved"]
    assert {k.split(".")[0] for k in found["medians_eps"]} == {"ours", "ceiling_row", "ceiling_shape",
                                                                "ceiling_read"}
    assert found["ratios_median"]["per_event_vs_recorder"] is None
    assert found["ratios_median"]["per_event_vs_shape_ceiling"] > 0


def test_bench_interleaved_on_the_command_line(capsys, monkeypatch):
    monkeypatch.delenv("LEDGER_DB", raising=False)
    assert main(["bench", "--interleaved", "--rounds", "1", "--chunk", "0.05", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["interleaved"]
    assert found["rounds"] == 1 and found["medians_eps"]["ours.per_event"] > 0


# --- writers that die (module-level: the spawned processes import them) -----------------

def healthy(index, start, out):
    out.put(("ready", index))
    start.wait()
    out.put(("done", index, 10, 0.01))


def dies_before_ready(index, start, out):
    if index == 1:
        os._exit(3)
    healthy(index, start, out)


def dies_mid_run(index, start, out):
    out.put(("ready", index))
    start.wait()
    if index == 2:
        os._exit(7)
    time.sleep(0.2)
    out.put(("done", index, 10, 0.2))


def test_healthy_writers_are_counted():
    assert bench_peer.run_writers(healthy, lambda i: (i,), 3) > 0


@pytest.mark.parametrize("target, index, code", [(dies_before_ready, 1, 3), (dies_mid_run, 2, 7)])
def test_a_writer_that_dies_is_reported_never_waited_for(target, index, code):
    t0 = time.monotonic()
    with pytest.raises(bench_peer.WriterDied) as caught:
        bench_peer.run_writers(target, lambda i: (i,), 3, timeout=600)
    assert caught.value.died == [(index, code)]
    assert f"#{index} (exit code {code})" in str(caught.value)
    assert time.monotonic() - t0 < 60, "reported at once, not after the timeout"


def test_a_writer_that_hangs_is_reported_at_the_timeout():
    with pytest.raises(bench_peer.WriterDied) as caught:
        bench_peer.run_writers(hangs, lambda i: (i,), 2, timeout=2)
    assert caught.value.died == [(0, None), (1, None)]


def hangs(index, start, out):
    out.put(("ready", index))
    start.wait()
    time.sleep(600)


def test_the_merge_delay_bench_covers_every_append(capsys, monkeypatch):
    from ledger.bench.merge import run_merge_delay

    found = run_merge_delay(writers=2, seconds=0.5)["merge"]
    assert found["errors"] == [] and found["appends"] > 0
    assert found["not_merged"] == 0, "the integrator covered every committed append"
    assert found["integrated_leaves"] >= found["appends"]  # the engine's own events too
    assert 0 <= found["merge_delay_ms_p50"] <= found["merge_delay_ms_p99"] <= found["merge_delay_ms_max"]
    monkeypatch.delenv("LEDGER_DB", raising=False)
    capsys.readouterr()
    assert main(["bench", "--merge-delay", "--seconds", "0.5", "--writers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["merge"]["not_merged"] == 0
