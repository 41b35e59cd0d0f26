"""The benchmarks: ``bench`` (the ledger, and with --peer the eventsourcing library beside
it) and ``bench-live`` (the live service over HTTP).

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import click

from ledger.errors import BadInput


@click.command()
@click.option("--boards", type=click.IntRange(1), default=200, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.option("--seed", type=int, default=2026, show_default=True)
@click.option("--peer", is_flag=True, help="Also run the eventsourcing library on the same workload "
              "(the optional `bench` extra), the ratios, and the cost per board at 200 and 2,000 boards.")
@click.option("--pg", "pg_url", default=None, help="With --peer: also 16 writer processes on this "
              "PostgreSQL database, the ledger beside the library's recorder.")
@click.option("--sync", "synchronous", type=click.Choice(["full", "normal"]), default="full",
              show_default=True, help="SQLite synchronous level of the temporary file (and of the "
              "library's with --peer); normal may lose the last commits on power failure.")
@click.option("--interleaved", is_flag=True, help="Instead: the ledger, the eventsourcing library's bare "
              "recorder and its application path, and the raw SQLite ceilings, alternated in chunks in "
              "one process (medians of the rounds, the load printed beside each).")
@click.option("--rounds", type=click.IntRange(1, 100), default=5, show_default=True,
              help="With --interleaved: rounds (each runs every side once per workload).")
@click.option("--chunk", type=click.FloatRange(0.05, 60), default=2.0, show_default=True,
              help="With --interleaved: seconds per side and workload in a round.")
@click.option("--merge-delay", "merge_delay", is_flag=True, help="Instead: the tree integrated behind the "
              "log, writer threads appending while the integrator runs: the merge delay (commit to "
              "leaf) and the integrator's rate (a temporary SQLite file, or --pg URL).")
@click.option("--group", "group", is_flag=True, help="Instead: concurrent writer threads in this process, "
              "each append committed alone (today) and through the group committer, alternated in "
              "chunks (--rounds, --chunk); with --pg also the library's writer processes (issue 28).")
@click.option("--writers", type=click.IntRange(1, 64), default=4, show_default=True,
              help="With --merge-delay: writer threads (a store each); with --group: writer threads "
              "(16 unless given).")
@click.option("--seconds", type=click.FloatRange(0.5, 600), default=5.0, show_default=True,
              help="With --merge-delay: seconds of appends.")
@click.option("--claim-floor", "claim_floor", is_flag=True, help="Instead: only the cost of G(side), "
              "the claim floor of Laws 69B and 71 (issue 22): random five-trick positions in every strain, "
              "and as many tricks as the engine computes exactly; the load printed beside the figures.")
@click.option("--positions", type=click.IntRange(1, 100_000), default=None,
              help="With --claim-floor: random deals of five tricks (each for both sides) [default: 500].")
@click.option("--casefile", "casefile", is_flag=True, help="Instead: a case file and its tournament's "
              "results timed at each --store-sizes boards in one growing store (median of --rounds runs, "
              "CPU and wall, the load beside; issue 28 item 4).")
@click.option("--store-sizes", "store_sizes", default="200,20000", show_default=True,
              help="With --casefile: comma-separated numbers of boards in the store.")
@click.option("--replay-scaling", "replay_scaling", is_flag=True, help="Instead: the store replayed "
              "(replay --store) on --jobs worker processes against 1, and per core against the "
              "eventsourcing library's application replay (--boards, --rounds, --chunk; issue 28 item 5).")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="With --replay-scaling: worker processes (default: the cores).")
@click.pass_context
def bench(ctx: click.Context, boards: int, as_json: bool, seed: int, peer: bool,
          pg_url: str | None, synchronous: str, interleaved: bool, rounds: int, chunk: float,
          merge_delay: bool, group: bool, writers: int, seconds: float, claim_floor: bool,
          positions: int | None, casefile: bool, store_sizes: str, replay_scaling: bool,
          jobs: int | None) -> None:
    """The project's benchmark (a fresh temporary SQLite file unless --db is given)."""
    run = _Run(ctx, boards, as_json, seed, peer, pg_url, synchronous, rounds, chunk, writers, seconds,
               positions, store_sizes, jobs)
    chosen = {"claim_floor": claim_floor, "group": group, "merge_delay": merge_delay,
              "interleaved": interleaved, "casefile": casefile, "replay_scaling": replay_scaling}
    mode = next((name for name, _ in MODES if chosen.get(name)), "appends")
    dict(MODES)[mode](run)


class _Run(NamedTuple):
    """The options a bench mode reads."""

    ctx: click.Context
    boards: int
    as_json: bool
    seed: int
    peer: bool
    pg_url: str | None
    synchronous: str
    rounds: int
    chunk: float
    writers: int
    seconds: float
    positions: int | None
    store_sizes: str = "200,20000"
    jobs: int | None = None


def _echo(figures: dict[str, Any], width: int, sub_width: int | None = None) -> None:
    """One line per figure, a nested figure as ``key.sub``."""
    for key, value in figures.items():
        if isinstance(value, dict):
            for sub, item in value.items():
                click.echo(f"{key + '.' + sub:>{sub_width or width}}: {item}")
        else:
            click.echo(f"{key:>{width}}: {value}")


def _progress(run: _Run) -> Callable[[str], None] | None:
    return None if run.as_json else (lambda line: click.echo(line, err=True))


def _library_installed() -> bool:
    try:
        import eventsourcing  # noqa: F401
    except ImportError:
        return False
    return True


def _library_or_say(without: str) -> bool:
    """Is the eventsourcing library installed? If not, say on stderr what runs ``without`` it."""
    library = _library_installed()
    if not library:
        click.echo(f"the eventsourcing library is not installed (pip install -e '.[bench]'): {without}", err=True)
    return library


def _claim_floor(run: _Run) -> None:
    """--claim-floor: the cost of G(side) alone."""
    from ledger.bench.appends import CLAIM_FLOOR_POSITIONS, claim_floor_figures

    floor = claim_floor_figures(run.seed, positions=run.positions or CLAIM_FLOOR_POSITIONS)
    if run.as_json:
        click.echo(json.dumps(floor))
    else:
        _echo(floor, 40)


def _casefile(run: _Run) -> None:
    """--casefile: a case file in the time of its tournament (ledger/bench/casefile.py)."""
    from ledger.bench.casefile import run_casefile_bench

    try:
        sizes = tuple(int(s) for s in run.store_sizes.split(","))
    except ValueError:
        raise BadInput("comma-separated numbers of boards", field="--store-sizes", value=run.store_sizes) from None
    figures = run_casefile_bench(sizes, runs=run.rounds, seed=run.seed, progress=_progress(run))
    if run.as_json:
        click.echo(json.dumps(figures))
    else:
        _echo(figures, 30)


def _group(run: _Run) -> None:
    """--group: writer threads, each append alone and through the group committer."""
    from ledger.bench.group import run_group_bench

    source = run.ctx.get_parameter_source("writers")
    grouped = run_group_bench(run.pg_url,
                              writers=16 if source is click.core.ParameterSource.DEFAULT else run.writers,
                              rounds=run.rounds, chunk=run.chunk, synchronous=run.synchronous, seed=run.seed,
                              library=_library_installed(), progress=_progress(run))
    if run.as_json:
        click.echo(json.dumps(grouped))
    else:
        for key, value in grouped.items():
            click.echo(f"{key:>40}: {value}")


def _merge_delay(run: _Run) -> None:
    """--merge-delay: the tree integrated behind the log."""
    from ledger.bench.merge import run_merge_delay

    merged = run_merge_delay(run.pg_url, writers=run.writers, seconds=run.seconds, seed=run.seed)
    if run.as_json:
        click.echo(json.dumps(merged))
    else:
        for key, value in merged["merge"].items():
            click.echo(f"{'merge.' + key:>40}: {value}")


def _interleaved(run: _Run) -> None:
    """--interleaved: the sides alternated in chunks in one process."""
    from ledger.bench.interleaved import run_interleaved

    library = _library_or_say("ours and the ceilings only")
    found = run_interleaved(rounds=run.rounds, chunk=run.chunk, synchronous=run.synchronous, seed=run.seed,
                            library=library, progress=_progress(run))
    if run.pg_url:
        from ledger.bench.peer import postgres_writers

        found["postgres"] = postgres_writers(run.pg_url)
    if run.as_json:
        click.echo(json.dumps(found))
        return
    _echo(found["interleaved"], 48)
    for key, value in found.get("postgres", {}).items():
        click.echo(f"{'postgres.' + key:>48}: {value}")


def _appends(run: _Run) -> None:
    """The default: the ledger's appends (and with --peer the library beside it)."""
    from ledger.bench.appends import run_bench

    db = run.ctx.obj["db"] if run.ctx.obj["db_given"] else None
    figures = run_bench(boards=run.boards, db=db, seed=run.seed,
                        progress=not run.as_json and sys.stderr.isatty(), synchronous=run.synchronous)
    if run.peer:
        from ledger.bench.appends import board_growth
        from ledger.bench.peer import run_peer

        figures |= run_peer(figures, run.pg_url, run.synchronous) | {"growth": board_growth(seed=run.seed)}
    if run.as_json:
        click.echo(json.dumps(figures))
    else:
        _echo(figures, 24, 32)


def _replay_scaling(run: _Run) -> None:
    """--replay-scaling: the store replayed on N processes and on 1, and the library's replay."""
    from ledger.bench.replay import run_replay_scaling

    library = _library_or_say("ours only")
    found = run_replay_scaling(boards=run.boards, jobs=run.jobs, rounds=run.rounds, chunk=run.chunk,
                               seed=run.seed, library=library, progress=_progress(run))
    if run.as_json:
        click.echo(json.dumps(found))
    else:
        _echo(found["replay_scaling"], 40)


MODES: tuple[tuple[str, Callable[[_Run], None]], ...] = (
    ("claim_floor", _claim_floor),
    ("casefile", _casefile),
    ("replay_scaling", _replay_scaling),
    ("group", _group),
    ("merge_delay", _merge_delay),
    ("interleaved", _interleaved),
    ("appends", _appends),
)
"""The bench modes, the first flag given wins (in this order); none: the appends."""


@click.command("bench-live")
@click.option("--terminals", default="30,120,300", show_default=True,
              help="Comma-separated numbers of simulated table terminals (at most 300 each).")
@click.option("--interval", type=click.FloatRange(0, 60), default=2.0, show_default=True,
              help="Seconds between a terminal's events.")
@click.option("--seconds", type=click.FloatRange(1, 120), default=20.0, show_default=True,
              help="Length of each run.")
@click.option("--saturation-seconds", type=click.FloatRange(1, 120), default=10.0, show_default=True)
@click.option("--servers", type=click.IntRange(1, 4), default=None,
              help="Server processes (default: 1 on SQLite, 2 on PostgreSQL).")
@click.option("--cold", is_flag=True,
              help="Terminals send their first append without loading their table page first "
                   "(the first request of each is then its board's opening).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def bench_live(ctx: click.Context, terminals: str, interval: float, seconds: float,
               saturation_seconds: float, servers: int | None, cold: bool, as_json: bool) -> None:
    """The live service's figure: K terminals appending over HTTP on 127.0.0.1
    (a fresh temporary SQLite file unless --db is given)."""
    from ledger.live.bench import MAX_TERMINALS, run_live_bench

    try:
        counts = tuple(int(k) for k in terminals.split(","))
    except ValueError:
        raise BadInput("comma-separated whole numbers", field="--terminals", value=terminals) from None
    if any(not 1 <= k <= MAX_TERMINALS for k in counts):
        raise BadInput(f"1 to {MAX_TERMINALS} terminals", field="--terminals", value=terminals)
    db = ctx.obj["db"] if ctx.obj["db_given"] else None
    figures = run_live_bench(db, terminals=counts, interval=interval, seconds=seconds,
                             saturation_seconds=saturation_seconds, servers=servers,
                             page_first=not cold)
    if as_json:
        click.echo(json.dumps(figures))
        return
    for run in figures["runs"]:
        click.echo(f"K={run['terminals']:>3}: offered {run['offered_events_per_s']} events/s, achieved "
                   f"{run['events_per_s']}  p50 {run['append_ms_p50']} ms  p99 "
                   f"{run['append_ms_p99']} ms  (server p99 {run['server_ms_p99']} ms, board "
                   f"openings p99 {run['board_opening_ms_p99']} ms)  behind schedule {run['sends_behind_schedule']}  "
                   f"errors {run['errors']}  server CPU {run.get('server_cpu_ms_per_event', '?')} ms/event")
    click.echo(f"saturation ({figures['saturation']['terminals']} terminals, no pause): "
               f"{figures['saturation_events_per_s']} events/s")


COMMANDS: tuple[click.Command, ...] = (bench, bench_live)
