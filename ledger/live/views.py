"""What the pages show, computed from the ledger: a table's current board, the
open matters a director must see (with how long each has waited), appeals.

``open_matters`` is this service's own small helper for the console; a pure
function listing open rulings for ``cli.py open`` is being written separately
(issue 15) and the two should become one.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from ledger.errors import StreamNotFound
from ledger.live.sessions import Session
from ledger.records import head_state
from ledger.service import Ledger
from projections.document import to_document

PEOPLE = ("director", "committee")


def head_document(ledger: Ledger, stream: str) -> dict[str, Any] | None:
    """The state document at the stream's head (from the head snapshot when
    current), or None when the stream has no event. Integrity is not
    recomputed here (``Ledger.state`` does, for the board view)."""
    try:
        return to_document(head_state(ledger, stream))
    except StreamNotFound:
        return None


def board_phase(ledger: Ledger, stream: str) -> str | None:
    """The phase at the stream's head (None: no such stream), read from the head
    snapshot's ``phase`` without loading the whole state when the snapshot is
    current (it is written with every append); else from the folded state."""
    from projections import snapshot as snapshots

    snap = ledger.store.load_snapshot(stream)
    if snap is not None and snap.version == snapshots.VERSION and isinstance(snap.state.get("phase"), str):
        return snap.state["phase"]
    doc = head_document(ledger, stream)
    return None if doc is None else doc["phase"]


def current_board(ledger: Ledger, session: Session, table: int) -> dict[str, Any]:
    """The first board of the table's schedule that has not ended (the log decides)."""
    schedule = session.schedule(table)
    for rnd, seating, board in schedule:
        stream = session.stream(table, board)
        phase = board_phase(ledger, stream)
        if phase != "ended":
            doc = None if phase is None else head_document(ledger, stream)
            return {"round": rnd, "board": board, "stream": stream, "ns": seating.ns,
                    "ew": seating.ew, "doc": doc, "done": False}
    return {"round": None, "board": None, "stream": None, "ns": None, "ew": None, "doc": None,
            "done": True}


def writable_streams(ledger: Ledger, session: Session, table: int) -> tuple[dict[str, Any], str | None]:
    """What a table's token may append to: its current board, and the board it
    played just before (a director call or attention drawn after the last
    trick, Law 64), when that one was opened."""
    now = current_board(ledger, session, table)
    boards = [b for _r, _s, b in session.schedule(table)]
    if now["done"]:
        before = boards[-1]
    elif boards.index(now["board"]) > 0:
        before = boards[boards.index(now["board"]) - 1]
    else:
        return now, None
    stream = session.stream(table, before)
    return now, (stream if ledger.store.read(stream, 1) else None)


def table_overview(ledger: Ledger, session: Session, table: int) -> dict[str, Any]:
    now = current_board(ledger, session, table)
    doc = now["doc"]
    phase = "finished" if now["done"] else ("not started" if doc is None else doc["phase"])
    return {"table": table, "label": session.table_label(table), "room": session.room_of(table),
            "round": now["round"], "board": now["board"], "stream": now["stream"],
            "ns": now["ns"], "ew": now["ew"], "phase": phase}


def waited(since: str | None, now: datetime | None = None) -> str:
    """``3 min 12 s`` since an event's ``at``."""
    if not since:
        return ""
    then = datetime.strptime(since, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    seconds = max(0, int(((now or datetime.now(timezone.utc)) - then).total_seconds()))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def open_matters(doc: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What waits for a director on one board: director calls not yet answered
    by a director's event, the engine's open reviews, options not yet chosen,
    a disputed claim, appeals not decided. Each with its seq and ``at``."""
    at = {e["seq"]: e["at"] for e in events}
    matters: list[dict[str, Any]] = []
    last_person = max((e["seq"] for e in events if e["actor"]["role"] in PEOPLE), default=0)
    for e in events:
        if e["type"] == "DirectorCalled" and e["seq"] > last_person:
            matters.append({"kind": "director call", "seq": e["seq"], "at": e["at"],
                            "text": f"{e['data'].get('by')} called the director"})
    for r in doc.get("review") or []:
        matters.append({"kind": "review", "seq": r["seq"], "at": at.get(r["seq"]),
                        "text": r["reason"]})
    for p in doc.get("pending") or []:
        matters.append({"kind": "option", "seq": p["seq"], "at": at.get(p["seq"]),
                        "text": f"{p['to']} to choose: {', '.join(p['options'])} ({p['law']})"})
    claim = doc.get("claim")
    if claim and claim.get("status") == "disputed":
        matters.append({"kind": "disputed claim", "seq": claim["seq"], "at": at.get(claim["seq"]),
                        "text": f"{claim['seat']} claimed {claim['tricks']} of {claim['remaining']}"})
    for a in doc.get("appeals") or []:
        if not a.get("decided"):
            matters.append({"kind": "appeal", "seq": a["seq"], "at": at.get(a["seq"]),
                            "text": f"{a['side']}: {a['text']}"})
    matters.sort(key=lambda m: m["seq"])
    return matters


def console_rows(ledger: Ledger, session: Session) -> list[dict[str, Any]]:
    """One row per table: what it plays now and what waits for the director on
    any of its boards (an earlier board may still have an open matter)."""
    rows = []
    for table in range(1, session.tables + 1):
        row = table_overview(ledger, session, table)
        matters = []
        for _rnd, _seating, board in session.schedule(table):
            stream = session.stream(table, board)
            doc = head_document(ledger, stream)
            if doc is None:
                continue
            if doc.get("review") or doc.get("pending") or doc.get("claim") or doc.get("appeals") \
                    or any(p["type"] == "DirectorCalled" for p in doc.get("procedure") or []):
                envelopes = [e.envelope() for e in ledger.store.read(stream)]
                for m in open_matters(doc, envelopes):
                    matters.append({**m, "stream": stream, "board": board, "waited": waited(m["at"])})
        row["matters"] = matters
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
