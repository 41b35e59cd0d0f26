"""The SQLAlchemy event store, over SQLite (a file, or ``:memory:``) or PostgreSQL.

It implements :class:`ledger.store.base.EventStore` and the store's roles (``Batching``,
``TreeReader``...); the contract is in that module's docstring. This module is the common
store: its class (its reads, its write connections, a stream transaction or one part of a
batch: a savepoint or staged rows), ``open_store``, and every public name of the store. Its rooms:

* :mod:`ledger.store.transactions`: the stream transactions (an append; an append of a
  deferred batch, staged, and the batch's rows written at once);
* :mod:`ledger.store.statements`: the shared SQL (the append path's statements, rows <->
  events, snapshots and heads, driver failures mapped to the ledger's errors);
* :mod:`ledger.store.sqlite`: SQLite's pragmas, its one writer (``BEGIN IMMEDIATE`` on
  the driver), the heads it committed while no other connection commits;
* :mod:`ledger.store.postgres`: PostgreSQL's advisory locks and their keys, the pipelined
  insert under the position lock, the readers' bound with the tree integrated behind,
  the ordered stream locks of a batch, the write connections side by side;
* :mod:`ledger.store.tree`: the Merkle tree's rows (extension from the frontier, the tip).

Either way the unique keys ``(stream, seq)`` and ``(stream, id)`` are the last
word: a violation is raised as :class:`ledger.errors.ConcurrencyError`. The store
never updates or deletes an event (the triggers would refuse it).

Every insert also upserts the stream's ``stream_heads`` row to the new head;
``streams()`` lists these rows. ``head()`` reads the events table. Snapshots
live in their own table (revision 0004), written by ``save_snapshot`` every N
events and at the end of a board (``ledger.service``), not with every append.

The append path (issue 10; docs/performance.md) runs on one write connection
per store, with constant DB-API statements on the driver's cursor: one
multi-row ``INSERT ... RETURNING`` per batch, no savepoint on SQLite (a failed
statement undoes itself), and on PostgreSQL pipelines (see
:mod:`ledger.store.postgres`). PostgreSQL write transactions of several threads
run side by side, each on a write connection of its own.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import StaticPool

from ledger.errors import StoreUnavailable
from ledger.store.base import (AppealIndex, Batching, BoardIndex, BoardIndexing, BoardSummaries, EventStore, Head, RawEvent, Snapshot,
                               StoredEvent, StoreTransaction, TreeIntegration, Warming)
from ledger.store.postgres import (IN_FLIGHT, LOCK_STREAMS, PG_WRITERS, POSITION_LOCK_KEY,
                                   SETTLED_BOUND, STREAM_LOCK_CLASS, PostgresWriter,
                                   lock_streams, postgresql_engine)
from ledger.store.schema import boards, events, ledger_settings, snapshots, stream_heads
from ledger.store.sqlite import (BEGIN_MODE, OWN_HEADS, SQLITE_SYNC_LEVELS, SqliteWriter,
                                 missing_sqlite_file, sqlite_engine)
from ledger.store.statements import (BUSY_TIMEOUT, event_of, read_snapshot, raw_column,
                                     raw_value, summary_of_row, write_snapshot, Statements, driver_of, parse_url,
                                     unavailable_on_failure)
from ledger.store.transactions import SqlTransaction, Staged, StagedTransaction, write_staged
from ledger.store.tree import TreeReads, TreeTip
from ledger.store.urls import normalise_url

__all__ = [  # the names other modules import from here (their homes: the rooms above)
    "BUSY_TIMEOUT", "IN_FLIGHT", "LOCK_STREAMS", "OWN_HEADS", "PG_WRITERS", "POSITION_LOCK_KEY", "SETTLED_BOUND",
    "SQLITE_BUSY_TIMEOUT", "SQLITE_SYNC_LEVELS", "STREAM_LOCK_CLASS", "SqlEventStore", "SqlTransaction",
    "StagedTransaction", "make_engine", "normalise_url", "open_store", "parse_url", "unavailable_on_failure",
]

SQLITE_BUSY_TIMEOUT = BUSY_TIMEOUT

INIT_HINT = "run `python cli.py init` to create or upgrade it"


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
        return sqlite_engine(url, timeout)
    if url.get_backend_name() == "postgresql":
        return postgresql_engine(url, schema, timeout)
    raise StoreUnavailable(f"unsupported database {url.get_backend_name()!r}: "
                           "use sqlite:///FILE or postgresql+psycopg://...")


# --- the store -------------------------------------------------------------------


class _ThreadState(threading.local):
    """What the store keeps per thread (a ``threading.local``: each thread starts from these)."""

    def __init__(self) -> None:
        #: The thread's open transaction: reads made through the store join it.
        self.connection: Connection | None = None
        #: In :meth:`SqlEventStore.batch`: its connection, its declared streams (None: any), its
        #: staged rows (deferred), and the tree's tip after its last savepoint.
        self.batch: Connection | None = None
        self.batch_streams: frozenset[str] | None = None
        self.staged: Staged | None = None
        self.batch_tip: TreeTip | None = None


class SqlEventStore(SqliteWriter, PostgresWriter, TreeReads):
    """The event store over one SQLAlchemy engine (:class:`ledger.store.base.EventStore`).

    Thread-safe: write transactions run one at a time on the store's one write
    connection (opened at the first write, kept until :meth:`close`), or on
    PostgreSQL side by side, each on one of the store's write connections; reads
    take a connection from the pool (the shared connection of an in-memory
    database is used by one thread at a time). A read made inside a stream
    transaction, in the same thread, runs in that transaction.
    """


    _local: _ThreadState

    def __init__(self, engine: Engine, url: str) -> None:
        self.url = url
        self.engine = engine
        self._local = _ThreadState()
        self._tree_tip: TreeTip | None = None
        self._statements = Statements(engine.dialect.name)
        # An in-memory SQLite database is one connection for every reader and writer, so
        # ``data_version`` cannot tell another writer's commit: no quiet path there.
        self._file_db = engine.dialect.name == "sqlite" and not isinstance(engine.pool, StaticPool)
        # An in-memory database is one connection: one transaction at a time.
        shared = isinstance(engine.pool, StaticPool)
        self._serial: AbstractContextManager[Any] = threading.RLock() if shared else nullcontext()
        # One write connection per store (issue 10, lever 3), one write transaction at a time.
        self._write_lock: AbstractContextManager[Any] = self._serial if shared else threading.RLock()
        self._write_conn: Connection | None = None
        # SQLite: the write connection's driver connection and a cursor on it, kept with it.
        self._write_driver: tuple[Connection, Any, Any] | None = None
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
        active = self._local.connection
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
        with self._sqlite_write_transaction() as conn:
            yield conn

    def transaction(self, stream: str) -> AbstractContextManager[SqlTransaction]:
        """Open one stream's write transaction: commit on normal exit, roll back
        on exception. One at a time per thread; inside :meth:`batch`, a savepoint
        of the batch's transaction. On SQLite outside a batch, one object
        (:class:`ledger.store.sqlite.SqliteAppend`), not a generator."""
        batch = self._local.batch
        if batch is not None:
            return self._in_batch(batch, stream)
        if self._local.connection is not None:
            raise RuntimeError("a store transaction is already open in this thread")
        if self._pg:
            return self._pg_transaction(stream)
        return self._sqlite_append(stream, lambda conn, cur: SqlTransaction(conn, stream, self._tree_tip,
                                                                            self._statements, cur))

    @contextmanager
    def _pg_transaction(self, stream: str) -> Iterator[SqlTransaction]:
        """PostgreSQL, side by side (issue 13): the stream and position locks order them in the database."""
        with self._write_transaction() as conn:
            tx = SqlTransaction(conn, stream, None, self._statements)
            tx.behind = self.integrate_behind
            tx._lock_stream()
            yield tx
            tx.flush_tree(commit=True)  # the driver commits; SQLAlchemy's commit then finds nothing to do

    @contextmanager
    def _in_batch(self, batch: Connection, stream: str) -> Iterator[SqlTransaction]:
        """One stream's part of a batch: staged (validate-then-write) or a savepoint."""
        declared = self._local.batch_streams
        if declared is not None and stream not in declared:
            raise ValueError(f"stream {stream!r} was not declared when the batch began "
                             "(its lock would be taken out of order)")
        staged = self._local.staged
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
        cur = driver_of(batch).cursor()
        # The tree's tip from the batch's previous savepoint (a hint checked
        # against the last leaf): the frontier is not read back per append.
        tx = SqlTransaction(batch, stream, self._local.batch_tip, self._statements)
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
    def batch(self, streams: Iterable[str] | None = None, *, deferred: bool = False) -> Iterator[Staged | None]:
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
        COMMIT; the context yields the :class:`Staged` whose ``positions`` then hold
        every event's position by (stream, seq)."""
        if self._local.connection is not None:
            raise RuntimeError("a store transaction is already open in this thread")
        declared = None if streams is None else frozenset(streams)
        with self._write_lock:  # (reentrant) held until the committed tip is noted
            with self._write_transaction() as conn:
                self._own_heads.clear()  # the batch moves heads without this store's bookkeeping
                self._own_version = None
                if declared and self._pg:
                    lock_streams(conn, declared)
                self._local.batch, self._local.batch_tip = conn, self._tree_tip
                self._local.batch_streams = declared
                staged = Staged() if deferred and declared is not None and not self.integrate_behind else None
                self._local.staged = staged
                try:
                    yield staged
                    if staged is not None:
                        self._local.batch_tip = write_staged(conn, staged, self._statements,
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
            cur = driver_of(conn).cursor()
            if upto_seq is None:
                cur.execute(sql.read, (stream, after_seq))
            else:
                cur.execute(sql.read_upto, (stream, after_seq, upto_seq))
            rows = cur.fetchall()
        return [event_of(row) for row in rows]

    def iter_all(self, after_position: int = 0, batch: int = 1000) -> Iterator[StoredEvent]:
        """Every event with position > after_position, in position order, read
        ``batch`` at a time (keyset pagination; no connection held between batches)."""
        last = after_position
        while True:
            with self._begin() as conn:
                cur = driver_of(conn).cursor()
                if self._pg and self.integrate_behind:
                    cur.execute(SETTLED_BOUND)
                    bound = cur.fetchone()[0]
                    cur.execute(self._statements.read_all_settled, (last, bound, batch))
                else:
                    cur.execute(self._statements.read_all, (last, batch))
                rows = cur.fetchall()
            yield from (event_of(row) for row in rows)
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
        columns = [raw_column(c, sqlite_db) for c in events.c if c.name != "xid"]
        last = after_position
        while True:
            query = sa.select(*columns).where(events.c.position > last)
            if stream is not None:
                query = query.where(events.c.stream == stream)
            with self._begin() as conn:
                rows = conn.execute(query.order_by(events.c.position).limit(batch)).all()
            yield from (RawEvent(**{k: raw_value(v) for k, v in row._mapping.items()})
                        for row in rows)
            if len(rows) < batch:
                return
            last = rows[-1].position

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

    def appealed_streams(self) -> list[str]:
        """The streams with an ``AppealLodged`` event, sorted, by the partial index
        ``ix_events_appeals`` (revision 0007; its condition written as the index's, a
        literal, so that both databases use it)."""
        with self._begin() as conn:
            found = conn.exec_driver_sql(
                "SELECT DISTINCT stream FROM events WHERE type = 'AppealLodged'").scalars().all()
        return sorted(str(s) for s in found)

    def board_summaries(self, slug: str | None, version: int) -> list[tuple[str, str, dict[str, Any] | None]]:
        """(stream, tournament, summary) of every indexed board (of the tournament ``slug``
        when given), by stream, in one query: the board index joined with the snapshot
        saved at the stream's head (same seq and hash) with ``version`` and a summary
        (revision 0007); None where there is none (the caller folds that board)."""
        at_head = sa.and_(snapshots.c.stream == boards.c.stream, snapshots.c.version == version,
                          snapshots.c.seq == stream_heads.c.seq, snapshots.c.hash == stream_heads.c.hash)
        query = (sa.select(boards.c.stream, boards.c.tournament, snapshots.c.summary)
                 .select_from(boards.outerjoin(stream_heads, stream_heads.c.stream == boards.c.stream)
                              .outerjoin(snapshots, at_head)))
        if slug is not None:
            query = query.where(boards.c.slug == slug)
        with self._begin() as conn:
            return [(str(a), str(b), summary_of_row(c)) for a, b, c in conn.execute(query.order_by(boards.c.stream))]

    def load_snapshot(self, stream: str) -> Snapshot | None:
        """The saved state at the stream's head, if any (None when the last one
        saved is behind the head: see :meth:`latest_snapshot`)."""
        with self._begin() as conn:
            return read_snapshot(conn, stream)

    def latest_snapshot(self, stream: str) -> Snapshot | None:
        """The last state saved for the stream, whatever its seq (snapshots are
        saved every N events and at the end of a board, ``ledger.service``)."""
        with self._begin() as conn:
            return read_snapshot(conn, stream, head_only=False)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Outside an append (``rebuild``): replace the stream's snapshot, unless
        the stream has moved past ``snapshot.seq`` in the meantime."""
        with self._begin(write=True) as conn:
            write_snapshot(conn, snapshot)

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
                        cur = driver_of(conn).cursor()
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
                        conn.execution_options(**{BEGIN_MODE: "IMMEDIATE"})
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
    missing = missing_sqlite_file(parsed)
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


def _roles(store: SqlEventStore, tx: SqlTransaction, staged: StagedTransaction) -> None:
    """Never called: mypy checks here that the SQL store and its transactions have every
    role of :mod:`ledger.store.base` (the roles the rest of the ledger asks for with
    ``isinstance``; ``tests/test_store_contract.py`` checks them at run time)."""
    roles: tuple[EventStore, Batching, BoardIndex, BoardSummaries, AppealIndex, TreeIntegration, Warming] = (
        store, store, store, store, store, store, store)
    appends: tuple[StoreTransaction, BoardIndexing, StoreTransaction, BoardIndexing] = (tx, tx, staged, staged)
    del roles, appends
