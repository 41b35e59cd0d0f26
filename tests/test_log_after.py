"""``log --after POSITION [--follow]``: the store-wide log in position order,
as JSON Lines; a follower that remembers the last position misses nothing and
sees nothing twice while writers commit (both stores; the follower is a real
``cli.py`` process)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

from ledger.cli import main
from ledger.service import Ledger
from ledger.simulate import random_board

CLI = str(Path(__file__).resolve().parent.parent / "cli.py")


def boards(n):
    return random_board(random.Random(n), board=n, pass_out=0.0).facts


def test_log_after_prints_every_later_event_in_position_order(store_url, capsys):
    with Ledger.open(store_url, create=True) as led:
        led.append("f/1", boards(1)[:10])
        led.append("f/2", boards(2)[:10])
        led.append("f/1", boards(1)[10:15])
    capsys.readouterr()
    assert main(["--db", store_url, "log", "--after", "0"]) == 0
    every = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    positions = [e["position"] for e in every]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    with Ledger.open(store_url) as led:
        assert len(every) == len(led.store.read("f/1")) + len(led.store.read("f/2"))
    assert [e["stream"] for e in every][:1] == ["f/1"] and every[-1]["stream"] == "f/1"
    middle = positions[len(positions) // 2]
    assert main(["--db", store_url, "log", "--after", str(middle)]) == 0
    later = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert later == [e for e in every if e["position"] > middle]
    assert main(["--db", store_url, "log", "--after", str(positions[-1])]) == 0
    assert capsys.readouterr().out == ""


def test_log_after_and_a_stream_together_is_bad_input(store_url, capsys):
    Ledger.open(store_url, create=True).close()
    assert main(["--db", store_url, "log", "f/1", "--after", "3"]) == 2
    assert main(["--db", store_url, "log"]) == 2
    assert "STREAM" in capsys.readouterr().err


def test_a_follower_sees_every_commit_once_in_position_order(store_url):
    with Ledger.open(store_url, create=True) as led:
        led.append("w/0", boards(10)[:3])
        start = led.store.read("w/0")[-1].position
    follower = subprocess.Popen(
        [sys.executable, CLI, "--db", store_url, "log", "--after", str(start), "--follow",
         "--poll", "0.02", "--idle", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    with Ledger.open(store_url) as led:  # the writers start once the follower is reading
        led.append("w/0", boards(10)[3:4])
    assert follower.stdout is not None
    first = json.loads(follower.stdout.readline())
    assert (first["stream"], first["seq"]) == ("w/0", 4)

    def writer(n):
        facts = boards(n)
        with Ledger.open(store_url) as led:
            for i in range(0, 30, 3):
                led.append(f"w/{n}", facts[i:i + 3])

    threads = [threading.Thread(target=writer, args=(n,)) for n in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    out, err = follower.communicate(timeout=90)
    out = json.dumps(first) + "\n" + out
    assert follower.returncode == 0, err
    seen = [json.loads(x) for x in out.splitlines()]
    positions = [e["position"] for e in seen]
    assert positions == sorted(set(positions)), "a position seen twice or out of order"
    with Ledger.open(store_url) as led:
        expected = {(e.stream, e.seq) for n in (0, 1, 2, 3) for e in led.store.read(f"w/{n}")
                    if e.position > start}
    assert {(e["stream"], e["seq"]) for e in seen} == expected
    assert len(seen) == len(expected)
