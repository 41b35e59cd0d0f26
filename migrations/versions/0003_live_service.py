"""The live service: users, web sessions, playing sessions, table tokens.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24

The model is ``ledger/live/schema.py``. Nothing here touches ``events``: the
append-only log and its triggers are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("disabled_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_users")),
        sa.UniqueConstraint("name", name=op.f("uq_live_users_name")),
    )
    op.create_table(
        "live_web_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["live_users.id"],
                                name=op.f("fk_live_web_sessions_user_id_live_users")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_live_web_sessions")),
    )
    op.create_table(
        "live_sessions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament", sa.String(60), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("boards_per_round", sa.Integer(), nullable=False),
        sa.Column("movement", sa.Text(), nullable=False),
        sa.Column("laws", sa.String(8), nullable=False),
        sa.Column("scoring", sa.String(8), nullable=False),
        sa.Column("deals", sa.Text(), nullable=False),
        sa.Column("opened_at", sa.String(32), nullable=False),
        sa.Column("opened_by", sa.String(100), nullable=True),
        sa.Column("closed_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_sessions")),
        sa.UniqueConstraint("tournament", "name", name=op.f("uq_live_sessions_tournament_name")),
    )
    op.create_table(
        "live_table_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("revoked_at", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(["session_id"], ["live_sessions.id"],
                                name=op.f("fk_live_table_tokens_session_id_live_sessions")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_live_table_tokens")),
    )


def downgrade() -> None:
    op.drop_table("live_table_tokens")
    op.drop_table("live_sessions")
    op.drop_table("live_web_sessions")
    op.drop_table("live_users")
