"""Case files and results in the time of their tournament (issue 28, item 4), on both
stores: the boards of a tournament come from the index written with ``BoardOpened``
(revision 0005), so what a case file, ``results`` and ``open`` read does not grow with
the other tournaments in the store; the case file's traveller reads the boards' results
summaries kept with their snapshots (revision 0007) by one query, folding none. Counted in store calls and rows read (and, on
SQLite, SQL statements), not in time."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import sqlalchemy as sa

from ledger.casefile import build_casefile
from ledger.service import Ledger
from ledger.simulate import random_board
from ledger.store.sql import open_store
from ledger.tournament import board_streams, tournament_tables


class Counting:
    """The store, counting each method called and the rows (items) its answers held."""

    def __init__(self, store: Any, hide: tuple[str, ...] = ()) -> None:
        self._store, self._hide = store, hide
        self.calls: Counter[str] = Counter()
        self.rows = 0

    def __getattr__(self, name: str) -> Any:
        if name in self._hide:
            raise AttributeError(name)
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            out = attr(*args, **kwargs)
            if isinstance(out, list):
                self.rows += len(out)
            return out
        return counted


def fill(url: str, tournament: str, boards: range) -> None:
    with Ledger.open(url) as led:
        for n in boards:
            board = random_board(random.Random(n), tournament=tournament, board=n, pass_out=0.0)
            led.append(f"{tournament.lower().replace(' ', '-')}/b{n}", board.facts)


def measure(url: str, hide: tuple[str, ...] = (), earlier: Any = None) -> tuple[Counter[str], int, int, dict[str, Any]]:
    """(store calls, rows read, SQL statements on SQLite (else 0), the case file) of one
    case file of board 2 of Paris, from a fresh ledger (no cache); ``earlier``: the earlier
    decisions, as ``cli.py casefile`` adds them."""
    store = open_store(url)
    statements = []
    if store.engine.dialect.name == "sqlite":
        store.engine.dispose()
        sa.event.listen(store.engine, "connect",
                        lambda dbapi, _rec: dbapi.set_trace_callback(statements.append))
    counting = Counting(store, hide)
    led = Ledger(counting)  # type: ignore[arg-type]
    try:
        case = build_casefile(led, "paris/b2", earlier=earlier)
    finally:
        store.close()
    return counting.calls, counting.rows, len(statements), case


def test_a_case_file_reads_the_same_whatever_else_the_store_holds(store_url):
    with Ledger.open(store_url, create=True):
        pass
    fill(store_url, "Paris", range(1, 4))
    fill(store_url, "Other", range(1, 3))
    small = measure(store_url)
    fill(store_url, "Other", range(3, 21))  # ten times the other boards
    large = measure(store_url)
    assert small[3]["traveller"] == large[3]["traveller"] and len(large[3]["traveller"]) >= 1
    assert small[0] == large[0], "the same store calls"
    assert small[1] == large[1], "the same rows read"
    assert small[2] == large[2], "the same SQL statements (SQLite)"
    # the traveller: the tournament's summaries by one query (revision 0007), no board folded:
    # the board's own events and that query are all the case file reads
    assert large[0] == Counter({"read": 1, "board_summaries": 1}), large[0]
    # without the summaries, the tournament's boards by the index, each one's head state
    folding = measure(store_url, hide=("board_summaries",))
    assert folding[3]["traveller"] == large[3]["traveller"]
    assert folding[0]["boards"] == 1 and folding[0]["latest_snapshot"] == 3 and "streams" not in folding[0]
    if "sqlite" in store_url:
        assert folding[2] > large[2], "more SQL statements when each board is folded"
    # without the index either, the traveller reads every stream's first event: the count grows
    scan_small_rows = measure(store_url, hide=("boards", "board_summaries"))
    assert scan_small_rows[3]["traveller"] == large[3]["traveller"]
    assert scan_small_rows[0]["read"] > large[0]["read"] + 15


def test_results_and_open_find_the_same_boards_by_the_index_as_by_reading_every_stream(store_url):
    with Ledger.open(store_url, create=True):
        pass
    fill(store_url, "Paris Open", range(1, 4))
    fill(store_url, "Lyon", range(1, 3))
    with Ledger.open(store_url) as led:
        scan = Ledger(Counting(led.store, hide=("boards",)))  # type: ignore[arg-type]
        for asked in ("Paris Open", "paris-open", "PARIS open", "Lyon", None, "Nowhere"):
            assert board_streams(led, asked) == board_streams(scan, asked), asked
            by_index = [(s, t.board.board) for s, t in tournament_tables(led, asked)]
            assert by_index == [(s, t.board.board) for s, t in tournament_tables(scan, asked)]
        assert len(board_streams(led, "paris open")) == 3 and board_streams(led, "Nowhere") == []


def test_results_and_open_on_the_command_line_read_the_index(store_url, monkeypatch, capsys):
    import json

    from ledger.cli import main

    with Ledger.open(store_url, create=True):
        pass
    fill(store_url, "Paris", range(1, 3))
    monkeypatch.setenv("LEDGER_DB", store_url)
    capsys.readouterr()
    assert main(["results", "paris", "--json"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out[out.index("{"):])
    assert sorted(b["board"] for b in doc["boards"]) == [1, 2]
    assert main(["open", "paris", "--json"]) == 0
    assert main(["results", "lyon"]) == 2 and "no board of that tournament" in capsys.readouterr().err


APPEAL = [{"type": "AppealLodged", "side": "EW", "text": "the ruling is wrong",
           "actor": {"role": "director", "name": "TD"}},
          {"type": "AppealDecided", "decision": "upheld", "text": "the ruling stands",
           "actor": {"role": "committee", "name": "AC"}}]


def test_the_case_file_of_the_command_line_with_earlier_decisions_reads_the_appeals_by_their_index(store_url):
    """``cli.py casefile`` adds the earlier decisions of every tournament's appeals: the
    appealed boards come from the index of AppealLodged (revision 0007), so the case file
    still reads the same whatever boards without appeals the store holds."""
    from ledger.appeals import earlier_decisions

    with Ledger.open(store_url, create=True) as led:
        fill(store_url, "Paris", range(1, 4))
        led.append("paris/b1", [{"type": "AdjustedScoreAwarded", "kind": "assigned", "law": "2017:64A2",
                                 "text": "revoke", "actor": {"role": "director", "name": "TD"},
                                 "results": [{"side": "both", "contract": "3NT", "declarer": "N", "tricks": 9}]}]
                   + APPEAL)
        led.append("paris/b2", [{"type": "AdjustedScoreAwarded", "kind": "assigned", "law": "2017:64A1",
                                 "text": "revoke", "actor": {"role": "director", "name": "TD"},
                                 "results": [{"side": "both", "contract": "3NT", "declarer": "N", "tricks": 8}]}])
        assert led.store.appealed_streams() == ["paris/b1"]
    fill(store_url, "Other", range(1, 3))
    small = measure(store_url, earlier=earlier_decisions)
    fill(store_url, "Other", range(3, 21))
    large = measure(store_url, earlier=earlier_decisions)
    assert [e["stream"] for e in large[3]["earlier"]] == ["paris/b1"]
    assert small[3]["earlier"] == large[3]["earlier"] and small[3]["traveller"] == large[3]["traveller"]
    assert small[0] == large[0] and small[1] == large[1] and small[2] == large[2]
    assert large[0]["appealed_streams"] == 1 and "streams" not in large[0]
    # without the index, every stream of the store is read: the count grows
    scan = measure(store_url, hide=("appealed_streams",), earlier=earlier_decisions)
    assert scan[3]["earlier"] == large[3]["earlier"]
    assert scan[0]["read"] > large[0]["read"] + 15
