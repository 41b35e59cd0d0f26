"""The PostgreSQL side of the event store: advisory locks, their keys, the readers' bound.

A stream transaction takes the stream's transaction-scoped advisory lock (so the writers
of one stream, new or not, wait for each other); a batch over many streams takes them all
first, in the order of their keys (:func:`lock_streams`). An insert first takes the
position lock, held until commit, so the IDENTITY positions are handed out in commit order
and the Merkle tree is extended from the committed frontier; with the tree integrated
behind the log (revision 0006) the position lock is a short critical section instead, and
readers are bounded by the oldest writer in flight (:data:`SETTLED_BOUND`). Each append
is pipelined (psycopg 3): the stream lock and the head in one round trip; the position
lock, the rows, the head and the tree's size and frontier in the next; the tree's rows, a
snapshot and the COMMIT in a third. Write transactions of several threads run side by
side, each on a write connection of the store's own (:class:`PostgresWriter`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine

from ledger.errors import ConcurrencyError
from ledger.store.base import StoredEvent
from ledger.store.statements import (discard_connection, is_driver_failure, is_unique_violation, positioned, Statements,
                                     driver_of, unavailable_on_failure)
from ledger.store.tree import TreeRows, frontier_of, grown_tree, TreeTip


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

#: The advisory lock of one stream (see :data:`STREAM_LOCK_CLASS`), held until the transaction ends.
LOCK_STREAM = "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema() || '/' || %s))"

#: PostgreSQL: the advisory locks of many streams, taken one after the other in the order of
#: their keys (the ordered subquery feeds the aggregate row by row), duplicates once.
LOCK_STREAMS = ("SELECT count(pg_advisory_xact_lock(%s, k)) FROM (SELECT DISTINCT "
                "hashtext(current_schema() || '/' || s) AS k FROM unnest(%s::text[]) AS s ORDER BY k) q")

_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def postgresql_engine(url: URL, schema: str | None, timeout: float) -> Engine:
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


def lock_streams(conn: Connection, streams: Iterable[str]) -> None:
    """PostgreSQL: hold, until the transaction ends, the advisory locks of ``streams``,
    taken in one fixed order (their keys ascending) so that no two multi-stream
    transactions ever wait for each other in a cycle (see :meth:`ledger.store.sql.SqlEventStore.batch`)."""
    cur = driver_of(conn).cursor()
    cur.execute(LOCK_STREAMS, (STREAM_LOCK_CLASS, sorted(streams)))
    cur.fetchall()


class PostgresTransaction:
    """PostgreSQL's part of a stream transaction (:class:`ledger.store.transactions.SqlTransaction`):
    the stream lock, the pipelined insert under the position lock, the tree's rows and the
    commit sent in one round trip."""

    stream: str
    _conn: Connection
    _cur: Any  # the DB-API cursor (psycopg's): the driver's objects carry no SQLAlchemy types
    _sql: Statements
    tip_after: TreeTip | None
    behind: bool
    in_batch: bool
    savepoint_sent: bool
    _lock_pending: bool
    _pending_tree: TreeRows | None
    _pending_snapshot: tuple[Any, ...] | None

    if TYPE_CHECKING:
        def head(self) -> tuple[int, str]: ...

        def _flush_lock(self) -> None: ...

    def _insert_pg_behind(self, batch: Sequence[StoredEvent]) -> list[StoredEvent]:
        """PostgreSQL, tree integrated behind: the position lock taken as a session lock and
        released in the same round trip as the rows (before the commit, so no commit waits on
        another's fsync); each row's ``xid`` (its default) is assigned inside that critical
        section, so transaction ids and positions are in the same order and readers bounded by
        the oldest transaction in flight see a prefix of the log. In a batch (an import) the
        position lock is the transaction's, held to its commit: one critical section."""
        sql = self._sql
        driver = driver_of(self._conn)
        rows_cur = driver.cursor()
        last = batch[-1]
        session = not self.in_batch
        try:
            with driver.pipeline():
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
            if not is_unique_violation(exc):
                if session:  # never leave the session lock held by a connection kept for reuse
                    driver.rollback()
                    self._cur.execute("SELECT pg_advisory_unlock_all()")
                raise
            self._cur.execute("ROLLBACK TO SAVEPOINT ledger_insert")
            self._cur.execute("RELEASE SAVEPOINT ledger_insert")
            if session:
                self._cur.execute("SELECT pg_advisory_unlock(%s)", (POSITION_LOCK_KEY,))
            actual, _ = self.head()
            raise ConcurrencyError(self.stream, batch[0].seq - 1, actual) from exc
        self._pending_tree = ([], [])  # nothing for the tree; a snapshot still goes with the commit
        return positioned(batch, [positions[ev.seq] for ev in batch])

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
        driver = driver_of(self._conn)
        rows_cur, tree_cur = driver.cursor(), driver.cursor()
        last = batch[-1]
        try:
            with driver.pipeline():
                self._cur.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK_KEY,))
                self._cur.execute("SAVEPOINT ledger_insert")
                rows_cur.execute(sql.insert(len(batch)), sql.params(batch))
                self._cur.execute(sql.move_head, (self.stream, last.seq, last.hash))
                self._cur.execute("RELEASE SAVEPOINT ledger_insert")
                tree_cur.execute(sql.frontier)
            positions = dict(rows_cur.fetchall())
        except Exception as exc:
            if not is_unique_violation(exc):
                raise
            self._cur.execute("ROLLBACK TO SAVEPOINT ledger_insert")
            self._cur.execute("RELEASE SAVEPOINT ledger_insert")
            actual, _ = self.head()
            raise ConcurrencyError(self.stream, batch[0].seq - 1, actual) from exc
        ordered = [positions[ev.seq] for ev in batch]
        size, frontier = frontier_of(tree_cur.fetchall())
        leaves, nodes, self.tip_after = grown_tree(batch, ordered, size, frontier)
        self._pending_tree = (leaves, nodes)  # sent with the commit (flush_tree), or before the next insert
        return positioned(batch, ordered)

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
        driver = driver_of(self._conn)
        with driver.pipeline():
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
                driver.commit()

    def _lock_stream(self) -> None:
        """PostgreSQL: wait for, then hold until commit, the stream's own
        advisory lock. Unlike a lock on its head row, this also serialises the
        writers of a stream that does not exist yet, so that a retry racing its
        original sees it committed (and answers its seqs) instead of colliding.
        Taken with the first statement of the transaction (:meth:`head` sends
        both in one round trip), before anything is read."""
        self._lock_pending = True


class PostgresWriter:
    """PostgreSQL's part of the store (:class:`ledger.store.sql.SqlEventStore`): write
    transactions side by side (issue 13), each on a write connection of the store's own,
    kept for the next one (no pool checkout, no reset round trip), at most
    :data:`PG_WRITERS` at once; the stream and position locks order them in the database."""

    url: str
    engine: Engine
    _writers: list[Connection]
    _writers_mutex: threading.Lock
    _writer_slots: threading.BoundedSemaphore

    if TYPE_CHECKING:
        def _bound(self, conn: Connection) -> AbstractContextManager[None]: ...

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
                if is_driver_failure(exc):
                    broken = exc
                raise
            finally:
                if broken is not None or conn.invalidated or conn.closed:
                    discard_connection(conn, broken)
                else:
                    with self._writers_mutex:
                        self._writers.append(conn)
