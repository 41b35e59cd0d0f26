"""Test helpers for the store: the two backends, and events with a valid hash chain.

PostgreSQL: the server named by ``$LEDGER_TEST_PG`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``); each test gets its own
schema ``t_<hex>``, carried in its URL as ``?options=-csearch_path=...`` so the
URL alone (``--db``, ``open_store``) reaches it. The schema is dropped at the
end of the test.
"""

from __future__ import annotations

import functools
import os
import secrets
import uuid
from typing import Any

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

from ledger.hashing import event_hash
from ledger.store.base import GENESIS, Actor, StoredEvent

PG_DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
TABLE_ACTOR = Actor("table", "t12")


def pg_base_url() -> str:
    return os.environ.get("LEDGER_TEST_PG") or PG_DEFAULT_URL


@attrs.frozen
class Backend:
    """One database under test: its name (the test id), URL and PostgreSQL schema."""

    name: str
    url: str
    schema: str | None = None


@functools.cache
def _admin_engine() -> sa.Engine:
    return sa.create_engine(pg_base_url(), poolclass=NullPool,
                            connect_args={"connect_timeout": 3})


@functools.cache
def pg_unavailable_reason() -> str | None:
    """Why the PostgreSQL test server cannot be used, or None when it can (asked once)."""
    try:
        with _admin_engine().connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except Exception as exc:  # any failure means "not available"
        shown = make_url(pg_base_url()).render_as_string(hide_password=True)
        cause = getattr(exc, "orig", None) or exc
        first_line = (str(cause).splitlines() or [""])[0]
        return f"PostgreSQL at {shown} unavailable ($LEDGER_TEST_PG): {first_line}"
    return None


def create_pg_schema() -> Backend:
    """A fresh, empty schema and the URL whose connections use it."""
    schema = "t_" + secrets.token_hex(6)
    with _admin_engine().begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    url = make_url(pg_base_url()).update_query_dict({"options": f"-csearch_path={schema}"})
    return Backend("postgres", url.render_as_string(hide_password=False), schema)


def drop_pg_schema(schema: str) -> None:
    with _admin_engine().begin() as conn:
        conn.exec_driver_sql("SET LOCAL lock_timeout = '10s'")
        conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def drop_append_only_triggers(conn: Connection) -> None:
    """What a tamperer with database rights does first (tests only)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("DROP TRIGGER events_no_update")
        conn.exec_driver_sql("DROP TRIGGER events_no_delete")
    else:
        conn.exec_driver_sql("DROP TRIGGER events_no_update_delete ON events")


def make_event(stream: str, seq: int, prev: str, type: str = "CardPlayed",
               data: dict[str, Any] | None = None, id: str | None = None, *,
               v: int = 1, actor: Actor = TABLE_ACTOR,
               at: str | None = None, causes: tuple[int, ...] = (),
               law: str | None = None) -> StoredEvent:
    """A well-formed event whose ``hash`` is computed from its content."""
    data = {"seat": "E", "card": "H7"} if data is None else data
    id = str(uuid.uuid4()) if id is None else id
    at = f"2026-11-21T14:03:{seq % 60:02d}.{seq:06d}Z" if at is None else at
    digest = event_hash(stream, seq, id, type, v, data, actor.to_json(), at, causes, law, prev)
    return StoredEvent(stream=stream, seq=seq, id=id, type=type, v=v, data=data, actor=actor,
                       at=at, causes=causes, law=law, prev=prev, hash=digest)


def make_chain(stream: str, count: int, *, after: tuple[int, str] = (0, GENESIS),
               **fields: Any) -> list[StoredEvent]:
    """``count`` chained events following ``after`` = (seq, hash) of the head."""
    seq, prev = after
    chain = []
    for n in range(seq + 1, seq + count + 1):
        ev = make_event(stream, n, prev, **fields)
        chain.append(ev)
        prev = ev.hash
    return chain
