"""Group commit and multi-stream transactions (issue 28, item 1).

Two batches over overlapping streams taken in different orders (A,B against B,A) used to
deadlock on PostgreSQL: each held one stream's advisory lock and waited for the other's (or
for the position lock the other held). Batches now declare their streams and take every
stream lock first, in one order. Then the group committer: concurrent appenders, each
append checked, folded and ruled on its own stream's head inside one shared commit."""

from __future__ import annotations

import threading

import pytest
from backends import make_chain

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


