"""``bench --group`` (issue 28, items 1 and 7): writer threads with and without the group
committer, alternated in chunks, the load beside each round. No speed is asserted; what
is asserted is that both sides ran, that the group side committed several appends per
commit on SQLite (its writers queue behind each commit), and that the command prints it."""

from __future__ import annotations

import json

from ledger.bench.group import run_group_bench
from ledger.cli import main


def test_both_sides_run_in_every_round_and_the_group_side_shares_commits():
    found = run_group_bench(writers=4, rounds=2, chunk=0.4)
    assert len(found["load_1min_per_round"]) == 2
    assert found["lone.eps"] > 0 and found["group.eps"] > 0
    assert found["group.appends_per_commit"] > 1.0  # four writers queue behind each fsync
    assert found["lone.p99_ms"] > 0 and found["group.p99_ms"] > 0
    assert found["ratio.group_vs_lone"] > 0 and "library.eps" not in found


def test_bench_group_on_the_command_line(capsys):
    assert main(["bench", "--group", "--writers", "2", "--rounds", "1", "--chunk", "0.2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["writers"] == 2 and found["store"] == "sqlite (full)"
    assert set(found) >= {"lone.eps", "group.eps", "group.appends_per_commit", "ratio.group_vs_lone"}
