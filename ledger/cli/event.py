"""A whole event (docs/director.md, "A whole event"): ``register``, ``players``, ``boards``,
``swiss`` and ``print``.

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json
from typing import Any

import click

from ledger.cli.common import open_ledger, read_input, rich_console
from ledger.errors import BadInput


@click.command("register")
@click.argument("tournament")
@click.argument("file", required=False)
@click.pass_context
def register_cmd(ctx: click.Context, tournament: str, file: str | None) -> None:
    """Append the register facts of FILE (JSON Lines; stdin without FILE) to TOURNAMENT's
    register: players, sessions and their movements, pairs, teams, late entries, withdrawals,
    substitutes, Swiss rounds. One bad line and nothing is written (exit 2)."""
    from ledger.register import append_register, register_stream
    from ledger.service import json_lines

    lines = json_lines(read_input(file))
    with open_ledger(ctx, create=True) as ledger:
        stored = append_register(ledger, tournament, [obj for _, obj in lines])
    click.echo(f"{register_stream(tournament)}: {len(stored)} event(s) appended"
               + (" (a retry: already stored)" if not stored else ""))


@click.command("players")
@click.argument("tournament")
@click.option("--json", "as_json", is_flag=True, help="One JSON document.")
@click.pass_context
def players_cmd(ctx: click.Context, tournament: str, as_json: bool) -> None:
    """The players of TOURNAMENT (name, federation number), its pairs and teams, late entries,
    withdrawals and substitutes, as the register says."""
    from ledger.register import read_register

    with open_ledger(ctx) as ledger:
        reg = read_register(ledger, tournament)
    if not reg.players:
        raise BadInput("no player registered for that tournament (cli.py register)", field="TOURNAMENT",
                       value=tournament)
    doc: dict[str, list[dict[str, Any]]] = {
        "players": [{"player": p.player, "name": p.name, "number": p.number} for p in reg.players.values()],
        "sessions": [{"session": s.session, "kind": s.kind, "boards": s.boards, "rounds": s.rounds}
                     for s in reg.sessions.values()],
        "entries": [{"entry": e.id, "kind": "pair" if e.id in reg.pairs else "team", "name": reg.entry_name(e.id),
                     "players": list(e.players), "late": {"session": e.session, "from_round": e.from_round}
                     if e.from_round or e.session else None, "withdrawn": e.withdrawn or None,
                     "carry": e.carry or None}
                    for e in list(reg.pairs.values()) + list(reg.teams.values())],
        "substitutes": [{"session": s.session, "entry": s.entry, "replaces": reg.player_name(s.replaces),
                         "player": reg.player_name(s.player), "boards": list(s.boards)} for s in reg.substitutes],
    }
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    from rich.table import Table

    console = rich_console()
    table = Table(title=f"{tournament} - players", title_justify="left")
    for column in ("id", "name", "number", "plays in"):
        table.add_column(column)
    plays = {p: e["entry"] for e in doc["entries"] for p in e["players"]}
    for p in doc["players"]:
        table.add_row(p["player"], p["name"], p["number"] or "", plays.get(p["player"], ""))
    console.print(table)
    entries = Table(title=f"{tournament} - pairs and teams", title_justify="left")
    for column in ("entry", "name", "late entry", "withdrawn"):
        entries.add_column(column)
    for e in doc["entries"]:
        late = e["late"]
        entries.add_row(e["entry"], e["name"] or "",
                        f"session {late['session']} round {late['from_round'] or 1}" if late else "",
                        ", ".join(f"session {s} from round {r}" for s, r in (e["withdrawn"] or {}).items()))
    console.print(entries)
    for s in doc["substitutes"]:
        console.print(f"substitute: {s['player']} for {s['replaces']} ({s['entry']}), session {s['session']}, "
                      f"boards {', '.join(str(b) for b in s['boards'])}")


@click.command("boards")
@click.argument("tournament")
@click.option("--session", default=None, help="Only this session.")
@click.option("--table", default=None, help="Only this table.")
@click.option("--pair", default=None, help="Only this pair or team (its number, or part of a player's name).")
@click.option("--rulings", "has_rulings", is_flag=True, help="Only the boards with a ruling.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
@click.pass_context
def boards_cmd(ctx: click.Context, tournament: str, session: str | None, table: str | None,
               pair: str | None, has_rulings: bool, as_json: bool) -> None:
    """The boards of TOURNAMENT: session, round, table, board, pairs, contract, result, rulings
    and what waits for the director; boards voided as opened by mistake are listed as such."""
    from ledger.register import read_register
    from ledger.tournament import tournament_tables
    from projections.event import board_rows

    with open_ledger(ctx) as ledger:
        tables = tournament_tables(ledger, tournament, with_voided=True)
        reg = read_register(ledger, tournament)
    if not tables:
        raise BadInput("no board of that tournament in this ledger (BoardOpened.tournament)",
                       field="TOURNAMENT", value=tournament)
    rows = board_rows(tables, reg, session=session, table=table, pair=pair, has_rulings=has_rulings)
    if as_json:
        for row in rows:
            click.echo(json.dumps(row, ensure_ascii=False))
        return
    from rich.table import Table

    out = Table(title=f"{tournament} - {len(rows)} board(s)", title_justify="left")
    for column in ("session", "round", "table", "board", "NS", "EW", "contract", "tricks", "score NS",
                   "rulings", "open", "stream"):
        out.add_column(column, overflow="fold")
    for r in rows:
        table_cell = r["table"] + (f" {r['room']}" if r["room"] else "")
        out.add_row(r["session"] or "", "" if r["round"] is None else str(r["round"]), table_cell, str(r["board"]),
                    " ".join(x for x in (r["ns"], r["ns_name"]) if x), " ".join(x for x in (r["ew"], r["ew_name"]) if x),
                    r["contract"] or f"({r['status']})", "" if r["tricks"] is None else str(r["tricks"]),
                    "" if r["score_ns"] is None else f"{r['score_ns']:+d}" if r["score_ns"] else "0", "; ".join(r["rulings"]),
                    "; ".join(r["open"]), r["stream"])
    rich_console().print(out)


@click.command("swiss")
@click.argument("tournament")
@click.argument("session")
@click.option("--bye-vp", type=float, default=None, help="VPs for a bye (default: ledger.teams.BYE_VP, 12).")
@click.option("--dry-run", is_flag=True, help="Print the pairing; append nothing.")
@click.pass_context
def swiss_cmd(ctx: click.Context, tournament: str, session: str, bye_vp: float | None, dry_run: bool) -> None:
    """Pair the next round of a Swiss SESSION by current score (carry-over + VPs + byes), without
    a rematch (round 1 by seeding), and append it to the register (SwissRoundPaired).
    Refused (exit 2, nothing written) while a match of the last round has not ended."""
    from ledger.register import append_register, read_register
    from ledger.teams import BYE_VP
    from ledger.tournament import tournament_tables
    from projections.event import event_results, swiss_totals
    from ledger.teams import swiss_pairing

    with open_ledger(ctx) as ledger:
        reg = read_register(ledger, tournament)
        if session not in reg.sessions or reg.sessions[session].kind != "swiss":
            raise BadInput("no Swiss session of that name in the register", field="SESSION", value=session)
        rounds = reg.swiss.get(session, {})
        planned = reg.sessions[session].rounds
        if planned is not None and len(rounds) >= planned:
            raise BadInput(f"session {session} has {planned} rounds, all paired", field="SESSION", value=session)
        tables = [t for t in tournament_tables(ledger, tournament) if t[1].board.session == session]
        matches: list[dict[str, Any]] = []
        if tables:
            doc = event_results(tournament, tables, reg)
            matches = next((s.get("matches") or [] for s in doc["sessions"] if s["session"] == session), [])
        totals = swiss_totals(reg, session, matches)
        teams = [t for t, e in reg.teams.items() if e.plays(session, len(rounds) + 1, reg.session_order)]
        met = [m for r in rounds.values() for m in r.matches]
        byes = [r.bye for r in rounds.values() if r.bye]
        try:
            pairing, bye = swiss_pairing(teams, totals, met, byes, first_round=not rounds)
        except ValueError as exc:
            raise BadInput(str(exc), field="SESSION", value=session) from None
        fact: dict[str, object] = {"type": "SwissRoundPaired", "session": session, "round": len(rounds) + 1,
                                   "matches": [list(m) for m in pairing]}
        if bye is not None:
            fact["bye"] = bye
            fact["bye_vp"] = bye_vp if bye_vp is not None else BYE_VP
        if not dry_run:
            append_register(ledger, tournament, [fact])
    click.echo(f"round {fact['round']}: " + ", ".join(f"{h} v {a}" for h, a in pairing)
               + (f"; bye {bye}" if bye else "") + (" (dry run: nothing appended)" if dry_run else ""))


@click.command("knockout")
@click.argument("tournament")
@click.argument("session")
@click.option("--dry-run", is_flag=True, help="Print the next round; append nothing.")
@click.pass_context
def knockout_cmd(ctx: click.Context, tournament: str, session: str, dry_run: bool) -> None:
    """Each knockout match of SESSION as it stands (IMPs with carry-over, who goes on), then the
    next round paired from the last round's winners in bracket order (KnockoutRoundPaired).
    Round 1 is the draw, given in the register. Refused (exit 2, nothing written) while a
    match of the last round is not over, or is tied with no KnockoutTieDecided."""
    from ledger import events as ev
    from ledger.register import append_register, read_register
    from ledger.teams import knockout_next_round
    from ledger.tournament import tournament_tables
    from projections.event import knockout_matches

    with open_ledger(ctx) as ledger:
        reg = read_register(ledger, tournament)
        if session not in reg.sessions or reg.sessions[session].kind != "knockout":
            raise BadInput("no knockout session of that name in the register", field="SESSION", value=session)
        rounds = reg.swiss.get(session, {})
        if not rounds:
            raise BadInput("round 1 is the draw: append it to the register (KnockoutRoundPaired)", field="SESSION",
                           value=session)
        tables = [t for t in tournament_tables(ledger, tournament) if t[1].board.session == session]
        matches = knockout_matches(reg, session, tables)
        for m in matches:
            if m["status"] == "bye":
                click.echo(f"round {m['round']}: {m['home']} bye")
                continue
            click.echo(f"round {m['round']}: {m['home']} v {m['away']} {m['total_home']:g} - {m['total_away']:g}"
                       + (f" (carry {m['carry_home']:g} - {m['carry_away']:g})" if m["carry_home"] or m["carry_away"]
                          else "") + f", {m['status']}" + (f": {m['winner']} goes on" if m["winner"] else "")
                       + (f" ({m['decided']})" if m["decided"] else ""))
        last_round = max(rounds)
        last = [m for m in matches if m["round"] == last_round and m["status"] != "bye"]
        bye = rounds[last_round].bye
        if len(last) == 1 and not bye and last[0]["winner"]:
            click.echo(f"winner: {last[0]['winner']}")
            return
        planned = reg.sessions[session].rounds
        if planned is not None and last_round >= planned:
            raise BadInput(f"session {session} has {planned} rounds, all paired", field="SESSION", value=session)
        try:
            pairing = knockout_next_round([m["winner"] for m in last], bye)
        except ValueError as exc:
            raise BadInput(str(exc), field="SESSION", value=session) from None
        fact = {"type": ev.KnockoutRoundPaired.TYPE, "session": session, "round": last_round + 1,
                "matches": [list(m) for m in pairing]}
        if not dry_run:
            append_register(ledger, tournament, [fact])
    click.echo(f"round {last_round + 1}: " + ", ".join(f"{h} v {a}" for h, a in pairing)
               + (" (dry run: nothing appended)" if dry_run else ""))


@click.command("session-digest")
@click.argument("tournament")
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="One JSON document.")
@click.option("--check", "check", default=None, help="A session digest published earlier: exit 1 unless it is "
              "still the session's digest.")
@click.pass_context
def session_digest_cmd(ctx: click.Context, tournament: str, session: str, as_json: bool,
                       check: str | None) -> None:
    """SESSION's boards (stream, events, head hash) and its digest: the Merkle tree head over
    every event of its boards (docs/reliability.md), to print on the session's results sheet.
    Another session's boards do not change it."""
    from ledger.audit.merkle import Digest
    from ledger.tournament import session_digest

    expected = Digest.parse(check) if check is not None else None
    with open_ledger(ctx) as ledger:
        head, boards = session_digest(ledger, tournament, session)
    if not boards:
        raise BadInput("no board of that session (BoardOpened.session)", field="SESSION", value=session)
    if as_json:
        click.echo(json.dumps({"tournament": tournament, "session": session, "size": head.size, "root": head.root,
                               "digest": str(head), "short": head.short(), "boards": boards}, indent=1))
    else:
        for b in boards:
            click.echo(f"{b['stream']}  {b['events']} event(s)  head {b['head'][:16]}")
        click.echo(f"session {session}: {len(boards)} board(s), {head.size} event(s)")
        click.echo(str(head))
        click.echo(f"read out: {head.short()}")
    if expected is not None:
        if expected.size != head.size or not expected.matches(bytes.fromhex(head.root)):
            click.echo(f"FAILED: session {session} is no longer what {check} covered (now {head.short()})", err=True)
            ctx.exit(1)
        click.echo(f"ok: session {session} is exactly what {check} covered", err=True)


@click.command("enter")
@click.argument("tournament")
@click.argument("session")
@click.argument("file", required=False)
@click.option("--deals", "deals_path", required=True, help="The session's hand record (PBN: [Board], [Deal]).")
@click.option("--by", "actor", default=None, help="Who enters them (the director's name in the log).")
@click.pass_context
def enter_cmd(ctx: click.Context, tournament: str, session: str, file: str | None, deals_path: str,
              actor: str | None) -> None:
    """Enter SESSION's traveller slips from FILE (stdin without FILE): one line per table and
    board (`t3 b2 4S E 10`, `t2 b1 Pass`, `t2 b3 withdrawn 2017:13A reason`; teams:
    `r2 4v1 open b13 4S N 10`), each board opened with its deal, session and pairs (the
    register's movement or match) and its result reported. All or nothing (exit 2)."""
    from ledger.register import read_register
    from ledger.travellers import read_deals, traveller_facts

    text = read_input(file)
    deals = read_deals(read_input(deals_path))
    with open_ledger(ctx, create=True) as ledger:
        reg = read_register(ledger, tournament)
        boards = traveller_facts(text, tournament=tournament, session=session, register=reg, deals=deals,
                                 actor=actor)
        with ledger.batch(stream for stream, _, _ in boards):
            for stream, facts, number in boards:
                try:
                    ledger.append(stream, facts)
                except BadInput as exc:
                    raise BadInput(f"{stream}: {exc.reason}", field=exc.field, value=exc.value,
                                   line=number) from None
    click.echo(f"{len(boards)} board(s) entered for session {session}")


@click.command("print")
@click.argument("tournament")
@click.argument("what", type=click.Choice(["handrecords", "travellers", "ranking", "tablecards"]))
@click.option("-o", "--output", "output", required=True, help="The file to write (.pdf or .html).")
@click.option("--format", "fmt", type=click.Choice(["pdf", "html"]), default=None,
              help="pdf or html (default: from the file name).")
@click.option("--session", default=None, help="Only this session (table cards: the session to print).")
@click.option("--urls", "urls_path", default=None,
              help="Table cards: the JSON `session open --json` printed (its table_urls), for the QR codes.")
@click.option("--no-analysis", is_flag=True, help="Hand records without the double-dummy table.")
@click.pass_context
def print_cmd(ctx: click.Context, tournament: str, what: str, output: str, fmt: str | None, session: str | None,
              urls_path: str | None, no_analysis: bool) -> None:
    """Print WHAT for TOURNAMENT as PDF or print-ready HTML: hand records (a compass diagram per
    board; the double-dummy table and par with the analysis extra), travellers (adjusted scores
    marked), the ranking sheet (each session and the event), table cards (each round's
    movement and a QR code)."""
    from pathlib import Path

    from ledger.printing import html as ph
    from ledger.printing import sheets
    from ledger.register import read_register
    from ledger.tournament import tournament_tables
    from projections.event import event_results

    fmt = fmt or ("html" if output.lower().endswith((".html", ".htm")) else "pdf")
    with open_ledger(ctx) as ledger:
        tables = tournament_tables(ledger, tournament)
        reg = read_register(ledger, tournament)
        digests = {}
        if what == "ranking":  # each session's sheet carries its digest (cli.py session-digest)
            from ledger.tournament import session_digest

            for name in {t[1].board.session for t in tables if t[1].board.session}:
                digests[name] = session_digest(ledger, tournament, name)[0].short()
    if session is not None:
        tables = [t for t in tables if t[1].board.session == session]
    title = tables[0][1].board.tournament if tables else tournament
    if what == "tablecards":
        chosen = session or next(iter(reg.sessions), None)
        if chosen is None:
            raise BadInput("no session in the register (SessionScheduled with a movement)", field="--session",
                           value=session)
        urls = None
        if urls_path is not None:
            doc = json.loads(read_input(urls_path))
            urls = {str(k): str(v) for k, v in (doc.get("table_urls") or {}).items()}
        data: list[dict[str, Any]] = sheets.table_cards(reg, chosen, urls=urls, tournament=title)
        if not data:
            raise BadInput("the session has no movement in the register", field="--session", value=chosen)
    else:
        if not tables:
            raise BadInput("no board of that tournament (and session) in this ledger", field="TOURNAMENT",
                           value=tournament)
        if what == "handrecords":
            data = sheets.hand_records(tables, analysis=not no_analysis)
        else:
            doc = event_results(title, tables, reg)
            data = sheets.travellers(doc) if what == "travellers" else sheets.rankings(doc, digests)
    if fmt == "pdf":
        from ledger.printing import pdf

        make = {"handrecords": pdf.hand_records_pdf, "travellers": pdf.travellers_pdf, "ranking": pdf.ranking_pdf,
                "tablecards": pdf.table_cards_pdf}[what]
        Path(output).write_bytes(make(title, data))
    else:
        make_html = {"handrecords": ph.hand_records_html, "travellers": ph.travellers_html,
                     "ranking": ph.ranking_html, "tablecards": ph.table_cards_html}[what]
        Path(output).write_text(make_html(title, data), encoding="utf-8")
    click.echo(f"{what} written to {output} ({fmt})")


COMMANDS: tuple[click.Command, ...] = (register_cmd, players_cmd, boards_cmd, swiss_cmd, knockout_cmd, enter_cmd,
                                       print_cmd, session_digest_cmd)
