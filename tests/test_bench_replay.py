"""``bench --replay-scaling`` (issue 28, item 5): the store replayed on N worker processes and
on 1, in this process, and the library's application replay, each round with the load; every
side replays the whole store (the same events). No speed is asserted: the machine's load
decides the figures."""

from __future__ import annotations

import json

import pytest

from ledger.bench.replay import run_replay_scaling
from ledger.cli import main


def _library() -> bool:
    try:
        import eventsourcing  # noqa: F401
    except ImportError:
        return False
    return True


def test_every_side_replays_the_whole_store_in_every_round():
    library = _library()
    found = run_replay_scaling(boards=6, jobs=2, rounds=2, chunk=0.1, library=library)["replay_scaling"]
    assert found["jobs"] == 2 and found["boards"] == 6 and len(found["load_1min_per_round"]) == 2
    sides = {"one_process", "n_processes", "in_process"} | ({"application"} if library else set())
    assert set(found["medians_eps"]) == sides and all(v > 0 for v in found["medians_eps"].values())
    assert found["events"] > 6 * 40, "six whole boards"
    assert all(v > 0 for v in found["cpu_us_per_event"].values()), "the workers' own CPU counted"
    low, high = found["efficiency_spread"]
    assert low <= found["efficiency"] <= high
    assert found["scaling_n_over_1"] == pytest.approx(found["efficiency"] * 2, abs=0.01)
    low, high = found["machine_scaling_spread"]
    assert 0 < low <= found["machine_scaling_n_over_1"] <= high and found["scaling_vs_machine"] > 0
    if library:
        low, high = found["per_core_vs_application_spread"]
        assert low <= found["per_core_vs_application"] <= high


def test_bench_replay_scaling_on_the_command_line(capsys):
    assert main(["bench", "--replay-scaling", "--boards", "4", "--jobs", "2", "--rounds", "1",
                 "--chunk", "0.1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["replay_scaling"]
    assert found["jobs"] == 2 and found["target_efficiency"] == 0.8
