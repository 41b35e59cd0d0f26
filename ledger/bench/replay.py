"""``cli.py bench --replay-scaling`` (issue 28, item 5): the store replayed (``replay
--store``: every stream read back, its chain checked, folded from seq 1; ``ledger.replay``)
on N worker processes against 1, and per core against the ``eventsourcing`` library's
application replay (``repository.get`` of an aggregate, as ``bench --interleaved`` runs it).

One store (a temporary SQLite file, WAL) holds ``boards`` random legal boards. Two pools of
worker processes, one of 1 and one of N, are started and warmed (modules imported, the store
opened) before anything is timed, so the figures are the replay's, not the start of Python.
Each round times, in an order rotated from round to round: the whole store replayed by the
pool of 1, by the pool of N, in this process, and the library's application replay for
``chunk`` seconds in this process. A figure is the median of its rounds; a ratio the median
of the per-round ratios (each round's figures were taken under the same load); the
1-minute load average is printed beside every round. The workers report their own CPU
time, so the CPU per event is the replay's wherever it ran.

The issue's targets: N processes >= 0.8 N times one (``efficiency`` >= 0.8), and per core
>= 1x the library's application replay (``per_core_vs_application``). Beside them, in the
same rounds and pools, the machine's own ceiling: a bare Python loop on the pool of N
against the pool of 1 (``machine_scaling_n_over_1``; on a machine whose cores other work
keeps busy it is well below N), and the replay's scaling over it (``scaling_vs_machine``).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

from ledger.parallel import CHUNK, chunks, default_jobs, spawn_pool

SIDES = ("one_process", "n_processes", "in_process", "application", "spin_one_process", "spin_n_processes")

SPIN = 2_000_000
"""Iterations of a bare Python loop per task of the machine's own ceiling (``spin_*``)."""


def spin(iterations: int) -> tuple[int, float]:
    """A worker's task of pure CPU (no I/O, no memory traffic): what N processes can get from
    this machine now, beside what the replay got; (iterations / 1,000, CPU seconds)."""
    c0 = time.process_time()
    x = 0
    for i in range(iterations):
        x += i
    return iterations // 1000, time.process_time() - c0


def timed_replay(url: str, names: list[str]) -> tuple[int, float]:
    """A worker's task: ``names`` replayed; (events, CPU seconds this process spent)."""
    from ledger.replay import replay_streams

    c0 = time.process_time()
    done = replay_streams(url, names)
    return sum(r.events for r in done), time.process_time() - c0


def _warm(url: str, pause: float) -> int:
    """Import the replay and open the store in a worker (one per worker: the pause keeps
    each worker on its own warm-up task)."""
    from ledger.replay import worker_ledger

    worker_ledger(url)
    time.sleep(pause)
    return os.getpid()


def _fill(url: str, boards: int, seed: int) -> list[str]:
    from ledger.service import Ledger
    from ledger.simulate import random_board

    rng = random.Random(seed)
    names = [f"r/b{i:05d}" for i in range(boards)]
    with Ledger.open(url, create=True) as ledger:
        with ledger.batch(names):
            for i, name in enumerate(names):
                ledger.append(name, random_board(rng, board=i % 32 + 1).facts)
        return ledger.store.streams("r/")


def _pool_side(pool: ProcessPoolExecutor, url: str, parts: list[list[str]]) -> Callable[[], tuple[int, float]]:
    def run() -> tuple[int, float]:
        answers = list(pool.map(timed_replay, [url] * len(parts), parts))
        return sum(a[0] for a in answers), sum(a[1] for a in answers)
    return run


def _spin_side(pool: ProcessPoolExecutor, tasks: int) -> Callable[[], tuple[int, float]]:
    def run() -> tuple[int, float]:
        answers = list(pool.map(spin, [SPIN] * tasks))
        return sum(a[0] for a in answers), sum(a[1] for a in answers)
    return run


def _in_process(url: str, names: list[str]) -> Callable[[], tuple[int, float]]:
    def run() -> tuple[int, float]:
        return timed_replay(url, names)
    return run


def _application(folder: Path, seed: int, chunk: float) -> tuple[Any, Callable[[], tuple[int, float]]]:
    from ledger.bench.interleaved import ApplicationPath

    app = ApplicationPath(folder, "full", seed)
    runners = app.chunks()
    runners["per_batch"](min(chunk, 1.0))  # aggregates of 100 events to read back

    def run() -> tuple[int, float]:
        c0 = time.process_time()
        done = runners["replay"](chunk)
        return done, time.process_time() - c0
    return app, run


def run_replay_scaling(boards: int = 200, jobs: int | None = None, rounds: int = 3, chunk: float = 2.0,
                       seed: int = 2026, library: bool = True,
                       progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The figures of the module docstring, as one JSON-ready object."""
    n = jobs or default_jobs()
    with tempfile.TemporaryDirectory(prefix="ledger-replay-") as tmp:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'replay.db'}"
        names = _fill(url, boards, seed)
        parts = chunks(names, max(1, min(CHUNK, len(names) // (4 * n) or 1)))
        if progress:
            progress(f"{len(names)} boards stored; starting 1 + {n} worker processes")
        one, many = spawn_pool(1), spawn_pool(n)
        app = None
        try:
            list(one.map(_warm, [url], [0.0]))
            list(many.map(_warm, [url] * n, [0.5] * n))
            sides: dict[str, Callable[[], tuple[int, float]]] = {
                "one_process": _pool_side(one, url, parts), "n_processes": _pool_side(many, url, parts),
                "in_process": _in_process(url, names),
                "spin_one_process": _spin_side(one, 2 * n), "spin_n_processes": _spin_side(many, 2 * n)}
            if library:
                app, sides["application"] = _application(folder, seed, chunk)
            for side in sides.values():  # a warm-up run each, not counted
                side()
            per_round, loads = _rounds(sides, rounds, progress)
        finally:
            from ledger.replay import forget

            one.shutdown()
            many.shutdown()
            forget(url)  # the in-process side's
            if app is not None:
                app.close()
    return {"replay_scaling": _figures(per_round, loads, n, len(names), library, rounds, chunk)}


def _rounds(sides: dict[str, Callable[[], tuple[int, float]]], rounds: int,
            progress: Callable[[str], None] | None) -> tuple[list[dict[str, float]], list[float]]:
    order = list(sides)
    per_round: list[dict[str, float]] = []
    loads: list[float] = []
    for r in range(rounds):
        figures: dict[str, float] = {}
        shift = r % len(order)
        for name in order[shift:] + order[:shift]:
            t0 = time.perf_counter()
            events, cpu = sides[name]()
            wall = time.perf_counter() - t0
            figures[f"{name}.eps"] = events / wall
            figures[f"{name}.cpu_us_per_event"] = cpu / events * 1e6 if events else 0.0
            figures[f"{name}.events"] = events
        per_round.append(figures)
        loads.append(round(os.getloadavg()[0], 2))
        if progress:
            progress(f"round {r + 1}/{rounds}: load {loads[-1]}; "
                     + ", ".join(f"{k} {v:.0f}" for k, v in figures.items() if k.endswith(".eps")))
    return per_round, loads


def _figures(per_round: list[dict[str, float]], loads: list[float], n: int, boards: int, library: bool,
             rounds: int, chunk: float) -> dict[str, Any]:
    def median(key: str) -> float:
        return round(statistics.median(f[key] for f in per_round), 1)

    def ratio(a: str, b: str, scale: float = 1.0) -> float:
        return round(statistics.median(f[a] / f[b] * scale for f in per_round), 3)

    def spread(a: str, b: str, scale: float = 1.0) -> list[float]:
        values = sorted(f[a] / f[b] * scale for f in per_round)
        return [round(values[0], 3), round(values[-1], 3)]

    sides = [s for s in SIDES if f"{s}.eps" in per_round[0]]
    out: dict[str, Any] = {
        "what": "every stream read back, its chain checked, folded from seq 1 (replay --store)",
        "jobs": n, "cores": os.cpu_count(), "boards": boards,
        "events": int(per_round[0]["one_process.events"]), "rounds": rounds,
        "load_1min_per_round": loads,
        "medians_eps": {s: median(f"{s}.eps") for s in sides if not s.startswith("spin")},
        "cpu_us_per_event": {s: median(f"{s}.cpu_us_per_event") for s in sides if not s.startswith("spin")},
        "scaling_n_over_1": ratio("n_processes.eps", "one_process.eps"),
        "efficiency": ratio("n_processes.eps", "one_process.eps", 1 / n),
        "efficiency_spread": spread("n_processes.eps", "one_process.eps", 1 / n),
        "target_efficiency": 0.8,
        "machine_scaling_n_over_1": ratio("spin_n_processes.eps", "spin_one_process.eps"),
        "machine_scaling_spread": spread("spin_n_processes.eps", "spin_one_process.eps"),
        "scaling_vs_machine": round(statistics.median(
            (f["n_processes.eps"] / f["one_process.eps"]) / (f["spin_n_processes.eps"] / f["spin_one_process.eps"])
            for f in per_round), 3),
    }
    if library:
        out |= {
            "application_chunk_s": chunk,
            "per_core_vs_application": ratio("n_processes.eps", "application.eps", 1 / n),
            "per_core_vs_application_spread": spread("n_processes.eps", "application.eps", 1 / n),
            "one_process_vs_application": ratio("one_process.eps", "application.eps"),
            "in_process_vs_application": ratio("in_process.eps", "application.eps"),
            "cpu_per_event_application_over_ours": round(
                median("application.cpu_us_per_event") / median("one_process.cpu_us_per_event"), 3),
            "target_per_core_vs_application": 1.0,
        }
    return out
