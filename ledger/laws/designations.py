"""Designations of dummy's card (Law 46B) and changes of designation (45C4b),
both editions side by side: one family, its reading (the rules that follow from
its card records are ``ledger.laws.cards.card_rulings``, as for every card fact).

| fact | 1997 | 2017 |
|---|---|---|
| designation changed | any player: inadvertent and without pause for thought (45C4b) | declarer, a card of dummy: unintended, until declarer next plays (45C4b) |
| "high" from dummy | highest of the suit; in fourth seat may be deemed the lowest winning card (FFB 46B1a) | highest of the suit led (46B1a) |
| "win" | lowest winning card (46B1a) | lowest card known to win (46B1b) |
| "low" | lowest card (46B1b) | lowest of the suit led (46B1c) |
| a suit, no rank | its lowest card (46B2) | the same |
| a rank, no suit | the suit of dummy's card that won the last trick (46B3a); else declarer designates (46B3b) | the same |
| a card not in dummy | void: declarer designates any legal card (46B4) | the same |
| "play anything" | either defender designates dummy's card (46B5) | the same |
"""

from __future__ import annotations

from typing import Literal

import attrs

from ledger.laws.base import Ruled, handles
from ledger.bridge import RANKS, Card, Seat, Suit, sort_cards
from ledger.events import DesignationChanged, DummyCardCalled
from projections.cards import (DESIGNATION_LAWS, NAMING_LAWS, card_played_after, expose, is_defender, not_made,
                               record_card, record_played, replace_card, second_from_dummy, unprocessed)
from projections.fold import Step, law_of
from projections.state import ENDED, OPENING_LEAD, PLAY, CardRecord, Choice, PlayedCard, TableState
from projections.vocab import CardRuling, Edition

LAWS = ("46", "45C4")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS = {
    "high": {"1997": "46B1a", "2017": "46B1a"},
    "win": {"1997": "46B1a", "2017": "46B1b"},
    "low": {"1997": "46B1b", "2017": "46B1c"},
}
"""The family's citations per edition: the Law that completes declarer's "high", "win" or
"low" from dummy (46B1, the edition table above)."""


# -- the reading of the facts ------------------------------------------------------------

# -- DummyCardCalled: Law 46B -------------------------------------------------

@attrs.frozen
class Designation:
    """What an incomplete or invalid designation of dummy's card comes to (46B): a ``card``,
    a ``choose`` (recorded as the card ruling ``choose``: a choice to offer), a ``void``
    designation (46B4, a choice too) or a ``review`` (a question for the director)."""

    kind: Literal["card", "choose", "void", "review"]
    law: str  # without the edition
    card: Card | None = None
    question: str = ""


def _strength(card: Card, led: Suit | None, trump: Suit | None) -> tuple[int, int]:
    if trump is not None and card.suit is trump:
        return (2, card.strength)
    if card.suit is led:
        return (1, card.strength)
    return (0, 0)


def _winners(state: TableState, candidates: list[Card], known: bool) -> list[Card]:
    """Dummy's cards among ``candidates`` that beat the cards on the trick; with
    ``known``, that also beat every card of their suit the defenders still
    hold (a ruff by a defender yet to play cannot be known, and is not counted)."""
    assert state.contract is not None
    trick = state.current_trick
    on_trick = () if trick is None or trick.complete else trick.cards
    trump = state.contract.strain.trump
    led = on_trick[0].card.suit if on_trick else None
    best = max((_strength(p.card, led, trump) for p in on_trick), default=None)
    out = []
    for card in sorted(candidates, key=lambda c: c.strength):
        mine = _strength(card, led or card.suit, trump)
        if best is not None and mine <= best:
            continue
        if known:
            outstanding = [c for s in state.board.deal.hands if s.side is not state.contract.side
                           for c in state.hand(s) if c.suit is card.suit]
            if any(c.strength > card.strength for c in outstanding):
                continue
        out.append(card)
    return out


def _legal(hand: tuple[Card, ...], led: Suit | None) -> list[Card]:
    if led is not None and any(c.suit is led for c in hand):
        return [c for c in hand if c.suit is led]
    return list(hand)


def designate(state: TableState, suit: Suit | None, rank: str | None,
              lowest_winner: bool | None) -> Designation:
    """Complete declarer's designation of a card from dummy by Law 46B (the
    card, a choice to offer, a void designation, or a question)."""
    assert state.contract is not None and state.dummy is not None
    hand = state.hand(state.dummy)
    trick = state.current_trick
    leading = trick is None or trick.complete
    on_trick = () if leading else trick.cards  # type: ignore[union-attr]  # not leading: a trick is in progress
    led = None if leading else trick.suit_led  # type: ignore[union-attr]  # not leading: a trick is in progress
    if suit is None and rank is None:
        return Designation("choose", "46B5")
    if rank is None:  # a suit, no rank: its lowest card
        return _lowest_of(hand, suit)
    if _is_rank(rank):
        if suit is not None:
            card = Card(suit, rank)
            return Designation("card", "45B", card) if card in hand else Designation("void", "46B4")
        return _rank_only(state, hand, rank, leading, led)
    # "high", "low", "win"
    turn = _Turn(hand, suit, leading, led, fourth=len(on_trick) == 3, law=CITATIONS[rank][state.edition])
    if rank == "win":
        return _win(state, turn)
    return _high_or_low(state, rank, turn, lowest_winner)


@attrs.frozen
class _Turn:
    """Dummy's turn to play a card declarer designated by "high", "win" or "low"."""

    hand: tuple[Card, ...]
    suit: Suit | None  # the suit declarer named, if any
    leading: bool
    led: Suit | None
    fourth: bool
    law: str  # the edition's citation of the word (``CITATIONS``)


def _lowest_of(hand: tuple[Card, ...], suit: Suit | None) -> Designation:
    """46B2: a suit and no rank: its lowest card (46B4: none of it, void)."""
    of_suit = [c for c in hand if c.suit is suit]
    return Designation("card", "46B2", min(of_suit, key=lambda c: c.strength)) if of_suit else \
        Designation("void", "46B4")


def _win(state: TableState, turn: _Turn) -> Designation:
    """46B1 "win": the lowest winning card (2017: known to win) of the suit named, else of the suit led,
    else a trump."""
    assert state.contract is not None
    hand, law = turn.hand, turn.law
    if turn.suit is not None:
        pool = [c for c in hand if c.suit is turn.suit]
    elif turn.leading:
        return Designation("review", law, question="'win' from dummy on lead, with no suit named: "
                                                  "which card did declarer designate?")
    else:
        trump = state.contract.strain.trump
        pool = [c for c in hand if c.suit is turn.led] or [c for c in hand if c.suit is trump]
    winners = _winners(state, pool, known=not turn.fourth)
    if not winners:
        return Designation("review", law, question="'win' from dummy, but no card of dummy is known to "
                                                  "win the trick: which card did declarer designate?")
    return Designation("card", law, winners[0])


def _high_or_low(state: TableState, rank: str, turn: _Turn, lowest_winner: bool | None) -> Designation:
    """46B1 "high" and "low": of the suit named, else of the suit led."""
    law, suit, led = turn.law, turn.suit, turn.led
    target = suit or led
    if target is None:
        return Designation("review", law, question=f"'{rank}' from dummy on lead, with no suit named: "
                                                  "which card did declarer designate?")
    of_suit = [c for c in turn.hand if c.suit is target]
    if not of_suit:
        if suit is not None:
            return Designation("void", "46B4")
        return Designation("review", law, question=f"'{rank}' from dummy, which holds no card of the suit led: "
                                                  "which card did declarer designate?")
    if rank == "low":
        if state.edition == Edition.E2017 and suit is not None and suit is not led:
            law = "46B2"  # 2017 "low" is of the suit led; a suit named and no rank: its lowest card
        return Designation("card", law, min(of_suit, key=lambda c: c.strength))
    highest = max(of_suit, key=lambda c: c.strength)
    if state.edition == Edition.E1997 and turn.fourth:
        return _high_fourth_1997(state, of_suit, highest, law, lowest_winner)
    return Designation("card", law, highest)


def _high_fourth_1997(state: TableState, of_suit: list[Card], highest: Card, law: str,
                      lowest_winner: bool | None) -> Designation:
    """1997 (FFB 46B1a): "high" in fourth seat may be deemed the lowest winning card."""
    winners = _winners(state, of_suit, known=False)
    if winners and winners[0] != highest:
        if lowest_winner is None:
            return Designation("review", law, question=f"'high' from dummy in fourth seat: is it deemed the "
                                                      f"lowest winning card ({winners[0]}) rather than the "
                                                      f"highest ({highest})?")
        if lowest_winner:
            return Designation("card", law, winners[0])
    return Designation("card", law, highest)


def _rank_only(state: TableState, hand: tuple[Card, ...], rank: str, leading: bool,
               led: Suit | None) -> Designation:
    """46B3: a rank and no suit."""
    with_rank = [c for c in hand if c.rank == rank]
    if not with_rank:
        return Designation("void", "46B4")
    if leading and state.tricks:
        previous = state.tricks[-1]
        mine = previous.card_of(state.dummy) if previous.winner is state.dummy else None  # type: ignore[arg-type]  # dummy is known: the contract is (asserted above)
        if mine is not None and Card(mine.card.suit, rank) in hand:
            return Designation("card", "46B3a", Card(mine.card.suit, rank))
    legal = [c for c in with_rank if c in _legal(hand, led)]
    if len(legal) == 1:
        return Designation("card", "46B3b", legal[0])
    if legal:
        return Designation("choose", "46B3b")
    return Designation("review", "46B3b", question=f"rank {rank} named from dummy, but no card of that rank can "
                                                   "legally be played: which card did declarer designate?")


def _is_rank(rank: str | None) -> bool:
    """A rank (``"Q"``), not ``high``, ``low`` or ``win``."""
    return rank is not None and len(rank) == 1 and rank in RANKS


def _options(cards: list[Card]) -> tuple[str, ...]:
    return tuple(f"play:{c}" for c in sort_cards(cards))


@handles(DummyCardCalled)
def on_dummy_card_called(state: TableState, step: Step[DummyCardCalled]) -> TableState:
    seq, ev = step.seq, step.event
    dummy = state.dummy
    if dummy is None or state.phase not in (OPENING_LEAD, PLAY):
        return unprocessed(state, seq, ev.TYPE, dummy, "a card of dummy designated outside the play")
    if ev.by is not None and ev.by.side is not dummy.side:
        return _defender_designates(state, seq, ev)
    if state.turn is not dummy and not second_from_dummy(state, dummy):  # 54B2: played all the same
        return unprocessed(state, seq, ev.TYPE, dummy,
                            f"a card of dummy designated while {state.turn} is to play")
    d = designate(state, ev.suit, ev.rank, ev.lowest_winner)
    law = state.cite(d.law)
    said = (f"{ev.suit}{ev.rank}" if ev.suit is not None and _is_rank(ev.rank) else
            " ".join(str(x) for x in (ev.suit, ev.rank) if x is not None) or "play anything")
    if d.kind == "card":
        assert d.card is not None
        open_choice = next((c for c in (_open_choice(state, "46B4"), _open_choice(state, "46B3b")) if c), None)
        if d.law == "45B" and open_choice is not None:
            law = open_choice.law or law  # declarer designates the card the Law left to him
        return record_played(state, seq, ev.TYPE, dummy, d.card, law)
    if d.kind == "review":
        return record_card(state, CardRecord(seq, ev.TYPE, dummy, None, CardRuling.UNDECIDED, law,
                                         detail=f"declarer said '{said}': {d.question}"))
    trick = state.current_trick
    led = None if trick is None or trick.complete else trick.suit_led
    legal = _legal(state.hand(dummy), led)
    to: Seat | None
    if d.kind == "choose" and d.law == "46B5":
        to, options = dummy.lho, _options(legal)
        detail = "declarer named neither suit nor rank: either defender designates dummy's card"
    elif d.kind == "choose":
        to = state.declarer
        options = _options([c for c in legal if c.rank == ev.rank])
        detail = f"declarer named rank {ev.rank}: he designates which card of that rank"
    else:  # void: 46B4
        to, options = state.declarer, _options(legal)
        detail = f"declarer designated '{said}', which is not in dummy: he may designate any legal card"
        if ev.suit is not None and _is_rank(ev.rank):
            state = not_made(state, seq, dummy, f"{ev.suit}{ev.rank}", "not in dummy: the designation is void",
                              law)
    assert to is not None
    return record_card(state, CardRecord(seq, ev.TYPE, dummy, None, CardRuling.CHOOSE, law, detail=detail, to=to,
                                         options=options))


def _open_choice(state: TableState, law: str) -> CardRecord | None:
    """The latest designation awaiting a choice under ``law``, if dummy has not played since."""
    for rec in reversed(state.card_records):
        if rec.seat is state.dummy and rec.ruling == CardRuling.PLAYED:
            return None
        if rec.ruling == CardRuling.CHOOSE and law_of(rec.law) == law:
            dummy_played = card_played_after(state, (rec.seat,), rec.seq)
            return None if dummy_played else rec
    return None


def _defender_designates(state: TableState, seq: int, ev: DummyCardCalled) -> TableState:
    """46B5: after 'play anything', either defender designates dummy's card."""
    dummy = state.dummy
    assert dummy is not None
    waiting = _open_choice(state, "46B5")
    if waiting is None:
        return unprocessed(state, seq, ev.TYPE, ev.by,
                            f"{ev.by} designated a card of dummy, but declarer had not left the choice to the "
                            "defenders (46B5)")
    if ev.suit is None or not _is_rank(ev.rank):
        return unprocessed(state, seq, ev.TYPE, ev.by, f"{ev.by} must designate a card of dummy (suit and rank)")
    card = Card(ev.suit, ev.rank)  # type: ignore[arg-type]  # _is_rank(ev.rank) held just above
    if f"play:{card}" not in waiting.options:
        return unprocessed(state, seq, ev.TYPE, ev.by,
                            f"{ev.by} designated {card}, which dummy cannot legally play (options: "
                            f"{', '.join(waiting.options)})")
    return record_played(state, seq, ev.TYPE, dummy, card, waiting.law or state.cite("46B5"))


def on_designation_chosen(state: TableState, choice: Choice) -> TableState:
    """OptionChosen ``play:<card>`` under 46B3b, 46B4 or 46B5: dummy plays it."""
    dummy = state.dummy
    if dummy is None or not choice.option.startswith("play:"):
        return state
    card = Card.parse(choice.option.split(":", 1)[1])
    return record_played(state, choice.seq, "OptionChosen", dummy, card, choice.law)


# -- DesignationChanged: Law 45C4b ------------------------------------------------

def _last_named(state: TableState, seat: Seat) -> tuple[int, PlayedCard] | None:
    """The card just designated from ``seat``'s hand: the last card played from that hand,
    when it was named or designated (45C4b); None when that card was played otherwise (a
    dummy card touched, 45C3, stands) or none was played."""
    best: tuple[int, PlayedCard] | None = None
    for i, trick in enumerate(state.tricks):
        for p in trick.cards:
            if p.seat is seat and (best is None or p.seq > best[1].seq):
                best = (i, p)
    return best if best is not None and law_of(best[1].law) in NAMING_LAWS else None


@handles(DesignationChanged)
def on_designation_changed(state: TableState, step: Step[DesignationChanged]) -> TableState:
    seq, ev = step.seq, step.event
    new = ev.card
    holder = state.board.deal.holder(new)
    found = _last_named(state, holder)
    if found is None or state.phase not in (PLAY, ENDED):
        return unprocessed(state, seq, ev.TYPE, holder, f"designation changed to {new}, but no card was named "
                           f"(45C4b: the last card played from {holder}'s hand was not named or designated; it stands)")
    index, first = found
    seat = first.seat
    if holder is not seat or new == first.card:
        return unprocessed(state, seq, ev.TYPE, holder,
                            f"designation of {first.card} ({seat}) changed to {new}, of {holder}'s hand")
    law = state.cite("45C4b")
    rec = CardRecord(seq, ev.TYPE, seat, new, CardRuling.UNDECIDED, law, about=first.seq, other=first.card)
    ruling, why = _change_ruling(state, ev, first)
    if ruling == CardRuling.UNDECIDED:
        return record_card(state, attrs.evolve(rec, detail=f"{first.card} changed to {new}: {why}"))
    if ruling == CardRuling.CHANGE_REFUSED:
        state = not_made(state, seq, seat, str(new), f"change of designation not permitted ({why}): "
                                                      f"{first.card} stands", law)
        if is_defender(state, seat):
            state = expose(state, seq, seat, new, "named", state.cite("49"))
        return record_card(state, attrs.evolve(rec, ruling=ruling, detail=why))
    state, question = replace_card(state, index, seat, new, seq, law)
    state = not_made(state, first.seq, seat, str(first.card), f"designation changed ({why})", law)
    return record_card(state, attrs.evolve(rec, ruling=ruling, detail=why, review=question and f"45C4b {question}"))


def _change_ruling(state: TableState, ev: DesignationChanged, first: PlayedCard) -> tuple[CardRuling, str]:
    """(ruling, why) for a change of designation, by edition."""
    if state.edition == Edition.E2017:
        if first.seat is not state.dummy:
            return CardRuling.CHANGE_REFUSED, "2017 45C4b lets declarer change only a designation of dummy's card"
        if card_played_after(state, (state.declarer, state.dummy), first.seq):  # type: ignore[arg-type]  # a designation of dummy: the contract is known
            return CardRuling.CHANGE_REFUSED, "declarer has played a card since"
        if ev.inadvertent is None:
            return CardRuling.UNDECIDED, "was the designation unintended (a slip of the tongue or a mechanical error)?"
        if not ev.inadvertent:
            return CardRuling.CHANGE_REFUSED, "not an unintended designation: a change of mind"
        return CardRuling.CHANGE_PERMITTED, "unintended designation, changed before declarer next played"
    if ev.inadvertent is False:
        return CardRuling.CHANGE_REFUSED, "not inadvertent: a change of intention"
    if ev.without_pause is False:
        return CardRuling.CHANGE_REFUSED, "changed after a pause for thought"
    if ev.inadvertent is None:
        return CardRuling.UNDECIDED, "was the designation inadvertent?"
    if ev.without_pause is None:
        return CardRuling.UNDECIDED, "was it changed without pause for thought?"
    return CardRuling.CHANGE_PERMITTED, "inadvertent designation, changed without pause for thought"


# -- option effects ----------------------------------------------------------------------

OPTION_EFFECTS = {law: on_designation_chosen for law in DESIGNATION_LAWS}
"""46B3b, 46B4, 46B5: the card chosen is played from dummy."""


# -- words and citations -----------------------------------------------------------------

RULINGS: dict[CardRuling, Ruled] = {
    CardRuling.CHOOSE: Ruled("choose", {"1997": "46B", "2017": "46B"}),
    CardRuling.CHANGE_PERMITTED: Ruled("change permitted", {"1997": "45C4b", "2017": "45C4b"}),
    CardRuling.CHANGE_REFUSED: Ruled("change refused", {"1997": "45C4b", "2017": "45C4b"}),
}
"""The card rulings this family reads (``CardRuling``: 46B, 45C4b): how each reads for people
(``ledger.render``, the document's ``card_rulings``) and the Law it rests on, by edition, every
edition named (``None``: cannot arise under it; none here). ``choose`` records its own case
(46B3b, 46B4, 46B5)."""
