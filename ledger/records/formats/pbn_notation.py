"""PBN 2.1, the notation: what a record's tags and sections say.

Seats, cards and the deal; the calls of the Auction section with their notes
and irregularity marks; the Contract, Declarer, Result and Score tags; the
Play section as tricks in the order played.  Each function reads one
:class:`~ledger.records.formats.pbn_scan.PbnRecord` and raises
:class:`~ledger.records.formats.pbn_scan.PbnError` naming the tag and value at fault.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import attrs

from ledger import bridge
from ledger.bridge import Card, Suit, trick_winner
from ledger.records.formats.pbn_scan import PbnError, PbnRecord

SEATS = bridge.SEAT_LETTERS
SUITS = bridge.SUIT_LETTERS
RANKS = bridge.RANKS_HIGH_FIRST
SEAT_NAMES = bridge.SEAT_NAMES
STRAINS = ("C", "D", "H", "S", "NT")

#: Position of each card in a sorted hand: S, H, D, C, each from the ace down.
_CARD_ORDER = {card: i for i, card in enumerate(s + r for s in SUITS for r in RANKS)}

SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

#: PBN ``Vulnerable`` values -> the spec's canonical vulnerability.
VULNERABILITY = {
    "NONE": "None", "LOVE": "None", "-": "None",
    "NS": "NS", "EW": "EW",
    "ALL": "All", "BOTH": "All",
}

#: PBN ``Scoring`` base values -> the spec's ``scoring`` (pairs "MP", teams "IMP").
SCORING = {
    "MP": "MP", "MATCHPOINTS": "MP", "BAM": "MP",
    "IMP": "IMP", "IMPS": "IMP", "BUTLER": "IMP",
}

#: PBN ``Room`` values -> the spec's ``room``.
ROOMS = {"OPEN": "open", "CLOSED": "closed"}


@attrs.frozen
class PbnCall:
    """One call of the Auction section, with what PBN attaches to it."""

    seat: str
    call: str
    notes: tuple[int, ...] = ()
    irregularity: str | None = None
    annotations: tuple[str, ...] = ()



def next_seat(seat: str, steps: int = 1) -> str:
    """The seat ``steps`` places clockwise after ``seat`` (``N`` -> ``E``)."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def partner_of(seat: str) -> str:
    """The seat across the table."""
    return next_seat(seat, 2)


def side_of(seat: str) -> str:
    """``NS`` or ``EW``."""
    return "NS" if seat in ("N", "S") else "EW"


def parse_card(token: str) -> str | None:
    """``SA``, ``s10``, ``♠A`` -> canonical ``SA``; ``None`` if not a card."""
    t = token.strip()
    if t[:1] in SUIT_SYMBOLS:
        t = SUIT_SYMBOLS[t[0]] + t[1:]
    t = t.upper().replace("10", "T")
    if len(t) == 2 and t[0] in SUITS and t[1] in RANKS:
        return t
    return None


def seat_tag(record: PbnRecord, tag: str) -> str | None:
    """A tag holding a seat (Dealer, Declarer, Auction, Play): the seat, or None if empty."""
    value = record.tags.get(tag, "").strip().upper().lstrip("^")
    if value in ("", "?"):
        return None
    if value not in SEATS:
        raise record.error(f"{tag} must be one of N, E, S, W, got {record.tags[tag]!r}",
                           tag, record.tags[tag])
    return value


def record_vulnerability(record: PbnRecord) -> str | None:
    """The Vulnerable tag, canonical (``None``, ``NS``, ``EW``, ``All``); None when empty."""
    value = record.tags.get("Vulnerable")
    if value is None or value.strip() in ("", "?"):
        return None
    canonical = VULNERABILITY.get(value.strip().upper())
    if canonical is None:
        raise record.error(f"Vulnerable must be None, NS, EW, All (or Love, -, Both), "
                           f"got {value!r}", "Vulnerable", value)
    return canonical


def deal_hands(record: PbnRecord) -> dict[str, list[str]] | None:
    """The ``Deal`` tag as each seat's 13 cards (canonical, sorted S H D C, high to low).

    ``None`` when the record has no deal.  A single unknown hand (``-``) is
    completed with the 13 cards the other three do not hold.
    """
    text = record.tags.get("Deal", "").strip()
    if text in ("", "?"):
        return None
    known = _DEALS.get(text)
    if known is not None:
        return {seat: list(cards) for seat, cards in known.items()}
    hands = _read_deal(record, text)
    if len(_DEALS) >= _DEALS_KEPT:
        _DEALS.clear()
    _DEALS[text] = {seat: tuple(cards) for seat, cards in hands.items()}
    return hands


#: Deals already read (a file gives each board's deal at every table): Deal text -> hands.
_DEALS: dict[str, dict[str, tuple[str, ...]]] = {}
_DEALS_KEPT = 4096


def _read_deal(record: PbnRecord, text: str) -> dict[str, list[str]]:
    def bad(reason: str) -> PbnError:
        return record.error(f"Deal: {reason}", "Deal", text)

    m = re.fullmatch(r"([NESWnesw])\s*:\s*(.*)", text)
    if m is None:
        raise bad("must start with the first seat and a colon, e.g. 'N:'")
    parts = m.group(2).split()
    if len(parts) != 4:
        raise bad(f"must give 4 hands, found {len(parts)}")
    first = m.group(1).upper()
    hands: dict[str, list[str] | None] = {}
    seen: dict[str, str] = {}
    for i, part in enumerate(parts):
        seat = next_seat(first, i)
        if part == "-":
            hands[seat] = None
            continue
        suits = part.split(".")
        if len(suits) != 4:
            raise bad(f"{SEAT_NAMES[seat]}'s hand {part!r} must have 4 suits separated by '.'")
        cards = []
        for suit, holding in zip(SUITS, suits):
            for rank in holding.upper().replace("10", "T"):
                card = suit + rank
                if rank not in RANKS:
                    raise bad(f"{SEAT_NAMES[seat]}'s hand {part!r}: {rank!r} is not a rank")
                if card in seen:
                    raise bad(f"{card} is in both {SEAT_NAMES[seen[card]]}'s and "
                              f"{SEAT_NAMES[seat]}'s hands")
                seen[card] = seat
                cards.append(card)
        if len(cards) != 13:
            raise bad(f"{SEAT_NAMES[seat]} holds {len(cards)} cards, not 13")
        hands[seat] = cards
    unknown = [seat for seat, cards in hands.items() if cards is None]
    if len(unknown) > 1:
        raise bad(f"{len(unknown)} hands are unknown ('-'); at most one can be completed")
    if unknown:
        hands[unknown[0]] = [s + r for s in SUITS for r in RANKS if s + r not in seen]
    return {seat: sorted(hands[seat] or [], key=_CARD_ORDER.__getitem__) for seat in SEATS}


def deal_string(hands: dict[str, list[str]]) -> str:
    """The hands as a PBN Deal tag from North (``N:AKQ.... ...``)."""
    def hand(cards: list[str]) -> str:
        return ".".join("".join(c[1] for c in cards if c[0] == suit) for suit in SUITS)
    return "N:" + " ".join(hand(hands[seat]) for seat in SEATS)


# ---------------------------------------------------------------------------
# Auction

_CALL = re.compile(r"(?i)(pass|p|xx|x|([1-7])(nt|n|c|d|h|s))([!?]{1,2})?")
_NOTE_REF = re.compile(r"=(\d+)=")
_NAG = re.compile(r"\$(\d+)")
_IRREGULARITY = re.compile(r"\^([A-Za-z])")

#: PBN 2.1 irregularity marks (``^x`` after a call or a card) that the import logs.
INSUFFICIENT = "I"   # after a bid: an insufficient bid, accepted by LHO calling (27A1)
SKIPPED = "S"        # "- ^S" (or a call marked ^S): a seat's turn skipped by a call
                     # out of rotation that was accepted (29A); no call of its own
REVOKE = "R"         # after a card: a revoke, not noticed (no rectification)
LEAD_OUT_OF_TURN = "L"  # after a card: a lead out of turn, accepted (53A, 54A)
NOT_COUNTED = "O"     # after a card (ours, on a row of its own): a card the table logged that
                     # did not count as played (a lead out of turn not accepted, 54D, 56):
                     # logged as played at that point, in no trick
_SUFFIX = re.compile(r"[!?]{1,2}")


def _canonical_call(m: re.Match[str]) -> str:
    word = m.group(1).upper()
    if word in ("PASS", "P"):
        return "Pass"
    if word in ("X", "XX"):
        return word
    strain = m.group(3).upper()
    return m.group(2) + ("NT" if strain == "N" else strain)


def _closing_passes(calls: list[PbnCall]) -> int:
    """Passes that ``AP`` stands for: those that end the auction from here."""
    if all(c.call == "Pass" for c in calls):
        return max(4 - len(calls), 0)
    trailing = 0
    for c in reversed(calls):
        if c.call != "Pass":
            break
        trailing += 1
    return max(3 - trailing, 0)


def auction(record: PbnRecord, shift: int = 0) -> list[PbnCall]:
    """The Auction section as calls in order, each with its seat, notes and marks.

    ``shift``: read the calls as starting ``shift`` seats after the Auction
    tag's seat (see :func:`auction_shift`).
    """
    key = ("auction", shift)
    if key not in record.readings:
        record.readings[key] = _auction(record, shift)
    return list(record.readings[key])


def _auction(record: PbnRecord, shift: int) -> list[PbnCall]:
    if "Auction" not in record.tags:
        return []
    first = seat_tag(record, "Auction")
    if first is not None and shift:
        first = next_seat(first, shift)
    tokens = record.sections.get("Auction", [])
    if first is None:
        if tokens:
            raise record.error("the Auction tag names no seat", "Auction", "")
        return []
    reading = _AuctionReading(record, first)
    for i, token in enumerate(tokens):
        if not _read_auction_mark(reading, tokens, i, token):
            _read_auction_call(reading, token)
    return reading.calls


@attrs.define
class _AuctionReading:
    """The calls of an Auction section read so far, from its first seat."""

    record: PbnRecord
    first: str
    calls: list[PbnCall] = attrs.field(factory=list)
    ended: bool = False
    """A ``-``, ``*`` or ``AP`` has ended the calls."""

    def bad(self, reason: str, token: str) -> PbnError:
        return self.record.error(f"Auction: {reason}", "Auction", token)

    def call(self, call: str, annotations: tuple[str, ...] = ()) -> None:
        """The next seat's call."""
        self.calls.append(PbnCall(next_seat(self.first, len(self.calls)), call,
                                  annotations=annotations))

    def attach(self, token: str, **changes: Any) -> None:
        """A note, mark or annotation on the last call (a tuple adds to the call's own)."""
        if not self.calls:
            raise self.bad(f"{token!r} before the first call", token)
        last = self.calls[-1]
        self.calls[-1] = attrs.evolve(last, **{
            k: (getattr(last, k) + v if isinstance(v, tuple) else v) for k, v in changes.items()})


def _skipped_turn(reading: _AuctionReading, tokens: list[str], i: int) -> bool:
    """``- ^S`` while the calls go on: the turn of this seat was skipped (see SKIPPED)."""
    return tokens[i] == "-" and not reading.ended and i + 1 < len(tokens) \
        and tokens[i + 1].upper() == "^" + SKIPPED


def _read_auction_mark(reading: _AuctionReading, tokens: list[str], i: int, token: str) -> bool:
    """A token that is no call of its own (a note reference, an irregularity mark, an
    annotation, a skipped turn, ``+``): read; False for any other token."""
    if (m := _NOTE_REF.fullmatch(token)) is not None:
        reading.attach(token, notes=(int(m.group(1)),))
    elif _skipped_turn(reading, tokens, i):
        reading.call("-")  # the ^S mark that follows attaches to it
    elif (m := _IRREGULARITY.fullmatch(token)) is not None:
        reading.attach(token, irregularity=m.group(1).upper())
    elif _NAG.fullmatch(token) or _SUFFIX.fullmatch(token):
        reading.attach(token, annotations=(token,))
    else:
        return token == "+"
    return True


def _read_auction_call(reading: _AuctionReading, token: str) -> None:
    """A call, ``AP`` (the passes that end the auction) or an end of the calls."""
    if token in ("-", "*"):
        reading.ended = True
    elif reading.ended:
        raise reading.bad(f"{token!r} after the end of the calls", token)
    elif token.upper() == "AP":
        for _ in range(_closing_passes(reading.calls)):
            reading.call("Pass")
        reading.ended = True
    elif (m := _CALL.fullmatch(token)) is not None:
        reading.call(_canonical_call(m), (m.group(4),) if m.group(4) else ())
    else:
        raise reading.bad(f"{token!r} is not a call", token)


def contract_of_calls(calls: list[tuple[str, str]]) -> tuple[int, str, str, str] | None | Literal["Pass"]:
    """``(level, strain, risk, declarer)`` once the calls end the auction (three
    passes after a bid), ``"Pass"`` for four passes, None while it is not over.
    ``calls`` are ``(seat, call)`` with calls as ``Pass``, ``X``, ``XX``, ``4S``."""
    if len(calls) < 4 or any(c != "Pass" for _, c in calls[-3:]):
        return None
    bids = [(i, seat, c) for i, (seat, c) in enumerate(calls) if c not in ("Pass", "X", "XX")]
    if not bids:
        return "Pass" if len(calls) == 4 else None
    index, seat, bid = bids[-1]
    risk = ""
    for _, c in calls[index + 1:]:
        risk = {"X": "X", "XX": "XX"}.get(c, risk)
    strain = bid[1:]
    declarer = next(s for s, c in calls if c[1:] == strain and c[:1].isdigit()
                    and side_of(s) == side_of(seat))
    return int(bid[0]), strain, risk, declarer


def auction_contract(record: PbnRecord, shift: int = 0
                     ) -> tuple[int, str, str, str] | None | Literal["Pass"]:
    """The contract and declarer the record's calls give (:func:`contract_of_calls`),
    the calls read from ``shift`` seats after the Auction tag's seat with the
    passes of the seats from the dealer to there before them."""
    calls = [(c.seat, c.call) for c in auction(record, shift) if c.irregularity != SKIPPED]
    if shift:
        calls = leading_passes(record, shift) + calls
    return contract_of_calls(calls)


def leading_passes(record: PbnRecord, shift: int) -> list[tuple[str, str]]:
    """The passes that a reading of the calls ``shift`` seats later puts before them:
    one for each seat from the dealer up to the first caller of that reading."""
    dealer = seat_tag(record, "Dealer")
    first = seat_tag(record, "Auction")
    if dealer is None or first is None:
        return []
    start = next_seat(first, shift)
    count = (SEATS.index(start) - SEATS.index(dealer)) % 4
    return [(next_seat(dealer, i), "Pass") for i in range(count)]


def auction_shift(record: PbnRecord) -> int | None:
    """How the calls must be read to agree with the record's own Contract and Declarer tags.

    0 when they agree as written (or when the record states no contract and
    declarer to compare with, or has no calls); ``k`` (1 to 3) when they agree
    only if read ``k`` seats later, the seats before the first caller passing
    (some archives write the calls from the first bid while the Auction tag
    names the dealer); None when no reading agrees.
    """
    stated = record_contract(record)
    declarer = seat_tag(record, "Declarer")
    if not isinstance(stated, tuple) or declarer is None or not auction(record):
        return 0
    if record.tags.get("Declarer", "").strip().startswith("^"):
        declarer = partner_of(declarer)  # "^S": the auction's declarer is South's partner (54A)
    if auction_contract(record) is None:
        return 0  # the calls do not end the auction: nothing to compare them with
    for shift in range(4):
        got = auction_contract(record, shift)
        if isinstance(got, tuple) and got[:2] == stated[:2] and got[3] == declarer:
            return shift
    return None


def effective_contract(record: PbnRecord) -> tuple[int, str, str] | None | Literal["Pass"]:
    """The Contract tag, else the contract the complete auction gives (BBO leaves
    Contract out on an unfinished board)."""
    contract = record_contract(record)
    if contract is not None:
        return contract
    got = auction_contract(record)
    if isinstance(got, tuple):
        level, strain, risk, _declarer = got
        return level, strain, risk
    return got


def effective_declarer(record: PbnRecord) -> str | None:
    """The Declarer tag, else the declarer the complete auction gives."""
    declarer = seat_tag(record, "Declarer")
    if declarer is not None or "Contract" in record.tags and record_contract(record) is not None:
        return declarer
    got = auction_contract(record)
    return got[3] if isinstance(got, tuple) else None


def auction_calls(record: PbnRecord) -> list[tuple[str, str | None]]:
    """The calls as ``(call, note_ref)``, starting with the seat of the Auction tag.

    ``note_ref`` is the number of the first ``=n=`` note attached to the call
    (as a string, e.g. ``"1"``; see :func:`notes`), or ``None``.
    """
    return [(c.call, str(c.notes[0]) if c.notes else None) for c in auction(record)]


def auction_irregularities(record: PbnRecord) -> dict[int, str]:
    """Irregularity marks of the auction: 0-based index in the calls -> the letter of
    ``^x`` (``"I"`` insufficient bid, ``"S"``...)."""
    return {i: c.irregularity for i, c in enumerate(auction(record)) if c.irregularity}


def notes(record: PbnRecord, section: str = "Auction") -> dict[int, str]:
    """The ``[Note "n:text"]`` tags that follow ``section`` (Auction or Play): n -> text."""
    return {n.number: n.text for n in record.notes if n.section == section}


# ---------------------------------------------------------------------------
# Contract, result

_CONTRACT = re.compile(r"(?i)([1-7])(nt|n|c|d|h|s)(x{0,2}|r)")
_SCORE_PART = re.compile(r"(NS|EW)\s+([+-]?\d+)")


def record_contract(record: PbnRecord) -> tuple[int, str, str] | None | Literal["Pass"]:
    """``(level, strain, risk)``, ``"Pass"``, or None when the record has no contract."""
    value = record.tags.get("Contract", "").strip()
    if value in ("", "?"):
        return None
    if value.upper() in ("PASS", "P"):
        return "Pass"
    m = _CONTRACT.fullmatch(value)
    if m is None:
        raise record.error(f"Contract must read like 4S, 3NTX or Pass, got {value!r}",
                           "Contract", value)
    strain = m.group(2).upper()
    risk = m.group(3).upper()
    return int(m.group(1)), "NT" if strain == "N" else strain, "XX" if risk == "R" else risk


def contract_redoubled_r(record: PbnRecord) -> bool:
    """The Contract tag writes a redouble ``R`` (``3NR``, an archive's usage; PBN writes
    ``XX``): read as XX, with a note."""
    m = _CONTRACT.fullmatch(record.tags.get("Contract", "").strip())
    return m is not None and m.group(3).upper() == "R"


def play_continues(record: PbnRecord) -> bool:
    """The Play section holds ``+``: the play goes on beyond what the record writes."""
    return "+" in record.sections.get("Play", [])


def _tricks(record: PbnRecord, declarer: str | None) -> int | None:
    value = record.tags.get("Result", "").strip().lstrip("^")  # "^9": see result_marked
    if value in ("", "?"):
        return None
    if value.isdigit() and int(value) <= 13:
        return int(value)
    m = _SCORE_PART.fullmatch(value)
    if m is not None and declarer is not None and 0 <= int(m.group(2)) <= 13:
        n = int(m.group(2))
        return n if m.group(1) == side_of(declarer) else 13 - n
    raise record.error(f"Result must be the declarer's tricks (0 to 13), got {value!r}",
                       "Result", value)


def _score_ns(record: PbnRecord, declarer: str | None) -> int | None:
    value = record.tags.get("Score", "").strip()
    if value in ("", "?"):
        return None
    if re.fullmatch(r"[+-]?\d+", value):  # a sign is allowed: "+550", "NS +550"
        if declarer is None:
            raise record.error("a Score without NS/EW needs a declarer", "Score", value)
        return int(value) if side_of(declarer) == "NS" else -int(value)
    parts = _SCORE_PART.findall(value)
    if not parts or " ".join(f"{s} {n}" for s, n in parts) != " ".join(value.split()):
        raise record.error(f'Score must read like "NS 420" or "EW 100", got {value!r}',
                           "Score", value)
    by_side = {side: int(n) for side, n in parts}
    return by_side["NS"] if "NS" in by_side else -by_side["EW"]


_IMP_PART = re.compile(r"(NS|EW)\s+([+-]?\d+(?:[.,]\d+)?)")


def score_imp_ns(record: PbnRecord) -> float | None:
    """The record's ``ScoreIMP`` from North-South's side (``"NS 4 EW -4"``, ``"EW 3"``
    gives -3, ``"2.5"`` is the declarer's side); None without one.  Raises
    :class:`PbnError` naming the tag when it cannot be read."""
    value = record.tags.get("ScoreIMP", "").strip()
    if value in ("", "?", "-"):
        return None
    if re.fullmatch(r"[+-]?\d+(?:[.,]\d+)?", value):
        declarer = seat_tag(record, "Declarer")
        if declarer is None:
            raise record.error("a ScoreIMP without NS/EW needs a declarer", "ScoreIMP", value)
        number = float(value.replace(",", "."))
        return number if side_of(declarer) == "NS" else -number
    parts = _IMP_PART.findall(value)
    if not parts or " ".join(f"{s} {n}" for s, n in parts) != " ".join(value.split()):
        raise record.error(f'ScoreIMP must read like "NS 4 EW -4" or "EW 3", got {value!r}',
                           "ScoreIMP", value)
    by_side = {side: float(n.replace(",", ".")) for side, n in parts}
    return by_side["NS"] if "NS" in by_side else -by_side["EW"]


def record_result(record: PbnRecord) -> dict[str, Any] | None:
    """The result the record states, from its Contract, Declarer, Result and Score tags.

    ``{"contract": "4S" | "Pass", "risk": "" | "X" | "XX", "declarer": "S" | None,
    "tricks": int | None, "score_ns": int | None}``; ``None`` if there is no
    Contract.  ``score_ns`` is from North-South's side (``Score "EW 100"`` gives
    -100); ``None`` when the record has no Score.
    """
    contract = record_contract(record)
    if contract is None:
        return None
    declarer = seat_tag(record, "Declarer")
    score_ns = _score_ns(record, declarer)
    if contract == "Pass":
        return {"contract": "Pass", "risk": "", "declarer": None, "tricks": None,
                "score_ns": score_ns}
    level, strain, risk = contract
    return {"contract": f"{level}{strain}", "risk": risk, "declarer": declarer,
            "tricks": _tricks(record, declarer), "score_ns": score_ns}


# ---------------------------------------------------------------------------
# Play

def trick_winner_seat(trick: list[tuple[str, str]], trump: str | None) -> str:
    """Seat winning a complete trick (Law 44, :func:`ledger.bridge.trick_winner`), in letters."""
    return trick_winner([(seat, Card.parse(card)) for seat, card in trick], Suit.parse(trump) if trump else None)


def _play_items(record: PbnRecord) -> tuple[list[str | None], dict[str, str], set[int]]:
    """The Play tokens as cards or None (``-``), up to ``*``; the cards' ``^x`` marks;
    and the positions in the items of the cards marked ``^O`` (:data:`NOT_COUNTED`)."""
    items: list[str | None] = []
    marks: dict[str, str] = {}
    not_counted: set[int] = set()

    def bad(reason: str, token: str) -> PbnError:
        return record.error(f"Play: {reason}", "Play", token)

    ended = False
    for token in record.sections.get("Play", []):
        if token == "*":
            ended = True
        elif _NOTE_REF.fullmatch(token) or _NAG.fullmatch(token) or _SUFFIX.fullmatch(token):
            continue
        elif (m := _IRREGULARITY.fullmatch(token)) is not None:
            last = items[-1] if items else None
            if last is None:
                raise bad(f"{token!r} does not follow a card", token)
            if m.group(1).upper() == NOT_COUNTED:
                not_counted.add(len(items) - 1)
            else:
                marks[last] = m.group(1).upper()
        elif token == "+":
            continue
        elif ended:
            raise bad(f"{token!r} after '*'", token)
        elif token == "-":
            items.append(None)
        else:
            card = parse_card(token.rstrip("!?"))
            if card is None:
                raise bad(f"{token!r} is not a card", token)
            items.append(card)
    return items, marks, not_counted


def play_tricks(record: PbnRecord) -> list[list[tuple[str, str]]]:
    """The Play section as tricks in the order played: ``[[(seat, card), ...], ...]``.

    PBN lists each trick's cards in the fixed column order of the seats from
    the ``Play`` tag's seat (the opening leader); the leader of each later
    trick is the winner of the one before (highest trump of the ``Contract``
    strain, else highest card of the suit led), except that a card marked
    ``^L`` (a lead out of turn, accepted) leads its trick.  The last trick may
    be incomplete (a claim).
    """
    return _play_rows(record)[0]


def _play_rows(record: PbnRecord) -> tuple[list[list[tuple[str, str]]],
                                           dict[int, list[tuple[str, str]]]]:
    """:func:`play_tricks`, and the cards not counted (``^O``) by the 0-based number of
    the trick they come before."""
    if "play" not in record.readings:
        record.readings["play"] = _read_play_rows(record)
    tricks, uncounted = record.readings["play"]
    return [list(t) for t in tricks], {k: list(v) for k, v in uncounted.items()}


def _read_play_rows(record: PbnRecord) -> tuple[list[list[tuple[str, str]]],
                                                dict[int, list[tuple[str, str]]]]:
    if "Play" not in record.tags:
        return [], {}
    opening_leader = seat_tag(record, "Play")
    items, marks, not_counted = _play_items(record)
    if not any(items):
        return [], {}
    if opening_leader is None:
        raise record.error("the Play tag names no seat", "Play", "")
    contract = effective_contract(record)
    if contract is None or contract == "Pass":
        raise record.error("a Play section needs a Contract (or a complete auction) to know "
                           "the trump suit",
                           "Contract", record.tags.get("Contract"))
    hands = deal_hands(record)
    reading = _PlayReading(
        record, trump=None if contract[1] == "NT" else contract[1], marks=marks,
        owner={card: seat for seat, cards in hands.items() for card in cards} if hands else None,
        columns=[next_seat(opening_leader, i) for i in range(4)], leader=opening_leader)
    rows = [items[i:i + 4] for i in range(0, len(items), 4)]
    rows[-1] = rows[-1] + [None] * (4 - len(rows[-1]))
    for index, row in enumerate(rows):
        marked = [k for k in range(4) if index * 4 + k in not_counted]
        if marked:
            _read_uncounted_row(reading, row, marked[0])
        else:
            _read_trick_row(reading, row)
    if len(reading.tricks) > 13:
        raise record.error(f"Play: {len(reading.tricks)} tricks, more than 13", "Play")
    return reading.tricks, reading.uncounted


@attrs.define
class _PlayReading:
    """The rows of a Play section read so far: the tricks, the cards not counted, the
    leader of the next trick."""

    record: PbnRecord
    trump: str | None
    marks: dict[str, str]
    """The cards' ``^x`` marks."""
    owner: dict[str, str] | None
    """Each card's holder, when the record has a deal."""
    columns: list[str]
    """The seat of each column: from the Play tag's seat (the opening leader)."""
    leader: str
    tricks: list[list[tuple[str, str]]] = attrs.field(factory=list)
    uncounted: dict[int, list[tuple[str, str]]] = attrs.field(factory=dict)
    played: set[str] = attrs.field(factory=set)
    number: int = 0
    """The number of the last trick row read."""

    def check_holder(self, seat: str, card: str, says: str) -> None:
        """The deal gives ``card`` to ``seat`` (``says``: the error's start)."""
        if self.owner is not None and self.owner[card] != seat:
            raise self.record.error(f"{says} {card}, which the deal gives to "
                                    f"{SEAT_NAMES[self.owner[card]]}", "Play", card)


def _read_uncounted_row(reading: _PlayReading, row: list[str | None], column: int) -> None:
    """A row holding a card marked ^O (not counted), before the trick of the next row."""
    if sum(card is not None for card in row) != 1:
        raise reading.record.error("Play: a card marked ^O (not counted) stands alone on its "
                                   "row", "Play", row[column])
    seat, card = reading.columns[column], row[column]
    assert card is not None
    reading.check_holder(seat, card, f"Play: {SEAT_NAMES[seat]} logs")
    reading.uncounted.setdefault(len(reading.tricks), []).append((seat, card))


def _read_trick_row(reading: _PlayReading, row: list[str | None]) -> None:
    """A row of a trick: its cards from the leader (a card marked ^L leads), each played
    once and by its holder; the winner of a whole trick leads the next."""
    reading.number += 1
    number = reading.number
    by_seat = dict(zip(reading.columns, row))
    out_of_turn = [seat for seat, card in by_seat.items()
                   if card is not None and reading.marks.get(card) == LEAD_OUT_OF_TURN]
    if len(out_of_turn) > 1:
        raise reading.record.error(f"Play: trick {number} has {len(out_of_turn)} cards marked "
                                   "^L (lead out of turn); a trick has one lead", "Play")
    if out_of_turn:
        reading.leader = out_of_turn[0]
    trick = [(seat, card) for seat, card in ((s, by_seat[s]) for s in
                                             (next_seat(reading.leader, k) for k in range(4)))
             if card is not None]
    if reading.tricks and len(reading.tricks[-1]) < 4 and trick:
        raise reading.record.error(f"Play: trick {number} follows an incomplete trick", "Play")
    for seat, card in trick:
        if card in reading.played:
            raise reading.record.error(f"Play: {card} is played twice", "Play", card)
        reading.played.add(card)
        reading.check_holder(seat, card, f"Play: trick {number}: {SEAT_NAMES[seat]} plays")
    if not trick:
        return
    reading.tricks.append(trick)
    if len(trick) == 4:
        reading.leader = trick_winner_seat(trick, reading.trump)


def play_irregularities(record: PbnRecord) -> dict[str, str]:
    """Irregularity marks of the play: card -> the letter of ``^x`` (``"R"``, ``"L"``...)."""
    return _play_items(record)[1]


def play_sequence(record: PbnRecord) -> list[tuple[str, str, bool]]:
    """Every card of the Play section in the order the table logged it: ``(seat, card,
    counted)``; a card marked ``^O`` (:data:`NOT_COUNTED`) comes, uncounted, before the
    trick of the row after it."""
    tricks, uncounted = _play_rows(record)
    out: list[tuple[str, str, bool]] = []
    for number in range(len(tricks) + 1):
        out += [(seat, card, False) for seat, card in uncounted.get(number, [])]
        if number < len(tricks):
            out += [(seat, card, True) for seat, card in tricks[number]]
    return out


def trick_winners(record: PbnRecord) -> list[str]:
    """The winner of each complete trick of :func:`play_tricks`."""
    contract = effective_contract(record)
    if not isinstance(contract, tuple):
        return []
    trump = None if contract[1] == "NT" else contract[1]
    return [trick_winner_seat(t, trump) for t in play_tricks(record) if len(t) == 4]

