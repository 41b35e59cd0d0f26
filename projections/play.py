"""The play core: the opening lead (Law 41), cards played (Law 45A, 45B), tricks
and their winners (Law 44); when the thirteenth trick is quitted play ends and the
results family (``ledger.laws.results``, Law 77) reads the result.

What the Law families read at play time reaches the core through its
interception points (:data:`INTERCEPTORS`), each supplied by one family, so the
core imports none of them: a lead (2017: or play) out of turn after an
opponent said it was his turn (47E1, ``ledger.laws.withdrawals``); a card faced
while an illegally withdrawn one stands (47G / 2017 47F, the same); leads out
of turn, the fifth card and a second card from dummy after an accepted
opening lead out of turn (41A, 45E, 53 to 56, 54B2: ``ledger.laws.leads``); a
play out of turn to a trick already led (57: ``ledger.laws.premature``, a
defender's, and declarer's from either hand, 2017 57C3) and a play against
declarer's 57A choice; penalty-card obligations (``ledger.laws.penalty``).
An action no family rules on (a card exposed during the auction) is kept as an
``unprocessed`` irregularity. A revoke card is played all the same (Law 61: a
revoke is a played card); ``ledger.laws.revokes`` reads the revokes from the tricks.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, TypedDict, TypeVar

import attrs

from ledger.bridge import Card, Seat, Strain
from ledger.bridge import trick_winner as bridge_trick_winner
from ledger.events import CardPlayed, CardWithdrawn, LeadFaced, LeadFaceDown
from ledger.scoring import duplicate_score
from projections.fold import Step, handles
from projections.obligations import active_restrictions
from projections.state import unprocessed
from projections.state import (AUCTION, ENDED, OPENING_LEAD, PLAY, Breach, FaceDownLead, Irregularity, NotMade,
                               PlayedCard, Result, TableState, Trick, replace)
from projections.vocab import IrregularityKind

F = TypeVar("F", bound=Callable[..., Any])


def trick_winner(cards: tuple[PlayedCard, ...], trumps: Strain) -> Seat:
    """Law 44 (:func:`ledger.bridge.trick_winner`) on the cards of a trick as the state holds them."""
    return bridge_trick_winner([(p.seat, p.card) for p in cards], trumps.trump)


def play_law(state: TableState, seat: Seat) -> str:
    """Why a card placed on the table by ``seat`` counts as played."""
    if seat is state.dummy:
        return state.cite("45B")  # named by declarer, placed by dummy
    return state.cite("45A")  # detached from the hand and faced


def add_card(state: TableState, seq: int, seat: Seat, card: Card, law: str) -> TableState:
    """Put a played card on the current trick (or start the next one)."""
    assert state.contract is not None
    current = state.current_trick
    if current is None or current.complete:
        number = len(state.tricks) + 1
        # spec 1.3 (67): a seat the director found did not play to this trick is absent from it
        absent = next((d.seat for d in state.defective if d.trick == number and d.seat is not seat), None)
        trick = Trick(number, seat, absent=absent)
        tricks = state.tricks + (trick,)
    else:
        trick, tricks = current, state.tricks
    # In the seats' order from the leader: a seat whose card was legally
    # withdrawn (Law 47) plays again into its own place.
    cards = tuple(sorted(trick.cards + (PlayedCard(seat, card, seq, law),),
                         key=lambda p: (p.seat.index - trick.leader.index) % 4))
    trick = Trick(trick.number, trick.leader, cards, None, trick.absent)
    if trick.complete:
        trick = attrs.evolve(trick, winner=trick_winner(cards, state.contract.strain))
    tricks = tricks[:-1] + (trick,)
    state = replace(state, tricks=tricks, hands=state.without_card(seat, card), phase=PLAY)
    if trick.number == 13 and trick.complete:
        state = replace(state, phase=ENDED, result=played_result(state))
    return state


def played_result(state: TableState) -> Result:
    """The result of the tricks as played when play ends: the results family's reading
    (Law 77, ``ledger.laws.results``), supplied at the ``result`` point."""
    return INTERCEPTORS["result"](state)


class Retracted(Protocol):
    """``retracted``: the card retracted, not played (47E1); None when not."""

    def __call__(self, state: TableState, seq: int, type_: str, seat: Seat, card: Card, /) -> TableState | None: ...


class Defective(Protocol):
    """``defective``: the card a seat found not to have played to a trick supplies to it (67A1) or
    places among his played cards (67B1), spec 1.3; None when the card is not that one."""

    def __call__(self, state: TableState, seq: int, seat: Seat, card: Card, /) -> TableState | None: ...


class Standing(Protocol):
    """``standing``: a card not in turn exposed, not played, while the seat's card stands (47G / 47F)."""

    def __call__(self, state: TableState, seq: int, seat: Seat, card: Card, /) -> TableState | None: ...


class FifthCard(Protocol):
    """``fifth_card``: a card added to a complete trick (45E)."""

    def __call__(self, state: TableState, seq: int, ev: CardPlayed, /) -> TableState | None: ...


class OutOfTurn(Protocol):
    """``out_of_turn``: (state, True or False) when a lead out of turn decides, (state, None) when not."""

    def __call__(self, state: TableState, seq: int, type_: str, seat: Seat, card: Card,
                 law: str, /) -> tuple[TableState, bool | None]: ...


class InPlace(Protocol):
    """``in_place``: the Law under which a card not in turn stands in its place (54B2); None when not."""

    def __call__(self, state: TableState, seat: Seat, /) -> str | None: ...


class Premature(Protocol):
    """``premature``: a card not in turn while a trick is under way (57); None when not."""

    def __call__(self, state: TableState, seq: int, type_: str, seat: Seat, card: Card,
                 law: str, /, via: str | None = None) -> tuple[TableState, bool] | None: ...


class Breaks(Protocol):
    """``breach`` and ``play_restriction``: what the card breaks (50C, 50D1, 51A; 57A), or None."""

    def __call__(self, state: TableState, seat: Seat, card: Card, /) -> str | None: ...


class FaceDown(Protocol):
    """``face_down``: the wrong defender's face-down opening lead (41A); None when not."""

    def __call__(self, state: TableState, seq: int, ev: LeadFaceDown, /) -> TableState | None: ...


class PlayedResult(Protocol):
    """``result``: the result of the tricks as played when play ends (Law 77)."""

    def __call__(self, state: TableState, /) -> Result: ...


class Withdrawn(Protocol):
    """``withdrawn``: a card withdrawn from a trick or a face-down lead (47, 41A, 45D) that no
    revoke correction explains (the revokes family reads 62D1 first)."""

    def __call__(self, state: TableState, seq: int, ev: CardWithdrawn, /) -> TableState: ...


class PlayedOn(Protocol):
    """A family's offer that lapses when ``seat`` plays on (52B1a, 62C1, 57A): the state without it."""

    def __call__(self, state: TableState, seat: Seat, /) -> TableState: ...


PLAYED_ON: list[PlayedOn] = []
"""What lapses when a card is played (each family's own offers; they commute), before the
``out_of_turn`` point: penalty cards (52B1a, 51A), revokes (62C1), premature plays (57A)."""


def on_played_on(fn: PlayedOn) -> None:
    """Register a family's lapse (the composition root, from the ``on_play_on`` marks)."""
    if fn in PLAYED_ON:
        raise RuntimeError(f"{fn!r} registered twice")
    PLAYED_ON.append(fn)


class PlayPoints(TypedDict, total=False):
    """The play core's interception points, each with its signature."""

    retracted: Retracted
    defective: Defective
    standing: Standing
    fifth_card: FifthCard
    out_of_turn: OutOfTurn
    in_place: InPlace
    premature: Premature
    breach: Breaks
    play_restriction: Breaks
    face_down: FaceDown
    result: PlayedResult
    withdrawn: Withdrawn


INTERCEPTORS: PlayPoints = {}
"""Play-time interceptors supplied by the families (the play core imports none of them),
by point (:data:`POINTS`), registered by the composition root (``ledger.laws``)."""

POINTS = tuple(PlayPoints.__annotations__)
"""The interception points, in the order a card meets them:

* ``retracted`` (:func:`play_card`, before anything else): ``(state, seq, type, seat, card)
  -> state | None``, the card retracted, not played (47E1, ``ledger.laws.withdrawals``);
* ``defective`` (a card of a seat found not to have played to a trick, spec 1.3): ``(state, seq, seat,
  card) -> state | None``, the card supplied to that trick (67A1) or placed among his played cards
  (67B1) (``ledger.laws.defective``);
* ``standing`` (a card not in turn): ``(state, seq, seat, card) -> state | None``, the card
  exposed, not played, while the seat's card on the last trick stands after an illegal
  withdrawal (1997 47G, 2017 47F; ``ledger.laws.withdrawals``);
* ``fifth_card`` (45E), ``out_of_turn`` (leads out of turn, 53 to 56), ``in_place``
  (``(state, seat) -> law | None``: a card not in turn played in its place all the same, 54B2)
  and ``face_down`` (41A: the wrong defender leads face down): ``ledger.laws.leads``;
* ``premature``: a card not in turn while a trick is under way (Law 57) and
  ``play_restriction``: a play against a 57A ``PlayRestriction`` (``ledger.laws.premature``);
* ``breach``: a play against a penalty-card obligation (50C, 50D1, 51A; ``ledger.laws.penalty``);
* ``result``: the result of the tricks as played when play ends (Law 77, ``ledger.laws.results``);
* ``withdrawn``: a card withdrawn, read by the withdrawals family (47) when it corrects no revoke
  (:func:`withdraw`, asked by ``ledger.laws.revokes``, which owns ``CardWithdrawn``).
"""


def supply(point: str, fn: Callable[..., Any]) -> None:
    """Register ``fn`` at ``point``; one supplier per point, a point the core has not refused."""
    if point not in POINTS:
        raise RuntimeError(f"no interception point {point!r} in the play core (points: {POINTS})")
    if point in INTERCEPTORS:
        raise RuntimeError(f"play-time interceptor {point!r} supplied twice")
    INTERCEPTORS[point] = fn  # type: ignore[literal-required]  # point checked against POINTS above


def interceptor(point: str) -> Callable[[F], F]:
    """Register the decorated function at ``point`` now (a family marks its own with
    ``ledger.laws.base.at_play``, registered by the composition root)."""
    def wrap(fn: F) -> F:
        supply(point, fn)
        return fn
    return wrap


def withdraw(state: TableState, seq: int, ev: CardWithdrawn) -> TableState:
    """A card withdrawn, as the withdrawals family reads it (its ``withdrawn`` point)."""
    return INTERCEPTORS["withdrawn"](state, seq, ev)


def premature(state: TableState, seq: int, type_: str, seat: Seat, card: Card, law: str,
              via: str | None = None) -> tuple[TableState, bool] | None:
    """A card not in turn while a trick is under way, as the premature-plays family reads it (57)."""
    return INTERCEPTORS["premature"](state, seq, type_, seat, card, law, via=via)


def restriction_breach(state: TableState, seat: Seat, card: Card) -> str | None:
    """A lead that breaks a lead restriction in force while the player could comply."""
    trick = state.current_trick
    if trick is not None and not trick.complete:
        return None  # not a lead
    hand = state.hand(seat)
    for r in active_restrictions(state):
        if r.seat is not seat:
            continue
        if r.mode == "must" and card.suit is not r.suit and any(c.suit is r.suit for c in hand):
            return f"{seat} led {card} while required to lead {r.suit.symbol}"
        if r.mode == "must_not" and card.suit is r.suit and any(c.suit is not r.suit for c in hand):
            return f"{seat} led {card} while forbidden to lead {r.suit.symbol}"
    return None


def claim_stands(state: TableState) -> bool:
    """A claim or concession stands (not void under 68B2): play has ceased (68D)."""
    return state.claim is not None and state.claim.status != "void"


def after_claim(state: TableState, seq: int, seat: Seat, card: Card) -> TableState:
    """68D (spec 1.3): a card after a claim is not a play: no penalty card, no revoke, no option;
    kept among the plays not made (in 2017 the director's evidence, 70D3)."""
    reason = "after a claim: play has ceased (no penalty card, no revoke)"
    return replace(state, plays_not_made=state.plays_not_made + (NotMade(seq, seat, str(card), reason,
                                                                            state.cite("68D")),))


def revoke_detail(state: TableState, seat: Seat, card: Card) -> str | None:
    trick = state.current_trick
    if trick is None or trick.complete:
        return None
    led = trick.suit_led
    if led is not None and card.suit is not led and any(c.suit is led for c in state.hand(seat)):
        return f"revoke: {seat} played {card} to trick {trick.number} holding {led.symbol}"
    return None


def on_card_played(state: TableState, seq: int, ev: CardPlayed) -> TableState:
    seat, card = ev.seat, ev.card
    if ev.fifth_card and state.phase not in (AUCTION, ENDED):
        fifth = INTERCEPTORS["fifth_card"](state, seq, ev)  # 45E
        if fifth is not None:
            return fifth
        return unprocessed(state, seq, ev.TYPE, seat, f"{card} of {seat} added to a trick (fifth card)")
    return try_play(state, seq, ev.TYPE, seat, card, play_law(state, seat))[0]


def play_card(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
              law: str) -> tuple[TableState, bool]:
    """A card that counts as played by ``law``: retracted when a family reads it so before
    anything else (``retracted``: 47E1), else :func:`try_play`."""
    retracted = INTERCEPTORS["retracted"](state, seq, type_, seat, card)
    if retracted is not None:
        return retracted, False
    return try_play(state, seq, type_, seat, card, law)


def try_play(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
             law: str) -> tuple[TableState, bool]:
    """A card that counts as played by ``law`` (45A, 45B, 45C1...): put on the
    trick when it is the seat's turn, else kept as an unprocessed irregularity.
    Returns the state and whether the card went on the trick."""
    before = _before_the_trick(state, seq, type_, seat, card)
    if before is not None:
        return before
    for lapse in PLAYED_ON:  # 52B1a, 62C1, 57A: the player plays on
        state = lapse(state, seat)
    state, placed = INTERCEPTORS["out_of_turn"](state, seq, type_, seat, card, law)  # 53 to 56
    if placed is not None:
        return state, placed
    in_place = INTERCEPTORS["in_place"](state, seat) if seat is not state.turn else None
    if in_place is not None:
        law = in_place  # 54B2: it stands; withdrawn only to correct a revoke (47F / 1997 47G)
    elif seat is not state.turn:
        return _not_in_turn(state, seq, type_, seat, card, law)
    breach = _breach(state, seat, card)
    if breach is not None:
        state = attrs.evolve(state, breaches=state.breaches + (Breach(seq, seat, breach, card),))
    state = add_card(state, seq, seat, card, law)
    # A revoke (61A) stays on the trick: ledger.laws.revokes reads it from the tricks.
    return state, True


def _before_the_trick(state: TableState, seq: int, type_: str, seat: Seat,
                      card: Card) -> tuple[TableState, bool] | None:
    """What a card is before it can reach the trick (during the auction, supplied to a defective
    trick, after a claim or the end of play, not held, under a face-down lead, a card not in turn
    while the seat's own card stands); None when it goes on to the trick."""
    if state.phase == AUCTION:
        return unprocessed(state, seq, type_, seat, f"{card} of {seat} exposed during the auction"), False
    if state.defective:  # spec 1.3 (67A1, 67B1): the card the offender supplies to a defective trick
        supplied = INTERCEPTORS["defective"](state, seq, seat, card)
        if supplied is not None:
            return supplied, True
    if claim_stands(state):
        return after_claim(state, seq, seat, card), False
    if state.phase == ENDED:
        return unprocessed(state, seq, type_, seat, f"{card} of {seat} after play ended"), False
    if not state.holds(seat, card):
        return unprocessed(state, seq, type_, seat, f"{card} is not in {seat}'s remaining hand"), False
    if state.face_down_lead is not None:
        return unprocessed(state, seq, type_, seat, f"{card} of {seat} while a face-down lead is not faced"), False
    standing = INTERCEPTORS["standing"](state, seq, seat, card) if seat is not state.turn else None
    if standing is not None:  # 1997 47G / 2017 47F: his card stands; this one is exposed (49, 50B)
        return standing, False
    return None


def _not_in_turn(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
                 law: str) -> tuple[TableState, bool]:
    """A card out of turn no lead-out-of-turn Law placed: Law 57's reading, else unprocessed."""
    read = INTERCEPTORS["premature"](state, seq, type_, seat, card, law)
    if read is not None:  # Law 57 (a play at its proper turn, 2017 57D, comes back placed)
        return read
    what = "opening lead" if state.phase == OPENING_LEAD else "card"
    return unprocessed(state, seq, type_, seat,
                        f"{what} {card} by {seat} out of turn ({state.turn} to play)"), False


def _breach(state: TableState, seat: Seat, card: Card) -> str | None:
    """What the card breaks: a lead restriction, a penalty card's (50C, 50D1, 51A), Law 57A's."""
    breach = restriction_breach(state, seat, card)
    if breach is None:
        breach = INTERCEPTORS["breach"](state, seat, card)  # penalty cards: 50C, 50D1, 51A
    if breach is None:
        breach = INTERCEPTORS["play_restriction"](state, seat, card)  # 57A
    return breach


@handles(LeadFaceDown)
def on_lead_face_down(state: TableState, step: Step[LeadFaceDown]) -> TableState:
    seq, ev = step.seq, step.event
    if claim_stands(state):
        return after_claim(state, seq, ev.seat, ev.card)
    if state.phase != OPENING_LEAD or state.face_down_lead is not None:
        return unprocessed(state, seq, ev.TYPE, ev.seat, f"face-down lead {ev.card} by {ev.seat} out of place")
    returned = INTERCEPTORS["face_down"](state, seq, ev)  # 41A: the wrong defender leads face down
    if returned is not None:
        return returned
    if ev.seat is not state.turn or not state.holds(ev.seat, ev.card):
        return unprocessed(state, seq, ev.TYPE, ev.seat,
                            f"face-down opening lead {ev.card} by {ev.seat} out of turn ({state.turn} to lead)")
    return attrs.evolve(state, face_down_lead=FaceDownLead(ev.seat, ev.card, seq))


@handles(LeadFaced)
def on_lead_faced(state: TableState, step: Step[LeadFaced]) -> TableState:
    seq, ev = step.seq, step.event
    lead = state.face_down_lead
    if lead is None:
        return state.add_irregularity(Irregularity(IrregularityKind.UNPROCESSED, seq, ev.TYPE,
                                                            detail="no face-down lead to face"))
    state = attrs.evolve(state, face_down_lead=None)
    # The face-down opening lead becomes a played card when it is faced (41C).
    return add_card(state, lead.seq, lead.seat, lead.card, state.cite("41C"))


def final_result(state: TableState, tricks: int) -> Result:
    """The result of the contract with ``tricks`` for declarer (Law 77 score)."""
    assert state.contract is not None
    contract = state.contract
    vulnerable = state.board.vulnerability.is_vulnerable(contract.side)  # type: ignore[union-attr]  # a board in play has its vulnerability
    score = duplicate_score(contract.level, contract.strain.value, contract.risk.value, vulnerable, tricks)
    score_ns = score if contract.side.value == "NS" else -score
    return Result(f"{contract.level}{contract.strain}", contract.declarer, contract.risk.value,
                  tricks, score_ns, state.cite("77"))
