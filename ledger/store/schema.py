"""The database schema: one append-only event table, the stream heads, the snapshots, the Merkle tree.

This module is the model that ``alembic check`` compares the migrated database
with; the migrations in ``migrations/versions`` are frozen copies of it and
also create what SQLAlchemy cannot describe (the append-only triggers).

* ``events``: one row per event, never updated or deleted. ``position`` is the
  store-wide order (PostgreSQL: an IDENTITY column; SQLite: ``INTEGER PRIMARY
  KEY``, the rowid); ``(stream, seq)`` and ``(stream, id)`` are unique, and
  those two keys are the store's concurrency guard. ``data`` and ``causes``
  hold canonical JSON text (``ledger.hashing.canonical_json``).
* ``stream_heads``: per stream, the head ``(seq, hash)`` written with every
  append.
* ``snapshots`` (revision 0004): per stream, the folded state after ``seq``
  (whose event has ``hash``), saved every N events and at the end of a board,
  not with every append (a cache that can be rebuilt from the events at any
  time; ``ledger.service``). Revision 0007 adds ``summary``: what a tournament's
  results need of the board at that seq (``ledger.summaries``), written with the snapshot.
* ``ix_events_appeals`` (revision 0007): a partial index of the ``AppealLodged`` events
  by stream: the boards with an appeal by one indexed query.
* ``boards`` (revision 0005): per stream whose first event is a ``BoardOpened``, the
  tournament it names and that name's slug, written in the same transaction: the
  boards of a tournament by one indexed query (issue 28, item 4).
* ``merkle_leaves`` and ``merkle_nodes`` (revision 0002): the Merkle tree over
  the log in position order (``ledger.audit.merkle``): leaf ``leaf_index`` is the
  event at ``position`` (``stream``, ``seq``); ``merkle_nodes`` holds every perfect subtree above
  the leaves (``level`` >= 1). Written in the append's transaction, never
  updated or deleted (triggers refuse it, as for ``events``).
"""

from __future__ import annotations

import sqlalchemy as sa

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)

#: BIGINT on PostgreSQL; exactly ``INTEGER`` on SQLite so that the primary key
#: is the rowid and numbers itself.
PositionType = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

events = sa.Table(
    "events",
    metadata,
    sa.Column("position", PositionType, sa.Identity(always=True), primary_key=True),
    sa.Column("stream", sa.String(200), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("id", sa.String(64), nullable=False),
    sa.Column("type", sa.String(64), nullable=False),
    sa.Column("v", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("actor_role", sa.String(16), nullable=False),
    sa.Column("actor_name", sa.String(200), nullable=True),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Column("causes", sa.Text, nullable=False),
    sa.Column("law", sa.String(64), nullable=True),
    sa.Column("prev", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    # revision 0006: the writing transaction's id (PostgreSQL; NULL on SQLite), the
    # readers' bound when the tree is integrated behind the log (ledger.store.integrator)
    sa.Column("xid", sa.BigInteger, nullable=True),
    sa.UniqueConstraint("stream", "seq"),
    sa.UniqueConstraint("stream", "id"),
)

#: revision 0007: the events that lodge an appeal, by stream (a partial index: no other event
#: enters it), for the case file's earlier decisions (ledger.appeals)
APPEALS_WHERE = sa.text("type = 'AppealLodged'")
sa.Index("ix_events_appeals", events.c.stream, sqlite_where=APPEALS_WHERE, postgresql_where=APPEALS_WHERE)

stream_heads = sa.Table(
    "stream_heads",
    metadata,
    sa.Column("stream", sa.String(200), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("stream", sa.String(200), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    # revision 0007: the board's results summary at ``seq`` (ledger.summaries), NULL when none
    sa.Column("summary", sa.Text, nullable=True),
)

merkle_leaves = sa.Table(
    "merkle_leaves",
    metadata,
    sa.Column("leaf_index", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("position", sa.BigInteger, nullable=False),
    # which event it was: named by verify should the event go missing
    sa.Column("stream", sa.String(200), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.UniqueConstraint("position"),
)

merkle_nodes = sa.Table(
    "merkle_nodes",
    metadata,
    sa.Column("level", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("node_index", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("hash", sa.String(64), nullable=False),
)

boards = sa.Table(
    "boards",
    metadata,
    sa.Column("stream", sa.String(200), primary_key=True),
    sa.Column("tournament", sa.Text, nullable=False),
    sa.Column("slug", sa.String(120), nullable=False, index=True),
)

ledger_settings = sa.Table(
    "ledger_settings",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.String(200), nullable=False),
)
