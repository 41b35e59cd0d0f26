"""The live service's one state object: what every request of one server process shares.

``create_app`` builds one :class:`LiveState` and keeps it on ``app.state.live``; the
routes reach it through the :func:`ledger.live.deps.get_live` dependency. Everything a
request may change here is a cache of the append-only log (it can only grow), or the
count of this process's open feeds.
"""

from __future__ import annotations

import contextlib
import time

import attrs
import sqlalchemy as sa
import structlog
from jinja2 import Environment
from sqlalchemy.engine import Engine

from ledger.live import accounts
from ledger.live.accounts import Refused
from ledger.live.db import Notifier, live_engine, read_engine
from ledger.live.feed import Feed
from ledger.live.limits import Buckets, Limits
from ledger.live.pages import page_env
from ledger.live.sessions import Session
from ledger.live.signin import server_key
from ledger.live.throttle import SigninThrottle
from ledger.service import Ledger
from ledger.store.base import Warming

log = structlog.get_logger("ledger.live")


@attrs.define(eq=False)
class LiveState:
    """The ledger, the live tables' engines, the feed, the limits, the pages, and the
    process's caches (formerly ``create_app``'s locals)."""

    ledger: Ledger
    engine: Engine
    """The live tables' own engine: the store is reached via ``ledger``."""
    reads: Engine
    """One-statement reads (tokens, cookies): one round trip each."""
    feed: Feed
    notifier: Notifier
    """NOTIFY after an append, from a thread of its own."""
    limits: Limits
    table_appends: Buckets
    env: Environment
    signin_key: bytes
    """The key of the sign-in form's pre-session tokens (``signin.server_key``)."""
    throttle: SigninThrottle
    """Wrong passwords slow the next attempt (``ledger.live.throttle``)."""
    threads: int = 16
    secure_cookies: bool = False
    """SQLite has one writer at a time: appends wait for each other here, in order, rather
    than in SQLite's busy handler (which sleeps in steps of up to 100 ms)."""
    sessions_seen: dict[int, Session] = attrs.field(factory=dict)
    """A session's movement and deals never change."""
    progress: dict[tuple[int, int], int] = attrs.field(factory=dict)
    """(session, table) -> schedule index of its board."""
    opened: set[str] = attrs.field(factory=set)
    """Streams known to exist (the log is append-only)."""
    connected: dict[tuple[int, int], dict[str, int]] = attrs.field(factory=dict)
    """(session, table) -> device ("table" or a seat) -> this process's feeds open now: which
    devices of a table follow the live feed (the console's "connected")."""


def build_state(db_url: str, *, secure_cookies: bool = False, poll: float = 1.0,
                ledger: Ledger | None = None, limits: Limits | None = None, threads: int = 16) -> LiveState:
    """The state of one server process on the database ``db_url`` (nothing connects yet)."""
    ledger = ledger or Ledger.open(db_url)
    limits = limits or Limits()
    engine = live_engine(db_url)
    return LiveState(
        ledger=ledger, engine=engine, reads=read_engine(engine), feed=Feed(ledger.store, engine, poll=poll),
        notifier=Notifier(engine), limits=limits, table_appends=Buckets(limits.table_appends),
        env=page_env(), signin_key=server_key(), throttle=SigninThrottle(), threads=threads, secure_cookies=secure_cookies)


def warm(live: LiveState) -> None:
    """Open the connections the first requests need before answering any: a table's
    first append would otherwise wait for new database connections (and, on
    PostgreSQL, for each new backend to load its catalog) while every terminal of the
    room opens its board at once. The pages' templates are compiled here too: Jinja's
    cache is filled by the first render, and every thread that misses it compiles the
    template again (issue 28: the first 16 table pages at once cost about 1.7 s of CPU)."""
    started = time.perf_counter()
    opened = live.ledger.store.warm(readers=4) if isinstance(live.ledger.store, Warming) else 0
    with contextlib.ExitStack() as held:  # several at once: the pool keeps them all
        for _ in range(4):
            conn = held.enter_context(live.reads.connect())
            conn.execute(sa.select(sa.literal(1)))  # the connection (pooled once returned)
        try:
            accounts.table_grant(live.reads, "warm-up")  # the token look-up's statement, once
        except Refused:
            pass
    for name in live.env.list_templates(extensions=["html"]):  # compiled once, before the room
        live.env.get_template(name)  # opens its pages (16 threads would each compile them)
    log.info("live_warm", connections=opened + 4, ms=round((time.perf_counter() - started) * 1000, 1))
