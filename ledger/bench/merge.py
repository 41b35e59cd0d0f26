"""``cli.py bench --merge-delay``: the tree integrated behind the log, under load (issue 28,
item 2). Writer threads append whole boards event by event through ``Ledger.append`` (one
store each, as several servers would) while one integrator thread extends the tree; for
every append, the merge delay is the time from its commit (the append returned) to the
integrator's first batch that covers its position. Printed with the machine's load.
"""

from __future__ import annotations

import bisect
import os
import random
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from ledger.bench.appends import percentile


def run_merge_delay(url: str | None = None, writers: int = 4, seconds: float = 5.0,
                    batch: int = 5000, seed: int = 2026) -> dict[str, Any]:
    from ledger.service import Ledger, parse_fact
    from ledger.simulate import random_board
    from ledger.store import integrator

    tmp = None
    schema = None
    admin: Any = None
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="ledger-merge-")
        url = f"sqlite:///{Path(tmp.name) / 'merge.db'}"
    elif url.startswith(("postgresql", "postgres:")):
        import sqlalchemy as sa

        from ledger.store.sql import normalise_url

        base = sa.engine.make_url(normalise_url(url))
        schema = "merge_" + uuid.uuid4().hex[:8]
        admin = sa.create_engine(base)
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        url = base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    try:
        with Ledger.open(url, create=True) as first:
            integrator.enable(first.store)
        rng = random.Random(seed)
        boards = [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=i % 32 + 1).facts, 1)]
                  for i in range(16)]
        commits: list[tuple[int, float]] = []  # (last position of an append, when it returned)
        merged: list[tuple[int, float]] = []  # (integrated position, when its batch committed)
        stop, writers_done = threading.Event(), threading.Event()
        errors: list[BaseException] = []
        busy = [0.0, 0]  # seconds integrating, leaves integrated

        def write(n: int) -> None:
            try:
                with Ledger.open(url) as ledger:
                    for b in range(10 ** 6):
                        stream, seq = f"m/{n}/{b}", 0
                        for fact in boards[(n + b) % len(boards)]:
                            if stop.is_set():
                                return
                            result = ledger.append(stream, [fact], expected_seq=seq)
                            commits.append((result.stored[-1].position or 0, time.perf_counter()))
                            seq = result.stored[-1].seq
            except BaseException as exc:  # reported in the figures
                errors.append(exc)

        def integrate() -> None:
            with Ledger.open(url) as ledger:
                while True:
                    finished = writers_done.is_set()  # before the round: every commit is in
                    t = time.perf_counter()
                    step = integrator.integrate(ledger.store, batch)
                    if step.leaves:
                        busy[0] += time.perf_counter() - t
                        busy[1] += step.leaves
                        merged.append((integrator.integrated_position(ledger.store), time.perf_counter()))
                    last = max((p for p, _ in commits), default=0)
                    if finished and (merged and merged[-1][0] >= last or not commits):
                        return
                    if finished and time.perf_counter() - stopped[0] > 60:
                        return  # what is left is reported as not merged
                    time.sleep(0.01)

        stopped = [0.0]
        threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
        keeper = threading.Thread(target=integrate)
        t0 = time.perf_counter()
        for t in threads + [keeper]:
            t.start()
        time.sleep(seconds)
        stop.set()
        stopped[0] = time.perf_counter()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        writers_done.set()
        keeper.join()
    finally:
        if tmp is not None:
            tmp.cleanup()
        if admin is not None:
            with admin.begin() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            admin.dispose()
    positions = [p for p, _ in merged]
    delays = []
    for position, at in commits:
        i = bisect.bisect_left(positions, position)
        if i < len(merged):
            delays.append(max(0.0, merged[i][1] - at) * 1000)
    leaves = busy[1]
    return {"merge": {
        "store": "sqlite (temporary file)" if tmp is not None else "postgresql",
        "writers": writers, "seconds": seconds, "load_1min": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(), "appends": len(commits),
        "append_eps": round(len(commits) / wall, 1),
        "integrator_batches": len(merged), "integrated_leaves": leaves,
        "integrator_leaves_per_busy_s": round(leaves / busy[0], 1) if busy[0] else None,
        "merge_delay_ms_p50": round(percentile(delays, 0.5), 1),
        "merge_delay_ms_p99": round(percentile(delays, 0.99), 1),
        "merge_delay_ms_max": round(max(delays), 1) if delays else None,
        "not_merged": len(commits) - len(delays),
        "errors": [f"{type(e).__name__}: {e}" for e in errors][:3],
    }}
