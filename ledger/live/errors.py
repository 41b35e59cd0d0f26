"""The live service's refusals as JSON answers, and the app's error handlers.

Every error is a JSON object with ``error`` and ``message`` (and ``line``, ``field``,
``value`` for bad input). :func:`error_body` maps the ledger's errors to statuses;
:func:`install_error_handlers` registers the handlers on an app (``security.install``
adds the store's failures, answered in words, over the ledger's handler).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ledger.errors import (BadInput, ConcurrencyError, LedgerError, NotAllowed, StoreBusy, StoreUnavailable,
                           StreamNotFound)
from ledger.live.accounts import Refused
from ledger.live.limits import RateLimited

RETRY_AFTER_S = 1
"""Seconds a terminal waits before re-sending an append the busy store refused (503)."""


def jsonable(value: Any) -> Any:
    try:  # the answer is strict JSON: NaN and Infinity (Python's json reads them) are named, not sent
        json.dumps(value, allow_nan=False)
        return value
    except (TypeError, ValueError):
        return repr(value)


def error_body(exc: Exception) -> tuple[int, dict[str, Any]]:
    if isinstance(exc, BadInput):
        return 400, {"error": "bad_input", "message": str(exc), "reason": exc.reason,
                     "line": exc.line, "field": exc.field, "value": jsonable(exc.value),
                     "event_type": exc.event_type}
    if isinstance(exc, NotAllowed):
        return 403, {"error": "not_allowed", "message": str(exc), "reason": exc.reason,
                     "line": exc.line, "role": exc.role, "event_type": exc.event_type}
    if isinstance(exc, Refused):
        return exc.status, {"error": "unauthorized" if exc.status == 401 else "forbidden",
                            "message": exc.reason, "reason": exc.reason}
    if isinstance(exc, ConcurrencyError):
        return 409, {"error": "conflict", "message": str(exc), "expected_seq": exc.expected,
                     "head_seq": exc.actual}
    if isinstance(exc, StreamNotFound):
        return 404, {"error": "unknown_stream", "message": str(exc), "stream": exc.stream}
    if isinstance(exc, StoreBusy):  # a condition, not a failure: nothing written, send it again
        return 503, {"error": "store_busy", "message": str(exc), "retry_after": RETRY_AFTER_S}
    if isinstance(exc, StoreUnavailable):
        return 503, {"error": "store_unavailable", "message": str(exc)}
    return 500, {"error": "internal", "message": str(exc)}


class HttpError(Exception):
    def __init__(self, status: int, error: str, message: str, **extra: Any) -> None:
        self.status = status
        self.body = {"error": error, "message": message, **extra}
        super().__init__(message)


class SignInFirst(Exception):
    """A person's page asked without a signed-in account of its roles: to the sign-in
    page, which brings the browser back to ``path`` (303)."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(path)


async def ledger_error(_: Request, exc: Exception) -> JSONResponse:
    status, body = error_body(exc)
    headers = {"Retry-After": str(RETRY_AFTER_S)} if isinstance(exc, StoreBusy) else None
    return JSONResponse(body, status_code=status, headers=headers)


async def rate_limited(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RateLimited)
    return JSONResponse({"error": "rate_limited", "message": str(exc), "limit": exc.limit.name,
                         "retry_after": exc.retry_after}, status_code=429,
                        headers={"Retry-After": str(exc.retry_after)})


async def http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HttpError)
    return JSONResponse(exc.body, status_code=exc.status)


async def starlette_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    kind = "not_found" if exc.status_code == 404 else "http_error"
    return JSONResponse({"error": kind, "message": str(exc.detail)}, status_code=exc.status_code)


async def validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = (exc.errors() or [{}])[0]
    field = ".".join(str(p) for p in first.get("loc", ())[1:]) or None
    body = {"error": "bad_input", "message": f"field {field!r}: {first.get('msg', 'invalid')}",
            "reason": first.get("msg"), "line": None, "field": field,
            "value": jsonable(first.get("input"))}
    return JSONResponse(body, status_code=400)


async def sign_in_first(_: Request, exc: Exception) -> RedirectResponse:
    from urllib.parse import quote

    assert isinstance(exc, SignInFirst)
    return RedirectResponse(f"/login?next={quote(exc.path)}", status_code=303)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(LedgerError, ledger_error)
    app.add_exception_handler(RateLimited, rate_limited)
    app.add_exception_handler(HttpError, http_error)
    app.add_exception_handler(StarletteHTTPException, starlette_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(SignInFirst, sign_in_first)
