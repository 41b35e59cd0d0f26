"""The commands for real game records: ``import``, ``export`` and ``analyse``
(LEDGER-SPEC section 8, docs/records.md); ``results`` is in ``ledger/cli/director.py``
(docs/director.md). Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).

Errors are :class:`~ledger.errors.LedgerError` and map to exit codes in
``ledger.cli.main``; ``import`` exits 2 when some records could not be
imported (the others are), after listing each as ``record N, line L: reason``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ledger.cli.common import open_ledger, read_input, rich_console
from ledger.errors import BadInput

EXIT_SOME_RECORDS_FAILED = 2


@click.command("import")
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["pbn", "lin", "bws", "usebio"]), default=None,
              help="pbn, lin, bws (a Bridgemate database) or usebio (default: from the file name; .xml is USEBIO 1.2).")
@click.option("--tournament", default=None,
              help="Tournament name (default: the file's Event / vg, else the file name).")
@click.option("--tables", default=None,
              help="A hand record (deals only): give each board to these tables, e.g. 1-6,8.")
@click.option("--hands", default=None,
              help="A Bridgemate session's hand-record PBN (default: the one beside the file).")
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Worker processes preparing the records' appends (default: the cores for "
              "256 records or more; 1: in this process). The result is the serial run's.")
@click.pass_context
def import_cmd(ctx: click.Context, file: str, fmt: str | None, tournament: str | None,
               tables: str | None, hands: str | None, as_json: bool, jobs: int | None) -> None:
    """Import the game records of FILE (PBN 2.1, BBO LIN or a Bridgemate .bws database):
    one stream per record (per table and board for a Bridgemate session)."""
    from ledger.records.games import detect_format, parse_tables

    fmt = detect_format(file, fmt)
    if fmt == "usebio":  # results scored by another program, checked by ours (docs/federation.md)
        from ledger.records.formats.usebio import import_usebio, read_usebio, report_text

        parsed = read_usebio(read_input(file), tournament)
        with open_ledger(ctx, create=True) as ledger:
            click.echo(report_text(import_usebio(ledger, parsed), as_json))
        return
    if fmt == "bws":
        if tables is not None:
            raise BadInput("--tables is for PBN hand records; a Bridgemate session has its "
                           "movement", field="--tables", value=tables)
        if not Path(file).is_file():
            raise BadInput("no such file", field="FILE", value=file)
        with open_ledger(ctx, create=True) as ledger:
            report = _run_import(ledger, None, "bws", tournament, file, None, jobs, hands)
    else:
        if hands is not None:
            raise BadInput("--hands is for a Bridgemate database (.bws)", field="--hands",
                           value=hands)
        table_list = parse_tables(tables) if tables is not None else None
        data = _read_bytes(file)
        with open_ledger(ctx, create=True) as ledger:
            report = _run_import(ledger, data, fmt, tournament, file, table_list, jobs)
    if as_json:
        click.echo(json.dumps({
            "tournament": report.tournament, "format": report.format, "records": report.records,
            "imported": len(report.imported), "events": report.events,
            "already_stored": sum(r.retried for r in report.imported),
            "charset": report.charset,
            "agreed": report.agreed, "unstated": report.unstated,
            "repaired": [{"record": n, "reason": why} for n, why in report.repaired],
            "refused_by_reason": report.refused_by_reason(),
            "inherited": [{"record": n, "tags": list(tags)} for n, tags in report.inherited],
            "unfinished": report.unfinished,
            "warnings": [{"record": p.number, "line": p.line, "reason": p.reason}
                         for p in report.warnings],
            "checks": report.checks,
            "check_mismatches": report.check_mismatches,
            "score_imp_mismatches": report.imp_mismatches,
            "lead_checks": report.lead_checks,
            "players": report.players,
            "not_played": report.not_played,
            "streams": [r.stream for r in report.imported],
            "failed": [{"record": p.number, "line": p.line, "reason": p.reason, "kind": p.kind,
                        "message": str(p)} for p in report.failed],
        }, ensure_ascii=False))
    else:
        click.echo(report.summary())
        for number, why in report.repaired:
            click.echo(f"REPAIRED: record {number}: {why}")
        for number, tags in report.inherited:
            click.echo(f"INHERITED: record {number}: {', '.join(tags)} from the record before")
        for warning in report.warnings:
            click.echo(f"NOTE: {warning}")
        for line in report.checks:
            click.echo(f"CHECK: {line}")
        for pair, players in report.players.items():
            click.echo(f"PAIR {pair}: {'; '.join(players)}")
    for problem in report.failed:
        click.echo(f"FAILED: {problem} [{problem.kind}]", err=True)
    if not report.ok:
        ctx.exit(EXIT_SOME_RECORDS_FAILED)


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read the file: {exc.strerror}", field="FILE", value=path) from None


def _run_import(ledger, data: bytes | None, fmt: str, tournament: str | None, name: str,
                tables: list[str] | None = None, jobs: int | None = None, hands: str | None = None):
    """The import of ``data`` (``fmt``), or of the Bridgemate database at ``name`` (``data``
    None), with a progress bar on a terminal."""
    from ledger.records.games import import_bws, import_data

    def run(progress=None):
        if data is None:
            return import_bws(ledger, name, tournament=tournament, hands=hands, progress=progress,
                              jobs=jobs)
        return import_data(ledger, data, fmt, tournament=tournament, default_name=Path(name).stem,
                           progress=progress, tables=tables, jobs=jobs)

    if not sys.stderr.isatty():
        return run()
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = (TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("records"),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("importing", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return run(advance)


@click.command("export")
@click.argument("stream", required=False)
@click.option("--tournament", default=None, help="Export every stream of this tournament.")
@click.option("--format", "fmt", type=click.Choice(["pbn", "jsonl"]), default="pbn",
              show_default=True)
@click.option("-o", "--output", default=None, help="Write to this file (default: stdout).")
@click.pass_context
def export_cmd(ctx: click.Context, stream: str | None, tournament: str | None, fmt: str,
               output: str | None) -> None:
    """Export STREAM (or --tournament NAME) as PBN 2.1 or as the JSON Lines log."""
    from ledger.records.games import export_jsonl, export_pbn, tournament_streams

    if (stream is None) == (tournament is None):
        raise BadInput("give either a STREAM or --tournament NAME", field="STREAM", value=stream)
    with open_ledger(ctx) as ledger:
        if stream is not None:
            streams = [stream]
        else:
            assert tournament is not None  # checked above: exactly one of STREAM and --tournament
            streams = [s for s, _ in tournament_streams(ledger, tournament)]
            if not streams:
                raise BadInput("no stream of that tournament in this ledger", field="--tournament",
                               value=tournament)
        text = export_pbn(ledger, streams) if fmt == "pbn" else export_jsonl(ledger, streams)
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"{len(streams)} stream(s) written to {output}")


@click.command("analyse")
@click.argument("stream")
@click.option("--at", "at_seq", type=int, default=None, help="The position after this seq.")
@click.option("--json", "as_json", is_flag=True, help="The analysis as one JSON object.")
@click.pass_context
def analyse_cmd(ctx: click.Context, stream: str, at_seq: int | None, as_json: bool) -> None:
    """Double-dummy analysis (optional extra: pip install '.[analysis]'): the tricks each
    legal card gives the side on turn, and the double-dummy table of the deal."""
    from ledger.analysis import analyse, render_analysis

    with open_ledger(ctx) as ledger:
        state, _ = ledger.table_state(stream, at_seq)
    doc = analyse(state)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    rich_console().print(render_analysis(doc))


COMMANDS: tuple[click.Command, ...] = (import_cmd, export_cmd, analyse_cmd)
