"""The project's benchmark (``cli.py bench``): figures printed as JSON.

N complete legal boards (about 65 facts each, plus what the engine emits) are
appended (a) one event per transaction and (b) one board per transaction,
then (c) every board is read back from the store and folded. Besides the
rates: a whole board logged event by event (``full_board_ms_p50``), and the
cost of one append near the start of a board (``append_event_ms_at_10``) and
at its end (``append_event_ms_at_end``), which must not grow with the board.
``--peer`` adds the ``eventsourcing`` library's figures (``ledger.bench.peer``)
and :func:`board_growth` (the cost per board at 200 and at 2,000 boards).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from ledger.bench.imports import large_import_figures  # issue 14: import_large_* keys
from ledger.bench.imports import real_import_figures  # issue 27: import_real_* keys (CPU and wall)
from ledger.service import Ledger, fold_events, parse_fact
from ledger.simulate import random_board


def percentile(values: list[float], q: float) -> float:
    """The value at quantile ``q`` (nearest rank) of ``values``; 0.0 when there are none."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def run_bench(boards: int = 200, db: str | None = None, seed: int = 2026,
              progress: bool = False, synchronous: str = "full") -> dict[str, Any]:
    rng = random.Random(seed)
    run = uuid.uuid4().hex[:8]
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="ledger-bench-")
        db = f"sqlite:///{Path(tmp.name) / 'bench.db'}" + \
            ("" if synchronous == "full" else f"?synchronous={synchronous}")
    ledger = Ledger.open(db, create=True)
    try:
        sims = [random_board(rng, tournament=f"bench-{run}", board=i % 32 + 1, table=str(i))
                for i in range(boards)]
        parsed = [[parse_fact(f, n) for n, f in enumerate(sim.facts, start=1)] for sim in sims]

        # (a) one event per transaction
        latencies: list[float] = []
        early: list[float] = []  # appends of a fact at seq 6-15 of its board
        late: list[float] = []  # the last 10 facts of each board
        board_ms: list[float] = []  # a whole board logged event by event
        events_a = 0
        t0 = time.perf_counter()
        for i, facts in enumerate(_progress(parsed, progress, "append, one event per transaction")):
            stream = f"bench/{run}/a/{i}"
            seq = 0
            this_board: list[float] = []
            for fact in facts:
                t = time.perf_counter()
                result = ledger.append(stream, [fact], expected_seq=seq)
                this_board.append((time.perf_counter() - t) * 1000)
                if 6 <= seq + 1 <= 15:
                    early.append(this_board[-1])
                seq = result.stored[-1].seq
                events_a += len(result.stored)
            latencies += this_board
            late += this_board[-10:]
            board_ms.append(sum(this_board))
        per_event_s = time.perf_counter() - t0

        # (b) one board per transaction
        events_b = 0
        t0 = time.perf_counter()
        for i, facts in enumerate(_progress(parsed, progress, "append, one board per transaction")):
            result = ledger.append(f"bench/{run}/b/{i}", facts, expected_seq=0)
            events_b += len(result.stored)
        per_board_s = time.perf_counter() - t0

        # (c) read back and fold every board
        fold_ms: list[float] = []
        events_per_board: list[int] = []
        events_c = 0
        t0 = time.perf_counter()
        streams = ledger.store.streams(prefix=f"bench/{run}/")
        for stream in _progress(streams, progress, "read back and fold"):
            stored = ledger.store.read(stream)
            t = time.perf_counter()
            state = fold_events(stored)
            fold_ms.append((time.perf_counter() - t) * 1000)
            assert state is not None and state.phase == "ended"
            events_c += len(stored)
            if "/a/" in stream:
                events_per_board.append(len(stored))
        replay_s = time.perf_counter() - t0
        imported = import_figures(ledger, run, skip=boards < IMPORT_MIN_BOARDS)
        imported |= large_import_figures(ledger, run, boards, skip=boards < IMPORT_MIN_BOARDS)
        imported |= real_import_figures(ledger, run, skip=boards < IMPORT_MIN_BOARDS)
    finally:
        ledger.close()
        if tmp is not None:
            tmp.cleanup()
    figures = {
        "boards": boards,
        "events": events_a,
        "store": db.split(":", 1)[0] if tmp is None else "sqlite (temporary file)",
        "sqlite_synchronous": synchronous if tmp is not None else None,
        "append_per_event_eps": round(events_a / per_event_s, 1),
        "append_per_board_eps": round(events_b / per_board_s, 1),
        "replay_eps": round(events_c / replay_s, 1),
        "append_event_ms_p50": round(statistics.median(latencies), 3),
        "append_event_ms_p99": round(percentile(latencies, 0.99), 3),
        "fold_board_ms_p50": round(statistics.median(fold_ms), 3),
        "fold_boards_per_s": round(len(fold_ms) / (sum(fold_ms) / 1000), 1),
        "board_events_p50": round(statistics.median(events_per_board), 1),
        "full_board_ms_p50": round(statistics.median(board_ms), 3),
        "append_event_ms_at_10": round(statistics.median(early), 3),
        "append_event_ms_at_end": round(statistics.median(late), 3),
    }
    return figures | imported | claim_floor_figures(seed)


CLAIM_FLOOR_POSITIONS = 500
"""Random deals timed by :func:`claim_floor_figures` (issue 22), each for both sides."""

CLAIM_FLOOR_AT_LIMIT_POSITIONS = 200
"""Random deals timed at :data:`ledger.laws.fewest.EXACT_LIMIT` tricks when it is above five."""


def claim_floor_figures(seed: int = 2026, positions: int = CLAIM_FLOOR_POSITIONS,
                        tricks: int = 5, at_limit: int = CLAIM_FLOOR_AT_LIMIT_POSITIONS) -> dict[str, Any]:
    """The cost of ``G(side)`` (``ledger.laws.fewest``, Laws 69B and 71) with ``tricks`` tricks left
    (issue 22: never slower than 50 ms at five): ``positions`` random deals (``tricks`` cards a hand,
    the strains in turn, spades to no-trumps, a random leader), each side's floor computed once.
    The median, p99 and max in ms (wall clock), the same in CPU time, the machine's load
    beside them (``os.getloadavg``: other work slows the wall clock, not the CPU time), and the
    slowest position (to replay it, e.g. under callgrind); the same at the engine's exact limit
    (``claim_floor_at_limit``, ``at_limit`` deals) when it is above ``tricks``."""
    from ledger.laws.fewest import EXACT_LIMIT

    figures = _claim_floor_run(seed, positions, tricks)
    figures["claim_floor_limit"] = EXACT_LIMIT
    figures["claim_floor_at_limit"] = None
    if EXACT_LIMIT > tricks and at_limit:
        deeper = _claim_floor_run(seed, at_limit, EXACT_LIMIT)
        figures["claim_floor_at_limit"] = {key.removeprefix("claim_floor_"): value for key, value in deeper.items()}
    return figures


def _claim_floor_run(seed: int, positions: int, tricks: int) -> dict[str, Any]:
    from ledger.bridge import DECK, SEATS, SUITS, Side
    from ledger.laws.fewest import fewest_tricks

    rng = random.Random(seed)
    strains = list(SUITS) + [None]
    times: list[float] = []
    cpu: list[float] = []
    worst: dict[str, Any] = {}
    for i in range(positions):
        cards = rng.sample(DECK, 4 * tricks)
        hands = [cards[j * tricks:(j + 1) * tricks] for j in range(4)]
        trump = strains[i % len(strains)]
        leader = rng.choice(SEATS)
        for side in (Side.parse("NS"), Side.parse("EW")):
            t, c = time.perf_counter(), time.process_time()
            floor = fewest_tricks(hands, [], leader, trump, side)
            ms, cpu_ms = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
            if not times or ms > max(times):
                worst = {**{str(seat): " ".join(str(card) for card in hands[seat.index]) for seat in SEATS},
                         "leader": str(leader), "strain": "NT" if trump is None else str(trump),
                         "side": str(side), "floor": floor, "ms": round(ms, 3), "cpu_ms": round(cpu_ms, 3)}
            times.append(ms)
            cpu.append(cpu_ms)
    return {"claim_floor_tricks": tricks, "claim_floor_positions": len(times),
            "claim_floor_ms_p50": round(statistics.median(times), 3),
            "claim_floor_ms_p99": round(percentile(times, 0.99), 3),
            "claim_floor_ms_max": round(max(times), 3),
            "claim_floor_cpu_ms_p50": round(statistics.median(cpu), 3),
            "claim_floor_cpu_ms_p99": round(percentile(cpu, 0.99), 3),
            "claim_floor_cpu_ms_max": round(max(cpu), 3),
            "claim_floor_load": [round(load, 2) for load in os.getloadavg()],
            "claim_floor_worst": worst}


REALBRIDGE = Path(__file__).resolve().parents[3] / "shared" / "bridge-data" / \
    "realbridge-2021-online-qual-open-r2.pbn"


#: Smoke runs (fewer boards than this, as the tests run) skip the import figures
#: (they take a few seconds): the keys are there, with null values.
IMPORT_MIN_BOARDS = 20


def import_figures(ledger: Ledger, run: str, skip: bool = False) -> dict[str, Any]:
    """Import of the RealBridge file (299 records, 14,323 events: one append per record
    through the ordinary append path, the records batched into store transactions)
    into the bench's store, then every imported stream read back and folded.

    ``import_eps`` (events written per second, the issue 14 target is 5,000),
    ``import_records_per_s`` and ``import_replay_eps`` (events per second); None
    when the file is not beside the repository (``../shared/bridge-data``).
    """
    from ledger.records.games import import_text

    if skip or not REALBRIDGE.exists():
        return {"import_records": 0, "import_events": 0, "import_eps": None,
                "import_records_per_s": None, "import_replay_eps": None}
    text = REALBRIDGE.read_text(encoding="utf-8")
    t0 = time.perf_counter()
    report = import_text(ledger, text, "pbn", tournament=f"bench-import-{run}")
    import_s = time.perf_counter() - t0
    events = 0
    t0 = time.perf_counter()
    for item in report.imported:
        stored = ledger.store.read(item.stream)
        fold_events(stored)
        events += len(stored)
    replay_s = time.perf_counter() - t0
    return {
        "import_records": len(report.imported),
        "import_events": report.events,
        "import_eps": round(report.events / import_s, 1),
        "import_records_per_s": round(len(report.imported) / import_s, 1),
        "import_replay_eps": round(events / replay_s, 1),
    }


def _progress(items, enabled: bool, label: str):
    if not enabled:
        return items
    from rich.progress import track

    return track(items, description=label, transient=True)


def board_growth(boards: int = 2000, sample: int = 200, seed: int = 2026) -> dict[str, Any]:
    """Whole boards appended one per transaction into one fresh store: the mean
    ms per board over the first ``sample`` boards and over the last ``sample``
    (the cost must not grow with the size of the store)."""
    rng = random.Random(seed)
    sims = [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=i % 32 + 1).facts, start=1)]
            for i in range(sample)]
    with tempfile.TemporaryDirectory(prefix="ledger-growth-") as tmp:
        ledger = Ledger.open(f"sqlite:///{Path(tmp) / 'growth.db'}", create=True)
        try:
            times: list[float] = []
            cpu: list[float] = []
            for i in range(boards):
                t, c = time.perf_counter(), time.process_time()
                ledger.append(f"growth/{i}", sims[i % sample], expected_seq=0)
                times.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
        finally:
            ledger.close()
    # the CPU time is the figure that other processes on the machine do not move
    return {f"board_ms_at_{sample}": round(statistics.mean(times[:sample]), 3),
            f"board_ms_at_{boards}": round(statistics.mean(times[-sample:]), 3),
            f"board_cpu_ms_at_{sample}": round(statistics.mean(cpu[:sample]), 3),
            f"board_cpu_ms_at_{boards}": round(statistics.mean(cpu[-sample:]), 3)}
