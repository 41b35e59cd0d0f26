"""Terminal rendering of the table state (LEDGER-SPEC section 5) and of a stream's log (section 2).

Pure presentation: every function takes plain dicts (the JSON documents of the spec) and
returns ``rich`` renderables; nothing here reads the store, the clock or the environment.
The only output is :func:`print_renderable`, on the console it is given.

Conventions, for the directors and committees who read it:

* cards and calls with suit symbols (``♠K``, ``1♠``, ``3NT``), ``10`` for the ten;
* the compass shows the four original hands; cards already played are dimmed and struck.
  On a console without colours (a pipe, a file) a played card is written in brackets,
  ``♠ (5) 4 3``: plain text, no Unicode strikethrough;
* the auction grid reads W N E S, the first call in the dealer's column;
* rulings, options and irregularities in plain words with their Law citation.

Extension keys of the state document relied on (added by the ledger to section 5):
``board.deal`` (the original PBN deal), ``board.ns``, ``board.ew``, ``board.scoring``, and
irregularity entries of kind ``"unprocessed"`` (``type``, ``detail``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, NewLine, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ledger import laws  # the families' words
from ledger.bridge import RANKS_HIGH_FIRST, SEAT_LETTERS, SEAT_NAMES, SUIT_LETTERS
from ledger.laws.calls import UNTIL_WORDS
from ledger.laws.cards import EXPOSED_HOW
from ledger.laws.base import words_of
from ledger.laws.leads import OUT_OF_TURN, OUT_OF_TURN_HOW, OUT_OF_TURN_STATUS
from ledger.laws.penalty import PENALTY_KINDS
from ledger.laws.premature import PREMATURE_STATUS, PREMATURE_WORDS
from projections.vocab import IrregularityKind, OutOfTurnKind, Phase

__all__ = ["render_state", "render_log", "print_renderable", "card_text", "call_text",
           "render_checks", "render_travellers", "render_standings", "render_open"]

SEATS = SEAT_LETTERS  # the render reads the document's letters
GRID_ORDER = ("W", "N", "E", "S")
SUITS = SUIT_LETTERS
RANKS = RANKS_HIGH_FIRST
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()}
SUIT_STYLES = {"S": "", "H": "red", "D": "red", "C": ""}
STRAIN_SYMBOLS = {**SUIT_SYMBOLS, "NT": "NT", "N": "NT"}

PLAYED_STYLE = "dim strike"
WINNER_STYLE = "bold"
VOID = "—"
ELLIPSIS = "…"

PHASES = {Phase.AUCTION: "auction", Phase.OPENING_LEAD: "opening lead", Phase.PLAY: "play", Phase.ENDED: "ended"}
SCORING = {"MP": "pairs (MP)", "IMP": "teams (IMP)"}


def _joined(*tables: Mapping[Any, Any]) -> dict[Any, Any]:
    """One table of words from the families' (each keeps its own); a key two families would
    word differently is an error at import."""
    out: dict[Any, str] = {}
    for table in tables:
        for key, words in table.items():
            if out.setdefault(key, words) != words:
                raise ValueError(f"{key!r}: worded differently by two families")
    return out


CARD_RULING_WORDS = _joined(*(words_of(family.words.card_rulings) for family in laws.FAMILIES))
"""How each card ruling (``CardRuling``, the document's ``card_rulings``) reads: the families' words."""
CALL_RULING_WORDS = _joined(*(words_of(family.words.call_rulings) for family in laws.FAMILIES))
"""How each call ruling (``CallRuling``, the document's ``call_rulings``) reads: the families' words."""
OUT_OF_TURN_WORDS = words_of(OUT_OF_TURN)
"""How each lead or card out of turn (``OutOfTurnKind``) reads: the leads family's words."""
IRREGULARITY_WORDS = _joined(*(family.words.irregularities for family in laws.FAMILIES))
"""How each irregularity (``IrregularityKind``) reads: the words of the family that records it."""
PENALTY_KIND_WORDS = words_of(PENALTY_KINDS)
"""What each kind of penalty card (``ledger.laws.penalty.PenaltyKind``) obliges, said after the
card: the penalty cards family's words."""
ORDINARY_PLAY_LAWS = {"45A", "45B"}
ORDINARY_CALL_LAW = "FFB:57.3"
OPTION_WORDS = _joined(*(family.words.options for family in laws.FAMILIES))
"""Plain words for the options, said after their ids: the families' (calls 25B, 26; leads 53 to
55; penalty cards 50D2, 52; revokes 62C1 and dummy 43B2a)."""
OPTION_WORDS_BY_LAW = _joined(*(family.words.options_by_law for family in laws.FAMILIES))
"""Words that depend on the Law that offered the option (its number, edition stripped): the families'."""


# --- notation -------------------------------------------------------------------------


def _parse_card(card: str) -> tuple[str, str] | None:
    """``"SA"``, ``"s10"``, ``"♠A"`` -> ``("S", "A")``; None if it is not a card."""
    if not isinstance(card, str) or len(card) < 2:
        return None
    suit = SYMBOL_SUITS.get(card[0], card[0].upper())
    rank = card[1:].upper()
    rank = "T" if rank == "10" else rank
    if suit not in SUITS or len(rank) != 1 or rank not in RANKS:
        return None
    return suit, rank


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def card_text(card: str | None) -> str:
    """A card as players read it: ``"SK"`` -> ``"♠K"``, ``"HT"`` -> ``"♥10"``."""
    parsed = _parse_card(card) if card else None
    if parsed is None:
        return str(card) if card is not None else "?"
    suit, rank = parsed
    return SUIT_SYMBOLS[suit] + _rank_text(rank)


def _suit_text(suit: str | None) -> str:
    if not suit:
        return "?"
    return SUIT_SYMBOLS.get(suit.upper(), suit)


def call_text(call: str | None) -> str:
    """A call as players read it: ``"1S"`` -> ``"1♠"``, ``"3NT"``, ``"Pass"``, ``"X"``."""
    if call is None:
        return "?"
    upper = call.upper()
    if upper in ("P", "PASS"):
        return "Pass"
    if upper in ("X", "XX"):
        return upper
    if len(upper) >= 2 and upper[0] in "1234567" and upper[1:] in STRAIN_SYMBOLS:
        return upper[0] + STRAIN_SYMBOLS[upper[1:]]
    return call


def _contract_text(contract: str | None, risk: str | None) -> str:
    """``("4S", "X")`` -> ``"4♠X"``; a passed-out board -> ``"Passed out"``."""
    if contract is None:
        return "?"
    if call_text(contract) == "Pass":
        return "Passed out"
    return call_text(contract) + (risk or "")


def _seat(seat: str | None) -> str:
    return seat if seat else "—"


def _titled(title: str, lines: list[str]) -> Text:
    return Text.assemble((title, "bold"), "\n", "\n".join(lines))


def _law(law: str | None) -> str:
    return f" — {law}" if law else ""


def _word(table: Mapping[Any, str], key: Any, default: str) -> str:
    """``table``'s words for a document's value ``key`` (a string, or absent), else ``default``."""
    return table.get(key, default) if isinstance(key, str) else default


def _plural(count: int | None, word: str) -> str:
    if count is None:
        return f"? {word}s"
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# --- hands ----------------------------------------------------------------------------


def _parse_deal(deal: str | None) -> dict[str, list[str] | None] | None:
    """The hands of a PBN deal string, by seat; a hand written ``-`` is unknown (None)."""
    if not isinstance(deal, str) or ":" not in deal:
        return None
    first, _, rest = deal.strip().partition(":")
    first = first.strip().upper()
    hands_text = rest.split()
    if first not in SEATS or len(hands_text) != 4:
        return None
    start = SEATS.index(first)
    hands: dict[str, list[str] | None] = {}
    for offset, text in enumerate(hands_text):
        seat = SEATS[(start + offset) % 4]
        if text == "-":
            hands[seat] = None
            continue
        suits = text.split(".")
        if len(suits) != 4:
            return None
        cards = []
        for suit, ranks in zip(SUITS, suits):
            for rank in ranks.upper().replace("10", "T"):
                if rank not in RANKS:
                    return None
                cards.append(suit + rank)
        hands[seat] = cards
    return hands


def _remaining(doc: Mapping[str, Any]) -> dict[str, set[str]]:
    """The cards not yet played, by seat, for the seats the document gives."""
    hands = doc.get("hands") or {}
    remaining: dict[str, set[str]] = {}
    for seat, cards in hands.items():
        parsed = (_parse_card(card) for card in cards or [])
        remaining[seat.upper()] = {suit + rank for suit, rank in filter(None, parsed)}
    return remaining


def _original_hands(doc: Mapping[str, Any]) -> dict[str, list[str] | None]:
    """The four original hands: from ``board.deal``, else rebuilt from hands and tricks."""
    parsed = _parse_deal((doc.get("board") or {}).get("deal"))
    if parsed is not None:
        return parsed
    rebuilt: dict[str, set[str]] = {seat: set(cards) for seat, cards in _remaining(doc).items()}
    for trick in doc.get("tricks") or []:
        for played in trick.get("cards") or []:
            card = _parse_card(played.get("card"))
            if card and played.get("seat"):
                rebuilt.setdefault(played["seat"], set()).add("".join(card))
    return {seat: sorted(rebuilt[seat]) if seat in rebuilt else None for seat in SEATS}


def _ranks_in_suit(cards: Iterable[str], suit: str) -> list[str]:
    return sorted((card[1] for card in cards if card[0] == suit), key=RANKS.index)


def _played_piece(text: str, played: bool, plain: bool) -> Text:
    if not played:
        return Text(text)
    if plain:  # piped or a file: plain text, no combining strike (which breaks columns and copying)
        return Text(f"({text})")
    return Text(text, style=PLAYED_STYLE)


def _suit_line(cards: list[str] | None, suit: str, left: set[str] | None, plain: bool) -> Text:
    """One suit of a hand: ``♠ A K 10 2``; played ranks struck; ``—`` for a void."""
    line = Text(SUIT_SYMBOLS[suit], style=SUIT_STYLES[suit])
    line.append(" ")
    if cards is None:
        return line.append("?")
    ranks = _ranks_in_suit(cards, suit)
    if not ranks:
        return line.append(VOID)
    for index, rank in enumerate(ranks):
        if index:
            line.append(" ")
        played = left is not None and suit + rank not in left
        line.append_text(_played_piece(_rank_text(rank), played, plain))
    return line


def _hand_label(seat: str, doc: Mapping[str, Any]) -> Text:
    label = Text.assemble((SEAT_NAMES[seat], "bold"))
    contract = doc.get("contract") or {}
    if contract.get("declarer") == seat:
        label.append(" (declarer)", style="italic")
    elif doc.get("dummy") == seat:
        label.append(" (dummy)", style="italic")
    return label


def _hand_lines(seat: str, doc: Mapping[str, Any], hands: Mapping[str, list[str] | None],
                remaining: Mapping[str, set[str]], plain: bool) -> list[Text]:
    cards = hands.get(seat)
    left = remaining.get(seat)
    return [_hand_label(seat, doc)] + [_suit_line(cards, suit, left, plain) for suit in SUITS]


def _centre_box(board: Mapping[str, Any]) -> list[Text]:
    inner = [f"Board {board.get('number', '?')}",
             f"Dealer {_seat(board.get('dealer'))}",
             f"Vul {board.get('vulnerability') or '?'}"]
    width = max(len(line) for line in inner) + 2
    lines = [Text("┌" + "─" * width + "┐")]
    lines += [Text("│" + line.center(width) + "│") for line in inner]
    lines.append(Text("└" + "─" * width + "┘"))
    return lines


def _compass_grid(doc: Mapping[str, Any], plain: bool) -> Table:
    board = doc.get("board") or {}
    hands = _original_hands(doc)
    remaining = _remaining(doc)
    north, east, south, west = (_hand_lines(seat, doc, hands, remaining, plain) for seat in SEATS)
    grid = Table.grid(padding=(0, 2))
    for _ in range(3):
        grid.add_column(no_wrap=True)
    empty = Text("")
    for line in north:
        grid.add_row(empty, line, empty)
    for left, centre, right in zip(west, _centre_box(board), east):
        grid.add_row(left, centre, right)
    for line in south:
        grid.add_row(empty, line, empty)
    return grid


class _Compass:
    """The compass diagram; played cards struck, or in brackets on consoles without colour."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc

    @staticmethod
    def _plain(console: Console) -> bool:
        return console.color_system is None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield _compass_grid(self.doc, self._plain(console))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, _compass_grid(self.doc, self._plain(console)))


# --- sections of the state ------------------------------------------------------------


def _header(doc: Mapping[str, Any]) -> Text:
    board = doc.get("board") or {}
    header = Text()
    header.append(f"{board.get('tournament') or '?'} · ")
    header.append(f"Board {board.get('number', '?')}", style="bold")
    header.append(f" · Table {board.get('table') or '?'}")
    header.append(f" · Dealer {_seat(board.get('dealer'))}")
    header.append(f" · Vul {board.get('vulnerability') or '?'}")
    header.append(f" · Laws {doc.get('laws') or '?'}")
    header.append(f" · Phase {_word(PHASES, doc.get('phase'), doc.get('phase') or '?')}")
    header.append(f" · Turn {_seat(doc.get('turn'))}")
    header.append(f" · seq {doc.get('seq', '?')}")
    extras = []
    if board.get("ns"):
        extras.append(f"NS {board['ns']}")
    if board.get("ew"):
        extras.append(f"EW {board['ew']}")
    if board.get("scoring"):
        extras.append(f"scoring {SCORING.get(board['scoring'], board['scoring'])}")
    if extras:
        header.append("\n" + " · ".join(extras), style="dim")
    return header


def _auction_cells(doc: Mapping[str, Any]) -> list[list[Text]]:
    """Rows of W N E S cells; each call in its seat's column, a new row when rotation wraps."""
    board = doc.get("board") or {}
    entries = [(entry.get("seat"), Text(call_text(entry.get("call")) + ("*" if _by_law(entry) else "")))
               for entry in doc.get("auction") or []]
    if doc.get("phase") == Phase.AUCTION and doc.get("turn") in GRID_ORDER:
        entries.append((doc["turn"], Text("?", style="bold")))
    rows: list[list[Text]] = []
    column = GRID_ORDER.index(board["dealer"]) if board.get("dealer") in GRID_ORDER else 0
    row = [Text("") for _ in GRID_ORDER]
    first = True
    for seat, cell in entries:
        target = GRID_ORDER.index(seat) if seat in GRID_ORDER else column
        if not first and target <= column:
            rows.append(row)
            row = [Text("") for _ in GRID_ORDER]
        row[target] = cell
        column, first = target, False
    rows.append(row)
    return rows


def _by_law(entry: Mapping[str, Any]) -> bool:
    """A call in the auction by a Law other than the ordinary one (FFB 57.3)."""
    return bool(entry.get("law")) and entry.get("law") != ORDINARY_CALL_LAW


def _auction_notes(doc: Mapping[str, Any]) -> Text | None:
    notes = [f"{_seat(entry.get('seat'))} {call_text(entry.get('call'))} ({entry['law']})"
             for entry in doc.get("auction") or [] if _by_law(entry)]
    if not notes:
        return None
    return Text("* stands by law: " + "; ".join(notes), style="dim")


def _auction(doc: Mapping[str, Any]) -> Table:
    table = Table(title="Auction", title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False, padding=(0, 1))
    for seat in GRID_ORDER:
        table.add_column(seat, min_width=4, no_wrap=True)
    for row in _auction_cells(doc):
        table.add_row(*row)
    return table


_CALL_TOKEN = re.compile(r"\b[1-7](?:NT|[CDHS])\b")


def _with_call_symbols(text: str) -> str:
    """Calls named in a reason (``"1C stands"``) as players read them (``"1♣ stands"``)."""
    return _CALL_TOKEN.sub(lambda m: call_text(m.group(0)), text)


def _not_made_line(entry: Mapping[str, Any], what: str, verdict: str) -> str:
    shown = call_text(entry.get("call")) if what == "call" else card_text(entry.get("card"))
    reason = entry.get("reason") or "no reason given"
    if what == "call":
        reason = _with_call_symbols(reason)
    else:
        reason = _with_card_symbols(reason)
    return (f"seq {entry.get('seq', '?')} {_seat(entry.get('seat'))} {shown}: {verdict} ({reason})"
            f"{_law(entry.get('law'))}")


def _not_made(doc: Mapping[str, Any]) -> Text | None:
    calls, plays = doc.get("calls_not_made") or [], doc.get("plays_not_made") or []
    lines = [_not_made_line(entry, "call", "not a call") for entry in calls]
    lines += [_not_made_line(entry, "card", "not played") for entry in plays]
    if not lines:
        return None
    return _titled("Calls and plays that do not count", lines)


def _call_ruling_line(entry: Mapping[str, Any]) -> str:
    seat = entry.get("seat")
    words = {
        "seat": _seat(seat), "call": call_text(entry.get("call")), "first": call_text(entry.get("first_call")),
        "detail": _with_call_symbols(entry.get("detail") or ""), "partner": _word(PARTNER, seat, "partner"),
        "lho": SEATS[(SEATS.index(seat) + 1) % 4] if seat in SEATS else "LHO",
        "side": "NS" if seat in ("N", "S") else "EW",
    }
    ruling = entry.get("ruling") or ""
    template = CALL_RULING_WORDS.get(ruling, "{call}: " + ruling.replace("_", " ") + " {detail}")
    return f"seq {entry.get('seq', '?')} {words['seat']} {template.format(**words).rstrip()}{_law(entry.get('law'))}"


def _call_rulings(doc: Mapping[str, Any]) -> Text | None:
    lines = [_call_ruling_line(entry) for entry in doc.get("call_rulings") or []]
    if not lines:
        return None
    return _titled("Calls ruled", lines)


def _passed_out(doc: Mapping[str, Any]) -> bool:
    result = doc.get("result") or {}
    if result.get("contract") is not None and call_text(result["contract"]) == "Pass":
        return True
    calls = [call_text(entry.get("call")) for entry in doc.get("auction") or []]
    return len(calls) == 4 and all(call == "Pass" for call in calls)


def _contract_line(doc: Mapping[str, Any]) -> Text | None:
    contract = doc.get("contract")
    if contract:
        level, strain = contract.get("level"), contract.get("strain")
        text = _contract_text(f"{level}{strain}", contract.get("risk"))
        declarer = _seat(contract.get("declarer"))
        line = Text.assemble(("Contract: ", "bold"), f"{text} by {declarer}")
        if doc.get("dummy"):
            line.append(f", dummy {doc['dummy']}")
        return line
    if _passed_out(doc):
        return Text.assemble(("Contract: ", "bold"), "Passed out")
    return None


def _declaring_side(doc: Mapping[str, Any]) -> set[str] | None:
    declarer = (doc.get("contract") or {}).get("declarer")
    return {declarer, PARTNER[declarer]} if declarer in PARTNER else None


def _is_ordinary(law: str | None) -> bool:
    return law is None or law.rpartition(":")[2] in ORDINARY_PLAY_LAWS


def _trick_cells(trick: Mapping[str, Any], notes: list[str]) -> list[Text]:
    cells = []
    for played in (trick.get("cards") or [])[:4]:
        cell = Text(f"{_seat(played.get('seat'))} {card_text(played.get('card'))}")
        if played.get("seat") and played.get("seat") == trick.get("winner"):
            cell.stylize(WINNER_STYLE)
        if not _is_ordinary(played.get("law")):
            cell.append("*")
            notes.append(f"trick {trick.get('number', '?')} {_seat(played.get('seat'))} "
                         f"{card_text(played.get('card'))} ({played['law']})")
        cells.append(cell)
    return cells + [Text("")] * (4 - len(cells))


def _tricks(doc: Mapping[str, Any]) -> Group | None:
    tricks = doc.get("tricks") or []
    if not tricks:
        return None
    side = _declaring_side(doc)
    table = Table(title="Play", title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Led by", no_wrap=True)
    for heading in ("1st", "2nd", "3rd", "4th"):
        table.add_column(heading, min_width=5, no_wrap=True)
    table.add_column("Won by", no_wrap=True)
    if side:
        table.add_column("Decl–Def", justify="right", no_wrap=True)
    notes: list[str] = []
    declarer_count = defenders_count = 0
    for trick in tricks:
        winner = trick.get("winner")
        row = [Text(str(trick.get("number", "?"))), Text(_seat(trick.get("leader")))]
        row += _trick_cells(trick, notes)
        row.append(Text(winner or ELLIPSIS, style=WINNER_STYLE if winner else ""))
        if side:
            if winner in side:
                declarer_count += 1
            elif winner:
                defenders_count += 1
            row.append(Text(f"{declarer_count}–{defenders_count}" if winner else ""))
        table.add_row(*row)
    parts: list[RenderableType] = [table]
    if notes:
        parts.append(Text("* counts as played by law: " + "; ".join(notes), style="dim"))
    won = doc.get("tricks_won")
    if won:
        parts.append(Text(f"Tricks won: declarer {won.get('declarer', 0)}, "
                          f"defenders {won.get('defenders', 0)}"))
    return Group(*parts)


def _penalty_card_line(entry: Mapping[str, Any]) -> str:
    kind = (entry.get("kind") or "").capitalize() or "Penalty"
    rule = _word(PENALTY_KIND_WORDS, entry.get("kind"), "") if entry.get("law") else ""
    return (f"{kind} penalty card: {_seat(entry.get('seat'))} {card_text(entry.get('card'))}"
            f"{_law(entry.get('law'))}{rule}")


def _premature_line(entry: Mapping[str, Any]) -> str:
    """A premature lead or play by a defender (Law 57; 1997 53B / 2017 53C) in a director's words."""
    words = _word(PREMATURE_WORDS, entry.get("kind"), "played prematurely").format(trick=entry.get("trick"))
    status = _word(PREMATURE_STATUS, entry.get("status"), "")
    if entry.get("status") == "chosen":
        chosen = OPTION_WORDS_BY_LAW.get(("57A", entry.get("option")), entry.get("option") or "")
        suit = f" ({_suit_text(entry['suit'])})" if entry.get("suit") else ""
        status = f"declarer chose: {chosen}{suit}"
    via = entry.get("via")
    how = (f"played to declarer's lead out of turn before the other defender chose ({via}), which makes the "
           "lead stand; " if via else "")
    tail = f"; {status}" if status else ""
    return (f"Premature play: {_seat(entry.get('seat'))} {card_text(entry.get('card'))} (seq {entry.get('seq', '?')}): "
            f"{how}{words}{tail}{_law(entry.get('law'))}")


def _play_restriction_line(entry: Mapping[str, Any]) -> str:
    seat = _seat(entry.get("seat"))
    suit = _suit_text(entry.get("suit")) if entry.get("suit") else ""
    modes = {"highest": "must play his highest card of the suit led",
             "lowest": "must play his lowest card of the suit led",
             "suit": f"must play a {suit} if he cannot follow suit",
             "not_suit": f"may not play a {suit} if he cannot follow suit"}
    what = _word(modes, entry.get("mode"), str(entry.get("mode")))  # an unknown mode as it is
    return f"Play restriction: {seat} {what} to this trick{_law(entry.get('law'))}"


PLAY_RULING_KEYS = ("leads_out_of_turn", "premature_plays", "play_restrictions", "penalty_cards")
"""The state's play rulings the case file also gives in words."""


def play_ruling_words(state: Mapping[str, Any]) -> list[str]:
    """The play rulings (leads out of turn, premature plays, play restrictions, penalty cards)
    in a director's words with their Laws, for the case file."""
    lines = dict(RULING_LINES)
    out = []
    for key in PLAY_RULING_KEYS:
        for entry in state.get(key) or ():
            line = lines[key](entry)
            if line:
                out.append(line)
    return out


def _lead_restriction_line(entry: Mapping[str, Any]) -> str:
    seat, suit = _seat(entry.get("seat")), _suit_text(entry.get("suit"))
    verb = "must not lead" if entry.get("mode") == "must_not" else "must lead"
    lasts = {"next_lead": "at the next lead",
             "while_on_lead": f"for as long as {seat} retains the lead"}
    when = _word(lasts, entry.get("lasts"), "")
    return f"Lead restriction: {seat} {verb} {suit} {when}".rstrip()


def _must_pass_line(entry: Mapping[str, Any]) -> str:
    until = _word(UNTIL_WORDS, entry.get("until"), f"until {entry.get('until')}")
    return f"Must pass: {_seat(entry.get('seat'))} must pass {until}"


def _cap_line(entry: Mapping[str, Any]) -> str:
    cap = entry.get("max")
    words = "average minus (A-)" if cap == "A-" else str(cap)
    return f"Score capped: {_seat(entry.get('side'))} can score at most {words}"


def option_words(option: str, law: str | None) -> str | None:
    """What an option means under the Law that offered it (``accept`` under 27A1 is the
    insufficient bid, under 53 to 55 the lead), else its general words."""
    bare = (law or "").split(":", 1)[-1]
    number = re.match(r"\d+", bare)
    for key in (bare, number.group(0) if number else None):
        if key and (key, option) in OPTION_WORDS_BY_LAW:
            return OPTION_WORDS_BY_LAW[(key, option)]
    return OPTION_WORDS.get(option)


def _pending_line(entry: Mapping[str, Any]) -> str:
    law = f" ({entry['law']})" if entry.get("law") else ""
    options = ", ".join(f"{o} ({words})" if (words := option_words(o, entry.get("law"))) else o
                        for o in entry.get("options") or []) or "no option listed"
    return f"Pending: {_seat(entry.get('to'))} to choose{law}: {options}"


def _irregularity_line(entry: Mapping[str, Any]) -> str:
    if entry.get("kind") == IrregularityKind.UNPROCESSED:
        offender = f", offender {entry['offender']}" if entry.get("offender") else ""
        detail = f": {entry['detail']}" if entry.get("detail") else ""
        return (f"Unprocessed (director to rule): {entry.get('type') or 'event'} at seq "
                f"{entry.get('seq', '?')}{offender}{detail}{_law(entry.get('law'))}")
    kind = entry.get("kind") or "irregularity"
    words = IRREGULARITY_WORDS.get(kind, kind.replace("_", " "))
    facts = [f"seq {entry['seq']}"] if entry.get("seq") is not None else []
    if entry.get("trick") is not None:
        facts.append(f"trick {entry['trick']}")
    if entry.get("established") is not None:
        facts.append("established" if entry["established"] else "not established")
    by = f" by {entry['offender']}" if entry.get("offender") else ""
    where = f" ({', '.join(facts)})" if facts else ""
    detail = f": {entry['detail']}" if entry.get("detail") else ""
    return f"Irregularity: {words}{by}{where}{detail}{_law(entry.get('law'))}"


def _transfer_line(entry: Mapping[str, Any]) -> str:
    tricks = entry.get("tricks", 0)
    return (f"Tricks transferred: {_plural(tricks, 'trick')} to {entry.get('to') or '?'}"
            f"{_law(entry.get('law'))}")


def _revoke_line(entry: Mapping[str, Any]) -> str:
    """A revoke in plain words with its Laws (ledger.laws.revokes.describe)."""
    return f"Revoke: {_with_card_symbols(entry.get('text') or '')}"


def _review_line(entry: Mapping[str, Any]) -> str:
    """The question, its Law cited with the edition (the reason's bare Law replaced)."""
    about = f" (seq {entry['seq']})" if entry.get("seq") is not None else ""
    reason = entry.get("reason") or "no reason given"
    law = entry.get("law")
    if law and ":" in law and reason.startswith(law.split(":", 1)[1]):
        reason = law + reason[len(law.split(":", 1)[1]):]
    return f"Director review required: {reason}{about}"


def _claim_line(claim: Mapping[str, Any]) -> str:
    """The claim (68), its statement, the dispute and how it was settled (69, 70)."""
    text = (f"Claim by {_seat(claim.get('seat'))} (seq {claim.get('seq')}): "
            f"{_plural(claim.get('tricks'), 'trick')} of the {claim.get('remaining')} remaining")
    if claim.get("statement"):
        text += f', "{claim["statement"]}"'
    status = claim.get("status")
    if claim.get("disputed_seq") is not None:
        text += f"; disputed by {_seat(claim.get('disputed_by'))} (seq {claim['disputed_seq']})"
    if status == "agreed":
        text += f"; agreed (seq {claim.get('settled_seq')})"
    elif status == "ruled":
        reasons = f": {claim['ruling_text']}" if claim.get("ruling_text") else ""
        text += (f"; the director ruled {_plural(claim.get('settled_tricks'), 'trick')} to "
                 f"{_seat(claim.get('seat'))}'s side (seq {claim.get('settled_seq')}){reasons}")
    elif status == "disputed":
        text += "; the director is to rule"
    elif status == "void":
        text += "; void (68B2): play continued"
    from ledger.laws.claims import claim_history  # issue 22: the claim's history in words
    history = claim_history(dict(claim))
    return text + _law(claim.get("law")) + "".join(f"\n  - {line}" for line in history)


def _artificial_value(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}%"
    if value == "none":
        return "not scored at this table"
    return str(value)


def _assigned_result(result: Mapping[str, Any]) -> str:
    contract = _contract_text(result.get("contract"), result.get("risk"))
    tricks = _plural(result.get("tricks"), "trick")
    text = contract if contract == "Passed out" else (
        f"{contract} by {_seat(result.get('declarer'))}, {tricks}")
    weight = result.get("weight")
    share = f"{weight * 100:g}% of " if isinstance(weight, (int, float)) else (
        f"{weight} of " if isinstance(weight, str) else "")
    side = result.get("side")
    owner = "" if side in (None, "both") else f"{side}: "
    return f"{owner}{share}{text}"


def _adjusted_line(adjusted: Mapping[str, Any]) -> str:
    kind = adjusted.get("kind") or "adjusted"
    if kind == "artificial":
        body = (f"NS {_artificial_value(adjusted.get('ns'))}, "
                f"EW {_artificial_value(adjusted.get('ew'))}")
    else:
        body = "; ".join(_assigned_result(result) for result in adjusted.get("results") or [])
    text = f" ({adjusted['text']})" if adjusted.get("text") else ""
    by = " by the appeals committee" if adjusted.get("by") == "committee" else ""
    return f"Adjusted score ({kind}){by}: {body}{text}{_law(adjusted.get('law'))}"


def _exposed_card_line(entry: Mapping[str, Any]) -> str:
    how = _word(EXPOSED_HOW, entry.get("how"), entry.get("how") or "exposed")
    return (f"Exposed card: {_seat(entry.get('seat'))} {card_text(entry.get('card'))} ({how})"
            f"{_law(entry.get('law'))}")


_CARD_TOKEN = re.compile(r"\b[SHDC][AKQJT2-9]\b")


def _with_card_symbols(text: str) -> str:
    """Cards named in a reason (``"H8 stands"``) as players read them (``"♥8 stands"``)."""
    return _CARD_TOKEN.sub(lambda m: card_text(m.group(0)), text)


def _card_ruling_line(entry: Mapping[str, Any]) -> str:
    """A card fact the Laws did more with than play a card or not (``card_rulings``)."""
    ruling = entry.get("ruling") or ""
    ruling = CARD_RULING_WORDS.get(ruling, ruling.replace("_", " "))
    detail = f": {_with_card_symbols(entry['detail'])}" if entry.get("detail") else ""
    return (f"Card ruling, seq {entry.get('seq', '?')} {entry.get('type') or ''} "
            f"{_seat(entry.get('seat'))}: {ruling}{detail}{_law(entry.get('law'))}")


def _lead_out_of_turn_line(entry: Mapping[str, Any]) -> str:
    what = _word(OUT_OF_TURN_WORDS, entry.get("kind"), entry.get("kind") or "lead out of turn")
    status = _word(OUT_OF_TURN_STATUS, entry.get("status"), entry.get("status") or "")
    how = entry.get("how") or ""
    if how and how not in ("returned", "refuse") and entry.get("status") == "accepted":
        status += f" ({OUT_OF_TURN_HOW.get(how, how.replace('_', ' '))})"
    if entry.get("kind") == OutOfTurnKind.FIFTH_CARD:
        status = "a penalty card" if how == "penalty" else "back to the hand, no rectification"
    due = f", {_seat(entry.get('correct'))} to lead" if entry.get("kind") != OutOfTurnKind.FIFTH_CARD else ""
    return (f"{what.capitalize()}: {_seat(entry.get('seat'))} {card_text(entry.get('card'))} "
            f"(seq {entry.get('seq', '?')}{due}): {status}{_law(entry.get('law'))}")


def _voided_line(entry: Mapping[str, Any]) -> str:
    """An entry voided as an entry error (``voided``, EntryVoided): skipped by the fold."""
    by = entry.get("by") or {}
    who = _actor(by) if by else "?"
    when = f" at {_time(entry.get('at'))}" if entry.get("at") else ""
    return (f"Voided: seq {entry.get('seq', '?')} {entry.get('type') or ''} by {who}{when} "
            f"(seq {entry.get('by_seq', '?')}): {entry.get('reason') or ''}; read as if not made")


RULING_LINES = (
    ("voided", _voided_line),
    ("leads_out_of_turn", _lead_out_of_turn_line),
    ("penalty_cards", _penalty_card_line),
    ("exposed_cards", _exposed_card_line),
    ("card_rulings", _card_ruling_line),
    ("lead_restrictions", _lead_restriction_line),
    ("premature_plays", _premature_line),
    ("play_restrictions", _play_restriction_line),
    ("partner_must_pass", _must_pass_line),
    ("caps", _cap_line),
    ("pending", _pending_line),
    ("irregularities", _irregularity_line),
    ("transfers", _transfer_line),
    ("revokes", lambda e: _revoke_line(e)),
    ("review", _review_line),
    ("irregular_boards", lambda e: _board_fact_line(e)),
    ("procedural_penalties", lambda e: _procedural_penalty_line(e)),
    ("decisions", lambda e: _ruling_given_line(e)),
    ("appeals", lambda e: _appeal_line(e)),
)


def _ruling_given_line(entry: Mapping[str, Any]) -> str | None:
    """The director's ruling as explained at the table (other decisions have their own lines)."""
    if entry.get("type") != "RulingGiven":
        return None
    return f"Ruling given (seq {entry.get('seq')}, {entry.get('by')}): {entry.get('summary')}{_law(entry.get('law'))}"


def _board_fact_line(entry: Mapping[str, Any]) -> str:
    """A fact of Laws 13 to 16 and its reading (``irregular_boards``); a right reserved
    (16B) is no irregular board and says so."""
    ruling = (entry.get("ruling") or "").replace("_", " ")
    if entry.get("type") == "RightsReserved":
        by = f" by {_seat(entry.get('seat'))}" if entry.get("seat") else ""
        return (f"Rights reserved{by}, seq {entry.get('seq', '?')}: {ruling}: "
                f"{_with_card_symbols(entry.get('detail') or '')}{_law(entry.get('law'))}")
    return (f"Irregular board, seq {entry.get('seq', '?')} {entry.get('type') or ''}: {ruling}: "
            f"{_with_card_symbols(entry.get('detail') or '')}{_law(entry.get('law'))}")


def _procedural_penalty_line(entry: Mapping[str, Any]) -> str:
    return f"Procedural penalty: {entry.get('side')} {entry.get('amount')} (Law 90)"


def _appeal_line(entry: Mapping[str, Any]) -> str:
    decided = ("not decided yet" if entry.get("decided") is None else
               f"{entry.get('decision')} at seq {entry['decided']}"
               + (", awaiting the committee's score" if entry.get("awaiting_committee_score") else ""))
    return f"Appeal by {entry.get('side')} (seq {entry.get('seq')}): {decided}"


def _rulings(doc: Mapping[str, Any]) -> Text | None:
    lines = [line for key, line_of in RULING_LINES for entry in doc.get(key) or []
             if (line := line_of(entry)) is not None]
    if doc.get("claim"):
        lines.append(_claim_line(doc["claim"]))
    if doc.get("adjusted"):
        lines.append(_adjusted_line(doc["adjusted"]))
    if not lines:
        return None
    return _titled("Rulings", lines)


def _score(score: int | None) -> str:
    if score is None:
        return "?"
    return f"+{score}" if score > 0 else str(score)


def _result(doc: Mapping[str, Any]) -> Text | None:
    result = doc.get("result")
    if not result:
        return None
    contract = _contract_text(result.get("contract"), result.get("risk"))
    line = Text.assemble(("Result: ", "bold"))
    if contract == "Passed out":
        line.append("Passed out")
    else:
        line.append(f"{contract} by {_seat(result.get('declarer'))}, "
                    f"{_plural(result.get('tricks', 0), 'trick')}")
        if result.get("text"):
            line.append(f" ({result['text']})")
    if result.get("score_ns") is not None:
        line.append(f", NS {_score(result['score_ns'])}")
    return line


def _integrity(doc: Mapping[str, Any]) -> Text | None:
    integrity = doc.get("integrity")
    if not integrity:
        return None
    head = integrity.get("head") or ""
    shown = head[:16] + ELLIPSIS if len(head) > 16 else (head or "none")
    verified = integrity.get("verified")
    words = "yes" if verified else ("no" if verified is not None else "not checked")
    return Text(f"Integrity: head {shown}, verified {words}",
                style="" if verified or verified is None else "bold red")


# --- public ---------------------------------------------------------------------------


def render_state(doc: Mapping[str, Any]) -> RenderableType:
    """The table state document (spec section 5) as header, compass, auction, play, rulings."""
    blocks: list[list[RenderableType | None]] = [
        [_header(doc)],
        [_Compass(doc)],
        [_auction(doc), _auction_notes(doc), _contract_line(doc), _not_made(doc), _call_rulings(doc)],
        [_tricks(doc)],
        [_rulings(doc)],
        [_result(doc), _integrity(doc)],
    ]
    parts: list[RenderableType] = []
    for block in blocks:
        present = [part for part in block if part is not None]
        if present:
            if parts:
                parts.append(NewLine())
            parts.extend(present)
    return Group(*parts)


def _time(at: str | None) -> str:
    """``2026-11-21T14:03:11.123456Z`` -> ``14:03:11.123``."""
    if not at:
        return ""
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at
    return moment.strftime("%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value if value and " " not in value else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and value and all(isinstance(v, (str, int)) and " " not in str(v) for v in value):
        return ",".join(str(v) for v in value)  # laws=2017:63A1,2017:64A2, options=accept,refuse
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _data(data: Mapping[str, Any] | None) -> str:
    return " ".join(f"{key}={_compact(value)}" for key, value in (data or {}).items())


def _blank_if_none(value: Any) -> str:
    return "" if value is None else str(value)


def _actor(actor: Mapping[str, Any] | None) -> str:
    if not actor:
        return ""
    role, name = actor.get("role") or "?", actor.get("name")
    return f"{role}/{name}" if name else role


FREE_TEXT = ("text", "reason", "statement", "note", "detail", "deal")
"""Data fields written by people (or long, like a deal): the only part of a log line that wraps."""
ENGINE_ACTOR = "system/ruling-engine"
BARE_KEYS = ("seat", "card", "call", "kind", "contract", "declarer")
"""Fields whose value says what it is (``E``, ``H7``, ``1NT``, ``revoke``): shown without the key."""


def _log_actor(actor: Mapping[str, Any] | None) -> str:
    text = _actor(actor)
    return "engine" if text == ENGINE_ACTOR else text


def _log_head(event: Mapping[str, Any]) -> tuple[str, str]:
    """(the structured part of an event's line, its free text), without line breaks."""
    data = dict(event.get("data") or {})
    free = " ".join(f"{key}={_compact(data.pop(key))}" for key in FREE_TEXT if key in data)
    law = event.get("law") or ""
    causes = ",".join(str(cause) for cause in event.get("causes") or [])
    data = {key: value for key, value in data.items() if value not in ("", None)}
    if [data.get("about")] == list(event.get("causes") or []):
        causes = ""  # the cause is the event the data is about: said once
    bare = " ".join(str(data.pop(key)) for key in BARE_KEYS if key in data)
    parts = [f"{_blank_if_none(event.get('seq')):>3}", _time(event.get("at"))[:8],
             f"{_log_actor(event.get('actor')):<6}", event.get("type") or "", bare, _data(data)]
    if law:
        parts.append(law)
    if causes:
        parts.append(f"<-{causes}")
    return " ".join(part for part in parts if part), free


class _Log:
    """A stream's log, one line an event at the console's width: seq, time, actor, type,
    data, Law, causes; only free text (a ruling's text, a reason, a deal) wraps, indented."""

    INDENT = 8

    def __init__(self, events: list[Mapping[str, Any]]) -> None:
        self.events = events

    def lines(self, width: int) -> list[str]:
        """Each event on one line when its structured part fits (it does for every fact of
        the play and the auction at 80 columns); what does not fit wraps at spaces, never
        inside a word, a citation or a card, on lines indented by ``INDENT``."""
        import textwrap

        out = []
        for event in self.events:
            head, free = _log_head(event)
            line = f"{head} {free}" if free else head
            if len(line) <= width:
                out.append(line)
                continue
            out.extend(textwrap.wrap(line, width=width, subsequent_indent=" " * self.INDENT,
                                     break_long_words=False, break_on_hyphens=False))
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(options.max_width):
            yield Text(line, no_wrap=True, overflow="fold")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def render_log(events: list[Mapping[str, Any]]) -> RenderableType:
    """A stream's envelopes (spec section 2), one line per event (free text wraps)."""
    return _Log(events)


# --- results and open rulings (cli.py results / open) -----------------------------------


def _adjusted_cell(adjusted: Mapping[str, Any] | None) -> str:
    """An adjusted score on the traveller, in words (no dict or JSON)."""
    if not adjusted:
        return ""
    kind = adjusted.get("kind") or "adjusted"
    if kind == "artificial":
        body = f"NS {_artificial_value(adjusted.get('ns'))}, EW {_artificial_value(adjusted.get('ew'))}"
    else:
        body = "; ".join(_assigned_result(result) for result in adjusted.get("results") or [])
    by = ", by the appeals committee" if adjusted.get("by") == "committee" else ""
    law = f" ({adjusted['law']}{by})" if adjusted.get("law") else ""
    return f"{kind}: {body}{law}"


def _num(value: Any, signed: bool = False) -> str:
    if value is None:
        return ""
    return f"{value:+g}" if signed else f"{value:g}"


STATUS_CELLS = {"in progress": "(in progress)", "not played": "(not played)", "cancelled": "(cancelled)",
                "withdrawn": "(withdrawn)"}


def render_checks(doc: Mapping[str, Any]) -> RenderableType | None:
    """The checks before publication (``results``' ``checks``), first on the page."""
    checks = doc.get("checks") or []
    if not checks:
        return None
    return _titled(f"Before publishing ({len(checks)} to check)",
                   [f"{c['kind'].replace('_', ' ')}: {c['text']} [{', '.join(c['streams'])}]" for c in checks])


def render_travellers(doc: Mapping[str, Any]) -> list[RenderableType]:
    """One table per board: the traveller (matchpoints and percentage in pairs, the IMPs of
    each room's teams in teams); adjusted scores are marked ``adj.N`` in the contract column
    and spelled out, with their Law, under the table; a board in progress says so."""
    out: list[RenderableType] = []
    imp = doc["scoring"] != "MP"  # teams, or a pairs field in IMPs (cross-IMP, Butler)
    for board in doc["boards"]:
        rooms = any(r["room"] for r in board["results"])
        notes = []
        where = f" - session {board['session']}" if board.get("session") else ""
        table = Table(title=f"{doc['tournament']}{where} - board {board['board']}", title_justify="left")
        columns = ["table"] + (["room"] if rooms else []) + ["NS", "EW", "contract", "tricks", "score NS"]
        columns += ["IMP NS", "IMP EW"] if imp else ["MP NS", "MP EW", "% NS"]
        for column in columns:
            table.add_column(column, justify="left" if column in ("table", "room", "NS", "EW", "contract")
                             else "right")
        for r in board["results"]:
            if r.get("withdrawn"):
                contract = f"(withdrawn, {r['withdrawn']['law']})"
            elif r["contract"] is None:
                contract = "" if r["adjusted"] else STATUS_CELLS.get(r.get("status") or "", "(not played)")
            elif r["contract"] == "Pass":
                contract = "Pass"
            else:
                contract = f"{r['contract']}{r['risk'] or ''} {r['declarer'] or ''}"
            if r["adjusted"]:
                notes.append(f"table {r['table']}: {_adjusted_cell(r['adjusted'])}")
                contract = (contract + " " if r["adjusted"]["kind"] == "assigned" else "") + f"adj.{len(notes)}"
            row = [r["table"]] + ([r["room"] or ""] if rooms else []) + [
                _pair_cell(r, "ns"), _pair_cell(r, "ew"), contract,
                "" if r["tricks"] is None else str(r["tricks"]),
                "" if r["score_ns"] is None else f"{r['score_ns']:+d}" if r["score_ns"] else "0"]
            if imp:
                row += [_num(r["imp_ns"], True), _num(r.get("imp_ew"), True)]
            else:
                row += [_num(r["mp_ns"]), _num(r["mp_ew"]), _num(r["pct_ns"])]
            table.add_row(*row)
        if notes:
            table.caption = "\n".join(f"adj.{i}: {n}" for i, n in enumerate(notes, start=1))
            table.caption_justify = "left"
        out.append(table)
    return out


def _pair_cell(r: Mapping[str, Any], side: str) -> str:
    """A traveller's pair: its number and who sat (a substitute marked ``*``)."""
    entry = r.get(side) or ""
    players = r.get(f"{side}_players")
    if not players:
        return entry
    subs = set(r.get(f"{side}_substitutes") or ())
    return f"{entry} " + " - ".join(p + ("*" if p in subs else "") for p in players)


def render_event(doc: Mapping[str, Any]) -> list[RenderableType]:
    """A whole event: each session's ranking (Swiss: the matches and VPs), then the overall one."""
    sessions = doc.get("sessions") or []
    out: list[RenderableType] = []
    if len(sessions) <= 1 and not any(s.get("matches") for s in sessions):
        return render_standings(doc)
    for s in sessions:
        name = doc["tournament"] + (f" - session {s['session']}" if s.get("session") else "")
        if s.get("matches"):
            table = Table(title=f"{name} - matches", title_justify="left")
            for column in ("match", "home", "away", "IMPs", "VPs"):
                table.add_column(column, justify="right" if column in ("IMPs", "VPs") else "left")
            for m in s["matches"]:
                table.add_row(m["match"], m["home"], m["away"], f"{_num(m['imps_home'], True)} - {_num(m['imps_away'], True)}",
                              "" if m["vp_home"] is None else f"{m['vp_home']:.2f} - {m['vp_away']:.2f}")
            out.append(table)
        out += render_standings({"tournament": name, "scoring": s["scoring"], "standings": s["standings"]})
    if len(sessions) > 1:
        out += render_standings({"tournament": f"{doc['tournament']} - overall", "scoring": doc["scoring"],
                                 "standings": doc["standings"]})
    return out


def render_standings(doc: Mapping[str, Any]) -> list[RenderableType]:
    """The ranking: pairs by percentage (matchpoints over the tops of the boards they
    played; a Mitchell ranks NS and EW apart), teams by IMPs (Swiss: VPs); ties as ``2=``."""
    imp = doc["scoring"] != "MP"
    rows = doc.get("standings") or []
    if rows and all("vp" in row for row in rows):
        table = Table(title=f"{doc['tournament']} - ranking", title_justify="left")
        for column in ("rank", "team", "VPs"):
            table.add_column(column, justify="left" if column == "team" else "right")
        for row in rows:
            team = row["name"] + (f" {row['players']}" if row.get("players") else "")
            table.add_row(f"{row['rank']}{'=' if row.get('tied') else ''}", team, f"{row['vp']:.2f}")
        return [table]
    groups = [d for d in ("NS", "EW", "") if any((row.get("direction") or "") == d for row in rows)] or [""]
    out: list[RenderableType] = []
    for direction in groups:
        title = f"{doc['tournament']} - ranking" + (f" {direction}" if direction else "")
        table = Table(title=title, title_justify="left")
        for column, right in (("rank", True), ("team" if doc["scoring"] == "IMP" else "pair", False), ("boards", True),
                              ("IMPs" if imp else "matchpoints", True)):
            table.add_column(column, justify="right" if right else "left")
        if not imp:
            table.add_column("%", justify="right")
        for row in rows:
            if (row.get("direction") or "") != direction:
                continue
            who = row["name"] + (f" {row['players']}" if row.get("players") else "")
            cells = [f"{row['rank']}{'=' if row.get('tied') else ''}", who, str(row["boards"]),
                     _num(row["score"], imp)]
            if not imp:
                cells.append(_num(row.get("pct")))
            table.add_row(*cells)
        out.append(table)
    return out


def render_open(items: Sequence[Mapping[str, Any]], title: str = "Waiting for the director") -> RenderableType:
    """The open rulings (``cli.py open``): one row per thing waiting, longest wait first."""
    if not items:
        return Text(f"{title}: nothing.")
    table = Table(title=f"{title} ({len(items)})", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("waited", "board", "table", "what", "seq", "details"):
        table.add_column(column, justify="right" if column in ("board", "seq") else "left",
                         no_wrap=column != "details", overflow="fold")
    from projections.waiting import waited_text

    for w in items:
        law = f" ({w['law']})" if w.get("law") else ""
        table.add_row(waited_text(w.get("waited_s")), str(w["board"]), w["table"], w["kind"], str(w["seq"]),
                      f"{w['what']}{law} [{w['stream']}]")
    return table


def print_renderable(renderable: RenderableType, console: Console | None = None) -> None:
    """Print on ``console`` (a fresh terminal console when none is given)."""
    (console or Console()).print(renderable)
