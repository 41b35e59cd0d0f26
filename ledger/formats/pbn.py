"""A reader for PBN 2.1 (Portable Bridge Notation) game records.

This is the reusable parser: it turns the text of a PBN file into
:class:`PbnRecord` objects (tags, section data, notes, commentary), and reads
from a record what the ledger needs: the calls, the tricks in the order they
were played, the result, and the record as ledger facts (LEDGER-SPEC sections
3 and 8).  The ``import`` command is built on it.

What the reader follows of PBN 2.1:

* A game ends at an empty line; it starts at its first tag.  Lines starting
  with ``%`` are escape lines (skipped); ``;`` to the end of the line and
  ``{...}`` (possibly over several lines) are commentary, kept in
  ``PbnRecord.commentary``.
* Tag pairs ``[Name "Value"]`` with the escapes ``\\"`` and ``\\\\``; the
  tokens after a tag, up to the next tag, are that tag's section data
  (``Auction``, ``Play``, ``OptimumResultTable``...).  ``[Note "n:text"]``
  tags belong to the section before them (see :func:`notes`).
* Tag value inheritance (4.8): ``"#"`` takes the value of the previous game;
  ``"##text"`` sets ``text`` for this game and every later game that does not
  give the tag (until the tag is given again).  Both are refused for the tags
  PBN forbids them on (Dealer, Vulnerable, Deal, Declarer, Contract, Auction,
  Play, Note).
* In the Auction section: calls (``Pass``/``P``, ``X``, ``XX``, ``1C``..``7NT``,
  ``1N``), suffix annotations (``!``, ``?``...), NAGs (``$n``), note references
  ``=n=`` and irregularities ``^x``, all attached to the call before them;
  ``AP`` (all pass); ``-`` and ``*`` end the calls; ``+`` is ignored; ``- ^S``
  is a seat's turn skipped (see :data:`SKIPPED`).
* In the Play section, each line (group of four tokens) is a trick whose
  cards are listed in the fixed column order of the seats starting from the
  ``Play`` tag's seat (the opening leader), not in play order.  ``-`` is no
  card, ``*`` ends the play; a card marked ``^L`` (a lead out of turn,
  accepted) leads its trick.
* Irregularity marks (PBN 2.1): ``^I`` ``^S`` after a call, ``^R`` ``^L`` after a
  card, ``^`` before the Declarer or the Result; :func:`record_to_facts` logs
  each as the facts it describes.

A record that cannot be read raises :class:`PbnError` (a ``ValueError``)
naming the record number, the line and the reason; ``read_pbn(text,
collect_errors=True)`` returns the good records and the errors instead.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Literal, overload

import attrs

from ledger.errors import BadInput

__all__ = [
    "PbnCall", "PbnError", "PbnNote", "PbnRecord",
    "auction", "auction_calls", "auction_irregularities", "claim_facts", "deal_hands",
    "declarer_marked", "is_complete_play", "notes", "play_irregularities", "play_tricks",
    "read_pbn", "record_result", "record_to_facts", "result_marked", "trick_winners",
]

SEATS = ("N", "E", "S", "W")
SUITS = ("S", "H", "D", "C")
RANKS = "AKQJT98765432"
STRAINS = ("C", "D", "H", "S", "NT")

#: Position of each card in a sorted hand: S, H, D, C, each from the ace down.
_CARD_ORDER = {card: i for i, card in enumerate(s + r for s in SUITS for r in RANKS)}

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
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

#: Tags on which PBN 2.1 (4.8) forbids "#" and "##".
NO_INHERITANCE = frozenset(
    {"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"})


class PbnError(BadInput):
    """A PBN record that cannot be read.

    ``record`` is the 1-based number of the game in the file, ``line`` the
    1-based line at fault (where known), ``reason`` what is wrong.
    """

    def __init__(self, reason: str, *, record: int | None = None, line: int | None = None,
                 field: str | None = None, value: object = None) -> None:
        self.reason = reason
        self.record = record
        self.line = line
        self.field = field
        self.value = value
        self.event_type = None
        Exception.__init__(self, self._render())

    def _render(self) -> str:
        where = []
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def at_line(self, line: int) -> PbnError:
        if self.line is not None:
            return self
        return PbnError(self.reason, record=self.record, line=line, field=self.field,
                        value=self.value)

    def __reduce__(self):  # picklable although __init__ takes keywords
        return (_rebuild_error, (self.reason, self.record, self.line, self.field, self.value))


def _rebuild_error(reason, record, line, field, value) -> PbnError:
    return PbnError(reason, record=record, line=line, field=field, value=value)


@attrs.frozen
class PbnNote:
    """A ``[Note "n:text"]`` tag; ``section`` is the tag it follows (``Auction``, ``Play``)."""

    section: str
    number: int
    text: str
    line: int


@attrs.frozen
class PbnRecord:
    """One game of a PBN file, tag values resolved (``#`` inheritance applied)."""

    number: int
    line: int
    tags: dict[str, str]
    sections: dict[str, list[str]]
    commentary: list[str]
    notes: list[PbnNote] = attrs.field(factory=list)
    tag_lines: dict[str, int] = attrs.field(factory=dict)

    def line_of(self, tag: str) -> int:
        """The line of ``tag`` in the file (the record's first line if absent)."""
        return self.tag_lines.get(tag, self.line)

    def error(self, reason: str, tag: str | None = None, value: object = None) -> PbnError:
        line = self.line_of(tag) if tag else self.line
        return PbnError(reason, record=self.number, line=line, field=tag, value=value)


@attrs.frozen
class PbnCall:
    """One call of the Auction section, with what PBN attaches to it."""

    seat: str
    call: str
    notes: tuple[int, ...] = ()
    irregularity: str | None = None
    annotations: tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# Reading the text: tokens, games, records

@attrs.frozen
class _Token:
    kind: Literal["tag", "data", "comment"]
    value: Any
    line: int


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_BARE = re.compile(r'[^\s\[\]{};"]+')
_ESCAPE = re.compile(r'\\(["\\])')


def _unescape(value: str) -> str:
    return _ESCAPE.sub(r"\1", value)


@attrs.define
class _RawGame:
    tokens: list[_Token] = attrs.field(factory=list)
    error: PbnError | None = None

    @property
    def has_tag(self) -> bool:
        return any(t.kind == "tag" for t in self.tokens)

    @property
    def first_line(self) -> int:
        for t in self.tokens:
            if t.kind == "tag":
                return t.line
        return self.tokens[0].line if self.tokens else 0


def _scan(text: str) -> Iterator[_RawGame]:
    """Split the text into games of tokens (tags, data, commentary).

    A game is yielded at the empty line after it once it holds a tag (or an
    error); what comes before its first tag stays with it.
    """
    return _scan_lines(text.lstrip("\ufeff").splitlines(), 0)


def _scan_lines(lines: list[str], start: int) -> Iterator[_RawGame]:
    game = _RawGame()
    brace: list[str] | None = None      # the commentary being read, if inside { }
    brace_line = 0
    for lineno in range(start + 1, len(lines) + 1):
        raw = lines[lineno - 1]
        if brace is None:
            if raw.startswith("%"):
                continue
            if not raw.strip():
                if game.has_tag or game.error is not None:
                    yield game
                    game = _RawGame()
                continue
        elif not raw:
            brace.append("")
        i = 0
        while i < len(raw):
            if brace is not None:
                end = raw.find("}", i)
                if end < 0:
                    brace.append(raw[i:])
                    break
                brace.append(raw[i:end])
                game.tokens.append(_Token("comment", "\n".join(brace).strip(), brace_line))
                brace = None
                i = end + 1
                continue
            ch = raw[i]
            if ch.isspace():
                i += 1
            elif ch == ";":
                game.tokens.append(_Token("comment", raw[i + 1:].strip(), lineno))
                break
            elif ch == "{":
                brace, brace_line = [], lineno
                i += 1
            elif ch == "[":
                m = _TAG.match(raw, i)
                if m is None:
                    if game.error is None:
                        game.error = PbnError(f"cannot read the tag pair {raw[i:].strip()!r}",
                                              line=lineno)
                    break
                game.tokens.append(_Token("tag", (m.group(1), _unescape(m.group(2))), lineno))
                i = m.end()
            elif ch == '"':
                m = _STRING.match(raw, i)
                if m is None:
                    if game.error is None:
                        game.error = PbnError("unterminated string", line=lineno)
                    break
                game.tokens.append(_Token("data", _unescape(m.group(1)), lineno))
                i = m.end()
            else:
                m = _BARE.match(raw, i)
                if m is None:   # a stray ']' or '}'
                    if game.error is None:
                        game.error = PbnError(f"unexpected {ch!r}", line=lineno)
                    i += 1
                    continue
                game.tokens.append(_Token("data", m.group(0), lineno))
                i = m.end()
    if brace is not None:
        # Unclosed commentary: this game is lost; read on after the first empty
        # line that follows the '{', so that the later games are still read.
        if game.error is None:
            game.error = PbnError("commentary opened with '{' is never closed", line=brace_line)
        yield game
        resume = next((i for i in range(brace_line, len(lines)) if not lines[i].strip()), None)
        if resume is not None:
            yield from _scan_lines(lines, resume + 1)
        return
    if game.has_tag or game.error is not None:
        yield game


_NOTE = re.compile(r"\s*(\d+)\s*:(.*)", re.S)


def _build_record(number: int, game: _RawGame, previous: dict[str, str],
                  sticky: dict[str, str], previous_sections: dict[str, list[str]]) -> PbnRecord:
    """One game's tokens -> a record, with tag inheritance resolved.

    Commentary before the game's first tag (after the previous game) is the
    game's own, as is anything else up to the empty line that ends it.
    """
    if game.error is not None:
        raise PbnError(game.error.reason, record=number, line=game.error.line)
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    sections: dict[str, list[str]] = {}
    found_notes: list[PbnNote] = []
    commentary: list[str] = []
    current: str | None = None
    for tok in game.tokens:
        if tok.kind == "comment":
            commentary.append(tok.value)
        elif tok.kind == "tag":
            name, value = tok.value
            if name == "Note":
                m = _NOTE.fullmatch(value)
                if m is None:
                    raise PbnError(f'a Note must read "n:text", got {value!r}', record=number,
                                   line=tok.line, field="Note", value=value)
                found_notes.append(PbnNote(current or "", int(m.group(1)), m.group(2).strip(),
                                           tok.line))
                continue
            if name in tags:
                raise PbnError(f"tag {name} appears twice in the game", record=number,
                               line=tok.line, field=name, value=value)
            tags[name], tag_lines[name], current = value, tok.line, name
            if name in ("Auction", "Play"):
                sections[name] = []
        else:
            if current is None:
                raise PbnError(f"section data {tok.value!r} before any tag", record=number,
                               line=tok.line)
            sections.setdefault(current, []).append(tok.value)

    for name, value in list(tags.items()):
        if value.startswith("#") and name in NO_INHERITANCE:
            raise PbnError(f'tag {name} may not inherit with "#"', record=number,
                           line=tag_lines[name], field=name, value=value)
        if value == "#":
            tags[name] = previous.get(name, "")
            if name not in sections and name in previous_sections:
                sections[name] = list(previous_sections[name])
        elif value.startswith("##"):
            tags[name] = sticky[name] = value[2:]
        elif name in sticky:
            sticky[name] = value
    for name, value in sticky.items():
        tags.setdefault(name, value)
    return PbnRecord(number=number, line=game.first_line, tags=tags, sections=sections,
                     commentary=commentary, notes=found_notes, tag_lines=tag_lines)


def _check(record: PbnRecord) -> None:
    """Read every part the ledger uses, so that a bad record fails on reading."""
    deal_hands(record)
    for tag in ("Dealer", "Auction", "Play", "Declarer"):
        _seat_tag(record, tag)
    _vulnerability(record)
    auction(record)
    play_tricks(record)
    record_result(record)


@overload
def read_pbn(text: str, *, collect_errors: Literal[False] = False) -> list[PbnRecord]: ...
@overload
def read_pbn(text: str, *,
             collect_errors: Literal[True]) -> tuple[list[PbnRecord], list[PbnError]]: ...


def read_pbn(text: str, *, collect_errors: bool = False):
    """Read the games of a PBN file.

    Raises :class:`PbnError` at the first record that cannot be read; with
    ``collect_errors=True``, returns ``(records, errors)``: the records read
    and one error per record that could not be (the others are still read).
    """
    records: list[PbnRecord] = []
    errors: list[PbnError] = []
    previous: dict[str, str] = {}
    previous_sections: dict[str, list[str]] = {}
    sticky: dict[str, str] = {}
    for number, game in enumerate(_scan(text), start=1):
        try:
            record = _build_record(number, game, previous, sticky, previous_sections)
            previous, previous_sections = dict(record.tags), dict(record.sections)
            _check(record)
        except PbnError as exc:
            if not collect_errors:
                raise
            errors.append(exc)
        else:
            records.append(record)
    if collect_errors:
        return records, errors
    return records


# ---------------------------------------------------------------------------
# Notation

def _next_seat(seat: str, steps: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + steps) % 4]


def _partner(seat: str) -> str:
    return _next_seat(seat, 2)


def _side(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def _card(token: str) -> str | None:
    """``SA``, ``s10``, ``♠A`` -> canonical ``SA``; ``None`` if not a card."""
    t = token.strip()
    if t[:1] in SUIT_SYMBOLS:
        t = SUIT_SYMBOLS[t[0]] + t[1:]
    t = t.upper().replace("10", "T")
    if len(t) == 2 and t[0] in SUITS and t[1] in RANKS:
        return t
    return None


def _seat_tag(record: PbnRecord, tag: str) -> str | None:
    """A tag holding a seat (Dealer, Declarer, Auction, Play): the seat, or None if empty."""
    value = record.tags.get(tag, "").strip().upper().lstrip("^")
    if value in ("", "?"):
        return None
    if value not in SEATS:
        raise record.error(f"{tag} must be one of N, E, S, W, got {record.tags[tag]!r}",
                           tag, record.tags[tag])
    return value


def _vulnerability(record: PbnRecord) -> str | None:
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
    bad = lambda reason: record.error(f"Deal: {reason}", "Deal", text)  # noqa: E731
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
        seat = _next_seat(first, i)
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


def _deal_string(hands: dict[str, list[str]]) -> str:
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


def auction(record: PbnRecord) -> list[PbnCall]:
    """The Auction section as calls in order, each with its seat, notes and marks."""
    if "Auction" not in record.tags:
        return []
    first = _seat_tag(record, "Auction")
    tokens = record.sections.get("Auction", [])
    if first is None:
        if tokens:
            raise record.error("the Auction tag names no seat", "Auction", "")
        return []
    calls: list[PbnCall] = []
    ended = False

    def bad(reason: str, token: str) -> PbnError:
        return record.error(f"Auction: {reason}", "Auction", token)

    def attach(token: str, **changes: Any) -> None:
        if not calls:
            raise bad(f"{token!r} before the first call", token)
        last = calls[-1]
        calls[-1] = attrs.evolve(last, **{
            k: (getattr(last, k) + v if isinstance(v, tuple) else v) for k, v in changes.items()})

    for i, token in enumerate(tokens):
        if (m := _NOTE_REF.fullmatch(token)) is not None:
            attach(token, notes=(int(m.group(1)),))
        elif token == "-" and not ended and i + 1 < len(tokens) \
                and tokens[i + 1].upper() == "^" + SKIPPED:
            # "- ^S": the turn of this seat was skipped (see SKIPPED); the mark attaches to it.
            calls.append(PbnCall(_next_seat(first, len(calls)), "-"))
        elif (m := _IRREGULARITY.fullmatch(token)) is not None:
            attach(token, irregularity=m.group(1).upper())
        elif _NAG.fullmatch(token) or _SUFFIX.fullmatch(token):
            attach(token, annotations=(token,))
        elif token == "+":
            continue
        elif token in ("-", "*"):
            ended = True
        elif ended:
            raise bad(f"{token!r} after the end of the calls", token)
        elif token.upper() == "AP":
            for _ in range(_closing_passes(calls)):
                calls.append(PbnCall(_next_seat(first, len(calls)), "Pass"))
            ended = True
        elif (m := _CALL.fullmatch(token)) is not None:
            annotations = (m.group(4),) if m.group(4) else ()
            calls.append(PbnCall(_next_seat(first, len(calls)), _canonical_call(m),
                                 annotations=annotations))
        else:
            raise bad(f"{token!r} is not a call", token)
    return calls


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

_CONTRACT = re.compile(r"(?i)([1-7])(nt|n|c|d|h|s)(x{0,2})")
_SCORE_PART = re.compile(r"(NS|EW)\s+(-?\d+)")


def _contract(record: PbnRecord) -> tuple[int, str, str] | None | Literal["Pass"]:
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
    return int(m.group(1)), "NT" if strain == "N" else strain, m.group(3).upper()


def _tricks(record: PbnRecord, declarer: str | None) -> int | None:
    value = record.tags.get("Result", "").strip().lstrip("^")  # "^9": see result_marked
    if value in ("", "?"):
        return None
    if value.isdigit() and int(value) <= 13:
        return int(value)
    m = _SCORE_PART.fullmatch(value)
    if m is not None and declarer is not None and 0 <= int(m.group(2)) <= 13:
        n = int(m.group(2))
        return n if m.group(1) == _side(declarer) else 13 - n
    raise record.error(f"Result must be the declarer's tricks (0 to 13), got {value!r}",
                       "Result", value)


def _score_ns(record: PbnRecord, declarer: str | None) -> int | None:
    value = record.tags.get("Score", "").strip()
    if value in ("", "?"):
        return None
    if re.fullmatch(r"-?\d+", value):
        if declarer is None:
            raise record.error("a Score without NS/EW needs a declarer", "Score", value)
        return int(value) if _side(declarer) == "NS" else -int(value)
    parts = _SCORE_PART.findall(value)
    if not parts or " ".join(f"{s} {n}" for s, n in parts) != " ".join(value.split()):
        raise record.error(f'Score must read like "NS 420" or "EW 100", got {value!r}',
                           "Score", value)
    by_side = {side: int(n) for side, n in parts}
    return by_side["NS"] if "NS" in by_side else -by_side["EW"]


def record_result(record: PbnRecord) -> dict[str, Any] | None:
    """The result the record states, from its Contract, Declarer, Result and Score tags.

    ``{"contract": "4S" | "Pass", "risk": "" | "X" | "XX", "declarer": "S" | None,
    "tricks": int | None, "score_ns": int | None}``; ``None`` if there is no
    Contract.  ``score_ns`` is from North-South's side (``Score "EW 100"`` gives
    -100); ``None`` when the record has no Score.
    """
    contract = _contract(record)
    if contract is None:
        return None
    declarer = _seat_tag(record, "Declarer")
    score_ns = _score_ns(record, declarer)
    if contract == "Pass":
        return {"contract": "Pass", "risk": "", "declarer": None, "tricks": None,
                "score_ns": score_ns}
    level, strain, risk = contract
    return {"contract": f"{level}{strain}", "risk": risk, "declarer": declarer,
            "tricks": _tricks(record, declarer), "score_ns": score_ns}


# ---------------------------------------------------------------------------
# Play

def _winner(trick: list[tuple[str, str]], trump: str | None) -> str:
    """Seat winning a complete trick: the highest trump, else the highest card of the suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        beats = (card[0] == best[0] and RANKS.index(card[1]) < RANKS.index(best[1])) or (
            card[0] == trump and best[0] != trump)
        if beats:
            best_seat, best = seat, card
    return best_seat


def _play_items(record: PbnRecord) -> tuple[list[str | None], dict[str, str]]:
    """The Play tokens as cards or None (``-``), up to ``*``; and the cards' ``^x`` marks."""
    items: list[str | None] = []
    marks: dict[str, str] = {}

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
            marks[last] = m.group(1).upper()
        elif token == "+":
            continue
        elif ended:
            raise bad(f"{token!r} after '*'", token)
        elif token == "-":
            items.append(None)
        else:
            card = _card(token.rstrip("!?"))
            if card is None:
                raise bad(f"{token!r} is not a card", token)
            items.append(card)
    return items, marks


def play_tricks(record: PbnRecord) -> list[list[tuple[str, str]]]:
    """The Play section as tricks in the order played: ``[[(seat, card), ...], ...]``.

    PBN lists each trick's cards in the fixed column order of the seats from
    the ``Play`` tag's seat (the opening leader); the leader of each later
    trick is the winner of the one before (highest trump of the ``Contract``
    strain, else highest card of the suit led), except that a card marked
    ``^L`` (a lead out of turn, accepted) leads its trick.  The last trick may
    be incomplete (a claim).
    """
    if "Play" not in record.tags:
        return []
    opening_leader = _seat_tag(record, "Play")
    items, marks = _play_items(record)
    if not any(items):
        return []
    if opening_leader is None:
        raise record.error("the Play tag names no seat", "Play", "")
    contract = _contract(record)
    if contract is None or contract == "Pass":
        raise record.error("a Play section needs a Contract to know the trump suit",
                           "Contract", record.tags.get("Contract"))
    trump = None if contract[1] == "NT" else contract[1]
    hands = deal_hands(record)
    owner = {card: seat for seat, cards in hands.items() for card in cards} if hands else None

    rows = [items[i:i + 4] for i in range(0, len(items), 4)]
    rows[-1] = rows[-1] + [None] * (4 - len(rows[-1]))
    columns = [_next_seat(opening_leader, i) for i in range(4)]
    tricks: list[list[tuple[str, str]]] = []
    played: set[str] = set()
    leader = opening_leader
    for number, row in enumerate(rows, start=1):
        by_seat = dict(zip(columns, row))
        out_of_turn = [seat for seat, card in by_seat.items()
                       if card is not None and marks.get(card) == LEAD_OUT_OF_TURN]
        if len(out_of_turn) > 1:
            raise record.error(f"Play: trick {number} has {len(out_of_turn)} cards marked "
                               "^L (lead out of turn); a trick has one lead", "Play")
        if out_of_turn:
            leader = out_of_turn[0]
        trick = [(seat, by_seat[seat]) for seat in (_next_seat(leader, k) for k in range(4))
                 if by_seat[seat] is not None]
        if tricks and len(tricks[-1]) < 4 and trick:
            raise record.error(f"Play: trick {number} follows an incomplete trick", "Play")
        for seat, card in trick:
            if card in played:
                raise record.error(f"Play: {card} is played twice", "Play", card)
            played.add(card)
            if owner is not None and owner[card] != seat:
                raise record.error(f"Play: trick {number}: {SEAT_NAMES[seat]} plays {card}, "
                                   f"which the deal gives to {SEAT_NAMES[owner[card]]}",
                                   "Play", card)
        if not trick:
            continue
        tricks.append(trick)  # type: ignore[arg-type]
        if len(trick) == 4:
            leader = _winner(trick, trump)  # type: ignore[arg-type]
    if len(tricks) > 13:
        raise record.error(f"Play: {len(tricks)} tricks, more than 13", "Play")
    return tricks  # type: ignore[return-value]


def play_irregularities(record: PbnRecord) -> dict[str, str]:
    """Irregularity marks of the play: card -> the letter of ``^x`` (``"R"``, ``"L"``...)."""
    return _play_items(record)[1]


def trick_winners(record: PbnRecord) -> list[str]:
    """The winner of each complete trick of :func:`play_tricks`."""
    contract = _contract(record)
    if not isinstance(contract, tuple):
        return []
    trump = None if contract[1] == "NT" else contract[1]
    return [_winner(t, trump) for t in play_tricks(record) if len(t) == 4]


# ---------------------------------------------------------------------------
# Facts

def _scoring(record: PbnRecord) -> str | None:
    value = record.tags.get("Scoring", "").split(";")[0].strip().upper()
    return SCORING.get(value)


def _names(record: PbnRecord, first: str, second: str) -> str | None:
    a, b = (record.tags.get(t, "").strip() for t in (first, second))
    names = [n for n in (a, b) if n and n != "?"]
    return " & ".join(names) if names else None


def _sides(record: PbnRecord, scoring: str | None) -> tuple[str | None, str | None]:
    """``ns``, ``ew``: teams in IMP scoring, else pairs (PairNS/PairEW, or the players)."""
    def tag(name: str) -> str | None:
        value = record.tags.get(name, "").strip()
        return value if value and value != "?" else None
    if scoring == "IMP" and (tag("HomeTeam") or tag("VisitTeam")):
        return tag("HomeTeam"), tag("VisitTeam")
    return (tag("PairNS") or _names(record, "North", "South"),
            tag("PairEW") or _names(record, "East", "West"))


def _board_number(record: PbnRecord) -> int:
    value = record.tags.get("Board", "").strip()
    if not value.isdigit() or int(value) < 1:
        raise record.error(f"Board must be a positive number, got {value!r}", "Board", value)
    return int(value)


def declarer_marked(record: PbnRecord) -> bool:
    """``[Declarer "^S"]``: S played the hand, but the auction made his partner
    declarer, who accepted the opening lead out of turn and became dummy (54A)."""
    return record.tags.get("Declarer", "").strip().startswith("^")


def result_marked(record: PbnRecord) -> bool:
    """``[Result "^9"]``: the tricks are those after a rectification or a ruling
    that the record does not describe, not the tricks as played."""
    return record.tags.get("Result", "").strip().startswith("^")


def claim_facts(declarer: str, tricks: list[list[tuple[str, str]]], trump: str | None,
                total: int) -> list[dict[str, Any]]:
    """The agreed claim that ends an incomplete play with ``total`` tricks for declarer.

    Declarer claims (``ClaimMade``) the tricks his side takes of the remaining
    ones (``total`` less the complete tricks it has won; an incomplete last
    trick is one of the remaining), and his LHO agrees (``ClaimAgreed``).
    Raises ``ValueError`` when ``total`` cannot be reached from the play.
    """
    complete = [t for t in tricks if len(t) == 4]
    won = sum(1 for t in complete if _side(_winner(t, trump)) == _side(declarer))
    remaining = 13 - len(complete)
    take = total - won
    if not 0 <= take <= remaining:
        raise ValueError(f"declarer's side has won {won} of the {len(complete)} tricks played "
                         f"and {remaining} remain: {total} tricks in all cannot be reached")
    return [{"type": "ClaimMade", "seat": declarer, "tricks": take},
            {"type": "ClaimAgreed", "by": _next_seat(declarer)}]


def _passed_out_unrecorded(record: PbnRecord) -> bool:
    """``Contract "Pass"`` with a Score but no Auction: passed out, the calls not written."""
    contract = _contract(record)
    return contract == "Pass" and not auction(record) and \
        record.tags.get("Score", "").strip() not in ("", "?")


def record_to_facts(record: PbnRecord, tournament: str) -> list[dict[str, Any]]:
    """The record as ledger facts (LEDGER-SPEC 3, JSON Lines form).

    * ``BoardOpened`` from Board, Dealer, Vulnerable, Deal, Scoring, Table,
      Room and the pair or team names (optional fields left out when the
      record does not give them).
    * One ``CallPlaced`` per call; a call with a note (``=n=``) is followed by
      ``ExplanationGiven`` by the caller's partner with the 1-based
      ``call_index`` (counting the calls logged).  A call marked ``^I`` is
      logged as called (LHO's next call accepts it, 27A1); a turn marked
      ``^S`` is skipped: no call is logged for it, and the next seat's call
      is the one out of rotation that LHO accepted (29A).
      ``Contract "Pass"`` with a Score but no Auction is four passes from
      the dealer (the only auction that passes a board out); without a Score
      (an unplayed board) only ``BoardOpened`` is logged.
    * One ``CardPlayed`` per card in the order played.  A lead marked ``^L``
      (out of turn, accepted) leads its trick; the next card, played to it by
      the next player, is the acceptance (53A; 54B for the opening lead).
      ``[Declarer "^S"]``: the auction made South's partner declarer, who
      accepted the opening lead out of turn by spreading his own hand
      (``DummySpreadStarted`` with his seat, 54A): South plays the hand.
      ``^R`` (a revoke not noticed) is the card as played.
    * An incomplete play (``*``, or no Play section) with a Result: declarer
      claims the tricks his side takes of the remaining ones and his LHO
      agrees (:func:`claim_facts`).
    * ``[Result "^n"]``: a ``RulingGiven`` by the director saying that the
      record's result is after a rectification it does not describe.
    """
    board = _board_number(record)
    hands = deal_hands(record)
    if hands is None:
        raise record.error("the record has no Deal", "Deal")
    dealer = _seat_tag(record, "Dealer")
    if dealer is None:
        raise record.error("the record has no Dealer", "Dealer")
    vulnerability = _vulnerability(record)
    if vulnerability is None:
        raise record.error("the record has no Vulnerable tag", "Vulnerable")
    scoring = _scoring(record)
    ns, ew = _sides(record, scoring)
    table = record.tags.get("Table", "").strip()
    opened: dict[str, Any] = {
        "type": "BoardOpened", "tournament": tournament, "board": board,
        "table": table if table and table != "?" else str(record.number),
        "dealer": dealer, "vulnerability": vulnerability, "deal": _deal_string(hands),
    }
    optional = {"ns": ns, "ew": ew, "scoring": scoring,
                "room": ROOMS.get(record.tags.get("Room", "").strip().upper())}
    opened.update({k: v for k, v in optional.items() if v is not None})

    facts = [opened]
    calls = auction(record)
    if _passed_out_unrecorded(record):
        calls = [PbnCall(_next_seat(dealer, i), "Pass") for i in range(4)]
    note_texts = notes(record, "Auction")
    logged = 0
    for call in calls:
        if call.irregularity == SKIPPED:
            continue
        facts.append({"type": "CallPlaced", "seat": call.seat, "call": call.call})
        logged += 1
        for n in call.notes:
            if n in note_texts:
                facts.append({"type": "ExplanationGiven", "by": _partner(call.seat),
                              "call_index": logged, "text": note_texts[n]})

    result = record_result(record)
    contract = _contract(record)
    tricks = play_tricks(record)
    declarer = _seat_tag(record, "Declarer")
    marked = declarer_marked(record)
    if marked and declarer is None:
        raise record.error('Declarer "^" must name the seat that played the hand', "Declarer",
                           record.tags.get("Declarer"))
    for number, trick in enumerate(tricks, start=1):
        for position, (seat, card) in enumerate(trick):
            facts.append({"type": "CardPlayed", "seat": seat, "card": card})
            if number == 1 and position == 0 and marked:
                # 54A: the auction's declarer spreads his own hand and becomes dummy.
                facts.append({"type": "DummySpreadStarted", "seat": _partner(declarer)})

    complete = len(tricks) == 13 and all(len(t) == 4 for t in tricks)
    if logged and isinstance(contract, tuple) and result is not None \
            and result["tricks"] is not None and not complete:
        if declarer is None:
            raise record.error("a claimed result needs the Declarer tag", "Declarer",
                               record.tags.get("Declarer"))
        trump = None if contract[1] == "NT" else contract[1]
        try:
            facts.extend(claim_facts(declarer, tricks, trump, result["tricks"]))
        except ValueError as exc:
            raise record.error(f"Result: {exc}", "Result", record.tags.get("Result")) from None
    if result_marked(record) and result is not None and result["tricks"] is not None:
        facts.append({"type": "RulingGiven", "laws": [],
                      "text": f"{RESULT_RULING_PREFIX}{result['tricks']} tricks for declarer, "
                              "after a rectification or ruling the record does not describe"})
    return facts


#: The text that starts the RulingGiven logged for a ``[Result "^n"]`` (the export reads it).
RESULT_RULING_PREFIX = 'PBN Result "^": '


def is_complete_play(record: PbnRecord) -> bool:
    """True when the Play section holds all 13 tricks of four cards."""
    tricks = play_tricks(record)
    return len(tricks) == 13 and all(len(t) == 4 for t in tricks)
