"""Snapshots in their own table, off the per-append path (issue 10, lever 1).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

Until 0003 ``stream_heads`` carried the folded state at the head
(``version``/``state``), rewritten by every append. From 0004 the heads table
holds the head ``(seq, hash)`` only, and ``snapshots`` holds, per stream, the
last state saved (every N events and at the end of a board,
``ledger.service.SNAPSHOT_EVERY``): the state after ``seq``, whose event has
``hash``. It is a cache, rebuilt from the events at any time (``rebuild``).

Upgrade moves the head snapshots already stored into ``snapshots``; downgrade
puts back those that describe the head (an older one is simply dropped: 0003
kept the head's state only).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("stream", sa.String(200), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("stream", name=op.f("pk_snapshots")),
    )
    op.execute("INSERT INTO snapshots (stream, seq, hash, version, state) "
               "SELECT stream, seq, hash, version, state FROM stream_heads "
               "WHERE version IS NOT NULL AND state IS NOT NULL")
    with op.batch_alter_table("stream_heads") as batch:
        batch.drop_column("state")
        batch.drop_column("version")


def downgrade() -> None:
    with op.batch_alter_table("stream_heads") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("state", sa.Text(), nullable=True))
    op.execute("UPDATE stream_heads SET "
               "version = (SELECT s.version FROM snapshots s WHERE s.stream = stream_heads.stream "
               "AND s.seq = stream_heads.seq AND s.hash = stream_heads.hash), "
               "state = (SELECT s.state FROM snapshots s WHERE s.stream = stream_heads.stream "
               "AND s.seq = stream_heads.seq AND s.hash = stream_heads.hash)")
    op.drop_table("snapshots")
