"""``cli.py bench --group``: concurrent appenders in one process, with and without group
commit (issue 28, items 1 and 7), alternated in chunks on one database.

Sides, each run for ``chunk`` seconds per round, their order rotated from round to round:

* ``lone`` (today): ``writers`` threads, each playing boards of
  :func:`ledger.simulate.random_board` one fact per append (``Ledger.append`` with the
  ``expected_seq`` it last saw): one transaction, one commit, per append;
* ``group``: the same threads through the ledger's group committer
  (``Ledger.grouped().append``): the appends queued behind a commit share the next one;
* ``library`` (PostgreSQL, with the ``bench`` extra): the ``eventsourcing`` library's
  PostgreSQL application recorder in ``writers`` processes (the 16 writers of
  ``bench --peer --pg``), one event per transaction, as many events as the group side
  did in its chunk of the same round, divided among them.

Figures, each the median of the rounds: events per second (the engine's rulings
included, as everywhere in the bench), the p99 latency of an append (ms, from the call
to its answer), appends per commit (group side: one commit is one fsync on SQLite FULL),
CPU seconds of this process per thousand events, and the load beside each round. Ratios
are medians of the per-round ratios (each round's figures taken under the same load).
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable

from ledger.bench.appends import percentile
from ledger.store.base import Warming


@runtime_checkable
class _Warms(Protocol):
    """The SQL store's role of opening its connections before a timed run (nothing written)."""

    def warm(self, readers: int = 4) -> int:
        """Open the write connections and ``readers`` read ones; how many were opened."""


def _boards(seed: int, count: int = 24) -> list[list[Any]]:
    from ledger.service import parse_fact
    from ledger.simulate import random_board

    rng = random.Random(seed)
    return [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=b % 32 + 1).facts, start=1)]
            for b in range(count)]


def _chunk(ledger: Any, boards: list[list[Any]], writers: int, seconds: float, grouped: bool,
           run: str) -> dict[str, Any]:
    """``writers`` threads appending one fact at a time for ``seconds``: what they did."""
    stop = threading.Event()
    start = threading.Barrier(writers + 1)
    latencies: list[list[float]] = [[] for _ in range(writers)]
    events = [0] * writers
    errors: list[BaseException] = []
    append: Callable[..., Any] = ledger.grouped().append if grouped else ledger.append
    before = ledger.grouped().stats if grouped else None
    commits0 = before.commits if before else 0
    appends0 = before.appends if before else 0

    def writer(i: int) -> None:
        mine = latencies[i]
        try:
            start.wait()
            for b in itertools.count():
                facts = boards[(i * 7 + b) % len(boards)]
                stream, seq = f"g/{run}/{i}/{b}", 0
                for fact in facts:
                    if stop.is_set():
                        return
                    t0 = time.perf_counter()
                    result = append(stream, [fact], seq)
                    mine.append(time.perf_counter() - t0)
                    seq = result.stored[-1].seq
                    events[i] += len(result.stored)
        except BaseException as exc:  # reported below
            errors.append(exc)
            stop.set()

    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(writers)]
    for t in threads:
        t.start()
    cpu0 = time.process_time()
    start.wait()
    t0 = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(120)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    if errors:
        raise RuntimeError(f"a writer failed: {errors[0]!r}") from errors[0]
    done = sum(events)
    flat = [x for lat in latencies for x in lat]
    out = {"eps": done / wall, "p99_ms": percentile(flat, 0.99) * 1000 if flat else 0.0,
           "cpu_ms_per_event": cpu * 1000 / done if done else 0.0, "events": done}
    if grouped:
        stats = ledger.grouped().stats
        commits, appends = stats.commits - commits0, stats.appends - appends0
        out["appends_per_commit"] = appends / commits if commits else 0.0
    return out


def _library_chunk(params: dict[str, Any], writers: int, events: int) -> float:
    from ledger.bench.peer import library_writer, run_writers

    each = max(1, events // writers)
    return run_writers(library_writer, lambda i: (params, i, each), writers, timeout=300.0)


def run_group_bench(pg_url: str | None = None, *, writers: int = 16, rounds: int = 3, chunk: float = 2.0,
                    synchronous: str = "full", seed: int = 2026, library: bool = True,
                    progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The module docstring's sides and figures, on a temporary SQLite file or, with
    ``pg_url``, a temporary schema of that PostgreSQL database (dropped at the end)."""
    import sqlalchemy as sa

    from ledger.service import Ledger

    boards = _boards(seed)
    tmp = tempfile.TemporaryDirectory(prefix="ledger-group-")
    admin = None
    schema = "bench_g_" + uuid.uuid4().hex[:8]
    params: dict[str, Any] | None = None
    if pg_url:
        base = sa.engine.make_url(pg_url.replace("postgresql://", "postgresql+psycopg://", 1)
                                  if pg_url.startswith("postgresql://") else pg_url)
        admin = sa.create_engine(base)
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        url = base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
        if library:
            from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

            params = {"dbname": base.database, "host": base.host or "127.0.0.1", "port": base.port or 5432,
                      "user": base.username or "postgres", "password": base.password or "", "schema": schema}
            datastore = PostgresDatastore(**params)
            PostgresApplicationRecorder(datastore).create_table()
            datastore.close()
    else:
        url = f"sqlite:///{Path(tmp.name) / 'group.db'}" + ("" if synchronous == "full" else f"?synchronous={synchronous}")
    from ledger.bench.peer import quiet

    quiet()
    per_round: list[dict[str, dict[str, Any]]] = []
    loads: list[float] = []
    try:
        with Ledger.open(url, create=True) as ledger:
            if isinstance(ledger.store, Warming):
                ledger.store.warm()
            _chunk(ledger, boards, writers, min(chunk, 0.5), True, "warm-g")  # warm-ups, not counted
            _chunk(ledger, boards, writers, min(chunk, 0.5), False, "warm-l")
            sides = ("lone", "group")
            for r in range(rounds):
                figures: dict[str, dict[str, Any]] = {}
                for side in (sides if r % 2 == 0 else sides[::-1]):
                    figures[side] = _chunk(ledger, boards, writers, chunk, side == "group", f"{r}{side}")
                if params is not None:
                    eps = _library_chunk(params, writers, int(figures["group"]["events"]))
                    figures["library"] = {"eps": eps}
                per_round.append(figures)
                loads.append(round(os.getloadavg()[0], 2))
                if progress:
                    progress(f"round {r + 1}/{rounds}: load {loads[-1]}: "
                             + ", ".join(f"{s} {f['eps']:.0f} ev/s" for s, f in figures.items()))
    finally:
        tmp.cleanup()
        if admin is not None:
            with admin.begin() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            admin.dispose()

    def med(side: str, key: str) -> float | None:
        values = [f[side][key] for f in per_round if side in f and key in f[side]]
        return round(statistics.median(values), 2) if values else None

    def ratio(a: str, b: str) -> float | None:
        values = [f[a]["eps"] / f[b]["eps"] for f in per_round if a in f and b in f and f[b]["eps"]]
        return round(statistics.median(values), 2) if values else None

    out: dict[str, Any] = {"store": "postgresql" if pg_url else f"sqlite ({synchronous})", "writers": writers,
                           "rounds": rounds, "chunk_s": chunk, "cores": os.cpu_count(),
                           "load_1min_per_round": loads}
    for side in ("lone", "group", "library"):
        for key in ("eps", "p99_ms", "cpu_ms_per_event", "appends_per_commit"):
            value = med(side, key)
            if value is not None:
                out[f"{side}.{key}"] = value
    out["ratio.group_vs_lone"] = ratio("group", "lone")
    if params is not None:
        out["ratio.group_vs_library"] = ratio("group", "library")
        out["ratio.lone_vs_library"] = ratio("lone", "library")
    return out
