"""``python -m ledger.bench.cpu``: the CPU time per event of the three steps, and the
cProfile breakdown of the per-event append (no speed is asserted: figures belong to
the bench, not to the tests)."""

from __future__ import annotations

from ledger.bench import cpu as bench_cpu
def test_the_three_steps_and_the_breakdown_are_reported_per_event() -> None:
    figures = bench_cpu.run(boards=2, profile=True, synchronous="normal")
    assert figures["boards"] == 2 and figures["events"] >= 2 * 5  # a passed-out board has 5 events
    for key in ("append_event_us", "board_tx_us", "replay_us"):
        assert figures[key] > 0
    steps = figures["profile_us_per_event"]
    assert set(steps) == {label for label, _, _ in bench_cpu.STEPS}
    assert steps["append (all)"] >= steps["fold batch"] > steps["event_hash"] > 0
