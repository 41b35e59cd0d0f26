"""The card reading's core, shared by the card families (``ledger.laws.cards``,
``designations``, ``withdrawals``, ``leads``, ``penalty``, ``revokes``, ``exposed``):
small state helpers that record a card fact's reading, expose a card, move a card
on a trick (its winner, the phase and the result follow), play a card through the
play core (:mod:`projections.play`), and the interception points through which a
family reads a card during the auction (Law 24) or an attention drawn by dummy
(43B3). A family imports these from here, never from another family.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, TypeVar

import attrs

from ledger.bridge import Card, Seat, sort_cards
from projections import play
from projections.fold import law_of
from projections.play import played_result, trick_winner
from projections.state import unprocessed as unprocessed  # re-exported: the families read it here
from projections.state import (ENDED, OPENING_LEAD, PLAY, CardRecord, Exposure, NotMade,
                               PlayedCard, TableState, Trick)
from projections.vocab import CardRuling, Edition, OutOfTurnKind

F = TypeVar("F", bound=Callable[..., Any])

NAMING_LAWS = frozenset({"45B", "45C4a", "45C4b", "46B1a", "46B1b", "46B1c", "46B2", "46B3a", "46B3b",
                         "46B4", "46B5"})
"""Why a card counts as played when it was named or designated: what 45C4b may change."""

DESIGNATION_LAWS = ("46B3b", "46B4", "46B5")
"""Offers of a choice of dummy's card: answered by dummy's next card, however designated."""

# -- the reading of the facts: small state helpers ---------------------------------------

def record_card(state: TableState, rec: CardRecord) -> TableState:
    return attrs.evolve(state, card_records=state.card_records + (rec,))


def set_record(state: TableState, rec: CardRecord) -> TableState:
    return attrs.evolve(state, card_records=tuple(rec if r.seq == rec.seq else r for r in state.card_records))


def not_made(state: TableState, seq: int, seat: Seat, what: str, reason: str, law: str) -> TableState:
    return attrs.evolve(state, plays_not_made=state.plays_not_made + (NotMade(seq, seat, what, reason, law),))


def expose(state: TableState, seq: int, seat: Seat, card: Card, how: str, law: str) -> TableState:
    return attrs.evolve(state, exposures=state.exposures + (Exposure(seq, seat, card, how, law),))


def is_defender(state: TableState, seat: Seat) -> bool:
    return state.contract is not None and seat.side is not state.contract.side


def with_card_back(hands: tuple[tuple[Card, ...], ...], seat: Seat, card: Card) -> tuple[tuple[Card, ...], ...]:
    out = list(hands)
    out[seat.index] = tuple(sort_cards(out[seat.index] + (card,)))
    return tuple(out)


def locate(state: TableState, seat: Seat, card: Card) -> tuple[int, PlayedCard] | None:
    """(index of the trick, the played card) for a card of ``seat`` on a trick."""
    for i, trick in enumerate(state.tricks):
        for p in trick.cards:
            if p.seat is seat and p.card == card:
                return i, p
    return None


def card_played_after(state: TableState, seats: tuple[Seat, ...], seq: int) -> bool:
    return any(p.seq > seq and p.seat in seats for t in state.tricks for p in t.cards)


def with_trick(state: TableState, index: int, trick: Trick) -> TableState:
    """The state with trick ``index`` replaced: winner, phase and result follow."""
    assert state.contract is not None
    winner = trick_winner(trick.cards, state.contract.strain) if trick.complete else None
    trick = attrs.evolve(trick, winner=winner)
    tricks = state.tricks[:index] + (trick,) + state.tricks[index + 1:]
    if not trick.cards and index == len(tricks) - 1:
        tricks = tricks[:-1]
    state = attrs.evolve(state, tricks=tricks)
    if state.claim is not None:
        return state  # play had ceased: the claim's result stands (the director rules on the rest)
    if len(tricks) == 13 and tricks[-1].complete:
        return attrs.evolve(state, phase=ENDED, result=played_result(state))
    return attrs.evolve(state, phase=PLAY if tricks else OPENING_LEAD, result=None)


def replace_card(state: TableState, index: int, seat: Seat, card: Card, seq: int,
                  law: str) -> tuple[TableState, str | None]:
    """``card`` takes the place of ``seat``'s card on trick ``index`` (which goes
    back to the hand). Returns the state and a question for the director when
    the change alters the winner of a trick after which play went on."""
    trick = state.tricks[index]
    old = trick.card_of(seat)
    assert old is not None
    hands = with_card_back(state.hands, seat, old.card)
    hands = tuple(tuple(c for c in h if c != card) if i == seat.index else h for i, h in enumerate(hands))
    cards = tuple(PlayedCard(seat, card, seq, law) if p.seat is seat else p for p in trick.cards)
    before = trick.winner
    new = with_trick(attrs.evolve(state, hands=hands), index, attrs.evolve(trick, cards=cards))
    after = new.tricks[index].winner
    question = None
    if index < len(state.tricks) - 1 and before is not after:
        question = (f"the change makes {after} the winner of trick {trick.number} instead of {before}, "
                    f"after the next trick began: who leads, and what becomes of the cards played since?")
    return new, question


def remove_card(state: TableState, index: int, seat: Seat) -> TableState:
    """``seat``'s card leaves trick ``index`` (the last trick) and goes back to the hand."""
    trick = state.tricks[index]
    old = trick.card_of(seat)
    assert old is not None
    state = attrs.evolve(state, hands=with_card_back(state.hands, seat, old.card))
    return with_trick(state, index, attrs.evolve(trick, cards=tuple(p for p in trick.cards if p.seat is not seat)))


def clear_designation_offers(state: TableState) -> TableState:
    """Dummy has played: an offer to designate dummy's card is answered."""
    pending = tuple(o for o in state.pending if law_of(o.law) not in DESIGNATION_LAWS)
    return attrs.evolve(state, pending=pending) if pending != state.pending else state


# -- playing a card ---------------------------------------------------------------------

def play_card(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
              law: str) -> tuple[TableState, bool]:
    """A card that counts as played by ``law``, through the play core (47E1 first, then onto
    the trick if in turn). Dummy has played: an offer to designate dummy's card is answered."""
    state, placed = play.play_card(state, seq, type_, seat, card, law)
    if placed and seat is state.dummy:
        state = clear_designation_offers(state)
    return state, placed


def record_played(state: TableState, seq: int, type_: str, seat: Seat, card: Card, law: str) -> TableState:
    """Play ``card`` and record the fact's reading."""
    state, placed = play_card(state, seq, type_, seat, card, law)
    if placed:
        return record_card(state, CardRecord(seq, type_, seat, card, CardRuling.PLAYED, law))
    return state


class AuctionCard(Protocol):
    """A family's reading of a card dropped or played during the auction; None: not its own."""

    def __call__(self, state: TableState, seq: int, type_: str, seat: Seat, card: Card, /) -> TableState | None: ...


class Attention(Protocol):
    """A family's reading of an attention drawn by dummy, after the fact is journalled."""

    def __call__(self, state: TableState, seq: int, /) -> TableState: ...


AUCTION_CARD_HOOKS: list[AuctionCard] = []
"""Law 24's reader of a card dropped or played during the auction (ledger.laws.exposed):
``hook(state, seq, type, seat, card)`` returns the new state, or None (issue 12)."""


def auction_card_hook(fn: F) -> F:
    """Register the reader of a card during the auction; one only."""
    if AUCTION_CARD_HOOKS:
        raise RuntimeError("auction card hook supplied twice")
    AUCTION_CARD_HOOKS.append(fn)
    return fn


DUMMY_FIRST_LAWS = {"1997": "43B2c", "2017": "43B3"}
"""The Law of dummy who, after a 43A2 violation, is the first to draw attention to a defender's
irregularity (no rectification), by edition: read by the revokes, penalty-card and lead families."""


def dummy_first_law(state: TableState) -> str:
    """``"43B3"`` (2017) or ``"43B2c"`` (1997), without the edition (cited when recorded)."""
    return DUMMY_FIRST_LAWS[state.edition]


def dummy_first_attention(state: TableState, irregularity: int) -> int | None:
    """1997 43B2c / 2017 43B3: the seq of the ``AttentionDrawn`` by which dummy, after a
    43A2 violation (``DummyViolation`` logged before it), was the first to draw attention to
    the defenders' irregularity at seq ``irregularity`` (his ``about`` names it or nothing,
    and nobody drew attention to it before him); else None."""
    if state.dummy is None or state.contract is None:
        return None
    for f in state.procedure:
        if f.seq <= irregularity or f.type != "AttentionDrawn" or f.about not in (None, irregularity):
            continue
        if f.by is not state.dummy:
            return None  # another player drew attention first
        violated = any(v.type == "DummyViolation" and v.seq < f.seq for v in state.procedure)
        return f.seq if violated else None
    return None


ATTENTION_HOOKS: list[Attention] = []
"""Readers of an attention drawn by dummy (``ledger.laws.leads``: a pending lead out of
turn, 43B3): ``hook(state, seq) -> state``, called after the fact is journalled."""


def attention_hook(fn: F) -> F:
    ATTENTION_HOOKS.append(fn)
    return fn


def second_from_dummy(state: TableState, seat: Seat) -> bool:
    """54B2 (both editions): declarer accepted a faced opening lead out of turn and stays
    declarer; the second card should come from his own hand (54B1), but he plays it from
    dummy: dummy's card is played (and may be withdrawn only to correct a revoke)."""
    if state.phase != PLAY or state.contract is None or seat is not state.dummy \
            or state.turn is not state.contract.declarer or len(state.tricks) != 1:
        return False
    trick = state.tricks[0]
    if len(trick.cards) != 1:
        return False
    lead = trick.cards[0]
    return any(o.kind == OutOfTurnKind.OPENING_LEAD and o.status == "accepted" and o.seq == lead.seq
               for o in state.out_of_turn)


def dummy_review(state: TableState, what: str, effect: str) -> str:
    """The question 1997 43B2c / 2017 43B3 leaves to the director."""
    law = dummy_first_law(state)
    return (f"{law} dummy, after a 43A2 violation, was the first to draw attention to {what}: no rectification "
            f"({effect}), play continues as though there were no irregularity; at the end of play "
            + ("the director awards an adjusted score to both sides if the defenders gained by it (equity)"
               if state.edition == Edition.E1997 else
               "the director takes away any advantage the defenders gained (adjusted score to them)"))
