"""Concurrent writers and a polling reader, on every backend."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import pytest
from backends import make_chain, make_event

from ledger.audit.verify import verify_store
from ledger.errors import ConcurrencyError
from ledger.hashing import verify_chain
from ledger.store.base import GENESIS, StoredEvent
from ledger.store.sql import SqlEventStore


def run_threads(*targets: Callable[[], None], timeout: float = 30.0) -> None:
    """Run each target in its own thread; re-raise the first failure."""
    errors: list[BaseException] = []

    def guarded(target: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            except BaseException as exc:  # re-raised by the test below
                errors.append(exc)
        return run

    threads = [threading.Thread(target=guarded(t)) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a thread hung"
    if errors:
        raise errors[0]


def race(store: SqlEventStore, contenders: list[StoredEvent]) -> dict[str, object]:
    """Each contender appended by its own writer, all starting together; the
    outcome per event id: "won" or the ConcurrencyError raised."""
    start = threading.Barrier(len(contenders))
    outcomes: dict[str, object] = {}

    def writer(ev: StoredEvent) -> Callable[[], None]:
        def write() -> None:
            start.wait()
            try:
                with store.transaction(ev.stream) as tx:
                    tx.insert([ev])
                    time.sleep(0.05)  # hold the transaction open: the other one must wait
                outcomes[ev.id] = "won"
            except ConcurrencyError as exc:
                outcomes[ev.id] = exc
        return write

    run_threads(*(writer(ev) for ev in contenders))
    return outcomes


@pytest.mark.parametrize("existing", [0, 3], ids=["new-stream", "existing-stream"])
def test_two_writers_racing_for_the_same_seq_exactly_one_wins(store: SqlEventStore,
                                                              existing: int) -> None:
    for round_ in range(3):
        stream = f"race/t1/b{round_ + 1:02d}"
        base = make_chain(stream, existing)
        if base:
            with store.transaction(stream) as tx:
                tx.insert(base)
        head = (base[-1].seq, base[-1].hash) if base else (0, GENESIS)
        # Both writers last saw seq `existing`: each sends the event that follows it.
        contenders = [make_event(stream, head[0] + 1, head[1], data={"seat": "E", "card": card})
                      for card in ("H7", "C2")]

        outcomes = race(store, contenders)

        won = [ev for ev in contenders if outcomes[ev.id] == "won"]
        lost = [outcomes[ev.id] for ev in contenders if outcomes[ev.id] != "won"]
        assert len(won) == 1 and len(lost) == 1
        assert isinstance(lost[0], ConcurrencyError)
        assert (lost[0].expected, lost[0].actual) == (existing, existing + 1)
        stored = store.read(stream)
        assert [ev.seq for ev in stored] == list(range(1, existing + 2))
        assert stored[-1].id == won[0].id
        assert verify_chain(stored) == won[0].hash


def test_polling_reader_sees_every_commit_once_and_in_position_order(store: SqlEventStore) -> None:
    writers, appends, batch = 4, 50, 2
    done = threading.Event()
    seen: list[StoredEvent] = []
    went_back: list[tuple[int, int]] = []

    def writer(n: int) -> Callable[[], None]:
        stream = f"order/t{n}/b01"
        rng = random.Random(n)

        def write() -> None:
            for _ in range(appends):
                with store.transaction(stream) as tx:
                    head = tx.head()
                    time.sleep(rng.uniform(0, 0.002))  # widen the window: read head ... insert
                    tx.insert(make_chain(stream, batch, after=head))
                    time.sleep(rng.uniform(0, 0.002))  # ... and insert ... commit
        return write

    def poll() -> None:
        last = seen[-1].position if seen else 0
        assert last is not None
        for ev in store.iter_all(after_position=last, batch=7):
            assert ev.position is not None
            if ev.position <= last:
                went_back.append((last, ev.position))
            seen.append(ev)
            last = ev.position

    def reader() -> None:
        while not done.is_set():
            poll()
            time.sleep(0.001)
        poll()  # the final poll, after every writer has committed

    def all_writers() -> None:
        try:
            run_threads(*(writer(n) for n in range(writers)))
        finally:
            done.set()

    run_threads(all_writers, reader, timeout=60)

    assert went_back == []
    keys = [(ev.stream, ev.seq) for ev in seen]
    assert len(keys) == len(set(keys)), "an event was seen twice"
    expected = {(f"order/t{n}/b01", seq) for n in range(writers) for seq in range(1, appends * batch + 1)}
    assert set(keys) == expected
    assert seen == list(store.iter_all())
    for n in range(writers):
        verify_chain(store.read(f"order/t{n}/b01"))


def test_postgresql_writers_of_one_store_run_side_by_side(store: SqlEventStore) -> None:
    """PostgreSQL: a write transaction of one thread does not hold back another
    thread's append on another stream (each has its own write connection); the
    position lock still orders their commits. SQLite has one writer at a time."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    opened, other_done = threading.Event(), threading.Event()

    def slow() -> None:
        with store.transaction("side/t1/b01") as tx:
            head = tx.head()
            opened.set()
            assert other_done.wait(10), "the other append waited for this transaction"
            tx.insert(make_chain("side/t1/b01", 1, after=head))

    def quick() -> None:
        assert opened.wait(10)
        with store.transaction("side/t2/b01") as tx:
            tx.insert(make_chain("side/t2/b01", 2, after=tx.head()))
        other_done.set()

    run_threads(slow, quick)
    assert [(ev.stream, ev.seq) for ev in store.iter_all()] == [
        ("side/t2/b01", 1), ("side/t2/b01", 2), ("side/t1/b01", 1)]
    assert verify_store(store).ok


def test_the_merkle_tree_stays_exact_with_many_writers_of_one_store(store: SqlEventStore) -> None:
    """Eight writers of one store (side by side on PostgreSQL), batches of 1 to 3
    events: every leaf is its event's, in position order, and every stored node
    is the hash of its children (``verify``)."""
    def writer(n: int) -> Callable[[], None]:
        stream = f"tree/t{n}/b01"
        rng = random.Random(n)

        def write() -> None:
            for _ in range(12):
                with store.transaction(stream) as tx:
                    tx.insert(make_chain(stream, rng.randint(1, 3), after=tx.head()))
        return write

    run_threads(*(writer(n) for n in range(8)), timeout=60)
    report = verify_store(store)
    assert report.ok, report.problems
    leaves, _nodes = store.iter_tree()
    assert [row[1] for row in leaves] == [ev.position for ev in store.iter_all()]
    assert store.tree_size() == report.events


def test_postgresql_a_frontier_node_missing_is_named_not_guessed(store: SqlEventStore) -> None:
    """The frontier is read with the insert: a tree that lacks one of its nodes
    (written outside the append path) refuses the append, naming the nodes."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("the frontier statement is PostgreSQL's")
    import sqlalchemy as sa

    from ledger.errors import IntegrityError

    with store.engine.begin() as conn:  # leaf 5 alone: the frontier of 6 leaves, nodes (2, 0) and (1, 2), is missing
        conn.execute(sa.text("INSERT INTO merkle_leaves (leaf_index, position, stream, seq, hash) "
                             "VALUES (5, 99, 'x', 1, :h)"), {"h": "00" * 32})
    with pytest.raises(IntegrityError, match=r"lacks the nodes \[\(1, 2\), \(2, 0\)\]"):
        with store.transaction("gap/t1/b01") as tx:
            tx.insert(make_chain("gap/t1/b01", 1, after=tx.head()))
    assert store.read("gap/t1/b01") == []
