"""The shared SQL of the event store: what both databases run and read.

The append path's statements (:class:`Statements`, built once per dialect), rows <->
events, the snapshot and head upserts, and the mapping of driver failures to the
ledger's errors (:func:`unavailable_on_failure`). The backends are
:mod:`ledger.store.sqlite` and :mod:`ledger.store.postgres`, the Merkle tree's rows
:mod:`ledger.store.tree`; :mod:`ledger.store.sql` composes them into the store.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Connection, make_url

from ledger.errors import IntegrityError, StoreBusy, StoreUnavailable
from ledger.hashing import canonical_json, read_json
from ledger.store.base import Actor, Snapshot, StoredEvent
from ledger.store.schema import snapshots, stream_heads
from ledger.store.urls import normalise_url

#: Seconds a writer waits for a lock held by other writers (SQLite: the write
#: lock; PostgreSQL: ``lock_timeout``) before giving up with :class:`StoreBusy`
#: (exit 5). ``open_store(busy_timeout=...)``, ``--busy-timeout``.
BUSY_TIMEOUT = 30.0


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


# --- rows <-> events -------------------------------------------------------------

def to_row(ev: StoredEvent) -> dict[str, Any]:
    return {
        "stream": ev.stream, "seq": ev.seq, "id": ev.id, "type": ev.type, "v": ev.v,
        "data": canonical_json(ev.data), "actor_role": ev.actor.role,
        "actor_name": ev.actor.name, "at": ev.at, "causes": canonical_json(list(ev.causes)),
        "law": ev.law, "prev": ev.prev, "hash": ev.hash,
    }


def from_row(row: sa.Row[Any]) -> StoredEvent:
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
        data=read_json(row.data), actor=Actor(row.actor_role, row.actor_name), at=row.at,
        causes=tuple(read_json(row.causes)), law=row.law, prev=row.prev, hash=row.hash,
        position=row.position, data_json=row.data if type(row.data) is str else None,
    )


def raw_column(column: sa.Column[Any], sqlite_db: bool) -> Any:
    """The column as the database holds it. On SQLite a text column is read as
    its bytes (a damaged row may hold bytes that are not UTF-8, which the driver
    would refuse to decode)."""
    if sqlite_db and isinstance(column.type, sa.String):
        return sa.cast(column, sa.LargeBinary).label(column.name)
    return sa.type_coerce(column, sa.types.NullType()).label(column.name)


def raw_value(value: Any) -> Any:
    """Bytes read from a text column become text when they are UTF-8; else stay bytes."""
    if isinstance(value, (bytes, memoryview)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return bytes(value)
    return value


# --- queries shared by the store and its transactions ----------------------------

def read_snapshot(conn: Connection, stream: str, *, head_only: bool = True) -> Snapshot | None:
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
                    state=read_json(row.state), summary=summary_of_row(row.summary))


def summary_of_row(text: str | None) -> dict[str, Any] | None:
    """A stored summary (canonical JSON text, revision 0007), or None."""
    return None if text is None else dict(read_json(text))


def summary_text(summary: dict[str, Any] | None) -> str | None:
    """A summary as stored: canonical JSON, or NULL."""
    return None if summary is None else canonical_json(summary)


def _upsert(conn: Connection, table: sa.Table = stream_heads) -> Any:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` support."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def write_snapshot(conn: Connection, snapshot: Snapshot) -> None:
    """Upsert the snapshot, unless the row already describes a later seq."""
    stmt = _upsert(conn, snapshots).values(
        stream=snapshot.stream, seq=snapshot.seq, hash=snapshot.hash,
        version=snapshot.version, state=canonical_json(snapshot.state),
        summary=summary_text(snapshot.summary),
    )
    conn.execute(stmt.on_conflict_do_update(
        index_elements=[snapshots.c.stream],
        set_={c: stmt.excluded[c] for c in ("seq", "hash", "version", "state", "summary")},
        where=snapshots.c.seq <= stmt.excluded.seq,
    ))


def move_head(conn: Connection, stream: str, seq: int, hash: str) -> None:
    """Record the new head (tests and migrations; the append path uses :class:`Statements`)."""
    stmt = _upsert(conn).values(stream=stream, seq=seq, hash=hash)
    conn.execute(stmt.on_conflict_do_update(
        index_elements=[stream_heads.c.stream],
        set_={"seq": stmt.excluded.seq, "hash": stmt.excluded.hash},
    ))


class Statements:
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
        # than the oldest writer in flight (ledger.store.postgres.SETTLED_BOUND, read first, in a
        # statement of its own), a prefix of the log in position order (ledger.store.integrator)
        self.read_all_settled = (f"SELECT position, {cols} FROM events WHERE position > %s AND (xid IS NULL "
                                 "OR xid < %s) ORDER BY position LIMIT %s")
        self.find_ids = f"SELECT position, {cols} FROM events WHERE stream = %s AND id = ANY(%s)"  # PostgreSQL
        self._find_ids_head = f"SELECT position, {cols} FROM events WHERE stream = ? AND id IN "
        self._finds: dict[int, str] = {}
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
            "INSERT INTO snapshots (stream, seq, hash, version, state, summary) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
            "version = excluded.version, state = excluded.state, summary = excluded.summary "
            "WHERE snapshots.seq <= excluded.seq")
        self.latest_snapshot = q("SELECT seq, hash, version, state, summary FROM snapshots WHERE stream = ?")
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

    def find_ids_sqlite(self, ids: int) -> str:
        """SQLite: the stream's rows whose id is one of ``ids`` bound values (the retry check
        of an append whose facts carry ids; through SQLAlchemy it cost more than the rest of
        the append: issue 28, item 6)."""
        sql = self._finds.get(ids)
        if sql is None:
            sql = self._find_ids_head + "(" + ", ".join("?" * ids) + ")"
            if len(self._finds) < 64:
                self._finds[ids] = sql
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


def event_of(row: Sequence[Any]) -> StoredEvent:
    """A StoredEvent from a raw ``position, <COLUMNS>`` tuple (the raw read path, lever 6)."""
    (position, stream, seq, id_, type_, v, data, role, name, at, causes, law, prev, hash_) = row
    try:
        actor = _ACTORS.get((role, name))
        if actor is None:
            actor = Actor(role, name)
            if len(_ACTORS) < 1024:
                _ACTORS[(role, name)] = actor
        return StoredEvent(stream, seq, id_, type_, v, read_json(data), actor, at,
                           () if causes == "[]" else tuple(read_json(causes)), law, prev, hash_, position,
                           data if type(data) is str else None)
    except (ValueError, TypeError, RecursionError) as exc:
        raise IntegrityError(stream if isinstance(stream, str) else None,
                             seq if isinstance(seq, int) else None,
                             f"the stored row cannot be read ({type(exc).__name__}); run "
                             "`python cli.py verify`", kind="undecodable", position=position) from exc


def positioned(batch: Sequence[StoredEvent], positions: Sequence[int]) -> list[StoredEvent]:
    return [StoredEvent(ev.stream, ev.seq, ev.id, ev.type, ev.v, ev.data, ev.actor, ev.at, ev.causes,
                        ev.law, ev.prev, ev.hash, pos) for ev, pos in zip(batch, positions, strict=True)]


def is_unique_violation(orig: BaseException | None) -> bool:
    if getattr(orig, "sqlstate", None) == "23505":  # psycopg: unique_violation
        return True
    return "UNIQUE constraint failed" in str(orig)  # sqlite3


@contextmanager
def unavailable_on_failure(url: str) -> Iterator[None]:
    """Raise :class:`StoreUnavailable` for a lost or unreachable database, and
    :class:`StoreBusy` for a lock other writers held for the whole busy
    timeout; ``url`` without password (:func:`store_failure`)."""
    try:
        yield
    except Exception as exc:
        mapped = store_failure(url, exc)
        if mapped is None:
            raise
        raise mapped from exc


def store_failure(url: str, exc: BaseException) -> StoreBusy | StoreUnavailable | None:
    """The error :func:`unavailable_on_failure` raises for ``exc`` (None: ``exc`` goes
    through unchanged): a lost or unreachable database, or a lock held too long."""
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError)):
        detail = str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]
        if _is_busy(exc.orig):
            return StoreBusy(url, None, detail)
        return StoreUnavailable(f"{url}: {detail}")
    if not isinstance(exc, Exception) or not is_driver_failure(exc):  # the append path runs on the driver's cursor
        return None
    detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if _is_busy(exc):
        return StoreBusy(url, None, detail)
    return StoreUnavailable(f"{url}: {detail}")


def is_driver_failure(exc: BaseException) -> bool:
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


def driver_of(conn: Connection) -> Any:
    """The DB-API connection under ``conn`` (sqlite3's or psycopg's): the append path runs
    on its cursor. ``Any``: the drivers' objects carry no SQLAlchemy types (pysqlite's and
    psycopg's differ), so the calls on them are checked by the tests, not by mypy."""
    raw = conn.connection.driver_connection
    if raw is None:  # pragma: no cover - a closed or invalidated connection
        raise StoreUnavailable("the database connection is closed")
    return raw


def discard_connection(conn: Connection, exc: BaseException | None) -> None:
    """Close a write connection a failure may have left unusable."""
    try:
        conn.invalidate(exc if isinstance(exc, Exception) else None)
        conn.close()
    except Exception:  # pragma: no cover - closing a broken connection
        pass
