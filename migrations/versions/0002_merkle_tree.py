"""The Merkle tree over the log: ``merkle_leaves`` and ``merkle_nodes``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24

One leaf per event in position order and every perfect subtree above them
(``ledger.audit.merkle``), kept by the append path in its own transaction. The
upgrade builds the tree of the events already stored (from their stored
hashes, in position order); triggers refuse UPDATE and DELETE on both tables
(and TRUNCATE on PostgreSQL), as on ``events``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("merkle_leaves", "merkle_nodes")

POSTGRESQL_FUNCTION = """
    CREATE FUNCTION merkle_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the Merkle tree is append-only: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$
"""


def _sqlite_triggers(table: str) -> dict[str, str]:
    return {
        f"{table}_no_update": f"""
            CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
            BEGIN SELECT RAISE(ABORT, 'the Merkle tree is append-only: UPDATE refused'); END
        """,
        f"{table}_no_delete": f"""
            CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
            BEGIN SELECT RAISE(ABORT, 'the Merkle tree is append-only: DELETE refused'); END
        """,
    }


def _postgresql_triggers(table: str) -> dict[str, str]:
    return {
        f"{table}_no_update_delete": f"""
            CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION merkle_append_only()
        """,
        f"{table}_no_truncate": f"""
            CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION merkle_append_only()
        """,
    }


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _backfill(leaves_table: sa.Table, nodes_table: sa.Table) -> None:
    """The tree of the events already stored (frozen copy of ledger.audit.merkle.extend)."""
    bind = op.get_bind()
    events = sa.table("events", sa.column("position"), sa.column("stream"), sa.column("seq"),
                      sa.column("hash"))
    frontier: dict[tuple[int, int], bytes] = {}
    size, last = 0, 0
    while True:
        rows = bind.execute(sa.select(events.c.position, events.c.stream, events.c.seq, events.c.hash)
                            .where(events.c.position > last)
                            .order_by(events.c.position).limit(5000)).all()
        if not rows:
            return
        leaves, nodes = [], []
        for position, stream, seq, event_hash in rows:
            leaf = hashlib.sha256(b"\x00" + bytes.fromhex(event_hash)).digest()
            leaves.append({"leaf_index": size, "position": position, "stream": stream, "seq": seq,
                           "hash": leaf.hex()})
            frontier[(0, size)] = leaf
            level, j = 0, size
            while j & 1:
                parent = _node(frontier.pop((level, j - 1)), frontier.pop((level, j)))
                level, j = level + 1, j >> 1
                frontier[(level, j)] = parent
                nodes.append({"level": level, "node_index": j, "hash": parent.hex()})
            size += 1
        bind.execute(leaves_table.insert(), leaves)
        if nodes:
            bind.execute(nodes_table.insert(), nodes)
        last = rows[-1][0]


def upgrade() -> None:
    leaves = op.create_table(
        "merkle_leaves",
        sa.Column("leaf_index", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("stream", sa.String(200), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("leaf_index", name=op.f("pk_merkle_leaves")),
        sa.UniqueConstraint("position", name=op.f("uq_merkle_leaves_position")),
    )
    nodes = op.create_table(
        "merkle_nodes",
        sa.Column("level", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("node_index", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("level", "node_index", name=op.f("pk_merkle_nodes")),
    )
    _backfill(leaves, nodes)
    dialect = op.get_context().dialect.name
    if dialect == "sqlite":
        for table in TABLES:
            for ddl in _sqlite_triggers(table).values():
                op.execute(ddl)
    elif dialect == "postgresql":
        op.execute(POSTGRESQL_FUNCTION)
        for table in TABLES:
            for ddl in _postgresql_triggers(table).values():
                op.execute(ddl)
    else:
        raise NotImplementedError(f"no append-only triggers for {dialect}")


def downgrade() -> None:
    dialect = op.get_context().dialect.name
    for table in TABLES:
        if dialect == "sqlite":
            for name in _sqlite_triggers(table):
                op.execute(f"DROP TRIGGER IF EXISTS {name}")
        elif dialect == "postgresql":
            for name in _postgresql_triggers(table):
                op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS merkle_append_only()")
    op.drop_table("merkle_nodes")
    op.drop_table("merkle_leaves")
