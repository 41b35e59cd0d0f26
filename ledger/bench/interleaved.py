"""``cli.py bench --interleaved``: the ledger and the ``eventsourcing`` library measured
in alternating chunks in one process, so that the machine's load, whatever it is, weighs
on every side alike (issue 28, item 7).

Sides, each on a fresh SQLite file of its own (WAL, ``synchronous`` FULL unless asked
otherwise: a commit is on disk when it returns):

* ``ours``: the whole append path (``Ledger.append``: checks, fold, ruling engine, hash
  chain, Merkle tree), boards of :func:`ledger.simulate.random_board`;
* ``recorder``: the library's bare ``SQLiteApplicationRecorder`` (no aggregate, no mapper);
* ``application``: the library's whole application path (an ``Aggregate`` with a
  ``CardPlayed`` event, its mapper and JSON transcoder, ``Application.save`` and
  ``repository.get``);
* the raw ceilings: ``ceiling_row`` (one one-row INSERT and COMMIT), ``ceiling_shape``
  (our storage shape's raw commit: the event row, its Merkle leaf and the stream head,
  no logic) and ``ceiling_read`` (SELECT of a stream plus ``json.loads`` of each row).

Three workloads: ``per_event`` (one event per transaction), ``per_batch`` (a board, or
100 events, per transaction) and ``replay`` (a stream read back and decoded: folded for
``ours``, rebuilt as an aggregate for ``application``). Each round runs every side for
``chunk`` seconds per workload, the sides' order rotated from round to round; a figure
is the median of its rounds, and a ratio is the median of the per-round ratios (each
round's two figures were taken under the same load). ``os.getloadavg()`` is printed
beside every round: the figures are only as steady as the machine.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator

WORKLOADS = ("per_event", "per_batch", "replay")
EVENTS = 100  # the library's streams: events per stream (a board's size, near enough)

Chunk = Callable[[float], int]
"""Run for about this many seconds; return the events done."""


def _runner(units: Iterator[Callable[[], int]]) -> Chunk:
    def run(seconds: float) -> int:
        return _timed(units, seconds)
    return run


def _timed(units: Iterator[Callable[[], int]], seconds: float) -> int:
    """Run units until ``seconds`` have passed; the events they did."""
    done, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        done += next(units)()
    return done


# --- ours ---------------------------------------------------------------------------------

class Ours:
    name = "ours"

    def __init__(self, folder: Path, synchronous: str, seed: int) -> None:
        from ledger.service import Ledger, parse_fact
        from ledger.simulate import random_board

        url = f"sqlite:///{folder / 'ours.db'}" + ("" if synchronous == "full" else f"?synchronous={synchronous}")
        self.ledger = Ledger.open(url, create=True)
        rng = random.Random(seed)
        self.boards = [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=i % 32 + 1).facts, 1)]
                       for i in range(40)]
        self.count = itertools.count()
        self.written: list[str] = []

    def _event_units(self) -> Iterator[Callable[[], int]]:
        for i in itertools.count():
            stream, seq = f"e/{next(self.count)}", 0
            for fact in self.boards[i % len(self.boards)]:
                def one(stream: str = stream, fact: Any = fact) -> int:
                    nonlocal seq
                    result = self.ledger.append(stream, [fact], expected_seq=seq)
                    seq = result.stored[-1].seq
                    return len(result.stored)
                yield one

    def _board_units(self) -> Iterator[Callable[[], int]]:
        for i in itertools.count():
            def board(i: int = i) -> int:
                stream = f"b/{next(self.count)}"
                result = self.ledger.append(stream, self.boards[i % len(self.boards)], expected_seq=0)
                self.written.append(stream)
                return len(result.stored)
            yield board

    def _replay_units(self) -> Iterator[Callable[[], int]]:
        from ledger.service import fold_events

        for i in itertools.count():
            def replay(i: int = i) -> int:
                stored = self.ledger.store.read(self.written[i % len(self.written)])
                fold_events(stored)
                return len(stored)
            yield replay

    def chunks(self) -> dict[str, Chunk]:
        units = {"per_event": self._event_units(), "per_batch": self._board_units(),
                 "replay": self._replay_units()}
        return {w: _runner(u) for w, u in units.items()}

    def close(self) -> None:
        self.ledger.close()


# --- the library ----------------------------------------------------------------------------

class Recorder:
    """The library's bare SQLite application recorder."""

    name = "recorder"

    def __init__(self, folder: Path, synchronous: str, seed: int) -> None:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

        self.datastore = SQLiteDatastore(db_name=str(folder / "recorder.db"), pool_size=2)
        create = self.datastore.pool._create_connection

        def with_sync() -> Any:
            connection = create()
            connection._sqlite_conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            return connection

        self.datastore.pool._create_connection = with_sync  # type: ignore[method-assign]  # no pragma option: eventsourcing's private hook
        self.recorder = SQLiteApplicationRecorder(self.datastore)
        self.recorder.create_table()
        self.stored = StoredEvent
        self.state = json.dumps({"seat": "N", "card": "H7", "n": 0}).encode()
        self.written: list[uuid.UUID] = []

    def _event(self, sid: uuid.UUID, v: int) -> Any:
        return self.stored(sid, v, "ledger.events:CardPlayed", self.state)

    def chunks(self) -> dict[str, Chunk]:
        def events() -> Iterator[Callable[[], int]]:
            while True:
                sid = uuid.uuid4()
                for v in range(1, EVENTS + 1):
                    def one(sid: uuid.UUID = sid, v: int = v) -> int:
                        self.recorder.insert_events([self._event(sid, v)])
                        return 1
                    yield one

        def batches() -> Iterator[Callable[[], int]]:
            while True:
                def batch() -> int:
                    sid = uuid.uuid4()
                    self.recorder.insert_events([self._event(sid, v) for v in range(1, EVENTS + 1)])
                    self.written.append(sid)
                    return EVENTS
                yield batch

        def replays() -> Iterator[Callable[[], int]]:
            for i in itertools.count():
                def replay(i: int = i) -> int:
                    rows = self.recorder.select_events(self.written[i % len(self.written)])
                    for row in rows:
                        json.loads(row.state)
                    return len(rows)
                yield replay

        units = {"per_event": events(), "per_batch": batches(), "replay": replays()}
        return {w: _runner(u) for w, u in units.items()}

    def synchronous(self) -> int:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute("PRAGMA synchronous")
            return int(cursor.fetchone()[0])

    def close(self) -> None:
        self.datastore.close()


@functools.cache
def _board_aggregate() -> Any:
    """The library's aggregate for a board (made once: the library registers its topic)."""
    from eventsourcing.domain import Aggregate, event

    class Board(Aggregate):
        def __init__(self) -> None:
            self.cards: list[str] = []

        @event("CardPlayed")
        def play(self, seat: str, card: str, n: int) -> None:
            self.cards.append(card)

    return Board


class ApplicationPath:
    """The library's whole application path: aggregate, mapper, transcoder, recorder."""

    name = "application"

    def __init__(self, folder: Path, synchronous: str, seed: int) -> None:
        from eventsourcing.application import Application

        self.app: Any = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                    "SQLITE_DBNAME": str(folder / "application.db")})
        datastore = getattr(self.app.recorder, "datastore")  # the SQLite recorder's; the base type does not name it
        create = datastore.pool._create_connection

        def with_sync() -> Any:
            connection = create()
            connection._sqlite_conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            return connection

        datastore.pool._create_connection = with_sync
        self.board = _board_aggregate()
        self.written: list[Any] = []

    def chunks(self) -> dict[str, Chunk]:
        def events() -> Iterator[Callable[[], int]]:
            while True:
                board = self.board()
                self.app.save(board)
                yield lambda: 1
                for n in range(1, EVENTS):
                    def one(board: Any = board, n: int = n) -> int:
                        board.play("N", "H7", n)
                        self.app.save(board)
                        return 1
                    yield one

        def batches() -> Iterator[Callable[[], int]]:
            while True:
                def batch() -> int:
                    board = self.board()
                    for n in range(1, EVENTS):
                        board.play("N", "H7", n)
                    self.app.save(board)
                    self.written.append(board.id)
                    return EVENTS
                yield batch

        def replays() -> Iterator[Callable[[], int]]:
            for i in itertools.count():
                def replay(i: int = i) -> int:
                    board: Any = self.app.repository.get(self.written[i % len(self.written)])
                    return len(board.cards) + 1
                yield replay

        units = {"per_event": events(), "per_batch": batches(), "replay": replays()}
        return {w: _runner(u) for w, u in units.items()}

    def close(self) -> None:
        self.app.close()


# --- the raw ceilings ------------------------------------------------------------------------

class Ceilings:
    """What SQLite itself allows on this machine now: a one-row commit, our storage shape's
    raw commit (event row, Merkle leaf, stream head; no logic), and SELECT plus json.loads."""

    name = "ceiling"

    def __init__(self, folder: Path, synchronous: str, seed: int) -> None:
        from ledger.store.sql import open_store

        path = folder / "ceiling.db"
        open_store(f"sqlite:///{path}", create=True).close()  # our schema, triggers included
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        self.db.execute("CREATE TABLE one (x INTEGER NOT NULL)")
        self.leaf = itertools.count()
        self.data = json.dumps({"seat": "N", "card": "H7"}, separators=(",", ":"), sort_keys=True)
        self.streams: list[str] = []

    def _row(self, stream: str, seq: int) -> tuple[Any, ...]:
        h = os.urandom(32).hex()
        return (stream, seq, uuid.uuid4().hex, "CardPlayed", 1, self.data, "table", "t1",
                "2026-11-28T00:00:00.000000Z", "[]", None, "0" * 64, h)

    def chunks(self) -> dict[str, Chunk]:
        db = self.db

        def one_row() -> Iterator[Callable[[], int]]:
            while True:
                def unit() -> int:
                    db.execute("BEGIN IMMEDIATE")
                    db.execute("INSERT INTO one (x) VALUES (1)")
                    db.execute("COMMIT")
                    return 1
                yield unit

        def shape() -> Iterator[Callable[[], int]]:
            for s in itertools.count():
                stream = f"c/{s}"
                self.streams.append(stream)
                for seq in range(1, EVENTS + 1):
                    def unit(stream: str = stream, seq: int = seq) -> int:
                        row = self._row(stream, seq)
                        db.execute("BEGIN IMMEDIATE")
                        cur = db.execute("INSERT INTO events (stream, seq, id, type, v, data, actor_role, "
                                         "actor_name, at, causes, law, prev, hash) VALUES "
                                         "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                        db.execute("INSERT INTO merkle_leaves (leaf_index, position, stream, seq, hash) "
                                   "VALUES (?, ?, ?, ?, ?)", (next(self.leaf), cur.lastrowid, stream, seq, row[-1]))
                        db.execute("INSERT INTO stream_heads (stream, seq, hash) VALUES (?, ?, ?) ON CONFLICT "
                                   "(stream) DO UPDATE SET seq = excluded.seq, hash = excluded.hash",
                                   (stream, seq, row[-1]))
                        db.execute("COMMIT")
                        return 1
                    yield unit

        def read() -> Iterator[Callable[[], int]]:
            for i in itertools.count():
                def unit(i: int = i) -> int:
                    rows = db.execute("SELECT position, stream, seq, id, type, v, data, actor_role, actor_name, "
                                      "at, causes, law, prev, hash FROM events WHERE stream = ? ORDER BY seq",
                                      (self.streams[i % max(1, len(self.streams) - 1)],)).fetchall()
                    for row in rows:
                        json.loads(row[6])
                    return len(rows)
                yield unit

        return {"row": _runner(one_row()), "shape": _runner(shape()), "read": _runner(read())}

    def close(self) -> None:
        self.db.close()


# --- the run --------------------------------------------------------------------------------

SIDES = ("ours", "recorder", "application", "ceiling_row", "ceiling_shape", "ceiling_read")
RATIOS = {
    # name: (numerator (side, workload), denominator (side, workload))
    "per_event_vs_recorder": (("ours", "per_event"), ("recorder", "per_event")),
    "per_event_vs_application": (("ours", "per_event"), ("application", "per_event")),
    "per_event_vs_shape_ceiling": (("ours", "per_event"), ("ceiling_shape", "per_event")),
    "shape_ceiling_vs_row_ceiling": (("ceiling_shape", "per_event"), ("ceiling_row", "per_event")),
    "per_board_vs_recorder_batch": (("ours", "per_batch"), ("recorder", "per_batch")),
    "per_board_vs_application_batch": (("ours", "per_batch"), ("application", "per_batch")),
    "replay_vs_recorder": (("ours", "replay"), ("recorder", "replay")),
    "replay_vs_application": (("ours", "replay"), ("application", "replay")),
    "replay_vs_read_ceiling": (("ours", "replay"), ("ceiling_read", "replay")),
}


def _tasks(sides: dict[str, Any]) -> dict[tuple[str, str], Chunk]:
    """(side, workload) -> chunk runner; the ceilings as sides of their own."""
    tasks: dict[tuple[str, str], Chunk] = {}
    for name, side in sides.items():
        chunks = side.chunks()
        if name == "ceiling":
            tasks[("ceiling_row", "per_event")] = chunks["row"]
            tasks[("ceiling_shape", "per_event")] = chunks["shape"]
            tasks[("ceiling_read", "replay")] = chunks["read"]
        else:
            tasks.update({(name, w): chunks[w] for w in WORKLOADS})
    return tasks


def run_interleaved(rounds: int = 5, chunk: float = 2.0, synchronous: str = "full", seed: int = 2026,
                    library: bool = True, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every (side, workload) for ``chunk`` seconds per round, ``rounds`` rounds, the order
    rotated each round; medians and median per-round ratios (module docstring)."""
    with tempfile.TemporaryDirectory(prefix="ledger-interleaved-") as tmp:
        folder = Path(tmp)
        classes: list[Any] = [Ours, Ceilings] + ([Recorder, ApplicationPath] if library else [])
        sides = {cls.name: cls(folder, synchronous, seed) for cls in classes}
        try:
            tasks = _tasks(sides)
            order = [key for w in WORKLOADS for key in tasks if key[1] == w]
            # a warm-up chunk each (and the streams the replays read), not counted
            for key in order:
                tasks[key](min(chunk, 0.3))
            per_round: list[dict[str, float]] = []
            loads: list[float] = []
            for r in range(rounds):
                figures: dict[str, float] = {}
                shift = r % len(order)
                for side, workload in order[shift:] + order[:shift]:
                    t0 = time.perf_counter()
                    done = tasks[(side, workload)](chunk)
                    figures[f"{side}.{workload}"] = done / (time.perf_counter() - t0)
                per_round.append(figures)
                loads.append(round(os.getloadavg()[0], 2))
                if progress:
                    progress(f"round {r + 1}/{rounds}: load {loads[-1]}")
            synchronous_levels = {"recorder": sides["recorder"].synchronous()} if library else {}
        finally:
            for side in sides.values():
                side.close()
    keys = per_round[0].keys()
    medians = {k: round(statistics.median(fig[k] for fig in per_round), 1) for k in keys}
    ratios: dict[str, float | None] = {}
    for name, ((a, wa), (b, wb)) in RATIOS.items():
        ka, kb = f"{a}.{wa}", f"{b}.{wb}"
        if ka in keys and kb in keys:
            ratios[name] = round(statistics.median(fig[ka] / fig[kb] for fig in per_round), 3)
        else:
            ratios[name] = None
    return {"interleaved": {"rounds": rounds, "chunk_s": chunk, "sqlite_synchronous": synchronous,
                            "cores": os.cpu_count(), "load_1min_per_round": loads,
                            "medians_eps": medians, "ratios_median": ratios,
                            "ratio_spread": {name: _spread(per_round, spec) for name, spec in RATIOS.items()
                                             if f"{spec[0][0]}.{spec[0][1]}" in keys
                                             and f"{spec[1][0]}.{spec[1][1]}" in keys},
                            **({"library": _library_version(), "library_synchronous": synchronous_levels}
                               if library else {})}}


def _spread(per_round: list[dict[str, float]], spec: tuple[tuple[str, str], tuple[str, str]]) -> list[float]:
    (a, wa), (b, wb) = spec
    values = sorted(fig[f"{a}.{wa}"] / fig[f"{b}.{wb}"] for fig in per_round)
    return [round(values[0], 3), round(values[-1], 3)]


def _library_version() -> str:
    from importlib.metadata import version

    return "eventsourcing " + version("eventsourcing")
