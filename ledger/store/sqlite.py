"""The SQLite side of the event store: the engine's pragmas, the one writer, its own heads.

pysqlite's own transaction handling is switched off and every transaction starts with an
explicit ``BEGIN`` (the engine's ``begin`` hook); a stream transaction (and any write) uses
``BEGIN IMMEDIATE`` on the store's one write connection, so it holds the database's write
lock from its first read and writers are serialised: positions (the rowid) are handed out
in commit order. File databases run in WAL mode (readers never wait) with a busy timeout;
``sqlite:///:memory:`` is one shared connection (``StaticPool``), used one transaction at a
time. A URL may ask for ``?synchronous=normal`` (faster; a power failure may lose the last
commits); FULL is the default. While no other connection commits (``PRAGMA data_version``),
the heads this store committed and the tree it extended are known without a query
(:meth:`SqliteWriter._quiet`).
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import StaticPool

from ledger.errors import ConcurrencyError, StoreUnavailable
from ledger.store.base import StoredEvent
from ledger.store.statements import (discard_connection, is_driver_failure, is_unique_violation, positioned, Statements,
                                     driver_of, store_failure, unavailable_on_failure)
from ledger.store.tree import stored_nodes, tree_rows, TreeTip


OWN_HEADS = 4096
"""SQLite: how many stream heads a store remembers having committed (SqlEventStore._quiet)."""

#: Execution option read by the SQLite ``begin`` hook: the BEGIN mode to emit.
BEGIN_MODE = "ledger_sqlite_begin"


def _is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"



#: SQLite's ``synchronous`` levels a URL may ask for (``sqlite:///FILE?synchronous=normal``).
#: FULL, the default, syncs the WAL at every commit: a commit that returned survives a
#: power failure. NORMAL syncs only at checkpoints: still never corrupt, and nothing is
#: lost when the process or the ledger crashes, but a power failure (or an OS crash) may
#: lose the transactions committed since the last checkpoint (docs/performance.md).
SQLITE_SYNC_LEVELS = ("FULL", "NORMAL", "EXTRA")


def sqlite_engine(url: URL, timeout: float) -> Engine:
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
        if driver_of(connection).in_transaction:
            return  # begun on the driver by the store's write path (SqlEventStore._write_transaction)
        mode = connection.get_execution_options().get(BEGIN_MODE, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")

    return engine


def missing_sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL when it does not exist (connecting would create it)."""
    if url.get_backend_name() != "sqlite" or _is_memory(url) or url.query.get("uri"):
        return None
    path = Path(url.database or "")
    return None if path.exists() else path


class SqliteTransaction:
    """SQLite's part of a stream transaction (:class:`ledger.store.transactions.SqlTransaction`): the
    insert under the write lock (no savepoint: a failed statement undoes itself) and the
    tree extended in the append's transaction."""

    stream: str
    _conn: Connection
    _cur: Any  # the DB-API cursor (sqlite3's): the driver's objects carry no SQLAlchemy types
    _sql: Statements
    _tip: TreeTip | None
    tip_after: TreeTip | None
    tip_current: bool
    known_head: tuple[int, str] | None
    behind: bool

    if TYPE_CHECKING:
        def head(self) -> tuple[int, str]: ...

    def _insert_sqlite(self, batch: Sequence[StoredEvent]) -> list[StoredEvent]:
        """The rows (one statement per 2,000), the tree's rows unless integrated behind, the head."""
        cur, sql = self._cur, self._sql
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
            if not is_unique_violation(exc if not isinstance(exc, sa.exc.DBAPIError) else exc.orig):
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
        return positioned(batch, ordered)

    def _extend_tree(self, batch: Sequence[StoredEvent], ordered: Sequence[int]) -> None:
        """SQLite: the batch's leaves and the nodes they complete, in the append's transaction."""
        cur, sql = self._cur, self._sql
        known = self.tip_after or self._tip
        if self.tip_current and known is not None:  # the tree is the one this store committed
            last: Any = (known.size - 1, known.last_leaf)
        else:
            cur.execute(sql.last_leaf)
            last = cur.fetchone()
        leaves, nodes, self.tip_after = tree_rows(batch, ordered, known,
                                                   lambda keys: stored_nodes(self._conn, keys), last)
        if len(leaves) == 1:  # one event: plain statements (executemany costs more for one row)
            cur.execute(sql.insert_leaf, leaves[0])
            for node in nodes:
                cur.execute(sql.insert_node, node)
        else:
            cur.executemany(sql.insert_leaf, leaves)
            if nodes:
                cur.executemany(sql.insert_node, nodes)


Tx = TypeVar("Tx", bound=SqliteTransaction)


class ConnectionBound(Protocol):
    """The store's per-thread state, as the writer sees it: the thread's open transaction."""

    connection: Connection | None


class SqliteWriter:
    """SQLite's part of the store (:class:`ledger.store.sql.SqlEventStore`): the one write
    connection, its BEGIN IMMEDIATE and COMMIT on the driver, and the heads it committed."""

    url: str
    engine: Engine
    _local: ConnectionBound
    _write_lock: AbstractContextManager[Any]
    _write_conn: Connection | None
    _write_driver: tuple[Connection, Any, Any] | None
    _tree_tip: TreeTip | None
    _statements: Statements
    _file_db: bool
    _own_heads: OrderedDict[str, tuple[int, str]]
    _own_version: tuple[Connection, int] | None
    integrate_behind: bool

    if TYPE_CHECKING:
        def _write_transaction(self) -> AbstractContextManager[Connection]: ...

    @contextmanager
    def _sqlite_write_transaction(self) -> Iterator[Connection]:
        """A transaction on the store's one write connection (opened once, kept
        until ``close``; dropped and reopened after a connection failure)."""
        with unavailable_on_failure(self.url), self._write_lock:
            conn = self._writer()
            try:
                with self._sqlite_transaction(conn):
                    yield conn
            except Exception as exc:
                if drops_writer(exc):
                    self._drop_writer(exc)
                raise

    def _writer(self) -> Connection:
        """The store's write connection, opened when there is none (or it is unusable)."""
        conn = self._write_conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self.engine.connect()
            conn.execution_options(**{BEGIN_MODE: "IMMEDIATE"})
            self._write_conn = conn
        return conn

    @contextmanager
    def _sqlite_transaction(self, conn: Connection) -> Iterator[None]:
        """SQLite: BEGIN IMMEDIATE and COMMIT on the driver itself (no SQLAlchemy
        transaction object per append). A read made through SQLAlchemy inside it
        joins it (the ``begin`` hook sees the driver in a transaction)."""
        raw = driver_of(conn)
        raw.execute("BEGIN IMMEDIATE")
        self._local.connection = conn
        try:
            yield
        except BaseException:
            if raw.in_transaction:
                raw.rollback()
            raise
        else:
            raw.commit()
        finally:
            self._local.connection = None
            if conn.in_transaction():  # SQLAlchemy's bookkeeping of a read made inside
                conn.rollback()  # the driver's transaction is over: nothing is undone

    def _drop_writer(self, exc: BaseException) -> None:
        """After a failure the write connection may be unusable: the next write opens another."""
        conn, self._write_conn = self._write_conn, None
        if conn is not None:
            discard_connection(conn, exc)

    def _sqlite_append(self, stream: str, opened: Callable[[Connection, Any], Tx]) -> SqliteAppend[Tx]:
        """SQLite, one writer: the stream transaction ``opened(conn, cursor)`` in the write
        transaction, the committed tip and head noted for the next append."""
        return SqliteAppend(self, stream, opened)

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


def drops_writer(exc: BaseException) -> bool:
    """After ``exc`` the write connection may be unusable: the next write opens another."""
    return isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError, sqlite3.Error)) \
        or (isinstance(exc, Exception) and is_driver_failure(exc))


class SqliteAppend(Generic[Tx]):
    """One stream's write transaction on SQLite outside a batch (``SqlEventStore.transaction``),
    as one object: the store's write lock, its write connection (opened when needed),
    ``BEGIN IMMEDIATE`` and ``COMMIT`` on the driver, a failure mapped as
    :func:`ledger.store.statements.unavailable_on_failure` maps it (the writer dropped after a
    driver failure), and, once committed, the tree's tip and the stream's head noted for the
    next append. It was five generator context managers nested (``_sqlite_append``,
    ``_write_transaction``, ``_sqlite_write_transaction``, ``unavailable_on_failure``,
    ``_sqlite_transaction``; issue 28, item 6), whose entering and leaving cost more than
    the SQL of an empty transaction; the behaviour, failures included, is theirs."""

    __slots__ = ("_store", "_stream", "_opened", "_tx", "_conn", "_raw")

    def __init__(self, store: SqliteWriter, stream: str, opened: Callable[[Connection, Any], Tx]) -> None:
        self._store = store
        self._stream = stream
        self._opened = opened

    def __enter__(self) -> Tx:
        store = self._store
        store._write_lock.__enter__()
        try:
            conn = self._conn = store._writer()
        except BaseException as exc:  # connecting: mapped; no writer to drop
            raise self._released(exc, drop=False)
        try:
            kept = store._write_driver
            if kept is None or kept[0] is not conn:  # the driver's connection and a cursor, kept with it
                driver = driver_of(conn)
                kept = store._write_driver = (conn, driver, driver.cursor())
            raw = self._raw = kept[1]
            raw.execute("BEGIN IMMEDIATE")
        except BaseException as exc:
            raise self._released(exc)
        store._local.connection = conn
        try:
            tx = self._tx = self._opened(conn, kept[2])
            tx.behind = store.integrate_behind
            if store._file_db and store._quiet(conn, tx._cur):
                tx.known_head = store._own_heads.get(self._stream)
                tx.tip_current = store._tree_tip is not None
        except BaseException as exc:
            raise self._released(self._end(exc) or exc)
        return tx

    def __exit__(self, _type: object, exc: BaseException | None, _tb: object) -> Literal[False]:
        failure = self._end(exc)
        if failure is None:
            try:
                self._noted()
            finally:
                self._store._write_lock.__exit__(None, None, None)
            return False
        raised = self._released(failure)
        if raised is exc:
            return False  # the body's own exception, unchanged: let it through
        raise raised

    def _end(self, exc: BaseException | None) -> BaseException | None:
        """Commit (``exc`` None) or roll back; the exception the transaction ends with (None:
        committed): ``exc`` itself, or one raised while ending it."""
        raw = self._raw
        try:
            try:
                if exc is not None:
                    if raw.in_transaction:
                        raw.rollback()
                else:
                    raw.commit()
            finally:
                self._store._local.connection = None
                if self._conn.in_transaction():  # SQLAlchemy's bookkeeping of a read made inside
                    self._conn.rollback()  # the driver's transaction is over: nothing is undone
        except BaseException as failure:
            return failure
        return exc

    def _released(self, failure: BaseException, *, drop: bool = True) -> BaseException:
        """The write lock released; the exception to raise for ``failure``: StoreBusy or
        StoreUnavailable when it is the database's (the writer dropped), else itself."""
        store = self._store
        try:
            if drop and drops_writer(failure):
                store._drop_writer(failure)
            mapped = store_failure(store.url, failure)
        finally:
            store._write_lock.__exit__(None, None, None)
        if mapped is None:
            return failure
        mapped.__cause__ = failure
        return mapped

    def _noted(self) -> None:
        """Committed: the next append may start from the tree's tip and the stream's head."""
        store, tx = self._store, self._tx
        if tx.tip_after is not None:
            store._tree_tip = tx.tip_after
        if tx.known_head is not None and store._file_db:
            heads = store._own_heads
            heads[self._stream] = tx.known_head
            heads.move_to_end(self._stream)
            if len(heads) > OWN_HEADS:
                heads.popitem(last=False)
