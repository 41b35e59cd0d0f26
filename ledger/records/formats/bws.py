"""Bridgemate Control Software databases (``.bws``, MS Access): a club session's
results as the Bridgemate terminals entered them -> ledger facts.

The file is read with ``access-parser`` (pure Python, from PyPI: no system
package; checked against Debian's ``mdbtools`` ``mdb-export`` on a real
session, every row and column equal).  :func:`read_tables` gives the tables
as rows (column name -> value); :func:`session_records` turns them into one
:class:`BwsRecord` per table and board, its facts in the order the terminals
logged them:

* ``BoardOpened``: the board's deal (the hand-record PBN beside the database,
  else its ``HandRecord`` table), the table (``A3`` when the file has more
  than one section), the pairs of ``ReceivedData`` (``PairNS``/``PairEW``) named
  by :func:`pair_id` (``"3 NS"``: the section's letter when there are several,
  the number, the direction when the movement numbers North-South and
  East-West apart, as a Mitchell does).
* each ``ReceivedData`` row in ``ID`` order: ``ResultReported`` (contract,
  declarer's seat, ``risk``, tricks, ``LeadCard``); an ``Erased`` row is
  logged and then voided (``EntryVoided``, the ledger's correction of an entry
  error: it stays in the log and the fold skips it).  A row ``Not played``
  (no contract) logs nothing but the board.
* ``BiddingData`` and ``PlayData`` rows of the table's board (``Counter``
  order), when present: ``CallPlaced`` and ``CardPlayed`` instead of the
  reported result (their ``Erased`` rows logged and voided), then the agreed
  claim of the tricks the result gives when the play stops before trick 13;
  the row's result is then what the folded calls and cards must give.

Every row that cannot be read is a :class:`BwsProblem` naming its section,
table, round and board.  The players (``PlayerNumbers``, names from
``PlayerNames`` where ``PlayerNumbers`` has none) are returned by pair id:
the ledger keeps pairs, not seats, in ``BoardOpened``.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import attrs

from ledger.records.formats.pbn_facts import claim_facts
from ledger.records.formats.pbn_notation import SEAT_NAMES, SEATS, next_seat, parse_card, side_of

__all__ = ["BwsProblem", "BwsRecord", "BwsSession", "pair_id", "read_tables",
           "session_records", "TABLES"]

#: The tables the import reads (the others are the scoring program's settings).
TABLES = ("ReceivedData", "RoundData", "PlayerNumbers", "PlayerNames", "Section", "HandRecord",
          "BiddingData", "PlayData")  # PlayerNames after PlayerNumbers: see read_tables

Row = Mapping[str, Any]


@attrs.frozen
class BwsRecord:
    """One table's board: its facts (``id`` set: ``bws-r<ID>`` for a ReceivedData row...)."""

    number: int
    """The ``ID`` of the first ReceivedData row of the table's board."""
    where: str
    """``section A, table 3, round 2, board 7``."""
    board: int
    table: str
    facts: list[dict[str, Any]]
    stated: dict[str, Any] | None
    notes: tuple[str, ...] = ()
    lead: tuple[str, str] | None = None
    """(card, declarer) of the result in force, to be checked against the deal."""


@attrs.frozen
class BwsProblem:
    number: int | None
    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


@attrs.frozen
class BwsSession:
    records: list[BwsRecord]
    problems: list[BwsProblem]
    pairs: dict[str, list[str]]
    """pair id -> the players' names (with their numbers), as the terminals logged them."""
    not_played: list[str]
    """The tables' boards that a row says were not played."""
    scoring: str


# ---------------------------------------------------------------------------
# The database

def read_tables(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """The rows of :data:`TABLES` (those the file has) as dicts, in the file's order.

    Raises ``ValueError`` naming the file when it is not an Access database."""
    from access_parser import AccessParser

    logging.getLogger("access_parser").setLevel(logging.CRITICAL)  # its system-table chatter
    try:
        db = AccessParser(str(path))
    except Exception as exc:  # the library raises bare errors on a file that is not Access
        raise ValueError(f"not a Bridgemate (MS Access) database: {exc}") from None
    out: dict[str, list[dict[str, Any]]] = {}
    for name in TABLES:
        if name not in db.catalog:
            continue
        if name == "PlayerNames" and all(_text(r.get("Name")) or not _text(r.get("Number"))
                                         for r in out.get("PlayerNumbers", [])):
            continue  # the club's whole register (14,000 rows): read only for a missing name
        columns = db.parse_table(name) or {}
        count = max((len(v) for v in columns.values()), default=0)
        out[name] = [{k: (v[i] if i < len(v) else None) for k, v in columns.items()}
                     for i in range(count)]
    return out


# ---------------------------------------------------------------------------
# Values

def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _int(value: Any) -> int | None:
    text = _text(value)
    try:
        return int(float(text)) if text else None
    except ValueError:
        return None


def _flag(value: Any) -> bool:
    return _text(value).lower() in ("1", "true", "-1", "yes")


_CONTRACT = re.compile(r"(?i)([1-7])\s*(NT|N|SA|C|D|H|S)\s*(X{0,2})")


def read_contract(text: str) -> tuple[int, str, str] | str | None:
    """``"4 S"``, ``"3 NT x"``, ``"PASS"`` -> ``(4, "S", "")``, ``"Pass"``; None when not
    a contract."""
    value = " ".join(text.split())
    if value.upper() in ("PASS", "P", "AP", "ALL PASS"):
        return "Pass"
    m = _CONTRACT.fullmatch(value.replace(" ", ""))
    if m is None:
        return None
    strain = m.group(2).upper()
    return int(m.group(1)), "NT" if strain in ("N", "NT", "SA") else strain, m.group(3).upper()


def read_tricks(text: str, level: int) -> int | None:
    """``=``, ``+2``, ``-1`` (or the declarer's tricks, ``9``) -> declarer's tricks."""
    value = text.replace(" ", "")
    if value in ("=", "0", "+0", "-0"):
        return level + 6
    if re.fullmatch(r"[+-]\d{1,2}", value):
        tricks = level + 6 + int(value)
    elif value.isdigit():
        tricks = int(value)
    else:
        return None
    return tricks if 0 <= tricks <= 13 else None


def read_card(text: str) -> str | None:
    """``SA``, ``H10``, ``D 7``, ``♠K`` -> ``SA``, ``HT``..."""
    return parse_card(text.replace(" ", "")) if text else None


def read_call(text: str) -> str | None:
    value = text.replace(" ", "").upper()
    if value in ("PASS", "P"):
        return "Pass"
    if value in ("X", "DBL", "XX", "RDBL"):
        return "X" if value in ("X", "DBL") else "XX"
    contract = read_contract(value)
    return f"{contract[0]}{contract[1]}" if isinstance(contract, tuple) and not contract[2] else None


def pair_id(number: int | str, direction: str | None, section: str | None) -> str:
    """A pair's name in the ledger: ``"3"``, ``"3 NS"`` (a Mitchell: North-South and
    East-West numbered apart), ``"B3 NS"`` (several sections).  Stable and easy to map
    to a pair or player registry later: section letter, number, direction."""
    return f"{section or ''}{number}" + (f" {direction}" if direction else "")


# ---------------------------------------------------------------------------
# Deals

def deals_from_hand_record(tables: Mapping[str, list[dict[str, Any]]]
                           ) -> dict[tuple[int, int], dict[str, Any]]:
    """(section, board) -> {"deal": "N:..."} from the database's ``HandRecord`` table
    (dealer and vulnerability then follow from the board number)."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for row in tables.get("HandRecord", []):
        section, board = _int(row.get("Section")), _int(row.get("Board"))
        if section is None or board is None:
            continue
        hands = []
        for seat in ("North", "East", "South", "West"):
            suits = [_text(row.get(f"{seat}{suit}")).upper().replace("10", "T")
                     for suit in ("Spades", "Hearts", "Diamonds", "Clubs")]
            hands.append(".".join(suits))
        if sum(len(h.replace(".", "")) for h in hands) == 52:
            out[(section, board)] = {"deal": "N:" + " ".join(hands)}
    return out


# ---------------------------------------------------------------------------
# The session

def _sections(tables: Mapping[str, list[dict[str, Any]]]) -> dict[int, str]:
    return {_int(r.get("ID")) or 0: _text(r.get("Letter")) or "A" for r in tables.get("Section", [])}


def _scoring(tables: Mapping[str, list[dict[str, Any]]]) -> str:
    types = {_int(r.get("ScoringType")) for r in tables.get("Section", [])}
    return "IMP" if types and types <= {2, 3} else "MP"


def _mitchell(rounds: list[dict[str, Any]]) -> bool:
    """North-South and East-West numbered apart: in some round a number sits both ways."""
    by_round: dict[tuple[int | None, int | None], tuple[set[int], set[int]]] = \
        defaultdict(lambda: (set(), set()))
    for r in rounds:
        ns, ew = by_round[(_int(r.get("Section")), _int(r.get("Round")))]
        ns.add(_int(r.get("NSPair")) or 0)
        ew.add(_int(r.get("EWPair")) or 0)
    return any(ns & ew for ns, ew in by_round.values())


def session_records(tables: Mapping[str, list[dict[str, Any]]],
                    deals: Mapping[tuple[int, int], Mapping[str, Any]],
                    tournament: str) -> BwsSession:
    """The session's tables and boards as :class:`BwsRecord` (see the module)."""
    session = _Session.of(tables, deals, tournament)
    groups, problems = _received_by_board(tables, session)
    records: list[BwsRecord] = []
    not_played: list[str] = []
    for (section, table, board), rows in sorted(groups.items()):
        read = _board_record(session, section, table, board, rows, not_played)
        if isinstance(read, BwsProblem):
            problems.append(read)
        else:
            records.append(read)
    return BwsSession(records, problems, _players(tables, session.name, session.sections),
                      not_played, session.scoring)


@attrs.frozen
class _Session:
    """What every board of the session reads: its sections, movement, scoring, deals and the
    BiddingData and PlayData rows by board."""

    tournament: str
    deals: Mapping[tuple[int, int], Mapping[str, Any]]
    sections: dict[int, str]
    rounds: list[dict[str, Any]]
    mitchell: bool
    scoring: str
    seated: dict[tuple[int, int, int], tuple[int, int]]
    """(section, table, round) -> the pairs the movement seats there (NS, EW)."""
    known: dict[tuple[int, str], set[int]]
    """(section, direction) -> the pairs the movement seats that way."""
    calls: dict[tuple[int, int, int, int], list[Row]]
    cards: dict[tuple[int, int, int, int], list[Row]]

    @classmethod
    def of(cls, tables: Mapping[str, list[dict[str, Any]]],
           deals: Mapping[tuple[int, int], Mapping[str, Any]], tournament: str) -> _Session:
        rounds = tables.get("RoundData", [])
        seated: dict[tuple[int, int, int], tuple[int, int]] = {}
        known: dict[tuple[int, str], set[int]] = defaultdict(set)
        for r in rounds:
            key = (_int(r.get("Section")) or 0, _int(r.get("Table")) or 0, _int(r.get("Round")) or 0)
            ns, ew = _int(r.get("NSPair")) or 0, _int(r.get("EWPair")) or 0
            seated[key] = (ns, ew)
            known[(key[0], "NS")].add(ns)
            known[(key[0], "EW")].add(ew)
        return cls(tournament, deals, _sections(tables), rounds, _mitchell(rounds),
                   _scoring(tables), seated, known, _by_board(tables.get("BiddingData", [])),
                   _by_board(tables.get("PlayData", [])))

    @property
    def several(self) -> bool:
        return len(self.sections) > 1

    def name(self, number: int, direction: str, section: int) -> str:
        letter = self.sections.get(section, "A") if self.several else None
        return pair_id(number, direction if self.mitchell else None, letter)

    def where(self, section: int, table: Any, rnd: Any, board: Any) -> str:
        part = f"section {self.sections.get(section, section)}, " if self.several else ""
        return f"{part}table {_text(table) or '?'}, round {_text(rnd) or '?'}, board {_text(board) or '?'}"


def _received_by_board(tables: Mapping[str, list[dict[str, Any]]], session: _Session
                       ) -> tuple[dict[tuple[int, int, int], list[dict[str, Any]]],
                                  list[BwsProblem]]:
    """The ReceivedData rows in ID order by (section, table, board); a problem for each row
    that names no such place."""
    groups: dict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
    problems: list[BwsProblem] = []
    for row in sorted(tables.get("ReceivedData", []), key=lambda r: _int(r.get("ID")) or 0):
        section, table, board = (_int(row.get(k)) for k in ("Section", "Table", "Board"))
        if section is None or table is None or board is None or board < 1:
            problems.append(BwsProblem(_int(row.get("ID")),
                                       session.where(section or 0, row.get("Table"),
                                                     row.get("Round"), row.get("Board")),
                                       f"ReceivedData ID {_text(row.get('ID'))}: section, table "
                                       "and board must be numbers"))
            continue
        groups[(section, table, board)].append(row)
    return groups, problems


def _board_record(session: _Session, section: int, table: int, board: int,
                  rows: list[dict[str, Any]], not_played: list[str]) -> BwsRecord | BwsProblem:
    """One table's board: its record, or the problem that stops it (a board with no result
    entered is added to ``not_played``)."""
    first = rows[0]
    rnd = _int(first.get("Round")) or 0
    at = session.where(section, table, rnd, board)
    number = _int(first.get("ID")) or 0
    deal = session.deals.get((section, board))
    if deal is None:
        return BwsProblem(number, at, f"no deal for board {board} (neither the hand "
                                      "record beside the file nor its HandRecord table)")
    ns_no, ew_no = _int(first.get("PairNS")), _int(first.get("PairEW"))
    unknown = _unknown_pairs(session, section, ns_no, ew_no)
    if unknown:
        return BwsProblem(number, at, f"ReceivedData ID {number}: "
                                      f"{' and '.join(unknown)} unknown to the movement (RoundData)")
    assert ns_no is not None and ew_no is not None
    notes: list[str] = []
    expected = session.seated.get((section, table, rnd))
    if expected is not None and expected != (ns_no, ew_no):
        notes.append(f"{at}: the row names pairs {ns_no} and {ew_no}; the movement seats "
                     f"{expected[0]} and {expected[1]} there (the row's pairs are kept)")
    opened: dict[str, Any] = {"type": "BoardOpened", "tournament": session.tournament, "board": board,
                              "table": f"{session.sections.get(section, 'A')}{table}" if session.several
                              else str(table),
                              "ns": session.name(ns_no, "NS", section),
                              "ew": session.name(ew_no, "EW", section),
                              "scoring": session.scoring, **deal, "id": f"bws-board-{number}"}
    facts: list[dict[str, Any]] = [opened]
    bad, stated, lead = _read_received(rows, at, facts, notes)
    if bad is not None:
        return BwsProblem(number, at, bad)
    if len(facts) == 1 and all(not _flag(r.get("Erased")) for r in rows):
        not_played.append(at)
    board_key = (section, table, rnd, board)
    if session.calls.get(board_key):
        try:
            facts = _played(facts, session.calls[board_key], session.cards.get(board_key, []),
                            stated, opened)
        except ValueError as exc:
            return BwsProblem(number, at, str(exc))
    return BwsRecord(number, at, board, opened["table"], facts, stated, tuple(notes), lead)


def _unknown_pairs(session: _Session, section: int, ns_no: int | None,
                   ew_no: int | None) -> list[str]:
    """The row's pairs that are no number or that the movement (RoundData) never seats so."""
    return [f"{d} pair {n}" for d, n in (("North-South", ns_no), ("East-West", ew_no))
            if n is None or (session.rounds
                             and n not in session.known[(section, "NS" if d[0] == "N" else "EW")])]


def _read_received(rows: list[dict[str, Any]], at: str, facts: list[dict[str, Any]],
                   notes: list[str]
                   ) -> tuple[str | None, dict[str, Any] | None, tuple[str, str] | None]:
    """The board's ReceivedData rows as facts (appended; an erased row logged then voided):
    (the reason a row cannot be read or None, the result stated last, its lead)."""
    stated: dict[str, Any] | None = None
    lead: tuple[str, str] | None = None
    for row in rows:
        row_id = _int(row.get("ID")) or 0
        erased = _flag(row.get("Erased"))
        try:
            fact = _reported(row)
        except ValueError as exc:
            if erased:
                notes.append(f"{at}: erased row ID {row_id} not read ({exc})")
                continue
            return f"ReceivedData ID {row_id}: {exc}", stated, lead
        if fact is None:  # not played
            if not erased:
                stated = None
                lead = None
            continue
        fact["id"] = f"bws-r{row_id}"
        facts.append(fact)
        if erased:
            facts.append({"type": "EntryVoided", "about": fact["id"], "id": f"bws-r{row_id}-erased",
                          "reason": f"erased on the Bridgemate (ReceivedData ID {row_id})"})
        else:
            stated = _stated(fact)
            lead = (fact["lead"], fact["declarer"]) if fact.get("lead") and fact.get("declarer") \
                else None
    return None, stated, lead


def _reported(row: Row) -> dict[str, Any] | None:
    contract_text = _text(row.get("Contract"))
    if not contract_text:
        return None  # "Not played"
    contract = read_contract(contract_text)
    if contract is None:
        raise ValueError(f"Contract {contract_text!r} is not a contract (like '4 S', '3 NT x', 'PASS')")
    if contract == "Pass":
        return {"type": "ResultReported", "contract": "Pass"}
    if isinstance(contract, str):  # read_contract gives a str only for a pass-out, handled above
        raise ValueError(f"Contract {contract_text!r} is not a contract (like '4 S', '3 NT x', 'PASS')")
    level, strain, risk = contract
    seat = _text(row.get("NS/EW")).upper()
    if seat not in SEATS:
        raise ValueError(f"NS/EW (declarer's seat) {_text(row.get('NS/EW'))!r} is not N, E, S or W")
    result = _text(row.get("Result"))
    tricks = read_tricks(result, level)
    if tricks is None:
        raise ValueError(f"Result {result!r} is not =, +n or -n for {contract_text}")
    fact: dict[str, Any] = {"type": "ResultReported", "contract": f"{level}{strain}",
                            "declarer": seat, "risk": risk, "tricks": tricks}
    lead_text = _text(row.get("LeadCard"))
    if lead_text:
        card = read_card(lead_text)
        if card is None:
            raise ValueError(f"LeadCard {lead_text!r} is not a card")
        fact["lead"] = card
    return fact


def _stated(fact: dict[str, Any]) -> dict[str, Any]:
    if fact["contract"] == "Pass":
        return {"contract": "Pass", "risk": "", "declarer": None, "tricks": None, "score_ns": None}
    return {"contract": fact["contract"], "risk": fact["risk"], "declarer": fact["declarer"],
            "tricks": fact["tricks"], "score_ns": None}


def _by_board(rows: Iterable[Row]) -> dict[tuple[int, int, int, int], list[Row]]:
    out: dict[tuple[int, int, int, int], list[Row]] = defaultdict(list)
    for row in rows:
        section, table, round_, board = (_int(row.get(k)) or 0
                                         for k in ("Section", "Table", "Round", "Board"))
        out[(section, table, round_, board)].append(row)
    for items in out.values():
        items.sort(key=lambda r: (_int(r.get("Counter")) or 0, _int(r.get("ID")) or 0))
    return out


def _logged(out: list[dict[str, Any]], rows: list[Row], table: str, column: str,
            read: Callable[[str], str | None], type_: str, key: str, prefix: str) -> list[tuple[str, str]]:
    """Each BiddingData or PlayData row appended to ``out`` as its fact (an erased row logged, then
    voided); the (seat, call or card) of the rows not erased, in order."""
    kept: list[tuple[str, str]] = []
    for row in rows:
        row_id = _int(row.get("ID")) or 0
        seat = _text(row.get("Direction")).upper()
        value = read(_text(row.get(column)))
        if seat not in SEATS or value is None:
            raise ValueError(f"{table} ID {row_id}: Direction {_text(row.get('Direction'))!r}, "
                             f"{column} {_text(row.get(column))!r} cannot be read")
        out.append({"type": type_, "seat": seat, key: value, "id": f"bws-{prefix}{row_id}"})
        if _flag(row.get("Erased")):
            out.append({"type": "EntryVoided", "about": f"bws-{prefix}{row_id}",
                        "id": f"bws-{prefix}{row_id}-erased",
                        "reason": f"erased on the Bridgemate ({table} ID {row_id})"})
        else:
            kept.append((seat, value))
    return kept


def _played(facts: list[dict[str, Any]], calls: list[Row], cards: list[Row],
            stated: dict[str, Any] | None, opened: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's facts from its BiddingData and PlayData rows (each erased row logged and
    voided), then the claim of the tricks the result gives when the play stops early."""
    out = [opened]
    _logged(out, calls, "BiddingData", "Bid", read_call, "CallPlaced", "call", "b")
    played = _logged(out, cards, "PlayData", "Card", read_card, "CardPlayed", "card", "p")
    if stated is None or stated.get("contract") == "Pass" or len(played) == 52:
        return out
    declarer = stated["declarer"]
    trump = None if stated["contract"].endswith("NT") else stated["contract"][-1]
    tricks = [played[i:i + 4] for i in range(0, len(played), 4)]
    try:
        claim = claim_facts(declarer, tricks, trump, stated["tricks"])
    except ValueError as exc:
        raise ValueError(f"PlayData: {exc} (the result entered is {stated['tricks']} tricks)") from None
    return out + [{**f, "id": f"bws-claim-{i}"} for i, f in enumerate(claim, start=1)]


def _players(tables: Mapping[str, list[dict[str, Any]]], name: Any,
             sections: dict[int, str]) -> dict[str, list[str]]:
    """Pair id -> "Name (number)" of each player seated at the start (``PlayerNumbers``;
    a name missing there is looked up in ``PlayerNames`` by number)."""
    names = {_text(r.get("strID")) or _text(r.get("ID")): _text(r.get("Name"))
             for r in tables.get("PlayerNames", [])}
    seated: dict[tuple[int, int, int], tuple[int, int]] = {}
    for r in tables.get("RoundData", []):
        seated[(_int(r.get("Section")) or 0, _int(r.get("Table")) or 0, _int(r.get("Round")) or 0)] = \
            (_int(r.get("NSPair")) or 0, _int(r.get("EWPair")) or 0)
    first_round = {k[:2]: v for k, v in sorted(seated.items(), key=lambda kv: -kv[0][2])}
    pairs: dict[str, list[str]] = {}
    for r in tables.get("PlayerNumbers", []):
        section, table = _int(r.get("Section")) or 0, _int(r.get("Table")) or 0
        seat = _text(r.get("Direction")).upper()
        rnd = _int(r.get("Round")) or 0
        at = seated.get((section, table, rnd)) or first_round.get((section, table))
        if seat not in SEATS or at is None:
            continue
        number = _text(r.get("Number"))
        player = _text(r.get("Name")) or names.get(number, "")
        direction = side_of(seat)
        pair = name(at[0] if direction == "NS" else at[1], direction, section)
        label = f"{player} ({number})" if player and number else player or number
        if label:
            pairs.setdefault(pair, []).append(f"{SEAT_NAMES[seat]}: {label}")
    return pairs


def lead_check(lead: tuple[str, str], holder: str) -> str | None:
    """The words of a lead that the opening leader (declarer's left) does not hold."""
    card, declarer = lead
    leader = next_seat(declarer)
    if holder == leader:
        return None
    role = ("declarer" if holder == declarer else "dummy" if holder == next_seat(declarer, 2)
            else "the opening leader's partner")
    return (f"the lead {card} is {SEAT_NAMES[holder]}'s card ({role}), not "
            f"{SEAT_NAMES[leader]}'s, the opening leader's: kept only as the reported lead")

