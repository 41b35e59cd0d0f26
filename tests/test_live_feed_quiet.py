"""Issue 13 (the live service's p99 on PostgreSQL): a process's feed reads the log
only while a page follows it, starts again from the newest position when one
comes, and the NOTIFY of an append is handed to a thread (never waited for on the
request path), several appends sharing one notification."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from ledger.live.db import Notifier
from ledger.live.feed import Feed


class CountingStore:
    """An EventStore stand-in: a log of ``newest`` events, counting the reads."""

    def __init__(self) -> None:
        self.newest = 10
        self.reads = 0

    def last_position(self) -> int:
        return self.newest

    def iter_all(self, after_position: int = 0, batch: int = 1000):
        self.reads += 1
        for p in range(after_position + 1, self.newest + 1):
            yield SimpleNamespace(envelope=lambda p=p: {"stream": "club/eve/t1/b1", "seq": p,
                                                       "type": "CallPlaced", "position": p, "at": "",
                                                       "law": None, "actor": {}})


def test_the_feed_reads_nothing_for_nobody_and_resumes_from_the_newest_position():
    store = CountingStore()
    live = SimpleNamespace(dialect=SimpleNamespace(name="sqlite"))

    async def scenario() -> None:
        feed = Feed(store, live, poll=60, gap=0)  # type: ignore[arg-type]
        await feed.start()
        try:
            assert feed.last == 10
            store.newest = 15
            feed.poke()  # an append, and no page follows: nothing is read
            await asyncio.sleep(0.1)
            assert store.reads == 0 and feed.last == 10
            assert await asyncio.to_thread(feed.newest) == 15  # /healthz does not stall
            store.newest = 20
            await feed.watch()  # a page comes: the window restarts at the newest position
            assert feed.last == feed.base == 20
            store.newest = 23
            feed.poke()
            assert await feed.wait_beyond(20, timeout=5)
            found, scanned = feed.since(20, lambda s: True)
            assert [e["position"] for e in found] == [21, 22, 23] and scanned == 23
            assert feed.since(15, lambda s: True) is None  # older: that page reads the log itself
            feed.unwatch()
            reads = store.reads
            store.newest = 30
            feed.poke()
            await asyncio.sleep(0.1)
            assert store.reads == reads and feed.last == 23  # nobody follows again
        finally:
            await feed.stop()

    asyncio.run(scenario())


def test_notifications_are_handed_over_and_coalesced():
    notifier = Notifier(SimpleNamespace(dialect=SimpleNamespace(name="sqlite")))  # type: ignore[arg-type]
    assert not notifier.enabled
    notifier.send(5)  # SQLite: nothing to send, nothing kept
    assert notifier._pending is None
    notifier.enabled = True  # the hand-over alone (no thread started, no database)
    for position in (7, 9, 8):
        notifier.send(position)
    assert notifier._take() == 9  # one notification, the newest position
    notifier.stop()
    assert notifier._take() is None
