"""Signing in (``GET``/``POST /login``): login CSRF closed, guessing slowed, the owner
never locked out.

* **A pre-session binds the form.** ``GET /login`` gives the browser a pre-session
  cookie (a random id with its time) and puts in the form a token that is the
  HMAC of that id under the server's key (``$LEDGER_LIVE_SECRET``, else a key drawn
  when the process starts). ``POST /login`` accepts the form only with the
  pre-session cookie its token was made for, within an hour.
* **The form must come from this site.** A browser sends ``Origin`` (or at least
  ``Referer``) with a form it posts; when either is there it must name this
  server (``Host``; ``https`` with ``--secure-cookies``). A page on another
  origin, even another port of the same host (which shares the host's cookies),
  cannot sign a browser in: its post carries its own origin. A program that
  sends neither header still needs a pre-session and its token.
* **Cookies.** ``HttpOnly``, ``SameSite=Strict``, path ``/``; with
  ``--secure-cookies`` they are ``Secure`` and carry the ``__Host-`` prefix (done
  for every cookie by :class:`ledger.live.security.Guard`), so that no other
  host or port can set them.
* **Throttling** (:mod:`ledger.live.throttle`): per account and per address, an
  exponential delay after three wrong passwords; a device that signed in to
  the account before (a device cookie signed with the account's password hash)
  has its own count and is not kept waiting by anyone else's guesses.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import sqlalchemy as sa
import structlog
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.live import accounts
from ledger.live.accounts import Refused
from ledger.live.schema import live_users
from ledger.live.throttle import SigninThrottle

log = structlog.get_logger("ledger.live")

PRESESSION_COOKIE = "ledger_presession"
DEVICE_COOKIE = "ledger_device"
PRESESSION_SECONDS = 3600
DEVICE_DAYS = 400
MAX_DEVICE_ACCOUNTS = 4
MAX_FORM = 4096


def server_key() -> bytes:
    """The key of the pre-session tokens: ``$LEDGER_LIVE_SECRET`` (the same on every
    server process behind one address), else a key of this process."""
    given = os.environ.get("LEDGER_LIVE_SECRET", "")
    return hashlib.sha256(given.encode()).digest() if given else secrets.token_bytes(32)


def form_token(key: bytes, presession: str) -> str:
    return hmac.new(key, b"signin:" + presession.encode(), hashlib.sha256).hexdigest()


def new_presession() -> str:
    return f"{int(time.time())}.{secrets.token_urlsafe(18)}"


def presession_age(presession: str) -> float | None:
    stamp, _, rest = presession.partition(".")
    if not stamp.isdigit() or len(stamp) > 12 or not rest:
        return None
    return time.time() - int(stamp)


def device_signature(password_hash: str, device: str) -> str:
    return hmac.new(password_hash.encode(), b"ledger-device:" + device.encode(),
                    hashlib.sha256).hexdigest()[:32]


def parse_device(cookie: str | None) -> tuple[str, list[str]]:
    """(device id, signatures) of a device cookie; ("", []) when absent or malformed."""
    parts = (cookie or "").split(".")
    if len(parts) < 2 or not 16 <= len(parts[0]) <= 64 or len(parts) > MAX_DEVICE_ACCOUNTS + 1:
        return "", []
    return parts[0], parts[1:]


def foreign_origin(request: Request, secure: bool) -> str | None:
    """Why the request does not come from this site's own pages (None: it does, or
    the client is not a browser and sent neither Origin nor Referer)."""
    host = (request.headers.get("host") or "").lower()
    for header in ("origin", "referer"):
        value = request.headers.get(header)
        if value is None:
            continue
        if value == "null":
            return f"the form was sent from a page with no origin ({header}: null)"
        parts = urlsplit(value)
        if parts.netloc.lower() != host or (secure and parts.scheme != "https") \
                or parts.scheme not in ("http", "https"):
            return f"the form was sent from another site ({header}: {value[:80]})"
        return None
    return None


def install(app: FastAPI, *, env: Any, engine: Any, secure: bool, session_cookie: str,
            throttle: SigninThrottle | None = None) -> SigninThrottle:
    """Add ``GET``/``POST /login`` to ``app``; the throttle (tests read it)."""
    key = server_key()
    throttle = throttle or SigninThrottle()
    app.state.signin_throttle = throttle

    def cookie(response: Response, name: str, value: str, max_age: int) -> None:
        response.set_cookie(name, value, httponly=True, samesite="strict", secure=secure,
                            max_age=max_age, path="/")

    def login_form(request: Request, next: str, error: str | None, status: int,
                   headers: dict[str, str] | None = None) -> HTMLResponse:
        """The sign-in form, its token bound to the browser's pre-session."""
        presession = request.cookies.get(PRESESSION_COOKIE, "")
        age = presession_age(presession)
        if age is None or not 0 <= age < PRESESSION_SECONDS - 300:
            presession = new_presession()
        page = env.get_template("login.html").render(title="Sign in", error=error, next=next,
                                                     csrf=form_token(key, presession))
        response = HTMLResponse(page, status_code=status, headers=headers)
        cookie(response, PRESESSION_COOKIE, presession, PRESESSION_SECONDS)
        return response

    def account_hash(name: str) -> str | None:
        with engine.connect() as conn:
            return conn.execute(sa.select(live_users.c.password_hash).where(
                live_users.c.name == name, live_users.c.disabled_at.is_(None))).scalar()

    @app.get("/login", response_class=HTMLResponse, include_in_schema=False)
    def login_page(request: Request, next: str = "") -> HTMLResponse:
        return login_form(request, next[:500], None, 200)

    @app.post("/login", include_in_schema=False)
    async def login(request: Request) -> Response:
        raw = await request.body()
        body = raw[:MAX_FORM].decode("utf-8", "replace")
        form = {k: v[0] for k, v in parse_qs(body).items()}
        next_page = form.get("next", "")[:500]
        foreign = foreign_origin(request, secure)
        if foreign is not None:
            log.warning("live_signin_foreign_origin", reason=foreign)
            return login_form(request, "", f"Sign-in refused: {foreign}. Sign in from this "
                              "page.", 403)
        presession = request.cookies.get(PRESESSION_COOKIE, "")
        age = presession_age(presession)
        sent = form.get("csrf", "")
        if age is None or not 0 <= age < PRESESSION_SECONDS or not sent \
                or not hmac.compare_digest(sent.encode(), form_token(key, presession).encode()):
            return login_form(request, next_page, "This sign-in form has expired or was not "
                              "opened in this browser (missing or wrong CSRF token of the sign-in "
                              "form): sign in from this page.", 403)
        name = form.get("name", "")[:100]
        password = form.get("password", "")[:1024]
        address = request.client.host if request.client else "unknown"
        stored_hash = await run_in_threadpool(account_hash, name)
        device, signatures = parse_device(request.cookies.get(DEVICE_COOKIE))
        known = bool(stored_hash and device and any(
            hmac.compare_digest(s, device_signature(stored_hash, device)) for s in signatures))
        keys = [f"device:{device}"] if known else [f"name:{name.lower()}", f"address:{address}"]
        wait = throttle.wait(keys)
        if wait:
            why = "from this device" if known else "for this name or from this address"
            return login_form(request, next_page, f"Too many wrong passwords {why}: wait {wait} s "
                              "before trying again. A device that has signed in to this account "
                              "before is not kept waiting by other people's attempts.", 429,
                              {"Retry-After": str(wait)})
        try:
            user = await run_in_threadpool(accounts.authenticate, engine, name, password)
        except Refused as exc:
            throttle.failed(keys)
            log.info("live_signin_failed", name=name, address=address, known_device=known)
            return login_form(request, next_page, exc.reason, 401)
        throttle.succeeded(keys)
        session_value, _csrf = await run_in_threadpool(accounts.open_web_session, engine, user)
        target = next_page
        if not target.startswith("/") or target.startswith("//") or "\\" in target:
            target = "/director" if user.role == "director" else "/committee"
        response = RedirectResponse(target, status_code=303)
        response.delete_cookie(PRESESSION_COOKIE, path="/")
        cookie(response, session_cookie, session_value, accounts.SESSION_HOURS * 3600)
        if stored_hash:  # this device now knows the account: its own throttle from here on
            device = device or secrets.token_urlsafe(24)
            mine = device_signature(stored_hash, device)
            kept = [mine] + [s for s in signatures if s != mine][:MAX_DEVICE_ACCOUNTS - 1]
            cookie(response, DEVICE_COOKIE, ".".join([device, *kept]), DEVICE_DAYS * 86400)
        log.info("live_signin", name=user.name, address=address, known_device=known)
        return response

    return throttle
