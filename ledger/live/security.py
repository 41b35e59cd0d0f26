"""The live service's defences at its edge (issue 26), wrapped around the app by
:func:`install`:

* **Headers on every response** (pages, API, feed, errors, static files):
  ``Content-Security-Policy`` (scripts from the server's own files only, no
  inline script; inline styles allowed; no framing: ``frame-ancestors 'none'``;
  ``base-uri 'none'``; forms post to the site only), ``X-Frame-Options: DENY``
  (browsers without CSP level 2), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``, ``Permissions-Policy``, ``Cross-Origin-Opener-Policy``,
  and ``Strict-Transport-Security`` with ``--secure-cookies`` (behind TLS).
* **A request id** on every response (``X-Request-ID``), in every error body
  (``request_id``) and page, and bound to every structlog line the request logs:
  a director quotes it, and ``grep`` finds the request in the server's log.
* **Cookies** with ``--secure-cookies``: every cookie the app sets is renamed
  ``__Host-<name>`` and marked ``Secure`` (path ``/``, no domain), and only the
  prefixed cookies are read back (an unprefixed one set by a sibling host or
  port is dropped).
* **Malformed requests are 4xx with words**: every query parameter (and
  ``Last-Event-ID``, and the session id of ``/api/sessions/N``) that is a whole
  number must lie within ±(2^53 − 1), as the command line's input limits ask;
  any parameter is at most 2,000 characters. A state-changing request whose
  ``Origin`` is another site's is refused (403).
* **No internal detail**: an exception no handler answered becomes 500 (or 503
  when the database cannot be reached) with words for people and the request
  id; the URL, the exception and the SQL go to the server's log only. The
  store's own refusals that would name the database URL (``StoreUnavailable``,
  ``StoreBusy``) are answered in words the same way.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import sys
import traceback
from typing import Any, Awaitable, Callable, MutableMapping
from urllib.parse import parse_qsl, urlsplit

import sqlalchemy as sa
import structlog
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment

from ledger.errors import IntegrityError, LedgerError, StoreBusy, StoreUnavailable, shorten
from ledger.limits import MAX_INT
from ledger.live.schema import live_sessions, live_table_tokens

log = structlog.get_logger("ledger.live")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
"""Scripts only from the server's own files (no inline script, no eval); inline
styles allowed (the pages' one ``<style>`` and a few ``style=`` attributes)."""

DOCS_CSP = ("default-src 'self'; script-src 'self' https://cdn.jsdelivr.net {hashes}; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com https://cdn.redoc.ly; worker-src blob:; "
            "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'")
"""``/docs`` and ``/redoc`` (FastAPI's pages, their code from a CDN): their one inline
script is allowed by its SHA-256, computed from the page the server renders."""

SECURE_HEADERS = [
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()"),
    ("cross-origin-opener-policy", "same-origin"),
]
HSTS = ("strict-transport-security", "max-age=31536000; includeSubDomains")
MAX_PARAM = 2000
PREFIX = "__Host-"
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")
_SESSION_ID = re.compile(r"^/api/sessions/([^/]+)")
_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)
_TOKEN_PATH = re.compile(r"^/table/[^/]+")

PLAYER_WORDS = {
    503: "The ledger's database cannot be reached just now. Nothing was written. Wait a "
         "moment and try again; if it goes on, call the director.",
    500: "Something went wrong on the server while answering. Nothing was written. Try "
         "again; if it happens again, call the director.",
}


def request_id(request: Request) -> str:
    return str(request.scope.get("state", {}).get("request_id", ""))


def safe_path(path: str) -> str:
    """The path as logged: a table token in ``/table/<token>`` is not written to the log."""
    return _TOKEN_PATH.sub("/table/…", path)


def database_down(exc: BaseException) -> bool:
    """An exception that says the database cannot be reached (a restart, a lost
    connection), rather than a fault of the request or of the code."""
    if isinstance(exc, StoreUnavailable):
        return True
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError)):
        return True
    if isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, (sqlite3.OperationalError,)):
        return True
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
        return True
    cause = exc.__cause__ or exc.__context__
    return cause is not None and cause is not exc and database_down(cause)


class EdgeRefusal(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body


def check_request(scope: Scope, secure: bool) -> None:
    """The request's edge: parameters within range, no state change from another origin."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    values: list[tuple[str, str]] = []
    try:
        values = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    except ValueError:
        pass
    if "last-event-id" in headers:
        values.append(("Last-Event-ID", headers["last-event-id"]))
    found = _SESSION_ID.match(scope.get("path", ""))
    if found:
        values.append(("session_id", found.group(1)))
    for name, value in values:
        if len(value) > MAX_PARAM:
            raise EdgeRefusal(400, bad(name, value, f"{len(value)} characters; at most {MAX_PARAM}"))
        if _INTEGER.fullmatch(value):
            digits = value.strip().lstrip("+-")
            if len(digits) > 16 or abs(int(value)) > MAX_INT:
                raise EdgeRefusal(400, bad(name, value, f"a whole number between -{MAX_INT} and "
                                           f"{MAX_INT} (this one has {len(digits)} digits)"))
    if scope.get("method") in UNSAFE_METHODS and "origin" in headers:
        origin = headers["origin"]
        parts = urlsplit(origin) if origin != "null" else None
        host = headers.get("host", "").lower()
        if parts is None or parts.netloc.lower() != host or (secure and parts.scheme != "https"):
            raise EdgeRefusal(403, {"error": "forbidden", "reason": "foreign_origin",
                                    "message": f"refused: this request was sent by a page of another "
                                               f"site ({shorten(origin, 80)}); use the ledger's own "
                                               "pages"})


def bad(name: str, value: str, reason: str) -> dict[str, Any]:
    return {"error": "bad_input", "message": f"parameter {name!r}: {reason}", "reason": reason,
            "line": None, "field": name, "value": shorten(value, 60)}


def _cookies_in(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Requests, with ``--secure-cookies``: ``__Host-X`` read as ``X``; an unprefixed ``X`` dropped."""
    out = []
    for key, value in headers:
        if key.lower() != b"cookie":
            out.append((key, value))
            continue
        kept = []
        for part in value.decode("latin-1").split(";"):
            name, _, val = part.strip().partition("=")
            if name.startswith(PREFIX):
                kept.append(f"{name[len(PREFIX):]}={val}")
        if kept:
            out.append((b"cookie", "; ".join(kept).encode("latin-1")))
    return out


def _cookie_out(value: bytes) -> bytes:
    """A ``Set-Cookie`` of the app, with ``--secure-cookies``: ``__Host-`` and ``Secure``."""
    text = value.decode("latin-1")
    parts = [p.strip() for p in text.split(";")]
    attrs = [p for p in parts[1:] if p.split("=")[0].lower() not in ("secure", "domain", "path")]
    return "; ".join([PREFIX + parts[0], *attrs, "Path=/", "Secure"]).encode("latin-1")


class Guard:
    """The ASGI middleware of this module (see its docstring)."""

    def __init__(self, app: Any, *, secure: bool, pages: Environment | None = None) -> None:
        self.app = app
        self.secure = secure
        self.pages = pages
        self.headers = [(k.encode(), v.encode()) for k, v in SECURE_HEADERS + ([HSTS] if secure else [])]

    def answer_headers(self, given: list[tuple[bytes, bytes]], rid: str) -> list[tuple[bytes, bytes]]:
        """An answer's headers: its own (no CSP yet; cookies marked secure on https), the
        security headers it lacks, and the request id."""
        headers = [(k, v) for k, v in given if k.lower() not in (b"content-security-policy",)]
        if self.secure:
            headers = [(k, _cookie_out(v) if k.lower() == b"set-cookie" else v) for k, v in headers]
        headers += [(k, v) for k, v in self.headers if not any(h[0].lower() == k for h in headers)]
        headers.append((b"x-request-id", rid.encode()))
        return headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = secrets.token_hex(6)
        scope.setdefault("state", {})["request_id"] = rid
        path = scope.get("path", "")
        docs = path in ("/docs", "/redoc")
        if self.secure:
            scope["headers"] = _cookies_in(list(scope.get("headers", [])))
        started = False
        held: dict[str, Any] | None = None  # an error's JSON body, to add the request id
        chunks: list[bytes] = []

        async def send_out(message: Message) -> None:
            nonlocal started, held
            if message["type"] == "http.response.start":
                started = True
                status = message["status"]
                headers = self.answer_headers(message.get("headers", []), rid)
                message = {**message, "headers": headers}
                ctype = dict((k.lower(), v) for k, v in headers).get(b"content-type", b"")
                if status >= 400:
                    log.info("live_refused", request_id=rid, status=status, method=scope.get("method"),
                             path=safe_path(path))
                if (status >= 400 and ctype.startswith(b"application/json")) or docs:
                    held = message
                    return
                message["headers"].append((b"content-security-policy", CSP.encode()))
                await send(message)
                return
            if held is not None and message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body, csp = held_body(b"".join(chunks), docs, rid)
                headers = [(k, v) for k, v in held["headers"] if k.lower() != b"content-length"]
                headers += [(b"content-length", str(len(body)).encode()),
                            (b"content-security-policy", csp.encode())]
                await send({**held, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        structlog.contextvars.bind_contextvars(request_id=rid)
        try:
            try:
                check_request(scope, self.secure)
            except EdgeRefusal as refusal:
                await JSONResponse(refusal.body, status_code=refusal.status)(scope, receive, send_out)
                return
            await self.app(scope, receive, send_out)
        except Exception as exc:
            status = 503 if database_down(exc) else 500
            log.error("live_internal_error", request_id=rid, status=status, method=scope.get("method"),
                      path=safe_path(path), error=type(exc).__name__, detail=str(exc)[:500],
                      traceback=traceback.format_exc(limit=20))
            if started:
                return  # the answer was under way (a feed): the connection just ends
            answer = trouble(path, status, rid, self.pages)
            await answer(scope, receive, send_out)
        finally:
            structlog.contextvars.unbind_contextvars("request_id")


def held_body(body: bytes, docs: bool, rid: str) -> tuple[bytes, str]:
    """A held answer's body and its CSP: the docs page's scripts allowed by their hashes;
    an error's JSON object given the request id."""
    if docs:
        hashes = " ".join(f"'sha256-{_b64sha(s)}'" for s in _SCRIPT.findall(body))
        return body, DOCS_CSP.format(hashes=hashes)
    try:
        doc = json.loads(body)
    except ValueError:
        return body, CSP
    if isinstance(doc, dict):
        doc.setdefault("request_id", rid)
        body = json.dumps(doc).encode()
    return body, CSP


def _b64sha(data: bytes) -> str:
    import base64
    import hashlib

    return base64.b64encode(hashlib.sha256(data).digest()).decode()


def trouble(path: str, status: int, rid: str, pages: Environment | None) -> Response:
    """The answer to a request the server could not serve: words and the request id."""
    words = PLAYER_WORDS[503 if status == 503 else 500]
    headers = {"Retry-After": "2"} if status == 503 else None
    if path.startswith("/api/") or pages is None:
        return JSONResponse({"error": "store_unavailable" if status == 503 else "internal",
                             "message": f"{words} (Reference for the director: {rid}.)",
                             "request_id": rid}, status_code=status, headers=headers)
    page = pages.get_template("trouble.html").render(title="Please wait", words=words, request_id=rid)
    return HTMLResponse(page, status_code=status, headers=headers)


def token_still_valid(engine: Any, token_key: str) -> bool:
    """The table token (by its digest) is neither revoked nor of a closed session."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(live_table_tokens.c.revoked_at, live_sessions.c.closed_at)
                           .join(live_sessions, live_sessions.c.id == live_table_tokens.c.session_id)
                           .where(live_table_tokens.c.token_hash == token_key)).first()
    return row is not None and row.revoked_at is None and row.closed_at is None


REVOKED = ("event: revoked\ndata: {\"message\": \"This table's access was withdrawn by the "
           "director (token revoked or session closed). Ask the director for the table's new "
           "link.\"}\n\n")
"""The feed's last message to a device whose token was revoked; then the feed ends."""


def json_body(text: str) -> Any:
    """A JSON request body within the input limits (nesting, numbers), as the command
    line reads a line: an event's field is named by its path, its element by its line."""
    from ledger.errors import BadInput
    from ledger.limits import load_json

    try:
        return load_json(text, None, field="body")
    except BadInput as exc:
        value = exc.value
        if isinstance(value, str) and len(value) > 120:  # not the whole body back
            value = f"{value[:120]}… ({len(value)} characters in all)"
        found = re.match(r"^\[(\d+)\]\.?(.*)$", exc.field or "")
        if not found:
            raise BadInput(exc.reason, field=exc.field, value=value) from None
        raise BadInput(exc.reason, field=found.group(2) or "line", value=value,
                       line=int(found.group(1)) + 1) from None


def install(app: FastAPI, *, secure: bool, pages: Environment,
            error_body: Callable[[Exception], tuple[int, dict[str, Any]]]) -> None:
    """Wrap ``app`` in :class:`Guard` and answer the store's failures in words."""
    async def ledger_error(request: Request, exc: Exception) -> Response:
        rid = request_id(request)
        if isinstance(exc, (StoreUnavailable, IntegrityError)) or \
                (not isinstance(exc, StoreBusy) and error_body(exc)[0] >= 500):
            status = 503 if isinstance(exc, StoreUnavailable) else 500
            log.error("live_store_failure", request_id=rid, status=status, error=type(exc).__name__, detail=str(exc)[:500],
                      path=safe_path(request.url.path))
            return trouble(request.url.path, status, rid, pages)
        if isinstance(exc, StoreBusy):
            log.warning("live_store_busy", request_id=rid, detail=str(exc)[:500])
            return JSONResponse({"error": "store_busy", "retry_after": 1, "request_id": rid,
                                 "message": "The ledger is busy with other tables' entries: nothing "
                                            "was written; send the same entry again."},
                                status_code=503, headers={"Retry-After": "1"})
        status, body = error_body(exc)
        return JSONResponse(body, status_code=status)

    app.add_exception_handler(LedgerError, ledger_error)
    app.add_middleware(Guard, secure=secure, pages=pages)
