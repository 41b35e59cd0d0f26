"""The integrator: the Merkle tree extended behind the log (issue 28, item 2), as
Certificate Transparency logs do it (Trillian, Tessera): an append commits its rows
with their positions and chain hashes; the integrator then adds their leaves, in
position order, in batches, to exactly the tree the append path would have built
(``ledger.audit.merkle.grow`` from the stored frontier: same leaves, nodes and roots, so
every digest and proof taken before stays valid).

* **Which rows.** Only a prefix of the log in position order may be integrated: a leaf
  once written is never moved. On SQLite one writer at a time commits, so positions are
  in commit order and every committed row is such a prefix. On PostgreSQL writers commit
  side by side; a writer hands out its positions and takes its transaction id (the
  ``xid`` column, revision 0006) inside one short critical section (the position lock,
  released before its commit), where it also takes a shared advisory lock keyed by its
  transaction id, held to its commit; so transaction ids and positions are in the same
  order, and the rows of transactions older than the oldest ledger writer in flight in
  the database (``ledger.store.postgres.SETTLED_BOUND``, read before the rows) are a prefix of
  the log: every lower position is committed (or was rolled back and never will be).
  ``log --after`` reads with the same bound, so a reader never misses a later commit with
  a lower position.
* **One integrator per database.** PostgreSQL: each batch is written under the
  transaction-scoped advisory lock :data:`INTEGRATOR_LOCK_CLASS` (per schema), taken with
  ``pg_try_advisory_xact_lock`` (an integrator that finds it held does nothing: another
  is at work); when an integrator's process dies its connection ends and the lock with
  it, and the next one takes over. SQLite: the write lock (``BEGIN IMMEDIATE``).
* **Published sizes.** ``cli.py digest`` publishes the integrated tree's size and root
  (what the tree tables hold); ``--wait SECONDS`` first waits, at most that long, for
  the integrator to cover every event committed when it was called.

A database is put in this mode with ``cli.py init --integrate-behind`` (the setting
``integration = behind`` of ``ledger_settings``); its appends then write no leaf, and
``cli.py integrate`` (or a server's integrator thread) extends the tree.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ledger.audit import merkle
from ledger.errors import StoreUnavailable
from ledger.store.base import EventStore, TreeIntegration
from ledger.store.postgres import SETTLED_BOUND
from ledger.store.schema import ledger_settings
from ledger.store.statements import driver_of

#: Class (first key) of the PostgreSQL advisory lock that elects the integrator ("LDIN"); the
#: second key is ``hashtext(current_schema())``: one integrator per ledger schema (advisory
#: locks are database-wide).
INTEGRATOR_LOCK_CLASS = 0x4C44494E
ELECTION = "SELECT pg_try_advisory_xact_lock(%s, hashtext(current_schema()))"

BATCH = 5000
"""Leaves integrated per transaction."""

_LAST_LEAF = "SELECT leaf_index, position FROM merkle_leaves ORDER BY leaf_index DESC LIMIT 1"
_PENDING = "SELECT position, stream, seq, hash FROM events WHERE position > ? ORDER BY position LIMIT ?"
_PENDING_PG = ("SELECT position, stream, seq, hash FROM events WHERE position > %s AND (xid IS NULL OR "
               "xid < %s) ORDER BY position LIMIT %s")
_INSERT_LEAF = "INSERT INTO merkle_leaves (leaf_index, position, stream, seq, hash) VALUES (?, ?, ?, ?, ?)"
_INSERT_NODE = "INSERT INTO merkle_nodes (level, node_index, hash) VALUES (?, ?, ?)"


@attrs.frozen
class Integrated:
    leaves: int  # leaves added by this call
    size: int | None  # the tree's size after it (None: another integrator holds the lock)

    @property
    def elected(self) -> bool:
        return self.size is not None


def enable(store: EventStore) -> None:
    """Put the database in "integrated behind" mode (``init --integrate-behind``). Safe at
    any time on a tree kept by the append path (it covers every committed event); the
    writers of other processes must be restarted to read the setting."""
    integrated = integrating(store)
    with integrated.writing() as conn:
        conn.execute(sa.delete(ledger_settings).where(ledger_settings.c.name == "integration"))
        conn.execute(sa.insert(ledger_settings).values(name="integration", value="behind"))
    integrated.integrate_behind = True


def integrate_batch(store: TreeIntegration, batch: int = BATCH) -> Integrated:
    """Add the leaves of up to ``batch`` settled events after the tree's last leaf, in
    position order, with the nodes they complete, in one transaction."""
    pg = store.engine.dialect.name == "postgresql"
    q = (lambda sql: sql.replace("?", "%s")) if pg else (lambda sql: sql)
    with store.writing() as conn:
        cur = driver_of(conn).cursor()
        if pg:
            cur.execute(ELECTION, (INTEGRATOR_LOCK_CLASS,))
            if not cur.fetchone()[0]:
                return Integrated(0, None)
        cur.execute(_LAST_LEAF)
        row = cur.fetchone()
        size, after = (0, 0) if row is None else (int(row[0]) + 1, int(row[1]))
        if pg:
            cur.execute(SETTLED_BOUND)  # a statement of its own, before the rows' (postgres.SETTLED_BOUND)
            cur.execute(_PENDING_PG, (after, cur.fetchone()[0], batch))
        else:
            cur.execute(_PENDING, (after, batch))
        pending = cur.fetchall()
        if not pending:
            return Integrated(0, size)
        frontier = store.tree_nodes(merkle.frontier_keys(size))
        if len(frontier) != len(merkle.frontier_keys(size)):
            from ledger.errors import IntegrityError

            raise IntegrityError(None, None, f"the Merkle tree of {size} leaves lacks part of its frontier; "
                                 "run `python cli.py verify`", kind="merkle")
        written, _ = merkle.grow(size, frontier, [merkle.leaf_hash(h) for _, _, _, h in pending])
        leaves, nodes = [], []
        for level, index, h in written:
            if level == 0:
                position, stream, seq, _ = pending[index - size]
                leaves.append((index, position, stream, seq, h.hex()))
            else:
                nodes.append((level, index, h.hex()))
        cur.executemany(q(_INSERT_LEAF), leaves)
        if nodes:
            cur.executemany(q(_INSERT_NODE), nodes)
    return Integrated(len(leaves), size + len(leaves))


def integrate(store: EventStore, batch: int = BATCH) -> Integrated:
    """Integrate until the tree covers every settled event (or another integrator holds the
    lock); the leaves added and the tree's size."""
    added, integrated = 0, integrating(store)
    while True:
        step = integrate_batch(integrated, batch)
        added += step.leaves
        if not step.elected:
            return Integrated(added, None)
        if step.leaves < batch:
            return Integrated(added, step.size)


def integrated_position(store: EventStore) -> int:
    """The position of the tree's last leaf (0 for an empty tree)."""
    with _reading(integrating(store)) as conn:
        row = conn.exec_driver_sql(_LAST_LEAF).first()
    return 0 if row is None else int(row[1])


def integrating(store: EventStore) -> TreeIntegration:
    """The store in its integration role (the SQL store has it); StoreUnavailable for one without."""
    if not isinstance(store, TreeIntegration):
        raise StoreUnavailable(f"{store.url}: this store cannot integrate its tree behind the log")
    return store


def _reading(store: TreeIntegration) -> AbstractContextManager[Connection]:
    return store.engine.connect()


def wait_integrated(store: EventStore, seconds: float, poll: float = 0.05) -> tuple[bool, int]:
    """Wait (at most ``seconds``) until the tree covers every event committed now; integrate
    here when the store is not served by a running integrator (SQLite or the command line).
    (covered?, events still outside the tree)."""
    target = store.last_position()
    deadline = time.monotonic() + seconds
    while True:
        integrate(store)
        done = integrated_position(store)
        if done >= target:
            return True, 0
        if time.monotonic() >= deadline:
            with _reading(integrating(store)) as conn:
                behind = conn.execute(sa.text("SELECT count(*) FROM events WHERE position > :p"),
                                      {"p": done}).scalar()
            return False, int(behind or 0)
        time.sleep(poll)


class Keeper:
    """The integrator of a server (``cli.py serve`` on a database whose tree is integrated
    behind the log): a thread integrating every ``poll`` seconds until stopped. Several
    servers each run one; the advisory lock elects one per batch, and when a server dies
    the others carry on."""

    def __init__(self, store: TreeIntegration, poll: float = 0.1, batch: int = BATCH) -> None:
        import threading

        import structlog

        self.store, self.poll, self.batch = store, poll, batch
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledger-integrator", daemon=True)
        self._log = structlog.get_logger("ledger.integrator")

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                integrate(self.store, self.batch)
            except Exception as exc:  # a busy or lost database: said, and tried again
                self._log.warning("integrate_failed", error=f"{type(exc).__name__}: {exc}")
            self._stop.wait(self.poll)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
