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

from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

BUSY_TIMEOUT_S = 30.0
CHANNEL = "ledger_events"


def database_url(url: str) -> str:
    """A bare ``postgresql://`` (or ``postgres://``) URL with the psycopg 3 driver."""
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url[len(bare):]
    return url


def live_engine(url: str) -> Engine:
    """The engine of the live tables on the database ``url`` names (one per process)."""
    parsed = sa.engine.make_url(database_url(url))
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


def listen_conninfo(engine: Engine) -> str:
    """The libpq connection string of a LISTEN connection to the same database."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
