"""The live service reaches the event store only through Ledger and the EventStore
interface (ledger/store/base.py): never the store's engine, SQL adapter or tables.
Its own tables have their own engine (ledger/live/db.py)."""

from __future__ import annotations

import re
from pathlib import Path

import ledger.live

LIVE = Path(ledger.live.__file__).resolve().parent


def test_live_code_does_not_reach_into_the_store():
    offences = []
    for path in sorted(LIVE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for pattern in (r"\.store\.engine", r"ledger\.store\.sql\b", r"store\._", r"ledger\.store\.schema import (?!metadata\b)"):
            for m in re.finditer(pattern, text):
                offences.append(f"{path.name}: {m.group(0)}")
    assert offences == []


def test_last_position_is_the_newest_events_position(store_url):
    from ledger.service import Ledger

    with Ledger.open(store_url, create=True) as led:
        assert led.store.last_position() == 0
        opened = {"type": "BoardOpened", "tournament": "T", "board": 1, "table": "1",
                  "deal": "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"}
        result = led.append("T/t1/b1", [opened, {"type": "CallPlaced", "seat": "N", "call": "1C"}])
        assert led.store.last_position() == result.stored[-1].position == max(
            e.position for e in led.store.iter_all())


def test_the_feeds_window_answers_from_memory_and_sends_older_readers_to_the_log():
    from ledger.live.feed import Feed

    feed = Feed(store=None, live=None, window=8)  # type: ignore[arg-type]
    feed.last = feed.base = 100  # the log stood at 100 when the process started
    feed._add([{"stream": f"club/eve/t{1 + p % 2}/b1", "position": p} for p in range(101, 121)])
    assert feed.last == 120 and feed.base > 100  # trimmed: the window keeps the newest events
    assert feed.since(100, lambda s: True) is None  # too old: read the log itself
    t1 = lambda s: s.startswith("club/eve/t1/")  # noqa: E731
    found, scanned = feed.since(feed.base, t1)
    assert [e["position"] for e in found] == [p for p in range(feed.base + 1, 121) if p % 2 == 0]
    assert scanned == 120
    found, scanned = feed.since(feed.base, lambda s: True, limit=2)
    assert [e["position"] for e in found] == [feed.base + 1, feed.base + 2] and scanned == feed.base + 2
    assert feed.since(120, t1) == ([], 120) and feed.since(130, t1) == ([], 130)
