"""Live updates: server-sent events fed from the store's position-ordered log.

The position order is the source of truth. Each process keeps the last
position it knows of (``Feed.last``) and wakes the pages waiting on it when
it moves; every page then reads the log *after the last position it saw*
(``Last-Event-ID`` on reconnection), so nothing is missed and a page that was
away catches up. What moves ``last``:

* an append made by this process (``poke``);
* on PostgreSQL, a ``NOTIFY ledger_events`` sent by any process after its
  append commits (a ``LISTEN`` connection in a thread);
* a poll of the log every ``poll`` seconds (SQLite shared by several
  processes, and a safety net if a notification is lost).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable

import sqlalchemy as sa
import structlog
from sqlalchemy.engine import Engine

from ledger.store.schema import events

CHANNEL = "ledger_events"
log = structlog.get_logger("ledger.live")


def max_position(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.max(events.c.position))).scalar() or 0)


def notify(engine: Engine, position: int) -> None:
    """Tell the other processes (PostgreSQL) that the log reached ``position``."""
    if engine.dialect.name != "postgresql":
        return
    with engine.connect() as conn:
        conn.execute(sa.text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": str(position)})
        conn.commit()


class Feed:
    def __init__(self, engine: Engine, *, poll: float = 1.0) -> None:
        self.engine = engine
        self.poll = poll
        self.last = 0
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
        self.last = await asyncio.to_thread(max_position, self.engine)
        self._task = asyncio.create_task(self._run())
        if self.engine.dialect.name == "postgresql":
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
        """Thread-safe: something may have been appended; look at the log."""
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        assert self._wake is not None and self._cond is not None
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            try:
                newest = await asyncio.to_thread(max_position, self.engine)
            except Exception as exc:  # the database away for a moment: try again
                log.warning("feed_poll_failed", error=str(exc))
                continue
            if newest > self.last:
                async with self._cond:
                    self.last = newest
                    self._cond.notify_all()

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

        url = self.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
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


def read_after(store: Any, after: int, accept: Callable[[str], bool],
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
