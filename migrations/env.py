"""Alembic environment for the ledger's schema.

The connection comes from ``config.attributes["connection"]`` when the caller
passes one (``ledger.store.migrate``, the tests: it may be a PostgreSQL
connection whose ``search_path`` is a per-test schema); the caller then owns
its transaction. Otherwise the URL is ``sqlalchemy.url`` from the config, else
``$LEDGER_DB``, else ``sqlite:///ledger.db`` (the defaults of ``cli.py``), and
the whole upgrade runs in one transaction. Logging is left to the caller (there
is no ``alembic.ini``; the configuration is ``[tool.alembic]`` in pyproject.toml).
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy.engine import Connection

from ledger.store.schema import metadata
import ledger.live.schema  # noqa: F401,E402  (the live service's tables, migration 0003)
from ledger.store.sql import make_engine, normalise_url

config = context.config
target_metadata = metadata


def _url() -> str:
    # get_section, not get_main_option: the latter fails when there is no .ini file.
    url = config.get_section(config.config_ini_section, {}).get("sqlalchemy.url")
    url = url or os.environ.get("LEDGER_DB")
    return normalise_url(url or "sqlite:///ledger.db")


def _configure_and_run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """Emit the SQL to stdout (``alembic upgrade head --sql``)."""
    url = _url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run against the given connection, or open one from the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.begin() as connection:
            _configure_and_run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
