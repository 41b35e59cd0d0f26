"""Live updates: server-sent events fed from the store's position-ordered log.

The position order is the source of truth. Each process has one :class:`Feed`:
a single task that reads the log *after the last position it knows*
(``EventStore.iter_all``) whenever something may have been appended, keeps
the newest events in memory (a window of ``WINDOW`` events), and wakes the
pages waiting on it. Pages are served from that window: the database is read
once per process per change, not once per connected page. A page that
reconnects with a ``Last-Event-ID`` older than the window catches up from the
log itself (:func:`read_after`), then follows the window again: nothing is
missed. What wakes the feed:

* an append made by this process (``poke``);
* on PostgreSQL, a ``NOTIFY ledger_events`` sent by any process after its
  append commits (a ``LISTEN`` connection in a thread);
* a look at the log every ``poll`` seconds (SQLite shared by several
  processes, and a safety net if a notification is lost).

The reads are grouped: at most one every ``GAP`` seconds (the appends of a busy
moment are read together), and none while no page follows the feed: the window
is then marked stale, and the first page that comes starts it again from the
log's newest position (a page that brings an older ``Last-Event-ID`` catches up
from the log, as above).
"""

from __future__ import annotations

import asyncio
import bisect
import threading
import time
from typing import Any, Callable

import structlog
from sqlalchemy.engine import Engine

from ledger.live.db import CHANNEL, listen_conninfo
from ledger.store.base import StoreReader

log = structlog.get_logger("ledger.live")

WINDOW = 5000
"""Events kept in memory for the pages (older ones are read from the log)."""
GAP = 0.05
"""Least time between two reads of the log by the feed (seconds)."""
BRIEF = ("stream", "seq", "type", "position", "at", "law", "actor")


def brief(envelope: dict[str, Any]) -> dict[str, Any]:
    """What a page is told of an event (it re-reads what it shows)."""
    return {k: envelope[k] for k in BRIEF}


class Feed:
    def __init__(self, store: StoreReader, live: Engine, *, poll: float = 1.0, window: int = WINDOW,
                 gap: float = GAP) -> None:
        self.store = store
        self.gap = gap
        self.watchers = 0
        """Pages following the feed now; with none, the log is not read."""
        self._stale = False
        self.live = live
        self.poll = poll
        self.window = window
        self.last = 0
        self.base = 0
        """The window holds every event with position > base (up to ``last``)."""
        self._positions: list[int] = []
        self._briefs: list[dict[str, Any]] = []
        self._cond: asyncio.Condition | None = None
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._cond = asyncio.Condition()
        self._wake = asyncio.Event()
        self.last = self.base = await asyncio.to_thread(self.store.last_position)
        self._task = asyncio.create_task(self._run())
        if self.live.dialect.name == "postgresql":
            self._listener = threading.Thread(target=self._listen, name="ledger-listen", daemon=True)
            self._listener.start()

    async def stop(self) -> None:
        self._stop.set()
        # Bounded waits only: a shutdown must never hang on a task or a thread
        # that is itself waiting on the database (nor on a busy thread pool).
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=5)
        if self._listener is not None:
            for _ in range(30):  # the listener wakes every few hundred ms to see _stop
                if not self._listener.is_alive():
                    break
                await asyncio.sleep(0.1)

    def poke(self) -> None:
        """Thread-safe: something may have been appended; look at the log. Nothing to do
        (issue 28: a wake-up of the event loop per append) while the feed is already woken
        (its read, after it clears the wake, sees what was committed before this poke), nor
        while nobody follows a stale window (the first page that comes pokes, ``watch``)."""
        wake = self._wake
        if self._loop is None or wake is None or wake.is_set() or (self._stale and not self.watchers):
            return
        self._loop.call_soon_threadsafe(wake.set)

    def newest(self) -> int:
        """The log's newest position (blocking: call it in a thread). While pages
        follow the feed, the window's last position; while none does, the window
        is not kept up, so the log is asked (one query)."""
        if self.watchers and not self._stale:
            return self.last
        return max(self.last, int(self.store.last_position()))

    def _read_new(self) -> list[dict[str, Any]]:
        return [brief(e.envelope()) for e in self.store.iter_all(after_position=self.last, batch=1000)]

    async def watch(self) -> None:
        """A page starts following the feed (call :meth:`unwatch` when it leaves): when
        the window went stale while nobody followed, wait (a bounded time) until it is
        started again from the log's newest position."""
        assert self._cond is not None
        self.watchers += 1
        if self._stale:
            self.poke()
            async with self._cond:
                try:
                    await asyncio.wait_for(self._cond.wait_for(lambda: not self._stale), 5)
                except asyncio.TimeoutError:
                    pass

    def unwatch(self) -> None:
        self.watchers = max(0, self.watchers - 1)

    async def _run(self) -> None:
        assert self._wake is not None and self._cond is not None
        read_at = 0.0
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)
            except asyncio.TimeoutError:
                pass
            if not self.watchers:  # nobody to tell: do not read the log for nobody
                self._stale = True
                self._wake.clear()
                continue
            pause = read_at + self.gap - time.monotonic()
            if pause > 0:  # group the appends of a busy moment into one read
                await asyncio.sleep(pause)
            self._wake.clear()
            read_at = time.monotonic()
            try:
                if self._stale:
                    newest = await asyncio.to_thread(self.store.last_position)
                    async with self._cond:
                        self._positions.clear()
                        self._briefs.clear()
                        self.last = self.base = max(self.last, newest)
                        self._stale = False
                        self._cond.notify_all()
                new = await asyncio.to_thread(self._read_new)
            except Exception as exc:  # the database away for a moment: try again
                log.warning("feed_read_failed", error=str(exc))
                continue
            if new:
                async with self._cond:
                    self._add(new)
                    self._cond.notify_all()

    def _add(self, new: list[dict[str, Any]]) -> None:
        self._positions.extend(e["position"] for e in new)
        self._briefs.extend(new)
        self.last = self._positions[-1]
        extra = len(self._positions) - self.window
        if extra > self.window // 4:  # trim now and then, not on every event
            self.base = self._positions[extra - 1]
            del self._positions[:extra], self._briefs[:extra]

    def since(self, position: int, accept: Callable[[str], bool],
              limit: int = 500) -> tuple[list[dict[str, Any]], int] | None:
        """From the window: the events after ``position`` that ``accept`` takes (at most
        ``limit``) and the last position looked at; None when the window no longer
        reaches back to ``position`` (read the log instead)."""
        if position < self.base:
            return None
        out: list[dict[str, Any]] = []
        for i in range(bisect.bisect_right(self._positions, position), len(self._positions)):
            if accept(self._briefs[i]["stream"]):
                out.append(self._briefs[i])
                if len(out) >= limit:
                    return out, self._positions[i]
        return out, max(position, self.last)  # the window holds everything up to last

    async def wait_beyond(self, position: int, timeout: float) -> bool:
        """Wait until the log is known to be past ``position``; False on timeout."""
        assert self._cond is not None
        async with self._cond:
            try:
                await asyncio.wait_for(self._cond.wait_for(lambda: self.last > position), timeout)
            except asyncio.TimeoutError:
                return False
        return True

    def _listen(self) -> None:
        import psycopg

        conninfo = listen_conninfo(self.live)
        while not self._stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    log.info("feed_listening", channel=CHANNEL)
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=0.25, stop_after=100):
                            self.poke()
            except Exception as exc:
                log.warning("feed_listen_failed", error=str(exc))
                self._stop.wait(1.0)


def read_after(store: StoreReader, after: int, accept: Callable[[str], bool],
               limit: int = 500) -> tuple[list[dict[str, Any]], int]:
    """Envelopes with position > ``after`` whose stream ``accept`` allows, in
    position order (at most ``limit``), and the last position looked at."""
    out = []
    scanned = after
    for stored in store.iter_all(after_position=after, batch=limit):
        scanned = stored.position or scanned
        if accept(stored.stream):
            out.append(stored.envelope())
            if len(out) >= limit:
                break
    return out, scanned
