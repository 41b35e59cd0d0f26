"""What the pages show, computed from the ledger: a table's current board, the
open matters a director must see (with how long each has waited), appeals.

The open matters are :func:`projections.waiting.open_rulings`, the function
``cli.py open`` prints: the console and the command agree by construction.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Iterable

from ledger.errors import StreamNotFound
from ledger.live.sessions import Session
from ledger.records import head_state
from ledger.service import Ledger
from ledger.tournament import event_times
from projections.document import to_document
from projections.waiting import open_rulings, waited_text, waiting

def head_document(ledger: Ledger, stream: str) -> dict[str, Any] | None:
    """The state document at the stream's head (from the head snapshot when
    current), or None when the stream has no event. Integrity is not
    recomputed here (``Ledger.state`` does, for the board view)."""
    try:
        return to_document(head_state(ledger, stream))
    except StreamNotFound:
        return None


def board_phase(ledger: Ledger, stream: str) -> str | None:
    """The phase at the stream's head (None: no such stream), from the ledger's
    cached head or its last snapshot plus the events after it."""
    try:
        return str(ledger.head_state(stream).phase)
    except StreamNotFound:
        return None


def locate(ledger: Ledger, session: Session, table: int, start: int = 0) -> int:
    """The index in the table's schedule of the first board from ``start`` on that has
    not ended (the log decides); the schedule's length when every one has."""
    schedule = session.schedule(table)
    for index in range(start, len(schedule)):
        if board_phase(ledger, session.stream(table, schedule[index][2])) != "ended":
            return index
    return len(schedule)


def board_at(ledger: Ledger, session: Session, table: int, index: int, *,
             with_doc: bool = True) -> dict[str, Any]:
    """The table's board at ``index`` of its schedule (past the end: the session is done)."""
    schedule = session.schedule(table)
    if index >= len(schedule):
        return {"round": None, "board": None, "stream": None, "ns": None, "ew": None, "doc": None,
                "done": True}
    rnd, seating, board = schedule[index]
    stream = session.stream(table, board)
    doc = head_document(ledger, stream) if with_doc else None
    return {"round": rnd, "board": board, "stream": stream, "ns": seating.ns, "ew": seating.ew,
            "doc": doc, "done": False}


def current_board(ledger: Ledger, session: Session, table: int) -> dict[str, Any]:
    """The first board of the table's schedule that has not ended (the log decides)."""
    return board_at(ledger, session, table, locate(ledger, session, table))


def writable_streams(ledger: Ledger, session: Session, table: int) -> tuple[dict[str, Any], str | None]:
    """What a table's token may append to: its current board, and the board it
    played just before (a director call or attention drawn after the last
    trick, Law 64), when that one was opened."""
    index = locate(ledger, session, table)
    now = board_at(ledger, session, table, index, with_doc=False)
    if index == 0:
        return now, None
    stream = session.stream(table, session.schedule(table)[index - 1][2])
    return now, (stream if ledger.store.read(stream, 1) else None)


def table_overview(ledger: Ledger, session: Session, table: int) -> dict[str, Any]:
    now = current_board(ledger, session, table)
    doc = now["doc"]
    phase = "finished" if now["done"] else ("not started" if doc is None else doc["phase"])
    return {"table": table, "label": session.table_label(table), "room": session.room_of(table),
            "round": now["round"], "board": now["board"], "stream": now["stream"],
            "ns": now["ns"], "ew": now["ew"], "phase": phase}


def matters(ledger: Ledger, streams: Iterable[str], now: datetime | None = None) -> list[dict[str, Any]]:
    """What waits for the director on these boards: :func:`projections.waiting.open_rulings`
    (what ``cli.py open`` prints: one function decides what is open and how long it has
    waited), longest wait first, each as a dict with ``text`` and ``waited`` for the pages."""
    boards = []
    for stream in streams:
        try:
            state = head_state(ledger, stream)
        except StreamNotFound:
            continue
        if waiting(stream, state, director_calls=True):  # the times only where something waits
            boards.append((stream, state, event_times(ledger, stream)))
    found = open_rulings(boards, now or datetime.now(timezone.utc))
    return [{**w.to_json(), "text": w.what, "waited": waited_text(w.waited_s)} for w in found]


def console_rows(ledger: Ledger, session: Session, now: datetime | None = None) -> list[dict[str, Any]]:
    """One row per table: what it plays now and what waits for the director on
    any of its boards (an earlier board may still have an open matter)."""
    rows = []
    for table in range(1, session.tables + 1):
        row = table_overview(ledger, session, table)
        streams = [session.stream(table, board) for _rnd, _seating, board in session.schedule(table)]
        row["matters"] = matters(ledger, streams, now)
        rows.append(row)
    return rows


def session_results(ledger: Ledger, session: Session) -> dict[str, Any]:
    """The session's travellers and standings so far (projections.results)."""
    from projections.results import results

    tables = []
    for stream in ledger.store.streams(prefix=session.prefix):
        try:
            tables.append((stream, head_state(ledger, stream)))
        except StreamNotFound:
            continue
    tables.sort(key=lambda item: (item[1].board.board, item[0]))
    return results(session.tournament, tables)
