"""Who is signed in: the sign-in form and its post, sign-out, and the home page's redirect
by role. How sign-in is kept safe (the pre-session, the origin, the throttle, the device
cookie) is ``ledger.live.signin``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.live import accounts, signin
from ledger.live.accounts import Refused
from ledger.live.deps import COOKIE, LiveDep, person_page
from ledger.live.state import LiveState

router = APIRouter(include_in_schema=False)


def form_page(live: LiveState, request: Request, next_page: str, error: str | None, status: int,
              headers: dict[str, str] | None = None) -> HTMLResponse:
    return signin.login_form(live.env, live.signin_key, live.secure_cookies, request, next_page, error,
                             status, headers)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, live: LiveDep, next: str = "") -> HTMLResponse:
    return form_page(live, request, next[:500], None, 200)


@router.post("/login")
async def login(request: Request, live: LiveDep) -> Response:
    form = signin.form_fields(await request.body())
    next_page = form.get("next", "")[:500]
    foreign = signin.foreign_refusal(request, live.secure_cookies)
    if foreign is not None:
        return form_page(live, request, "", foreign, 403)
    stale = signin.presession_refusal(live.signin_key, request, form)
    if stale is not None:
        return form_page(live, request, next_page, stale, 403)
    name = form.get("name", "")[:100]
    password = form.get("password", "")[:1024]
    address = request.client.host if request.client else "unknown"
    stored_hash = await run_in_threadpool(signin.account_hash, live.engine, name)
    known, device, signatures, keys = signin.throttle_keys(stored_hash, request.cookies.get(signin.DEVICE_COOKIE),
                                                           name, address)
    wait = live.throttle.wait(keys)
    if wait:
        why = "from this device" if known else "for this name or from this address"
        return form_page(live, request, next_page, f"Too many wrong passwords {why}: wait {wait} s "
                         "before trying again. A device that has signed in to this account "
                         "before is not kept waiting by other people's attempts.", 429,
                         {"Retry-After": str(wait)})
    try:
        user = await run_in_threadpool(accounts.authenticate, live.engine, name, password)
    except Refused as exc:
        live.throttle.failed(keys)
        signin.log.info("live_signin_failed", name=name, address=address, known_device=known)
        return form_page(live, request, next_page, exc.reason, 401)
    live.throttle.succeeded(keys)
    session_value, _csrf = await run_in_threadpool(accounts.open_web_session, live.engine, user)
    response = RedirectResponse(signin.landing(next_page, user.role), status_code=303)
    response.delete_cookie(signin.PRESESSION_COOKIE, path="/")
    signin.set_cookie(response, COOKIE, session_value, accounts.SESSION_HOURS * 3600, live.secure_cookies)
    if stored_hash:
        signin.remember_device(response, stored_hash, device, signatures, live.secure_cookies)
    signin.log.info("live_signin", name=user.name, address=address, known_device=known)
    return response


@router.get("/")
def home(request: Request, live: LiveDep) -> Response:
    who = person_page(live, request, ("director", "committee"))
    if who is None:
        return RedirectResponse("/login", status_code=303)
    return RedirectResponse("/director" if who.user.role == "director" else "/committee", status_code=303)


@router.post("/logout")
async def logout(request: Request, live: LiveDep) -> Response:
    form = signin.form_fields(await request.body())
    ws = accounts.web_session(live.engine, request.cookies.get(COOKIE))
    if ws is not None and form.get("csrf") != ws.csrf:
        raise Refused("missing or wrong CSRF token", 403)
    accounts.close_web_session(live.engine, request.cookies.get(COOKIE))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response
