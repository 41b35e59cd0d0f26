"""``import --jobs N`` (issue 28, item 5), on both stores: the records' appends prepared in
worker processes (on SQLite written by this process, on PostgreSQL by the workers, in the
file's order) give exactly the serial run's store (every row of every table: streams,
events, hashes, positions, the Merkle tree and its root, heads, snapshots, the board index)
and the serial run's report, for a first import, a re-import (a retry: nothing written), a
record refused and a stream already holding other content."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from backends import create_pg_schema, drop_pg_schema

from ledger.audit.transparency import current_digest
from ledger.parallel import Aborted, Turns
from ledger.records.games import import_text
from ledger.service import Ledger

REALBRIDGE = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data" / \
    "realbridge-2021-online-qual-open-r2.pbn"
DEAL = "N:K53.KQ42.A75.Q63 QJ82.75.Q6.KJ987 A74.AJT98.K83.A4 T96.63.JT942.T52"
RECORDS = 80  # three chunks of workers' work (ledger.parallel.CHUNK = 32)

# the database's own bookkeeping, not the ledger's content: PostgreSQL's transaction id
NOT_COMPARED = {"xid"}


def clock() -> str:
    """One time for every event (the workers import this module to call it)."""
    return "2026-11-28T08:00:00.000000Z"


def records_text(count: int = RECORDS) -> str:
    if not REALBRIDGE.exists():
        pytest.skip(f"{REALBRIDGE.name} is not beside the repository (../shared/bridge-data)")
    text = REALBRIDGE.read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r'^\[Event ', text, flags=re.M)]
    return text[:starts[count]] if len(starts) > count else text


def refused_and_wrong(text: str) -> tuple[str, str]:
    """The text with two records changed, and the stream of a third: the first record from
    the fifth on that states a number of tricks now states three more (refused: the result
    differs); the next one's deal gives North's first card twice (refused by the reader or
    the ledger); the third record's stream is to hold other content before the import."""
    starts = [m.start() for m in re.finditer(r'^\[Event ', text, flags=re.M)] + [len(text)]
    parts = [text[a:b] for a, b in zip(starts, starts[1:])]
    played = [i for i, part in enumerate(parts) if i >= 4 and re.search(r'\[Result "\d+"\]', part)]
    wrong, deal = played[0], played[1]
    parts[wrong] = re.sub(r'\[Result "(\d+)"\]', lambda m: f'[Result "{(int(m.group(1)) + 3) % 14}"]',
                          parts[wrong])
    parts[deal] = re.sub(r'\[Deal "N:(\S)', lambda m: '[Deal "N:' + ("A" if m.group(1) != "A" else "K"),
                         parts[deal])
    board = re.search(r'\[Board "(\d+)"\]', parts[2]).group(1)
    table = re.search(r'\[Table "(\d+)"\]', parts[2]).group(1)
    return text[:starts[0]] + "".join(parts), f"2021-online-qual-open-r2/t{table}/b{board}"


def rows(url: str) -> dict[str, list[tuple]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            out = {}
            for table in sorted(sa.inspect(engine).get_table_names()):
                columns = [c["name"] for c in sa.inspect(engine).get_columns(table)
                           if c["name"] not in NOT_COMPARED]
                if table == "alembic_version":
                    continue
                query = f"SELECT {', '.join(columns)} FROM {table}"
                out[table] = sorted(tuple(map(repr, r)) for r in conn.exec_driver_sql(query))
            return out
    finally:
        engine.dispose()


@pytest.fixture
def second_url(backend, tmp_path):
    """A second empty database of the same kind as ``store_url``."""
    if backend.name == "sqlite":
        yield f"sqlite:///{tmp_path / 'second.db'}"
        return
    pg = create_pg_schema()
    try:
        yield pg.url
    finally:
        drop_pg_schema(pg.schema)


def run(url: str, text: str, jobs: int, other: str | None = None):
    """The import of ``text`` (twice: the second a retry), after ``other`` (a stream of the
    file already holding other content)."""
    with Ledger.open(url, create=True, clock=clock) as ledger:
        if other is not None:
            ledger.append(other, [{"type": "BoardOpened", "tournament": "elsewhere", "board": 5, "table": "3",
                                   "deal": DEAL, "id": "pbn-001"}])
        seen: list[tuple[int, int]] = []
        first = import_text(ledger, text, "pbn", jobs=jobs,
                            progress=lambda done, total: seen.append((done, total)))
        again = import_text(ledger, text, "pbn", jobs=jobs)
        digest = current_digest(ledger.store)
    return first, again, digest, seen


def test_import_with_workers_gives_exactly_the_serial_store_and_report(store_url, second_url):
    text, occupied = refused_and_wrong(records_text())
    serial = run(store_url, text, 1, other=occupied)
    parallel = run(second_url, text, 2, other=occupied)
    first, again, digest, seen = parallel
    assert first == serial[0] and again == serial[1], "the same report, record by record"
    assert (digest.size, digest.root) == (serial[2].size, serial[2].root), "the same tree root"
    assert rows(second_url) == rows(store_url), "every row of every table"
    # what the comparison covers: an import, refusals of both kinds, a retry
    assert len(first.imported) >= RECORDS - 3 and first.events > 3000
    kinds = {p.kind for p in first.failed}
    assert "result differs" in kinds and "stream holds other content" in kinds, first.failed
    assert again.events == 0 and all(r.retried for r in again.imported)
    assert first.check_mismatches == 0 and first.imp_rows > 0, "ScoreIMP compared on the workers' states"
    assert seen[-1][0] == seen[-1][1] >= RECORDS - 1 and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(seen) > 1, "the progress moves chunk by chunk"


def test_the_cli_imports_with_workers(tmp_path, monkeypatch, capsys):
    from ledger.cli import main

    path = tmp_path / "r.pbn"
    path.write_text(records_text(RECORDS), encoding="utf-8")
    outputs = []
    for jobs in ("1", "2"):
        monkeypatch.setenv("LEDGER_DB", f"sqlite:///{tmp_path / f'cli-{jobs}.db'}")
        capsys.readouterr()
        assert main(["import", str(path), "--jobs", jobs, "--json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and f'"imported": {RECORDS}' in outputs[0]


def test_a_clock_that_cannot_reach_a_worker_imports_in_this_process(tmp_path):
    text = records_text(40)
    with Ledger.open(f"sqlite:///{tmp_path / 'l.db'}", create=True,
                     clock=lambda: "2026-11-28T08:00:00.000000Z") as ledger:
        report = import_text(ledger, text, "pbn", jobs=2)
    assert len(report.imported) == 40


def test_turns_let_chunks_write_in_order_and_an_abort_frees_every_waiter():
    turns, order = Turns(), []

    def writer(chunk: int) -> None:
        try:
            turns.wait(chunk)
        except Aborted:
            order.append(("aborted", chunk))
            return
        order.append(chunk)
        turns.done(chunk)

    threads = [threading.Thread(target=writer, args=(k,)) for k in (3, 1, 2, 0)]
    for t in threads:
        t.start()
        time.sleep(0.01)
    for t in threads:
        t.join(5)
    assert order == [0, 1, 2, 3]

    turns = Turns()
    waiter = threading.Thread(target=writer, args=(5,))
    waiter.start()
    time.sleep(0.05)
    turns.abort()
    waiter.join(5)
    assert not waiter.is_alive() and order[-1] == ("aborted", 5)


def test_a_bridgemate_session_with_workers_gives_the_serial_store_and_report(tmp_path):
    from ledger.records.games import import_bws

    session = REALBRIDGE.with_name("bridgemate-lbc-2026-01-26.bws")
    if not session.exists():
        pytest.skip(f"{session.name} is not beside the repository (../shared/bridge-data)")
    found = []
    for jobs in (1, 2):
        url = f"sqlite:///{tmp_path / f'bws-{jobs}.db'}"
        with Ledger.open(url, create=True, clock=clock) as ledger:
            found.append((import_bws(ledger, session, jobs=jobs), rows(url)))
    (serial, serial_rows), (parallel, parallel_rows) = found
    assert parallel == serial and parallel_rows == serial_rows
    assert len(serial.imported) > 200 and serial.players, "a whole session, its pairs"


def failing_import_record(ledger, fmt, record, stream, report, states=None):
    """The import of a record, failing on the 40th (the second chunk's): a bug in a worker."""
    from ledger.records.games import import_record

    if record.number == 40:
        raise RuntimeError("a bug in a worker")
    import_record(ledger, fmt, record, stream, report, states)


def test_a_worker_that_fails_stops_the_import_and_no_worker_is_left_waiting(store_url):
    from ledger.records.games import ImportReport, read_records, stream_ids
    from ledger.records.jobs import import_in_workers

    records, _ = read_records(records_text(), "pbn", "t")
    pairs = list(zip(records, stream_ids("t", records)))
    with Ledger.open(store_url, create=True, clock=clock) as ledger:
        started = time.monotonic()
        with pytest.raises(RuntimeError, match="a bug in a worker"):
            import_in_workers(ledger, "pbn", pairs, ImportReport("pbn", "t"), None, None, 2,
                              failing_import_record)
        assert time.monotonic() - started < 300
        written = len(ledger.store.streams("t/"))
    assert written == 32, "the chunk before the failure written, none after it"
