"""The schema's Alembic revisions on an open connection: the migrations folder, its
newest revision, a database's revision, an upgrade.

What :mod:`ledger.store.sql` (opening a store checks the revision, ``create=True``
upgrades) and :mod:`ledger.store.migrate` (the same on a URL or an engine, and the
other commands) both need. It takes connections only, never a URL, so it imports
neither of them.

The migrations folder is found from the installed ``migrations`` package,
never from the current directory.
"""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

import migrations

MIGRATIONS_DIR = Path(migrations.__file__).resolve().parent


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for the project's migrations, bound to ``connection`` when given
    (the caller owns its transaction)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Migrate the schema up to ``revision`` (``alembic upgrade``)."""
    command.upgrade(alembic_config(connection), revision)


def current(connection: Connection) -> str | None:
    """The database's revision; None when it has no schema."""
    return MigrationContext.configure(connection).get_current_revision()


@functools.cache
def head() -> str:
    """The newest revision of the migrations folder."""
    head_revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head_revision is not None, "no migration in " + str(MIGRATIONS_DIR)
    return head_revision
