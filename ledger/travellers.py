"""Traveller slips as a scorer types them (``cli.py enter``): one line per table and board,
turned into the boards' facts (``BoardOpened`` with its session, deal and pairs, then
``ResultReported`` or ``BoardWithdrawn``), each board its own stream, appended through the
ordinary append path.

A pairs line::

    t3 b2 4S E 10          # table 3, board 2: 4S by East, 10 tricks
    t1 b5 3NTX N 8
    t2 b1 Pass
    t2 b3 withdrawn 2017:13A East had 14 cards; no time to redeal

A Swiss or teams line (the match as paired in the register: round, home v away, room)::

    r2 4v1 open b13 4S N 10
    r2 4v1 closed b13 4S N 9

The pairs come from the session's movement in the register (pairs) or from the match
(teams: the home team North-South in the open room, East-West in the closed room); the deal
from the hand record (a PBN file: ``[Board]`` and ``[Deal]``). Streams:
``<tournament>/<session>/t<table>/b<board>`` and
``<tournament>/<session>/r<round>/<room>/<home>v<away>/b<board>``.
"""

from __future__ import annotations

import re
from typing import Any

from ledger.errors import BadInput
from ledger.records.games import slugify
from ledger.register import Register, swiss_match_id
from ledger.tournament import board_in_session

_PAIRS = re.compile(r"^t(?P<table>[A-Za-z0-9]+)\s+b(?P<board>\d+)\s+(?P<rest>.+)$")
_TEAMS = re.compile(r"^r(?P<round>\d+)\s+(?P<home>[A-Za-z0-9._-]+)v(?P<away>[A-Za-z0-9._-]+)\s+"
                    r"(?P<room>open|closed)\s+b(?P<board>\d+)\s+(?P<rest>.+)$")
_RESULT = re.compile(r"^(?P<contract>[1-7](?:NT|[CDHSN])(?:XX|X)?)\s+(?P<declarer>[NESW])\s+(?P<tricks>\d{1,2})$",
                     re.IGNORECASE)


def read_deals(text: str) -> dict[int, str]:
    """Board number -> PBN deal of a hand record."""
    from ledger.records.formats.pbn import read_pbn

    deals = {}
    for record in read_pbn(text):
        board, deal = record.tags.get("Board", ""), record.tags.get("Deal")
        if board.isdigit() and deal:
            deals[int(board)] = deal
    return deals


def _result(rest: str, number: int) -> list[dict[str, Any]]:
    words = rest.split()
    if words[0].lower() == "pass" and len(words) == 1:
        return [{"type": "ResultReported", "contract": "Pass"}]
    if words[0].lower() == "withdrawn":
        if len(words) < 3:
            raise BadInput("withdrawn LAW REASON (e.g. withdrawn 2017:87A fouled board)", field="line",
                           value=rest, line=number)
        return [{"type": "BoardWithdrawn", "law": words[1], "reason": " ".join(words[2:])}]
    m = _RESULT.match(rest.strip())
    if not m:
        raise BadInput("a result is CONTRACT DECLARER TRICKS (4S E 10, 3NTX N 8), Pass, or withdrawn LAW "
                       "REASON", field="result", value=rest, line=number)
    contract = m.group("contract").upper().replace("NT", "N").replace("N", "NT", 1)
    risk = "XX" if contract.endswith("XX") else "X" if contract.endswith("X") else ""
    contract = contract[:len(contract) - len(risk)]
    return [{"type": "ResultReported", "contract": contract, "declarer": m.group("declarer").upper(),
             "risk": risk, "tricks": int(m.group("tricks"))}]


def traveller_facts(text: str, *, tournament: str, session: str, register: Register,
                    deals: dict[int, str], actor: str | None = None) -> list[tuple[str, list[dict[str, Any]], int]]:
    """(stream, facts, line number) per line of ``text``; a bad line raises BadInput naming it (nothing is
    appended by the caller then)."""
    if session not in register.sessions:
        raise BadInput("no such session in the register (SessionScheduled)", field="SESSION", value=session)
    info = register.sessions[session]
    slug = slugify(tournament)
    out = []
    seen: dict[str, int] = {}
    who = {"role": "director", "name": actor} if actor else {"role": "director"}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        opened: dict[str, Any] = board_in_session(
            {"type": "BoardOpened", "tournament": tournament,
             "scoring": "IMP" if info.kind in ("teams", "swiss", "knockout") else "MP", "actor": who}, session)
        m = _TEAMS.match(line) if info.kind in ("teams", "swiss", "knockout") else _PAIRS.match(line)
        if not m:
            shape = "rROUND HOMEvAWAY open|closed bBOARD RESULT" if info.kind in ("teams", "swiss", "knockout") \
                else "tTABLE bBOARD RESULT"
            raise BadInput(f"a traveller line of a {info.kind} session is {shape}", field="line", value=line,
                           line=number)
        board = int(m.group("board"))
        if board not in deals:
            raise BadInput("the hand record has no deal for this board", field="board", value=board, line=number)
        opened.update(board=board, deal=deals[board])
        if info.kind in ("teams", "swiss", "knockout"):
            rnd, home, away, room = int(m.group("round")), m.group("home"), m.group("away"), m.group("room")
            paired = register.swiss.get(session, {}).get(rnd)
            for team in (home, away):
                if team not in register.teams:
                    raise BadInput("no such team in the register (TeamEntered)", field="match", value=team,
                                   line=number)
            if info.kind in ("swiss", "knockout") and (paired is None or (home, away) not in paired.matches):
                raise BadInput(f"round {rnd} of the register has no match {home} v {away}", field="match",
                               value=f"{home}v{away}", line=number)
            ns, ew = (home, away) if room == "open" else (away, home)
            opened.update(table=f"{home}v{away}", match=swiss_match_id(session, rnd, home, away), room=room,
                          ns=ns, ew=ew)
            stream = f"{slug}/{session}/r{rnd}/{room}/{home}v{away}/b{board}"
        else:
            table = m.group("table")
            seat = next((s for s in info.movement or () if s["table"] == table and board in s["boards"]), None)
            if seat is None:
                raise BadInput(f"the movement of session {session} does not give board {board} to table {table}",
                               field="line", value=line, line=number)
            opened.update(table=table, ns=seat["ns"], ew=seat["ew"])
            stream = f"{slug}/{session}/t{table}/b{board}"
        if stream in seen:
            raise BadInput(f"the same table and board as line {seen[stream]}", field="line", value=line, line=number)
        seen[stream] = number
        facts = [opened] + [dict(f, actor=who) for f in _result(m.group("rest"), number)]
        out.append((stream, facts, number))
    if not out:
        raise BadInput("the file has no traveller line", field="FILE", value="")
    return out
