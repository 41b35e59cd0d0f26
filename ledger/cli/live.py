"""``cli.py user|session|serve``: the live service from the command line.

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`); ``bench-live`` is
in ``ledger/cli/bench.py``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ledger.cli.common import open_ledger, read_input, rich_console, safe_url
from ledger.errors import BadInput


@contextmanager
def _live(ctx: click.Context) -> Iterator[tuple[Any, Any]]:
    """The ledger and the live tables' engine (ledger.live.db) on ``--db``."""
    from ledger.live.db import live_engine

    with open_ledger(ctx) as ledger:
        engine = live_engine(ctx.obj["db"])
        try:
            yield ledger, engine
        finally:
            engine.dispose()


@click.group()
def user() -> None:
    """Directors' and committee members' accounts."""


@user.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(["director", "committee"]), required=True)
@click.option("--password-stdin", is_flag=True,
              help="Read the password from the first line of standard input (scripts).")
@click.pass_context
def user_add(ctx: click.Context, name: str, role: str, password_stdin: bool) -> None:
    """Add a person who signs in to the console (password hashed with Argon2id)."""
    from ledger.live.accounts import add_user

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("password", hide_input=True, confirmation_prompt=True)
    with _live(ctx) as (_ledger, engine):
        added = add_user(engine, name, role, password)
    click.echo(f"user {added.name} added, role {added.role}")


@user.command("list")
@click.pass_context
def user_list(ctx: click.Context) -> None:
    """The accounts (never their passwords)."""
    from ledger.live.accounts import list_users

    with _live(ctx) as (_ledger, engine):
        for row in list_users(engine):
            state = f"disabled {row['disabled_at']}" if row["disabled_at"] else "active"
            click.echo(f"{row['name']}\t{row['role']}\t{state}")


@click.group()
def session() -> None:
    """Playing sessions: open (with the table URLs), show, close, table tokens."""


def _print_table_urls(sess, tokens: dict[int, str], base_url: str, qr: bool) -> None:
    for table, token in tokens.items():
        url = f"{base_url.rstrip('/')}/table/{token}"
        click.echo(f"{sess.table_label(table)}: {url}")
        if qr:
            import segno

            segno.make(url, error="m").terminal(compact=True)


@session.command("open")
@click.argument("ref", metavar="TOURNAMENT/NAME")
@click.option("--tables", type=int, required=True)
@click.option("--boards-per-round", type=int, default=2, show_default=True)
@click.option("--movement", type=click.Choice(["mitchell", "howell"]), default="mitchell",
              show_default=True)
@click.option("--laws", type=click.Choice(["2017", "1997"]), default="2017", show_default=True)
@click.option("--scoring", type=click.Choice(["MP", "IMP"]), default="MP", show_default=True)
@click.option("--rounds", type=int, default=None,
              help="Play only the movement's first ROUNDS rounds (default: all; two rooms: 1).")
@click.option("--two-rooms", is_flag=True,
              help="Teams (with --scoring IMP): --tables matches, each at an open-room and a "
                   "closed-room table on the same boards; streams T/S/open/tN/bB and T/S/closed/tN/bB.")
@click.option("--seed", type=int, default=None, help="Seed of the generated deals.")
@click.option("--movement-file", default=None,
              help="Read the movement: lines ROUND TABLE NS EW SET (instead of --movement).")
@click.option("--deals", "deals_file", default=None,
              help="Read the deals from a PBN file ([Board] and [Deal] of each game).")
@click.option("--base-url", default="http://127.0.0.1:8000", show_default=True,
              help="Where the server is reached from the tables' devices.")
@click.option("--qr", is_flag=True, help="Also print each table's URL as a QR code (segno).")
@click.option("--entry", type=click.Choice(["quick", "cards"]), default="quick", show_default=True,
              help="quick: each table enters contract, declarer, opening lead and tricks, the "
                   "opponents confirming; cards: every call and card as it happens.")
@click.option("--cards", "cards_file", default=None,
              help="Write printable table cards (URL, QR code, each pair's movement) to this HTML file.")
@click.option("--round-minutes", type=int, default=None,
              help="The round clock the tables show (minutes a round).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def session_open(ctx: click.Context, ref: str, tables: int, boards_per_round: int, movement: str,
                 laws: str, scoring: str, rounds: int | None, seed: int | None,
                 movement_file: str | None, deals_file: str | None, base_url: str,
                 qr: bool, as_json: bool, two_rooms: bool, entry: str, round_minutes: int | None,
                 cards_file: str | None) -> None:
    """Open a session: movement, deals, and one token (a URL) per table."""
    from ledger.live.accounts import issue_table_token
    from ledger.live.sessions import open_session

    if "/" not in ref:
        raise BadInput("give the session as TOURNAMENT/NAME", field="TOURNAMENT/NAME", value=ref)
    tournament, name = ref.split("/", 1)
    with _live(ctx) as (ledger, engine):
        sess = open_session(engine, tournament=tournament, name=name, tables=tables,
                            boards_per_round=boards_per_round, movement=movement, laws=laws,
                            scoring=scoring, seed=seed, rounds=rounds,
                            movement_text=read_input(movement_file) if movement_file else None,
                            deals_text=read_input(deals_file) if deals_file else None,
                            two_rooms=two_rooms, entry=entry, clock_minutes=round_minutes)
        tokens = {t: issue_table_token(engine, sess.id, t) for t in range(1, sess.tables + 1)}
    if cards_file:
        from ledger.live.sessions import table_cards_html

        urls = {t: f"{base_url.rstrip('/')}/table/{tok}" for t, tok in tokens.items()}
        Path(cards_file).write_text(table_cards_html(sess, urls), encoding="utf-8")
    if as_json:
        doc = sess.to_json()
        doc["table_urls"] = {str(t): f"{base_url.rstrip('/')}/table/{tok}" for t, tok in tokens.items()}
        click.echo(json.dumps(doc))
        return
    click.echo(f"session {sess.tournament}/{sess.name} opened (id {sess.id}): {sess.tables} tables, "
               f"{sess.rounds} rounds of {sess.boards_per_round} boards, {sess.kind} movement, "
               f"{sess.laws} Laws, {sess.scoring} ({safe_url(ctx.obj['db'])})")
    click.echo("Open each URL on its table's device (keep them private: a URL is the table's key):")
    _print_table_urls(sess, tokens, base_url, qr)


@session.command("show")
@click.argument("ref", metavar="SESSION")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def session_show(ctx: click.Context, ref: str, as_json: bool) -> None:
    """The movement and what each table is playing now."""
    from ledger.live.sessions import find_session
    from ledger.live.views import table_overview

    with _live(ctx) as (ledger, engine):
        sess = find_session(engine, ref)
        overview = [table_overview(ledger, sess, t) for t in range(1, sess.tables + 1)]
    if as_json:
        doc = sess.to_json()
        doc["now"] = overview
        click.echo(json.dumps(doc))
        return
    from rich.table import Table

    status = f"closed {sess.closed_at}" if sess.closed_at else "open"
    console = rich_console()
    console.print(f"[bold]{sess.tournament}/{sess.name}[/] ({status}): {sess.tables} tables, "
                  f"{sess.kind}, {sess.rounds} rounds x {sess.boards_per_round} boards, "
                  f"{sess.laws} Laws, {sess.scoring}")
    grid = Table("round", *[sess.table_label(t) for t in range(1, sess.tables + 1)])
    for rnd, seatings in enumerate(sess.movement, start=1):
        grid.add_row(str(rnd), *[f"{s.ns} v {s.ew}: b{sess.boards_of_set(s.set)[0]}-"
                                 f"{sess.boards_of_set(s.set)[-1]}" for s in seatings])
    console.print(grid)
    now = Table("table", "round", "board", "phase", "stream")
    for row in overview:
        now.add_row(row["label"], str(row["round"] or "-"), str(row["board"] or "-"),
                    row["phase"], row["stream"] or "")
    console.print(now)


@session.command("close")
@click.argument("ref", metavar="SESSION")
@click.pass_context
def session_close(ctx: click.Context, ref: str) -> None:
    """Close a session: its table tokens are revoked (the log stays as it is)."""
    from ledger.live.accounts import revoke_table_tokens
    from ledger.live.sessions import close_session, find_session

    with _live(ctx) as (ledger, engine):
        sess = find_session(engine, ref)
        close_session(engine, sess)
        revoked = sum(revoke_table_tokens(engine, sess.id, t) for t in range(1, sess.tables + 1))
    click.echo(f"session {sess.tournament}/{sess.name} closed; {revoked} table token(s) revoked")


@session.command("token")
@click.argument("ref", metavar="SESSION")
@click.option("--table", type=int, required=True)
@click.option("--revoke", is_flag=True, help="Only revoke the table's tokens (a lost tablet).")
@click.option("--seats", is_flag=True,
              help="Issue one seat-device URL per seat of the table (a player's own phone: his hand, "
                   "dummy's after the opening lead) without revoking anything.")
@click.option("--base-url", default="http://127.0.0.1:8000", show_default=True)
@click.option("--qr", is_flag=True)
@click.pass_context
def session_token(ctx: click.Context, ref: str, table: int, revoke: bool, base_url: str,
                  qr: bool, seats: bool) -> None:
    """Revoke a table's tokens and (unless --revoke) issue a new one; --seats: seat devices."""
    from ledger.live.accounts import issue_seat_token, issue_table_token, revoke_table_tokens
    from ledger.live.sessions import find_session

    with _live(ctx) as (ledger, engine):
        sess = find_session(engine, ref)
        if not 1 <= table <= sess.tables:
            raise BadInput(f"the session has tables 1 to {sess.tables}", field="--table", value=table)
        if seats:
            if sess.closed_at is not None:
                raise BadInput("the session is closed", field="SESSION", value=ref)
            for seat, word in (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")):
                url = f"{base_url.rstrip('/')}/table/{issue_seat_token(engine, sess.id, table, seat)}"
                click.echo(f"{sess.table_label(table)}, {word}'s own device: {url}")
                if qr:
                    import segno

                    segno.make(url, error="m").terminal(compact=True)
            return
        revoked = revoke_table_tokens(engine, sess.id, table)
        click.echo(f"table {table}: {revoked} token(s) revoked")
        if revoke:
            return
        if sess.closed_at is not None:
            raise BadInput("the session is closed", field="SESSION", value=ref)
        token = issue_table_token(engine, sess.id, table)
    _print_table_urls(sess, {table: token}, base_url, qr)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--secure-cookies", is_flag=True, help="Mark cookies Secure (behind HTTPS).")
@click.option("--poll", type=click.FloatRange(0.05, 600), default=1.0, show_default=True,
              help="Seconds between looks at the log when nothing woke the feed (PostgreSQL "
                   "processes also wake each other with NOTIFY).")
@click.option("--threads", type=click.IntRange(2, 256), default=16, show_default=True,
              help="Threads for the requests that wait on the database (appends on SQLite "
                   "take turns anyway: more threads only compete with the writer for the GIL).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, secure_cookies: bool, poll: float,
          threads: int) -> None:
    """Serve the live service (table pages, console, API) with uvicorn."""
    import uvicorn

    from ledger.live.app import create_app
    from ledger.store.migrate import upgrade

    upgrade(ctx.obj["db"])
    app = create_app(ctx.obj["db"], secure_cookies=secure_cookies, poll=poll, threads=threads)
    click.echo(f"serving {safe_url(ctx.obj['db'])} on http://{host}:{port} "
               f"(console: /director, API: /docs)", err=True)
    # Terminals pause between events: keep their connections open a while.
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=30)


COMMANDS: tuple[click.Command, ...] = (user, session, serve)
