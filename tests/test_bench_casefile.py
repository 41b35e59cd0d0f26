"""``cli.py bench --casefile`` (issue 28, item 4): the store is built through the ordinary
append path and grown between sizes; each size times the case file and the results, with
the summaries and with every board folded; the figures say the load they were taken under."""

from __future__ import annotations

import json

from ledger.bench.casefile import _NoSummaries, case_boards, filler_boards, run_casefile_bench
from ledger.store.base import AppealIndex, BoardIndex, BoardSummaries


def test_the_bench_builds_a_store_per_size_and_times_them_alternately(tmp_path):
    figures = run_casefile_bench((6, 9, 14), runs=2, tables=2, boards_per_table=2, folder=tmp_path)
    sizes = figures["sizes"]
    assert [sizes[s]["build"]["boards"] for s in ("6", "9", "14")] == [6, 9, 14]
    assert [sizes[s]["build"]["filler_boards"] for s in ("6", "9", "14")] == [2, 5, 10]
    assert sorted(p.name for p in tmp_path.glob("*.db")) == ["casefile-14.db", "casefile-6.db", "casefile-9.db"]
    for size in sizes.values():
        assert size["build"]["traveller_rows"] == 2  # the case board's two tables
        assert size["build"]["earlier_decisions"] == 0  # APPEALED's other boards are not in 2 x 2
        for key in ("casefile", "casefile_folding", "results", "results_folding", "open_store"):
            assert 0 < size[key]["cpu_ms_min"] <= size[key]["cpu_ms_median"], key
            assert size[key]["wall_ms_median"] > 0
        assert size["casefile_before_once"]["cpu_ms"] > 0
    assert len(figures["load_1min_per_round"]) == 2
    assert set(figures["ratio_largest_to_smallest"]) == {"casefile", "results"}
    assert figures["ratio_largest_to_smallest"]["casefile"]["cpu_median"] > 0
    json.dumps(figures)


def test_the_case_tournament_is_played_and_the_fillers_are_other_tournaments():
    order = [stream for stream, _ in case_boards(2, 3, 7)]
    assert order[-1] == "case-cup/t1/b1" and len(set(order)) == 6  # the case last
    boards = dict(case_boards(2, 3, 7))
    assert len(boards) == 6 and all(s.startswith("case-cup/") for s in boards)
    assert all(any(f["type"] == "CardPlayed" for f in facts) for facts in boards.values())
    assert [f["type"] for f in boards["case-cup/t1/b1"][-2:]] == ["AdjustedScoreAwarded", "AppealLodged"]
    assert [f["type"] for f in boards["case-cup/t2/b3"][-3:]] == ["AdjustedScoreAwarded", "AppealLodged",
                                                                  "AppealDecided"]
    quick = dict(filler_boards(0, 300, 7, played=False))
    assert len(quick) == 300 and {f["tournament"] for facts in quick.values() for f in facts[:1]} == {
        "Filler 0", "Filler 1"}
    assert all([f["type"] for f in facts] == ["BoardOpened", "ResultReported"] for facts in quick.values())
    played = dict(filler_boards(5, 2, 7, played=True))
    assert all(any(f["type"] == "CardPlayed" for f in facts) for facts in played.values())


def test_the_folding_side_hides_the_summaries_only(store):
    hidden = _NoSummaries(store)
    assert isinstance(store, BoardSummaries) and not isinstance(hidden, BoardSummaries)
    assert isinstance(hidden, BoardIndex) and isinstance(hidden, AppealIndex)
    before = _NoSummaries(store, ("board_summaries", "appealed_streams"))
    assert not isinstance(before, AppealIndex) and not isinstance(before, BoardSummaries)


def test_the_command_line_runs_the_casefile_mode(monkeypatch, capsys):
    import ledger.bench.casefile as bench
    from ledger.cli import main

    seen = {}

    def fake(sizes, **kwargs):
        seen.update(sizes=sizes, **kwargs)
        return {"sizes": {str(s): {} for s in sizes}}

    monkeypatch.setattr(bench, "run_casefile_bench", fake)
    capsys.readouterr()
    assert main(["bench", "--casefile", "--store-sizes", "10,30", "--rounds", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"sizes": {"10": {}, "30": {}}}
    assert seen["sizes"] == (10, 30) and seen["runs"] == 3
    assert main(["bench", "--casefile", "--store-sizes", "ten"]) == 2
