"""The director's pages: the console (and its panel), a board's page, the boards of a tournament."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from ledger.live import views
from ledger.live.deps import DirectorPage, LiveDep, PeoplePage, Person
from ledger.live.pages import SEAT_NAMES, auction_grid, state_as_cli
from ledger.live.sessions import Session, list_sessions
from ledger.live.state import LiveState
from ledger.service import check_stream_id

router = APIRouter(include_in_schema=False)


def chosen_session(sessions: list[Session], session_id: int | None) -> Session | None:
    """The session asked for, else the newest open one, else the newest."""
    if session_id is not None:
        chosen = next((s for s in sessions if s.id == session_id), None)
        if chosen is not None:
            return chosen
    pool = [s for s in sessions if s.closed_at is None] or sessions
    return pool[-1] if pool else None


def device_words(live: LiveState, session: Session, table: int) -> list[str]:
    """The devices of a table that follow the live feed now, in words."""
    here = live.connected.get((session.id, table), {})
    return [("the table's device" if k == "table" else f"{SEAT_NAMES[k]}'s phone")
            for k in ("table", "N", "E", "S", "W") if here.get(k)]


def console_context(live: LiveState, who: Person, session_id: int | None) -> dict[str, Any]:
    sessions = list_sessions(live.engine)
    chosen = chosen_session(sessions, session_id)
    rows = views.console_rows(live.ledger, chosen) if chosen else []
    for row in rows:
        row["devices"] = device_words(live, chosen, row["table"]) if chosen else []
    results = views.session_results(live.ledger, chosen) if chosen else None
    return {"who": who, "csrf": who.csrf, "sessions": sessions, "session": chosen, "rows": rows,
            "results": results, "title": "Director's console"}


@router.get("/director", response_class=HTMLResponse)
def director(who: DirectorPage, live: LiveDep, session: int | None = None) -> Response:
    return HTMLResponse(live.env.get_template("director.html").render(**console_context(live, who, session)))


@router.get("/director/panel", response_class=HTMLResponse)
def director_panel(who: DirectorPage, live: LiveDep, session: int | None = None) -> Response:
    return HTMLResponse(live.env.get_template("director_panel.html").render(**console_context(live, who, session)))


@router.get("/director/board/{stream:path}", response_class=HTMLResponse)
def director_board(stream: str, who: PeoplePage, live: LiveDep) -> Response:
    check_stream_id(stream)
    doc = live.ledger.state(stream)
    envelopes = [e.envelope() for e in live.ledger.events(stream)]
    matters = views.matters(live.ledger, [stream])
    page = live.env.get_template("board.html").render(
        who=who, csrf=who.csrf, stream=stream, doc=doc, events=envelopes, matters=matters,
        grid=auction_grid(doc), title=f"Board {doc['board']['number']}: {stream}",
        state_text=state_as_cli(doc), deal=views.compass(doc["board"].get("deal")),
        sentence=views.log_sentence, voidable=views.voidable(envelopes),
        questions=views.review_questions(doc, envelopes))
    return HTMLResponse(page)


@router.get("/director/boards/{tournament}", response_class=HTMLResponse)
def director_boards(tournament: str, who: DirectorPage, live: LiveDep, session: str | None = None,
                    table: str | None = None, pair: str | None = None, rulings: str | None = None) -> Response:
    """The boards of a tournament, as ``cli.py boards`` lists them (projections.event.board_rows)."""
    from ledger.register import read_register
    from ledger.tournament import tournament_tables
    from projections.event import board_rows

    filters: dict[str, Any] = {"session": session or None, "table": table or None, "pair": pair or None,
                               "rulings": bool(rulings)}
    rows = board_rows(tournament_tables(live.ledger, tournament, with_voided=True),
                      read_register(live.ledger, tournament), session=session or None, table=table or None,
                      pair=pair or None, has_rulings=bool(rulings))
    return HTMLResponse(live.env.get_template("boards.html").render(
        who=who, csrf=who.csrf, tournament=tournament, rows=rows, filters=filters, title=f"Boards of {tournament}"))
