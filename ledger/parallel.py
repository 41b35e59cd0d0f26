"""Every core for rebuild (issue 28, item 5): boards are independent streams, so their
folds run in worker processes (``spawn``: no connection is inherited), each on its own
connection to the database; the calling process writes the snapshots (on SQLite the one
writer), in the order of the streams asked for, so the result is the serial run's.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterator

from ledger.store.base import Snapshot

CHUNK = 32
"""Streams per task (small enough for a progress bar to move, large enough to amortise)."""


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def refold_in_workers(work: Callable[[str, list[str]], list[tuple[str, Snapshot | None, bool]]],
                      url: str, names: list[str], jobs: int) -> Iterator[tuple[str, Snapshot | None, bool]]:
    """(stream, fresh snapshot, differed) of every stream, in the order given, computed by
    ``work(url, names)`` (a module-level function: the workers import it) in ``jobs``
    worker processes."""
    chunks = [names[i:i + CHUNK] for i in range(0, len(names), CHUNK)]
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        for done in pool.map(work, [url] * len(chunks), chunks):
            yield from done
