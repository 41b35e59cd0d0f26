"""``rebuild --jobs N`` (issue 28, item 5), on both stores: the folds run in worker
processes, this process writes the snapshots, and the result (counts and every snapshot
written) is the serial run's."""

from __future__ import annotations

import random

import sqlalchemy as sa

from ledger.service import Ledger
from ledger.simulate import random_board
from ledger.store.base import Snapshot


def snapshot_rows(url):
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return sorted(tuple(r) for r in conn.exec_driver_sql(
                "SELECT stream, seq, hash, version, state FROM snapshots"))
    finally:
        engine.dispose()


def spoil(ledger, names):
    """Snapshots of an older projection version (rebuild must replace and count them)."""
    for name in names:
        events = ledger.store.read(name)
        ledger.store.save_snapshot(Snapshot(name, events[-1].seq, events[-1].hash, 0, {"phase": "old"}))


def test_rebuild_with_workers_gives_exactly_the_serial_result(store_url, monkeypatch, capsys):
    with Ledger.open(store_url, create=True) as led:
        for n in range(40):
            facts = random_board(random.Random(n), board=n % 8 + 1).facts
            led.append(f"p/b{n}", facts if n % 3 else facts[:30])  # some boards in play
        names = led.store.streams()
        spoil(led, names[::4])
        serial = led.rebuild(names, jobs=1)
    rows_serial = snapshot_rows(store_url)
    with Ledger.open(store_url) as led:
        spoil(led, names[::4])
        seen = []
        parallel = led.rebuild(names, progress=seen.append, jobs=2, url=store_url)
    assert parallel == serial and serial["differed"] >= len(names[::4])
    assert seen == names, "progress in the order asked for"
    assert snapshot_rows(store_url) == rows_serial

    from ledger.cli import main
    with Ledger.open(store_url) as led:
        spoil(led, names[:3])
    monkeypatch.setenv("LEDGER_DB", store_url)
    capsys.readouterr()
    assert main(["rebuild", "--jobs", "2"]) == 0
    assert f"rebuilt {len(names)} stream(s); 3 snapshot(s) differed" in capsys.readouterr().out
    assert snapshot_rows(store_url) == rows_serial
