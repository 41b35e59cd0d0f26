"""``cli.py bench --merge-delay``: the tree integrated behind the log, under load (issue 28,
item 2). Writer threads append whole boards event by event through ``Ledger.append`` (one
store each, as several servers would) while one integrator thread extends the tree; for
every append, the merge delay is the time from its commit (the append returned) to the
integrator's first batch that covers its position. Printed with the machine's load.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import random
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ledger.bench.appends import percentile


def run_merge_delay(url: str | None = None, writers: int = 4, seconds: float = 5.0,
                    batch: int = 5000, seed: int = 2026) -> dict[str, Any]:
    from ledger.service import Ledger, parse_fact
    from ledger.simulate import random_board
    from ledger.store import integrator

    with _database(url) as (url, store):
        with Ledger.open(url, create=True) as first:
            integrator.enable(first.store)
        rng = random.Random(seed)
        boards = [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=i % 32 + 1).facts, 1)]
                  for i in range(16)]
        run = _MergeRun(url, boards, batch)
        threads = [threading.Thread(target=run.write, args=(n,)) for n in range(writers)]
        keeper = threading.Thread(target=run.integrate)
        t0 = time.perf_counter()
        for t in threads + [keeper]:
            t.start()
        time.sleep(seconds)
        run.stop.set()
        run.stopped = time.perf_counter()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        run.writers_done.set()
        keeper.join()
    return {"merge": {"store": store, "writers": writers, "seconds": seconds} | run.figures(wall)}


@contextlib.contextmanager
def _database(url: str | None) -> Iterator[tuple[str, str]]:
    """The database of the run, and how it reads: a temporary SQLite file unless ``url`` is
    given; on PostgreSQL a schema of its own, dropped after the run."""
    if url is None:
        with tempfile.TemporaryDirectory(prefix="ledger-merge-") as tmp:
            yield f"sqlite:///{Path(tmp) / 'merge.db'}", "sqlite (temporary file)"
        return
    if not url.startswith(("postgresql", "postgres:")):
        yield url, "postgresql"
        return
    import sqlalchemy as sa

    from ledger.store.sql import normalise_url

    base = sa.engine.make_url(normalise_url(url))
    schema = "merge_" + uuid.uuid4().hex[:8]
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    try:
        yield (base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False),
               "postgresql")
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()


class _MergeRun:
    """The writer threads' commits and the integrator's batches, as they happen."""

    def __init__(self, url: str, boards: list[list[Any]], batch: int) -> None:
        self.url, self.boards, self.batch = url, boards, batch
        self.commits: list[tuple[int, float]] = []  # (last position of an append, when it returned)
        self.merged: list[tuple[int, float]] = []  # (integrated position, when its batch committed)
        self.stop, self.writers_done = threading.Event(), threading.Event()
        self.errors: list[BaseException] = []
        self.busy = [0.0, 0]  # seconds integrating, leaves integrated
        self.stopped = 0.0

    def write(self, n: int) -> None:
        from ledger.service import Ledger

        try:
            with Ledger.open(self.url) as ledger:
                for b in range(10 ** 6):
                    stream, seq = f"m/{n}/{b}", 0
                    for fact in self.boards[(n + b) % len(self.boards)]:
                        if self.stop.is_set():
                            return
                        result = ledger.append(stream, [fact], expected_seq=seq)
                        self.commits.append((result.stored[-1].position or 0, time.perf_counter()))
                        seq = result.stored[-1].seq
        except BaseException as exc:  # reported in the figures
            self.errors.append(exc)

    def integrate(self) -> None:
        from ledger.service import Ledger
        from ledger.store import integrator

        with Ledger.open(self.url) as ledger:
            while True:
                finished = self.writers_done.is_set()  # before the round: every commit is in
                t = time.perf_counter()
                step = integrator.integrate(ledger.store, self.batch)
                if step.leaves:
                    self.busy[0] += time.perf_counter() - t
                    self.busy[1] += step.leaves
                    self.merged.append((integrator.integrated_position(ledger.store), time.perf_counter()))
                if finished and self._done():
                    return
                time.sleep(0.01)

    def _done(self) -> bool:
        """Every commit merged, or a minute past the writers' stop (what is left is reported as
        not merged)."""
        last = max((p for p, _ in self.commits), default=0)
        if self.merged and self.merged[-1][0] >= last or not self.commits:
            return True
        return time.perf_counter() - self.stopped > 60

    def figures(self, wall: float) -> dict[str, Any]:
        commits, merged, busy = self.commits, self.merged, self.busy
        positions = [p for p, _ in merged]
        delays = []
        for position, at in commits:
            i = bisect.bisect_left(positions, position)
            if i < len(merged):
                delays.append(max(0.0, merged[i][1] - at) * 1000)
        leaves = busy[1]
        return {
            "load_1min": round(os.getloadavg()[0], 2),
            "cores": os.cpu_count(), "appends": len(commits),
            "append_eps": round(len(commits) / wall, 1),
            "integrator_batches": len(merged), "integrated_leaves": leaves,
            "integrator_leaves_per_busy_s": round(leaves / busy[0], 1) if busy[0] else None,
            "merge_delay_ms_p50": round(percentile(delays, 0.5), 1),
            "merge_delay_ms_p99": round(percentile(delays, 0.99), 1),
            "merge_delay_ms_max": round(max(delays), 1) if delays else None,
            "not_merged": len(commits) - len(delays),
            "errors": [f"{type(e).__name__}: {e}" for e in self.errors][:3],
        }
