"""The live service's own tables (accounts, web sessions, playing sessions, table tokens)
and the PostgreSQL notifications between server processes, over an engine of the
service's own on the ledger's database.

The event store is reached only through :class:`ledger.service.Ledger` and the
:class:`ledger.store.base.EventStore` interface; nothing here touches the store's
engine or its tables. The live tables live in the same database (migration 0003), so
this engine is made from the same URL, configured as the store configures its own
(SQLite: WAL and a busy timeout; PostgreSQL: the URL's ``search_path`` option, a lock
timeout), once per process.
"""

from __future__ import annotations

import threading
from typing import Any

import sqlalchemy as sa
import structlog
from sqlalchemy import event
from sqlalchemy.engine import Engine

from ledger.store.urls import normalise_url

log = structlog.get_logger("ledger.live")

BUSY_TIMEOUT_S = 30.0
CHANNEL = "ledger_events"


def live_engine(url: str) -> Engine:
    """The engine of the live tables on the database ``url`` names (one per process)."""
    parsed = sa.engine.make_url(normalise_url(url))  # the store's own reading of the URL
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise ValueError("the live service needs a database file or server, not :memory:")
        engine = sa.create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_S,
                                                         "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.close()

        return engine
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in parsed.query:
        connect_args["connect_timeout"] = 10
    return sa.create_engine(parsed, connect_args=connect_args, pool_pre_ping=True)


def notify(engine: Engine, position: int) -> None:
    """Tell the other processes (PostgreSQL) that the log reached ``position``."""
    if engine.dialect.name != "postgresql":
        return
    with engine.connect() as conn:
        conn.execute(sa.text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": str(position)})
        conn.commit()


def read_engine(engine: Engine) -> Engine:
    """The same engine (and pool) for single-statement reads: on PostgreSQL in
    autocommit, so a read is its one round trip (no BEGIN, no ROLLBACK on return)."""
    if engine.dialect.name != "postgresql":
        return engine
    return engine.execution_options(isolation_level="AUTOCOMMIT")


class Notifier:
    """Sends ``NOTIFY ledger_events`` for a process's appends (PostgreSQL), off the
    request path: an append hands over its position and returns; a thread of its own,
    on a connection of its own in autocommit, sends the newest position it was given
    (appends that come while one notification is sent share the next one: a
    notification only says "look at the log", whose position order is the truth)."""

    def __init__(self, engine: Engine) -> None:
        self.enabled = engine.dialect.name == "postgresql"
        self._conninfo = listen_conninfo(engine) if self.enabled else ""
        self._cond = threading.Condition()
        self._pending: int | None = None
        self._stop = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="ledger-notify", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout)

    def send(self, position: int) -> None:
        """Thread-safe, never waits on the database."""
        if not self.enabled:
            return
        with self._cond:
            if self._pending is None or position > self._pending:
                self._pending = position
            self._cond.notify()

    def _take(self) -> int | None:
        with self._cond:
            while self._pending is None and not self._stop:
                self._cond.wait()
            position, self._pending = self._pending, None
            return position

    def _run(self) -> None:
        import psycopg

        conn: Any = None
        while True:
            position = self._take()
            if position is None:  # stopping, nothing left to send
                break
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5)
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(position)))
            except Exception as exc:  # the database away: the --poll timer still finds it
                log.warning("notify_failed", error=str(exc))
                if conn is not None:
                    try:
                        conn.close()
                    except Exception:  # pragma: no cover - closing a broken connection
                        pass
                conn = None
        if conn is not None:
            conn.close()


def listen_conninfo(engine: Engine) -> str:
    """The libpq connection string of a LISTEN connection to the same database."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
