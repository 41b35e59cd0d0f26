"""The event log: the append-only ``events`` table and ``stream_heads``.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Besides the tables, installs triggers that make the database itself refuse
UPDATE and DELETE on ``events`` (and TRUNCATE on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE_TRIGGERS = {
    "events_no_update": """
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END
    """,
    "events_no_delete": """
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END
    """,
}

# SQLSTATE 23001 (restrict_violation) so that drivers report an integrity
# error, as SQLite does for RAISE(ABORT).
POSTGRESQL_FUNCTION = """
    CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'events are append-only: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$
"""

POSTGRESQL_TRIGGERS = {
    "events_no_update_delete": """
        CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION events_append_only()
    """,
    "events_no_truncate": """
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()
    """,
}


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.Identity(always=True),
            nullable=False,
        ),
        sa.Column("stream", sa.String(200), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("v", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("actor_role", sa.String(16), nullable=False),
        sa.Column("actor_name", sa.String(200), nullable=True),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("causes", sa.Text(), nullable=False),
        sa.Column("law", sa.String(64), nullable=True),
        sa.Column("prev", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("position", name=op.f("pk_events")),
        sa.UniqueConstraint("stream", "seq", name=op.f("uq_events_stream_seq")),
        sa.UniqueConstraint("stream", "id", name=op.f("uq_events_stream_id")),
    )
    op.create_table(
        "stream_heads",
        sa.Column("stream", sa.String(200), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("state", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("stream", name=op.f("pk_stream_heads")),
    )
    dialect = op.get_context().dialect.name
    if dialect == "sqlite":
        for ddl in SQLITE_TRIGGERS.values():
            op.execute(ddl)
    elif dialect == "postgresql":
        op.execute(POSTGRESQL_FUNCTION)
        for ddl in POSTGRESQL_TRIGGERS.values():
            op.execute(ddl)
    else:
        raise NotImplementedError(f"no append-only triggers for {dialect}")


def downgrade() -> None:
    dialect = op.get_context().dialect.name
    if dialect == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    elif dialect == "postgresql":
        for name in POSTGRESQL_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON events")
        op.execute("DROP FUNCTION IF EXISTS events_append_only()")
    op.drop_table("stream_heads")
    op.drop_table("events")
