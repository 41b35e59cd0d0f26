"""Every core for rebuild, replay and import (issue 28, item 5).

Boards are independent streams, so their work runs in worker processes (``spawn``: no
connection is inherited, each opens its own), a chunk of streams (or of records) per
task; the answers come back in the order the chunks were given, so whatever the caller
does with them (write snapshots, merge reports, print) happens in the serial run's order.

* ``rebuild``: the workers fold; the calling process writes the snapshots.
* ``replay`` (``ledger.replay``): the workers read, check and fold; nothing is written.
* ``import`` (``ledger.records.jobs``): the workers parse-fold-rule each record's append;
  on SQLite the calling process, the one writer, writes what they prepared; on PostgreSQL
  the workers write their own streams, one chunk after the other in the chunks' order
  (:class:`Turns`), so the positions and the Merkle tree are the serial run's.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterator, Sequence, TypeVar

from ledger.store.base import Snapshot

CHUNK = 32
"""Streams per task (small enough for a progress bar to move, large enough to amortise)."""

FEW = 256
"""Below this many streams or records, ``--jobs`` left to its default runs in the calling
process: a worker's start (Python, the ledger's modules, its connection) costs about 1 s of
CPU, what replaying some 200 boards or importing some 90 records costs in this process
(docs/performance.md, "Issue 28 item 5")."""

T = TypeVar("T")
A = TypeVar("A")
R = TypeVar("R")


def default_jobs() -> int:
    """The cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def choose_jobs(jobs: int | None, items: int) -> int:
    """``--jobs`` as given, else the cores (1 for fewer than :data:`FEW` items)."""
    if jobs is not None:
        return jobs
    return 1 if items < FEW else default_jobs()


def chunks(items: Sequence[T], size: int = CHUNK) -> list[list[T]]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def spawn_pool(jobs: int, initializer: Callable[..., None] | None = None,
               initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """``jobs`` worker processes started with ``spawn`` (nothing inherited but the arguments)."""
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=initializer, initargs=initargs)


def in_workers(work: Callable[[A, list[T]], list[R]], common: A, items: Sequence[T], jobs: int, *,
               size: int = CHUNK, initializer: Callable[..., None] | None = None,
               initargs: tuple[Any, ...] = ()) -> Iterator[list[R]]:
    """``work(common, chunk)`` of every chunk of ``items`` in ``jobs`` worker processes
    (``work`` a module-level function: the workers import it), each chunk's answer in the
    order of the chunks."""
    parts = chunks(items, size)
    if not parts:
        return
    pool = spawn_pool(min(jobs, len(parts)), initializer, initargs)
    try:
        yield from pool.map(work, [common] * len(parts), parts)
    except BaseException:  # a worker failed, or the caller stopped early: the chunks not begun are dropped
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def refold_in_workers(work: Callable[[str, list[str]], list[tuple[str, Snapshot | None, bool]]],
                      url: str, names: list[str], jobs: int) -> Iterator[tuple[str, Snapshot | None, bool]]:
    """(stream, fresh snapshot, differed) of every stream, in the order given, computed by
    ``work(url, names)`` (a module-level function: the workers import it) in ``jobs``
    worker processes."""
    for done in in_workers(work, url, names, jobs):
        yield from done


class Aborted(RuntimeError):
    """Another chunk's writer failed: this one writes nothing."""


class Turns:
    """Whose turn it is to write: chunk k writes once chunks 0 to k-1 have (workers that
    prepare ahead, then write in the serial run's order). Made in the calling process with
    the ``spawn`` context and handed to the workers at their start (``initargs``)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._turn = context.Value("q", 0, lock=False)
        self._changed = context.Condition()

    def wait(self, chunk: int) -> None:
        """Block until it is ``chunk``'s turn; :class:`Aborted` once another writer failed."""
        with self._changed:
            self._changed.wait_for(lambda: self._turn.value in (chunk, -1))
            if self._turn.value == -1:
                raise Aborted(f"chunk {chunk}: an earlier chunk's writer failed")

    def done(self, chunk: int) -> None:
        """``chunk`` is written: the next one's turn."""
        with self._changed:
            if self._turn.value == chunk:
                self._turn.value = chunk + 1
            self._changed.notify_all()

    def abort(self) -> None:
        """No chunk writes any more (a writer failed, or the caller gave up)."""
        with self._changed:
            self._turn.value = -1
            self._changed.notify_all()
