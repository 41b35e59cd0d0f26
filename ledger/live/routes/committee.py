"""The appeals committee's pages: the appeals of the open sessions, a case file, the register."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from ledger.live import views
from ledger.live.deps import LiveDep, PeoplePage
from ledger.live.sessions import list_sessions
from ledger.live.state import LiveState
from ledger.service import check_stream_id

router = APIRouter(include_in_schema=False)


def appeals_listed(live: LiveState) -> list[dict[str, Any]]:
    """Every appeal on a board of a session, with its stream and board number."""
    appeals = []
    for s in list_sessions(live.engine):
        for stream in live.ledger.store.streams(prefix=s.prefix):
            doc = views.head_document(live.ledger, stream)
            if doc is None:
                continue
            for a in doc.get("appeals") or []:
                appeals.append({**a, "stream": stream, "board": doc["board"]["number"]})
    return appeals


@router.get("/committee", response_class=HTMLResponse)
def committee(who: PeoplePage, live: LiveDep) -> Response:
    page = live.env.get_template("committee.html").render(who=who, csrf=who.csrf, appeals=appeals_listed(live),
                                                          title="Appeals committee")
    return HTMLResponse(page)


@router.get("/committee/casefile/{stream:path}", response_class=HTMLResponse)
def committee_casefile(stream: str, who: PeoplePage, live: LiveDep) -> Response:
    from ledger.casefile import build_casefile, render_html

    check_stream_id(stream)
    return HTMLResponse(render_html(build_casefile(live.ledger, stream)))


@router.get("/committee/register", response_class=HTMLResponse)
def committee_register(who: PeoplePage, live: LiveDep, law: str = "", tournament: str = "", since: str = "",
                       until: str = "", outcome: str = "") -> Response:
    """The appeals register of the store (issue 25, ledger/appeals.py), filtered."""
    from ledger.appeals import OUTCOMES, register

    asked = {"law": law.strip(), "tournament": tournament.strip(), "since": since.strip(),
             "until": until.strip(), "outcome": outcome.strip()}
    bad = [k for k in ("since", "until") if asked[k] and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", asked[k])]
    if asked["outcome"] and asked["outcome"] not in OUTCOMES:
        bad.append("outcome")
    entries = [] if bad else register(live.ledger, **{k: v or None for k, v in asked.items()})
    page = live.env.get_template("register.html").render(who=who, csrf=who.csrf, entries=entries, asked=asked,
                                                         bad=bad, outcomes=OUTCOMES, title="Appeals register")
    return HTMLResponse(page, status_code=400 if bad else 200)
