"""Leads out of turn: Laws 41A, 53, 54, 55, 56 (47E1 stays in
``projections.cards``), both editions, and the fifth card (45E).

A card that counts as played (45A, 45C...) by a player whose lead it is not
comes here from ``projections.play.try_play`` (:func:`intercept`). It is not
put on a trick: it waits, faced, in ``state.out_of_turn`` with status
``pending`` while the option is open, and the ruling engine
(``ledger.laws.leads``) offers it:

| lead out of turn | to | options | refused |
|---|---|---|---|
| opening lead by the wrong defender, faced (54) | presumed declarer | ``accept_declare`` (54B), ``accept_become_dummy`` (54A), ``refuse`` (54D) | a major penalty card (54D, 50D) |
| opening lead face down by the wrong defender (41A) | nobody | none: returned to the hand, no rectification | |
| a defender's lead during play (53, 56) | declarer | ``accept``, ``refuse`` (53A) | a major penalty card (56, 50D) |
| declarer's lead from the wrong hand, or when a defender was to lead (55) | either defender | ``accept``, ``refuse`` (55A) | back to the hand (55B1), the correct hand leads (55B2) |

A card played by the next player in rotation to the irregular lead accepts it
(53A); for the opening lead, dummy starting to spread his hand accepts it,
declarer remaining declarer (54C: declarer could have seen dummy's cards), and
the presumed declarer starting to spread his own hand accepts it, declarer
becoming dummy (54A). Any other card while the option is open is kept
``unprocessed`` (9B2: nobody plays before the rectification is settled).
"""

from __future__ import annotations

import attrs

from ledger.bridge import Card, Seat
from ledger.events import CardPlayed, DummySpreadStarted, LeadFaceDown
from projections import premature
from projections.cards import attention_hook, dummy_first_attention
from projections.fold import Step, handles, option_effects
from ledger.laws.penalty import lapse_52, on_52_choice
from ledger.laws.revokes import lapse_62c1
from projections.play import add_card, interceptor, try_play
from projections.state import (OPENING_LEAD, PLAY, Choice, Exposure, Irregularity, NotMade, OutOfTurn,
                               TableState)

OFFER_LAWS = ("54", "53A", "55A")
"""The Laws (edition stripped) of the offers made about a lead out of turn."""


def law_of(citation: str | None) -> str:
    return (citation or "").split(":", 1)[-1]


def pending(state: TableState) -> OutOfTurn | None:
    return next((o for o in state.out_of_turn if o.status == "pending"), None)


def _set(state: TableState, oot: OutOfTurn) -> TableState:
    return attrs.evolve(state, out_of_turn=tuple(oot if o.seq == oot.seq else o for o in state.out_of_turn))


def _not_made(state: TableState, seq: int, seat: Seat, card: Card, reason: str, law: str) -> TableState:
    return attrs.evolve(state, plays_not_made=state.plays_not_made + (NotMade(seq, seat, str(card), reason, law),))


def _unprocessed(state: TableState, seq: int, type_: str, seat: Seat | None, detail: str) -> TableState:
    return state.add_irregularity(Irregularity("unprocessed", seq, type_, offender=str(seat) if seat else None,
                                               detail=detail))


def _leading(state: TableState) -> bool:
    trick = state.current_trick
    return state.phase == OPENING_LEAD or trick is None or trick.complete


def _declaring(state: TableState, seat: Seat) -> bool:
    return state.contract is not None and seat.side is state.contract.side


# -- a card played out of turn ------------------------------------------------

@interceptor("out_of_turn")
def intercept(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
              law: str) -> tuple[TableState, bool | None]:
    """A card that counts as played, before the turn is checked: the answer
    to a pending lead out of turn, or a new lead out of turn. ``(state,
    None)``: not ours, ``try_play`` goes on with ``state``."""
    state = lapse_52(state, seat)  # 52B1a: declarer plays on, he accepts
    state = lapse_62c1(state, seat)  # 62C1: the non-offender played on to the next trick
    state = premature.lapse(state, seat)  # 57A: the partner played before declarer chose
    oot = pending(state)
    if oot is not None:
        if seat is oot.seat.next():
            state = accept(state, oot, seq, "played", state.cite("54B" if oot.kind == "opening_lead" else "53A"))
            return try_play(state, seq, type_, seat, card, law)
        if oot.kind == "declarer_lead" and seat is oot.seat.rho and state.holds(seat, card):
            # 1997 53B / 2017 53C: the defender on the right of declarer's lead out of turn plays
            # before the one on its left chose: the lead stands, his card is a premature play (57)
            via = state.cite("53B" if state.edition == "1997" else "53C")
            state = accept(state, oot, seq, "wrong_defender_played", via)
            read = premature.premature_play(state, seq, type_, seat, card, law, via=via)
            return read if read is not None else try_play(state, seq, type_, seat, card, law)
        return _unprocessed(state, seq, type_, seat,
                            f"{card} of {seat} while {oot.seat}'s lead out of turn {oot.card} awaits the "
                            f"ruling (9B2)"), False
    if state.contract is None or not _leading(state):
        return state, None
    if seat is state.turn:
        lapsed = tuple(o for o in state.pending if law_of(o.law) in ("50D2", "51A"))
        if lapsed and law_of(lapsed[0].law) == "50D2":
            state = attrs.evolve(state, pending=tuple(o for o in state.pending if o not in lapsed))
            state = _unprocessed(state, seq, type_, seat,
                                 f"{seat} led {card} before declarer chose among the options of "
                                 f"{lapsed[0].law}: the director rules")
        return state, None
    correct = state.turn
    assert correct is not None
    if state.phase == OPENING_LEAD:
        if _declaring(state, seat):
            return state, None  # the presumed declarer or dummy "leads": 1997 Law 24 / 2017 54E, not built
        kind, cited = "opening_lead", state.cite("54")
    elif _declaring(state, seat):
        kind, cited = "declarer_lead", state.cite("55")
    else:
        kind, cited = "defender_lead", state.cite("53")
    oot = OutOfTurn(seq, seat, card, kind, correct, law=cited)
    return attrs.evolve(state, out_of_turn=state.out_of_turn + (oot,)), False


def accept(state: TableState, oot: OutOfTurn, seq: int, how: str, law: str) -> TableState:
    """The lead out of turn is accepted: it leads its trick (53A, 54A, 54B, 54C, 55A)."""
    state = _set(state, attrs.evolve(oot, status="accepted", how=how, settled=seq))
    state = attrs.evolve(state, pending=tuple(o for o in state.pending if law_of(o.law) not in OFFER_LAWS))
    if how in ("accept_become_dummy", "declarer_spread"):
        assert state.contract is not None
        state = attrs.evolve(state, contract=attrs.evolve(state.contract, declarer=state.contract.dummy))
    return add_card(state, oot.seq, oot.seat, oot.card, law)


def refuse(state: TableState, oot: OutOfTurn, seq: int) -> TableState:
    """Not accepted: a defender's card becomes a major penalty card (54D, 56);
    declarer's goes back to his hand or dummy (55B)."""
    state = _set(state, attrs.evolve(oot, status="refused", how="refuse", settled=seq))
    if oot.kind == "declarer_lead":
        law = state.cite("55B1" if not _declaring(state, oot.correct) else "55B2")
        return _not_made(state, oot.seq, oot.seat, oot.card,
                         f"declarer's lead out of turn not accepted: back to the hand, {oot.correct} leads", law)
    law = state.cite("54D" if oot.kind == "opening_lead" else "56")
    state = _not_made(state, oot.seq, oot.seat, oot.card,
                      "lead out of turn not accepted: a major penalty card", law)
    return attrs.evolve(state, exposures=state.exposures + (Exposure(oot.seq, oot.seat, oot.card,
                                                                     "lead_out_of_turn", law),))


def on_option(state: TableState, choice: Choice) -> TableState:
    """OptionChosen on an offer of 54, 53A or 55A."""
    oot = pending(state)
    if oot is None:
        return state
    if choice.option == "refuse":
        return refuse(state, oot, choice.seq)
    law = {"accept_declare": "54B", "accept_become_dummy": "54A"}.get(choice.option, law_of(choice.law))
    return accept(state, oot, choice.seq, choice.option, state.cite(law))


def _on_52(state: TableState, choice: Choice) -> TableState:

    return on_52_choice(state, choice)


OPTION_EFFECTS = {**{law: on_option for law in OFFER_LAWS}, "52": _on_52}


# -- 1997 43B2c / 2017 43B3: dummy drew attention first ---------------------------------

@attention_hook
def dummy_drew_attention(state: TableState, seq: int) -> TableState:
    """Dummy, after a 43A2 violation, is the first to draw attention to a defender's lead out
    of turn: no rectification, play continues as though there were no irregularity (1997
    43B2c, 2017 43B3): the offer lapses and the card leads its trick as if in turn; the
    director adjusts at the end (``ledger.laws.leads`` asks him)."""
    oot = pending(state)
    if oot is None or _declaring(state, oot.seat) or oot.kind not in ("defender_lead", "opening_lead"):
        return state
    if dummy_first_attention(state, oot.seq) != seq:
        return state
    return accept(state, oot, seq, "dummy_43b", state.cite("43B2c" if state.edition == "1997" else "43B3"))


# -- spreading the hand ---------------------------------------------------------

@handles(DummySpreadStarted)
def on_spread(state: TableState, step: Step[DummySpreadStarted]) -> TableState:
    """41D; after a faced opening lead out of turn: dummy begins to spread,
    the lead is accepted (54C); the presumed declarer spreads his own hand,
    he becomes dummy (54A)."""
    seq, ev = step.seq, step.event
    state = attrs.evolve(state, spreads=state.spreads + (seq,))
    oot = pending(state)
    if oot is None or oot.kind != "opening_lead" or state.contract is None:
        return state
    if ev.seat is state.contract.declarer:
        return accept(state, oot, seq, "declarer_spread", state.cite("54A"))
    return accept(state, oot, seq, "dummy_spread", state.cite("54C"))


# -- a face-down opening lead out of turn (41A) -----------------------------------

@interceptor("face_down")
def face_down(state: TableState, seq: int, ev: LeadFaceDown) -> TableState | None:
    """The wrong defender leads face down: returned to his hand, no
    rectification (nobody saw it; seed 002). While a faced lead out of turn
    is pending, the correct leader's face-down lead is retracted too (2017
    54 preamble). None: not ours."""
    if state.phase != OPENING_LEAD or state.contract is None or _declaring(state, ev.seat):
        return None
    if not state.holds(ev.seat, ev.card):
        return None
    oot = pending(state)
    if ev.seat is state.turn and oot is None:
        return None
    law = state.cite("41A") if oot is None or state.edition == "1997" else state.cite("54")
    reason = ("face-down opening lead out of turn: returned to the hand, no rectification" if oot is None else
              "face-down lead while a faced lead out of turn awaits the ruling: retracted")
    rec = OutOfTurn(seq, ev.seat, ev.card, "face_down", state.turn or ev.seat, status="returned",
                    how="returned", settled=seq, law=law)
    state = attrs.evolve(state, out_of_turn=state.out_of_turn + (rec,))
    return _not_made(state, seq, ev.seat, ev.card, reason, law)


# -- the fifth card (45E) ------------------------------------------------------------

@interceptor("fifth_card")
def fifth_card(state: TableState, seq: int, ev: CardPlayed) -> TableState | None:
    """A card added to a trick the player has already played to (45E): a
    defender's becomes a penalty card (45E1, Law 50: minor below honour rank,
    exposed unintentionally); declarer's or dummy's goes back, no
    rectification (45E2). None: not a fifth card (the seat has not played to
    the trick): left to the caller."""
    if state.phase not in (OPENING_LEAD, PLAY) or state.contract is None or not state.tricks:
        return None
    if not state.holds(ev.seat, ev.card):
        return None
    trick = state.current_trick
    assert trick is not None
    if trick.card_of(ev.seat) is None:
        return None
    if _declaring(state, ev.seat):
        law = state.cite("45E2")
        state = _not_made(state, seq, ev.seat, ev.card,
                          f"fifth card added to trick {trick.number} by the declaring side: back to the hand, "
                          "no rectification", law)
        return _record_fifth(state, seq, ev, law, "returned")
    law = state.cite("45E1")
    state = _not_made(state, seq, ev.seat, ev.card,
                      f"fifth card added to trick {trick.number}: a penalty card, not played", law)
    state = attrs.evolve(state, exposures=state.exposures + (Exposure(seq, ev.seat, ev.card, "fifth_card", law),))
    return _record_fifth(state, seq, ev, law, "penalty")


def _record_fifth(state: TableState, seq: int, ev: CardPlayed, law: str, how: str) -> TableState:
    rec = OutOfTurn(seq, ev.seat, ev.card, "fifth_card", ev.seat, status="returned" if how == "returned" else
                    "refused", how=how, settled=seq, law=law)
    return attrs.evolve(state, out_of_turn=state.out_of_turn + (rec,))


# -- the state document ---------------------------------------------------------------

def document(state: TableState) -> list[dict]:
    """``leads_out_of_turn`` (extension): every lead out of turn, face-down
    lead out of turn and fifth card, with how it was settled."""
    return [{"seq": o.seq, "seat": str(o.seat), "card": str(o.card), "kind": o.kind, "correct": str(o.correct),
             "status": o.status, "how": o.how, "settled": o.settled, "law": o.law}
            for o in state.out_of_turn]


option_effects(OPTION_EFFECTS, __name__)
