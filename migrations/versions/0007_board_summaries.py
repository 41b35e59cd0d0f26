"""A results summary kept with each board's snapshot (issue 28, item 4).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28

``snapshots.summary`` (nullable text, canonical JSON): what a tournament's results need
of the board at the snapshot's seq (its table, round, pairs, contract, declarer, result,
score, adjusted score, the checks before publication: ``ledger.summaries``), written by
the same statement as the snapshot, so in the append's transaction. ``ledger.tournament``
reads a tournament's summaries by one query (the board index joined with the snapshots at
their stream's head) instead of folding each board. Like the snapshot it is a cache,
derived from the events: a row without a summary (every row written before this
revision) is read by folding the board, and ``rebuild`` fills it.

Nothing is computed here (the summary is the projection's, not this revision's): upgrade
adds the column, empty; downgrade drops it, the snapshots kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("snapshots", sa.Column("summary", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("snapshots", "summary")
