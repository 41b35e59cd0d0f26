"""``cli.py bench --peer``: the ledger beside the ``eventsourcing`` library in one run.

The library (optional ``bench`` extra, ``pip install -e .[bench]``) runs the
issue 10 workload through its SQLite *application recorder* (positions, like
ours): 200 streams x 100 events (a) one event per transaction, (b) 100 events
(a stream) per transaction, (c) every stream read back and its events decoded
(JSON). The ledger's figures are those of :func:`ledger.bench.appends.run_bench` (the
same 200 boards, about 120 events each with the engine's, through the whole
append path: checks, fold, ruling engine, hash chain, Merkle tree). Both use a
fresh file with WAL and the same ``synchronous`` (FULL unless the ledger is
asked otherwise): a commit is on disk when it returns.

With ``--pg URL`` it also runs 16 writer processes on distinct streams against
PostgreSQL, the ledger's append path beside the library's PostgreSQL
application recorder (one event per transaction each).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

STREAMS = 200
EVENTS = 100
PG_WRITERS = 16


def library_sqlite(streams: int = STREAMS, events: int = EVENTS, synchronous: str = "full") -> dict[str, Any]:
    """The library's SQLite application recorder on the issue 10 workload (its
    connections set to the same ``synchronous`` level as the ledger's)."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

    with tempfile.TemporaryDirectory(prefix="ledger-peer-") as tmp:
        datastore = SQLiteDatastore(db_name=str(Path(tmp) / "peer.db"), pool_size=2)
        create = datastore.pool._create_connection

        def with_sync() -> Any:
            connection = create()
            connection._sqlite_conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            return connection

        datastore.pool._create_connection = with_sync  # type: ignore[method-assign]  # no pragma option: eventsourcing's private hook
        recorder = SQLiteApplicationRecorder(datastore)
        recorder.create_table()
        state = json.dumps({"seat": "N", "card": "H7", "n": 0}).encode()
        topic = "ledger.events:CardPlayed"

        def stream_events(sid: uuid.UUID) -> list[StoredEvent]:
            return [StoredEvent(sid, v, topic, state) for v in range(1, events + 1)]

        one = [uuid.uuid4() for _ in range(streams)]
        t0 = time.perf_counter()
        for sid in one:
            for stored in stream_events(sid):
                recorder.insert_events([stored])
        per_event_s = time.perf_counter() - t0

        batched = [uuid.uuid4() for _ in range(streams)]
        t0 = time.perf_counter()
        for sid in batched:
            recorder.insert_events(stream_events(sid))
        per_batch_s = time.perf_counter() - t0

        t0 = time.perf_counter()
        read = 0
        for sid in one + batched:
            for stored in recorder.select_events(sid):
                json.loads(stored.state)
                read += 1
        replay_s = time.perf_counter() - t0
        with datastore.transaction(commit=False) as cursor:
            cursor.execute("PRAGMA synchronous")
            synchronous = cursor.fetchone()[0]
        datastore.close()
    n = streams * events
    return {
        "append_per_event_eps": round(n / per_event_s, 1),
        "append_per_batch_eps": round(n / per_batch_s, 1),
        "replay_eps": round(read / replay_s, 1),
        "sqlite_synchronous": synchronous,
    }


def ratios(ours: dict[str, Any], peer: dict[str, Any]) -> dict[str, Any]:
    """Our figure over the library's, per target of issue 10."""
    def r(a: str, b: str) -> float | None:
        return round(ours[a] / peer[b], 2) if ours.get(a) and peer.get(b) else None

    return {"per_event": r("append_per_event_eps", "append_per_event_eps"),
            "per_board_vs_batch": r("append_per_board_eps", "append_per_batch_eps"),
            "replay": r("replay_eps", "replay_eps")}


# --- PostgreSQL: 16 writer processes ------------------------------------------------

def _ledger_writer(url: str, run: str, index: int, boards: int, start: Any, out: Any) -> None:
    import random

    from ledger.service import Ledger, parse_fact
    from ledger.simulate import random_board

    rng = random.Random(index)
    sims = [[parse_fact(f, n) for n, f in enumerate(random_board(rng, board=b % 32 + 1).facts, start=1)]
            for b in range(boards)]
    quiet()
    with Ledger.open(url) as ledger:
        out.put(("ready", index))
        start.wait()
        t0 = time.perf_counter()
        written = 0
        for b, facts in enumerate(sims):
            stream, seq = f"pg/{run}/{index}/{b}", 0
            for fact in facts:
                result = ledger.append(stream, [fact], expected_seq=seq)
                seq = result.stored[-1].seq
                written += len(result.stored)
        out.put(("done", index, written, time.perf_counter() - t0))


def library_writer(params: dict[str, Any], index: int, events: int, start: Any, out: Any) -> None:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    datastore = PostgresDatastore(**params)
    recorder = PostgresApplicationRecorder(datastore)
    state = json.dumps({"seat": "N", "card": "H7", "n": index}).encode()
    sid = uuid.uuid4()
    recorder.max_notification_id()  # connected before the start
    out.put(("ready", index))
    start.wait()
    t0 = time.perf_counter()
    for v in range(1, events + 1):
        if v % EVENTS == 1:
            sid = uuid.uuid4()
        recorder.insert_events([StoredEvent(sid, (v - 1) % EVENTS + 1, "ledger.events:CardPlayed", state)])
    out.put(("done", index, events, time.perf_counter() - t0))
    datastore.close()


def quiet() -> None:
    import logging

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))


class WriterDied(RuntimeError):
    """A writer process ended without its result: the run is reported as failed, at once."""

    def __init__(self, died: list[tuple[int, int | None]]) -> None:
        self.died = died
        super().__init__("writer process(es) ended without a result: " + ", ".join(
            f"#{i} (exit code {code})" for i, code in died))


def _collect(procs: list[Any], out: Any, kind: str, wanted: set[int], deadline: float) -> dict[int, Any]:
    """The ``kind`` message of every writer in ``wanted``, polling the queue and the writers'
    exit codes: a writer that ended without sending it raises :class:`WriterDied` (the others
    are terminated), never a wait on a message that cannot come."""
    import queue

    got: dict[int, Any] = {}
    while wanted - set(got):
        try:
            message = out.get(timeout=0.2)
        except queue.Empty:
            message = None
        if message is not None:
            if message[0] == kind:
                got[message[1]] = message[2:]
            continue
        died = [(i, p.exitcode) for i, p in enumerate(procs) if i in wanted - set(got) and not p.is_alive()]
        if died or time.monotonic() > deadline:
            while True:  # a result sent just before its writer ended
                try:
                    message = out.get_nowait()
                except queue.Empty:
                    break
                if message[0] == kind:
                    got[message[1]] = message[2:]
            died = [(i, code) for i, code in died if i not in got]
            if died or time.monotonic() > deadline:
                for p in procs:
                    if p.is_alive():
                        p.terminate()
                for p in procs:
                    p.join(5)
                raise WriterDied(died or [(i, None) for i in sorted(wanted - set(got))])
    return got


def run_writers(target: Any, args_of: Any, writers: int, timeout: float = 1800.0) -> float:
    """Events per second of all the writers together, from the moment all are connected
    and ready to the last one's end. A writer that dies is reported (:class:`WriterDied`),
    never waited for."""
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args_of(i), start, out)) for i in range(writers)]
    for p in procs:
        p.start()
    everyone = set(range(writers))
    _collect(procs, out, "ready", everyone, time.monotonic() + 300)
    start.set()
    t0 = time.perf_counter()
    results = _collect(procs, out, "done", everyone, time.monotonic() + timeout)
    wall = time.perf_counter() - t0
    for p in procs:
        p.join()
    return round(sum(n for n, _ in results.values()) / wall, 1)


def _behind_schema(admin: Any, base: Any, schema: str) -> str:
    """A second ledger schema, its tree integrated behind the log; its URL."""
    from ledger.service import Ledger
    from ledger.store import integrator

    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}_behind"')
    url = base.update_query_dict({"options": f"-csearch_path={schema}_behind"}).render_as_string(hide_password=False)
    with Ledger.open(url, create=True) as ledger:
        integrator.enable(ledger.store)
    return str(url)


class _Integrator:
    """The integrator of a run, in a thread of this process; the delay from each batch's
    newest position being committed (seen) to its leaf, p99."""

    def __init__(self, url: str) -> None:
        import threading

        self.url, self._stop = url, threading.Event()
        self.delays: list[float] = []
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        from ledger.store import integrator
        from ledger.store.sql import open_store

        quiet()
        with open_store(self.url) as store:
            seen: dict[int, float] = {}
            while True:
                stopping = self._stop.is_set()
                top = store.last_position()
                seen.setdefault(top, time.perf_counter())
                step = integrator.integrate(store)
                if step.leaves:
                    done = integrator.integrated_position(store)
                    now = time.perf_counter()
                    for position in [p for p in seen if p <= done]:
                        self.delays.append((now - seen.pop(position)) * 1000)
                if stopping and not step.leaves:
                    seen = {p: t for p, t in seen.items() if p > integrator.integrated_position(store)}
                    if not seen:
                        return
                time.sleep(0.02)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(120)

    def p99(self) -> float | None:
        from ledger.bench.appends import percentile

        return round(percentile(self.delays, 0.99), 1) if self.delays else None


def postgres_writers(url: str, writers: int = PG_WRITERS, boards: int = 2,
                     integrate_behind: bool = True) -> dict[str, Any]:
    """Events per second of ``writers`` processes, one event per transaction, on
    distinct streams: the ledger (``boards`` whole boards each, with the engine)
    and the library's PostgreSQL application recorder (as many events each); with
    ``integrate_behind`` also the ledger with its tree integrated behind the log (an
    integrator thread in this process) and that run's merge delay p99."""
    import sqlalchemy as sa

    from ledger.service import Ledger

    schema = "bench_" + uuid.uuid4().hex[:8]
    base = sa.engine.make_url(url.replace("postgresql://", "postgresql+psycopg://", 1)
                              if url.startswith("postgresql://") else url)
    admin = sa.create_engine(base)
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        ours_url = base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False)
        Ledger.open(ours_url, create=True).close()
        run = uuid.uuid4().hex[:6]
        failures: dict[str, str] = {}
        try:
            ours: float | None = run_writers(_ledger_writer, lambda i: (ours_url, run, i, boards), writers)
        except WriterDied as exc:  # reported, not waited for
            ours, failures["ours"] = None, str(exc)
        params: dict[str, Any] = {"dbname": base.database, "host": base.host or "127.0.0.1", "port": base.port or 5432,
                  "user": base.username or "postgres", "password": base.password or "",
                  "schema": schema}
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

        datastore = PostgresDatastore(**params)
        PostgresApplicationRecorder(datastore).create_table()
        datastore.close()
        try:
            peer: float | None = run_writers(library_writer, lambda i: (params, i, boards * 120), writers)
        except WriterDied as exc:
            peer, failures["library"] = None, str(exc)
        behind: float | None = None
        if integrate_behind:  # the same writers, the tree integrated behind (issue 28, item 2)
            behind_url = _behind_schema(admin, base, schema)
            keeper = _Integrator(behind_url)
            keeper.start()
            try:
                behind = run_writers(_ledger_writer, lambda i: (behind_url, run, i, boards), writers)
            except WriterDied as exc:
                failures["ours_behind"] = str(exc)
            finally:
                keeper.stop()
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}_behind" CASCADE')
        admin.dispose()
    return {"pg_writers": writers, "pg_append_eps": ours, "pg_peer_append_eps": peer,
            "pg_ratio": round(ours / peer, 2) if ours and peer else None,
            **({"pg_behind_append_eps": behind, "pg_behind_ratio": round(behind / peer, 2) if behind and peer
                else None, "pg_behind_merge_delay_ms_p99": keeper.p99()} if integrate_behind else {}),
            **({"pg_writers_died": failures} if failures else {})}


def run_peer(ours: dict[str, Any], pg_url: str | None = None, synchronous: str = "full") -> dict[str, Any]:
    """The library's figures beside ``ours`` (a :func:`ledger.bench.appends.run_bench` result) and the ratios."""
    peer = library_sqlite(synchronous=synchronous)
    out: dict[str, Any] = {"peer": {"library": "eventsourcing " + _version(), **peer},
                           "ratios": ratios(ours, peer)}
    if pg_url:
        out["postgres"] = postgres_writers(pg_url)
    return out


def _version() -> str:
    from importlib.metadata import version

    return version("eventsourcing")


if os.environ.get("LEDGER_BENCH_PEER_SELFTEST"):  # pragma: no cover - manual check
    print(library_sqlite(20, 100))
