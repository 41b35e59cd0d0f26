"""A defender's premature lead or play: Law 57 (with 1997 53B / 2017 53C, which send
here), both editions side by side: one family, its reading and its rules.

A card that counts as played by a defender who is not to play comes here from
``projections.play.try_play`` (the play-time interceptor ``premature``) (after the leads out of turn, Laws 53 to 56, have
declined it) while a trick is under way:

| the card | 1997 | 2017 |
|---|---|---|
| led to the next trick, or played to this one, before his partner has played to it (57A) | a penalty card (major: exposed through deliberate play, 50B); declarer chooses for the partner: his highest or lowest card of the suit led, a card of another suit he names, or no card of another suit he names | the same |
| the same, declarer having played from both hands (57C1) | no rectification: the card goes back to the hand | the same |
| the same, after dummy played a card to the trick prematurely, or indicated one (57C; 2017 57C2) | no rectification: the card goes back | the same |
| played (not led) at his RHO's turn after his partner has played | no rule: his play if legal, the director is asked (digest 14.12, 11) | 57D: played at his proper turn if legal, else a major penalty card |
| declarer's card (not a lead), from his hand or dummy, before that hand's turn | no rule: read as 2017, the director is asked | 57C3: a played card, in its own place in the trick (if legal it may not be withdrawn) |

Declarer's choice (``OptionChosen`` ``play_highest``, ``play_lowest``,
``play_other_suit`` / ``forbid_other_suit`` with ``suit``) becomes the
``PlayRestriction`` on the partner's play to this trick (``play_restrictions``),
which lapses once he has played to it; a play against it when he could comply
is a breach (61A, no trick transfer, 64B3), as for a lead restriction. He
follows suit first (59: "unable to comply ... because he is obliged to follow
suit"). The offender then plays his penalty card at the first legal
opportunity (50D1), usually to the same trick.

The rules (:func:`premature_plays`):

| record | rectification |
|---|---|
| 57A: led or played before his partner played to the trick | ``IrregularityRecorded`` ``play_out_of_turn`` (57A); a major penalty card (``ledger.laws.penalty``, 50B); ``OptionsOffered`` to declarer ``play_highest``, ``play_lowest``, ``play_other_suit``, ``forbid_other_suit`` (57A) |
| declarer chose | ``PlayRestriction`` on the partner's play to the trick (57A) |
| the partner played before declarer chose | ``DirectorReviewRequired`` (57A, 9B2: the director rules) |
| 57C1: declarer had played from both hands; 57C2: dummy had played a card to the trick prematurely (a 57C3 record from dummy) or indicated one (``DummyIndicatedCard``) | ``IrregularityRecorded`` (57C1, 57C2), ``CardReturned``: no rectification |
| 2017 57C3: declarer's premature play (not a lead), from his hand or dummy | ``IrregularityRecorded`` (57C3, the offender declarer); the card is played (in its own place in the trick): no rectification |
| 1997, the same play | no 1997 rule: read as 2017 57C3, and ``DirectorReviewRequired`` |
| 2017 57D: played at his RHO's turn after his partner played | ``IrregularityRecorded`` (57D); legal: played at his proper turn; not legal: a major penalty card; Law 16 for the director when a side reserves its rights |
| 1997, the same play | no 1997 rule (digest 14.12, 11): read as 2017 57D, and ``DirectorReviewRequired`` |

The 1997 list of declarer's options is not verified (digest 14.12, 12): the four 2017
options are offered in both editions.
"""

from __future__ import annotations

from typing import Any

import attrs

from ledger.bridge import Card, Seat
from ledger.events import (CardReturned, DirectorReviewRequired, IrregularityRecorded, OptionsOffered,
                           PlayRestriction)
from ledger.laws.base import Prescription, Ruled, at_play, cited, handles, on_play_on, words_of
from projections.fold import Step, law_of
from projections.play import add_card
from projections.state import PLAY, Choice, Exposure, NotMade, PrematurePlay, TableState
from projections.vocab import Edition, IrregularityKind, PrematureKind

LAWS = ("57",)
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS = {
    "played before his RHO": {"1997": "57", "2017": "57D"},
    "declarer had played from both hands": {"1997": "57C", "2017": "57C1"},
    "dummy had played or indicated": {"1997": "57C", "2017": "57C2"},
    "declarer's premature play": {"1997": "57", "2017": "57C3"},
}
"""The family's citations per edition (``ledger.laws.base.cited``): 1997 has no 57D or 57C3
(the ledger reads the play as 2017 does, cites 57 and asks the director)."""


RETURNED = (PrematureKind.BOTH_HANDS, PrematureKind.AFTER_DUMMY)
"""The kinds whose card goes back to the hand, no rectification (57C1, 57C2)."""

OPTIONS = ("play_highest", "play_lowest", "play_other_suit", "forbid_other_suit")
"""57A: declarer's options for the offender's partner (spec 1.2, 9.F)."""

MODES = {"play_highest": "highest", "play_lowest": "lowest", "play_other_suit": "suit",
         "forbid_other_suit": "not_suit"}
"""The ``PlayRestriction`` mode of each option."""


# -- the reading of the facts ------------------------------------------------------------

def _declaring(state: TableState, seat: Seat) -> bool:
    return state.contract is not None and seat.side is state.contract.side


def _not_made(state: TableState, seq: int, seat: Seat, card: Card, reason: str, law: str) -> TableState:
    return attrs.evolve(state, plays_not_made=state.plays_not_made + (NotMade(seq, seat, str(card), reason, law),))


def _record(state: TableState, rec: PrematurePlay) -> TableState:
    return attrs.evolve(state, premature=state.premature + (rec,))


def _set(state: TableState, rec: PrematurePlay) -> TableState:
    return attrs.evolve(state, premature=tuple(rec if r.seq == rec.seq else r for r in state.premature))


def pending(state: TableState) -> PrematurePlay | None:
    return next((r for r in state.premature if r.status == "pending"), None)


def legal(state: TableState, seat: Seat, card: Card) -> bool:
    """Following suit when able (Law 44C): the card is legal on the current trick."""
    trick = state.current_trick
    if trick is None or trick.complete or not trick.cards:
        return True
    led = trick.suit_led
    return card.suit is led or not any(c.suit is led for c in state.hand(seat))


@at_play("premature")
def premature_play(state: TableState, seq: int, type_: str, seat: Seat, card: Card, law: str,
                   via: str | None = None) -> tuple[TableState, bool] | None:
    """Law 57 for a card not in turn while a trick is under way (a defender's; declarer's,
    from either hand, 2017 57C3); None: not ours."""
    if state.phase != PLAY or state.contract is None or seat is state.turn:
        return None
    trick = state.current_trick
    if trick is None or trick.complete or not trick.cards or not state.holds(seat, card):
        return None
    if _declaring(state, seat):
        return _declarer_premature(state, seq, seat, card, via)
    partner = seat.partner
    mine = trick.card_of(seat)
    if trick.card_of(partner) is not None:
        if mine is not None or state.turn is not seat.rho:
            return None
        # partner has played, his RHO is to play: 2017 57D (1997: no rule, the same reading, asked)
        ruling_law = cited(state, CITATIONS, "played before his RHO")
        if legal(state, seat, card):
            state = _record(state, PrematurePlay(seq, seat, card, PrematureKind.BEFORE_RHO, trick.number, status="played",
                                                 settled=seq, law=ruling_law, via=via))
            return add_card(state, seq, seat, card, ruling_law), True
        state = _record(state, PrematurePlay(seq, seat, card, PrematureKind.BEFORE_RHO, trick.number, status="penalty",
                                             settled=seq, law=ruling_law, via=via))
        state = _not_made(state, seq, seat, card, "played before his RHO, and not a legal card: a major "
                          "penalty card", ruling_law)
        return attrs.evolve(state, exposures=state.exposures + (Exposure(seq, seat, card, "premature", ruling_law),)), \
            False
    assert state.contract is not None
    declarer, dummy = state.contract.declarer, state.contract.dummy
    if trick.card_of(declarer) is not None and trick.card_of(dummy) is not None:  # 57C1 (1997 57C)
        ruling_law = cited(state, CITATIONS, "declarer had played from both hands")
        state = _record(state, PrematurePlay(seq, seat, card, PrematureKind.BOTH_HANDS, trick.number, status="returned",
                                             settled=seq, law=ruling_law, via=via))
        return _not_made(state, seq, seat, card, "led or played before his partner, declarer having played "
                         "from both hands: no rectification, back to the hand", ruling_law), False
    dummy_played = any(r.kind == PrematureKind.DECLARER and r.seat is dummy and r.trick == trick.number for r in state.premature)
    if dummy_played or any(f.type == "DummyIndicatedCard" and f.seq > trick.cards[0].seq
                           for f in state.procedure):  # 57C2
        ruling_law = cited(state, CITATIONS, "dummy had played or indicated")
        state = _record(state, PrematurePlay(seq, seat, card, PrematureKind.AFTER_DUMMY, trick.number, status="returned",
                                             settled=seq, law=ruling_law, via=via))
        what = "played a card prematurely" if dummy_played else "suggested a card"
        return _not_made(state, seq, seat, card, f"led or played before his partner after dummy had {what} to "
                         "this trick: no rectification, back to the hand", ruling_law), False
    ruling_law = state.cite("57A")
    what = "led to the next trick" if mine is not None else "played"
    state = _record(state, PrematurePlay(seq, seat, card, PrematureKind.BEFORE_PARTNER, trick.number, law=ruling_law, via=via))
    state = _not_made(state, seq, seat, card, f"{what} before his partner played to trick {trick.number}: a "
                      "major penalty card", ruling_law)
    return attrs.evolve(state, exposures=state.exposures + (Exposure(seq, seat, card, "premature", ruling_law),)), False


def _declarer_premature(state: TableState, seq: int, seat: Seat, card: Card,
                        via: str | None) -> tuple[TableState, bool] | None:
    """2017 57C3: declarer's premature play (not a lead), from his hand or from dummy, is a
    played card (if legal it may not be withdrawn; not legal, a revoke, 61 to 64). It goes to
    its own seat's place in the trick (``add_card``), so the turn passes over it and the
    winner is read as usual. 1997 has no rule: the same reading, and the director is asked
    (``ledger.laws.premature``). A card from a hand that has played to this trick would be a
    lead to the next one: not ours (kept ``unprocessed``)."""
    trick = state.current_trick
    assert trick is not None
    if trick.card_of(seat) is not None:
        return None
    ruling_law = cited(state, CITATIONS, "declarer's premature play")
    state = _record(state, PrematurePlay(seq, seat, card, PrematureKind.DECLARER, trick.number, status="played",
                                         settled=seq, law=ruling_law, via=via))
    return add_card(state, seq, seat, card, ruling_law), True


# -- the restriction on the partner's play ------------------------------------------------

def _played_to(state: TableState, seat: Seat, number: int) -> bool:
    return number <= len(state.tricks) and state.tricks[number - 1].card_of(seat) is not None


@on_play_on
def lapse(state: TableState, seat: Seat) -> TableState:
    """The partner plays while declarer has not chosen yet: the offer lapses (the director is
    asked, ``ledger.laws.premature``)."""
    rec = pending(state)
    if rec is None or seat is not rec.seat.partner:
        return state
    state = attrs.evolve(state, pending=tuple(o for o in state.pending if law_of(o.law) != "57A"))
    return _set(state, attrs.evolve(rec, status="lapsed"))


def active(state: TableState) -> list[PrematurePlay]:
    """The 57A restrictions in force: chosen, the partner not yet played to that trick."""
    return [r for r in state.premature if r.kind == PrematureKind.BEFORE_PARTNER and r.status == "chosen"
            and not _played_to(state, r.seat.partner, r.trick)]


@at_play("play_restriction")
def restriction_breach(state: TableState, seat: Seat, card: Card) -> str | None:
    """A play against a 57A restriction when the player could comply (57B, 59: following
    suit comes first): the breach's words, else None."""
    trick = state.current_trick
    if trick is None or trick.complete or not trick.cards:
        return None
    led = trick.suit_led
    hand = state.hand(seat)
    of_led = [c for c in hand if c.suit is led]
    for r in active(state):
        if r.seat.partner is not seat or r.trick != trick.number:
            continue
        if r.option == "play_highest" and of_led and card != max(of_led, key=lambda c: c.strength):
            return f"{seat} played {card}, not his highest {led.symbol} as declarer required (57A)"  # type: ignore[union-attr]  # of_led is not empty: led is a Suit
        if r.option == "play_lowest" and of_led and card != min(of_led, key=lambda c: c.strength):
            return f"{seat} played {card}, not his lowest {led.symbol} as declarer required (57A)"  # type: ignore[union-attr]  # of_led is not empty: led is a Suit
        if r.option == "play_other_suit" and not of_led and r.suit is not None and card.suit is not r.suit \
                and any(c.suit is r.suit for c in hand):
            return f"{seat} played {card}, not a {r.suit.symbol} as declarer required (57A)"
        if r.option == "forbid_other_suit" and not of_led and r.suit is not None and card.suit is r.suit \
                and any(c.suit is not r.suit for c in hand):
            return f"{seat} played {card}, a {r.suit.symbol}, which declarer forbade (57A)"
    return None


def play_restrictions_document(state: TableState) -> list[dict[str, Any]]:
    """``play_restrictions`` (spec 1.2, 9.E): the 57A restrictions in force."""
    return [{"seat": str(r.seat.partner), "mode": MODES.get(r.option or "", r.option),
             "suit": str(r.suit) if r.suit is not None and r.option in ("play_other_suit", "forbid_other_suit")
             else None, "law": r.law} for r in active(state)]


def premature_document(state: TableState) -> list[dict[str, Any]]:
    """``premature_plays`` (extension): every premature lead or play and how it was read."""
    return [{"seq": r.seq, "seat": str(r.seat), "card": str(r.card), "kind": r.kind, "trick": r.trick,
             "status": r.status, "option": r.option, "suit": str(r.suit) if r.suit else None,
             "settled": r.settled, "law": r.law, "via": r.via} for r in state.premature]


@handles(PlayRestriction)
def on_play_restriction(state: TableState, step: Step[PlayRestriction]) -> TableState:
    """Derived: the premature play's record already holds declarer's choice (``active``)."""
    return state


# -- option effects: declarer's choice ----------------------------------------------------

def on_choice(state: TableState, choice: Choice) -> TableState:
    """OptionChosen on the 57A offer: the partner's play to this trick is restricted."""
    rec = pending(state)
    if rec is None:
        return state
    return _set(state, attrs.evolve(rec, status="chosen", option=choice.option, suit=choice.suit,
                                    settled=choice.seq))


OPTION_EFFECTS = {"57A": on_choice}


# -- the rules ---------------------------------------------------------------------------

def premature_plays(state: TableState) -> list[Prescription]:
    out: list[Prescription] = []
    if state.contract is None:
        return out
    cite = state.cite
    for r in state.premature:
        causes = (r.seq,)
        offender = state.contract.declarer if r.kind == PrematureKind.DECLARER else r.seat  # 57C3: declarer plays dummy's cards
        out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.PLAY_OUT_OF_TURN, offender=str(offender), about=r.seq),
                                causes, r.law))
        settled = causes + ((r.settled,) if r.settled is not None and r.settled != r.seq else ())
        if r.kind == PrematureKind.BEFORE_PARTNER:
            out.append(Prescription(OptionsOffered(to=state.contract.declarer, options=OPTIONS, law=cite("57A"),
                                                   about=r.seq), causes, cite("57A")))
            if r.status == "chosen" and r.option in MODES:
                suit = r.suit if r.option in ("play_other_suit", "forbid_other_suit") else None
                out.append(Prescription(PlayRestriction(seat=r.seat.partner, mode=MODES[r.option], suit=suit),
                                        settled, cite("57A")))
            elif r.status == "lapsed":
                out.append(Prescription(DirectorReviewRequired(
                    reason=f"57A {r.seat.partner} played to trick {r.trick} before declarer chose among the "
                           f"options for {r.seat}'s premature {r.card}: the director rules (9B2)", about=r.seq),
                    causes, cite("57A")))
        elif r.kind in RETURNED:
            out.append(Prescription(CardReturned(seat=r.seat, card=r.card), causes, r.law))
        elif r.kind == PrematureKind.BEFORE_RHO and state.edition == Edition.E1997:
            out.append(Prescription(DirectorReviewRequired(
                reason=f"57 {r.seat} played {r.card} at his RHO's turn after his partner had played: the 1997 "
                       "Laws have no rule (2017 57D); the ledger reads it as "
                       + ("his play at his proper turn" if r.status == "played" else "a major penalty card")
                       + "; the director rules (Law 16 for the information)", about=r.seq), causes, r.law))
        elif r.kind == PrematureKind.DECLARER and state.edition == Edition.E1997:
            hand = "dummy" if r.seat is state.contract.dummy else "his hand"
            out.append(Prescription(DirectorReviewRequired(
                reason=f"57 declarer played {r.card} from {hand} ({r.seat}) to trick {r.trick} before his turn: the "
                       "1997 Laws have no rule (2017 57C3); the ledger reads it as a played card, in its own "
                       "place in the trick; the director rules", about=r.seq), causes, r.law))
    return out


# -- words and citations -----------------------------------------------------------------

PREMATURE: dict[PrematureKind, Ruled] = {
    PrematureKind.BEFORE_PARTNER: Ruled(
        "played before his partner had played to trick {trick}: a major penalty card, and declarer "
        "chooses what the partner plays to that trick",
        {"1997": "57A", "2017": "57A"}),
    PrematureKind.BOTH_HANDS: Ruled(
        "played before his partner, declarer having played from both hands: no rectification, back to "
        "the hand",
        CITATIONS["declarer had played from both hands"]),
    PrematureKind.AFTER_DUMMY: Ruled(
        "played before his partner after dummy had played or suggested a card to this trick: no "
        "rectification, back to the hand",
        CITATIONS["dummy had played or indicated"]),
    PrematureKind.DECLARER: Ruled(
        "declarer's card played before that hand's turn to trick {trick}: a played card, no rectification",
        CITATIONS["declarer's premature play"]),
    PrematureKind.BEFORE_RHO: Ruled(
        "played at his right-hand opponent's turn after his partner had played",
        CITATIONS["played before his RHO"]),
}
"""How each premature lead or play (``PrematureKind``) reads for people (``ledger.render``; a
template with ``{trick}``) and the Law it rests on, by edition, every edition named (``None``:
cannot arise under it; none here: 1997 has no 57C3 or 57D, the ledger reads those plays as 2017
does and cites 57)."""

PREMATURE_WORDS: dict[PrematureKind, str] = words_of(PREMATURE)
"""The words alone, as ``ledger.render`` reads them for the document's ``premature_plays``."""

PREMATURE_STATUS: dict[str, str] = {
    "pending": "declarer's choice is awaited",
    "lapsed": "the partner played before declarer chose: the director rules",
    "played": "it stands as his play at his proper turn",
    "penalty": "not a legal card: a major penalty card",
    "returned": "",
}
"""Where a premature play stands, in a director's words (``chosen`` says the option chosen)."""

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.PLAY_OUT_OF_TURN: "play out of turn",
}
"""How the irregularity of this family's rules (``IrregularityKind``: 57) reads for people."""

OPTION_WORDS_BY_LAW: dict[tuple[str, str], str] = {
    ("57A", "play_highest"): "the offender's partner plays his highest card of the suit led",
    ("57A", "play_lowest"): "the offender's partner plays his lowest card of the suit led",
    ("57A", "play_other_suit"): "the offender's partner plays a card of another suit declarer names",
    ("57A", "forbid_other_suit"): "the offender's partner may not play a card of another suit declarer names",
}
"""Words for declarer's options of 57A (``OPTIONS``)."""
