"""The event store contract (``ledger/store/base.py``), on every backend."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest
import sqlalchemy as sa
from backends import drop_append_only_triggers, make_chain, make_event

from ledger.errors import ConcurrencyError, IntegrityError, StoreUnavailable
from ledger.hashing import verify_chain
from ledger.store.base import GENESIS, Actor, Snapshot, StoredEvent
from ledger.store.sql import PG_WRITERS, SqlEventStore, open_store

STREAM = "paris-open/s1/t12/b07"


def append(store: SqlEventStore, batch: list[StoredEvent]) -> list[StoredEvent]:
    with store.transaction(batch[0].stream) as tx:
        return tx.insert(batch)


def positions(events: list[StoredEvent]) -> list[int]:
    return [ev.position for ev in events if ev.position is not None]


# --- given events, when appended, then read back ----------------------------------

def test_appended_events_read_back_with_every_envelope_field_intact(store: SqlEventStore) -> None:
    opened = make_event(STREAM, 1, GENESIS, "BoardOpened",
                        {"board": 7, "dealer": "S", "hands": {"N": ["SA", "HK"]}, "note": "été ♠"},
                        actor=Actor("director", None))
    ruled = make_event(STREAM, 2, opened.hash, "RulingGiven", {"score": -0.5, "nested": [1, [2, {}]]},
                       id="ruling-1:a", actor=Actor("system", "engine"), causes=(1, 1),
                       law="Law 64A1 (2017)", v=3, at="2026-11-21T14:03:11.123456Z")

    written = append(store, [opened, ruled])

    assert [attrs.evolve(ev, position=None) for ev in written] == [opened, ruled]
    assert store.read(STREAM) == written
    assert store.read(STREAM)[1].causes == (1, 1)
    assert list(store.iter_all()) == written
    assert store.read(STREAM, upto_seq=1) == written[:1]


def test_positions_increase_across_transactions_and_streams(store: SqlEventStore) -> None:
    first = append(store, make_chain("a", 2))
    second = append(store, make_chain("b", 1))
    third = append(store, make_chain("a", 2, after=(2, first[-1].hash)))

    seen = positions(first + second + third)
    assert len(seen) == 5
    assert seen == sorted(seen) and len(set(seen)) == 5
    assert positions(list(store.iter_all())) == seen


def test_warming_opens_the_connections_and_writes_nothing(store: SqlEventStore) -> None:
    """A server warms its store before its first request (the live service): the write
    connections (PostgreSQL: all of them, kept for the writes; SQLite: the one) and some
    pooled read ones are opened, and nothing is written; appends then run on them."""
    pg = store.engine.dialect.name == "postgresql"

    opened = store.warm(readers=3)

    assert opened == (PG_WRITERS if pg else 1) + 3
    assert list(store.iter_all()) == [] and store.tree_size() == 0 and store.streams() == []
    kept = set(map(id, store._writers if pg else [store._write_conn]))
    assert len(kept) == (PG_WRITERS if pg else 1)
    assert store.warm(readers=0) == 0  # warm already: nothing more to open
    written = append(store, make_chain("a", 2))
    assert positions(written) == positions(list(store.iter_all())) and store.tree_size() == 2
    assert set(map(id, store._writers if pg else [store._write_conn])) == kept  # a warmed one wrote


def test_transaction_head_follows_its_own_inserts(store: SqlEventStore) -> None:
    with store.transaction(STREAM) as tx:
        assert tx.head() == (0, GENESIS)
        chain = tx.insert(make_chain(STREAM, 3))
        assert tx.head() == (3, chain[-1].hash)
        assert tx.read(after_seq=1) == chain[1:]
        assert tx.find_ids([chain[0].id, "unknown"]) == {chain[0].id: chain[0]}
        assert store.read(STREAM) == chain  # a read in the same thread joins the transaction


def test_empty_and_unknown_streams_read_as_nothing(store: SqlEventStore) -> None:
    assert store.read("nobody") == []
    assert list(store.iter_all()) == []
    assert store.streams() == []
    with store.transaction("nobody") as tx:
        assert tx.head() == (0, GENESIS)
        assert tx.insert([]) == []
        assert tx.find_ids([]) == {}


# --- concurrency: the unique keys are the last word ----------------------------

def test_stale_writer_inserting_a_taken_seq_gets_concurrency_error(store: SqlEventStore) -> None:
    base = append(store, make_chain(STREAM, 1))
    winner = make_event(STREAM, 2, base[-1].hash)
    loser = make_event(STREAM, 2, base[-1].hash, data={"seat": "E", "card": "C2"})
    append(store, [winner])

    with pytest.raises(ConcurrencyError) as refused:
        append(store, [loser, make_event(STREAM, 3, loser.hash)])

    assert (refused.value.stream, refused.value.expected, refused.value.actual) == (STREAM, 1, 2)
    assert [ev.id for ev in store.read(STREAM)] == [base[0].id, winner.id]


def test_transaction_stays_usable_after_a_refused_batch(store: SqlEventStore) -> None:
    base = append(store, make_chain(STREAM, 1))
    with store.transaction(STREAM) as tx:
        with pytest.raises(ConcurrencyError):
            tx.insert([make_event(STREAM, 1, GENESIS)])
        retried = tx.insert(make_chain(STREAM, 1, after=tx.head()))
    assert store.read(STREAM) == base + retried


def test_duplicate_id_in_a_stream_is_refused_as_concurrency_error(store: SqlEventStore) -> None:
    chain = append(store, make_chain(STREAM, 2))
    fresh = make_event(STREAM, 3, chain[-1].hash)
    duplicate = make_event(STREAM, 4, fresh.hash, id=chain[0].id)

    with pytest.raises(ConcurrencyError):
        append(store, [fresh, duplicate])
    assert store.read(STREAM) == chain

    elsewhere = append(store, [make_event("other", 1, GENESIS, id=chain[0].id)])
    assert store.read("other") == elsewhere


def test_exception_inside_a_transaction_writes_nothing(store: SqlEventStore) -> None:
    with pytest.raises(RuntimeError, match="terminal lost"), store.transaction(STREAM) as tx:
        tx.insert(make_chain(STREAM, 3))
        raise RuntimeError("terminal lost")

    assert store.read(STREAM) == []
    assert store.streams() == []
    assert list(store.iter_all()) == []


def test_a_second_transaction_in_the_same_thread_is_refused(store: SqlEventStore) -> None:
    with store.transaction("a"), pytest.raises(RuntimeError, match="already open"):
        with store.transaction("b"):
            pass


# --- the database refuses to rewrite history ------------------------------------

def test_database_refuses_update_and_delete_of_events(store: SqlEventStore) -> None:
    chain = append(store, make_chain(STREAM, 2))
    statements = ["UPDATE events SET data = '{}' WHERE seq = 1", "DELETE FROM events WHERE seq = 1"]
    if store.engine.dialect.name == "postgresql":
        statements.append("TRUNCATE events")

    for statement in statements:
        with pytest.raises(sa.exc.IntegrityError, match="append-only"), store.engine.begin() as conn:
            conn.execute(sa.text(statement))

    assert store.read(STREAM) == chain


def test_changed_byte_in_stored_data_is_detected_by_verify_chain(store: SqlEventStore) -> None:
    chain = append(store, make_chain(STREAM, 3))
    assert verify_chain(store.read(STREAM)) == chain[-1].hash

    with store.engine.begin() as conn:
        drop_append_only_triggers(conn)
        changed = conn.execute(sa.text(
            "UPDATE events SET data = replace(data, 'H7', 'H8') WHERE stream = :s AND seq = 2"
        ), {"s": STREAM})
        assert changed.rowcount == 1

    tampered = store.read(STREAM)
    assert tampered[1].data == {"seat": "E", "card": "H8"}
    with pytest.raises(IntegrityError) as detected:
        verify_chain(tampered)
    assert (detected.value.stream, detected.value.seq) == (STREAM, 2)


# --- snapshots --------------------------------------------------------------------

def test_snapshot_saved_in_the_append_transaction_is_loaded(store: SqlEventStore) -> None:
    assert store.load_snapshot(STREAM) is None
    with store.transaction(STREAM) as tx:
        chain = tx.insert(make_chain(STREAM, 2))
        assert tx.load_snapshot() is None
        tx.save_snapshot(Snapshot(STREAM, 2, chain[-1].hash, 1, {"turn": "S", "tricks": []}))

    with store.transaction(STREAM) as tx:
        assert tx.load_snapshot() == Snapshot(STREAM, 2, chain[-1].hash, 1, {"turn": "S", "tricks": []})
    assert store.load_snapshot(STREAM) == Snapshot(STREAM, 2, chain[-1].hash, 1,
                                                   {"turn": "S", "tricks": []})


def test_snapshot_is_upserted_and_dropped_when_the_stream_moves_on(store: SqlEventStore) -> None:
    chain = append(store, make_chain(STREAM, 2))
    store.save_snapshot(Snapshot(STREAM, 2, chain[-1].hash, 1, {"v": 1}))
    store.save_snapshot(Snapshot(STREAM, 2, chain[-1].hash, 2, {"v": 2}))
    assert store.load_snapshot(STREAM) == Snapshot(STREAM, 2, chain[-1].hash, 2, {"v": 2})

    more = append(store, make_chain(STREAM, 1, after=(2, chain[-1].hash)))
    assert store.load_snapshot(STREAM) is None  # the state of seq 2 is not the head's

    store.save_snapshot(Snapshot(STREAM, 2, chain[-1].hash, 2, {"v": "stale"}))
    assert store.load_snapshot(STREAM) is None  # a rebuild that lost the race does not win

    store.save_snapshot(Snapshot(STREAM, 3, more[-1].hash, 2, {"v": 3}))
    assert store.load_snapshot(STREAM) == Snapshot(STREAM, 3, more[-1].hash, 2, {"v": 3})


# --- iteration and listing --------------------------------------------------------

@pytest.mark.parametrize("page", [1, 4, 5, 1000])
def test_iter_all_pages_through_every_event_in_position_order(store: SqlEventStore,
                                                              page: int) -> None:
    written = []
    heads = {name: (0, GENESIS) for name in ("x/1", "x/2", "y")}
    for round_ in range(5):
        for name, after in heads.items():
            batch = append(store, make_chain(name, 1 + round_ % 2, after=after))
            heads[name] = (batch[-1].seq, batch[-1].hash)
            written += batch

    assert len(written) == 21
    assert list(store.iter_all(batch=page)) == written
    cut = written[6].position
    assert cut is not None
    assert list(store.iter_all(after_position=cut, batch=page)) == written[7:]
    assert list(store.iter_all(after_position=written[-1].position or 0, batch=page)) == []


def test_streams_are_sorted_and_filtered_by_exact_prefix(store: SqlEventStore) -> None:
    names = ["paris/s1/t2/b01", "paris/s1/t1/b02", "Paris/s1/t1/b01", "paris_x/b1",
             "parisXs1", "lyon/s1/t1/b01", "paris%/b1"]
    for name in names:
        append(store, make_chain(name, 1))

    assert store.streams() == sorted(names)
    assert store.streams("paris/") == ["paris/s1/t1/b02", "paris/s1/t2/b01"]
    assert store.streams("paris_") == ["paris_x/b1"]
    assert store.streams("paris%") == ["paris%/b1"]
    assert store.streams("nowhere") == []


# --- opening ----------------------------------------------------------------------

def test_opening_a_database_without_schema_says_to_run_init(store_url: str) -> None:
    with pytest.raises(StoreUnavailable, match=r"cli\.py init"):
        open_store(store_url)


def test_opening_a_missing_sqlite_file_does_not_create_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.db"
    with pytest.raises(StoreUnavailable, match=r"cli\.py init"):
        open_store(f"sqlite:///{path}")
    assert not path.exists()


def test_sqlite_file_runs_in_wal_mode(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'ledger.db'}", create=True) as store:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_in_memory_ledger_works_end_to_end() -> None:
    with open_store("sqlite:///:memory:", create=True) as store:
        chain = append(store, make_chain(STREAM, 3))
        more = append(store, make_chain(STREAM, 1, after=(3, chain[-1].hash)))
        assert store.read(STREAM) == chain + more
        assert list(store.iter_all(batch=2)) == chain + more
        assert verify_chain(store.read(STREAM)) == more[-1].hash


def test_unreachable_postgresql_is_reported_as_store_unavailable() -> None:
    with pytest.raises(StoreUnavailable, match=re.escape("127.0.0.1:1")) as refused:
        open_store("postgresql+psycopg://nobody:secret@127.0.0.1:1/none")
    assert "secret" not in str(refused.value)


# --- durability -------------------------------------------------------------------

def test_sqlite_commits_are_synced_in_full_unless_the_url_asks_for_normal(tmp_path) -> None:
    """WAL with synchronous=FULL is the default; NORMAL only when asked for in the URL
    (a power failure may then lose the last commits: docs/performance.md)."""
    for query, level in (("", 2), ("?synchronous=normal", 1)):
        store = open_store(f"sqlite:///{tmp_path / 'sync.db'}{query}", create=True)
        try:
            with store.engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == level
                assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        finally:
            store.close()
    with pytest.raises(StoreUnavailable, match="synchronous=off"):
        open_store(f"sqlite:///{tmp_path / 'sync.db'}?synchronous=off")
