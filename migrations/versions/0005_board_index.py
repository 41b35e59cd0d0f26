"""The boards of each tournament, indexed (issue 28, item 4).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28

``boards`` holds one row per stream whose first event is a ``BoardOpened``: the
stream, the tournament it names and that name's slug (``ledger.records.games.slugify``,
copied below as it was at this revision). It is written in the transaction that
appends the ``BoardOpened`` (``ledger.service.Ledger.append``), so ``results``,
``open`` and the case file's traveller find a tournament's boards by one indexed
query instead of reading every stream's first event: their cost follows the
tournament, not the store. Like the snapshots it is derived from the events and
can be rebuilt from them; the events table is untouched.

Upgrade fills it from the events already stored; downgrade drops it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _slugify(name: str) -> str:
    slug = re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-.")
    slug = re.sub(r"-{2,}", "-", slug)[:120].strip("-.")
    return slug or "tournament"


def upgrade() -> None:
    boards = op.create_table(
        "boards",
        sa.Column("stream", sa.String(200), nullable=False),
        sa.Column("tournament", sa.Text(), nullable=False),
        sa.Column("slug", sa.String(120), nullable=False),
        sa.PrimaryKeyConstraint("stream", name=op.f("pk_boards")),
    )
    op.create_index(op.f("ix_boards_slug"), "boards", ["slug"])
    conn = op.get_bind()
    rows = []
    for stream, data in conn.execute(sa.text(
            "SELECT stream, data FROM events WHERE seq = 1 AND type = 'BoardOpened'")):
        try:
            tournament = str(json.loads(data).get("tournament"))
        except (ValueError, AttributeError):  # a damaged row: verify names it; not indexed
            continue
        rows.append({"stream": stream, "tournament": tournament, "slug": _slugify(tournament)})
    if rows:
        op.bulk_insert(boards, rows)


def downgrade() -> None:
    op.drop_index(op.f("ix_boards_slug"), table_name="boards")
    op.drop_table("boards")
