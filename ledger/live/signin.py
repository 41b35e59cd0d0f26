"""Signing in (``GET``/``POST /login``, the routes in ``ledger.live.routes.auth``): login CSRF closed, guessing slowed, the owner
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
from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from ledger.live.schema import live_users

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


def set_cookie(response: Response, name: str, value: str, max_age: int, secure: bool) -> None:
    response.set_cookie(name, value, httponly=True, samesite="strict", secure=secure,
                        max_age=max_age, path="/")


def login_form(env: Any, key: bytes, secure: bool, request: Request, next: str, error: str | None,
               status: int, headers: dict[str, str] | None = None) -> HTMLResponse:
    """The sign-in form, its token bound to the browser's pre-session."""
    presession = request.cookies.get(PRESESSION_COOKIE, "")
    age = presession_age(presession)
    if age is None or not 0 <= age < PRESESSION_SECONDS - 300:
        presession = new_presession()
    page = env.get_template("login.html").render(title="Sign in", error=error, next=next,
                                                 csrf=form_token(key, presession))
    response = HTMLResponse(page, status_code=status, headers=headers)
    set_cookie(response, PRESESSION_COOKIE, presession, PRESESSION_SECONDS, secure)
    return response


def account_hash(engine: Any, name: str) -> str | None:
    with engine.connect() as conn:
        hashed: str | None = conn.execute(sa.select(live_users.c.password_hash).where(
            live_users.c.name == name, live_users.c.disabled_at.is_(None))).scalar()
        return hashed


def form_fields(raw: bytes) -> dict[str, str]:
    """A posted form's fields (the first value of each), from at most MAX_FORM bytes."""
    return {k: v[0] for k, v in parse_qs(raw[:MAX_FORM].decode("utf-8", "replace")).items()}


def foreign_refusal(request: Request, secure: bool) -> str | None:
    """Why a sign-in form posted from another site's page is refused (None: it is this site's)."""
    foreign = foreign_origin(request, secure)
    if foreign is None:
        return None
    log.warning("live_signin_foreign_origin", reason=foreign)
    return f"Sign-in refused: {foreign}. Sign in from this page."


def presession_refusal(key: bytes, request: Request, form: dict[str, str]) -> str | None:
    """Why a sign-in form without its pre-session's token (or too old) is refused, None if it stands."""
    presession = request.cookies.get(PRESESSION_COOKIE, "")
    age = presession_age(presession)
    sent = form.get("csrf", "")
    if age is None or not 0 <= age < PRESESSION_SECONDS or not sent \
            or not hmac.compare_digest(sent.encode(), form_token(key, presession).encode()):
        return ("This sign-in form has expired or was not opened in this browser (missing or wrong "
                "CSRF token of the sign-in form): sign in from this page.")
    return None


def throttle_keys(stored_hash: str | None, cookie: str | None, name: str,
                  address: str) -> tuple[bool, str, list[str], list[str]]:
    """(known device, device id, its signatures, the throttle's keys): a device that signed
    in to the account before has its own count; anyone else counts by name and address."""
    device, signatures = parse_device(cookie)
    known = bool(stored_hash and device and any(
        hmac.compare_digest(s, device_signature(stored_hash, device)) for s in signatures))
    keys = [f"device:{device}"] if known else [f"name:{name.lower()}", f"address:{address}"]
    return known, device, signatures, keys


def landing(next_page: str, role: str) -> str:
    """Where a signed-in browser goes: the page it asked for, if it is one of this site's."""
    if not next_page.startswith("/") or next_page.startswith("//") or "\\" in next_page:
        return "/director" if role == "director" else "/committee"
    return next_page


def remember_device(response: Response, stored_hash: str, device: str, signatures: list[str],
                    secure: bool) -> None:
    """This device now knows the account: its own throttle from here on."""
    device = device or secrets.token_urlsafe(24)
    mine = device_signature(stored_hash, device)
    kept = [mine] + [s for s in signatures if s != mine][:MAX_DEVICE_ACCOUNTS - 1]
    set_cookie(response, DEVICE_COOKIE, ".".join([device, *kept]), DEVICE_DAYS * 86400, secure)
