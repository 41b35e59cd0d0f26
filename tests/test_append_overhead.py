"""The append's own overhead (issue 28, item 6): the decoded-event cache (bounded, and
invisible: a replay folds to the same state with it, without it, and from it), event ids
(random version 4 from a pool of the system's random bytes, never shared with a forked
child; the engine's version 5 ids those of ``uuid.uuid5``), the info line skipped only when
the logger would drop it, and the SQLite stream transaction as one object (a refused body
rolls back and releases the store)."""

from __future__ import annotations

import os
import threading
import uuid
from pathlib import Path

import pytest
import structlog
from golden_fold import scenario_files

from ledger import service
from ledger.errors import BadInput
from ledger.scenario import replay_text
from ledger.service import Ledger, decode, engine_event_id, fold_events, new_event_id
from ledger.store.base import StoredEvent
from projections import snapshot
from projections.document import to_document

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
OPEN = {"type": "BoardOpened", "tournament": "club", "board": 11, "table": "3", "deal": DEAL}


# --- the decoded-event cache ------------------------------------------------------------------

FILES = scenario_files()


@pytest.mark.parametrize("path", FILES[::7], ids=[p.stem for p in FILES[::7]])
def test_the_decoded_event_cache_is_invisible(path: Path, monkeypatch: pytest.MonkeyPatch):
    """The same state and document folded without the cache, with it cold, and with it warm
    (every event then taken from it), for every seventh scenario file."""
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        stored = ledger.store.read(stream)
    assert all(e.data_json is not None for e in stored)  # read from rows: keyed by their text
    monkeypatch.setattr(service, "DECODED_CACHE_SIZE", 0)
    service._DECODED.clear()
    without = fold_events(stored)
    assert not service._DECODED
    monkeypatch.setattr(service, "DECODED_CACHE_SIZE", 4096)
    cold = fold_events(stored)
    warm = fold_events(stored)
    assert without is not None and without == cold == warm
    assert snapshot.dump(without) == snapshot.dump(cold) == snapshot.dump(warm)
    assert to_document(without, verified=True) == to_document(warm, verified=True)
    assert all(decode(e) is decode(e) for e in stored)  # taken from the cache


def _row(seq: int, card: str, text: str | None = None) -> StoredEvent:
    data = {"seat": "E", "card": card}
    return StoredEvent("s/1", seq, f"id-{seq}", "CardPlayed", 1, data, service.ENGINE_ACTOR, "at", (), None,
                       "0" * 64, "h" * 64, seq, text if text is not None else f'{{"card":"{card}","seat":"E"}}')


def test_the_decoded_event_cache_is_bounded_and_evicts_the_oldest(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(service, "DECODED_CACHE_SIZE", 3)
    service._DECODED.clear()
    cards = ["SA", "SK", "SQ", "SJ", "ST"]
    first = [decode(_row(i, c)) for i, c in enumerate(cards, 1)]
    assert len(service._DECODED) == 3
    assert [key[2] for key in service._DECODED] == [_row(0, c).data_json for c in cards[2:]]
    assert decode(_row(9, "ST")) is first[4]  # kept: the same object
    again = decode(_row(9, "SA"))  # evicted: decoded anew, equal
    assert again == first[0] and again is not first[0]
    assert len(service._DECODED) == 3


def test_the_cache_is_keyed_by_the_row_s_text_not_its_hash(monkeypatch: pytest.MonkeyPatch):
    """Two rows with the same hash and other data (a damaged row) decode to their own data."""
    monkeypatch.setattr(service, "DECODED_CACHE_SIZE", 16)
    service._DECODED.clear()
    assert decode(_row(1, "SA")).card != decode(_row(1, "HA")).card  # type: ignore[attr-defined]
    unread = StoredEvent("s/1", 1, "i", "CardPlayed", 1, {"seat": "E", "card": "D2"}, service.ENGINE_ACTOR, "at",
                         (), None, "0" * 64, "h" * 64)
    assert str(decode(unread).card) == "D2"  # type: ignore[attr-defined]
    assert len(service._DECODED) == 2  # an event not read from a row is not kept


# --- ids ---------------------------------------------------------------------------------------

def test_engine_ids_are_uuid5s():
    for name in ("paris/s1/t12/b07#14#RevokeEstablished", "é/ü#1#RulingOverridden", ""):
        assert engine_event_id(name) == str(uuid.uuid5(service.ENGINE_NAMESPACE, name))


def test_event_ids_are_random_version_4_uuids_and_never_repeat():
    ids = [new_event_id() for _ in range(5000)]  # past several refills of the pool
    assert len(set(ids)) == len(ids)
    for i in ids[:300]:
        u = uuid.UUID(i)
        assert str(u) == i and u.version == 4 and u.variant == uuid.RFC_4122


def test_event_ids_of_threads_differ():
    out: list[list[str]] = [[], []]

    def draw(k: int) -> None:
        out[k].extend(new_event_id() for _ in range(600))

    threads = [threading.Thread(target=draw, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not set(out[0]) & set(out[1]) and len(set(out[0])) == 600


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_does_not_hand_out_its_parent_s_ids():
    new_event_id()  # the parent's pool is filled
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.write(write, new_event_id().encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 100).decode()
    os.waitpid(pid, 0)
    assert child and child != new_event_id()


# --- the info line ----------------------------------------------------------------------------

@pytest.fixture
def logging_restored():
    saved = structlog.get_config()
    yield
    structlog.configure(**saved)


@pytest.mark.parametrize("level, written", [("INFO", True), ("WARNING", False)])
def test_the_appended_line_is_skipped_only_when_filtered(level, written, capsys, logging_restored, tmp_path):
    from ledger.cli import configure_logging

    configure_logging(level)
    with Ledger.open(f"sqlite:///{tmp_path / 'l.db'}", create=True) as ledger:
        capsys.readouterr()
        ledger.append("b/1", [OPEN], expected_seq=0)
    assert ('"appended"' in capsys.readouterr().err) is written


def test_an_unknown_logger_class_logs_as_before(capsys, logging_restored, tmp_path):
    structlog.configure(wrapper_class=structlog.BoundLogger, logger_factory=structlog.PrintLoggerFactory(),
                        processors=[structlog.processors.KeyValueRenderer()])
    with Ledger.open(f"sqlite:///{tmp_path / 'l.db'}", create=True) as ledger:
        capsys.readouterr()
        ledger.append("b/1", [OPEN], expected_seq=0)
    assert "event='appended'" in capsys.readouterr().out


# --- the SQLite stream transaction as one object ----------------------------------------------

def test_a_refused_body_rolls_back_and_releases_the_store(tmp_path):
    with Ledger.open(f"sqlite:///{tmp_path / 't.db'}", create=True) as ledger:
        store = ledger.store
        with pytest.raises(BadInput):  # the body's own exception, unchanged
            with store.transaction("b/1") as tx:
                tx.index_board("club", "club")
                raise BadInput("refused", field="f", value=1)
        assert store.read("b/1") == []
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM boards").scalar() == 0  # the index row undone
        done: list[int] = []
        thread = threading.Thread(target=lambda: done.append(
            ledger.append("b/1", [OPEN], expected_seq=0).stored[-1].seq))
        thread.start()
        thread.join(20)
        assert done == [1]  # another thread took the write lock: it was released
        with store.transaction("b/1") as tx:
            with pytest.raises(RuntimeError, match="already open"):
                store.transaction("b/2")
            assert tx.head()[0] == 1


def test_sqlite_finds_ids_by_a_constant_statement_past_the_bound_value_limit(tmp_path):
    """The retry check's look-up (an append whose facts carry ids) on the driver's cursor, in
    chunks of MAX_ROWS ids: those stored are found, the others not, duplicates once."""
    with Ledger.open(f"sqlite:///{tmp_path / 'f.db'}", create=True) as ledger:
        ledger.append("b/1", [dict(OPEN, id="open-1")], expected_seq=0)
        ledger.append("b/2", [dict(OPEN, id="open-2")], expected_seq=0)
        wanted = [f"x-{i}" for i in range(4500)] + ["open-1", "open-2", "open-1"]
        with ledger.store.transaction("b/1") as tx:
            found = tx.find_ids(wanted)
        assert list(found) == ["open-1"] and found["open-1"].seq == 1 and found["open-1"].type == "BoardOpened"
        again = ledger.append("b/1", [dict(OPEN, id="open-1")], expected_seq=0)
        assert again.replayed and again.fact_seqs == (1,)
