"""Group commit (issue 28, item 1): appends that arrive while a commit is in flight form
the next group, committed together by a writer thread.

Each append of a group is checked, folded and ruled on its own stream's head inside
the group's one transaction (``Ledger.batch`` with the group's streams declared, on
PostgreSQL their locks taken first, in one order, and ``deferred``: validate-then-write).
Its rows are kept in memory (``ledger.store.transactions.StagedTransaction``), seen by the later
appends of the same stream (a stream twice in a group folds, the second time, on the head
the first append left); once every append has been folded, all the rows are written at
once (one INSERT, one tree extension, one COMMIT). A refused append (stale
``expected_seq``, a card not in the hand, a role not allowed, even a bug in a check) has
written nothing: the others of its group are committed. Every caller is answered only
once the group's COMMIT has returned (its rows are durable: SQLite FULL syncs the WAL at
the commit, PostgreSQL flushes it), with its own result (positions included) or its own
error. Positions are handed out in commit order as for any append, and the Merkle tree is
extended exactly as serial appends in the group's order would extend it. (With the tree
integrated behind the log, each append of a group runs in a savepoint instead.)

On SQLite one writer thread owns the writes (the store's one write connection): the GIL
and SQLite's single writer make a second one useless, and one commit (one fsync) serves the
whole group. On PostgreSQL :data:`PG_GROUP_WRITERS` threads commit groups side by side,
each on a write connection of its own, so that one folds while another waits for the
database. A failure of the store itself (the database lost, a lock held
past the busy timeout) fails the whole group: every caller of the group gets it, as a
lone append would, and nothing of the group is written.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

import attrs

from ledger.errors import StoreBusy, StoreUnavailable
from ledger.store.base import SqlBacked, StagedRows

if TYPE_CHECKING:
    from ledger.service import AppendResult, Fact, Ledger
    from projections.state import TableState

#: The most appends one group commits (the savepoints of one transaction).
MAX_GROUP = 256

#: PostgreSQL: writer threads committing groups side by side, each on a write connection of
#: its own (while one waits for the database, another folds). Two groups over one stream
#: wait for each other on its lock (taken first, in one order); a caller that waits for its
#: answer before sending its next append keeps its order. SQLite has one writer: one thread.
PG_GROUP_WRITERS = 4


@attrs.define
class _Request:
    stream: str
    facts: Sequence[Any]
    expected_seq: int | None
    check: Callable[[Any], None] | None
    future: Future[Any]


@attrs.define
class GroupStats:
    """What the committer did: commits (one fsync each), appends answered, refused ones."""

    commits: int = 0
    appends: int = 0
    refused: int = 0
    largest: int = 0
    busy_seconds: float = 0.0

    def per_commit(self) -> float:
        return self.appends / self.commits if self.commits else 0.0


class GroupCommitter:
    """One writer thread committing queued appends in groups (see the module docstring).

    ``append`` blocks its caller until its group is committed; ``submit`` returns a
    :class:`concurrent.futures.Future` (an asyncio caller awaits it with
    ``asyncio.wrap_future``)."""

    def __init__(self, ledger: Ledger, *, max_group: int = MAX_GROUP, writers: int | None = None) -> None:
        if max_group < 1:
            raise ValueError("a group holds at least one append")
        self.ledger = ledger
        self.max_group = max_group
        self.stats = GroupStats()
        self._stats_lock = threading.Lock()
        self._queue: deque[_Request] = deque()
        self._ready = threading.Condition(threading.Lock())
        self._closed = False
        if writers is None:
            writers = 1 if _is_sqlite(ledger) else PG_GROUP_WRITERS
        self._threads = [threading.Thread(target=self._run, name=f"ledger-group-commit-{i}", daemon=True)
                         for i in range(max(1, writers))]
        for thread in self._threads:
            thread.start()

    def submit(self, stream: str, facts: Sequence[Fact | Mapping[str, Any]],
               expected_seq: int | None = None, *,
               check: Callable[[TableState], None] | None = None) -> Future[AppendResult]:
        """Queue one append (as ``Ledger.append`` takes it); its future is resolved once
        its group is committed, with its result or its own error."""
        future: Future[AppendResult] = Future()
        request = _Request(stream, facts, expected_seq, check, future)
        with self._ready:
            if self._closed:
                raise RuntimeError("the group committer is closed")
            self._queue.append(request)
            self._ready.notify()
        return future

    def append(self, stream: str, facts: Sequence[Fact | Mapping[str, Any]],
               expected_seq: int | None = None, *,
               check: Callable[[TableState], None] | None = None) -> AppendResult:
        """``Ledger.append``, committed with whatever else is queued: returns once durable."""
        return self.submit(stream, facts, expected_seq, check=check).result()

    def close(self, timeout: float = 30.0) -> None:
        """Commit what is queued, then stop the writer thread."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout)

    # -- the writer thread -------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return  # closed, nothing left
                group = [self._queue.popleft() for _ in range(min(self.max_group, len(self._queue)))]
            self._commit(group)

    def _commit(self, group: list[_Request]) -> None:
        started = time.perf_counter()
        live = [r for r in group if r.future.set_running_or_notify_cancel()]
        if not live:
            return
        outcomes: list[tuple[bool, Any]] = []
        staged: StagedRows | None = None
        try:
            if len(live) == 1:  # alone: a plain append (no savepoint)
                r = live[0]
                try:
                    outcomes.append((True, self.ledger.append(r.stream, r.facts, r.expected_seq, check=r.check)))
                except (StoreUnavailable, StoreBusy):
                    raise
                except Exception as exc:  # its own error, answered to its caller
                    outcomes.append((False, exc))
            else:
                with self.ledger.batch((r.stream for r in live), deferred=True) as staged:
                    for r in live:
                        try:
                            outcomes.append((True, self.ledger.append(r.stream, r.facts, r.expected_seq,
                                                                      check=r.check)))
                        except (StoreUnavailable, StoreBusy):
                            raise  # the transaction itself is in doubt: the whole group fails
                        except Exception as exc:  # this append only (its savepoint is rolled back),
                            outcomes.append((False, exc))  # a refusal or even a bug: never the others'
        except BaseException as exc:  # nothing of the group was committed
            for r in live:
                r.future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        finally:
            with self._stats_lock:
                self.stats.busy_seconds += time.perf_counter() - started
        if staged is not None:  # validate-then-write: the positions the group's INSERT gave
            outcomes = [(ok, _positioned(value, staged.positions) if ok else value) for ok, value in outcomes]
        # committed: now, and only now, every caller is answered
        with self._stats_lock:
            self.stats.commits += 1
            self.stats.appends += len(live)
            self.stats.largest = max(self.stats.largest, len(live))
            self.stats.refused += sum(1 for ok, _ in outcomes if not ok)
        for r, (ok, value) in zip(live, outcomes, strict=True):
            if ok:
                r.future.set_result(value)
            else:
                r.future.set_exception(value)


def _positioned(result: AppendResult, positions: Mapping[tuple[str, int], int]) -> AppendResult:
    """An append's result with the positions its group's INSERT assigned."""
    if not result.stored or result.stored[0].position is not None:
        return result
    return attrs.evolve(result, stored=tuple(attrs.evolve(ev, position=positions[(ev.stream, ev.seq)])
                                             for ev in result.stored))


#: The environment variable that turns group commit off in the live server (``0``): each
#: append then commits on its own, as before issue 28 (the bench's "today").
GROUP_COMMIT_ENV = "LEDGER_GROUP_COMMIT"


def live_append(ledger: Ledger, stream: str, facts: Sequence[Fact | Mapping[str, Any]],
                expected_seq: int | None = None) -> AppendResult:
    """The live server's append (``ledger.live.app``): through the ledger's group committer,
    answered once durable; with ``LEDGER_GROUP_COMMIT=0``, a lone append (one at a time on
    SQLite, which has one writer)."""
    if os.environ.get(GROUP_COMMIT_ENV, "1") == "0":
        with _LONE if _is_sqlite(ledger) else nullcontext():
            return ledger.append(stream, facts, expected_seq=expected_seq)
    committer: GroupCommitter = ledger.grouped()
    return committer.append(stream, facts, expected_seq)


_LONE = threading.Lock()


def _is_sqlite(ledger: Ledger) -> bool:
    return isinstance(ledger.store, SqlBacked) and ledger.store.engine.dialect.name == "sqlite"
