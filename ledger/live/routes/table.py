"""A table device's pages: ``/table/<token>`` and its panel (the part the page reloads).

What a device shows is the state as the device may have it (``views.device_view``: no
hand it may not show is in the page, Law 16), the bidding box's caller, the undo, the
claim's answers, and after a board its traveller and the pairs' moves.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from ledger.live import views
from ledger.live.accounts import Refused
from ledger.live.deps import LiveDep, Table, table_from_token
from ledger.live.pages import auction_grid, option_buttons
from ledger.live.sessions import Session
from ledger.live.state import LiveState

router = APIRouter(include_in_schema=False)

BIDS = [f"{level}{s}" for level in range(1, 8) for s in ("C", "D", "H", "S", "NT")]


def previous_board(live: LiveState, who: Table, now: dict[str, Any]) -> dict[str, Any] | None:
    """The board the table played before this one (or its last, once done): its state as
    the device may have it, its traveller, the claim's answers, and the pairs' moves when a
    round ended."""
    session, table = who.session, who.grant.table
    boards = [b for _r, _s, b in session.schedule(table)]
    rounds = [r for r, _s, _b in session.schedule(table)]
    if not (now["board"] in boards and boards.index(now["board"]) > 0 or now["done"]):
        return None
    index = boards.index(now["board"]) - 1 if not now["done"] else len(boards) - 1
    before = boards[index]
    prev_stream = session.stream(table, before)
    prev_doc = views.head_document(live.ledger, prev_stream)
    if prev_doc is None:
        return None
    return {"board": before, "doc": views.device_view(prev_doc, who.seat),
            "traveller": views.traveller(live.ledger, session, before),
            "moves": round_moves(session, table, now, rounds[index]),
            "round": rounds[index], "stream": prev_stream,
            "claim_answers": agreed_claim_answers(live, prev_stream, prev_doc)}


def round_moves(session: Session, table: int, now: dict[str, Any], played_round: int) -> list[Any]:
    """Where the pairs go when the round the board was played in ended ("move to table N")."""
    if now["done"] or played_round == now["round"]:
        return []
    return views.moves(session, table, now["round"])


def agreed_claim_answers(live: LiveState, stream: str, doc: dict[str, Any]) -> dict[str, Any]:
    """The opponents' answers to a claim agreed but not yet established."""
    claim = doc.get("claim") or None
    if not claim or claim.get("status") != "agreed" or claim.get("established"):
        return {}
    records = [e.envelope() for e in live.ledger.events(stream)]
    return views.claim_answers(records, claim.get("seq"))


def entry_mode(session: Session, mode: str | None, records: list[dict[str, Any]]) -> str:
    """Quick entry, or card by card: the session's choice, the page's, and a board already
    logged card by card. A seat device is offered quick entry as the shared device is (a
    table whose players use their phones enters the result on one of them, the opponents
    confirming on it, Law 79A1); it logs card by card in a session that does."""
    voided = {e["data"].get("about") for e in records if e["type"] == "EntryVoided"}
    logged = any(e["type"] in ("CallPlaced", "CardPlayed", "ClaimMade") and e["seq"] not in voided
                 for e in records)
    return "cards" if (session.entry == "cards" or mode == "cards" or logged) else "quick"


def bidding_caller(doc: dict[str, Any] | None, records: list[dict[str, Any]]) -> Any:
    """Whose call the bidding box logs (during the auction)."""
    if not doc or doc["phase"] != "auction":
        return None
    voided = {e["data"].get("about") for e in records if e["type"] == "EntryVoided"}
    calls = [e["data"]["seat"] for e in records if e["type"] == "CallPlaced" and e["seq"] not in voided]
    return views.next_caller(doc, calls)


def undo_offer(who: Table, records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The table's own last entry, which it may void (a seat device: only its own)."""
    undo = views.last_own_entry(records)
    if undo is None or (who.seat and undo.get("actor") != who.actor):
        return None
    return {"seq": undo["seq"], "words": views.entry_words(undo)}


def table_context(live: LiveState, token: str, mode: str | None = None) -> dict[str, Any]:
    """What a table device shows (module docstring)."""
    who = table_from_token(live, token)
    session, table = who.session, who.grant.table
    now = views.current_board(live.ledger, session, table)
    doc = now["doc"] = views.device_view(now["doc"], who.seat)
    previous = previous_board(live, who, now)
    records = [e.envelope() for e in live.ledger.events(now["stream"])] if doc else []
    claim = (doc or {}).get("claim") or None
    started = views.round_started(live.ledger, session, table, now["round"]) if now["round"] else None
    options = [o for o in option_buttons(doc) if who.seat in (None, o["seat"])] if doc else []
    return {"token": token, "session": session, "table": table, "now": now,
            "previous": previous, "seat": who.seat, "entry": entry_mode(session, mode, records),
            "reported": any(e["type"] == "ResultReported" for e in records),
            "doc": doc, "grid": auction_grid(doc) if doc else None,
            "caller": bidding_caller(doc, records), "undo": undo_offer(who, records),
            "claim_answers": views.claim_answers(records, claim.get("seq") if claim else None),
            "round_started": started, "option_buttons": options, "bids": BIDS}


def table_refused(live: LiveState, exc: Refused) -> HTMLResponse:
    page = live.env.get_template("refused.html").render(reason=exc.reason, title="Table")
    return HTMLResponse(page, status_code=exc.status)


def render_table(live: LiveState, template: str, token: str, mode: str | None) -> HTMLResponse:
    try:
        ctx = table_context(live, token, mode)
    except Refused as exc:
        return table_refused(live, exc)
    return HTMLResponse(live.env.get_template(template).render(**ctx))


@router.get("/table/{token}", response_class=HTMLResponse)
def table_page(token: str, live: LiveDep, mode: str | None = None) -> HTMLResponse:
    return render_table(live, "table.html", token, mode)


@router.get("/table/{token}/panel", response_class=HTMLResponse)
def table_panel(token: str, live: LiveDep, mode: str | None = None) -> HTMLResponse:
    return render_table(live, "table_panel.html", token, mode)
