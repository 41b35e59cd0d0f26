"""``replay --store`` (issue 28, item 5), on both stores: every stream read back, its chain
checked and its events folded, in worker processes, gives exactly the serial answer (each
stream's events, head, break and state digest, in the order asked, and the one digest over
them); a tampered event is found by both; the command line exits 1 on it."""

from __future__ import annotations

import json
import random

import sqlalchemy as sa
from backends import drop_append_only_triggers

from ledger.replay import replay, summarise
from ledger.service import Ledger
from ledger.simulate import random_board

BOARDS = 40


def fill(url: str) -> list[str]:
    with Ledger.open(url, create=True) as led:
        for n in range(BOARDS):
            facts = random_board(random.Random(n), board=n % 8 + 1).facts
            led.append(f"p/b{n:02d}", facts if n % 3 else facts[:30])  # some boards in play
        led.append("q/b1", random_board(random.Random(99), board=1).facts)
        return led.store.streams()


def tamper(url: str, stream: str, seq: int) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            drop_append_only_triggers(conn)
            conn.execute(sa.text("UPDATE events SET at = :at WHERE stream = :s AND seq = :q"),
                         {"at": "2000-01-01T00:00:00.000000Z", "s": stream, "q": seq})
    finally:
        engine.dispose()


def test_replay_with_workers_gives_exactly_the_serial_answer(store_url, monkeypatch, capsys):
    names = fill(store_url)
    with Ledger.open(store_url) as led:
        serial = list(replay(led, names))
        parallel = list(replay(led, names, jobs=2, url=store_url))
        assert parallel == serial and [r.stream for r in serial] == names
        assert summarise(parallel) == summarise(serial)
        report = summarise(serial)
        assert report.streams == BOARDS + 1 and report.boards == BOARDS + 1 and not report.broken
        assert report.events == sum(len(led.store.read(n)) for n in names)
        assert "ended" in {r.phase for r in serial} and len({r.phase for r in serial}) > 1, "in play too"
        assert len({r.state for r in serial}) == len(serial), "each board's own state"
        only_p = summarise(replay(led, led.store.streams("p/"), jobs=2, url=store_url))
        assert only_p.streams == BOARDS and only_p.digest != report.digest

    from ledger.cli import main
    monkeypatch.setenv("LEDGER_DB", store_url)
    outputs = []
    for jobs in ("1", "2"):
        capsys.readouterr()
        assert main(["replay", "--store", "--jobs", jobs, "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] | {"jobs": 0} == outputs[1] | {"jobs": 0}
    assert outputs[0]["digest"] == report.digest and outputs[1]["jobs"] == 2

    tamper(store_url, "p/b07", 12)
    with Ledger.open(store_url) as led:
        serial = summarise(replay(led, names))
        parallel = summarise(replay(led, names, jobs=2, url=store_url))
    assert parallel == serial and serial.broken == (("p/b07", 12),)
    assert serial.digest != report.digest
    capsys.readouterr()
    assert main(["replay", "--store", "--jobs", "2"]) == 1
    out, err = capsys.readouterr()
    assert "p/b07 seq 12" in err and f"replayed {BOARDS + 1} stream(s)" in out


def test_replay_wants_a_file_or_the_store(monkeypatch, tmp_path, capsys):
    from ledger.cli import main

    monkeypatch.setenv("LEDGER_DB", f"sqlite:///{tmp_path / 'l.db'}")
    assert main(["replay"]) == 2
    assert main(["replay", "x.jsonl", "--store"]) == 2
    assert main(["replay", "x.jsonl", "--jobs", "2"]) == 2
