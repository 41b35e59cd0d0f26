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
