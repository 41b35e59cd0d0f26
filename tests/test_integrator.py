"""Sequencing apart from integration (issue 28, item 2), on both stores: the tree the
integrator builds behind the log is exactly the one the append path builds (same leaves,
nodes and roots; digests and proofs taken before stay valid); ``digest`` publishes only
integrated sizes; one integrator per database; and on PostgreSQL the reader guarantee
(a reader asking for positions after the last one it saw never misses a later commit with
a lower position) without the position lock held across the commit."""

from __future__ import annotations

import random
import threading
import time

import pytest
import sqlalchemy as sa
from backends import make_chain

from ledger.audit.consistency import check_consistency, prove_consistency
from ledger.store import integrator
from ledger.store.sql import open_store
from ledger.audit.transparency import check_digest, current_digest, prove_stream


def plan(rng, appends, streams=6, heads=None):
    """``appends`` batches of 1-9 chained events on random streams."""
    heads = {} if heads is None else heads
    batches = []
    for _ in range(appends):
        stream = f"s/{rng.randrange(streams)}"
        chain = make_chain(stream, rng.randint(1, 9), after=heads.get(stream, (0, "0" * 64)))
        batches.append(chain)
        heads[stream] = (chain[-1].seq, chain[-1].hash)
    return batches


def write(store, batches):
    for chain in batches:
        with store.transaction(chain[0].stream) as tx:
            tx.insert(chain)


def fill(store, rng, appends, heads=None):
    write(store, plan(rng, appends, heads=heads))


def settle(store, batch=integrator.BATCH, timeout=60.0):
    """Integrate until the tree covers every committed event. On PostgreSQL a transaction in
    flight anywhere in the cluster (another test's) holds the integrator back for a while:
    a delay, never a leaf out of order."""
    total = len(list(store.iter_all())) if not store.integrate_behind else None
    deadline = time.monotonic() + timeout
    while True:
        step = integrator.integrate(store, batch)
        with store.engine.connect() as conn:
            count = conn.exec_driver_sql("SELECT count(*) FROM events").scalar()
        if step.elected and step.size == (total or count):
            return step
        assert time.monotonic() < deadline, f"not integrated within {timeout} s: {step}"
        time.sleep(0.05)


def tree_of(store):
    leaves, nodes = store.iter_tree()
    return [(i, h, s, q) for i, _p, h, s, q in leaves], [tuple(n) for n in nodes]


def test_the_integrated_tree_is_the_tree_the_append_path_builds(backend, tmp_path):
    from backends import create_pg_schema, drop_pg_schema

    other = create_pg_schema() if backend.schema else None
    url_b = other.url if other else f"sqlite:///{tmp_path / 'behind.db'}"
    inline, behind = open_store(backend.url, create=True), open_store(url_b, create=True)
    try:
        integrator.enable(behind)
        rng, heads = random.Random(7), {}
        sizes = []
        for step in range(8):  # the same events, appended the same way; integrated now and then
            batches = plan(rng, 6, heads=heads)
            write(inline, batches)
            write(behind, batches)
            assert behind.tree_size() == (sizes[-1] if sizes else 0), "appends write no leaf"
            done = settle(behind, batch=rng.choice([1, 3, 7, 50]))
            assert done.elected and done.size == inline.tree_size()
            sizes.append(done.size)
        assert tree_of(behind) == tree_of(inline)
        for size in sizes:
            from ledger.audit.transparency import stored_root
            assert stored_root(behind, size) == stored_root(inline, size)
        assert not [p for p in check_digest(behind, current_digest(behind)).problems]
    finally:
        inline.close()
        behind.close()
        if other:
            drop_pg_schema(other.schema)


def test_digests_and_proofs_taken_before_the_switch_stay_valid(store):
    rng = random.Random(3)
    heads: dict = {}
    fill(store, rng, 10, heads=heads)
    old = current_digest(store)
    proof_before = prove_stream(store, "s/1", old)
    integrator.enable(store)
    fill(store, rng, 10, heads=heads)
    assert current_digest(store) == old, "digest publishes the integrated size only"
    from ledger.audit.verify import verify_store
    assert list(verify_store(store).problems) == [], "events after the last leaf: not yet integrated"
    settle(store)
    new = current_digest(store)
    assert new.size > old.size
    again = prove_stream(store, "s/1", old)
    assert again["events"] == proof_before["events"] and again["digest"] == proof_before["digest"]
    assert check_digest(store, old).problems == ()
    assert check_consistency(old, new, prove_consistency(store, old, new)) == []
    assert list(verify_store(store).problems) == []


def test_digest_wait_publishes_the_integrated_size_and_covers_what_was_committed(store_url, monkeypatch, capsys):
    import json

    from ledger.cli import main

    monkeypatch.setenv("LEDGER_DB", store_url)
    with open_store(store_url, create=True) as store:
        integrator.enable(store)
        fill(store, random.Random(1), 5, {})
        total = len(list(store.iter_all()))
    capsys.readouterr()
    assert main(["digest", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["size"] == 0 and "not integrated yet" in captured.err
    assert main(["digest", "--json", "--wait", "5"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["size"] == total and "not integrated" not in captured.err
    assert main(["integrate"]) == 0 and f"the tree holds {total}" in capsys.readouterr().out


@pytest.mark.postgres
def test_one_integrator_per_database_and_another_takes_over_when_it_dies(backend):
    if backend.schema is None:
        pytest.skip("PostgreSQL: the advisory lock (SQLite has one writer)")
    store = open_store(backend.url, create=True)
    holder = sa.create_engine(backend.url).connect()
    try:
        integrator.enable(store)
        fill(store, random.Random(2), 4, {})
        holder.exec_driver_sql(f"SELECT pg_advisory_xact_lock({integrator.INTEGRATOR_LOCK_CLASS}, "
                               "hashtext(current_schema()))")
        step = integrator.integrate(store)
        assert not step.elected and store.tree_size() == 0
        holder.invalidate()  # the integrator holding the lock dies: its connection ends
        deadline = time.monotonic() + 30  # once the server has seen the connection go
        while not integrator.integrate(store).elected:
            assert time.monotonic() < deadline, "no integrator took over"
            time.sleep(0.1)
        settle(store)
        with store.engine.connect() as conn:
            assert store.tree_size() == conn.exec_driver_sql("SELECT count(*) FROM events").scalar() > 0
    finally:
        holder.close()
        store.close()


# --- the reader guarantee, PostgreSQL -------------------------------------------------------

def _pg_only(backend):
    if backend.schema is None:
        pytest.skip("PostgreSQL: on SQLite one writer commits at a time (positions in commit order)")


@pytest.mark.postgres
def test_a_reader_never_sees_a_position_before_a_lower_one_is_committed(backend):
    """Writer A takes position p and is slow to commit; writer B takes p' > p and commits.
    The bounded reader does not return p' until A has committed (the unbounded read, the
    control, does: it would have moved past p and missed it)."""
    _pg_only(backend)
    store = open_store(backend.url, create=True)
    reader = open_store(backend.url)
    try:
        integrator.enable(store)
        reader.integrate_behind = True
        a_inserted, b_done, release_a = threading.Event(), threading.Event(), threading.Event()

        def writer_a():
            with store.transaction("a") as tx:
                tx.insert(make_chain("a", 1))
                a_inserted.set()
                release_a.wait(10)

        thread = threading.Thread(target=writer_a)
        thread.start()
        assert a_inserted.wait(10)
        with store.transaction("b") as tx:  # commits while A is in flight
            tx.insert(make_chain("b", 1))
        b_done.set()
        assert [e.stream for e in reader.iter_all()] == [], "nothing is settled while A is in flight"
        reader.integrate_behind = False
        assert [e.stream for e in reader.iter_all()] == ["b"], "the control: an unbounded read sees B first"
        reader.integrate_behind = True
        release_a.set()
        thread.join(10)
        deadline = time.monotonic() + 60  # other tests' transactions may hold the bound a while
        while [e.stream for e in reader.iter_all()] != ["a", "b"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert settle(store).size == 2
    finally:
        reader.close()
        store.close()


@pytest.mark.postgres
def test_concurrent_writers_a_following_reader_and_the_integrator_miss_nothing(backend):
    _pg_only(backend)
    store = open_store(backend.url, create=True)
    reader = open_store(backend.url)
    try:
        integrator.enable(store)
        reader.integrate_behind = True
        stop = threading.Event()
        seen: list[int] = []
        errors: list[BaseException] = []

        def write(n):
            rng = random.Random(n)
            head = (0, "0" * 64)
            try:
                for _ in range(25):
                    chain = make_chain(f"w/{n}", rng.randint(1, 4), after=head)
                    with store.transaction(f"w/{n}") as tx:
                        tx.insert(chain)
                        time.sleep(rng.random() * 0.01)  # positions taken, commit delayed
                    head = (chain[-1].seq, chain[-1].hash)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        def follow():
            last, deadline = 0, None
            while True:
                if stop.is_set() and deadline is None:
                    deadline = time.monotonic() + 60
                    with store.engine.connect() as conn:
                        total = conn.exec_driver_sql("SELECT count(*) FROM events").scalar()
                for event in reader.iter_all(after_position=last):
                    seen.append(event.position)
                    last = event.position
                if deadline is not None and (len(seen) >= total or time.monotonic() > deadline):
                    return
                time.sleep(0.002)

        def integrate_loop():
            while not stop.is_set():
                integrator.integrate(store, batch=17)
                time.sleep(0.005)

        writers = [threading.Thread(target=write, args=(n,)) for n in range(6)]
        others = [threading.Thread(target=follow), threading.Thread(target=integrate_loop)]
        for t in writers + others:
            t.start()
        for t in writers:
            t.join(120)
        stop.set()
        for t in others:
            t.join(120)
        assert not errors
        everything = [e.position for e in store.iter_all()]
        assert len(everything) > 150
        assert seen == sorted(seen) and len(set(seen)) == len(seen), "in order, none twice"
        assert seen == everything, "the reader missed no commit"
        settle(store)
        from ledger.audit.verify import verify_store
        assert list(verify_store(store).problems) == []
        leaves, _ = store.iter_tree()
        assert [p for _i, p, *_ in leaves] == everything
    finally:
        reader.close()
        store.close()


def test_a_server_on_a_database_integrated_behind_runs_the_integrator(store_url):
    from fastapi.testclient import TestClient

    from ledger.live.app import create_app
    from ledger.service import Ledger

    with open_store(store_url, create=True) as store:
        integrator.enable(store)
    ledger = Ledger.open(store_url)
    app = create_app(store_url, ledger=ledger)
    with TestClient(app):
        write(ledger.store, plan(random.Random(5), 4))
        with ledger.store.engine.connect() as conn:
            total = conn.exec_driver_sql("SELECT count(*) FROM events").scalar()
        deadline = time.monotonic() + 60
        while ledger.store.tree_size() < total:
            assert time.monotonic() < deadline, "the server's integrator did not integrate"
            time.sleep(0.05)
    assert total > 0
