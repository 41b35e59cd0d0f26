"""Who is signed in: the home page's redirect by role, and sign-out (sign-in itself,
with its throttle and device cookies, is ``ledger.live.signin``)."""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from ledger.live import accounts
from ledger.live.accounts import Refused
from ledger.live.deps import COOKIE, LiveDep, person_page

router = APIRouter(include_in_schema=False)


@router.get("/")
def home(request: Request, live: LiveDep) -> Response:
    who = person_page(live, request, ("director", "committee"))
    if who is None:
        return RedirectResponse("/login", status_code=303)
    return RedirectResponse("/director" if who.user.role == "director" else "/committee", status_code=303)


@router.post("/logout")
async def logout(request: Request, live: LiveDep) -> Response:
    body = (await request.body())[:4096].decode("utf-8", "replace")
    form = {k: v[0] for k, v in parse_qs(body).items()}
    ws = accounts.web_session(live.engine, request.cookies.get(COOKIE))
    if ws is not None and form.get("csrf") != ws.csrf:
        raise Refused("missing or wrong CSRF token", 403)
    accounts.close_web_session(live.engine, request.cookies.get(COOKIE))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response
