"""The results summary kept with each board's snapshot (issue 28, item 4), on both stores: the
results scored from the summaries are the results scored from the folded states, for pairs
(matchpoints, artificial, weighted and assigned scores, a procedural penalty, a 1997 cap, a
board in progress, one not played, one voided) and for teams (IMPs, two rooms); a store whose
snapshots hold no summary (written before revision 0007) gives the same results by folding,
and ``rebuild`` fills the summaries in."""

from __future__ import annotations

import json
import random
from typing import Any

import sqlalchemy as sa
from test_adjusted import WEIGHTED, opened, pairs_field, played

from ledger.service import Ledger
from ledger.simulate import random_board
from ledger.summaries import SUMMARY_VERSION, results_of, summary_of
from ledger.tournament import tournament_summaries, tournament_tables
from projections import snapshot as snapshots
from projections.results import results


def plain(doc: dict[str, Any]) -> Any:
    return json.loads(json.dumps(doc))


def folded(led: Ledger, tournament: str) -> Any:
    return plain(results(tournament, tournament_tables(led, tournament)))


def summarised(led: Ledger, tournament: str) -> Any:
    return plain(results_of(tournament, tournament_summaries(led, tournament)))


def stored(led: Ledger, tournament: str) -> dict[str, dict[str, Any] | None]:
    """stream -> the summary stored with the snapshot at its head (None: none there)."""
    from ledger.slugs import slugify

    return {s: summary for s, _, summary in led.store.board_summaries(slugify(tournament), snapshots.VERSION)}


def build(led: Ledger) -> None:
    def append(stream: str, facts: list[dict[str, Any]]) -> None:
        led.append(stream, facts)

    pairs_field(append)  # test_adjusted: eight tables, artificial, weighted, a penalty
    t = "pairs"
    append(f"{t}/t9/b1", [opened(t, 9)] + played("4S", 10)[:5])       # in progress (auction over)
    append(f"{t}/t10/b1", [opened(t, 10)])                              # not played
    append(f"{t}/t11/b1", [opened(t, 11, ns="NS1")] + played("3NT", 9))  # NS1 twice on board 1
    append(f"{t}/t1/b2", [opened(t, 1, board=2)] + played("2S", 8))
    append(f"{t}/t2/b2", [opened(t, 2, board=2)] + played("1NT", 7, declarer="E"))
    append(f"{t}/t3/b2", [opened(t, 3, board=2)] + played("2S", 8)
           + [{"type": "AdjustedScoreAwarded", "kind": "assigned", "law": "2017:12C1b", "text": "UI",
               "results": [{"side": "both", "contract": "3S", "declarer": "N", "tricks": 8}]}])
    append(f"{t}/t4/b2", [opened(t, 4, board=2)])
    append(f"{t}/t4/b2", [{"type": "BoardVoided", "reason": "opened by mistake"}])
    c = "capped"  # a 1997 cap (25B2b2)
    append(f"{c}/t1/b1", [opened(c, 1, laws="1997"),
                          {"type": "CallPlaced", "seat": "N", "call": "1S"},
                          {"type": "CallReplaced", "seat": "N", "call": "2S", "unintended": False},
                          {"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
                          {"type": "OptionChosen", "seat": "N", "option": "other_call"}] + played("4S", 10))
    append(f"{c}/t2/b1", [opened(c, 2, laws="1997")] + played("4S", 9))
    append(f"{c}/t3/b1", [opened(c, 3, laws="1997")] + played("2S", 9))
    m = "teams"
    for board in (1, 2):
        for match, (a, b) in (("A v B", ("A", "B")), ("C v D", ("C", "D"))):
            common = {"scoring": "IMP", "match": match, "board": board}
            key = match.replace(" ", "")
            append(f"{m}/{key}/open/b{board}", [opened(m, 1, ns=a, ew=b, room="open", **common)]
                   + played("4S", 10 - board))
            append(f"{m}/{key}/closed/b{board}", [opened(m, 2, ns=b, ew=a, room="closed", **common)]
                   + played("4S", 9 + board))
    append(f"{m}/AvB/closed/b2", [WEIGHTED])
    append(f"{m}/CvD/open/b1", [{"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A+", "ew": "A-",
                                 "text": "director's error", "law": "2017:12C2b"}])
    append(f"{m}/CvD/open/b1", [{"type": "ProceduralPenalty", "side": "NS", "amount": "3 IMP",
                                 "text": "late arrival", "law": "2017:90"}])


TOURNAMENTS = ("pairs", "capped", "teams")


def test_results_from_the_summaries_are_the_results_from_folding(store_url):
    with Ledger.open(store_url, create=True) as led:
        build(led)
        for tournament in TOURNAMENTS:
            expected = folded(led, tournament)
            assert summarised(led, tournament) == expected, tournament
            with Ledger.open(store_url) as fresh:  # no cached head: only what the store holds
                assert summarised(fresh, tournament) == expected, tournament
        doc = folded(led, "pairs")
        kinds = {c["kind"] for c in doc["checks"]}
        assert {"played_twice", "in_progress"} <= kinds, doc["checks"]
        assert {e["status"] for b in doc["boards"] for e in b["results"]} >= {
            "played", "adjusted", "in progress", "not played"}
        assert "pairs/t4/b2" not in {e["stream"] for b in doc["boards"] for e in b["results"]}  # voided
        assert {e["imp_ns"] for b in folded(led, "teams")["boards"] for e in b["results"]} - {None}
        # the ended boards' summaries are read from the store, at their heads
        held = stored(led, "pairs")
        assert held["pairs/t1/b1"] is not None and held["pairs/t1/b1"]["v"] == SUMMARY_VERSION
        assert held["pairs/t10/b1"] is None  # only BoardOpened: no snapshot yet, folded
        for stream, summary in held.items():
            if summary is not None:
                assert summary == plain(summary_of(stream, led.head_state(stream))), stream


def test_a_store_without_summaries_folds_and_rebuild_fills_them(store_url):
    with Ledger.open(store_url, create=True) as led:
        build(led)
        expected = {t: folded(led, t) for t in TOURNAMENTS}
        with led.store.engine.begin() as conn:  # as a store written before revision 0007
            conn.execute(sa.text("UPDATE snapshots SET summary = NULL"))
    with Ledger.open(store_url) as led:
        assert all(s is None for s in stored(led, "pairs").values())
        for tournament in TOURNAMENTS:
            assert summarised(led, tournament) == expected[tournament], tournament
        led.rebuild()
        held = stored(led, "pairs")
        assert held["pairs/t1/b1"] is not None and held["pairs/t9/b1"] is not None
    with Ledger.open(store_url) as led:
        for tournament in TOURNAMENTS:
            assert summarised(led, tournament) == expected[tournament], tournament


def test_a_summary_of_another_version_or_projection_is_not_read(store_url):
    with Ledger.open(store_url, create=True) as led:
        for n in (1, 2, 3):
            board = random_board(random.Random(n), tournament="Rome", board=1, table=str(n), pass_out=0.0)
            led.append(f"rome/t{n}/b1", board.facts)
        expected = folded(led, "Rome")
        with led.store.engine.begin() as conn:  # a wrong summary, of another shape: never read
            conn.execute(sa.text("UPDATE snapshots SET summary = :s WHERE stream = 'rome/t1/b1'"),
                         {"s": json.dumps({"v": SUMMARY_VERSION + 1, "board": {}, "result": {}})})
        assert summarised(led, "Rome") == expected
        assert stored(led, "Rome")["rome/t2/b1"] is not None
        assert led.store.board_summaries("rome", snapshots.VERSION + 1) == [
            ("rome/t1/b1", "Rome", None), ("rome/t2/b1", "Rome", None), ("rome/t3/b1", "Rome", None)]


def test_the_round_a_summary_keeps_is_the_one_results_read_without_the_register():
    from types import SimpleNamespace

    from ledger.summaries import swiss_round
    from projections.event import round_of

    for match, session in (("s1-r3-A-B", "s1"), ("s1-r12", "s1"), ("A v B", "s1"), ("s1-rx-A", "s1"),
                           ("s2-r3-A", "s1"), (None, "s1"), ("s1-r3-A", None)):
        state = SimpleNamespace(board=SimpleNamespace(match=match, session=session, table="1", board=1))
        assert swiss_round(match, session) == round_of(state, None), match  # type: ignore[arg-type]


def test_a_summary_that_cannot_be_computed_never_refuses_the_append(store_url, monkeypatch):
    import ledger.summaries

    def broken(stream, state):
        raise RuntimeError("a bug in the results")

    with Ledger.open(store_url, create=True) as led:
        monkeypatch.setattr(ledger.summaries, "table_result", broken)
        board = random_board(random.Random(4), tournament="Oslo", board=1, pass_out=0.0)
        led.append("oslo/t1/b1", board.facts)
        assert led.head_state("oslo/t1/b1").phase == "ended"
        assert led.store.latest_snapshot("oslo/t1/b1").summary is None  # the snapshot is saved without it
        monkeypatch.undo()
        assert summarised(led, "Oslo") == folded(led, "Oslo")  # folded instead


def test_the_group_committer_and_the_batches_save_the_summaries_too(store_url):
    """A summary goes with its snapshot on every write path: a batch (imports) and the group
    committer (the live server) write it in their own transactions."""
    with Ledger.open(store_url, create=True) as led:
        boards = {f"gc/t{n}/b1": random_board(random.Random(n), tournament="Gc", board=1, table=str(n),
                                              pass_out=0.0).facts for n in (1, 2, 3, 4)}
        with led.batch(["gc/t1/b1", "gc/t2/b1"]):
            led.append("gc/t1/b1", boards["gc/t1/b1"])
            led.append("gc/t2/b1", boards["gc/t2/b1"])
        for stream in ("gc/t3/b1", "gc/t4/b1"):
            for fact in boards[stream]:
                led.grouped().append(stream, [fact])
        held = stored(led, "Gc")
        assert sorted(held) == sorted(boards) and all(s is not None for s in held.values())
        assert summarised(led, "Gc") == folded(led, "Gc")
