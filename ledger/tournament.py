"""Which boards make a tournament's field (``cli.py results``, ``open``, the case file's
traveller).

A board is in a tournament's field when its ``BoardOpened.tournament`` is the name
given, or when both names have the same slug (``results paris`` finds the boards of
"Paris"). The stream id is only an address: a stream ``demo/club/b5`` or a stream
whose name does not begin with the slug is in the field all the same. Which table,
board, session, pairs and room a board is comes from its ``BoardOpened`` too
(docs/director.md).

The boards are found by the store's index of ``BoardOpened`` (``boards``, revision
0005, written with the event): one indexed query for the tournament, then each of
its boards' head state (its last snapshot and the events after it), so ``results``,
``open`` and the case file's traveller cost what the tournament holds, not what the
store holds (issue 28, item 4). A store without the index is read the old way, every
stream's first event.

A tournament's results need less than each board's state: :func:`tournament_summaries` reads
the results summary saved with each board's snapshot (``ledger.summaries``, revision 0007) by
one query, the index joined with the snapshots at their stream's head, and folds only the
boards without one (a board in play whose last snapshot is behind its head, a store written
before 0007 until ``rebuild``); :func:`tournament_results` scores them. The case file's
traveller reads them so.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from ledger.records.games import head_state, slugify
from ledger.service import Ledger
from ledger.store.base import BoardIndex, BoardSummaries
from ledger.summaries import SUMMARY_VERSION, results_of, summary_of
from projections import snapshot as snapshots
from projections.state import TableState


def _natural(text: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def same_tournament(name: str, asked: str) -> bool:
    """``name`` (a BoardOpened's) answers ``asked`` (the command line's): equal, or equal slugs."""
    return name == asked or slugify(name) == slugify(asked)


def opened_streams(ledger: Ledger) -> Iterable[tuple[str, dict[str, Any]]]:
    """(stream, BoardOpened data) for every stream of the ledger that opens a board."""
    for stream in ledger.store.streams():
        first = ledger.store.read(stream, 1)
        if first and first[0].type == "BoardOpened":
            yield stream, first[0].data


def board_streams(ledger: Ledger, tournament: str | None = None) -> list[str]:
    """The streams of the boards of ``tournament`` (every board when None): from the
    store's index when it has one (one query), else from every stream's first event."""
    if isinstance(ledger.store, BoardIndex):
        return [stream for stream, name in ledger.store.boards(None if tournament is None else slugify(tournament))
                if tournament is None or same_tournament(name, tournament)]
    return [stream for stream, data in opened_streams(ledger)
            if tournament is None or same_tournament(str(data.get("tournament")), tournament)]


def tournament_tables(ledger: Ledger, tournament: str | None = None, *,
                      with_voided: bool = False) -> list[tuple[str, TableState]]:
    """The boards of ``tournament`` (every board when None), with their head states,
    ordered by board, room (open first), table, then stream. A board voided as opened by
    mistake (``BoardVoided``) is not in the field unless ``with_voided``."""
    found = [(stream, head_state(ledger, stream)) for stream in board_streams(ledger, tournament)]
    if not with_voided:
        found = [(stream, state) for stream, state in found if not is_voided(state)]
    return sort_tables(found)


def tournament_summaries(ledger: Ledger, tournament: str | None = None, *,
                         with_voided: bool = False) -> list[tuple[str, dict[str, Any]]]:
    """The boards of ``tournament`` (every board when None) with their results summaries at
    their heads (``ledger.summaries``), in the order of :func:`tournament_tables`: the
    summaries saved with the snapshots, by one query when the store keeps them; a board
    without one at its head is folded (its head state) and summarised here."""
    store = ledger.store
    if not isinstance(store, BoardSummaries):
        found = [(stream, summary_of(stream, state))
                 for stream, state in tournament_tables(ledger, tournament, with_voided=True)]
    else:
        found = []
        for stream, name, summary in store.board_summaries(None if tournament is None else slugify(tournament),
                                                           snapshots.VERSION):
            if tournament is not None and not same_tournament(name, tournament):
                continue
            if summary is None or summary.get("v") != SUMMARY_VERSION:
                summary = summary_of(stream, head_state(ledger, stream))
            found.append((stream, summary))
    if not with_voided:
        found = [(stream, summary) for stream, summary in found if not summary["voided"]]
    return sort_summaries(found)


def sort_summaries(rows: Iterable[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """Summaries in the field's order (that of :func:`sort_tables`)."""
    rooms = {"open": 0, "closed": 1}
    return sorted(rows, key=lambda item: (item[1]["board"]["tournament"], item[1]["board"]["board"],
                                          rooms.get(item[1]["board"]["room"] or "", 2),
                                          _natural(item[1]["board"]["table"]), item[0]))


def tournament_results(ledger: Ledger, tournament: str) -> dict[str, Any]:
    """The results document of spec section 8 (:func:`projections.results.results`) of the
    tournament's field, scored from the boards' summaries (no board folded that has one)."""
    return results_of(tournament, tournament_summaries(ledger, tournament))


def is_voided(state: TableState) -> bool:
    """The board was opened by mistake and voided (``BoardVoided``)."""
    return any(f.type == "BoardVoided" for f in state.board_facts)


def withdrawal(state: TableState) -> dict[str, Any] | None:
    """``{"law", "reason", "seq"}`` of the board's ``BoardWithdrawn``, or None."""
    for f in reversed(state.board_facts):
        if f.type == "BoardWithdrawn":
            return {"law": f.law, "reason": f.detail, "seq": f.seq}
    return None


def sort_tables(tables: Iterable[tuple[str, TableState]]) -> list[tuple[str, TableState]]:
    rooms = {"open": 0, "closed": 1}
    return sorted(tables, key=lambda item: (item[1].board.tournament, item[1].board.board,
                                            rooms.get(item[1].board.room or "", 2),
                                            _natural(item[1].board.table), item[0]))


def event_times(ledger: Ledger, stream: str) -> dict[int, str]:
    """seq -> ``at`` (UTC ISO) of every event of the stream (waiting times, ``open``)."""
    return {e.seq: e.at for e in ledger.store.read(stream)}


# -- a session's boards and digest --------------------------------------------------------------


def board_in_session(fact: dict[str, Any], session: str) -> dict[str, Any]:
    """A ``BoardOpened`` fact with its ``session`` (docs/EXTENSIONS.md): what any path that opens a
    board for a session (``enter``, the live service's table terminals) writes, so that the board
    belongs to its session's results and digest."""
    from ledger.events import BoardOpened

    if fact.get("type") != BoardOpened.TYPE:
        raise ValueError("only a BoardOpened names its session")
    return {**fact, "session": session}


def session_streams(ledger: Ledger, tournament: str, session: str) -> list[str]:
    """The streams of ``session``'s boards (``BoardOpened.session``), voided ones included (the
    digest covers what the store holds), in stream order."""
    found = []
    for stream in board_streams(ledger, tournament):
        first = ledger.store.read(stream, 1)
        if first and first[0].data.get("session") == session:
            found.append(stream)
    return sorted(found)


def session_digest(ledger: Ledger, tournament: str, session: str) -> tuple[Any, list[dict[str, Any]]]:
    """A session's digest and its boards: the RFC 9162 Merkle tree head (the same leaves as the
    log's tree, ``0x00 || event chain hash``) over every event of the session's boards, board
    by board in stream order, each board's events in seq order; and per board its stream, its
    events and its head hash. A change to any event of the session (or a board added, removed or
    truncated) changes the digest; boards of other sessions do not."""
    from ledger.audit.merkle import Digest, leaf_hash, root_of

    leaves = []
    boards = []
    for stream in session_streams(ledger, tournament, session):
        events = ledger.store.read(stream)
        leaves += [leaf_hash(e.hash) for e in events]
        boards.append({"stream": stream, "events": len(events), "head": events[-1].hash if events else None})
    return Digest(len(leaves), root_of(leaves).hex()), boards
