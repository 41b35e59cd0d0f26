"""``import --jobs N`` (issue 28, item 5): a file's records imported on every core, with
the serial run's result (the same streams, events, hashes, positions and Merkle tree;
the same report).

A record's append is prepared in a worker process: the ordinary append path
(:meth:`ledger.service.Ledger.append`: roles, checks, fold, ruling engine, hash chain)
runs on a ledger over a :class:`PreparingStore`, which holds nothing and keeps what the
append would write to an empty stream: its rows, its board index entry, its snapshot.
A record's stream of a file is new unless the file was imported before, so what was
prepared is what the serial run writes; where the stream turns out not to be empty
(a re-import, another file's stream), the record is imported the ordinary way instead,
on the store itself (a retry that writes nothing, or the serial run's refusal).

* SQLite (one writer): the workers prepare, the calling process writes what they
  prepared, chunk after chunk in the file's order, a chunk to a store transaction.
* PostgreSQL: each worker writes its own chunks on its own connection, once the chunks
  before them are committed (:class:`ledger.parallel.Turns`): the preparation of the
  next chunks overlaps the writing, and positions follow the file's order as in the
  serial run.

The report: each record's part (what :func:`ledger.records.games.import_record` said of
it) is merged in the file's order (:func:`merge_report`).
"""

from __future__ import annotations

import logging
import pickle
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Protocol, Sequence, cast

import attrs
import structlog

from ledger.errors import ConcurrencyError
from ledger.parallel import CHUNK, Aborted, Turns, in_workers
from ledger.service import Ledger
from ledger.store.base import GENESIS, BoardIndexing, EventStore, Snapshot, SqlBacked, StoredEvent
from projections.state import TableState

log = structlog.get_logger("ledger")


class ImportRecord(Protocol):
    """``ledger.records.games.import_record``: one record's append and its report."""

    def __call__(self, ledger: Ledger, fmt: str, record: Any, stream: str, report: Any,
                 states: dict[str, TableState] | None = None) -> None: ...


# --- the preparing store ------------------------------------------------------------------

class PreparedTransaction:
    """A transaction on an empty stream that writes nothing and keeps what it was given."""

    def __init__(self, stream: str) -> None:
        self.stream = stream
        self.rows: list[StoredEvent] = []
        self.boards: list[tuple[str, str]] = []
        self.snapshots: list[Snapshot] = []

    def head(self) -> tuple[int, str]:
        return (self.rows[-1].seq, self.rows[-1].hash) if self.rows else (0, GENESIS)

    def find_ids(self, ids: Sequence[str]) -> dict[str, StoredEvent]:
        return {e.id: e for e in self.rows if e.id in ids}

    def read(self, after_seq: int = 0) -> list[StoredEvent]:
        return [e for e in self.rows if e.seq > after_seq]

    def load_snapshot(self) -> Snapshot | None:
        last = self.latest_snapshot()
        return last if last is not None and self.rows and last.seq == self.rows[-1].seq else None

    def latest_snapshot(self) -> Snapshot | None:
        return self.snapshots[-1] if self.snapshots else None

    def insert(self, events: Sequence[StoredEvent]) -> list[StoredEvent]:
        self.rows.extend(events)
        return list(events)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self.snapshots.append(snapshot)

    def index_board(self, tournament: str, slug: str) -> None:
        self.boards.append((tournament, slug))


class PreparingStore:
    """The store of a worker's ledger: every stream empty, nothing written; the last
    transaction of each stream that committed is kept (``prepared``)."""

    url = "preparing://"

    def __init__(self) -> None:
        self.prepared: dict[str, PreparedTransaction] = {}

    @contextmanager
    def transaction(self, stream: str) -> Iterator[PreparedTransaction]:
        tx = PreparedTransaction(stream)
        yield tx  # an exception (a refused append) keeps nothing, as a rollback
        self.prepared[stream] = tx

    def close(self) -> None:
        self.prepared.clear()


# --- what a worker hands back ------------------------------------------------------------

@attrs.frozen
class Prepared:
    """One record's append as prepared: the rows, board index entries and snapshots it
    writes (none for a refused record), what the import said of it, its head state."""

    stream: str
    rows: tuple[StoredEvent, ...]
    boards: tuple[tuple[str, str], ...]
    snapshots: tuple[Snapshot, ...]
    report: Any
    state: TableState | None


@attrs.frozen
class Outcome:
    """One record once written: what the import said of it, its head state."""

    stream: str
    report: Any
    state: TableState | None


@attrs.frozen
class ImportJob:
    """What every worker needs (pickled once per chunk)."""

    fmt: str
    clock: Callable[[], str]
    import_record: ImportRecord
    new_report: Callable[[str, str], Any]
    url: str | None
    """PostgreSQL: the workers write there; None: they hand the prepared rows back."""
    states: bool
    """Hand the head states back (the file's own tables are compared afterwards)."""
    size: int = CHUNK


_TURNS: list[Turns] = []
"""The turns of the writing workers (set at a worker's start)."""

_STORES: dict[str, Ledger] = {}
"""A worker's ledger on the database it writes to (PostgreSQL), opened at its first chunk."""


def start_worker(turns: Turns | None) -> None:
    """A worker's start: its turns, and only warnings logged (the parent reports)."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    if turns is not None:
        _TURNS.append(turns)


def prepare(job: ImportJob, chunk: list[tuple[Any, str]]) -> list[Prepared]:
    """Each record's append prepared on a ledger that writes nothing."""
    store = PreparingStore()
    ledger = Ledger(cast(EventStore, store), clock=job.clock)  # only `transaction` is used by an append
    out = []
    for record, stream in chunk:
        part = job.new_report(job.fmt, "")
        states: dict[str, TableState] = {}
        job.import_record(ledger, job.fmt, record, stream, part, states)
        tx = store.prepared.pop(stream, None)
        out.append(Prepared(stream, tuple(tx.rows) if tx else (), tuple(tx.boards) if tx else (),
                            tuple(tx.snapshots) if tx else (), part,
                            states.get(stream) if job.states else None))
    return out


def prepare_chunk(job: ImportJob, chunk: list[tuple[int, Any, str]]) -> list[Any]:
    """A worker's task: the chunk's appends prepared (:class:`Prepared`); on PostgreSQL also
    written, in its turn (:class:`Outcome`). A failure, here or in the chunk's turn, stops
    every chunk after it from writing (no worker is left waiting for a turn that never comes)."""
    turns = _TURNS[0] if job.url is not None else None
    number, turn = chunk[0][0] // job.size, False
    try:
        prepared = prepare(job, [(record, stream) for _, record, stream in chunk])
        if job.url is None or turns is None:
            return prepared
        turns.wait(number)
        turn = True
        ledger = _STORES.get(job.url)
        if ledger is None:
            ledger = _STORES[job.url] = Ledger.open(job.url, clock=job.clock)
        outcomes = write_chunk(ledger, job, prepared, [record for _, record, _ in chunk])
    except Aborted:
        raise
    except BaseException:
        if turns is not None:
            if not turn:  # the chunks before this one still write, as in the serial run
                _wait_quietly(turns, number)
            turns.abort()
        raise
    turns.done(number)
    return outcomes


def _wait_quietly(turns: Turns, number: int) -> None:
    try:
        turns.wait(number)
    except Aborted:
        pass


class _Occupied(Exception):
    """The stream is not empty in this store: the record is imported the ordinary way."""


def write_chunk(ledger: Ledger, job: ImportJob, prepared: Sequence[Prepared],
                records: Sequence[Any]) -> list[Outcome]:
    """What was prepared of ``records``, written in one store transaction (each record its
    own stream transaction within it, as in the serial run)."""
    with ledger.batch(p.stream for p in prepared):
        return [write_prepared(ledger, job, p, record) for p, record in zip(prepared, records)]


def write_prepared(ledger: Ledger, job: ImportJob, prepared: Prepared, record: Any) -> Outcome:
    """The prepared append written (nothing for a refused record) when its stream is empty
    here, as the append itself writes it (rows, board index, snapshot); otherwise the record
    imported the ordinary way on this ledger."""
    try:
        with ledger.store.transaction(prepared.stream) as tx:
            if tx.head()[0] != 0:
                raise _Occupied
            if prepared.rows:
                tx.insert(prepared.rows)
                if isinstance(tx, BoardIndexing):
                    for tournament, slug in prepared.boards:
                        tx.index_board(tournament, slug)
                for snapshot in prepared.snapshots:
                    tx.save_snapshot(snapshot)
    except (_Occupied, ConcurrencyError):
        part = job.new_report(job.fmt, "")
        states: dict[str, TableState] = {}
        job.import_record(ledger, job.fmt, record, prepared.stream, part, states)
        return Outcome(prepared.stream, part, states.get(prepared.stream))
    return Outcome(prepared.stream, prepared.report, prepared.state)


# --- the calling process ------------------------------------------------------------------

MERGED_APART = frozenset({"format", "tournament", "records", "charset"})
"""Fields of a report that a record's part does not add to (the file's own)."""


def merge_report(into: Any, part: Any) -> None:
    """A record's part of the report added to the file's: lists extended, counts added,
    flags or'ed, maps updated (what the serial run's one report gathers in the same order)."""
    for field in attrs.fields(type(into)):
        if field.name in MERGED_APART:
            continue
        value, mine = getattr(part, field.name), getattr(into, field.name)
        if isinstance(value, list):
            mine.extend(value)
        elif isinstance(value, bool):
            setattr(into, field.name, mine or value)
        elif isinstance(value, int):
            setattr(into, field.name, mine + value)
        elif isinstance(value, dict):
            mine.update(value)


def picklable(value: object) -> bool:
    try:
        pickle.dumps(value)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def import_in_workers(ledger: Ledger, fmt: str, pairs: Sequence[tuple[Any, str]], report: Any,
                      states: dict[str, TableState] | None,
                      progress: Callable[[int, int], None] | None, jobs: int,
                      import_record: ImportRecord) -> bool:
    """The records ``pairs`` ((record, stream) in the file's order) imported by ``jobs``
    worker processes, ``report`` and ``states`` (None: not wanted) as the serial run leaves
    them. False, having done nothing, when the ledger's clock cannot be sent to a worker
    (a closure): the caller imports in its own process."""
    if not picklable(ledger.clock):
        log.warning("import_jobs_serial", reason="the ledger's clock cannot be sent to a worker")
        return False
    store = ledger.store
    writes = isinstance(store, SqlBacked) and store.engine.dialect.name == "postgresql"
    job = ImportJob(fmt, ledger.clock, import_record, type(report), store.url if writes else None,
                    states is not None)
    turns = Turns() if writes else None
    items = [(i, record, stream) for i, (record, stream) in enumerate(pairs)]
    done = 0
    try:
        for chunk in in_workers(prepare_chunk, job, items, jobs, size=job.size,
                                initializer=start_worker, initargs=(turns,)):
            records = [record for record, _ in pairs[done:done + len(chunk)]]
            outcomes = cast("list[Outcome]", chunk) if writes \
                else write_chunk(ledger, job, cast("list[Prepared]", chunk), records)
            for outcome in outcomes:
                merge_report(report, outcome.report)
                if states is not None and outcome.state is not None:
                    states[outcome.stream] = outcome.state
            done += len(outcomes)
            if progress is not None:
                progress(done, len(pairs))
    except BaseException:
        if turns is not None:
            turns.abort()
        raise
    return True
