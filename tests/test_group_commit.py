"""Group commit and multi-stream transactions (issue 28, item 1).

Two batches over overlapping streams taken in different orders (A,B against B,A) used to
deadlock on PostgreSQL: each held one stream's advisory lock and waited for the other's (or
for the position lock the other held). Batches now declare their streams and take every
stream lock first, in one order. Then the group committer: concurrent appenders, each
append checked, folded and ruled on its own stream's head inside one shared commit."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
from backends import create_pg_schema, drop_pg_schema, make_chain

from ledger.audit.verify import verify_store
from ledger.errors import BadInput, ConcurrencyError, LedgerError
from ledger.groupcommit import GroupCommitter
from ledger.service import Ledger
from ledger.simulate import random_board
from ledger.store.sql import open_store


def test_two_batches_over_the_same_streams_in_opposite_orders_do_not_deadlock(store_url):
    """Each batch writes its first stream, then waits (up to a second) at the barrier for the
    other to have written its own first stream, then writes the other one. Before the fix, on
    PostgreSQL, one of the two failed (deadlock detected, or the busy timeout)."""
    setup = open_store(store_url, create=True)
    setup.close()
    stores = [open_store(store_url, busy_timeout=20) for _ in range(2)]
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []
    orders = (("A", "B"), ("B", "A"))

    def writer(n: int) -> None:
        store, (first, second) = stores[n], orders[n]
        try:
            with store.batch([first, second]):
                for stream in (first, second):
                    with store.transaction(stream) as tx:
                        head = tx.head()
                        tx.insert(make_chain(stream, 2, after=head))
                    if stream == first:
                        try:
                            barrier.wait(timeout=1.0)
                        except threading.BrokenBarrierError:
                            pass  # the other waits for this one's locks (the fix): go on
        except BaseException as exc:  # asserted below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
        assert not t.is_alive(), "a batch hung"
    try:
        assert errors == []
        for stream in ("A", "B"):
            events = stores[0].read(stream)
            assert [e.seq for e in events] == [1, 2, 3, 4]
            assert all(b.prev == a.hash for a, b in zip(events, events[1:]))
    finally:
        for s in stores:
            s.close()


def test_a_batch_refuses_a_stream_it_did_not_declare(store):
    with store.batch(["A"]):
        with pytest.raises(ValueError, match="not declared"):
            with store.transaction("B"):
                pass
        with store.transaction("A") as tx:
            tx.insert(make_chain("A", 1))
    assert [e.seq for e in store.read("A")] == [1]


# --- the group committer ---------------------------------------------------------




CLOCK = "2026-11-28T04:00:00.000000Z"


@pytest.fixture
def second_url(backend, tmp_path) -> Iterator[str]:
    """A second empty database of the same backend (the serial run's)."""
    if backend.name == "sqlite":
        yield f"sqlite:///{tmp_path / 'serial.db'}"
        return
    pg = create_pg_schema()
    try:
        yield pg.url
    finally:
        assert pg.schema is not None
        drop_pg_schema(pg.schema)


def board_facts(n: int, seed: int) -> list[dict]:
    """A whole board, every fact with an id (so two runs store the same events)."""
    facts = random_board(random.Random(seed), tournament="gc", board=n, table="1").facts
    return [dict(f, id=f"b{n}-{i}") for i, f in enumerate(facts)]


def first_card(facts: list[dict]) -> int:
    return next(i for i, f in enumerate(facts) if f["type"] == "CardPlayed")


def open_ledger(url: str) -> Ledger:
    return Ledger.open(url, create=True, clock=lambda: CLOCK)


def tree_of(ledger: Ledger) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """The stored tree (leaves without positions, nodes) and every event's (stream, seq,
    hash) in position order."""
    leaves, nodes = ledger.store.iter_tree()
    log = [(e.stream, e.seq, e.hash) for e in ledger.store.iter_all()]
    return [(i, h, s, q) for i, _p, h, s, q in leaves], nodes, log


def test_one_group_commits_every_append_but_the_refused_ones_each_on_its_own_head(store_url, second_url):
    b1, b2, b3 = (board_facts(n, seed) for n, seed in ((1, 11), (2, 22), (3, 33)))
    c2, c3 = first_card(b2), first_card(b3)
    half = first_card(b1) // 2
    bad_card = dict(b3[c3], card=b3[c3 + 1]["card"], id="bad")  # the next seat's card
    ledger = open_ledger(store_url)
    try:
        before = [("gc/b2", b2[:c2], None), ("gc/b3", b3[:c3], None)]
        for stream, facts, _ in before:
            ledger.append(stream, facts)
        group = GroupCommitter(ledger, writers=1)  # one writer: the group below is formed behind it
        gate = threading.Event()
        held = group.submit("gc/b1", b1[:1], check=lambda _state: gate.wait(10))  # holds the writer
        while not held.running():  # taken by the writer alone: what follows queues behind it
            time.sleep(0.001)
        def broken(_state: object) -> None:
            raise RuntimeError("a check that fails (a bug, not a refusal)")

        queued = [("gc/b1", b1[1:half], None),       # b1 twice in the group: the second folds on
                  ("gc/b1", b1[half:first_card(b1)], None),  # the head the first left
                  ("gc/b2", b2[c2:c2 + 1], c2 - 1),  # stale expected seq: refused
                  ("gc/b3", [bad_card], None),       # a card not in that seat's hand: refused
                  ("gc/b3", b3[c3:c3 + 1], None),    # the same head, the right card
                  ("gc/b2", b2[c2:c2 + 1], c2)]      # the right expected seq
        futures = [group.submit(s, f, e) for s, f, e in queued]
        failing = group.submit("gc/b2", b2[c2 + 1:c2 + 2], check=broken)  # fails alone too
        gate.set()
        held.result(30)
        outcomes = []
        for fut in futures:
            try:
                outcomes.append(fut.result(30))
            except LedgerError as exc:
                outcomes.append(exc)
        with pytest.raises(RuntimeError, match="a check that fails"):
            failing.result(30)
        assert group.stats.commits == 2 and group.stats.largest == len(queued) + 1
        assert group.stats.refused == 3
        assert isinstance(outcomes[2], ConcurrencyError)
        assert isinstance(outcomes[3], BadInput) and not isinstance(outcomes[3], ConcurrencyError)
        accepted = [q for q, o in zip(queued, outcomes) if not isinstance(o, LedgerError)]
        assert len(accepted) == 4
        assert [e.id for e in ledger.events("gc/b1") if e.id.startswith("b")] == \
            [f["id"] for f in b1[:first_card(b1)]]
        assert [e.id for e in ledger.events("gc/b2")][-1] == b2[c2]["id"]
        assert [e.id for e in ledger.events("gc/b3") if e.id.startswith("b")] == \
            [f["id"] for f in b3[:c3 + 1]]
        assert outcomes[5].stored[0].seq == c2 + 1
        for o in outcomes:  # each answer carries the positions its group's INSERT assigned
            if not isinstance(o, LedgerError):
                by_seq = {e.seq: e.position for e in ledger.events(o.stored[0].stream)}
                assert [e.position for e in o.stored] == [by_seq[e.seq] for e in o.stored]
                assert None not in [e.position for e in o.stored]
        assert verify_store(ledger.store).ok
        grouped_tree = tree_of(ledger)
    finally:
        group.close()
        ledger.close()
    # the same accepted appends, one transaction each, in the group's order: the same tree
    serial = open_ledger(second_url)
    try:
        for stream, facts, expected in before + [("gc/b1", b1[:1], None)] + accepted:
            serial.append(stream, facts, expected)
        assert tree_of(serial) == grouped_tree
    finally:
        serial.close()


def test_concurrent_appenders_each_event_once_in_order(store_url):
    """Six threads, each playing its own board one fact per append through the committer:
    every fact stored exactly once, in its thread's order; fewer commits than appends."""
    ledger = open_ledger(store_url)
    boards = {f"gc/c{n}": board_facts(n, 100 + n) for n in range(1, 7)}
    errors: list[BaseException] = []
    start = threading.Barrier(len(boards))

    def play(stream: str) -> None:
        try:
            start.wait(10)
            for fact in boards[stream]:
                ledger.grouped().append(stream, [fact])
        except BaseException as exc:  # asserted below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(s,)) for s in boards]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
            assert not t.is_alive()
        assert errors == []
        for stream, facts in boards.items():
            ids = [e.id for e in ledger.events(stream) if e.id.startswith("b")]
            assert ids == [f["id"] for f in facts]
        total = sum(len(f) for f in boards.values())
        stats = ledger.grouped().stats
        assert stats.appends == total and stats.refused == 0
        assert stats.commits < stats.appends  # appends queued behind a commit were grouped
        assert {s for s, _ in ledger.store.boards()} == set(boards)  # the board index, written with the group
        assert all(ledger.store.latest_snapshot(s).seq == len(ledger.events(s)) for s in boards)  # ended boards
        assert verify_store(ledger.store).ok
    finally:
        ledger.close()


def test_the_live_servers_appends_go_through_the_group_committer(store_url):
    """Three table devices posting their boards at once over HTTP: every append answered
    201 with its own seqs, each board's events in its device's order, all of them committed
    by the ledger's group committer; a stale expected seq among them is 409, alone."""
    from live_helpers import TestClient, bearer, make_site

    from ledger.live.app import create_app
    from ledger.live.bench import board_facts as live_facts

    site = make_site(store_url, tables=3, boards_per_round=1)
    posted = {t: 0 for t in site.tokens}
    sent: dict[int, list[dict]] = {}
    errors: list[str] = []
    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        def device(table: int) -> None:
            board = site.session.schedule(table)[0][2]
            stream = site.stream(table, board)
            facts = [{"type": "BoardOpened"}] + live_facts(site.session.deals[board], board,
                                                           random.Random(table))[:20]
            sent[table] = facts
            head = 0
            for fact in facts:
                r = client.post(f"/api/streams/{stream}/events", json=[fact], params={"expected_seq": head},
                                headers=bearer(site.tokens[table]))
                if r.status_code != 201:
                    errors.append(f"{table}: {r.status_code} {r.text}")
                    return
                head = r.json()["head_seq"]
                posted[table] += 1
            stale = client.post(f"/api/streams/{stream}/events", json=[facts[-1]],
                                params={"expected_seq": head - 1}, headers=bearer(site.tokens[table]))
            if stale.status_code != 409:
                errors.append(f"{table}: stale expected seq answered {stale.status_code}")

        threads = [threading.Thread(target=device, args=(t,)) for t in site.tokens]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
            assert not t.is_alive()
        assert errors == []
        stats = site.ledger.grouped().stats
        assert stats.appends == sum(posted.values()) + len(site.tokens)  # the stale ones too
        assert stats.refused == len(site.tokens)
        for table in site.tokens:
            board = site.session.schedule(table)[0][2]
            stored = site.ledger.events(site.stream(table, board))
            table_events = [e for e in stored if e.actor.role == "table"]
            assert len(table_events) == posted[table] == 21
            assert [(e.type, e.data.get("call") or e.data.get("card")) for e in table_events[1:]] == \
                [(f["type"], f.get("call") or f.get("card")) for f in sent[table][1:]]
        assert verify_store(site.ledger.store).ok


def test_with_the_tree_integrated_behind_a_group_still_commits_and_the_integrator_catches_up(store_url):
    """With the tree behind the log (revision 0006) a group's appends run in savepoints
    (validate-then-write extends the tree itself, so it is not used): all stored, the tree
    integrated afterwards, the store verified."""
    from ledger.store import integrator

    ledger = open_ledger(store_url)
    try:
        integrator.enable(ledger.store)
        boards = {f"gc/i{n}": board_facts(n, 200 + n)[:12] for n in range(1, 4)}
        def play(stream: str) -> None:  # each device waits for its answer (its order kept)
            for fact in boards[stream]:
                ledger.grouped().append(stream, [fact])

        threads = [threading.Thread(target=play, args=(s,)) for s in boards]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
            assert not t.is_alive()
        while integrator.integrate(ledger.store).leaves:
            pass
        for stream, facts in boards.items():
            assert [e.id for e in ledger.events(stream) if e.id.startswith("b")] == [f["id"] for f in facts]
        assert verify_store(ledger.store).ok
    finally:
        ledger.close()
