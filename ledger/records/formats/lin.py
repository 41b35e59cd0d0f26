"""A reader for BBO's LIN game records (hand records, vugraph archives).

A LIN file is a flat list of ``tag|value|`` pairs; line breaks between pairs
mean nothing.  This reader turns it into :class:`LinRecord` objects, one per
board played at one table, and each record into ledger facts of the same
shape as :func:`ledger.records.formats.pbn.record_to_facts` (LEDGER-SPEC 3).

What it reads:

* ``vg|title,segment,scoring,first,last,team1,carry1,team2,carry2|``
  (vugraph header: the event, the scoring ``I`` IMPs / ``P`` pairs / ``B``
  board-a-match, the first board number), ``rs|...|`` (the result of each
  table, in the order open, closed of each board from the first board),
  ``pn|...|`` (4 names: South, West, North, East; or 8: the open room's
  four then the closed room's).
* ``qx|o46|`` starts a record (room ``o`` open or ``c`` closed, board 46).
  Files without ``qx`` (BBO hand records) start a record at ``pn`` or ``md``
  once the current record has its deal; ``ah|Board 12|`` gives its number.
* ``md|3SKH45...,S56...,S47...,|``: the dealer (1 South, 2 West, 3 North,
  4 East) then the hands of South, West, North, East; one hand may be left
  empty and is completed with the 13 cards the others do not hold.
* ``sv|o|`` vulnerability (``o`` or ``0`` none, ``n`` NS, ``e`` EW, ``b`` both).
* ``mb|1H!|`` a call (``p``, ``d``, ``r``, ``1N``...; ``!`` alerted);
  ``an|text|`` the explanation of the call before it.
* ``pc|C9|`` a card, in the order played (the seat is whoever holds it).
* ``mc|10|`` a claim: the declarer's tricks in all.
* Every other tag (``nt`` commentary, ``pg``, ``st``, ``rh``, ``sk``...) is
  display information and is skipped.

A record that cannot be read raises :class:`LinError` (a ``BadInput``) naming
the record number, the line and the reason; ``read_lin(text,
collect_errors=True)`` returns the good records and the errors instead.
"""

from __future__ import annotations

import re
from typing import Any, Literal, overload

import attrs

from ledger.bridge import Call
from ledger.records.formats.pbn_facts import claim_facts
from ledger.records.formats.pbn_notation import (RANKS, SEAT_NAMES, SUITS, deal_string, next_seat,
                                         side_of, trick_winner_seat)
from ledger.records.formats.pbn_scan import PbnError

__all__ = ["LinCall", "LinError", "LinRecord", "lin_result", "read_lin", "record_to_facts",
           "record_tricks"]

#: ``md`` dealer digit -> seat; hands are given in the order South, West, North, East.
DEALERS = {"1": "S", "2": "W", "3": "N", "4": "E"}
HAND_ORDER = ("S", "W", "N", "E")
VULNERABILITY = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
ROOMS = {"o": "open", "c": "closed"}
SCORING = {"I": "IMP", "B": "IMP", "P": "MP"}

#: Text of the explanation logged for a call alerted (``!``) without an ``an``.
ALERT_WITHOUT_TEXT = "(alerted; no explanation in the record)"


class LinError(PbnError):
    """A LIN record that cannot be read (``record``, ``line``, ``reason``)."""


@attrs.frozen
class LinCall:
    seat: str
    call: str
    alerted: bool = False
    explanation: str | None = None


@attrs.frozen
class LinRecord:
    """One board at one table of a LIN file."""

    number: int
    line: int
    board: int
    dealer: str
    vulnerability: str
    hands: dict[str, list[str]]
    calls: list[LinCall]
    cards: list[tuple[str, str]]
    """(seat, card) in the order played."""
    claim: int | None = None
    """``mc``: the declarer's tricks in all."""
    room: str | None = None
    names: dict[str, str] = attrs.field(factory=dict)
    event: str | None = None
    scoring: str | None = None
    match: str | None = None
    result: str | None = None
    """This table's entry of the ``rs`` header (``4HE=``, ``4SWx-4``...), if any."""
    tag_lines: dict[str, int] = attrs.field(factory=dict)

    def error(self, reason: str, tag: str | None = None, value: object = None) -> LinError:
        return LinError(reason, record=self.number, line=self.tag_lines.get(tag or "", self.line),
                        field=tag, value=value)

    @property
    def contract(self) -> tuple[int, str, str, str] | None | Literal["Pass"]:
        """``(level, strain, risk, declarer)`` from the calls, ``"Pass"``, or None (no auction end)."""
        return _contract([(c.seat, c.call) for c in self.calls])


# ---------------------------------------------------------------------------
# Tokens and records

_PAIR = re.compile(r"\s*([A-Za-z]{1,3})\|([^|]*)\|", re.S)


BAD = "!bad"
"""The pseudo-tag of a stretch that is not ``tag|value|``: the record holding it fails."""
STRAY = "!stray"
"""The pseudo-tag of a ``|`` standing alone: skipped in the header (before the first
record), a failure inside a record."""


def _pairs(text: str) -> list[tuple[str, str, int]]:
    """``(tag, value, line)`` for every pair, tags in lower case.

    What cannot be read as a pair, up to the end of its line, becomes a
    ``(BAD, reason, line)`` pair; reading goes on at the next line.
    """
    pairs: list[tuple[str, str, int]] = []
    pos, line = 0, 1
    text = text.lstrip("\ufeff")
    while pos < len(text):
        rest = text[pos:]
        if not rest.strip():
            break
        m = _PAIR.match(text, pos)
        if m is None and rest.lstrip().startswith("|"):
            skipped = len(rest) - len(rest.lstrip())
            line += text.count("\n", pos, pos + skipped)
            pairs.append((STRAY, "", line))
            pos += skipped + 1
            continue
        if m is None:
            skipped = len(rest) - len(rest.lstrip())
            line += text.count("\n", pos, pos + skipped)
            pos += skipped
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            pairs.append((BAD, f"cannot read {text[pos:end][:40]!r} as tag|value|", line))
            pos = end
            continue
        start = m.start(1)
        line += text.count("\n", pos, start)
        pairs.append((m.group(1).lower(), m.group(2), line))
        line += text.count("\n", start, m.end())
        pos = m.end()
    return pairs


@attrs.define
class _Raw:
    pairs: list[tuple[str, str, int]] = attrs.field(factory=list)

    def has(self, tag: str) -> bool:
        return any(t == tag for t, _, _ in self.pairs)


def _split(pairs: list[tuple[str, str, int]]) -> tuple[dict[str, tuple[str, int]], list[_Raw]]:
    """The header (vg, rs, pn before the first record) and the records' pairs."""
    header: dict[str, tuple[str, int]] = {}
    records: list[_Raw] = []
    vugraph = any(t == "qx" for t, _, _ in pairs)
    current: _Raw | None = None
    for tag, value, line in pairs:
        if tag == STRAY:
            if current is not None:
                current.pairs.append((BAD, "a stray '|' (not tag|value|)", line))
            continue
        if tag in ("vg", "rs") or (vugraph and current is None and tag not in ("qx", BAD)):
            if tag in ("vg", "rs", "pn"):
                header[tag] = (value, line)
            continue
        starts = (tag == "qx") if vugraph else (
            tag in ("pn", "md") and (current is None or current.has("md")))
        if starts or current is None:
            current = _Raw()
            records.append(current)
        current.pairs.append((tag, value, line))
    return header, records


def _hand(text: str) -> list[str]:
    """``SKH4579QKAD69C58K`` -> cards (canonical); raises ValueError."""
    cards: list[str] = []
    suit = None
    t = text.upper().replace("10", "T")
    for ch in t:
        if ch in SUITS:
            suit = ch
        elif ch in RANKS:
            if suit is None:
                raise ValueError(f"rank {ch!r} before any suit letter")
            cards.append(suit + ch)
        elif not ch.isspace():
            raise ValueError(f"{ch!r} is neither a suit (S H D C) nor a rank")
    return cards


def _deal(value: str) -> tuple[str, dict[str, list[str]]]:
    m = re.fullmatch(r"\s*([1-4])(.*)", value, re.S)
    if m is None:
        raise ValueError("must start with the dealer: 1 South, 2 West, 3 North, 4 East")
    parts = m.group(2).split(",")
    if len(parts) == 5 and not parts[4].strip():
        parts = parts[:4]
    if len(parts) not in (3, 4):
        raise ValueError(f"must give 3 or 4 hands separated by ',', found {len(parts)}")
    parts += [""] * (4 - len(parts))
    hands: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for seat, part in zip(HAND_ORDER, parts):
        if not part.strip():
            continue
        try:
            cards = _hand(part)
        except ValueError as exc:
            raise ValueError(f"{SEAT_NAMES[seat]}'s hand {part!r}: {exc}") from None
        for card in cards:
            if card in seen:
                raise ValueError(f"{card} is in both {SEAT_NAMES[seen[card]]}'s and "
                                 f"{SEAT_NAMES[seat]}'s hands")
            seen[card] = seat
        if len(cards) != 13:
            raise ValueError(f"{SEAT_NAMES[seat]} holds {len(cards)} cards, not 13")
        hands[seat] = cards
    missing = [s for s in HAND_ORDER if s not in hands]
    if len(missing) > 1:
        raise ValueError(f"{len(missing)} hands are empty; at most one can be completed")
    if missing:
        hands[missing[0]] = [s + r for s in SUITS for r in RANKS if s + r not in seen]
    order = {s + r: i for i, (s, r) in enumerate((s, r) for s in SUITS for r in RANKS)}
    return DEALERS[m.group(1)], {seat: sorted(hands[seat], key=order.__getitem__)
                                 for seat in ("N", "E", "S", "W")}


_CALL = re.compile(r"(?i)\s*(p|pass|d|x|dbl|r|xx|rdbl|[1-7](?:n|nt|c|d|h|s))\s*(!?)\s*")
_CALL_WORDS = {"P": "Pass", "PASS": "Pass", "D": "X", "X": "X", "DBL": "X", "R": "XX",
               "XX": "XX", "RDBL": "XX"}


def _call(value: str) -> tuple[str, bool]:
    m = _CALL.fullmatch(value)
    if m is None:
        raise ValueError("not a call (p, d, r, or a bid 1C ... 7N, '!' for an alert)")
    word = m.group(1).upper()
    return _CALL_WORDS.get(word) or str(Call.parse(word)), bool(m.group(2))


def _card(value: str) -> str:
    t = value.strip().upper().replace("10", "T")
    if len(t) == 2 and t[0] in SUITS and t[1] in RANKS:
        return t
    raise ValueError("not a card (suit S H D C then rank, e.g. C9, HA)")


def _names(value: str) -> list[str]:
    return [n.strip() for n in value.split(",")]


@attrs.define
class _Reading:
    """What a record's tags have said so far (each tag's reader in :data:`_TAG_READERS`
    fills its part)."""

    board: int | None = None
    room: str | None = None
    dealer: str | None = None
    hands: dict[str, list[str]] | None = None
    vulnerability: str | None = None
    names: list[str] = attrs.field(factory=list)
    calls: list[LinCall] = attrs.field(factory=list)
    cards: list[tuple[str, str]] = attrs.field(factory=list)
    claim: int | None = None


class _Refused(Exception):
    """A tag's value cannot be read: the reason (``_build`` names the record, line, tag and value)."""


def _read_qx(reading: _Reading, value: str) -> None:
    m = re.fullmatch(r"\s*([oOcC])(\d+)\b.*", value)
    if m is None:
        raise _Refused("must read like o12 (open room) or c12 (closed room)")
    reading.room, reading.board = ROOMS[m.group(1).lower()], int(m.group(2))


def _read_ah(reading: _Reading, value: str) -> None:
    m = re.fullmatch(r"\s*Board\s+(\d+)\s*", value, re.I)
    if m is not None and reading.board is None:
        reading.board = int(m.group(1))


def _read_md(reading: _Reading, value: str) -> None:
    if reading.hands is not None:
        raise _Refused("a second deal in the same record")
    try:
        reading.dealer, reading.hands = _deal(value)
    except ValueError as exc:
        raise _Refused(str(exc)) from None


def _read_sv(reading: _Reading, value: str) -> None:
    key = value.strip().lower()
    if key not in VULNERABILITY:
        raise _Refused("must be o (none), n (NS), e (EW) or b (both)")
    reading.vulnerability = VULNERABILITY[key]


def _read_pn(reading: _Reading, value: str) -> None:
    reading.names = _names(value)


def _read_mb(reading: _Reading, value: str) -> None:
    if reading.dealer is None:
        raise _Refused("a call before the deal (md)")
    try:
        call, alerted = _call(value)
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    reading.calls.append(LinCall(next_seat(reading.dealer, len(reading.calls)), call, alerted))


def _read_an(reading: _Reading, value: str) -> None:
    if not reading.calls:
        raise _Refused("an explanation before any call")
    reading.calls[-1] = attrs.evolve(reading.calls[-1], explanation=value.strip())


def _read_pc(reading: _Reading, value: str) -> None:
    if reading.hands is None:
        raise _Refused("a card before the deal (md)")
    try:
        card = _card(value)
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    if any(c == card for _, c in reading.cards):
        raise _Refused(f"{card} is played twice")
    owner = next(seat for seat, held in reading.hands.items() if card in held)
    reading.cards.append((owner, card))


def _read_mc(reading: _Reading, value: str) -> None:
    if not value.strip().isdigit() or int(value) > 13:
        raise _Refused("a claim is the declarer's tricks in all, 0 to 13")
    reading.claim = int(value)


#: The reader of each tag a record holds; every other tag is display information, skipped.
_TAG_READERS = {"qx": _read_qx, "ah": _read_ah, "md": _read_md, "sv": _read_sv, "pn": _read_pn,
                "mb": _read_mb, "an": _read_an, "pc": _read_pc, "mc": _read_mc}


def _read_tags(number: int, raw: _Raw) -> tuple[_Reading, dict[str, int]]:
    """Each pair of the record through its tag's reader; the reading and each tag's first line."""
    reading = _Reading()
    tag_lines: dict[str, int] = {}
    for tag, value, line in raw.pairs:
        tag_lines.setdefault(tag, line)
        if tag == BAD:
            raise LinError(value, record=number, line=line)
        reader = _TAG_READERS.get(tag)
        if reader is None:
            continue
        try:
            reader(reading, value)
        except _Refused as exc:
            raise LinError(f"{tag}: {exc}", record=number, line=line, field=tag,
                           value=value) from None
    return reading, tag_lines


def _names_by_seat(names: list[str], header: dict[str, tuple[str, int]],
                   room: str | None) -> dict[str, str]:
    """The players' names by seat: the record's ``pn``, else the header's (8 names: the
    open room's four then the closed room's)."""
    pn = header.get("pn", ("", 0))[0] if not names else None
    if pn:
        names = _names(pn)
    if len(names) == 8:
        names = names[:4] if room != "closed" else names[4:]
    if len(names) == 4:
        return {seat: n for seat, n in zip(HAND_ORDER, names) if n}
    return {}


def _room_result(header: dict[str, tuple[str, int]], room: str | None, board: int,
                 first_board: int | None) -> str | None:
    """This table's entry of the ``rs`` header (open, closed of each board from the first)."""
    if "rs" not in header or room is None or first_board is None:
        return None
    entries = header["rs"][0].split(",")
    index = (board - first_board) * 2 + (0 if room == "open" else 1)
    if 0 <= index < len(entries) and entries[index].strip():
        return entries[index].strip()
    return None


def _build(number: int, raw: _Raw, header: dict[str, tuple[str, int]]) -> LinRecord:
    first_line = raw.pairs[0][2]
    reading, tag_lines = _read_tags(number, raw)
    if reading.hands is None or reading.dealer is None:
        raise LinError("the record has no deal (md)", record=number, line=first_line, field="md")
    if reading.vulnerability is None:
        raise LinError("the record has no vulnerability (sv)", record=number, line=first_line,
                       field="sv")
    event, scoring, first_board, match = _vugraph(header)
    board = number if reading.board is None else reading.board
    room = reading.room
    return LinRecord(number=number, line=first_line, board=board, dealer=reading.dealer,
                     vulnerability=reading.vulnerability, hands=reading.hands,
                     calls=reading.calls, cards=reading.cards, claim=reading.claim, room=room,
                     names=_names_by_seat(reading.names, header, room), event=event,
                     scoring=scoring, match=match,
                     result=_room_result(header, room, board, first_board), tag_lines=tag_lines)


def _vugraph(header: dict[str, tuple[str, int]]) -> tuple[str | None, str | None, int | None,
                                                          str | None]:
    """(event, scoring, first board, match) from the ``vg`` header."""
    if "vg" not in header:
        return None, None, None, None
    fields = [f.strip() for f in header["vg"][0].split(",")]
    fields += [""] * (9 - len(fields))
    event = ", ".join(f for f in fields[:2] if f) or None
    first = int(fields[3]) if fields[3].isdigit() else None
    teams = [t for t in (fields[5], fields[7]) if t]
    match = " v ".join(teams) if len(teams) == 2 else None
    return event, SCORING.get(fields[2].upper()), first, match


@overload
def read_lin(text: str, *, collect_errors: Literal[False] = False) -> list[LinRecord]: ...
@overload
def read_lin(text: str, *,
             collect_errors: Literal[True]) -> tuple[list[LinRecord], list[LinError]]: ...


def read_lin(text: str, *, collect_errors: bool = False
             ) -> list[LinRecord] | tuple[list[LinRecord], list[LinError]]:
    """Read the records of a LIN file (see the module's docstring).

    Raises :class:`LinError` at the first record that cannot be read; with
    ``collect_errors=True`` returns ``(records, errors)``.
    """
    header, raws = _split(_pairs(text))
    records: list[LinRecord] = []
    errors: list[LinError] = []
    for number, raw in enumerate(raws, start=1):
        try:
            record = _build(number, raw, header)
            record_to_facts(record, "check")  # claims and card order are checked here
        except LinError as exc:
            if not collect_errors:
                raise
            errors.append(exc)
        else:
            records.append(record)
    if collect_errors:
        return records, errors
    return records


# ---------------------------------------------------------------------------
# Contract, tricks, result

def _contract(calls: list[tuple[str, str]]) -> tuple[int, str, str, str] | None | Literal["Pass"]:
    """(level, strain, risk, declarer) once the auction is over, ``"Pass"`` when passed out."""
    parsed = [(seat, Call.parse(call)) for seat, call in calls]
    if len(parsed) < 4 or not all(c.is_pass for _, c in parsed[-3:]):
        return None
    bids = [(i, seat, c) for i, (seat, c) in enumerate(parsed) if c.is_bid]
    if not bids:
        return "Pass" if len(parsed) == 4 else None
    index, seat, bid = bids[-1]
    risk = ""
    for _, c in parsed[index + 1:]:
        risk = {"double": "X", "redouble": "XX"}.get(c.kind, risk)
    side = side_of(seat)
    declarer = next(s for s, c in parsed if c.is_bid and c.strain is bid.strain and side_of(s) == side)
    assert bid.level is not None, "_contract: a bid has a level"
    return bid.level, str(bid.strain), risk, declarer


def record_tricks(record: LinRecord) -> list[list[tuple[str, str]]]:
    """The cards in tricks of four, in the order played."""
    return [record.cards[i:i + 4] for i in range(0, len(record.cards), 4)]


_RESULT = re.compile(r"(?i)\s*([1-7])([CDHSN])([NESW])(X{0,2})(=|[+-]\d+)\s*")


def lin_result(entry: str) -> dict[str, Any] | None:
    """An ``rs`` entry (``4HE=``, ``4SWx-4``, ``3NN+3``, ``P``) as a result:
    ``{"contract", "declarer", "risk", "tricks"}``; None if it does not read."""
    if entry.strip().upper() in ("P", "PASS", "PO"):
        return {"contract": "Pass", "declarer": None, "risk": "", "tricks": None}
    m = _RESULT.fullmatch(entry)
    if m is None:
        return None
    level = int(m.group(1))
    strain = "NT" if m.group(2).upper() == "N" else m.group(2).upper()
    over = 0 if m.group(5) == "=" else int(m.group(5))
    return {"contract": f"{level}{strain}", "declarer": m.group(3).upper(),
            "risk": m.group(4).upper(), "tricks": level + 6 + over}


# ---------------------------------------------------------------------------
# Facts

def record_to_facts(record: LinRecord, tournament: str) -> list[dict[str, Any]]:
    """The record as ledger facts (LEDGER-SPEC 3, JSON Lines form).

    ``BoardOpened`` (``table`` is the room for a vugraph record, else the
    record number; ``ns``/``ew`` the players' names from ``pn``; ``match``
    the two teams of ``vg``), one ``CallPlaced`` per ``mb`` (an alerted call
    or one with an ``an`` is followed by ``ExplanationGiven`` by the caller
    himself: on BBO the caller explains his own call), one ``CardPlayed`` per
    ``pc``, and for ``mc`` the declarer's claim of the remaining tricks it
    implies, agreed by his LHO (as for PBN, :func:`~ledger.records.formats.pbn.claim_facts`).
    """
    opened: dict[str, Any] = {
        "type": "BoardOpened", "tournament": tournament, "board": record.board,
        "table": record.room or str(record.number), "dealer": record.dealer,
        "vulnerability": record.vulnerability, "deal": deal_string(record.hands),
    }
    names = record.names
    optional = {
        "ns": " & ".join(n for n in (names.get("N"), names.get("S")) if n) or None,
        "ew": " & ".join(n for n in (names.get("E"), names.get("W")) if n) or None,
        "scoring": record.scoring, "match": record.match, "room": record.room,
    }
    opened.update({k: v for k, v in optional.items() if v is not None})
    facts = [opened]
    for index, call in enumerate(record.calls, start=1):
        facts.append({"type": "CallPlaced", "seat": call.seat, "call": call.call})
        if call.explanation or call.alerted:
            facts.append({"type": "ExplanationGiven", "by": call.seat, "call_index": index,
                          "text": call.explanation or ALERT_WITHOUT_TEXT})
    tricks = record_tricks(record)
    contract = record.contract
    if tricks and not isinstance(contract, tuple):
        raise record.error("cards are played but the auction has not ended in a contract",
                           "pc", tricks[0][0][1])
    for seat, card in record.cards:
        facts.append({"type": "CardPlayed", "seat": seat, "card": card})
    if isinstance(contract, tuple) and len(record.cards) > 0:
        _check_turns(record, tricks, contract)
    complete = len(record.cards) == 52
    if record.claim is not None and isinstance(contract, tuple) and not complete:
        level, strain, _, declarer = contract
        try:
            facts.extend(claim_facts(declarer, tricks, None if strain == "NT" else strain,
                                     record.claim))
        except ValueError as exc:
            raise record.error(f"mc: {exc}", "mc", record.claim) from None
    return facts


def _check_turns(record: LinRecord, tricks: list[list[tuple[str, str]]],
                 contract: tuple[int, str, str, str]) -> None:
    """Each card is played by the seat on turn (LIN has no irregularity marks)."""
    trump = None if contract[1] == "NT" else contract[1]
    leader = next_seat(contract[3])
    for number, trick in enumerate(tricks, start=1):
        for position, (seat, card) in enumerate(trick):
            due = next_seat(leader, position)
            if seat != due:
                raise record.error(f"trick {number}: {card} is {SEAT_NAMES[seat]}'s, but "
                                   f"{SEAT_NAMES[due]} is to play", "pc", card)
        if len(trick) == 4:
            leader = trick_winner_seat(trick, trump)

