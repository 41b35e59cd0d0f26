"""Sequencing apart from integration (issue 28, item 2).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28

* ``events.xid`` (PostgreSQL: filled by the default ``pg_current_xact_id()``, the
  writing transaction's 64-bit id; SQLite: NULL). In a database whose tree is
  integrated behind the log, readers by position and the integrator take only the
  rows of transactions older than the oldest one in flight, which (positions being
  handed out with the transaction id in one short critical section) is always a
  prefix of the log in position order: ``ledger.store.integrator``.
* ``ledger_settings (name, value)``: ``integration = behind`` when the database's
  Merkle tree is extended by the integrator instead of in each append's transaction
  (``cli.py init --integrate-behind``). Without the row, nothing changes.

Nothing already stored is rewritten (rows written before have a NULL ``xid``: all
committed long ago). Downgrade drops both.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("events", sa.Column("xid", sa.BigInteger(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE events ALTER COLUMN xid SET DEFAULT (pg_current_xact_id()::text::bigint)")
    op.create_table(
        "ledger_settings",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("value", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_ledger_settings")),
    )


def downgrade() -> None:
    op.drop_table("ledger_settings")
    op.drop_column("events", "xid")
