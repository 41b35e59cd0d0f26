"""Fixtures that run a test once per store backend: ``backend``, ``store_url``, ``store``.

PostgreSQL tests are marked ``postgres``; when the server cannot be reached
they are skipped, with the reason, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from backends import Backend, create_pg_schema, drop_pg_schema, pg_unavailable_reason

from ledger.store.sql import SqlEventStore, open_store
import ledger.laws  # noqa: F401,E402 (the composition root: the families plug into the fold and the document)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


def _require_postgres() -> None:
    reason = pg_unavailable_reason()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """An empty database: a SQLite file in ``tmp_path``, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield Backend("sqlite", f"sqlite:///{tmp_path / 'ledger.db'}")
        return
    _require_postgres()
    pg = create_pg_schema()
    try:
        yield pg
    finally:
        assert pg.schema is not None
        drop_pg_schema(pg.schema)


@pytest.fixture
def store_url(backend: Backend) -> str:
    """The URL of an empty database (no schema yet)."""
    return backend.url


@pytest.fixture
def store(store_url: str) -> Iterator[SqlEventStore]:
    """A migrated, empty store."""
    opened = open_store(store_url, create=True)
    try:
        yield opened
    finally:
        opened.close()
