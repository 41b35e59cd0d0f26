"""CPU cost of the append path, per event (``python -m ledger.bench.cpu``).

The machine this runs on is shared, so wall time means little: this measures
``time.process_time`` (the process's own CPU, the fsync wait and the other
processes excluded) of a fixed workload, N random legal boards
(:mod:`ledger.simulate`) written to a fresh SQLite file (WAL, synchronous=FULL):

* ``append_event_us``: each board appended one event per transaction;
* ``board_tx_us``: each board appended in one transaction (per event);
* ``replay_us``: every stream read back and folded (per event).

``--profile`` adds a cProfile breakdown of the per-event append: the cumulative
CPU of the main steps of :meth:`ledger.service.Ledger.append`, per event.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from ledger.service import Ledger, fold_events, parse_fact
from ledger.simulate import random_board

#: (label, file suffix, function name) of the steps reported by ``--profile``.
STEPS = (
    ("append (all)", "ledger/service.py", "append"),
    ("transaction open/commit", "ledger/store/sql.py", "transaction"),
    ("head query", "ledger/store/sql.py", "head"),
    ("fold batch", "ledger/service.py", "_fold_batch"),
    ("checks", "ledger/checks.py", "check_fact"),
    ("fold step (evolve)", "projections/table.py", "evolve"),
    ("engine reconcile", "ledger/engine.py", "reconcile"),
    ("envelope + hash", "ledger/service.py", "_stored"),
    ("event to_data", "ledger/events.py", "to_data"),
    ("event_hash", "ledger/hashing.py", "event_hash"),
    ("insert (rows, tree, head)", "ledger/store/sql.py", "insert"),
    ("tree rows", "ledger/store/sql.py", "_tree_rows"),
    ("snapshot dump", "projections/snapshot.py", "dump"),
    ("log", "structlog/_native.py", "meth"),
)


def _workload(boards: int, seed: int) -> list[list[Any]]:
    rng = random.Random(seed)
    return [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=i % 32 + 1, table=str(i)).facts,
                                                   start=1)] for i in range(boards)]


def run(boards: int = 30, seed: int = 2026, profile: bool = False, synchronous: str = "full",
        dump: str | None = None) -> dict[str, Any]:
    parsed = _workload(boards, seed)
    out: dict[str, Any] = {"boards": boards}
    with tempfile.TemporaryDirectory(prefix="ledger-cpu-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'cpu.db'}" + ("" if synchronous == "full" else f"?synchronous={synchronous}")
        with Ledger.open(url, create=True) as ledger:
            ledger.append("warm/up", parsed[0][:3], expected_seq=0)  # the write connection, imports
            prof = cProfile.Profile(time.process_time) if profile or dump else None
            events = 0
            c0, u0 = time.process_time(), os.times()
            if prof:
                prof.enable()
            for i, facts in enumerate(parsed):
                seq = 0
                for fact in facts:
                    result = ledger.append(f"a/{i}", [fact], expected_seq=seq)
                    seq = result.stored[-1].seq
                    events += len(result.stored)
            if prof:
                prof.disable()
            out["append_event_us"] = round((time.process_time() - c0) / events * 1e6, 1)
            u1 = os.times()
            out["append_event_user_us"] = round((u1.user - u0.user) / events * 1e6, 1)
            out["append_event_sys_us"] = round((u1.system - u0.system) / events * 1e6, 1)
            out["events"] = events
            c0 = time.process_time()
            for i, facts in enumerate(parsed):
                ledger.append(f"b/{i}", facts, expected_seq=0)
            out["board_tx_us"] = round((time.process_time() - c0) / events * 1e6, 1)
            c0 = time.process_time()
            n = 0
            for stream in ledger.store.streams(prefix="a/"):
                stored = ledger.store.read(stream)
                fold_events(stored)
                n += len(stored)
            out["replay_us"] = round((time.process_time() - c0) / n * 1e6, 1)
    if prof is not None:
        out["profile_us_per_event"] = breakdown(prof, events)
        if dump:
            prof.dump_stats(dump)
    return out


def breakdown(prof: cProfile.Profile, events: int) -> dict[str, float]:
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]  # undocumented table, absent from typeshed
    out: dict[str, float] = {}
    for label, suffix, name in STEPS:
        total = sum(ct for (file, _, func), (_, _, _, ct, _) in stats.items()
                    if func == name and file.endswith(suffix))
        out[label] = round(total / events * 1e6, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--dump", help="write the cProfile stats of the per-event append to this file")
    parser.add_argument("--sync", default="full")
    args = parser.parse_args()
    from ledger.cli import configure_logging

    configure_logging("WARNING")  # as `cli.py bench` runs: the append's info lines filtered out
    print(json.dumps(run(args.boards, args.seed, args.profile, args.sync, args.dump), indent=1))


if __name__ == "__main__":
    main()
