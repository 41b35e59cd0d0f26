"""The command line of spec section 8 (``python cli.py ...`` or ``ledger ...``).

Errors go to stderr with the exit codes of the spec, mapped in one place
(:func:`main`): 2 bad input, 3 concurrency conflict, 4 permission, 5 store busy
(retry), 1 other.
structlog is configured here, once: a console renderer on a terminal, JSON
lines otherwise; logs go to stderr so that stdout stays the command's output.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import attrs
import click
import structlog

from ledger.errors import BadInput, LedgerError

DEFAULT_DB = "sqlite:///ledger.db"


def configure_logging(level: str | None = None) -> None:
    level_name = (level or os.environ.get("LEDGER_LOG_LEVEL", "WARNING")).upper()
    renderer: Any
    if sys.stderr.isatty():
        renderer = structlog.dev.ConsoleRenderer()
    else:
        renderer = structlog.processors.JSONRenderer()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level_name, logging.WARNING)),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def _open(ctx: click.Context, *, create: bool = False):
    from ledger.service import Ledger

    return Ledger.open(ctx.obj["db"], create=create, busy_timeout=ctx.obj.get("busy_timeout"))


def _console():
    from rich.console import Console

    return Console()


def _read_input(path: str | None) -> str:
    """FILE (or stdin) as text: UTF-8 within the input limits (``ledger.limits``)."""
    from ledger.limits import decode_input

    if path in (None, "-"):
        return decode_input(sys.stdin.buffer.read(), "-")
    try:
        raw = Path(path).read_bytes()  # type: ignore[arg-type]
    except OSError as exc:
        raise BadInput(f"cannot read the file: {exc.strerror}", field="FILE", value=path) from None
    return decode_input(raw, str(path))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="LEDGER_DB", default=DEFAULT_DB, show_default=True,
              help="Database URL: sqlite:///FILE or postgresql+psycopg://USER@HOST/DB ($LEDGER_DB).")
@click.option("--log-level", default=None, help="structlog level (default WARNING, $LEDGER_LOG_LEVEL).")
@click.option("--busy-timeout", type=click.FloatRange(min=0), envvar="LEDGER_BUSY_TIMEOUT",
              default=30.0, show_default=True,
              help="Seconds to wait for other writers' locks; then exit 5 (busy: retry).")
@click.pass_context
def cli(ctx: click.Context, db: str, log_level: str | None, busy_timeout: float) -> None:
    """A tournament ruling ledger for duplicate bridge."""
    configure_logging(log_level)
    ctx.ensure_object(dict)
    ctx.obj["db"] = db
    ctx.obj["busy_timeout"] = busy_timeout
    ctx.obj["db_given"] = ctx.get_parameter_source("db") is not click.core.ParameterSource.DEFAULT


@cli.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Create or upgrade the schema (Alembic upgrade head)."""
    from ledger.store.migrate import current, upgrade

    upgrade(ctx.obj["db"])
    click.echo(f"schema at revision {current(ctx.obj['db'])} ({safe_url(ctx.obj['db'])})")


@cli.command()
@click.argument("stream")
@click.argument("file", required=False)
@click.option("--expected-seq", type=int, default=None,
              help="The seq you last saw; refused (exit 3) if the stream moved on.")
@click.option("--json", "as_json", is_flag=True, help="Print the written envelopes as JSON Lines.")
@click.pass_context
def append(ctx: click.Context, stream: str, file: str | None, expected_seq: int | None,
           as_json: bool) -> None:
    """Append the JSON Lines facts in FILE (or stdin) as one atomic batch."""
    from ledger.service import parse_jsonl

    facts = parse_jsonl(_read_input(file))
    with _open(ctx) as ledger:
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


@cli.command()
@click.argument("stream")
@click.option("--at", "at_seq", type=int, default=None, help="The state after this seq.")
@click.option("--json", "as_json", is_flag=True, help="The state document (spec section 5).")
@click.pass_context
def state(ctx: click.Context, stream: str, at_seq: int | None, as_json: bool) -> None:
    """The table state: hands, auction, tricks, rulings, result."""
    with _open(ctx) as ledger:
        doc = ledger.state(stream, at_seq)
    _print_state(doc, as_json)


def _print_state(doc: dict[str, Any], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    from ledger.render import render_state

    _console().print(render_state(doc))


@cli.command("log")
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
    with _open(ctx) as ledger:
        stored = ledger.events(stream)
    envelopes = [e.envelope() for e in stored]
    if as_json:
        for env in envelopes:
            click.echo(json.dumps(env, ensure_ascii=False))
        return
    from ledger.render import render_log

    _console().print(render_log(envelopes))


def _follow_log(ctx: click.Context, after: int, follow: bool, poll: float, idle: float | None) -> None:
    """Print every event with position > after, in position order; with
    ``follow``, go on reading as writers commit (positions are handed out in
    commit order, so remembering the last one printed misses nothing)."""
    import time

    last, quiet_since = after, time.monotonic()
    with _open(ctx) as ledger:
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


@cli.command()
@click.argument("stream", required=False)
@click.option("--digest", "digest_text", default=None,
              help="A published digest (cli.py digest): prove the store still holds what it held then.")
@click.pass_context
def verify(ctx: click.Context, stream: str | None, digest_text: str | None) -> None:
    """Check every hash chain (or STREAM's) and what surrounds them; exit 1 naming every break."""
    from ledger.audit import verify_store
    from ledger.service import check_stream_id

    if stream:
        check_stream_id(stream)
    digest = _digest(digest_text) if digest_text else None
    if digest is not None and stream:
        raise BadInput("--digest covers the whole log: give no STREAM", field="STREAM", value=stream)
    with _open(ctx) as ledger:
        report = verify_store(ledger.store, stream)
        if digest is not None:
            from ledger.transparency import check_digest

            against = check_digest(ledger.store, digest)
            report = attrs.evolve(report, problems=report.problems + against.problems)
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


@cli.command()
@click.argument("file")
@click.option("--at", "at_seq", type=int, default=None, help="Print the state after this seq.")
@click.option("--json", "as_json", is_flag=True, help="The state document (spec section 5).")
@click.option("--check", is_flag=True,
              help="Check the scenario's expect lines; exit 1 listing every mismatch.")
@click.pass_context
def replay(ctx: click.Context, file: str, at_seq: int | None, as_json: bool, check: bool) -> None:
    """Append a scenario file to a fresh in-memory ledger and print the state."""
    from ledger.scenario import Checked, replay_text

    checked: list[Checked] = []
    with replay_text(_read_input(file), checked=checked if check else None) as (ledger, stream):
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


@cli.command()
@click.argument("streams", nargs=-1)
@click.pass_context
def rebuild(ctx: click.Context, streams: tuple[str, ...]) -> None:
    """Refold streams from their events and replace the head snapshots."""
    from rich.progress import Progress

    with _open(ctx) as ledger:
        names = list(streams) or ledger.store.streams()
        with Progress(transient=True, disable=not sys.stderr.isatty()) as progress:
            task = progress.add_task("rebuilding", total=len(names))
            counts = ledger.rebuild(names, progress=lambda _: progress.advance(task))
    click.echo(f"rebuilt {counts['streams']} stream(s); {counts['differed']} snapshot(s) differed")


@cli.command()
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
    from ledger.casefile import build_casefile, render_html

    digest = _digest(digest_text) if digest_text else None
    with _open(ctx) as ledger:
        case = build_casefile(ledger, stream, digest=digest)
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


@cli.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Create the schema, log the example boards (ledger/examples) and print them."""
    from ledger.service import parse_jsonl
    from ledger.store.migrate import upgrade

    upgrade(ctx.obj["db"])
    examples = Path(__file__).resolve().parent / "examples"
    console = _console()
    with _open(ctx) as ledger:
        for stream, name in DEMO_STREAMS:
            facts = parse_jsonl((examples / name).read_text(encoding="utf-8"))
            result = ledger.append(stream, facts)
            what = "already in the ledger" if result.replayed else f"{len(result.stored)} events appended"
            console.rule(f"{stream}: {what} ({safe_url(ctx.obj['db'])})")
            _print_state(ledger.state(stream), as_json=False)
    console.print("Next: python cli.py log demo/club/b5   |   python cli.py casefile demo/club/b5 -o case.html   |   python cli.py verify")


@cli.command()
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
@click.pass_context
def bench(ctx: click.Context, boards: int, as_json: bool, seed: int, peer: bool,
          pg_url: str | None, synchronous: str) -> None:
    """The project's benchmark (a fresh temporary SQLite file unless --db is given)."""
    from ledger.bench import run_bench

    db = ctx.obj["db"] if ctx.obj["db_given"] else None
    figures = run_bench(boards=boards, db=db, seed=seed, progress=not as_json and sys.stderr.isatty(),
                        synchronous=synchronous)
    if peer:
        from ledger.bench import board_growth
        from ledger.bench_peer import run_peer

        figures |= run_peer(figures, pg_url, synchronous) | {"growth": board_growth(seed=seed)}
    if as_json:
        click.echo(json.dumps(figures))
    else:
        for key, value in figures.items():
            if isinstance(value, dict):
                for sub, item in value.items():
                    click.echo(f"{key + '.' + sub:>32}: {item}")
            else:
                click.echo(f"{key:>24}: {value}")


# --- published digests and proofs (docs/reliability.md) ----------------------------

def _digest(text: str):
    from ledger.merkle import Digest

    return Digest.parse(text)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="One object: size, root, digest, short.")
@click.pass_context
def digest(ctx: click.Context, as_json: bool) -> None:
    """The Merkle tree head of the whole log, to publish (results sheet, federation).
    The digest goes to stdout, its read-out form to stderr."""
    from ledger.transparency import current_digest

    with _open(ctx) as ledger:
        head = current_digest(ledger.store)
    if as_json:
        click.echo(json.dumps({"size": head.size, "root": head.root, "digest": str(head),
                               "short": head.short()}))
        return
    click.echo(str(head))  # alone on stdout: D=$(python cli.py digest)
    click.echo(f"{head.size} events; read out: {head.short()}", err=True)


@cli.command()
@click.argument("stream")
@click.option("--digest", "digest_text", required=True, help="The published digest to prove against.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file (default: standard output).")
@click.pass_context
def prove(ctx: click.Context, stream: str, digest_text: str, output: str | None) -> None:
    """The inclusion proof of STREAM's events under a published digest (JSON)."""
    from ledger.service import check_stream_id
    from ledger.transparency import prove_stream

    digest = _digest(digest_text)
    check_stream_id(stream)
    with _open(ctx) as ledger:
        proof = prove_stream(ledger.store, stream, digest)
    text = json.dumps(proof, indent=1)
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
        click.echo(f"proof of {len(proof['events'])} event(s) written to {output}")
    else:
        click.echo(text)


@cli.command("check-proof")
@click.argument("casefile_path", metavar="CASEFILE")
@click.option("--digest", "digest_text", required=True, help="The digest the tournament published.")
@click.pass_context
def check_proof_cmd(ctx: click.Context, casefile_path: str, digest_text: str) -> None:
    """Is the board in CASEFILE (HTML or JSON) the one under the published digest? No database."""
    from ledger.transparency import check_proof, read_casefile

    digest = _digest(digest_text)
    events, proof = read_casefile(_read_input(casefile_path))
    result = check_proof(events, proof, digest)
    for problem in result.problems:
        click.echo(f"FAILED: {problem}", err=True)
    if not result.ok:
        ctx.exit(1)
    seqs = result.covered
    click.echo(f"ok: stream {result.stream!r} seq {seqs[0]}-{seqs[-1]} are in the log published as "
               f"{digest.short()} ({len(seqs)} event(s), each recomputed from its content)"
               if seqs else f"ok: no event of {result.stream!r} is under this digest")
    if result.not_covered:
        click.echo(f"not covered: seq {', '.join(map(str, result.not_covered))} appended after "
                   "the digest was taken")


def safe_url(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':')[0]}@{host}"
    return url


# -- a director's day: results and open rulings (docs/director.md) -------------------------


@cli.command("results")
@click.argument("tournament")
@click.option("--json", "as_json", is_flag=True, help="The spec's JSON shape (section 8), with checks.")
@click.option("--strict", is_flag=True,
              help="Refuse to publish (exit 1) while any check before publication is open.")
@click.pass_context
def results_cmd(ctx: click.Context, tournament: str, as_json: bool, strict: bool) -> None:
    """Every board's result at every table of TOURNAMENT (the boards whose BoardOpened names
    it), the checks before publication first, then the travellers and the ranking."""
    from ledger.tournament import tournament_tables
    from projections.results import results

    with _open(ctx) as ledger:
        tables = tournament_tables(ledger, tournament)
    if not tables:
        raise BadInput("no board of that tournament in this ledger (BoardOpened.tournament)",
                       field="TOURNAMENT", value=tournament)
    doc = results(tables[0][1].board.tournament, tables)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        from ledger.render import render_checks, render_standings, render_travellers

        console = _console()
        checks = render_checks(doc)
        for part in ([checks] if checks is not None else []) + render_travellers(doc) + render_standings(doc):
            console.print(part)
    if strict and doc["checks"]:
        raise LedgerError(f"results not published: {len(doc['checks'])} check(s) open "
                          f"({', '.join(sorted({c['kind'] for c in doc['checks']}))})")


@cli.command("open")
@click.argument("tournament", required=False)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.pass_context
def open_cmd(ctx: click.Context, tournament: str | None, as_json: bool) -> None:
    """Every board with something waiting for the director (reviews, options, disputed claims,
    unprocessed actions, appeals), longest wait first; all tournaments without TOURNAMENT."""
    from datetime import datetime, timezone

    from ledger.tournament import event_times, tournament_tables
    from projections.waiting import open_rulings

    with _open(ctx) as ledger:
        tables = tournament_tables(ledger, tournament)
        if tournament is not None and not tables:
            raise BadInput("no board of that tournament in this ledger (BoardOpened.tournament)",
                           field="TOURNAMENT", value=tournament)
        boards = [(stream, state, event_times(ledger, stream)) for stream, state in tables]
    items = [w.to_json() for w in open_rulings(boards, datetime.now(timezone.utc))]
    if as_json:
        for item in items:
            click.echo(json.dumps(item, ensure_ascii=False))
        return
    from ledger.render import render_open

    _console().print(render_open(items))


import ledger.cli_records  # noqa: E402,F401  (registers import/export/analyse)
import ledger.live.commands  # noqa: E402,F401  (registers user/session/serve: the live service)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (spec section 8)."""
    try:
        rv = cli.main(args=argv, prog_name="cli.py", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except LedgerError as exc:
        click.echo(f"error: {exc}", err=True)
        return exc.exit_code
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
