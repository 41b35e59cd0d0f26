"""The commands for real game records, registered on :data:`ledger.cli.cli`:
``import``, ``export``, ``results`` and ``analyse`` (LEDGER-SPEC section 8,
docs/records.md).

Errors are :class:`~ledger.errors.LedgerError` and map to exit codes in
``ledger.cli.main``; ``import`` exits 2 when some records could not be
imported (the others are), after listing each as ``record N, line L: reason``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ledger.cli import _console, _open, cli
from ledger.errors import BadInput

EXIT_SOME_RECORDS_FAILED = 2


@cli.command("import")
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["pbn", "lin"]), default=None,
              help="pbn or lin (default: from the file name).")
@click.option("--tournament", default=None,
              help="Tournament name (default: the file's Event / vg, else the file name).")
@click.option("--tables", default=None,
              help="A hand record (deals only): give each board to these tables, e.g. 1-6,8.")
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object.")
@click.pass_context
def import_cmd(ctx: click.Context, file: str, fmt: str | None, tournament: str | None,
               tables: str | None, as_json: bool) -> None:
    """Import the game records of FILE (PBN 2.1 or BBO LIN): one stream per record."""
    from ledger.records import detect_format, parse_tables

    fmt = detect_format(file, fmt)
    table_list = parse_tables(tables) if tables is not None else None
    data = _read_bytes(file)
    with _open(ctx, create=True) as ledger:
        report = _run_import(ledger, data, fmt, tournament, Path(file).stem, table_list)
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


def _run_import(ledger, data: bytes, fmt: str, tournament: str | None, default_name: str,
                tables: list[str] | None = None):
    from ledger.records import import_data

    if not sys.stderr.isatty():
        return import_data(ledger, data, fmt, tournament=tournament, default_name=default_name,
                           tables=tables)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = (TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("records"),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("importing", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return import_data(ledger, data, fmt, tournament=tournament, default_name=default_name,
                           progress=advance, tables=tables)


@cli.command("export")
@click.argument("stream", required=False)
@click.option("--tournament", default=None, help="Export every stream of this tournament.")
@click.option("--format", "fmt", type=click.Choice(["pbn", "jsonl"]), default="pbn",
              show_default=True)
@click.option("-o", "--output", default=None, help="Write to this file (default: stdout).")
@click.pass_context
def export_cmd(ctx: click.Context, stream: str | None, tournament: str | None, fmt: str,
               output: str | None) -> None:
    """Export STREAM (or --tournament NAME) as PBN 2.1 or as the JSON Lines log."""
    from ledger.records import export_jsonl, export_pbn, tournament_streams

    if (stream is None) == (tournament is None):
        raise BadInput("give either a STREAM or --tournament NAME", field="STREAM", value=stream)
    with _open(ctx) as ledger:
        if stream is not None:
            streams = [stream]
        else:
            streams = [s for s, _ in tournament_streams(ledger, tournament)]  # type: ignore[arg-type]
            if not streams:
                raise BadInput("no stream of that tournament in this ledger", field="--tournament",
                               value=tournament)
        text = export_pbn(ledger, streams) if fmt == "pbn" else export_jsonl(ledger, streams)
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"{len(streams)} stream(s) written to {output}")


@cli.command("results")
@click.argument("tournament")
@click.option("--json", "as_json", is_flag=True, help="The spec's JSON shape (section 8).")
@click.pass_context
def results_cmd(ctx: click.Context, tournament: str, as_json: bool) -> None:
    """Every board's result at every table of TOURNAMENT (IMPs between rooms in teams)."""
    from ledger.records import tournament_streams
    from projections.results import results

    with _open(ctx) as ledger:
        tables = tournament_streams(ledger, tournament)
    if not tables:
        raise BadInput("no stream of that tournament in this ledger", field="TOURNAMENT",
                       value=tournament)
    name = tables[0][1].board.tournament
    doc = results(name, tables)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    console = _console()
    for table in render_travellers(doc):
        console.print(table)
    console.print(render_standings(doc))


def _adjusted_cell(adjusted: dict[str, Any] | None) -> str:
    if not adjusted:
        return ""
    if adjusted["kind"] == "artificial":
        return f"artificial NS {adjusted.get('ns')} EW {adjusted.get('ew')} ({adjusted.get('law')})"
    parts = []
    for r in adjusted.get("results") or []:
        text = "Pass" if r["contract"] == "Pass" else f"{r['contract']}{r.get('risk', '')} {r['declarer']} {r['tricks']}"
        if r.get("side", "both") != "both":
            text = f"{r['side']}: {text}"
        if "weight" in r:
            text = f"{r['weight']}×{text}"
        parts.append(text)
    return f"{adjusted['kind']} {', '.join(parts)} ({adjusted.get('law')})"


def _num(value: Any, signed: bool = False) -> str:
    if value is None:
        return ""
    return f"{value:+g}" if signed else f"{value:g}"


def render_travellers(doc: dict[str, Any]) -> list[Any]:
    """One rich table per board: the traveller (matchpoints and percentage in
    pairs, the IMPs of each room's teams in teams); adjusted scores are marked in
    the contract column and spelled out, with their Law, under the table."""
    from rich.table import Table

    out = []
    imp = doc["scoring"] == "IMP"
    for board in doc["boards"]:
        rooms = any(r["room"] for r in board["results"])
        notes = []
        table = Table(title=f"{doc['tournament']} - board {board['board']}", title_justify="left")
        columns = ["table"] + (["room"] if rooms else []) + ["NS", "EW", "contract", "tricks", "score NS"]
        columns += ["IMP NS", "IMP EW"] if imp else ["MP NS", "MP EW", "% NS"]
        for column in columns:
            table.add_column(column, justify="left" if column in ("table", "room", "NS", "EW", "contract")
                             else "right")
        for r in board["results"]:
            if r["contract"] is None:
                contract = "" if r["adjusted"] else "(not played)"
            elif r["contract"] == "Pass":
                contract = "Pass"
            else:
                contract = f"{r['contract']}{r['risk'] or ''} {r['declarer'] or ''}"
            if r["adjusted"]:
                notes.append(f"table {r['table']}: {_adjusted_cell(r['adjusted'])}")
                contract = (contract + " " if r["adjusted"]["kind"] == "assigned" else "") + f"adj.{len(notes)}"
            row = [r["table"]] + ([r["room"] or ""] if rooms else []) + [
                r["ns"] or "", r["ew"] or "", contract,
                "" if r["tricks"] is None else str(r["tricks"]),
                "" if r["score_ns"] is None else f"{r['score_ns']:+d}" if r["score_ns"] else "0"]
            if imp:
                row += [_num(r["imp_ns"], True), _num(r.get("imp_ew"), True)]
            else:
                row += [_num(r["mp_ns"]), _num(r["mp_ew"]), _num(r["pct_ns"])]
            table.add_row(*row)
        if notes:
            table.caption = "\n".join(f"adj.{i}: {n}" for i, n in enumerate(notes, start=1))
            table.caption_justify = "left"
        out.append(table)
    return out


def render_standings(doc: dict[str, Any]) -> Any:
    """The ranking: pairs by percentage (matchpoints over the tops of the boards
    they played), teams by IMPs."""
    from rich.table import Table

    imp = doc["scoring"] == "IMP"
    table = Table(title=f"{doc['tournament']} - ranking", title_justify="left")
    for column, right in (("rank", True), ("team" if imp else "pair", False), ("boards", True),
                          ("IMPs" if imp else "matchpoints", True)):
        table.add_column(column, justify="right" if right else "left")
    if not imp:
        table.add_column("%", justify="right")
    for row in doc.get("standings") or []:
        cells = [str(row["rank"]), row["name"], str(row["boards"]), _num(row["score"], imp)]
        if not imp:
            cells.append(_num(row.get("pct")))
        table.add_row(*cells)
    return table


@cli.command("analyse")
@click.argument("stream")
@click.option("--at", "at_seq", type=int, default=None, help="The position after this seq.")
@click.option("--json", "as_json", is_flag=True, help="The analysis as one JSON object.")
@click.pass_context
def analyse_cmd(ctx: click.Context, stream: str, at_seq: int | None, as_json: bool) -> None:
    """Double-dummy analysis (optional extra: pip install '.[analysis]'): the tricks each
    legal card gives the side on turn, and the double-dummy table of the deal."""
    from ledger.analysis import analyse, render_analysis

    with _open(ctx) as ledger:
        state, _ = ledger.table_state(stream, at_seq)
    doc = analyse(state)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    _console().print(render_analysis(doc))
