"""The log's own commands (LEDGER-SPEC section 8): ``init``, ``append``, ``state``, ``log``,
``verify``, ``replay``, ``rebuild``, ``casefile`` and ``demo``.

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import click

from ledger.cli.common import open_ledger, parse_digest, read_input, rich_console, safe_url
from ledger.errors import BadInput


@click.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Create or upgrade the schema (Alembic upgrade head)."""
    from ledger.store.migrate import current, upgrade

    upgrade(ctx.obj["db"])
    click.echo(f"schema at revision {current(ctx.obj['db'])} ({safe_url(ctx.obj['db'])})")


@click.command()
@click.argument("stream")
@click.argument("file", required=False)
@click.option("--expected-seq", type=int, default=None,
              help="The seq you last saw; refused (exit 3) if the stream moved on.")
@click.option("--json", "as_json", is_flag=True, help="Print the written envelopes as JSON Lines.")
@click.pass_context
def append(ctx: click.Context, stream: str, file: str | None, expected_seq: int | None,
           as_json: bool) -> None:
    """Append the JSON Lines facts in FILE (or stdin) as one atomic batch."""
    from ledger.retry import split_envelopes
    from ledger.service import json_lines, parse_fact

    lines = json_lines(read_input(file))
    with open_ledger(ctx) as ledger:
        lines, envelope_seqs = split_envelopes(ledger.store, stream, lines)  # log --json sent back
        if not lines and envelope_seqs:
            click.echo("already stored (retry): seq " + " ".join(map(str, envelope_seqs)))
            return
        facts = [parse_fact(obj, number) for number, obj in lines]
        result = ledger.append(stream, facts, expected_seq=expected_seq)
    if as_json:
        for e in result.stored:
            click.echo(json.dumps(e.envelope(), ensure_ascii=False))
        return
    if result.replayed:
        click.echo("already stored (retry): seq " + " ".join(map(str, result.fact_seqs)))
        return
    facts_seqs = set(result.fact_seqs)
    for e in result.stored:
        mark = "" if e.seq in facts_seqs else f"  ({e.law}, by the ruling engine)"
        click.echo(f"{e.seq} {e.type}{mark}")


@click.command()
@click.argument("stream")
@click.option("--at", "at_seq", type=int, default=None, help="The state after this seq.")
@click.option("--json", "as_json", is_flag=True, help="The state document (spec section 5).")
@click.pass_context
def state(ctx: click.Context, stream: str, at_seq: int | None, as_json: bool) -> None:
    """The table state: hands, auction, tricks, rulings, result."""
    with open_ledger(ctx) as ledger:
        doc = ledger.state(stream, at_seq)
    _print_state(doc, as_json)


def _print_state(doc: dict[str, Any], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    from ledger.render import render_state

    rich_console().print(render_state(doc))


@click.command("log")
@click.argument("stream", required=False)
@click.option("--json", "as_json", is_flag=True, help="One envelope per line (spec section 2).")
@click.option("--after", "after", type=click.IntRange(min=0), default=None,
              help="The store-wide log after this position, in position order (JSON Lines).")
@click.option("--follow", is_flag=True, help="With --after: keep printing events as they are committed.")
@click.option("--poll", type=click.FloatRange(min=0.01), default=0.5, show_default=True,
              help="With --follow: seconds between two reads.")
@click.option("--idle", type=click.FloatRange(min=0), default=None,
              help="With --follow: stop after this many seconds without a new event.")
@click.pass_context
def log_cmd(ctx: click.Context, stream: str | None, as_json: bool, after: int | None, follow: bool,
            poll: float, idle: float | None) -> None:
    """The stream's events, in order, with who logged them and which Law applied;
    or, with --after, every stream's events after a position (a subscriber)."""
    if after is not None or follow:
        if stream is not None:
            raise BadInput("give STREAM or --after, not both (--after reads every stream)",
                           field="STREAM", value=stream)
        _follow_log(ctx, after or 0, follow, poll, idle)
        return
    if stream is None:
        raise BadInput("give a STREAM, or --after POSITION for the store-wide log", field="STREAM",
                       value=None)
    with open_ledger(ctx) as ledger:
        stored = ledger.events(stream)
    envelopes: list[Mapping[str, Any]] = [e.envelope() for e in stored]
    if as_json:
        for env in envelopes:
            click.echo(json.dumps(env, ensure_ascii=False))
        return
    from ledger.render import render_log

    rich_console().print(render_log(envelopes))


def _follow_log(ctx: click.Context, after: int, follow: bool, poll: float, idle: float | None) -> None:
    """Print every event with position > after, in position order; with
    ``follow``, go on reading as writers commit (positions are handed out in
    commit order, so remembering the last one printed misses nothing)."""
    import time

    last, quiet_since = after, time.monotonic()
    with open_ledger(ctx) as ledger:
        while True:
            for e in ledger.store.iter_all(after_position=last):
                click.echo(json.dumps(e.envelope(), ensure_ascii=False))
                assert e.position is not None
                last, quiet_since = e.position, time.monotonic()
            sys.stdout.flush()
            if not follow or (idle is not None and time.monotonic() - quiet_since >= idle):
                return
            try:
                time.sleep(poll)
            except KeyboardInterrupt:  # pragma: no cover - the terminal's way out
                return


@click.command()
@click.argument("stream", required=False)
@click.option("--digest", "digest_text", default=None,
              help="A published digest (cli.py digest): prove the store still holds what it held then.")
@click.pass_context
def verify(ctx: click.Context, stream: str | None, digest_text: str | None) -> None:
    """Check every hash chain (or STREAM's) and what surrounds them; exit 1 naming every break."""
    from ledger.audit.verify import verify_store
    from ledger.service import check_stream_id

    if stream:
        check_stream_id(stream)
    digest = parse_digest(digest_text) if digest_text else None
    if digest is not None and stream:
        raise BadInput("--digest covers the whole log: give no STREAM", field="STREAM", value=stream)
    from ledger import damage
    from ledger.service import Ledger

    def check(url: str) -> Any:
        with Ledger.open(url, busy_timeout=ctx.obj.get("busy_timeout")) as ledger:
            report = verify_store(ledger.store, stream)
            against = None
            if digest is not None:
                from ledger.audit.transparency import check_digest

                against = check_digest(ledger.store, digest)
                report = attrs.evolve(report, problems=report.problems + against.problems)
        return report, against

    try:
        report, against = check(ctx.obj["db"])
    except Exception as exc:  # a full disk: read the file without its lock files when that is safe
        fallback = damage.readonly_url(exc, ctx.obj["db"])
        if fallback is None:
            raise
        click.echo(f"note: {fallback[1]}", err=True)
        report, against = check(fallback[0])
    for p in report.problems:
        click.echo(f"FAILED: {p.where()} ({p.kind}): {p.reason}", err=True)
    if report.problems:
        click.echo(f"{len(report.problems)} problem(s) in {report.streams} stream(s) and "
                   f"{report.events} event(s) checked; broken: "
                   f"{', '.join(report.broken_streams) or 'the store'}", err=True)
        ctx.exit(1)
    click.echo(f"ok: {report.streams} stream(s) verified, {report.events} event(s)")
    if digest is not None:
        click.echo(f"ok: the store holds exactly the {digest.size} event(s) digest {digest.short()} "
                   f"covered; {against.size - digest.size} appended since (now "
                   f"{against.size}:{against.root}; consistency proof of {len(against.proof)} hash(es) "
                   "verified)")


@click.command()
@click.argument("file", required=False)
@click.option("--at", "at_seq", type=int, default=None, help="Print the state after this seq.")
@click.option("--json", "as_json", is_flag=True, help="The state document (spec section 5); "
              "with --store, the totals and the digest as one JSON object.")
@click.option("--check", is_flag=True,
              help="Check the scenario's expect lines; exit 1 listing every mismatch.")
@click.option("--store", "whole_store", is_flag=True,
              help="Instead of a FILE: replay every stream of the store (--db) from its events: "
              "chains checked, boards folded from seq 1, nothing written; exit 1 on a broken chain.")
@click.option("--prefix", default=None, help="With --store: only the streams under this prefix.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="With --store: worker processes (default: the cores for 256 streams or more; "
              "1: in this process). The answer is the serial run's.")
@click.pass_context
def replay(ctx: click.Context, file: str | None, at_seq: int | None, as_json: bool, check: bool,
           whole_store: bool, prefix: str | None, jobs: int | None) -> None:
    """Append a scenario file to a fresh in-memory ledger and print the state; or, with
    --store, replay every stream of the store."""
    if whole_store:
        if file is not None or at_seq is not None or check:
            raise BadInput("--store replays the store: no FILE, --at or --check", field="--store",
                           value=file)
        _replay_store(ctx, prefix, jobs, as_json)
        return
    if file is None:
        raise BadInput("give a scenario FILE, or --store to replay the store", field="FILE", value=None)
    if prefix is not None or jobs is not None:
        raise BadInput("--prefix and --jobs go with --store", field="--store", value=None)
    from ledger.scenario import Checked, replay_text

    checked: list[Checked] = []
    with replay_text(read_input(file), checked=checked if check else None) as (ledger, stream):
        doc = ledger.state(stream, at_seq)
    if check:
        outcome = checked[0]
        for m in outcome.mismatches:
            click.echo(f"MISMATCH {m}", err=True)
        if outcome.mismatches or not outcome.expectations:
            if not outcome.expectations:
                click.echo("the scenario has no expectation to check", err=True)
            ctx.exit(1)
        click.echo(f"ok: {outcome.expectations} expectation(s) hold")
        return
    _print_state(doc, as_json)


def _replay_store(ctx: click.Context, prefix: str | None, jobs: int | None, as_json: bool) -> None:
    """replay --store: every stream (under ``prefix``) read back, checked and folded."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ledger.parallel import choose_jobs
    from ledger.replay import replay as replay_streams, summarise

    with open_ledger(ctx) as ledger:
        names = ledger.store.streams(prefix)
        workers = choose_jobs(jobs, len(names))
        url = None if ":memory:" in ctx.obj["db"] else ctx.obj["db"]
        columns = (TextColumn("replaying"), BarColumn(), MofNCompleteColumn(), TextColumn("streams"),
                   TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True,
                      disable=not sys.stderr.isatty()) as progress:
            task = progress.add_task("replaying", total=len(names))
            report = summarise(replay_streams(ledger, names, jobs=workers, url=url),
                               progress=lambda _: progress.advance(task))
    if as_json:
        click.echo(json.dumps({"streams": report.streams, "events": report.events,
                               "boards": report.boards, "jobs": workers if url else 1,
                               "broken": [{"stream": s, "seq": q} for s, q in report.broken],
                               "digest": report.digest}))
    else:
        for stream, seq in report.broken:
            click.echo(f"FAILED: {stream} seq {seq}: the hash chain breaks (cli.py verify says how)",
                       err=True)
        click.echo(f"replayed {report.streams} stream(s), {report.events} event(s), {report.boards} "
                   f"board(s) folded; {len(report.broken)} chain(s) broken; digest {report.digest}")
    if report.broken:
        ctx.exit(1)


@click.command()
@click.argument("streams", nargs=-1)
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Worker processes folding the streams (default: the cores; 1: in this process).")
@click.pass_context
def rebuild(ctx: click.Context, streams: tuple[str, ...], jobs: int | None) -> None:
    """Refold streams from their events and replace the head snapshots."""
    from rich.console import Console
    from rich.progress import Progress

    from ledger.parallel import choose_jobs

    with open_ledger(ctx) as ledger:
        names = list(streams) or ledger.store.streams()
        workers = choose_jobs(jobs, len(names))  # a few streams: starting workers costs more than it saves
        with Progress(console=Console(stderr=True), transient=True,
                      disable=not sys.stderr.isatty()) as progress:
            task = progress.add_task("rebuilding", total=len(names))
            counts = ledger.rebuild(names, progress=lambda _: progress.advance(task), jobs=workers,
                                    url=None if ":memory:" in ctx.obj["db"] else ctx.obj["db"])
    click.echo(f"rebuilt {counts['streams']} stream(s); {counts['differed']} snapshot(s) differed")


@click.command()
@click.argument("stream")
@click.option("--format", "fmt", type=click.Choice(["html", "json"]), default="html", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file (default: standard output).")
@click.option("--digest", "digest_text", default=None,
              help="A published digest: the case file carries the board's inclusion proof.")
@click.pass_context
def casefile(ctx: click.Context, stream: str, fmt: str, output: str | None,
             digest_text: str | None) -> None:
    """The appeal case file of a board: deal, auction, play, every event, rulings, integrity."""
    from ledger.appeals import earlier_decisions
    from ledger.casefile import build_casefile, render_html

    digest = parse_digest(digest_text) if digest_text else None
    with open_ledger(ctx) as ledger:
        case = build_casefile(ledger, stream, digest=digest, earlier=earlier_decisions)
    text = render_html(case) if fmt == "html" else json.dumps(case, ensure_ascii=False, indent=1)
    if output:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"case file written to {output}")
    else:
        click.echo(text)


DEMO_STREAMS = (
    ("demo/realbridge/b14", "realbridge-b14.jsonl"),
    ("demo/club/b5", "club-b5-revoke.jsonl"),
)


@click.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Create the schema, log the example boards (ledger/examples) and print them."""
    from ledger.service import parse_jsonl
    from ledger.store.migrate import upgrade

    upgrade(ctx.obj["db"])
    examples = Path(__file__).resolve().parent.parent / "examples"
    console = rich_console()
    with open_ledger(ctx) as ledger:
        for stream, name in DEMO_STREAMS:
            facts = parse_jsonl((examples / name).read_text(encoding="utf-8"))
            result = ledger.append(stream, facts)
            what = "already in the ledger" if result.replayed else f"{len(result.stored)} events appended"
            console.rule(f"{stream}: {what} ({safe_url(ctx.obj['db'])})")
            _print_state(ledger.state(stream), as_json=False)
    console.print("Next: python cli.py log demo/club/b5   |   python cli.py casefile demo/club/b5 -o case.html   |   python cli.py verify")



COMMANDS: tuple[click.Command, ...] = (init, append, state, log_cmd, verify, replay, rebuild, casefile, demo)
