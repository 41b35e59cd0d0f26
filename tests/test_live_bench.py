"""``cli.py bench-live``: a tiny bounded run over loopback gives its figures."""

from __future__ import annotations

import json
import random

from ledger.bridge import Deal
from ledger.cli import main
from ledger.live.bench import board_facts, server_timing
from ledger.live.sessions import random_deals
from ledger.service import Ledger


def test_board_facts_are_a_legal_complete_board_the_ledger_accepts():
    deal = random_deals(3, seed=4)[3]
    facts = board_facts(deal, 3, random.Random(9))
    assert sum(f["type"] == "CardPlayed" for f in facts) == 52
    with Ledger.open("sqlite:///:memory:", create=True) as ledger:
        opened = {"type": "BoardOpened", "tournament": "b", "board": 3, "table": "1", "deal": deal}
        ledger.append("b/t1/b3", [opened, *facts])
        assert ledger.state("b/t1/b3")["phase"] == "ended"
    assert Deal.parse(deal)


def test_bench_live_reports_rates_and_latencies(capsys):
    code = main(["bench-live", "--terminals", "2,3", "--seconds", "2", "--saturation-seconds", "1",
                 "--interval", "0.2", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    figures = json.loads(out)
    assert [r["terminals"] for r in figures["runs"]] == [2, 3] and figures["pages_loaded_first"]
    for run in figures["runs"]:  # the server's own share, from its Server-Timing headers
        assert 0 < run["server_ms_p50"] <= run["server_ms_p99"] <= run["append_ms_max"]
        assert 0 < run["server_append_ms_p99"] <= run["server_ms_p99"]
        assert run["board_opening_ms_p99"] > 0
    for run in figures["runs"] + [figures["saturation"]]:
        assert run["errors"] == 0 and run["events"] > 0
        assert 0 < run["append_ms_p50"] <= run["append_ms_p99"] <= run["append_ms_max"]
    assert figures["saturation_events_per_s"] > 0 and figures["servers"] == 1
    # Paced: K terminals offer K / interval events a second; the saturation run is flat-out.
    assert [r["offered_events_per_s"] for r in figures["runs"]] == [10.0, 15.0]
    assert figures["saturation"]["offered_events_per_s"] is None
    assert all(r.get("server_cpu_ms_per_event", 1) > 0 for r in figures["runs"])
    for run in figures["runs"]:  # never more than offered (each run lasts about 2 s, plus a straggler)
        assert run["events"] <= run["terminals"] * (2 / 0.2 + 1)


def test_server_timing_headers_are_read_leniently():
    assert server_timing("queue;dur=0.10, append;dur=3.5, total;dur=4") == {
        "queue": 0.1, "append": 3.5, "total": 4.0}
    assert server_timing("") == {}
    assert server_timing("cache;desc=hit, x;dur=oops, db;dur=2") == {"db": 2.0}


def test_bench_live_cold_terminals_open_their_boards_first(capsys):
    code = main(["bench-live", "--terminals", "2", "--seconds", "1", "--saturation-seconds", "1",
                 "--interval", "0.2", "--cold", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert code == 0 and figures["pages_loaded_first"] is False
    assert figures["runs"][0]["errors"] == 0 and figures["runs"][0]["board_opening_ms_p99"] > 0


def test_bench_live_bounds_its_terminals(capsys):
    assert main(["bench-live", "--terminals", "301"]) == 2
    assert "--terminals" in capsys.readouterr().err
