"""A results summary kept with each board's snapshot; the appeals indexed (issue 28, item 4).

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

``ix_events_appeals``: a partial index of the events that lodge an appeal
(``type = 'AppealLodged'``), by stream: the case file's earlier decisions on the same Laws
(``ledger.appeals``) find the boards with an appeal by it, in the time of the appeals, not
of every stream of the store. Only appeals enter it: an append of any other event does not
touch it.

Nothing is computed here (the summary is the projection's, not this revision's): upgrade
adds the column, empty, and builds the index from the events stored; downgrade drops both,
the snapshots kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


APPEALS = "type = 'AppealLodged'"


def upgrade() -> None:
    op.add_column("snapshots", sa.Column("summary", sa.Text(), nullable=True))
    op.create_index("ix_events_appeals", "events", ["stream"],
                    sqlite_where=sa.text(APPEALS), postgresql_where=sa.text(APPEALS))


def downgrade() -> None:
    op.drop_index("ix_events_appeals", table_name="events")
    op.drop_column("snapshots", "summary")
