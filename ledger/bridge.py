"""Bridge vocabulary: seats, sides, suits, cards, calls, strains, risk,
vulnerability and deals, with the parsers of spec section 1.

Every parser accepts the spec's input forms and raises :class:`ValueError`
naming the value otherwise; ``str()`` of every value is the canonical form.
Cards and calls are interned: parsing the same text twice gives the same object.
"""

from __future__ import annotations

import enum
from typing import Iterable, Mapping, Sequence, TypeVar

import attrs


class Seat(enum.Enum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: object) -> "Seat":
        if isinstance(text, Seat):
            return text
        if isinstance(text, str) and text.upper() in _SEATS:
            return _SEATS[text.upper()]
        raise ValueError(f"not a seat: {text!r} (expected one of N E S W)")

    # Read on every event: answered from attributes set once below, not by
    # searching a tuple or hashing the member (an Enum's hash is Python code).
    _index: int
    _side: "Side"

    @property
    def index(self) -> int:
        return self._index

    def next(self, steps: int = 1) -> "Seat":
        """The seat ``steps`` places clockwise (LHO for 1)."""
        return _SEAT_ORDER[(self._index + steps) % 4]

    @property
    def lho(self) -> "Seat":
        return _SEAT_ORDER[(self._index + 1) % 4]

    @property
    def partner(self) -> "Seat":
        return _SEAT_ORDER[(self._index + 2) % 4]

    @property
    def rho(self) -> "Seat":
        return _SEAT_ORDER[(self._index + 3) % 4]

    @property
    def side(self) -> "Side":
        return self._side


_SEAT_ORDER = (Seat.N, Seat.E, Seat.S, Seat.W)
_SEATS = {s.value: s for s in _SEAT_ORDER}
SEATS = _SEAT_ORDER


class Side(enum.Enum):
    NS = "NS"
    EW = "EW"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: object) -> "Side":
        if isinstance(text, Side):
            return text
        if isinstance(text, str) and text.upper() in ("NS", "EW"):
            return Side(text.upper())
        raise ValueError(f"not a side: {text!r} (expected NS or EW)")

    @property
    def other(self) -> "Side":
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)


for _i, _seat in enumerate(_SEAT_ORDER):
    _seat._index = _i
    _seat._side = Side.NS if _i % 2 == 0 else Side.EW


class Suit(enum.Enum):
    """Suits, highest first (PBN order S H D C)."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    def __str__(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def order(self) -> int:
        """0 for spades ... 3 for clubs (display order)."""
        return self._order

    _order: int

    @classmethod
    def parse(cls, text: object) -> "Suit":
        if isinstance(text, Suit):
            return text
        if isinstance(text, str):
            key = _SYMBOL_TO_SUIT.get(text, text.upper())
            if key in ("S", "H", "D", "C"):
                return Suit(key)
        raise ValueError(f"not a suit: {text!r} (expected S H D C)")


_SUIT_ORDER = (Suit.S, Suit.H, Suit.D, Suit.C)
SUITS = _SUIT_ORDER
for _i, _suit in enumerate(_SUIT_ORDER):
    _suit._order = _i
_SUIT_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SYMBOL_TO_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}

RANKS = "23456789TJQKA"
"""Ranks, lowest first; a rank's strength is its index here."""

HONOURS = frozenset("AKQJT")


def parse_rank(text: object) -> str:
    if isinstance(text, str):
        t = text.upper()
        if t == "10":
            return "T"
        if len(t) == 1 and t in RANKS:
            return t
    raise ValueError(f"not a rank: {text!r} (expected A K Q J T 9 ... 2, or 10)")


@attrs.frozen(order=False)
class Card:
    suit: Suit
    rank: str

    def __str__(self) -> str:
        return f"{self.suit.value}{self.rank}"

    @property
    def strength(self) -> int:
        return RANKS.index(self.rank)

    @property
    def is_honour(self) -> bool:
        return self.rank in HONOURS

    @property
    def sort_key(self) -> tuple[int, int]:
        """Display order: suits S H D C, then rank high to low."""
        return (self.suit.order, -self.strength)

    @classmethod
    def parse(cls, text: object) -> "Card":
        if isinstance(text, Card):
            return text
        if isinstance(text, str):
            t = text.strip()
            if t and t[0] in _SYMBOL_TO_SUIT:
                t = _SYMBOL_TO_SUIT[t[0]] + t[1:]
            card = _CARDS.get(t.upper().replace("10", "T"))
            if card is not None:
                return card
        raise ValueError(f"not a card: {text!r} (expected suit S H D C then rank, e.g. SA, HT, C2)")


_CARDS: dict[str, Card] = {f"{s.value}{r}": Card(s, r) for s in _SUIT_ORDER for r in RANKS}


# The letters the file formats and the pages read and write, from the vocabulary above.
SEAT_LETTERS: tuple[str, ...] = tuple(s.value for s in _SEAT_ORDER)
"""``("N", "E", "S", "W")``: the seats' letters, clockwise from North."""
SUIT_LETTERS: tuple[str, ...] = tuple(s.value for s in _SUIT_ORDER)
"""``("S", "H", "D", "C")``: the suits' letters, in display order."""
RANKS_HIGH_FIRST = RANKS[::-1]
"""``"AKQJT98765432"``: the ranks from the ace down (a hand's display order)."""
SEAT_NAMES: dict[str, str] = {"N": "North", "E": "East", "S": "South", "W": "West"}
"""Each seat's name for people, by its letter."""

_S = TypeVar("_S")


def trick_winner(plays: Sequence[tuple[_S, Card]], trump: "Suit | None") -> _S:
    """Law 44: who wins a complete trick (``plays`` in the order played, each a seat, however the
    caller names it, and its card): the highest trump, else the highest card of the suit led."""
    led = plays[0][1].suit

    def strength(play: tuple[_S, Card]) -> tuple[int, int]:
        card = play[1]
        if trump is not None and card.suit is trump:
            return (2, card.strength)
        if card.suit is led:
            return (1, card.strength)
        return (0, 0)

    return max(plays, key=strength)[0]
DECK: tuple[Card, ...] = tuple(sorted(_CARDS.values(), key=lambda c: c.sort_key))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)


class Strain(enum.Enum):
    C = "C"
    D = "D"
    H = "H"
    S = "S"
    NT = "NT"

    def __str__(self) -> str:
        return self.value

    @property
    def rank(self) -> int:
        """Order in the auction: C < D < H < S < NT."""
        return _STRAIN_ORDER.index(self)

    @property
    def trump(self) -> Suit | None:
        return None if self is Strain.NT else Suit(self.value)

    @classmethod
    def parse(cls, text: object) -> "Strain":
        if isinstance(text, Strain):
            return text
        if isinstance(text, str):
            t = _SYMBOL_TO_SUIT.get(text, text.upper())
            if t in ("N", "NT", "SA"):  # SA: sans atout, as French records write it
                return Strain.NT
            if t in ("C", "D", "H", "S"):
                return Strain(t)
        raise ValueError(f"not a strain: {text!r} (expected C D H S NT)")


_STRAIN_ORDER = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)


class Risk(enum.Enum):
    NONE = ""
    X = "X"
    XX = "XX"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: object) -> "Risk":
        if isinstance(text, Risk):
            return text
        if isinstance(text, str) and text.upper() in ("", "X", "XX"):
            return Risk(text.upper())
        raise ValueError(f"not a risk: {text!r} (expected \"\", X or XX)")


@attrs.frozen
class Call:
    """A call: ``kind`` is ``pass``, ``double``, ``redouble`` or ``bid``."""

    kind: str
    level: int | None = None
    strain: Strain | None = None

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"{self.level}{self.strain}"
        return _CALL_TEXT[self.kind]

    @property
    def is_bid(self) -> bool:
        return self.kind == "bid"

    @property
    def is_pass(self) -> bool:
        return self.kind == "pass"

    def outranks(self, other: "Call") -> bool:
        """For bids: is this bid sufficient over ``other`` (Law 18D)?"""
        assert self.level is not None and self.strain is not None, "outranks: not a bid"
        assert other.level is not None and other.strain is not None, "outranks: not a bid"
        return (self.level, self.strain.rank) > (other.level, other.strain.rank)

    @classmethod
    def parse(cls, text: object) -> "Call":
        if isinstance(text, Call):
            return text
        if isinstance(text, str):
            call = _CALLS.get(text.strip().upper())
            if call is not None:
                return call
        raise ValueError(f"not a call: {text!r} (expected Pass, X, XX or a bid 1C ... 7NT; 8C ... 9NT are "
                         "read as a bid of more than seven, Law 38)")


_CALL_TEXT = {"pass": "Pass", "double": "X", "redouble": "XX"}
PASS = Call("pass")
DOUBLE = Call("double")
REDOUBLE = Call("redouble")
_CALLS: dict[str, Call] = {"PASS": PASS, "P": PASS, "X": DOUBLE, "XX": REDOUBLE}
for _level in range(1, 10):  # 8 and 9: a bid of more than seven, accepted on input (spec 1.2, 9.A; Law 38)
    for _strain in _STRAIN_ORDER:
        _bid = Call("bid", _level, _strain)
        _CALLS[f"{_level}{_strain.value}"] = _bid
        if _strain is Strain.NT:
            _CALLS[f"{_level}N"] = _bid
        else:
            _CALLS[f"{_level}{_SUIT_SYMBOLS[Suit(_strain.value)]}"] = _bid


class Vulnerability(enum.Enum):
    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def __str__(self) -> str:
        return self.value

    def is_vulnerable(self, side: Side) -> bool:
        return self is Vulnerability.ALL or self.value == side.value

    @classmethod
    def parse(cls, text: object) -> "Vulnerability":
        if isinstance(text, Vulnerability):
            return text
        if isinstance(text, str):
            key = _VUL_ALIASES.get(text.strip().lower())
            if key is not None:
                return key
        raise ValueError(f"not a vulnerability: {text!r} (expected None, NS, EW or All)")


_VUL_ALIASES = {
    "none": Vulnerability.NONE, "love": Vulnerability.NONE, "-": Vulnerability.NONE,
    "ns": Vulnerability.NS, "ew": Vulnerability.EW,
    "all": Vulnerability.ALL, "both": Vulnerability.ALL,
}

# The standard 16-board cycle (LAWS-DIGEST 11.1): boards 17-32 repeat 1-16.
_VUL_CYCLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
              "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def dealer_for(board: int) -> Seat:
    """Dealer by board number: N, E, S, W for boards 1, 2, 3, 4, repeating."""
    return _SEAT_ORDER[(board - 1) % 4]


def vulnerability_for(board: int) -> Vulnerability:
    return Vulnerability(_VUL_CYCLE[(board - 1) % 16])


@attrs.frozen
class Deal:
    """Four hands of 13 cards, 52 distinct cards."""

    hands: Mapping[Seat, frozenset[Card]]

    def __str__(self) -> str:
        return self.to_pbn()

    def hand(self, seat: Seat) -> frozenset[Card]:
        return self.hands[seat]

    def holder(self, card: Card) -> Seat:
        for seat, cards in self.hands.items():
            if card in cards:
                return seat
        raise ValueError(f"card {card} is in no hand")  # cannot happen for a legal deal

    def to_pbn(self, first: Seat = Seat.N) -> str:
        hands = []
        for i in range(4):
            cards = self.hands[first.next(i)]
            suits = []
            for suit in _SUIT_ORDER:
                ranks = sorted((c.rank for c in cards if c.suit is suit), key=RANKS.index, reverse=True)
                suits.append("".join(ranks))
            hands.append(".".join(suits))
        return f"{first.value}:" + " ".join(hands)

    @classmethod
    def parse(cls, text: object) -> "Deal":
        """A PBN ``Deal`` string: ``N:AKQ2.K3.T98.A42 <E> <S> <W>``."""
        if isinstance(text, Deal):
            return text
        if not isinstance(text, str) or len(text) < 3 or text[1] != ":":
            raise ValueError(f"not a deal: {text!r} (expected PBN form 'N:S.H.D.C E... S... W...')")
        try:
            first = Seat.parse(text[0])
        except ValueError:
            raise ValueError(f"not a deal: {text!r}: the first seat {text[0]!r} is not N, E, S or W") from None
        parts = text[2:].split()
        if len(parts) != 4:
            raise ValueError(f"not a deal: {text!r}: {len(parts)} hands, expected 4")
        parsed: list[tuple[Seat, list[Card]]] = []
        for i, part in enumerate(parts):
            seat = first.next(i)
            suits = part.split(".")
            if len(suits) != 4:
                raise ValueError(f"not a deal: hand {seat} {part!r} has {len(suits)} suits, expected 4 (S.H.D.C)")
            cards: list[Card] = []
            for suit, ranks in zip(_SUIT_ORDER, suits):
                ranks_text = ranks.upper().replace("10", "T")
                if ranks_text == "-":
                    continue
                for r in ranks_text:
                    if r not in RANKS:
                        raise ValueError(f"not a deal: hand {seat} has {r!r} in {suit.value}, not a rank")
                    cards.append(_CARDS[f"{suit.value}{r}"])
            if len(cards) != 13:
                raise ValueError(f"not a deal: hand {seat} has {len(cards)} cards, expected 13")
            parsed.append((seat, cards))
        hands: dict[Seat, frozenset[Card]] = {}
        seen: dict[Card, Seat] = {}
        for seat, cards in parsed:
            for card in cards:
                if card in seen:
                    raise ValueError(f"not a deal: {card} is dealt twice ({seen[card]} and {seat})")
                seen[card] = seat
            hands[seat] = frozenset(cards)
        return cls({s: hands[s] for s in _SEAT_ORDER})


def parse_edition(text: object) -> str:
    value = str(text) if isinstance(text, int) else text
    if isinstance(value, str) and value in ("2017", "1997"):
        return value
    raise ValueError(f"not a laws edition: {text!r} (expected 2017 or 1997)")
