"""Issue 28: what the live server spends per append, kept down: one trip to the thread pool
per append request, the pages' templates compiled once before the first request, the feed
not woken for nobody, and the append's log line with the positions its group committed."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time

import anyio.to_thread
import pytest

from ledger import groupcommit
from ledger.live import deps
from ledger.live.app import create_app
from ledger.live.deps import table_from_token
from ledger.live.feed import Feed
from ledger.live import writes
from ledger.live.writes import do_append
from live_helpers import TestClient, bearer, make_site


@pytest.fixture
def site(store_url):
    return make_site(store_url, tables=3)


def test_the_dependencies_that_do_no_io_are_async():
    """FastAPI runs a plain ``def`` dependency in the thread pool: only those that wait on
    the database may be one."""
    for dependency in (deps.get_live, deps.stream_reader, deps.table_only):
        assert inspect.iscoroutinefunction(dependency), dependency.__name__


def test_an_append_request_goes_to_the_thread_pool_once(site, monkeypatch):
    trips: list[str] = []
    real = anyio.to_thread.run_sync

    async def counted(func, *args, **kwargs):
        trips.append(getattr(func, "__qualname__", repr(func)))
        return await real(func, *args, **kwargs)

    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
        r = client.post(f"/api/streams/{site.stream(1, 1)}/events", json=[{"type": "BoardOpened"}],
                        headers=bearer(site.tokens[1]), params={"expected_seq": 0})
        assert r.status_code == 201, r.text
        assert len(trips) == 1, trips  # the request's own work (credential, checks, append)
        trips.clear()
        r = client.get(f"/api/streams/{site.stream(1, 1)}/state", headers=bearer(site.tokens[1]))
        assert r.status_code == 200 and r.json()["hands"]["N"] is None  # still the device's view
        assert len(trips) == 2, trips  # the credential (a database read) and the endpoint


def test_the_pages_templates_are_compiled_before_the_first_request(site):
    app = create_app(site.url, ledger=site.ledger)
    env = app.state.live.env
    assert not env.cache
    with TestClient(app) as client:
        names = set(env.list_templates(extensions=["html"]))
        assert "table.html" in names and {t.name for t in env.cache.values()} == names
        compiled = env.get_template("table.html")
        assert client.get(f"/table/{site.tokens[1]}").status_code == 200
        assert env.get_template("table.html") is compiled  # served from the cache


class RecordingLog:
    def __init__(self, lines: list[dict]) -> None:
        self.lines = lines

    def info(self, event: str, **fields: object) -> None:
        self.lines.append({"event": event, **fields})


class RecordingLoop:
    def __init__(self) -> None:
        self.calls: list[object] = []

    def call_soon_threadsafe(self, callback: object) -> None:
        self.calls.append(callback)


def test_the_feed_is_woken_only_when_it_would_do_something(site):
    feed = Feed(site.ledger.store, site.engine)
    loop = RecordingLoop()
    feed._loop, feed._wake = loop, asyncio.Event()  # as start() leaves them, without a loop
    feed.poke()
    assert len(loop.calls) == 1  # a page may follow: the feed reads the log
    feed._wake.set()  # woken, not yet read: its read will see this append too
    feed.poke()
    assert len(loop.calls) == 1
    feed._wake.clear()
    feed._stale = True  # nobody followed: the window is stale until a page comes
    feed.poke()
    assert len(loop.calls) == 1
    feed.watchers = 1  # a page follows (watch() pokes it for itself)
    feed.poke()
    assert len(loop.calls) == 2


def test_a_grouped_appends_log_line_names_its_committed_positions(site, monkeypatch):
    """Three tables open their boards at once while the writer is busy with the first: the
    other two are committed as one group, whose positions exist only after its INSERT."""
    monkeypatch.setattr(groupcommit, "PG_GROUP_WRITERS", 1)  # PostgreSQL too: one writer, groups
    with TestClient(create_app(site.url, ledger=site.ledger)) as _client:
        live = _client.app.state.live
        committer = live.ledger.grouped()
        real_append = live.ledger.append
        first = threading.Event()

        def slow_first(*args, **kwargs):
            if not first.is_set():
                first.set()
                time.sleep(0.5)  # the others queue meanwhile
            return real_append(*args, **kwargs)

        monkeypatch.setattr(live.ledger, "append", slow_first)
        answers: dict[int, dict] = {}
        streams = {t: site.stream(t, site.session.schedule(t)[0][2]) for t in (1, 2, 3)}  # first boards

        def open_board(table: int) -> None:
            who = table_from_token(live, site.tokens[table])
            answers[table] = do_append(live, who, streams[table], [(1, {"type": "BoardOpened"})], 0)

        logs: list[dict] = []
        monkeypatch.setattr(writes, "log", RecordingLog(logs))  # whatever structlog's config
        threads = [threading.Thread(target=open_board, args=(1,))]
        threads[0].start()
        assert first.wait(10)
        threads += [threading.Thread(target=open_board, args=(t,)) for t in (2, 3)]
        for t in threads[1:]:
            t.start()
        for t in threads:
            t.join(30)
    assert committer.stats.largest >= 2  # a group of two was committed
    lines = {e["stream"]: e for e in logs if e.get("event") == "live_append"}
    assert len(lines) == 3
    for table, answer in answers.items():
        stored = [e["position"] for e in answer["events"]]
        assert all(isinstance(p, int) for p in stored)
        assert lines[streams[table]]["positions"] == stored[:1] + stored[-1:]
