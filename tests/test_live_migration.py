"""Migration 0003 (the live service's tables): up, down and up again on both stores,
with the event log untouched by it."""

from __future__ import annotations

import sqlalchemy as sa
from backends import make_chain

from ledger.store import migrate
from ledger.store.sql import make_engine, open_store

LIVE_TABLES = {"live_users", "live_web_sessions", "live_sessions", "live_table_tokens"}


def live_tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(sa.inspect(conn).get_table_names()) & LIVE_TABLES
    finally:
        engine.dispose()


def test_0003_adds_and_removes_the_live_tables_and_leaves_the_log_alone(store_url: str) -> None:
    migrate.upgrade(store_url, "0001")
    assert live_tables(store_url) == set()
    migrate.upgrade(store_url, "0003")
    assert migrate.current(store_url) == "0003"
    assert live_tables(store_url) == LIVE_TABLES
    migrate.upgrade(store_url)  # the store opens at the newest revision only (0004: snapshots)
    with open_store(store_url) as store:
        with store.transaction("s") as tx:
            tx.insert(make_chain("s", 3))

    migrate.downgrade(store_url, "0001")
    assert live_tables(store_url) == set()
    engine = make_engine(store_url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM events").scalar() == 3
    finally:
        engine.dispose()

    migrate.upgrade(store_url, "head")
    assert live_tables(store_url) == LIVE_TABLES
    migrate.check(store_url)

