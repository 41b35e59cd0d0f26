"""The live service's ASGI application (FastAPI on Starlette): the app factory.

Entry points: the JSON API under ``/api`` (OpenAPI document at
``/openapi.json``, browsable at ``/docs``), the table page ``/table/<token>``,
the director's console ``/director``, the committee's view ``/committee``,
``/login`` and ``/logout``, and the live feed ``/api/feed`` (server-sent
events).

The web layer is in rooms (the FastAPI project template's shape):

* :mod:`ledger.live.state`: the one state object a process shares (``app.state.live``);
* :mod:`ledger.live.deps`: the credentials and the dependencies routes declare (the
  principal, a table token and its scope, a person's page);
* :mod:`ledger.live.errors`: the refusals as JSON and the error handlers;
* :mod:`ledger.live.writes`: the live side of the one append path;
* :mod:`ledger.live.routes`: one ``APIRouter`` per area (api, table, director,
  committee, auth, service).

Credentials: a table terminal presents its token (``Authorization: Bearer``,
or the page's URL); a person signs in and gets a cookie session, and every
write made with the cookie must carry the session's CSRF token
(``X-CSRF-Token``). The actor of every appended event is set from the
credential: an input line that claims another actor is refused (403), as is a
table token writing anywhere but its own table's current board.

Every append goes through :meth:`ledger.service.Ledger.append`, the same path
as ``cli.py append``: its refusals become HTTP statuses (400 bad input naming
line, field and value; 403 role or scope; 404 unknown stream; 409 stale
``expected_seq``), and nothing is written on any refusal.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import AsyncIterator, Callable

import anyio.to_thread
from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.routing import BaseRoute, Route

from ledger.live import security
from ledger.live.errors import error_body, install_error_handlers
from ledger.live.limits import Limits
from ledger.live.routes import api, auth, committee, director, service, table
from ledger.live.state import LiveState, build_state, warm
from ledger.live.writes import MAX_BODY, MAX_LINES
from ledger.service import Ledger
from ledger.store.base import integrated_behind

__all__ = ["MAX_BODY", "MAX_LINES", "ROOMS", "app_routes", "create_app"]

ROOMS = (api, table, auth, director, committee, service)
"""The route modules, each with its ``router``, in the order the app includes them."""


def lifespan_of(live: LiveState) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: warm the connections, start the notifier, the feed and (issue 28)
    the tree's keeper; on the way out, stop them and close the ledger and the engine."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Every request that touches the database runs in AnyIO's thread pool: enough threads
        # for the terminals' appends and the pages' reads to wait on the database together.
        anyio.to_thread.current_default_thread_limiter().total_tokens = live.threads
        await run_in_threadpool(warm, live)  # before the first request: see warm()
        live.notifier.start()
        await live.feed.start()
        keeper = None
        if integrated_behind(live.ledger.store):  # the tree behind the log (issue 28)
            from ledger.store.integrator import Keeper

            keeper = Keeper(live.ledger.store)
            keeper.start()
        try:
            yield
        finally:
            if keeper is not None:
                keeper.stop()
            await live.feed.stop()
            live.notifier.stop()
            live.ledger.close()
            live.engine.dispose()

    return lifespan


def create_app(db_url: str, *, secure_cookies: bool = False, poll: float = 1.0,
               ledger: Ledger | None = None, limits: Limits | None = None,
               threads: int = 16) -> FastAPI:
    """The live service on the database ``db_url``: its state, lifespan, error handlers and routes."""
    live = build_state(db_url, secure_cookies=secure_cookies, poll=poll, ledger=ledger, limits=limits,
                       threads=threads)
    app = FastAPI(
        title="Bridge ruling ledger: live service",
        version="1",
        description="Table terminals, the director's console and the committee's view over the "
                    "ledger's one append path. Errors are JSON objects with `error` and `message` "
                    "(and `line`, `field`, `value` for bad input).",
        lifespan=lifespan_of(live),
    )
    app.state.live = live
    app.state.ledger = live.ledger  # the names tests and tools read
    app.state.live_engine = live.engine
    app.state.feed = live.feed
    install_error_handlers(app)
    for room in ROOMS:
        app.include_router(room.router)
    app.state.signin_throttle = live.throttle
    security.install(app, secure=secure_cookies, pages=live.env, error_body=error_body)  # headers, ids, errors
    return app


def app_routes(app: FastAPI) -> list[Route]:
    """Every HTTP route of a live app, each once: the app's own (``/login``, the docs) and
    its rooms'. (FastAPI from 0.165 keeps an included router as one entry of
    ``app.routes``; before, it copied the router's routes there.)"""
    seen: set[tuple[str, frozenset[str]]] = set()
    found = []
    rooms: list[BaseRoute] = [r for room in ROOMS for r in room.router.routes]
    for route in [*app.routes, *rooms]:
        key = (getattr(route, "path", ""), frozenset(getattr(route, "methods", None) or ()))
        if isinstance(route, Route) and key not in seen:
            seen.add(key)
            found.append(route)
    return found
