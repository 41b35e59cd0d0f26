"""The SQL store's stream transactions: one append (:class:`SqlTransaction`, on the
driver's cursor of the store's write connection, with SQLite's and PostgreSQL's parts
from :mod:`ledger.store.sqlite` and :mod:`ledger.store.postgres`), and one append of a
deferred batch (:class:`StagedTransaction`: group commit's validate-then-write, whose rows
:func:`write_staged` writes at once when the batch ends)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection

from ledger.errors import ConcurrencyError
from ledger.hashing import canonical_json, read_json
from ledger.store.base import GENESIS, Snapshot, StoredEvent
from ledger.store.postgres import LOCK_STREAM, POSITION_LOCK_KEY, STREAM_LOCK_CLASS, PostgresTransaction
from ledger.store.sqlite import SqliteTransaction
from ledger.store.statements import (Statements, driver_of, event_of, read_snapshot, summary_of_row,
                                     summary_text)
from ledger.store.tree import TreeRows, TreeTip, frontier_of, grown_tree, stored_nodes, tree_rows


class SqlTransaction(SqliteTransaction, PostgresTransaction):
    """One stream's write transaction (:class:`ledger.store.base.StoreTransaction`).

    Runs on the driver's cursor of the store's write connection with the
    prebuilt statements of :class:`Statements` (issue 10, levers 2 and 3); the
    transaction itself (BEGIN IMMEDIATE on SQLite, savepoints in a batch) is
    the store's SQLAlchemy connection's."""

    def __init__(self, connection: Connection, stream: str, tip: TreeTip | None = None,
                 statements: Statements | None = None, cursor: Any = None) -> None:
        self.stream = stream
        self._conn = connection
        self._tip = tip  # the tree as last committed through this store (a hint)
        self.tip_after: TreeTip | None = None
        self._sql = statements or Statements(connection.dialect.name)
        self._pg = connection.dialect.name == "postgresql"
        self._cur = cursor if cursor is not None else driver_of(connection).cursor()  # SQLite: the writer's, kept
        self._lock_pending = False
        self._pending_tree: TreeRows | None = None
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
            with driver_of(self._conn).pipeline():  # lock, then the head, in one round trip
                self._send_savepoint()
                if self._lock_pending:
                    self._lock_pending = False
                    self._cur.execute(LOCK_STREAM, (STREAM_LOCK_CLASS, self.stream))
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
            self._cur.execute(LOCK_STREAM, (STREAM_LOCK_CLASS, self.stream))

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
        else:  # SQLite limits bound values to 32,766: a batch has at most MAX_ROWS facts per statement
            unique = list(dict.fromkeys(ids))
            rows = []
            for i in range(0, len(unique), self._sql.MAX_ROWS):
                chunk = unique[i:i + self._sql.MAX_ROWS]
                self._cur.execute(self._sql.find_ids_sqlite(len(chunk)), (self.stream, *chunk))
                rows += self._cur.fetchall()
            return {ev.id: ev for ev in map(event_of, rows)}
        return {ev.id: ev for ev in map(event_of, self._cur.fetchall())}

    def read(self, after_seq: int = 0) -> list[StoredEvent]:
        """The stream's events with seq > after_seq, in seq order."""
        self._flush_lock()
        self._cur.execute(self._sql.read, (self.stream, after_seq))
        return [event_of(row) for row in self._cur.fetchall()]

    def load_snapshot(self) -> Snapshot | None:
        """The saved state at the head, if any (None when the last saved one is older)."""
        self._flush_lock()
        return read_snapshot(self._conn, self.stream)

    def latest_snapshot(self) -> Snapshot | None:
        """The last state saved for this stream, whatever its seq (it may be behind
        the head: snapshots are saved every N events, ``ledger.service``)."""
        self._flush_lock()
        self._cur.execute(self._sql.latest_snapshot, (self.stream,))
        row = self._cur.fetchone()
        if row is None:
            return None
        return Snapshot(self.stream, row[0], row[1], row[2], read_json(row[3]), summary_of_row(row[4]))

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
        if self._pg:
            return self._insert_pg(batch)
        return self._insert_sqlite(batch)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Save the folded state after ``snapshot.seq`` (same transaction as the append)."""
        if snapshot.stream != self.stream:
            raise ValueError(f"snapshot of {snapshot.stream!r} in a transaction on {self.stream!r}")
        self._flush_lock()
        params = (snapshot.stream, snapshot.seq, snapshot.hash, snapshot.version, canonical_json(snapshot.state),
                  summary_text(snapshot.summary))
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


class Staged:
    """A deferred batch's rows (group commit, validate-then-write): what its appends
    wrote, kept in memory until the batch ends, then written at once (:func:`write_staged`)."""

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

    def __init__(self, connection: Connection, stream: str, staged: Staged,
                 statements: Statements | None = None) -> None:
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
        return Snapshot(params[0], params[1], params[2], params[3], read_json(params[4]), summary_of_row(params[5]))

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
                              canonical_json(snapshot.state), summary_text(snapshot.summary))

    def index_board(self, tournament: str, slug: str) -> None:
        self.mine_boards.append((self.stream, tournament, slug))


def write_staged(conn: Connection, staged: Staged, sql: Statements, tip: TreeTip | None) -> TreeTip | None:
    """Write a deferred batch's rows: every event in one multi-row INSERT per 2,000 rows
    (positions in the batch's order), the tree extended once over them all (the same
    leaves and nodes as one append after the other), the heads, snapshots and board index.
    The caller holds the streams' locks; PostgreSQL's position lock is taken here and held
    to the commit. Returns the tree's new tip."""
    events = staged.events
    if not events:
        return tip
    cur = driver_of(conn).cursor()
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
        size, frontier = frontier_of(cur.fetchall())
        leaves, nodes, tip_after = grown_tree(events, ordered, size, frontier)
    else:
        cur.execute(sql.last_leaf)
        leaves, nodes, tip_after = tree_rows(events, ordered, tip, lambda keys: stored_nodes(conn, keys),
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
