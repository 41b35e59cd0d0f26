"""A director's day (docs/director.md): ``results`` and ``open`` (the rulings waiting).

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json

import click

from ledger.cli.common import open_ledger, rich_console
from ledger.errors import BadInput, LedgerError


@click.command("results")
@click.argument("tournament")
@click.option("--json", "as_json", is_flag=True, help="The spec's JSON shape (section 8), with checks.")
@click.option("--strict", is_flag=True,
              help="Refuse to publish (exit 1) while any check before publication is open.")
@click.pass_context
def results_cmd(ctx: click.Context, tournament: str, as_json: bool, strict: bool) -> None:
    """Every board's result at every table of TOURNAMENT (the boards whose BoardOpened names
    it), the checks before publication first, then the travellers and the ranking."""
    from ledger.register import read_register
    from ledger.tournament import tournament_tables
    from projections.event import event_results

    with open_ledger(ctx) as ledger:
        tables = tournament_tables(ledger, tournament)
        register = read_register(ledger, tournament)
    if not tables:
        raise BadInput("no board of that tournament in this ledger (BoardOpened.tournament)",
                       field="TOURNAMENT", value=tournament)
    doc = event_results(tables[0][1].board.tournament, tables, register)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        from ledger.render import render_checks, render_event, render_travellers

        console = rich_console()
        checks = render_checks(doc)
        for part in ([checks] if checks is not None else []) + render_travellers(doc) + render_event(doc):
            console.print(part)
    if strict and doc["checks"]:
        raise LedgerError(f"results not published: {len(doc['checks'])} check(s) open "
                          f"({', '.join(sorted({c['kind'] for c in doc['checks']}))})")


@click.command("open")
@click.argument("tournament", required=False)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.pass_context
def open_cmd(ctx: click.Context, tournament: str | None, as_json: bool) -> None:
    """Every board with something waiting for the director (reviews, options, disputed claims,
    unprocessed actions, appeals), longest wait first; all tournaments without TOURNAMENT."""
    from datetime import datetime, timezone

    from ledger.tournament import event_times, tournament_tables
    from projections.waiting import open_rulings

    with open_ledger(ctx) as ledger:
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

    rich_console().print(render_open(items))



COMMANDS: tuple[click.Command, ...] = (results_cmd, open_cmd)
