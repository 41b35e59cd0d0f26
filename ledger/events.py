"""The event vocabulary of spec sections 3 and 4: one frozen attrs class per
event type, registered under its stable wire name.

* :data:`REGISTRY` maps wire names (``CardPlayed``) to classes; registering a
  name twice fails at import; an unknown name is a :class:`BadInput`.
* ``Event.from_data(data)`` parses the ``data`` object of one event with the
  notation parsers of :mod:`ledger.bridge`, refusing a missing or extra field
  or a value that does not parse, with the field and the value named.
* ``Event.to_data()`` gives the canonical ``data`` that is stored and hashed.
* ``ROLES`` says which actor roles may append the type (spec section 6).
* Old schema versions stay readable: :data:`UPCASTERS` turn the stored data
  of version n into version n+1 on read; stored rows are never rewritten.
"""

from __future__ import annotations

import re
from typing import Any, Callable, ClassVar, Mapping, TypeVar

import attrs
from attrs import frozen

from ledger.bridge import (Call, Card, Deal, Seat, Side, Suit, Vulnerability, dealer_for,
                           parse_edition, parse_rank, vulnerability_for)
from ledger.errors import BadInput

TABLE, DIRECTOR, COMMITTEE, SYSTEM = "table", "director", "committee", "system"
ROLES = (TABLE, DIRECTOR, COMMITTEE, SYSTEM)

# Who may append what (spec section 6).
FACT_ROLES = frozenset({TABLE, DIRECTOR})
DIRECTOR_ROLES = frozenset({DIRECTOR})
RULING_ROLES = frozenset({DIRECTOR, COMMITTEE})
COMMITTEE_ROLES = frozenset({COMMITTEE})
SYSTEM_ROLES = frozenset({SYSTEM})

# --------------------------------------------------------------------------
# Field parsers: raw JSON value -> domain value (ValueError with a reason),
# and dumpers: domain value -> canonical JSON value.


def _text(value: object) -> str:
    if isinstance(value, str) and value.strip():
        return value
    raise ValueError("expected a non-empty string")


def _free_text(value: object) -> str:
    if isinstance(value, str):
        return value
    raise ValueError("expected a string")


def _name(value: object) -> str:
    """Identifiers given as string or integer (a table number)."""
    if isinstance(value, bool):
        raise ValueError("expected a string")
    if isinstance(value, int):
        return str(value)
    return _text(value)


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError("expected true or false")


def _int(minimum: int = 0, maximum: int | None = None) -> Callable[[object], int]:
    def parse(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("expected an integer")
        if value < minimum or (maximum is not None and value > maximum):
            upper = f" to {maximum}" if maximum is not None else " or more"
            raise ValueError(f"expected an integer from {minimum}{upper}")
        return value
    return parse


def _one_of(*choices: str) -> Callable[[object], str]:
    def parse(value: object) -> str:
        if isinstance(value, str) and value in choices:
            return value
        raise ValueError("expected one of " + ", ".join(repr(c) for c in choices))
    return parse


_EVENT_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


def _ref(value: object) -> int | str:
    """A reference to another event of the stream: its seq or its id."""
    if isinstance(value, bool):
        raise ValueError("expected a seq (integer) or an event id (string)")
    if isinstance(value, int) and value >= 1:
        return value
    if isinstance(value, str) and _EVENT_ID.match(value):
        return value
    raise ValueError("expected a seq (integer >= 1) or an event id (string)")


def _seats(value: object) -> tuple[Seat, ...]:
    if not isinstance(value, list):
        raise ValueError("expected a list of seats")
    return tuple(Seat.parse(v) for v in value)


def _seat_or_side(value: object) -> str:
    for parse in (Seat.parse, Side.parse):
        try:
            return str(parse(value))
        except ValueError:
            pass
    raise ValueError("expected a seat (N E S W) or a side (NS EW)")


def _dummy_rank(value: object) -> str:
    if isinstance(value, str) and value.lower() in ("high", "low", "win"):
        return value.lower()
    try:
        return parse_rank(value)
    except ValueError:
        raise ValueError(f"not a designation of dummy's card: {value!r} "
                         "(expected a rank A K Q J T 9 ... 2 or 10, or high, low, win)") from None


def _citation(value: object) -> str:
    if isinstance(value, str) and re.match(r"^(1997|2017|FFB):[A-Za-z0-9.]+$", value):
        return value
    raise ValueError("expected a law citation like '2017:64A1', '1997:45C4b' or 'FFB:57.3'")


def _citations(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError("expected a list of law citations")
    return tuple(_citation(v) for v in value)


def _json(value: object) -> Any:
    return value


def _option(value: object) -> str:
    if isinstance(value, str) and re.match(r"^[a-z_]+(:[A-Z0-9]{2})?$", value):
        return value
    raise ValueError("expected an option id such as 'accept_declare' or 'play:HQ'")


def _options(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of option ids")
    return tuple(_option(v) for v in value)


def _artificial(value: object) -> str | int | float:
    if isinstance(value, str) and value in ("A+", "A", "A-", "none"):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 100:
        return value
    raise ValueError("expected 'A+', 'A', 'A-', 'none' or a percentage 0-100")


def _results(value: object) -> tuple[dict[str, Any], ...]:
    """Assigned or weighted results (12C1): validated entry by entry."""
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of results")
    out = []
    allowed = {"side", "contract", "declarer", "risk", "tricks", "weight"}
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise ValueError(f"result {i + 1}: expected an object")
        extra = set(item) - allowed
        if extra:
            raise ValueError(f"result {i + 1}: unknown key {sorted(extra)[0]!r}")
        entry: dict[str, Any] = {"side": _one_of("NS", "EW", "both")(item.get("side", "both"))}
        contract = item.get("contract")
        if contract in ("Pass", "pass"):
            entry["contract"] = "Pass"
        else:
            call = Call.parse(contract)
            if not call.is_bid:
                raise ValueError(f"result {i + 1}: contract {contract!r} is not a bid")
            entry["contract"] = str(call)
            entry["declarer"] = str(Seat.parse(item.get("declarer")))
            entry["risk"] = _one_of("", "X", "XX")(item.get("risk", ""))
            entry["tricks"] = _int(0, 13)(item.get("tricks"))
        if "weight" in item:
            w = item["weight"]
            if isinstance(w, str) and re.match(r"^\d+/[1-9]\d*$", w):  # an exact fraction "1/3"
                num, den = (int(x) for x in w.split("/"))
                if not 0 < num <= den:
                    raise ValueError(f"result {i + 1}: weight must be a fraction in (0, 1]")
            elif isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 < w <= 1:
                raise ValueError(f"result {i + 1}: weight must be a fraction in (0, 1] "
                                 "(a number, or a string like \"1/3\")")
            entry["weight"] = w
        out.append(entry)
    return tuple(out)


def _names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of names")
    return tuple(_text(v) for v in value)


def _amount(value: object) -> str:
    if isinstance(value, str) and re.match(r"^\d+(\.\d+)?(%| IMP)$", value):
        return value
    raise ValueError("expected an amount like '10%' or '3 IMP'")


# Dumpers


def _str(value: Any) -> Any:
    """JSON scalars as they are; vocabulary values in canonical text."""
    if isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _plain(value: Any) -> Any:
    return value


def _list_str(value: tuple[Any, ...]) -> list[str]:
    return [str(v) for v in value]


def _list_plain(value: tuple[Any, ...]) -> list[Any]:
    return list(value)


def F(parse: Callable[[object], Any], dump: Callable[[Any], Any] = _str, *,
      optional: bool = False) -> Any:
    """A field of an event's ``data``: how to parse and dump it."""
    return attrs.field(
        default=None if optional else attrs.NOTHING, kw_only=True,
        metadata={"parse": parse, "dump": dump, "optional": optional},
    )


def Opt(parse: Callable[[object], Any], dump: Callable[[Any], Any] = _str) -> Any:
    return F(parse, dump, optional=True)


# --------------------------------------------------------------------------
# The base class and the registry


class Event:
    """Base of all event types. Subclasses are frozen attrs classes."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1
    ROLES: ClassVar[frozenset[str]]
    FAMILY: ClassVar[str]  # setup, auction, play, procedure, board, director, committee, rectification

    @classmethod
    def from_data(cls, data: object) -> "Event":
        if not isinstance(data, Mapping):
            raise BadInput("the event's data must be a JSON object", field="data", value=data,
                           event_type=cls.TYPE)
        codec = _CODECS.get(cls) or _codec(cls)
        known = codec.names
        for key in data:
            if key not in known:
                raise BadInput(f"unknown field for {cls.TYPE} (known: {', '.join(sorted(known)) or 'none'})",
                               field=key, value=data[key], event_type=cls.TYPE)
        values: dict[str, Any] = {}
        for name, parse, optional in codec.parsers:
            raw = data.get(name)
            if raw is None:
                if optional:
                    continue
                raise BadInput(f"missing field of {cls.TYPE}", field=name, value=None, event_type=cls.TYPE)
            try:
                values[name] = parse(raw)
            except ValueError as exc:
                raise BadInput(str(exc), field=name, value=raw, event_type=cls.TYPE) from None
        return cls(**values)

    def to_data(self) -> dict[str, Any]:
        cls = type(self)
        codec = _CODECS.get(cls) or _codec(cls)
        out: dict[str, Any] = {}
        for name, dump in codec.dumpers:
            value = getattr(self, name)
            if value is not None:
                out[name] = dump(value)
        return out


class _Codec:
    """An event class's fields as ``from_data`` and ``to_data`` walk them, read once from
    attrs' metadata (not on every event: both run for every event appended and read)."""

    def __init__(self, cls: type) -> None:
        fields = attrs.fields(cls)
        self.names = frozenset(f.name for f in fields)
        self.parsers = tuple((f.name, f.metadata["parse"], f.metadata["optional"]) for f in fields)
        self.dumpers = tuple((f.name, f.metadata["dump"]) for f in fields)


_CODECS: dict[type, _Codec] = {}


def _codec(cls: type) -> _Codec:
    codec = _CODECS[cls] = _Codec(cls)
    return codec


REGISTRY: dict[str, type[Event]] = {}


_E = TypeVar("_E", bound=Event)


def register(family: str, roles: frozenset[str]) -> Callable[[type[_E]], type[_E]]:
    def wrap(cls: type[_E]) -> type[_E]:
        name = cls.__name__
        if name in REGISTRY:
            raise RuntimeError(f"event type {name} registered twice")
        cls.TYPE = name
        cls.FAMILY = family
        cls.ROLES = roles
        REGISTRY[name] = cls
        return cls
    return wrap


def event_class(type_name: object) -> type[Event]:
    if isinstance(type_name, str) and type_name in REGISTRY:
        return REGISTRY[type_name]
    raise BadInput("unknown event type", field="type", value=type_name)


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}
"""(type, version n) -> function turning data of version n into version n+1."""


def upcast(type_name: str, v: int, data: dict[str, Any],
           upcasters: Mapping[tuple[str, int], Upcaster] | None = None) -> dict[str, Any]:
    """Bring stored data of version ``v`` to the type's current version."""
    table = UPCASTERS if upcasters is None else upcasters
    current = REGISTRY[type_name].VERSION if type_name in REGISTRY else v
    while v < current:
        data = table[(type_name, v)](data)
        v += 1
    return data


def parse_stored(type_name: str, v: int, data: dict[str, Any]) -> Event:
    """An event as read back from the store (upcast, then parsed)."""
    cls = event_class(type_name)
    return cls.from_data(upcast(type_name, v, data))




# --------------------------------------------------------------------------
# 3. Facts. Setup


@register("setup", FACT_ROLES)
@frozen
class BoardOpened(Event):
    tournament: str = F(_text)
    board: int = F(_int(1))
    table: str = F(_name)
    dealer: Seat | None = Opt(Seat.parse)
    vulnerability: Vulnerability | None = Opt(Vulnerability.parse)
    deal: Deal = F(Deal.parse)
    laws: str | None = Opt(parse_edition)
    ns: str | None = Opt(_name)
    ew: str | None = Opt(_name)
    scoring: str | None = Opt(_one_of("MP", "IMP"))
    match: str | None = Opt(_name)
    room: str | None = Opt(_one_of("open", "closed"))
    session: str | None = Opt(_name)
    """Extension (docs/EXTENSIONS.md, "A whole event"): the session the board belongs to."""

    def completed(self) -> "BoardOpened":
        """Dealer and vulnerability from the board number when omitted; laws
        2017 and scoring MP by default. What is stored is always complete."""
        return attrs.evolve(
            self,
            dealer=self.dealer or dealer_for(self.board),
            vulnerability=self.vulnerability or vulnerability_for(self.board),
            laws=self.laws or "2017",
            scoring=self.scoring or "MP",
        )


# Auction


@register("auction", FACT_ROLES)
@frozen
class CallPlaced(Event):
    seat: Seat = F(Seat.parse)
    call: Call = F(Call.parse)
    intentional: bool | None = Opt(_bool, _plain)
    over_substitute: bool | None = Opt(_bool, _plain)
    # 2017 Law 27B1, on the call that corrects an insufficient bid (docs/EXTENSIONS.md):
    same_denomination: bool | None = Opt(_bool, _plain)  # 27B1a: lowest sufficient bid, same denomination(s)
    comparable: bool | None = Opt(_bool, _plain)  # 27B1b / 23A: a comparable call
    # Spec 1.2 (section 9.B): Laws 29 to 32
    artificial: bool | None = Opt(_bool, _plain)  # 29C, 30C: a conventional (1997) / artificial (2017) call
    over_call_out_of_rotation: bool | None = Opt(_bool, _plain)  # 29A (true) or 28B (false)
    # A CallPlaced at the caller's LHO's turn is a change of call (2017 30B2/31C/32C, 1997 30B3): Law 25's fields
    unintended: bool | None = Opt(_bool, _plain)
    without_pause: bool | None = Opt(_bool, _plain)
    mi_influenced: bool | None = Opt(_bool, _plain)


@register("auction", FACT_ROLES)
@frozen
class CallPulled(Event):
    seat: Seat = F(Seat.parse)
    call: Call = F(Call.parse)


@register("auction", FACT_ROLES)
@frozen
class CallReplaced(Event):
    seat: Seat = F(Seat.parse)
    call: Call = F(Call.parse)
    unintended: bool | None = Opt(_bool, _plain)
    without_pause: bool | None = Opt(_bool, _plain)
    mi_influenced: bool | None = Opt(_bool, _plain)


@register("auction", FACT_ROLES)
@frozen
class ExplanationGiven(Event):
    by: Seat = F(Seat.parse)
    call_index: int | None = Opt(_int(1), _plain)
    play: str | None = Opt(_text)
    text: str = F(_free_text)


@register("auction", FACT_ROLES)
@frozen
class ExplanationCorrected(Event):
    by: Seat = F(Seat.parse)
    call_index: int | None = Opt(_int(1), _plain)
    play: str | None = Opt(_text)
    text: str = F(_free_text)


# Play


@register("play", FACT_ROLES)
@frozen
class CardPlayed(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)
    fifth_card: bool | None = Opt(_bool, _plain)


@register("play", FACT_ROLES)
@frozen
class LeadFaceDown(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)


@register("play", FACT_ROLES)
@frozen
class LeadFaced(Event):
    pass


@register("play", FACT_ROLES)
@frozen
class CardHeld(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)
    partner_could_see: bool | None = Opt(_bool, _plain)
    face_up_near_table: bool | None = Opt(_bool, _plain)


@register("play", FACT_ROLES)
@frozen
class CardDropped(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)


@register("play", FACT_ROLES)
@frozen
class DummyCardCalled(Event):
    suit: Suit | None = Opt(Suit.parse)
    rank: str | None = Opt(_dummy_rank)
    by: Seat | None = Opt(Seat.parse)
    lowest_winner: bool | None = Opt(_bool, _plain)


@register("play", FACT_ROLES)
@frozen
class DummyCardTouched(Event):
    card: Card = F(Card.parse)
    purpose: str = F(_one_of("play", "arrange", "reach"))


@register("play", FACT_ROLES)
@frozen
class DesignationChanged(Event):
    card: Card = F(Card.parse)
    inadvertent: bool | None = Opt(_bool, _plain)
    without_pause: bool | None = Opt(_bool, _plain)


@register("play", FACT_ROLES)
@frozen
class CardNamed(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)


@register("play", FACT_ROLES)
@frozen
class DummyMisplaced(Event):
    card: Card = F(Card.parse)


@register("play", FACT_ROLES)
@frozen
class CardWithdrawn(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)
    replacement: Card | None = Opt(Card.parse)


@register("play", FACT_ROLES)
@frozen
class DummySpreadStarted(Event):
    seat: Seat | None = Opt(Seat.parse)


@register("play", FACT_ROLES)
@frozen
class DummyIndicatedCard(Event):
    card: Card = F(Card.parse)


@register("play", FACT_ROLES)
@frozen
class LeadAuthorisedByOpponent(Event):
    seat: Seat = F(Seat.parse)
    by: Seat = F(Seat.parse)


@register("play", FACT_ROLES)
@frozen
class RevokeInquiry(Event):
    by: Seat = F(Seat.parse)
    to: Seat = F(Seat.parse)


@register("play", FACT_ROLES)
@frozen
class DummyWarnedDeclarer(Event):
    about: str = F(_one_of("lead_from_wrong_hand", "other"))


@register("play", FACT_ROLES)
@frozen
class ClaimMade(Event):
    seat: Seat = F(Seat.parse)
    tricks: int = F(_int(0, 13), _plain)
    statement: str | None = Opt(_free_text)


@register("play", FACT_ROLES)
@frozen
class ClaimAgreed(Event):
    by: Seat = F(Seat.parse)


@register("play", FACT_ROLES)
@frozen
class ClaimDisputed(Event):
    by: Seat = F(Seat.parse)
    immediate: bool | None = Opt(_bool, _plain)
    """Spec 1.3 (J): whether the objection came at once (68B2); unknown: true when it is the first
    fact after the claim."""


# Procedure


@register("procedure", FACT_ROLES)
@frozen
class RectificationWaived(Event):
    by: Seat = F(Seat.parse)
    about: int | str = F(_ref, _plain)


@register("procedure", FACT_ROLES)
@frozen
class AttentionDrawn(Event):
    by: Seat = F(Seat.parse)
    about: int | str | None = Opt(_ref, _plain)


@register("procedure", FACT_ROLES)
@frozen
class DirectorCalled(Event):
    by: Seat = F(Seat.parse)
    about: int | str | None = Opt(_ref, _plain)


@register("procedure", FACT_ROLES)
@frozen
class RightsReserved(Event):
    by: Seat = F(Seat.parse)
    about: int | str | None = Opt(_ref, _plain)
    reason: str | None = Opt(_free_text)


@register("procedure", FACT_ROLES)
@frozen
class HandsReturned(Event):
    pass


@register("procedure", FACT_ROLES)
@frozen
class NextBoardStarted(Event):
    side: Side = F(Side.parse)


@register("procedure", FACT_ROLES)
@frozen
class RoundEnded(Event):
    pass


# Irregular boards (director; Laws 13 to 16)


@register("board", DIRECTOR_ROLES)
@frozen
class HandCountWrong(Event):
    seat: Seat = F(Seat.parse)
    count: int = F(_int(0, 52), _plain)


@register("board", DIRECTOR_ROLES)
@frozen
class CardSeen(Event):
    by: Seat = F(Seat.parse)
    card: Card = F(Card.parse)


@register("board", DIRECTOR_ROLES)
@frozen
class MissingCardFound(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)
    among_played: bool = F(_bool, _plain)


@register("board", DIRECTOR_ROLES)
@frozen
class WrongBoardPlayed(Event):
    played_before_by: tuple[Seat, ...] = F(_seats, _list_str)


@register("board", DIRECTOR_ROLES)
@frozen
class ExtraneousInformation(Event):
    by: Seat = F(Seat.parse)
    text: str = F(_free_text)


@register("board", DIRECTOR_ROLES)
@frozen
class WrongBoardCards(Event):
    seat: Seat = F(Seat.parse)


@register("board", DIRECTOR_ROLES)
@frozen
class ResultCancelled(Event):
    text: str = F(_free_text)


@register("board", DIRECTOR_ROLES)
@frozen
class BoardWithdrawn(Event):
    """A board not played, or its play stopped, at this table (docs/EXTENSIONS.md, "A whole
    event"): fouled (Law 87), no time, a wrong board (15), a wrong count or a card seen that
    made it unplayable (13), information that made it unplayable (16), a teams board not
    played in one room (86). Any result is cancelled; the board is scored as not played at
    this table unless the director awards an adjusted score."""
    law: str = F(_citation)
    reason: str = F(_text)


@register("board", DIRECTOR_ROLES)
@frozen
class BoardVoided(Event):
    """A board opened by mistake (a wrong table, a wrong tournament, a board the movement
    never gives this table): the stream stays in the log and leaves the tournament's field."""
    reason: str = F(_text)


# Director


@register("director", DIRECTOR_ROLES)
@frozen
class FindingMade(Event):
    about: int | str = F(_ref, _plain)
    field: str = F(_text)
    value: Any = F(_json, _plain)
    note: str | None = Opt(_free_text)


@register("director", FACT_ROLES)
@frozen
class OptionChosen(Event):
    seat: Seat = F(Seat.parse)
    option: str = F(_option)
    suit: Suit | None = Opt(Suit.parse)


def _line(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of cards")
    return tuple(Card.parse(v) for v in value)


@register("director", DIRECTOR_ROLES)
@frozen
class ClaimRuled(Event):
    tricks: int = F(_int(0, 13), _plain)
    text: str | None = Opt(_free_text)
    line: tuple[Card, ...] | None = Opt(_line, _list_str)
    """Spec 1.3: the director's line of play, every remaining card in the order he rules it played
    from the position when the claim was made (70); checked card by card on append."""


@register("director", DIRECTOR_ROLES)
@frozen
class CorrectionPeriodEnded(Event):
    """Spec 1.3: the Correction Period of this board has expired (79C1); once per stream."""


@register("director", DIRECTOR_ROLES)
@frozen
class DefectiveTrickFound(Event):
    """Spec 1.3: the director established that ``seat`` did not play to trick ``trick`` (67)."""
    trick: int = F(_int(1, 13), _plain)
    seat: Seat = F(Seat.parse)


@register("director", RULING_ROLES)
@frozen
class AdjustedScoreAwarded(Event):
    kind: str = F(_one_of("artificial", "assigned", "weighted"))
    ns: str | int | float | None = Opt(_artificial, _plain)
    ew: str | int | float | None = Opt(_artificial, _plain)
    results: tuple[dict[str, Any], ...] | None = Opt(_results, _list_plain)
    text: str = F(_free_text)
    law: str = F(_citation)


def _reported_contract(value: object) -> str:
    if value in ("Pass", "pass", "PASS"):
        return "Pass"
    call = Call.parse(value)
    if not call.is_bid:
        raise ValueError("expected a bid (4S, 3NT) or 'Pass'")
    return str(call)


@register("director", FACT_ROLES)  # a table enters its own result too (live quick entry, issue 23)
@frozen
class ResultReported(Event):
    """A table's result as the director or a scoring program recorded it (a
    traveller row, a record without its auction): no call or card is logged.
    The fold takes it as the table's result; the engine scores it (Law 77)."""
    contract: str = F(_reported_contract)
    declarer: Seat | None = Opt(Seat.parse)
    risk: str | None = Opt(_one_of("", "X", "XX"))
    tricks: int | None = Opt(_int(0, 13), _plain)
    lead: Card | None = Opt(Card.parse)
    text: str | None = Opt(_free_text)


@register("director", DIRECTOR_ROLES)
@frozen
class ProceduralPenalty(Event):
    side: Side = F(Side.parse)
    amount: str = F(_amount)
    text: str = F(_free_text)
    law: str = F(_citation)


@register("director", DIRECTOR_ROLES)
@frozen
class DummyViolation(Event):
    kind: str = F(_one_of("exchanged_hands", "watched_declarer", "looked_at_defender_hand"))


@register("director", DIRECTOR_ROLES)
@frozen
class RulingGiven(Event):
    laws: tuple[str, ...] = F(_citations, _list_plain)
    text: str = F(_free_text)


@register("director", RULING_ROLES)
@frozen
class RulingOverridden(Event):
    about: int | str = F(_ref, _plain)
    text: str = F(_free_text)


@register("director", FACT_ROLES)
@frozen
class EntryVoided(Event):
    """An entry error corrected (docs/EXTENSIONS.md, "Voiding an entry"): the entry at
    ``about`` (seq or id) stays in the log, and the fold proceeds as if it had not been
    made. The director may void any entry a person logged; the table only its own last
    entry, when nothing but the ruling engine has logged after it."""

    about: int | str = F(_ref, _plain)
    reason: str = F(_text)


# Committee


@register("committee", RULING_ROLES)
@frozen
class AppealLodged(Event):
    side: Side = F(Side.parse)
    text: str = F(_free_text)


@register("committee", COMMITTEE_ROLES)
@frozen
class AppealDecided(Event):
    decision: str = F(_one_of("upheld", "changed"))
    text: str = F(_free_text)
    members: tuple[str, ...] | None = Opt(_names, _list_plain)
    """The committee's members, by name (optional; docs/EXTENSIONS.md)."""
    deposit: str | None = Opt(_one_of("returned", "kept"))
    """What became of the appellants' deposit (optional; Law 93 lets a committee keep it
    when the appeal had no merit; the appeals register lists it)."""


# --------------------------------------------------------------------------
# 4. Rectifications: emitted by the ruling engine only (role system)


@register("rectification", SYSTEM_ROLES)
@frozen
class IrregularityRecorded(Event):
    kind: str = F(_text)
    offender: str | None = Opt(_seat_or_side)
    about: int = F(_int(1), _plain)


@register("rectification", SYSTEM_ROLES)
@frozen
class OptionsOffered(Event):
    to: Seat = F(Seat.parse)
    options: tuple[str, ...] = F(_options, _list_plain)
    law: str = F(_citation)
    about: int | None = Opt(_int(1), _plain)
    """Extension: the seq of the fact or occasion the offer is about, when the
    same options may be offered again later on the board (50D2, 53A, 55A)."""


@register("rectification", SYSTEM_ROLES)
@frozen
class CallCancelled(Event):
    seat: Seat = F(Seat.parse)
    call: Call = F(Call.parse)


@register("rectification", SYSTEM_ROLES)
@frozen
class PartnerMustPass(Event):
    seat: Seat = F(Seat.parse)
    until: str = F(_one_of("next_turn", "end_of_auction"))
    about: int | None = Opt(_int(1), _plain)
    """Extension (issue 22): the fact it rectifies, given when the same obligation may be due again (2017 24C:
    a second exposed card after the partner has passed once), so that it is a new rectification."""


@register("rectification", SYSTEM_ROLES)
@frozen
class ScoreCapped(Event):
    side: Side = F(Side.parse)
    max: str = F(_one_of("A-", "A", "A+"))


@register("rectification", SYSTEM_ROLES)
@frozen
class PenaltyCardDesignated(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)
    kind: str = F(_one_of("major", "minor"))


@register("rectification", SYSTEM_ROLES)
@frozen
class PenaltyCardCleared(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)


def _calls(value: object) -> tuple[Call, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a list of calls")
    return tuple(Call.parse(v) for v in value)


@register("rectification", SYSTEM_ROLES)
@frozen
class CallRequired(Event):
    """Spec 1.2: the offender must repeat his call out of rotation at his next
    turn (31A1, 2017 32A1, 1997 32B1)."""
    seat: Seat = F(Seat.parse)
    call: Call = F(Call.parse)


@register("rectification", SYSTEM_ROLES)
@frozen
class CallsForbidden(Event):
    """Spec 1.2: calls a player may not make at his next turn (1997 30B2(b))."""
    seat: Seat = F(Seat.parse)
    calls: tuple[Call, ...] = F(_calls, _list_str)
    until: str = F(_one_of("next_turn"))


@register("rectification", SYSTEM_ROLES)
@frozen
class PlayRestriction(Event):
    """Spec 1.2: 57A after declarer's choice: what the premature offender's partner must
    (``highest``, ``lowest`` of the suit led, a card of ``suit``) or may not (``not_suit``)
    play to the current trick."""
    seat: Seat = F(Seat.parse)
    mode: str = F(_one_of("highest", "lowest", "suit", "not_suit"))
    suit: Suit | None = Opt(Suit.parse)


@register("rectification", SYSTEM_ROLES)
@frozen
class LeadRestriction(Event):
    seat: Seat = F(Seat.parse)
    suit: Suit = F(Suit.parse)
    mode: str = F(_one_of("must", "must_not"))
    lasts: str = F(_one_of("next_lead", "while_on_lead"))
    about: int | None = Opt(_int(1), _plain)
    """Extension: the seq of the choice it comes from, when the same
    restriction may be imposed again later on the board (50D2)."""


@register("rectification", SYSTEM_ROLES)
@frozen
class DeclarerChanged(Event):
    declarer: Seat = F(Seat.parse)
    dummy: Seat = F(Seat.parse)


@register("rectification", SYSTEM_ROLES)
@frozen
class CardReturned(Event):
    seat: Seat = F(Seat.parse)
    card: Card = F(Card.parse)


@register("rectification", SYSTEM_ROLES)
@frozen
class RevokeEstablished(Event):
    seat: Seat = F(Seat.parse)
    trick: int = F(_int(1, 13), _plain)


@register("rectification", SYSTEM_ROLES)
@frozen
class TricksTransferred(Event):
    to: str = F(_one_of("declarer", "defenders"))
    tricks: int = F(_int(0, 13), _plain)


@register("rectification", SYSTEM_ROLES)
@frozen
class DirectorReviewRequired(Event):
    reason: str = F(_text)
    about: int | None = Opt(_int(1), _plain)


@register("rectification", SYSTEM_ROLES)
@frozen
class ClaimRescored(Event):
    """Spec 1.3: the tricks of the remaining ones now credited to the claimer's side (Law 71 at the
    agreement or on the conceding side's objection, 69B on the agreeing side's), proved by ``G``."""
    about: int = F(_int(1), _plain)
    tricks: int = F(_int(0, 13), _plain)


@register("rectification", SYSTEM_ROLES)
@frozen
class ResultRecorded(Event):
    contract: str = F(_text)
    declarer: Seat | None = Opt(Seat.parse)
    risk: str = F(_one_of("", "X", "XX"))
    tricks: int | None = Opt(_int(0, 13), _plain)
    score_ns: int = F(_int(-10000, 10000), _plain)



# --------------------------------------------------------------------------
# A whole event (docs/EXTENSIONS.md, "A whole event"): the tournament's register, one
# stream ``register/<tournament slug>`` per tournament (ledger.register), by the director.

_ID_TEXT = re.compile(r"^[A-Za-z0-9._-]{1,40}$")


def _entry_id(value: object) -> str:
    """A player, pair or team number as the movement names it (``"7"``, ``"NS3"``, ``"lic-1234"``)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    if isinstance(value, str) and _ID_TEXT.match(value):
        return value
    raise ValueError("expected a number or 1 to 40 characters of A-Z a-z 0-9 . _ -")


def _entry_ids(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of player ids")
    return tuple(_entry_id(v) for v in value)


def _boards(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of board numbers")
    return tuple(_int(1)(v) for v in value)


def _matches(value: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        raise ValueError("expected a list of [team, team] pairs")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise ValueError("each match is [home team, away team]")
        out.append((_entry_id(item[0]), _entry_id(item[1])))
    return tuple(out)


def _list_matches(value: tuple[tuple[str, str], ...]) -> list[list[str]]:
    return [list(m) for m in value]


@register("tournament", DIRECTOR_ROLES)
@frozen
class PlayerRegistered(Event):
    """A player of the event: an id, a name, an optional federation (licence) number."""
    player: str = F(_entry_id)
    name: str = F(_text)
    number: str | None = Opt(_name)


@register("tournament", DIRECTOR_ROLES)
@frozen
class SessionScheduled(Event):
    """A session of the event, with the movement its boards follow (``BoardOpened.session``)."""
    session: str = F(_entry_id)
    kind: str = F(_one_of("pairs", "teams", "swiss", "knockout"))
    boards: int | None = Opt(_int(1, 200), _plain)
    """Boards in the session (pairs) or in each match (teams)."""
    rounds: int | None = Opt(_int(1, 40), _plain)
    movement: tuple[dict[str, Any], ...] | None = Opt(lambda v: _movement(v), _list_plain)
    """Who sits where: ``[{"round": 1, "table": "1", "ns": "1", "ew": "4", "boards": [1, 2]}, ...]``;
    a board that does not name its pairs (an imported hand record) takes them from here."""
    scoring: str | None = Opt(_one_of("MP", "IMP", "cross-IMP", "Butler"))
    """Pairs: matchpoints (the default), or IMPs across the field (cross-IMPs, Butler)."""


def _movement(value: object) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of {round, table, ns, ew, boards}")
    out = []
    for i, item in enumerate(value, start=1):
        if not isinstance(item, dict) or set(item) != {"round", "table", "ns", "ew", "boards"}:
            raise ValueError(f"movement line {i}: expected exactly round, table, ns, ew, boards")
        try:
            out.append({"round": _int(1)(item["round"]), "table": _name(item["table"]),
                        "ns": _entry_id(item["ns"]), "ew": _entry_id(item["ew"]),
                        "boards": list(_boards(item["boards"]))})
        except ValueError as exc:
            raise ValueError(f"movement line {i}: {exc}") from None
    return tuple(out)


@register("tournament", DIRECTOR_ROLES)
@frozen
class PairEntered(Event):
    """A pair (its number in the movement) and its two players; a late entry names the
    session and round from which it plays."""
    pair: str = F(_entry_id)
    players: tuple[str, ...] = F(_entry_ids, _list_plain)
    session: str | None = Opt(_entry_id)
    from_round: int | None = Opt(_int(1), _plain)


@register("tournament", DIRECTOR_ROLES)
@frozen
class TeamEntered(Event):
    """A team (its number), its name and its players (four to six); a late entry names the
    session and round from which it plays; ``carry`` is the score it brings (VPs)."""
    team: str = F(_entry_id)
    name: str = F(_text)
    players: tuple[str, ...] = F(_entry_ids, _list_plain)
    session: str | None = Opt(_entry_id)
    from_round: int | None = Opt(_int(1), _plain)
    carry: int | float | None = Opt(lambda v: _carry(v), _plain)


def _carry(value: object) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("expected a number")
    return value


@register("tournament", DIRECTOR_ROLES)
@frozen
class EntryWithdrawn(Event):
    """A pair or team withdraws between rounds: it plays no round from ``from_round`` of the
    session on (its boards already played stand)."""
    entry: str = F(_entry_id)
    session: str = F(_entry_id)
    from_round: int = F(_int(1), _plain)
    reason: str = F(_text)


@register("tournament", DIRECTOR_ROLES)
@frozen
class SubstituteSeated(Event):
    """A substitute plays for a player of a pair or team on the boards named, in a session:
    the log says who actually sat there. Refused for a board that has already ended."""
    session: str = F(_entry_id)
    entry: str = F(_entry_id)
    replaces: str = F(_entry_id)
    player: str = F(_entry_id)
    boards: tuple[int, ...] = F(_boards, _list_plain)


@register("tournament", DIRECTOR_ROLES)
@frozen
class SwissRoundPaired(Event):
    """A Swiss round's matches, as paired by the ledger (ledger.teams.swiss_pairing) or the
    director: [home, away] teams; ``bye`` the team that sits out (scored as the regulation
    says, ``bye_vp``)."""
    session: str = F(_entry_id)
    round: int = F(_int(1, 40), _plain)
    matches: tuple[tuple[str, str], ...] = F(_matches, _list_matches)
    bye: str | None = Opt(_entry_id)
    bye_vp: int | float | None = Opt(lambda v: _carry(v), _plain)


@register("tournament", DIRECTOR_ROLES)
@frozen
class BoardFouled(Event):
    """Law 87: a board of a session was not played in identical form at every table (a card
    displaced, a different dealer or vulnerability). ``tables`` (table ids, or board streams)
    played the changed form ``form``; the others the board's correct form. Results rate each
    form's group separately (87B; projections.event)."""
    session: str = F(_entry_id)
    board: int = F(_int(1), _plain)
    tables: tuple[str, ...] = F(lambda v: _table_ids(v), _list_plain)
    form: str = F(_entry_id)
    law: str = F(_citation)
    reason: str = F(_text)


def _table_ids(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("expected a non-empty list of tables")
    return tuple(_name(v) for v in value)


def _carries(value: object) -> tuple[tuple[int | float, int | float], ...]:
    if not isinstance(value, list):
        raise ValueError("expected a list of [home IMPs, away IMPs], one per match")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise ValueError("each carry-over is [home IMPs, away IMPs]")
        out.append((_carry(item[0]), _carry(item[1])))
    return tuple(out)


@register("tournament", DIRECTOR_ROLES)
@frozen
class KnockoutRoundPaired(Event):
    """A knockout round's matches ([home, away], in bracket order: the winners of matches 1
    and 2 meet in the next round, then 3 and 4, ...), ``bye`` a team that goes through
    without playing, ``carry`` the IMPs each team brings into its match (conditions of
    contest: an earlier stage, a handicap), one [home, away] per match."""
    session: str = F(_entry_id)
    round: int = F(_int(1, 40), _plain)
    matches: tuple[tuple[str, str], ...] = F(_matches, _list_matches)
    bye: str | None = Opt(_entry_id)
    carry: tuple[tuple[int | float, int | float], ...] | None = Opt(lambda v: _carries(v),
                                                                     lambda v: [list(c) for c in v])


@register("tournament", DIRECTOR_ROLES)
@frozen
class KnockoutTieDecided(Event):
    """A knockout match tied on IMPs (carry-over included): the winner as the conditions of
    contest decide it (extra boards, the first segment, a draw...), which the director records;
    the ledger never guesses it."""
    session: str = F(_entry_id)
    round: int = F(_int(1, 40), _plain)
    home: str = F(_entry_id)
    away: str = F(_entry_id)
    winner: str = F(_entry_id)
    reason: str = F(_text)


TOURNAMENT_EVENTS: tuple[type[Event], ...] = (PlayerRegistered, SessionScheduled, PairEntered,
                                              TeamEntered, EntryWithdrawn, SubstituteSeated,
                                              SwissRoundPaired, BoardFouled, KnockoutRoundPaired,
                                              KnockoutTieDecided)
"""The register's events: never in a board's stream (ledger.register)."""
