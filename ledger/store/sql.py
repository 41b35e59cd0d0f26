"""The SQLAlchemy event store, over SQLite (a file, or ``:memory:``) or PostgreSQL.

It implements :class:`ledger.store.base.EventStore`; the contract is in that
module's docstring. How each backend keeps it:

* **SQLite**: pysqlite's own transaction handling is switched off and every
  transaction starts with an explicit ``BEGIN``; a stream transaction (and any
  write) uses ``BEGIN IMMEDIATE``, so it holds the database's write lock from
  its first read and writers are serialised: positions (the rowid) are handed
  out in commit order. File databases run in WAL mode (readers never wait)
  with a busy timeout. ``sqlite:///:memory:`` is one shared connection
  (``StaticPool``), used one transaction at a time.
* **PostgreSQL** (``postgresql+psycopg://``): a stream transaction takes the
  stream's transaction-scoped advisory lock (so the writers of one stream,
  new or not, wait for each other); an insert first takes a
  transaction-scoped advisory lock, held until commit, so the IDENTITY
  positions are handed out in commit order.

Either way the unique keys ``(stream, seq)`` and ``(stream, id)`` are the last
word: a violation is raised as :class:`ledger.errors.ConcurrencyError`. This
module never updates or deletes an event (the triggers would refuse it).

Every insert also upserts the stream's ``stream_heads`` row to the new head;
``streams()`` lists these rows. ``head()`` reads the events table. Snapshots
live in their own table (revision 0004), written by ``save_snapshot`` every N
events and at the end of a board (``ledger.service``), not with every append.

The append path (issue 10; docs/performance.md) runs on one write connection
per store, with constant DB-API statements on the driver's cursor: one
multi-row ``INSERT ... RETURNING`` per batch, no savepoint on SQLite (a failed
statement undoes itself), and on PostgreSQL pipelines (the stream lock and the
head in one round trip; the position lock, the rows, the head and the tree's
size and frontier in the next; the tree's rows, a snapshot, and the COMMIT in a
third). PostgreSQL write transactions of several threads run side by side, each
on a write connection of its own. A database URL may ask for
``?synchronous=normal`` on SQLite (faster; a power failure may lose the last
commits); FULL is the default.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import sqlite3
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import attrs
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import StaticPool

from ledger.errors import ConcurrencyError, IntegrityError, StoreBusy, StoreUnavailable
from ledger.store.urls import normalise_url
from ledger.hashing import canonical_json
from ledger.store.base import GENESIS, Actor, Head, RawEvent, Snapshot, StoredEvent
from ledger.audit import merkle
from ledger.store.schema import (boards, events, ledger_settings, merkle_leaves, merkle_nodes, snapshots,
                                 stream_heads)

#: Seconds a writer waits for a lock held by other writers (SQLite: the write
#: lock; PostgreSQL: ``lock_timeout``) before giving up with :class:`StoreBusy`
#: (exit 5). ``open_store(busy_timeout=...)``, ``--busy-timeout``.
SQLITE_BUSY_TIMEOUT = BUSY_TIMEOUT = 30.0
OWN_HEADS = 4096
"""SQLite: how many stream heads a store remembers having committed (SqlEventStore._quiet)."""

#: PostgreSQL: how many write transactions one store (one process) runs at once,
#: each on a connection of its own (SQLite runs one at a time).
PG_WRITERS = 8

#: Key of the PostgreSQL advisory lock that orders positions ("LEDGPOS\x01").
POSITION_LOCK_KEY = 0x4C454447504F5301

#: Class (first key) of the PostgreSQL advisory locks of streams ("LDGS"); the
#: second key is ``hashtext(schema/stream)`` (a collision only makes two streams wait
#: for each other). Two-key locks never collide with the one-key position lock. The
#: schema is in the key because advisory locks are the database's, not the schema's: two
#: ledgers in two schemas of one database (the tests' layout) writing batches over streams
#: of the same names could otherwise deadlock, each holding one's stream lock and waiting
#: for the position lock the other holds.
STREAM_LOCK_CLASS = 0x4C444753

#: PostgreSQL, tree integrated behind the log: the smallest transaction id of the ledger's
#: writers in flight in this database, each of which holds, from its critical section to its
#: commit, a shared advisory lock whose key is its own transaction id (below 2^48: never one of
#: the ledger's other keys); with none, the first id not yet assigned. Read in a statement of
#: its own BEFORE the rows (READ COMMITTED: the rows' statement has a later snapshot), so every
#: writer with a smaller id had committed or rolled back when the rows are read. Transactions
#: of other databases, or that write no event, hold nothing back.
SETTLED_BOUND = ("SELECT coalesce(min((l.classid::bigint << 32) | l.objid::bigint), "
                 "pg_snapshot_xmax(pg_current_snapshot())::text::bigint) FROM pg_locks l "
                 "WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.classid < 65536 "
                 "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())")
IN_FLIGHT = "SELECT pg_advisory_xact_lock_shared(pg_current_xact_id()::text::bigint)"
"""A writer's mark, in its critical section (see :data:`SETTLED_BOUND`)."""

#: Execution option read by the SQLite ``begin`` hook: the BEGIN mode to emit.
_BEGIN_MODE = "ledger_sqlite_begin"

_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")

INIT_HINT = "run `python cli.py init` to create or upgrade it"


def parse_url(url: str | URL) -> URL:
    """The URL, parsed (a bare ``postgresql://`` gets psycopg 3); StoreUnavailable if unreadable."""
    if isinstance(url, URL):
        return url
    try:
        return make_url(normalise_url(url))
    except sa.exc.ArgumentError:
        # The text may hold a password: not repeated here.
        raise StoreUnavailable("cannot read the database URL: use sqlite:///FILE or "
                               "postgresql+psycopg://USER@HOST/DB") from None


def _is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"


def make_engine(url: str | URL, *, schema: str | None = None,
                busy_timeout: float | None = None) -> Engine:
    """An engine configured for the ledger (see the module docstring).

    ``schema`` (PostgreSQL only) becomes the connections' ``search_path``;
    ``busy_timeout`` (seconds, default :data:`BUSY_TIMEOUT`) how long a writer
    waits for another's lock.
    """
    url = parse_url(url)
    timeout = BUSY_TIMEOUT if busy_timeout is None else busy_timeout
    if timeout < 0:
        raise ValueError("the busy timeout is a number of seconds, 0 or more")
    if url.get_backend_name() == "sqlite":
        if schema is not None:
            raise ValueError("schema is for PostgreSQL only")
        return _sqlite_engine(url, timeout)
    if url.get_backend_name() == "postgresql":
        return _postgresql_engine(url, schema, timeout)
    raise StoreUnavailable(f"unsupported database {url.get_backend_name()!r}: "
                           "use sqlite:///FILE or postgresql+psycopg://...")


#: SQLite's ``synchronous`` levels a URL may ask for (``sqlite:///FILE?synchronous=normal``).
#: FULL, the default, syncs the WAL at every commit: a commit that returned survives a
#: power failure. NORMAL syncs only at checkpoints: still never corrupt, and nothing is
#: lost when the process or the ledger crashes, but a power failure (or an OS crash) may
#: lose the transactions committed since the last checkpoint (docs/performance.md).
SQLITE_SYNC_LEVELS = ("FULL", "NORMAL", "EXTRA")


def _sqlite_engine(url: URL, timeout: float) -> Engine:
    memory = _is_memory(url)
    sync = str(url.query.get("synchronous") or "FULL").upper()
    if sync not in SQLITE_SYNC_LEVELS:
        raise StoreUnavailable(f"synchronous={sync.lower()} in the database URL: use full "
                               "(the default) or normal (see docs/performance.md)")
    url = url.difference_update_query(["synchronous"])
    engine = sa.create_engine(
        url,
        connect_args={"timeout": timeout, "check_same_thread": False},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Hand transaction control to the "begin" hook below.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        if not memory:
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute(f"PRAGMA synchronous = {sync}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        if connection.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
            return  # begun on the driver by the store's write path (SqlEventStore._write_transaction)
        mode = connection.get_execution_options().get(_BEGIN_MODE, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _postgresql_engine(url: URL, schema: str | None, timeout: float) -> Engine:
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = 10
    if schema is not None:
        if not _SCHEMA_NAME.fullmatch(schema):
            raise ValueError(f"not a plain schema name: {schema!r}")
        connect_args["options"] = f"-csearch_path={schema}"
    engine = sa.create_engine(url, connect_args=connect_args)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # 0 would mean "wait for ever" to PostgreSQL: 1 ms is the shortest wait.
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {max(1, int(timeout * 1000))}")
        dbapi_connection.commit()

    return engine


# --- rows <-> events -------------------------------------------------------------

def _to_row(ev: StoredEvent) -> dict[str, Any]:
    return {
        "stream": ev.stream, "seq": ev.seq, "id": ev.id, "type": ev.type, "v": ev.v,
        "data": canonical_json(ev.data), "actor_role": ev.actor.role,
        "actor_name": ev.actor.name, "at": ev.at, "causes": canonical_json(list(ev.causes)),
        "law": ev.law, "prev": ev.prev, "hash": ev.hash,
    }


def _from_row(row: sa.Row[Any]) -> StoredEvent:
    try:
        return _decode_row(row)
    except (ValueError, TypeError, RecursionError) as exc:  # a damaged row: say which, not a traceback
        raise IntegrityError(row.stream if isinstance(row.stream, str) else None,
                             row.seq if isinstance(row.seq, int) else None,
                             f"the stored row cannot be read ({type(exc).__name__}); run "
                             "`python cli.py verify`", kind="undecodable", position=row.position) from exc


def _decode_row(row: sa.Row[Any]) -> StoredEvent:
    return StoredEvent(
        stream=row.stream, seq=row.seq, id=row.id, type=row.type, v=row.v,
        data=json.loads(row.data), actor=Actor(row.actor_role, row.actor_name), at=row.at,
        causes=tuple(json.loads(row.causes)), law=row.law, prev=row.prev, hash=row.hash,
        position=row.position,
    )


def _raw_column(column: sa.Column[Any], sqlite_db: bool) -> Any:
    """The column as the database holds it. On SQLite a text column is read as
    its bytes (a damaged row may hold bytes that are not UTF-8, which the driver
    would refuse to decode)."""
    if sqlite_db and isinstance(column.type, sa.String):
        return sa.cast(column, sa.LargeBinary).label(column.name)
    return sa.type_coerce(column, sa.types.NullType()).label(column.name)


def _raw_value(value: Any) -> Any:
    """Bytes read from a text column become text when they are UTF-8; else stay bytes."""
    if isinstance(value, (bytes, memoryview)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return bytes(value)
    return value


# --- queries shared by the store and its transactions ----------------------------

def _load_snapshot(conn: Connection, stream: str, *, head_only: bool = True) -> Snapshot | None:
    """The stream's saved snapshot; with ``head_only`` only when it is the state
    at the recorded head (same seq and hash), else None."""
    query = sa.select(snapshots).where(snapshots.c.stream == stream)
    if head_only:
        query = query.join(stream_heads, sa.and_(stream_heads.c.stream == snapshots.c.stream,
                                                 stream_heads.c.seq == snapshots.c.seq,
                                                 stream_heads.c.hash == snapshots.c.hash))
    row = conn.execute(query).first()
    if row is None:
        return None
    return Snapshot(stream=row.stream, seq=row.seq, hash=row.hash, version=row.version,
                    state=json.loads(row.state))


def _upsert(conn: Connection, table: sa.Table = stream_heads) -> Any:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` support."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def _save_snapshot(conn: Connection, snapshot: Snapshot) -> None:
    """Upsert the snapshot, unless the row already describes a later seq."""
    stmt = _upsert(conn, snapshots).values(
        stream=snapshot.stream, seq=snapshot.seq, hash=snapshot.hash,
        version=snapshot.version, state=canonical_json(snapshot.state),
    )
    conn.execute(stmt.on_conflict_do_update(
        index_elements=[snapshots.c.stream],
        set_={c: stmt.excluded[c] for c in ("seq", "hash", "version", "state")},
        where=snapshots.c.seq <= stmt.excluded.seq,
    ))


def _move_head(conn: Connection, stream: str, seq: int, hash: str) -> None:
    """Record the new head (tests and migrations; the append path uses :class:`_Statements`)."""
    stmt = _upsert(conn).values(stream=stream, seq=seq, hash=hash)
    conn.execute(stmt.on_conflict_do_update(
        index_elements=[stream_heads.c.stream],
        set_={"seq": stmt.excluded.seq, "hash": stmt.excluded.hash},
    ))


def _tree_size(conn: Connection) -> int:
    last = conn.execute(sa.select(sa.func.max(merkle_leaves.c.leaf_index))).scalar()
    return 0 if last is None else int(last) + 1


def _tree_nodes(conn: Connection, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """Stored perfect subtrees by (level, index); level 0 are the leaves."""
    found: dict[tuple[int, int], bytes] = {}
    leaves = [i for level, i in keys if level == 0]
    uppers = [(level, i) for level, i in keys if level > 0]
    if leaves:
        rows = conn.execute(sa.select(merkle_leaves.c.leaf_index, merkle_leaves.c.hash)
                            .where(merkle_leaves.c.leaf_index.in_(leaves)))
        found.update({(0, int(i)): bytes.fromhex(h) for i, h in rows})
    if uppers:
        node_rows = conn.execute(sa.select(merkle_nodes.c.level, merkle_nodes.c.node_index, merkle_nodes.c.hash)
                                 .where(sa.tuple_(merkle_nodes.c.level, merkle_nodes.c.node_index).in_(uppers)))
        found.update({(int(level), int(i)): bytes.fromhex(h) for level, i, h in node_rows})
    return found


@attrs.frozen
class _TreeTip:
    """The tree's last leaf and frontier after a committed append. The tree is
    append-only, so the committed tree whose last leaf is ``last_leaf`` at
    ``size`` has exactly this frontier: a writer that finds it unchanged reads
    no node (one query per append instead of three)."""

    size: int
    last_leaf: str
    frontier: dict[tuple[int, int], bytes]


class _Statements:
    """The append path's SQL, built once per dialect (issue 10, lever 2): plain
    DB-API text run on the driver's cursor, no SQLAlchemy compilation or cache
    key per call. ``?`` placeholders become ``%s`` for psycopg."""

    COLUMNS = ("stream", "seq", "id", "type", "v", "data", "actor_role", "actor_name", "at",
               "causes", "law", "prev", "hash")
    #: SQLite allows 32,766 bound values per statement: 13 columns x 2,000 rows.
    MAX_ROWS = 2000

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        q = (lambda sql: sql.replace("?", "%s")) if dialect == "postgresql" else (lambda sql: sql)
        self.q = q
        cols = ", ".join(self.COLUMNS)
        self._row = "(" + ", ".join("?" * len(self.COLUMNS)) + ")"
        self._insert_head = f"INSERT INTO events ({cols}) VALUES "
        self._inserts: dict[int, str] = {}
        self.insert_row = q(self._insert_head + self._row)  # SQLite, one row: its position is lastrowid
        self.head = q("SELECT seq, hash FROM events WHERE stream = ? ORDER BY seq DESC LIMIT 1")
        self.read = q(f"SELECT position, {cols} FROM events WHERE stream = ? AND seq > ? ORDER BY seq")
        self.read_upto = q(f"SELECT position, {cols} FROM events WHERE stream = ? AND seq > ? "
                           "AND seq <= ? ORDER BY seq")
        self.read_all = q(f"SELECT position, {cols} FROM events WHERE position > ? ORDER BY position LIMIT ?")
        # PostgreSQL, tree integrated behind (revision 0006): only the rows of transactions older
        # than the oldest writer in flight (SETTLED_BOUND, read first, in a statement of its own),
        # a prefix of the log in position order (ledger.store.integrator)
        self.settled_bound = SETTLED_BOUND
        self.read_all_settled = (f"SELECT position, {cols} FROM events WHERE position > %s AND (xid IS NULL "
                                 "OR xid < %s) ORDER BY position LIMIT %s")
        self.find_ids = f"SELECT position, {cols} FROM events WHERE stream = %s AND id = ANY(%s)"  # PostgreSQL
        self.last_leaf = "SELECT leaf_index, hash FROM merkle_leaves ORDER BY leaf_index DESC LIMIT 1"
        # PostgreSQL: the tree's size and its whole frontier in one statement (sent in the
        # insert's pipeline, after the position lock): one perfect subtree per set bit L of
        # the size n, at (L, (n >> L) - 1), level 0 in merkle_leaves, the others in merkle_nodes.
        self.frontier = (
            "WITH s AS (SELECT coalesce(max(leaf_index) + 1, 0) AS n FROM merkle_leaves), "
            "k AS (SELECT s.n, l.l, (s.n >> l.l) - 1 AS i FROM s, generate_series(0, 62) AS l(l) "
            "WHERE ((s.n >> l.l) & 1) = 1) "
            "SELECT k.n, k.l, k.i, coalesce(leaf.hash, node.hash) FROM k "
            "LEFT JOIN merkle_leaves leaf ON k.l = 0 AND leaf.leaf_index = k.i "
            "LEFT JOIN merkle_nodes node ON k.l > 0 AND node.level = k.l AND node.node_index = k.i")
        self.insert_leaf = q("INSERT INTO merkle_leaves (leaf_index, position, stream, seq, hash) "
                             "VALUES (?, ?, ?, ?, ?)")
        self.insert_node = q("INSERT INTO merkle_nodes (level, node_index, hash) VALUES (?, ?, ?)")
        self.move_head = q("INSERT INTO stream_heads (stream, seq, hash) VALUES (?, ?, ?) "
                           "ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")
        self.save_snapshot = q(
            "INSERT INTO snapshots (stream, seq, hash, version, state) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
            "version = excluded.version, state = excluded.state WHERE snapshots.seq <= excluded.seq")
        self.latest_snapshot = q("SELECT seq, hash, version, state FROM snapshots WHERE stream = ?")
        self.index_board = q("INSERT INTO boards (stream, tournament, slug) VALUES (?, ?, ?) "
                             "ON CONFLICT (stream) DO NOTHING")

    def insert_any(self, rows: int) -> str:
        """One multi-row INSERT of rows of any streams, (stream, seq, position) returned."""
        sql = self._inserts.get(-rows)
        if sql is None:
            sql = self.q(self._insert_head + ", ".join([self._row] * rows) + " RETURNING stream, seq, position")
            if len(self._inserts) < 64:
                self._inserts[-rows] = sql
        return sql

    def insert(self, rows: int) -> str:
        """One multi-row INSERT (one statement: all rows or none), positions returned."""
        sql = self._inserts.get(rows)
        if sql is None:
            sql = self.q(self._insert_head + ", ".join([self._row] * rows) + " RETURNING seq, position")
            if len(self._inserts) < 64:
                self._inserts[rows] = sql
        return sql

    @staticmethod
    def params(batch: Sequence[StoredEvent]) -> list[Any]:
        out: list[Any] = []
        for ev in batch:
            out += (ev.stream, ev.seq, ev.id, ev.type, ev.v, canonical_json(ev.data), ev.actor.role,
                    ev.actor.name, ev.at, canonical_json(list(ev.causes)) if ev.causes else "[]",
                    ev.law, ev.prev, ev.hash)
        return out


_ACTORS: dict[tuple[Any, Any], Actor] = {}
"""Actors already read (frozen, so one object serves every row with the same role and name)."""


def _event_of(row: Sequence[Any]) -> StoredEvent:
    """A StoredEvent from a raw ``position, <COLUMNS>`` tuple (the raw read path, lever 6)."""
    (position, stream, seq, id_, type_, v, data, role, name, at, causes, law, prev, hash_) = row
    try:
        actor = _ACTORS.get((role, name))
        if actor is None:
            actor = Actor(role, name)
            if len(_ACTORS) < 1024:
                _ACTORS[(role, name)] = actor
        return StoredEvent(stream, seq, id_, type_, v, json.loads(data), actor, at,
                           () if causes == "[]" else tuple(json.loads(causes)), law, prev, hash_, position)
    except (ValueError, TypeError, RecursionError) as exc:
        raise IntegrityError(stream if isinstance(stream, str) else None,
                             seq if isinstance(seq, int) else None,
                             f"the stored row cannot be read ({type(exc).__name__}); run "
                             "`python cli.py verify`", kind="undecodable", position=position) from exc


def _positioned(batch: Sequence[StoredEvent], positions: Sequence[int]) -> list[StoredEvent]:
    return [StoredEvent(ev.stream, ev.seq, ev.id, ev.type, ev.v, ev.data, ev.actor, ev.at, ev.causes,
                        ev.law, ev.prev, ev.hash, pos) for ev, pos in zip(batch, positions, strict=True)]


def _tree_rows(batch: Sequence[StoredEvent], positions: Sequence[int], known: _TreeTip | None,
               nodes_of: Any, row: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], _TreeTip]:
    """The batch's leaves and the perfect subtrees they complete, as rows, and the
    new tip (the caller holds the store-wide write order: SQLite's write lock,
    PostgreSQL's position lock). ``row``: the tree's last leaf (index, hash) or
    None; ``nodes_of(keys)`` reads stored nodes (only when the tree moved since
    ``known``)."""
    size, last = (0, "") if row is None else (int(row[0]) + 1, row[1])
    if known is not None and (known.size, known.last_leaf) == (size, last):
        frontier = known.frontier
    else:
        frontier = nodes_of(merkle.frontier_keys(size))
    return _grown_tree(batch, positions, size, frontier)


def _frontier_of(rows: Sequence[Sequence[Any]]) -> tuple[int, dict[tuple[int, int], bytes]]:
    """PostgreSQL: the size and frontier read by :attr:`_Statements.frontier`."""
    if not rows:
        return 0, {}
    size = int(rows[0][0])
    frontier = {(int(level), int(i)): bytes.fromhex(h) for _n, level, i, h in rows if h is not None}
    if len(frontier) != len(merkle.frontier_keys(size)):
        missing = sorted(set(merkle.frontier_keys(size)) - set(frontier))
        raise IntegrityError(None, None, f"the Merkle tree of {size} leaves lacks the nodes {missing}; "
                             "run `python cli.py verify`", kind="merkle")
    return size, frontier


def _grown_tree(batch: Sequence[StoredEvent], positions: Sequence[int], size: int,
                frontier: dict[tuple[int, int], bytes]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], _TreeTip]:
    """The batch's leaves and nodes as rows, and the new tip, from the tree's size and frontier."""
    leaf_hash = merkle.leaf_hash
    written, grown = merkle.grow(size, frontier, [leaf_hash(ev.hash) for ev in batch])
    leaves = []
    nodes = []
    for level, i, h in written:
        if level == 0:
            ev = batch[i - size]
            leaves.append((i, positions[i - size], ev.stream, ev.seq, h.hex()))
        else:
            nodes.append((level, i, h.hex()))
    return leaves, nodes, _TreeTip(size + len(batch), leaves[-1][4], grown)


def _is_unique_violation(orig: BaseException | None) -> bool:
    if getattr(orig, "sqlstate", None) == "23505":  # psycopg: unique_violation
        return True
    return "UNIQUE constraint failed" in str(orig)  # sqlite3


@contextmanager
def unavailable_on_failure(url: str) -> Iterator[None]:
    """Raise :class:`StoreUnavailable` for a lost or unreachable database, and
    :class:`StoreBusy` for a lock other writers held for the whole busy
    timeout; ``url`` without password."""
    try:
        yield
    except (sa.exc.OperationalError, sa.exc.InterfaceError) as exc:
        detail = str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]
        if _is_busy(exc.orig):
            raise StoreBusy(url, None, detail) from exc
        raise StoreUnavailable(f"{url}: {detail}") from exc
    except Exception as exc:
        if not _is_driver_failure(exc):  # the append path runs on the driver's cursor
            raise
        detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if _is_busy(exc):
            raise StoreBusy(url, None, detail) from exc
        raise StoreUnavailable(f"{url}: {detail}") from exc


def _is_driver_failure(exc: BaseException) -> bool:
    """An OperationalError or InterfaceError of the DB-API driver itself (sqlite3, psycopg)."""
    if isinstance(exc, (sqlite3.OperationalError, sqlite3.InterfaceError)):
        return True
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError))


def _is_busy(orig: BaseException | None) -> bool:
    """Another writer held the lock for the whole busy timeout (not a failure)."""
    if getattr(orig, "sqlstate", None) == "55P03":  # PostgreSQL lock_not_available
        return True
    text = str(orig)
    return "database is locked" in text or "database is busy" in text  # sqlite3


# --- the store -------------------------------------------------------------------

class SqlTransaction:
    """One stream's write transaction (:class:`ledger.store.base.StoreTransaction`).

    Runs on the driver's cursor of the store's write connection with the
    prebuilt statements of :class:`_Statements` (issue 10, levers 2 and 3); the
    transaction itself (BEGIN IMMEDIATE on SQLite, savepoints in a batch) is
    the store's SQLAlchemy connection's."""

    def __init__(self, connection: Connection, stream: str, tip: _TreeTip | None = None,
                 statements: _Statements | None = None) -> None:
        self.stream = stream
        self._conn = connection
        self._tip = tip  # the tree as last committed through this store (a hint)
        self.tip_after: _TreeTip | None = None
        self._sql = statements or _Statements(connection.dialect.name)
        self._pg = connection.dialect.name == "postgresql"
        self._cur = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        self._lock_pending = False
        self._pending_tree: tuple[list[Any], list[Any]] | None = None
        # SQLite, no other connection has committed since this store's last write
        # (SqlEventStore._quiet): the head this store committed for the stream, and
        # whether ``tip`` is the committed tree's, are known without a query.
        self.known_head: tuple[int, str] | None = None
        self.tip_current = False
        self._pending_snapshot: tuple[Any, ...] | None = None
        # The database's tree is integrated behind the log (revision 0006, ledger.store.integrator):
        # the append writes no leaf; on PostgreSQL positions are handed out in a short critical
        # section (the position lock as a session lock, released before the commit), or in a
        # batch under the transaction's position lock.
        self.behind = False
        self.in_batch = False
        # PostgreSQL, in a batch: the append's savepoint, sent in the round trip of its first
        # statement (and released in that of its tree rows): SqlEventStore.transaction.
        self.savepoint_pending = False
        self.savepoint_sent = False

    def head(self) -> tuple[int, str]:
        """(seq, hash) of the stream's last event; (0, GENESIS) when empty."""
        if self.known_head is not None:
            return self.known_head
        if self._lock_pending or self.savepoint_pending:  # PostgreSQL: the savepoint, the stream
            driver = self._conn.connection.driver_connection  # type: ignore[union-attr]  # lock, then
            with driver.pipeline():  # type: ignore[union-attr]  # the head, in one round trip
                self._send_savepoint()
                if self._lock_pending:
                    self._lock_pending = False
                    self._cur.execute("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema() || '/' || %s))",
                                      (STREAM_LOCK_CLASS, self.stream))
                self._cur.execute(self._sql.head, (self.stream,))
        else:
            self._cur.execute(self._sql.head, (self.stream,))
        row = self._cur.fetchone()
        return (row[0], row[1]) if row is not None else (0, GENESIS)

    def _flush_lock(self) -> None:
        """Take the stream lock now if :meth:`head` has not taken it yet; send the
        statements an insert left pending (PostgreSQL) before anything is read."""
        self._send_savepoint()
        if self._pending_snapshot is not None:
            self.flush_tree()
        if self._lock_pending:
            self._lock_pending = False
            self._cur.execute("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema() || '/' || %s))",
                              (STREAM_LOCK_CLASS, self.stream))

    def _send_savepoint(self) -> None:
        if self.savepoint_pending:
            self.savepoint_pending = False
            self._cur.execute("SAVEPOINT ledger_append")
            self.savepoint_sent = True

    def find_ids(self, ids: Sequence[str]) -> dict[str, StoredEvent]:
        """The stored events of this stream whose id is in ``ids``."""
        self._flush_lock()
        if not ids:
            return {}
        if self._pg:  # a constant statement on the driver's cursor (no SQLAlchemy compilation)
            self._cur.execute(self._sql.find_ids, (self.stream, list(ids)))
            return {ev.id: ev for ev in map(_event_of, self._cur.fetchall())}
        rows = self._conn.execute(
            sa.select(events).where(events.c.stream == self.stream, events.c.id.in_(list(ids)))
        )
        return {row.id: _from_row(row) for row in rows}

    def read(self, after_seq: int = 0) -> list[StoredEvent]:
        """The stream's events with seq > after_seq, in seq order."""
        self._flush_lock()
        self._cur.execute(self._sql.read, (self.stream, after_seq))
        return [_event_of(row) for row in self._cur.fetchall()]

    def load_snapshot(self) -> Snapshot | None:
        """The saved state at the head, if any (None when the last saved one is older)."""
        self._flush_lock()
        return _load_snapshot(self._conn, self.stream)

    def latest_snapshot(self) -> Snapshot | None:
        """The last state saved for this stream, whatever its seq (it may be behind
        the head: snapshots are saved every N events, ``ledger.service``)."""
        self._flush_lock()
        self._cur.execute(self._sql.latest_snapshot, (self.stream,))
        row = self._cur.fetchone()
        if row is None:
            return None
        return Snapshot(self.stream, row[0], row[1], row[2], json.loads(row[3]))

    def insert(self, batch: Sequence[StoredEvent]) -> list[StoredEvent]:
        """Write the batch (seq, prev and hash computed by the caller); return it
        with the positions the store assigned.

        Raises :class:`ConcurrencyError` when a seq or an id is already stored
        in the stream; then nothing of the batch is written and the transaction
        stays usable.
        """
        if not batch:
            return []
        self._check_batch(batch)
        cur, sql = self._cur, self._sql
        if self._pg:
            return self._insert_pg(batch)
        try:
            if len(batch) == 1:  # the position is the rowid: no RETURNING (half the cost of one row)
                cur.execute(sql.insert_row, sql.params(batch))
                positions = {batch[0].seq: cur.lastrowid}
            elif len(batch) <= sql.MAX_ROWS:  # one statement: all its rows or none, no savepoint
                cur.execute(sql.insert(len(batch)), sql.params(batch))
                positions = dict(cur.fetchall())
            else:
                # One statement per 2,000 rows: all its rows or none. SQLite undoes a
                # failed statement by itself; a batch of more statements needs a savepoint.
                positions = {}
                with self._conn.begin_nested():
                    for i in range(0, len(batch), sql.MAX_ROWS):
                        chunk = batch[i:i + sql.MAX_ROWS]
                        cur.execute(sql.insert(len(chunk)), sql.params(chunk))
                        positions.update(cur.fetchall())
        except Exception as exc:
            if not _is_unique_violation(exc if not isinstance(exc, sa.exc.DBAPIError) else exc.orig):
                raise
            self.known_head = None  # the head as stored
            actual, _ = self.head()
            raise ConcurrencyError(self.stream, batch[0].seq - 1, actual) from exc
        ordered = [positions[ev.seq] for ev in batch]
        if not self.behind:  # else the integrator extends the tree (ledger.store.integrator)
            self._extend_tree(batch, ordered)
        end = batch[-1]
        cur.execute(sql.move_head, (self.stream, end.seq, end.hash))
        self.known_head = (end.seq, end.hash)
        return _positioned(batch, ordered)

    def _extend_tree(self, batch: Sequence[StoredEvent], ordered: Sequence[int]) -> None:
        """SQLite: the batch's leaves and the nodes they complete, in the append's transaction."""
        cur, sql = self._cur, self._sql
        known = self.tip_after or self._tip
        if self.tip_current and known is not None:  # the tree is the one this store committed
            last: Any = (known.size - 1, known.last_leaf)
        else:
            cur.execute(sql.last_leaf)
            last = cur.fetchone()
        leaves, nodes, self.tip_after = _tree_rows(batch, ordered, known,
                                                   lambda keys: _tree_nodes(self._conn, keys), last)
        if len(leaves) == 1:  # one event: plain statements (executemany costs more for one row)
            cur.execute(sql.insert_leaf, leaves[0])
            for node in nodes:
                cur.execute(sql.insert_node, node)
        else:
            cur.executemany(sql.insert_leaf, leaves)
            if nodes:
                cur.executemany(sql.insert_node, nodes)

    def _insert_pg_behind(self, batch: Sequence[StoredEvent]) -> list[StoredEvent]:
        """PostgreSQL, tree integrated behind: the position lock taken as a session lock and
        released in the same round trip as the rows (before the commit, so no commit waits on
        another's fsync); each row's ``xid`` (its default) is assigned inside that critical
        section, so transaction ids and positions are in the same order and readers bounded by
        the oldest transaction in flight see a prefix of the log. In a batch (an import) the
        position lock is the transaction's, held to its commit: one critical section."""
        sql = self._sql
        driver = self._conn.connection.driver_connection  # type: ignore[union-attr]
        rows_cur = driver.cursor()  # type: ignore[union-attr]
        last = batch[-1]
        session = not self.in_batch
        try:
            with driver.pipeline():  # type: ignore[union-attr]
                self._cur.execute("SELECT pg_advisory_lock(%s)" if session else "SELECT pg_advisory_xact_lock(%s)",
                                  (POSITION_LOCK_KEY,))
                self._cur.execute(IN_FLIGHT)  # the transaction id, taken and marked inside the section
                self._cur.execute("SAVEPOINT ledger_insert")
                rows_cur.execute(sql.insert(len(batch)), sql.params(batch))
                self._cur.execute(sql.move_head, (self.stream, last.seq, last.hash))
                self._cur.execute("RELEASE SAVEPOINT ledger_insert")
                if session:
                    self._cur.execute("SELECT pg_advisory_unlock(%s)", (POSITION_LOCK_KEY,))
            positions = dict(rows_cur.fetchall())
        except Exception as exc:
            if not _is_unique_violation(exc):
                if session:  # never leave the session lock held by a connection kept for reuse
                    driver.rollback()  # type: ignore[union-attr]
                    self._cur.execute("SELECT pg_advisory_unlock_all()")
                raise
            self._cur.execute("ROLLBACK TO SAVEPOINT ledger_insert")
            self._cur.execute("RELEASE SAVEPOINT ledger_insert")
            if session:
                self._cur.execute("SELECT pg_advisory_unlock(%s)", (POSITION_LOCK_KEY,))
            actual, _ = self.head()
            raise ConcurrencyError(self.stream, batch[0].seq - 1, actual) from exc
        self._pending_tree = ([], [])  # nothing for the tree; a snapshot still goes with the commit
        return _positioned(batch, [positions[ev.seq] for ev in batch])

    def _insert_pg(self, batch: Sequence[StoredEvent]) -> list[StoredEvent]:
        """PostgreSQL: the position lock (held until commit: positions in commit
        order, and the Merkle tree extended from the committed frontier), the rows
        (a savepoint keeps the transaction usable should a key be taken), the head
        and the tree's size and frontier in one pipeline: one round trip; the
        tree's rows go with the commit (:meth:`flush_tree`). The frontier is read
        in that pipeline every time (a few index look-ups), so no append waits
        under the lock for a second read when another writer moved the tree."""
        self._flush_lock()
        self.flush_tree()  # an earlier insert of this transaction: its leaves come first
        if self.behind:
            return self._insert_pg_behind(batch)
        sql = self._sql
        driver = self._conn.connection.driver_connection  # type: ignore[union-attr]
        rows_cur, tree_cur = driver.cursor(), driver.cursor()  # type: ignore[union-attr]
        last = batch[-1]
        try:
            with driver.pipeline():  # type: ignore[union-attr]
                self._cur.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK_KEY,))
                self._cur.execute("SAVEPOINT ledger_insert")
                rows_cur.execute(sql.insert(len(batch)), sql.params(batch))
                self._cur.execute(sql.move_head, (self.stream, last.seq, last.hash))
                self._cur.execute("RELEASE SAVEPOINT ledger_insert")
                tree_cur.execute(sql.frontier)
            positions = dict(rows_cur.fetchall())
        except Exception as exc:
            if not _is_unique_violation(exc):
                raise
            self._cur.execute("ROLLBACK TO SAVEPOINT ledger_insert")
            self._cur.execute("RELEASE SAVEPOINT ledger_insert")
            actual, _ = self.head()
            raise ConcurrencyError(self.stream, batch[0].seq - 1, actual) from exc
        ordered = [positions[ev.seq] for ev in batch]
        size, frontier = _frontier_of(tree_cur.fetchall())
        leaves, nodes, self.tip_after = _grown_tree(batch, ordered, size, frontier)
        self._pending_tree = (leaves, nodes)  # sent with the commit (flush_tree), or before the next insert
        return _positioned(batch, ordered)

    def flush_tree(self, commit: bool = False, release: bool = False) -> None:
        """PostgreSQL: write the tree rows of the last insert, and with ``commit``
        commit the transaction in the same round trip (the position lock is held
        until then: one round trip less under it); with ``release`` release the
        append's savepoint of a batch in that round trip."""
        pending, self._pending_tree = self._pending_tree, None
        snapshot, self._pending_snapshot = self._pending_snapshot, None
        release = release and self.savepoint_sent
        if pending is None and snapshot is None and not commit and not release:
            return
        driver = self._conn.connection.driver_connection  # type: ignore[union-attr]
        with driver.pipeline():  # type: ignore[union-attr]
            if pending is not None:
                self._cur.executemany(self._sql.insert_leaf, pending[0])
                if pending[1]:
                    self._cur.executemany(self._sql.insert_node, pending[1])
            if snapshot is not None:
                self._cur.execute(self._sql.save_snapshot, snapshot)
            if release:
                self._cur.execute("RELEASE SAVEPOINT ledger_append")
                self.savepoint_sent = False
            if commit:
                driver.commit()  # type: ignore[union-attr]

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Save the folded state after ``snapshot.seq`` (same transaction as the append)."""
        if snapshot.stream != self.stream:
            raise ValueError(f"snapshot of {snapshot.stream!r} in a transaction on {self.stream!r}")
        self._flush_lock()
        params = (snapshot.stream, snapshot.seq, snapshot.hash, snapshot.version, canonical_json(snapshot.state))
        if self._pending_tree is not None:  # PostgreSQL, after an insert: sent with the tree's rows and
            self._pending_snapshot = params  # the commit (flush_tree), not in a round trip of its own
            return
        self._cur.execute(self._sql.save_snapshot, params)

    def index_board(self, tournament: str, slug: str) -> None:
        """Record this stream as a board of ``tournament`` (its ``BoardOpened`` is being
        appended in this transaction): the index ``boards`` (revision 0005)."""
        self._flush_lock()
        self._cur.execute(self._sql.index_board, (self.stream, tournament, slug))

    def _check_batch(self, batch: Sequence[StoredEvent]) -> None:
        """The batch is one piece of this stream's chain (its start is the database's business)."""
        for ev in batch:
            if ev.stream != self.stream:
                raise ValueError(f"event of stream {ev.stream!r} in a transaction on {self.stream!r}")
        for before, ev in itertools.pairwise(batch):
            if ev.seq != before.seq + 1 or ev.prev != before.hash:
                raise ValueError(f"stream {self.stream!r}: seq {ev.seq} does not follow seq {before.seq}")

    def _lock_stream(self) -> None:
        """PostgreSQL: wait for, then hold until commit, the stream's own
        advisory lock. Unlike a lock on its head row, this also serialises the
        writers of a stream that does not exist yet, so that a retry racing its
        original sees it committed (and answers its seqs) instead of colliding.
        Taken with the first statement of the transaction (:meth:`head` sends
        both in one round trip), before anything is read."""
        self._lock_pending = True


class _Staged:
    """A deferred batch's rows (group commit, validate-then-write): what its appends
    wrote, kept in memory until the batch ends, then written at once (:func:`_write_staged`)."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []
        self.by_stream: dict[str, list[StoredEvent]] = {}
        self.snapshots: dict[str, tuple[Any, ...]] = {}
        self.boards: list[tuple[str, str, str]] = []
        self.positions: dict[tuple[str, int], int] = {}

    def absorb(self, tx: StagedTransaction) -> None:
        """An append that ended normally: its rows join the batch's."""
        if tx.mine:
            self.events += tx.mine
            self.by_stream.setdefault(tx.stream, []).extend(tx.mine)
        if tx.mine_snapshot is not None:
            self.snapshots[tx.stream] = tx.mine_snapshot
        self.boards += tx.mine_boards


class StagedTransaction(SqlTransaction):
    """One append of a deferred batch: reads go to the database and to what the batch's
    earlier appends staged; writes are staged, checked against the head (the batch holds
    the stream's lock: SQLite's write lock, or the advisory lock taken when the batch
    began), and written with the whole batch. Nothing is written here, so a refused
    append needs no savepoint; its events carry no position until the batch is written."""

    def __init__(self, connection: Connection, stream: str, staged: _Staged,
                 statements: _Statements | None = None) -> None:
        super().__init__(connection, stream, None, statements)
        self.staged = staged
        self.mine: list[StoredEvent] = []
        self.mine_snapshot: tuple[Any, ...] | None = None
        self.mine_boards: list[tuple[str, str, str]] = []
        self._db_head: tuple[int, str] | None = None

    def _staged_events(self) -> list[StoredEvent]:
        return self.staged.by_stream.get(self.stream, []) + self.mine

    def head(self) -> tuple[int, str]:
        pending = self._staged_events()
        if pending:
            return pending[-1].seq, pending[-1].hash
        if self._db_head is None:  # the stream is locked: its stored head stays until the batch ends
            self._db_head = super().head()
        return self._db_head

    def find_ids(self, ids: Sequence[str]) -> dict[str, StoredEvent]:
        found = super().find_ids(ids)
        wanted = set(ids)
        found.update({ev.id: ev for ev in self._staged_events() if ev.id in wanted})
        return found

    def read(self, after_seq: int = 0) -> list[StoredEvent]:
        stored = super().read(after_seq)
        return stored + [ev for ev in self._staged_events() if ev.seq > after_seq]

    def _staged_snapshot(self) -> Snapshot | None:
        params = self.mine_snapshot or self.staged.snapshots.get(self.stream)
        if params is None:
            return None
        return Snapshot(params[0], params[1], params[2], params[3], json.loads(params[4]))

    def load_snapshot(self) -> Snapshot | None:
        if not self._staged_events():
            return super().load_snapshot()
        snap, head = self._staged_snapshot(), self.head()
        return snap if snap is not None and (snap.seq, snap.hash) == head else None

    def latest_snapshot(self) -> Snapshot | None:
        return self._staged_snapshot() or super().latest_snapshot()

    def insert(self, batch: Sequence[StoredEvent]) -> list[StoredEvent]:
        if not batch:
            return []
        self._check_batch(batch)
        seq, hash_ = self.head()
        if batch[0].seq != seq + 1 or batch[0].prev != hash_:
            raise ConcurrencyError(self.stream, batch[0].seq - 1, seq)
        self.mine += batch
        return list(batch)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        if snapshot.stream != self.stream:
            raise ValueError(f"snapshot of {snapshot.stream!r} in a transaction on {self.stream!r}")
        self.mine_snapshot = (snapshot.stream, snapshot.seq, snapshot.hash, snapshot.version,
                              canonical_json(snapshot.state))

    def index_board(self, tournament: str, slug: str) -> None:
        self.mine_boards.append((self.stream, tournament, slug))


def _write_staged(conn: Connection, staged: _Staged, sql: _Statements, tip: _TreeTip | None) -> _TreeTip | None:
    """Write a deferred batch's rows: every event in one multi-row INSERT per 2,000 rows
    (positions in the batch's order), the tree extended once over them all (the same
    leaves and nodes as one append after the other), the heads, snapshots and board index.
    The caller holds the streams' locks; PostgreSQL's position lock is taken here and held
    to the commit. Returns the tree's new tip."""
    events = staged.events
    if not events:
        return tip
    driver = conn.connection.driver_connection  # type: ignore[union-attr]
    cur = driver.cursor()  # type: ignore[union-attr]
    pg = conn.dialect.name == "postgresql"
    if pg:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK_KEY,))
    positions = staged.positions
    for i in range(0, len(events), sql.MAX_ROWS):
        chunk = events[i:i + sql.MAX_ROWS]
        cur.execute(sql.insert_any(len(chunk)), sql.params(chunk))
        positions.update({(s, q): p for s, q, p in cur.fetchall()})
    ordered = [positions[(ev.stream, ev.seq)] for ev in events]
    if pg:
        cur.execute(sql.frontier)
        size, frontier = _frontier_of(cur.fetchall())
        leaves, nodes, tip_after = _grown_tree(events, ordered, size, frontier)
    else:
        cur.execute(sql.last_leaf)
        leaves, nodes, tip_after = _tree_rows(events, ordered, tip, lambda keys: _tree_nodes(conn, keys),
                                              cur.fetchone())
    cur.executemany(sql.insert_leaf, leaves)
    if nodes:
        cur.executemany(sql.insert_node, nodes)
    cur.executemany(sql.move_head, [(s, evs[-1].seq, evs[-1].hash) for s, evs in staged.by_stream.items()])
    if staged.snapshots:
        cur.executemany(sql.save_snapshot, list(staged.snapshots.values()))
    if staged.boards:
        cur.executemany(sql.index_board, staged.boards)
    return tip_after


class SqlEventStore:
    """The event store over one SQLAlchemy engine (:class:`ledger.store.base.EventStore`).

    Thread-safe: write transactions run one at a time on the store's one write
    connection (opened at the first write, kept until :meth:`close`), or on
    PostgreSQL side by side, each on one of the store's write connections; reads
    take a connection from the pool (the shared connection of an in-memory
    database is used by one thread at a time). A read made inside a stream
    transaction, in the same thread, runs in that transaction.
    """

    def __init__(self, engine: Engine, url: str) -> None:
        self.url = url
        self.engine = engine
        self._local = threading.local()
        self._tree_tip: _TreeTip | None = None
        self._statements = _Statements(engine.dialect.name)
        # An in-memory SQLite database is one connection for every reader and writer, so
        # ``data_version`` cannot tell another writer's commit: no quiet path there.
        self._file_db = engine.dialect.name == "sqlite" and not isinstance(engine.pool, StaticPool)
        # An in-memory database is one connection: one transaction at a time.
        shared = isinstance(engine.pool, StaticPool)
        self._serial: AbstractContextManager[Any] = threading.RLock() if shared else nullcontext()
        # One write connection per store (issue 10, lever 3), one write transaction at a time.
        self._write_lock: AbstractContextManager[Any] = self._serial if shared else threading.RLock()
        self._write_conn: Connection | None = None
        # SQLite: what this store's write connection committed, usable while no other
        # connection commits (``PRAGMA data_version`` unchanged): see :meth:`_quiet`.
        self._own_heads: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._own_version: tuple[Connection, int] | None = None
        # PostgreSQL: write transactions of several threads run side by side (issue 13),
        # each on a write connection of its own, kept for the next one (no pool checkout,
        # no reset round trip); the stream and position locks order them in the database.
        self._pg = engine.dialect.name == "postgresql"
        self._writers: list[Connection] = []  # idle PostgreSQL write connections
        self._writers_mutex = threading.Lock()
        self._writer_slots = threading.BoundedSemaphore(PG_WRITERS)
        #: The Merkle tree is extended by the integrator behind the log, not in each append's
        #: transaction (``ledger_settings``, revision 0006; read by :func:`open_store`).
        self.integrate_behind = False

    def __enter__(self) -> SqlEventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _begin(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection in a transaction, committed on exit: this thread's open
        one, or a new one (a write one is the store's write connection, and
        begins IMMEDIATE on SQLite)."""
        active: Connection | None = getattr(self._local, "connection", None)
        if active is not None:
            yield active
            return
        if write:
            with self._write_transaction() as conn:
                yield conn
            return
        with unavailable_on_failure(self.url), self._serial, self.engine.connect() as conn:
            with conn.begin(), self._bound(conn):
                yield conn

    def writing(self) -> AbstractContextManager[Connection]:
        """A write transaction on the store's write connection, committed on normal exit (the
        integrator's: SQLite's write lock; on PostgreSQL one of the store's write connections).
        Reads made through the store in the same thread join it."""
        return self._begin(write=True)

    @contextmanager
    def _bound(self, conn: Connection) -> Iterator[None]:
        """``conn`` is this thread's open transaction while the block runs (reads join it)."""
        self._local.connection = conn
        try:
            yield
        finally:
            self._local.connection = None

    @contextmanager
    def _write_transaction(self) -> Iterator[Connection]:
        """A transaction on the store's one write connection (opened once, kept
        until :meth:`close`; dropped and reopened after a connection failure).
        PostgreSQL: on one of the store's write connections, at most
        :data:`PG_WRITERS` transactions at once."""
        if self._pg:
            with self._pg_write_transaction() as pg_conn:
                yield pg_conn
            return
        with unavailable_on_failure(self.url), self._write_lock:
            conn = self._write_conn
            if conn is None or conn.closed or conn.invalidated:
                conn = self.engine.connect()
                conn.execution_options(**{_BEGIN_MODE: "IMMEDIATE"})
                self._write_conn = conn
            try:
                with self._sqlite_transaction(conn):  # PostgreSQL took the branch above
                    yield conn
            except (sa.exc.OperationalError, sa.exc.InterfaceError, sqlite3.Error) as exc:
                self._drop_writer(exc)
                raise
            except Exception as exc:
                if _is_driver_failure(exc):
                    self._drop_writer(exc)
                raise

    @contextmanager
    def _pg_write_transaction(self) -> Iterator[Connection]:
        with unavailable_on_failure(self.url), self._writer_slots:
            with self._writers_mutex:
                idle = self._writers.pop() if self._writers else None
            conn = idle if idle is not None and not (idle.closed or idle.invalidated) else self.engine.connect()
            broken: BaseException | None = None
            try:
                with conn.begin(), self._bound(conn):
                    yield conn
            except (sa.exc.OperationalError, sa.exc.InterfaceError) as exc:
                broken = exc
                raise
            except Exception as exc:
                if _is_driver_failure(exc):
                    broken = exc
                raise
            finally:
                if broken is not None or conn.invalidated or conn.closed:
                    _discard(conn, broken)
                else:
                    with self._writers_mutex:
                        self._writers.append(conn)

    @contextmanager
    def _sqlite_transaction(self, conn: Connection) -> Iterator[None]:
        """SQLite: BEGIN IMMEDIATE and COMMIT on the driver itself (no SQLAlchemy
        transaction object per append). A read made through SQLAlchemy inside it
        joins it (the ``begin`` hook sees the driver in a transaction)."""
        raw = conn.connection.driver_connection
        raw.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]
        self._local.connection = conn
        try:
            yield
        except BaseException:
            if raw.in_transaction:  # type: ignore[union-attr]
                raw.rollback()  # type: ignore[union-attr]
            raise
        else:
            raw.commit()  # type: ignore[union-attr]
        finally:
            self._local.connection = None
            if conn.in_transaction():  # SQLAlchemy's bookkeeping of a read made inside
                conn.rollback()  # the driver's transaction is over: nothing is undone

    def _drop_writer(self, exc: BaseException) -> None:
        """After a failure the write connection may be unusable: the next write opens another."""
        conn, self._write_conn = self._write_conn, None
        if conn is not None:
            _discard(conn, exc)

    @contextmanager
    def transaction(self, stream: str) -> Iterator[SqlTransaction]:
        """Open one stream's write transaction: commit on normal exit, roll back
        on exception. One at a time per thread; inside :meth:`batch`, a savepoint
        of the batch's transaction."""
        batch: Connection | None = getattr(self._local, "batch", None)
        if batch is not None:
            with self._in_batch(batch, stream) as tx:
                yield tx
            return
        if getattr(self._local, "connection", None) is not None:
            raise RuntimeError("a store transaction is already open in this thread")
        if self._pg:  # side by side (issue 13): the stream and position locks order them in the database
            with self._write_transaction() as conn:
                tx = SqlTransaction(conn, stream, None, self._statements)
                tx.behind = self.integrate_behind
                tx._lock_stream()
                yield tx
                tx.flush_tree(commit=True)  # the driver commits; SQLAlchemy's commit then finds nothing to do
            return
        with self._sqlite_append(stream) as tx:
            yield tx

    @contextmanager
    def _in_batch(self, batch: Connection, stream: str) -> Iterator[SqlTransaction]:
        """One stream's part of a batch: staged (validate-then-write) or a savepoint."""
        declared: frozenset[str] | None = getattr(self._local, "batch_streams", None)
        if declared is not None and stream not in declared:
            raise ValueError(f"stream {stream!r} was not declared when the batch began "
                             "(its lock would be taken out of order)")
        staged: _Staged | None = getattr(self._local, "staged", None)
        if staged is not None:  # validate-then-write: nothing written until the batch ends
            staged_tx = StagedTransaction(batch, stream, staged, self._statements)
            yield staged_tx
            staged.absorb(staged_tx)
            return
        # A savepoint on the driver's cursor (SQLAlchemy's begin_nested cost a third of a
        # grouped append's CPU): rolled back alone on an exception, released otherwise.
        # On PostgreSQL sent with the append's first statement and released with its
        # tree rows (SqlTransaction.savepoint_pending): no round trip of their own.
        pg = batch.dialect.name == "postgresql"
        cur = batch.connection.driver_connection.cursor()  # type: ignore[union-attr]
        # The tree's tip from the batch's previous savepoint (a hint checked
        # against the last leaf): the frontier is not read back per append.
        tx = SqlTransaction(batch, stream, getattr(self._local, "batch_tip", None), self._statements)
        tx.behind, tx.in_batch = self.integrate_behind, True
        if pg:
            tx.savepoint_pending = True
        else:
            cur.execute("SAVEPOINT ledger_append")
            tx.savepoint_sent = True
        try:
            if pg and declared is None:
                tx._lock_stream()  # declared streams are locked already (batch)
            yield tx
            tx.flush_tree(release=pg)
        except BaseException:
            if tx.savepoint_sent:
                with contextlib.suppress(Exception):  # a lost connection: the batch fails anyway
                    cur.execute("ROLLBACK TO SAVEPOINT ledger_append")
                    cur.execute("RELEASE SAVEPOINT ledger_append")
            raise
        if tx.savepoint_sent:  # SQLite (PostgreSQL released it with the tree's rows)
            cur.execute("RELEASE SAVEPOINT ledger_append")
        if tx.tip_after is not None:
            self._local.batch_tip = tx.tip_after

    @contextmanager
    def _sqlite_append(self, stream: str) -> Iterator[SqlTransaction]:
        """SQLite, one writer: the committed tip and head noted for the next append."""
        with self._write_lock:  # (reentrant) held until the committed tip and head are noted
            with self._write_transaction() as conn:
                tx = SqlTransaction(conn, stream, self._tree_tip, self._statements)
                tx.behind = self.integrate_behind
                if self._file_db and self._quiet(conn, tx._cur):
                    tx.known_head = self._own_heads.get(stream)
                    tx.tip_current = self._tree_tip is not None
                yield tx
            if tx.tip_after is not None:  # committed: the next append may start from it
                self._tree_tip = tx.tip_after
            if tx.known_head is not None and self._file_db:
                self._own_heads[stream] = tx.known_head
                self._own_heads.move_to_end(stream)
                if len(self._own_heads) > OWN_HEADS:
                    self._own_heads.popitem(last=False)

    def _quiet(self, conn: Connection, cur: Any) -> bool:
        """SQLite, in a write transaction: has no other connection committed since this
        store's last write transaction on ``conn``? ``PRAGMA data_version`` changes only
        with another connection's commit, so then the heads this store committed and the
        tree it last extended are the database's (one statement instead of reading the
        stream's head and the tree's last leaf). Otherwise they are forgotten."""
        cur.execute("PRAGMA data_version")
        version = (conn, cur.fetchone()[0])
        own = self._own_version
        quiet = own is not None and own[0] is version[0] and own[1] == version[1]
        if not quiet:
            self._own_heads.clear()
            self._own_version = version
        return quiet

    @contextmanager
    def batch(self, streams: Iterable[str] | None = None, *, deferred: bool = False) -> Iterator[_Staged | None]:
        """One write transaction for many stream transactions (an import, a group commit):
        each :meth:`transaction` inside it is a savepoint (rolled back alone on an
        exception), and the whole is committed on normal exit.

        ``streams``: every stream the batch will write. On PostgreSQL their advisory locks
        are then all taken first, in the order of their keys, before any position lock: two
        batches over overlapping streams (in whatever order they write them) wait for each
        other instead of deadlocking, each holding one stream's lock and waiting for the
        other's (or for the position lock the other holds). A stream transaction on a stream
        not declared is refused (:class:`ValueError`). Without ``streams`` each stream's
        lock is taken at its first statement, as a lone append does (one stream per batch
        is safe; several may deadlock with another batch).

        ``deferred`` (group commit, with ``streams``; not with the tree integrated behind):
        validate-then-write. Each stream transaction is a :class:`StagedTransaction` whose
        rows are kept in memory (no savepoint: a refused append has written nothing) and
        all are written when the batch ends, in one INSERT, one tree extension and one
        COMMIT; the context yields the :class:`_Staged` whose ``positions`` then hold
        every event's position by (stream, seq)."""
        if getattr(self._local, "connection", None) is not None:
            raise RuntimeError("a store transaction is already open in this thread")
        declared = None if streams is None else frozenset(streams)
        with self._write_lock:  # (reentrant) held until the committed tip is noted
            with self._write_transaction() as conn:
                self._own_heads.clear()  # the batch moves heads without this store's bookkeeping
                self._own_version = None
                if declared and self._pg:
                    _lock_streams(conn, declared)
                self._local.batch, self._local.batch_tip = conn, self._tree_tip
                self._local.batch_streams = declared
                staged = _Staged() if deferred and declared is not None and not self.integrate_behind else None
                self._local.staged = staged
                try:
                    yield staged
                    if staged is not None:
                        self._local.batch_tip = _write_staged(conn, staged, self._statements,
                                                              self._local.batch_tip)
                finally:
                    self._local.batch = None
                    self._local.batch_streams = None
                    self._local.staged = None
                tip, self._local.batch_tip = self._local.batch_tip, None
            self._tree_tip = tip  # committed: the next append may start from it

    def read(self, stream: str, upto_seq: int | None = None) -> list[StoredEvent]:
        """The stream's events in seq order (up to ``upto_seq``); [] for no stream.
        The raw read path (issue 10, lever 6): one constant statement on the
        driver's cursor, rows decoded straight into events."""
        return self.read_after(stream, 0, upto_seq)

    def read_after(self, stream: str, after_seq: int, upto_seq: int | None = None) -> list[StoredEvent]:
        """The stream's events with ``after_seq < seq <= upto_seq``, in seq order."""
        sql = self._statements
        with self._begin() as conn:
            cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            if upto_seq is None:
                cur.execute(sql.read, (stream, after_seq))
            else:
                cur.execute(sql.read_upto, (stream, after_seq, upto_seq))
            rows = cur.fetchall()
        return [_event_of(row) for row in rows]

    def iter_all(self, after_position: int = 0, batch: int = 1000) -> Iterator[StoredEvent]:
        """Every event with position > after_position, in position order, read
        ``batch`` at a time (keyset pagination; no connection held between batches)."""
        last = after_position
        while True:
            with self._begin() as conn:
                cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
                if self._pg and self.integrate_behind:
                    cur.execute(self._statements.settled_bound)
                    bound = cur.fetchone()[0]
                    cur.execute(self._statements.read_all_settled, (last, bound, batch))
                else:
                    cur.execute(self._statements.read_all, (last, batch))
                rows = cur.fetchall()
            yield from (_event_of(row) for row in rows)
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def last_position(self) -> int:
        """The position of the newest event (0 when the store is empty)."""
        with self._begin() as conn:
            return int(conn.execute(sa.select(sa.func.max(events.c.position))).scalar() or 0)

    def iter_raw(self, after_position: int = 0, batch: int = 1000,
                 stream: str | None = None) -> Iterator[RawEvent]:
        """Every row (of ``stream`` when given) as stored, undecoded, in position
        order, ``batch`` at a time. The columns are read as the database's own
        values (no type conversion), so that a damaged row never raises here."""
        sqlite_db = self.engine.dialect.name == "sqlite"
        columns = [_raw_column(c, sqlite_db) for c in events.c if c.name != "xid"]
        last = after_position
        while True:
            query = sa.select(*columns).where(events.c.position > last)
            if stream is not None:
                query = query.where(events.c.stream == stream)
            with self._begin() as conn:
                rows = conn.execute(query.order_by(events.c.position).limit(batch)).all()
            yield from (RawEvent(**{k: _raw_value(v) for k, v in row._mapping.items()})
                        for row in rows)
            if len(rows) < batch:
                return
            last = rows[-1].position

    def tree_size(self) -> int:
        """How many leaves the Merkle tree has (one per event)."""
        with self._begin() as conn:
            return _tree_size(conn)

    def tree_nodes(self, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        """Stored perfect subtrees by (level, index) (level 0: the leaves); those missing are absent."""
        with self._begin() as conn:
            return _tree_nodes(conn, list(keys))

    def leaf_indexes(self, positions: Sequence[int]) -> dict[int, int]:
        """The leaf index of each event position that has one."""
        with self._begin() as conn:
            rows = conn.execute(sa.select(merkle_leaves.c.position, merkle_leaves.c.leaf_index)
                                .where(merkle_leaves.c.position.in_(list(positions))))
            return {int(p): int(i) for p, i in rows}

    def iter_tree(self) -> tuple[list[tuple[Any, Any, Any]], list[tuple[Any, Any, Any]]]:
        """Every stored leaf (leaf_index, position, hash, stream, seq) and node (level, index,
        hash), as stored, in order (``verify`` checks them)."""
        with self._begin() as conn:
            leaves = [tuple(r) for r in conn.execute(
                sa.select(merkle_leaves.c.leaf_index, merkle_leaves.c.position, merkle_leaves.c.hash,
                          merkle_leaves.c.stream, merkle_leaves.c.seq)
                .order_by(merkle_leaves.c.leaf_index))]
            nodes = [tuple(r) for r in conn.execute(
                sa.select(merkle_nodes.c.level, merkle_nodes.c.node_index, merkle_nodes.c.hash)
                .order_by(merkle_nodes.c.level, merkle_nodes.c.node_index))]
        return leaves, nodes

    def heads(self, stream: str | None = None) -> list[Head]:
        """The stored stream heads (of ``stream`` when given), undecoded."""
        columns = [sa.type_coerce(c, sa.types.NullType()).label(c.name)
                   for c in (stream_heads.c.stream, stream_heads.c.seq, stream_heads.c.hash)]
        query = sa.select(*columns)
        if stream is not None:
            query = query.where(stream_heads.c.stream == stream)
        with self._begin() as conn:
            return [Head(**row._mapping) for row in conn.execute(query)]

    def streams(self, prefix: str | None = None) -> list[str]:
        """Ids of the streams that have events, sorted (by code point), those
        starting with ``prefix`` only when given."""
        query = sa.select(stream_heads.c.stream)
        if prefix:
            # LIKE narrows (SQLite's LIKE ignores ASCII case); the filter below decides.
            query = query.where(stream_heads.c.stream.startswith(prefix, autoescape=True))
        with self._begin() as conn:
            found = conn.execute(query).scalars().all()
        return sorted(s for s in found if s.startswith(prefix or ""))

    def boards(self, slug: str | None = None) -> list[tuple[str, str]]:
        """(stream, tournament) of every indexed board (revision 0005), of the tournaments
        whose slug is ``slug`` when given: one indexed query, whatever the store's size."""
        query = sa.select(boards.c.stream, boards.c.tournament)
        if slug is not None:
            query = query.where(boards.c.slug == slug)
        with self._begin() as conn:
            return [(str(a), str(b)) for a, b in conn.execute(query.order_by(boards.c.stream))]

    def load_snapshot(self, stream: str) -> Snapshot | None:
        """The saved state at the stream's head, if any (None when the last one
        saved is behind the head: see :meth:`latest_snapshot`)."""
        with self._begin() as conn:
            return _load_snapshot(conn, stream)

    def latest_snapshot(self, stream: str) -> Snapshot | None:
        """The last state saved for the stream, whatever its seq (snapshots are
        saved every N events and at the end of a board, ``ledger.service``)."""
        with self._begin() as conn:
            return _load_snapshot(conn, stream, head_only=False)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Outside an append (``rebuild``): replace the stream's snapshot, unless
        the stream has moved past ``snapshot.seq`` in the meantime."""
        with self._begin(write=True) as conn:
            _save_snapshot(conn, snapshot)

    def warm(self, readers: int = 4) -> int:
        """Open the connections a server's first requests would otherwise open, and run
        the append path's statements once on each (on a stream that cannot exist), so
        that the first appends do not pay for connecting, for a new PostgreSQL backend
        loading its catalog, or for SQLite's WAL set-up. PostgreSQL: the
        :data:`PG_WRITERS` write connections (kept for the writes) and ``readers``
        pooled read connections; SQLite: the one write connection and ``readers``
        read ones. Reads and rolls back only: nothing is written. Returns the number of
        connections opened."""
        sql = self._statements
        opened = 0
        with unavailable_on_failure(self.url):
            if self._pg:
                fresh = []
                for _ in range(PG_WRITERS - len(self._writers)):
                    conn = self.engine.connect()
                    with conn.begin():
                        cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
                        cur.execute(sql.head, ("",))
                        cur.execute(sql.find_ids, ("", []))
                        cur.execute(sql.frontier)
                        cur.execute(sql.latest_snapshot, ("",))
                        conn.rollback()
                    fresh.append(conn)
                with self._writers_mutex:
                    self._writers.extend(fresh)
                opened += len(fresh)
            elif self._file_db:
                with self._write_lock:
                    if self._write_conn is None:
                        conn = self.engine.connect()
                        conn.execution_options(**{_BEGIN_MODE: "IMMEDIATE"})
                        conn.exec_driver_sql("PRAGMA data_version")
                        conn.rollback()
                        self._write_conn = conn
                        opened += 1
            if isinstance(self.engine.pool, StaticPool):
                return opened
            with contextlib.ExitStack() as held:  # several at once: the pool keeps them all
                for _ in range(readers):
                    conn = held.enter_context(self.engine.connect())
                    conn.exec_driver_sql(sql.read, ("", 0))
                    conn.rollback()
                    opened += 1
        return opened

    def close(self) -> None:
        """Close the write connection and every pooled one (an in-memory ledger is gone after this)."""
        with self._write_lock:
            conn, self._write_conn = self._write_conn, None
            if conn is not None:
                conn.close()
        with self._writers_mutex:
            writers, self._writers = self._writers, []
        for conn in writers:
            conn.close()
        self.engine.dispose()


#: PostgreSQL: the advisory locks of many streams, taken one after the other in the order of
#: their keys (the ordered subquery feeds the aggregate row by row), duplicates once.
LOCK_STREAMS = ("SELECT count(pg_advisory_xact_lock(%s, k)) FROM (SELECT DISTINCT "
                "hashtext(current_schema() || '/' || s) AS k FROM unnest(%s::text[]) AS s ORDER BY k) q")


def _lock_streams(conn: Connection, streams: Iterable[str]) -> None:
    """PostgreSQL: hold, until the transaction ends, the advisory locks of ``streams``,
    taken in one fixed order (their keys ascending) so that no two multi-stream
    transactions ever wait for each other in a cycle (see :meth:`SqlEventStore.batch`)."""
    cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    cur.execute(LOCK_STREAMS, (STREAM_LOCK_CLASS, sorted(streams)))
    cur.fetchall()


def _discard(conn: Connection, exc: BaseException | None) -> None:
    """Close a write connection a failure may have left unusable."""
    try:
        conn.invalidate(exc if isinstance(exc, Exception) else None)
        conn.close()
    except Exception:  # pragma: no cover - closing a broken connection
        pass


def _missing_sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL when it does not exist (connecting would create it)."""
    if url.get_backend_name() != "sqlite" or _is_memory(url) or url.query.get("uri"):
        return None
    path = Path(url.database or "")
    return None if path.exists() else path


@contextmanager
def _schema_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction to read or upgrade the schema's revision (``ledger.store.revisions``)."""
    with unavailable_on_failure(engine.url.render_as_string(hide_password=True)), \
            engine.begin() as connection:
        yield connection


def _check_schema(engine: Engine, display_url: str) -> None:
    from ledger.store import revisions

    with _schema_transaction(engine) as connection:
        found = revisions.current(connection)
    expected = revisions.head()
    if found is None:
        raise StoreUnavailable(f"{display_url}: no ledger schema; {INIT_HINT}")
    if found != expected:
        raise StoreUnavailable(
            f"{display_url}: schema at revision {found}, this ledger needs {expected}; {INIT_HINT}")


def open_store(url: str, *, schema: str | None = None, create: bool = False,
               busy_timeout: float | None = None) -> SqlEventStore:
    """Open the ledger at ``url`` (``sqlite:///FILE``, ``sqlite:///:memory:``,
    ``postgresql+psycopg://...``).

    ``create=True`` first migrates the schema to the newest revision (creating
    the SQLite file, or the PostgreSQL ``schema`` when given). ``schema`` sets
    the PostgreSQL ``search_path`` (tests use one schema each). Raises
    :class:`StoreUnavailable` when the database cannot be reached or has no
    (current) schema.
    """
    parsed = parse_url(url)
    display_url = parsed.render_as_string(hide_password=True)
    missing = _missing_sqlite_file(parsed)
    if missing is not None and not create:
        raise StoreUnavailable(f"{display_url}: no ledger file {str(missing)!r}; {INIT_HINT}")
    engine = make_engine(parsed, schema=schema, busy_timeout=busy_timeout)
    try:
        with unavailable_on_failure(display_url):
            if create:
                from ledger.store import revisions

                if schema is not None:
                    with engine.begin() as conn:
                        conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
                with _schema_transaction(engine) as connection:
                    revisions.upgrade(connection)
            _check_schema(engine, display_url)
            with _schema_transaction(engine) as connection:
                behind = connection.execute(sa.select(ledger_settings.c.value).where(
                    ledger_settings.c.name == "integration")).scalar() == "behind"
    except BaseException:
        engine.dispose()
        raise
    store = SqlEventStore(engine, display_url)
    store.integrate_behind = behind
    return store
