"""Feeding the federation (issue 25, docs/federation.md): results out in its formats,
the appeals register across tournaments, the casebook, case files as PDF and case
files received from tournaments run elsewhere.

``export-results``, ``appeals``, ``casebook``, ``casefile-pdf``, ``casefile-import``;
``import results.xml`` (USEBIO read back) is the ``import`` command of records.py.
Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from ledger.cli.common import open_ledger, parse_digest, read_input

_F = TypeVar("_F", bound=Callable[..., Any])


def _write(output: str | None, text: str | bytes, what: str) -> None:
    if output:
        if isinstance(text, bytes):
            Path(output).write_bytes(text)
        else:
            Path(output).write_text(text, encoding="utf-8")
        click.echo(f"{what} written to {output}")
    else:  # bytes go to the binary stdout as they are (click.get_binary_stream is deprecated in 8.5)
        click.echo(text, nl=False)


@click.command("export-results")
@click.argument("tournament")
@click.option("--format", "fmt", type=click.Choice(["usebio", "pbn", "csv"]), default="usebio", show_default=True)
@click.option("--decimals", type=click.IntRange(0, 4), default=2, show_default=True,
              help="Places of the matchpoints and percentages (PBN; the FFB writes 1).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def export_results(ctx: click.Context, tournament: str, fmt: str, decimals: int, output: str | None) -> None:
    """A tournament's results as USEBIO 1.2 XML, a PBN results file (ScoreTable,
    TotalScoreTable) or CSV travellers, scored by the ledger."""
    from ledger.records.formats.pbn_results import write_pbn_results
    from ledger.records.formats.results_out import gather, write_csv
    from ledger.records.formats.usebio import validate, write_usebio

    with open_ledger(ctx) as ledger:
        out = gather(ledger, tournament)
        if fmt == "usebio":
            text = write_usebio(out)
            problems = validate(text)
            if problems:  # pragma: no cover - the writer and the checks are tested together
                raise click.ClickException(f"the USEBIO written does not pass its checks: {problems[0]}")
        elif fmt == "pbn":
            text = write_pbn_results(ledger, out, decimals=decimals)
        else:
            text = write_csv(out)
    _write(output, text, f"{fmt} results of {out.name}")


def _filters(f: _F) -> _F:
    for option in reversed([
        click.option("--law", default=None, help="A Law: 64 (any edition, any sub-law), 64A2, 2017:64A2."),
        click.option("--tournament", default=None, help="A tournament (its name or slug)."),
        click.option("--since", default=None, help="Lodged on or after YYYY-MM-DD."),
        click.option("--until", default=None, help="Lodged on or before YYYY-MM-DD."),
        click.option("--outcome", type=click.Choice(["upheld", "changed", "pending"]), default=None),
    ]):
        f = option(f)
    return f


def _date(value: str | None, name: str) -> str | None:
    import re

    from ledger.errors import BadInput

    if value is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise BadInput("a date is YYYY-MM-DD", field=name, value=value)
    return value


def _register(ctx: click.Context, law: str | None, tournament: str | None, since: str | None,
              until: str | None, outcome: str | None) -> list[dict[str, Any]]:
    from ledger.appeals import register

    with open_ledger(ctx) as ledger:
        return register(ledger, law=law, tournament=tournament, since=_date(since, "--since"),
                        until=_date(until, "--until"), outcome=outcome)


@click.command()
@_filters
@click.option("--json", "as_json", is_flag=True, help="The entries as one JSON array.")
@click.pass_context
def appeals(ctx: click.Context, law: str | None, tournament: str | None, since: str | None,
            until: str | None, outcome: str | None, as_json: bool) -> None:
    """The appeals register: every appeal of every tournament in the store, with its board,
    Laws, the director's ruling, the decision, the committee and the deposit."""
    entries = _register(ctx, law, tournament, since, until, outcome)
    if as_json:
        click.echo(json.dumps(entries, ensure_ascii=False, default=str))
        return
    click.echo(f"{len(entries)} appeal(s)")
    for e in entries:
        click.echo(f"\n{e['lodged_at'][:10]}  {e['tournament']}, board {e['board']}, table {e['table']}  "
                   f"({e['stream']})")
        click.echo(f"  Laws: {', '.join(e['laws']) or '-'}")
        click.echo(f"  Ruling: {e['ruling']}")
        click.echo(f"  Decision: {e['decision']}" + (f": {e['reasons']}" if e["reasons"] else ""))
        click.echo(f"  Committee: {', '.join(e['members']) or 'not recorded'}; deposit {e['deposit']}")


@click.command()
@_filters
@click.option("--title", default="Appeals casebook", show_default=True)
@click.option("--comments", type=click.Path(exists=True, dir_okay=False), default=None,
              help="JSON object: stream -> the federation's comment on that case.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="The casebook (HTML).")
@click.option("--pdf", type=click.Path(dir_okay=False), default=None, help="Also write it as PDF.")
@click.pass_context
def casebook(ctx: click.Context, law: str | None, tournament: str | None, since: str | None,
             until: str | None, outcome: str | None, title: str, comments: str | None, output: str,
             pdf: str | None) -> None:
    """A casebook of a period's appeals (HTML, and PDF with --pdf), as federations publish them."""
    from ledger.appeals import casebook_html
    from ledger.errors import BadInput
    from ledger.pdf import casebook_pdf

    notes: dict[str, str] = {}
    if comments:
        try:
            notes = json.loads(read_input(comments))
        except json.JSONDecodeError as exc:
            raise BadInput(f"not JSON ({exc.msg}, line {exc.lineno})", field="--comments", value=comments) from None
        if not isinstance(notes, dict) or not all(isinstance(v, str) for v in notes.values()):
            raise BadInput("comments must be a JSON object: stream -> text", field="--comments", value=comments)
    entries = _register(ctx, law, tournament, since, until, outcome)
    for e in entries:
        e["comment"] = notes.get(e["stream"], "")
    _write(output, casebook_html(entries, title), f"casebook of {len(entries)} appeal(s)")
    if pdf:
        _write(pdf, casebook_pdf(entries, title), "casebook PDF")


@click.command("casefile-pdf")
@click.argument("stream")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True)
@click.pass_context
def casefile_pdf_cmd(ctx: click.Context, stream: str, output: str) -> None:
    """The case file of a board as PDF (beside `casefile STREAM -o case.html`)."""
    from ledger.appeals import earlier_decisions
    from ledger.casefile import build_casefile
    from ledger.pdf import casefile_pdf

    with open_ledger(ctx) as ledger:
        case = build_casefile(ledger, stream, earlier=earlier_decisions)
    _write(output, casefile_pdf(case), "case file PDF")


@click.command("casefile-import")
@click.argument("casefile_path", metavar="CASEFILE")
@click.option("--digest", "digest_text", required=True, help="The digest the tournament published.")
@click.pass_context
def casefile_import(ctx: click.Context, casefile_path: str, digest_text: str) -> None:
    """Receive a case file from a tournament run elsewhere: verified against its published
    digest before anything is stored (refused with the reason, nothing written)."""
    from ledger.appeals import receive_casefile

    digest = parse_digest(digest_text)
    text = read_input(casefile_path)
    with open_ledger(ctx, create=True) as ledger:
        stream, written = receive_casefile(ledger, text, digest)
    click.echo(f"ok: received as {stream} ({written} event(s) written; verified against {digest.short()})")


COMMANDS: tuple[click.Command, ...] = (export_results, appeals, casebook, casefile_pdf_cmd, casefile_import)
