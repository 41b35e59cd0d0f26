"""Leads out of turn: Laws 41A, 53, 54, 55, 56 (47E1 is ``ledger.laws.withdrawals``),
both editions, and the fifth card (45E): one family, its reading and its rules.

A card that counts as played (45A, 45C...) by a player whose lead it is not
comes here from ``projections.play.try_play`` (the play-time interceptor
``out_of_turn``: :func:`intercept`). It is not
put on a trick: it waits, faced, in ``state.out_of_turn`` with status
``pending`` while the option is open, and the rules
(:func:`leads_out_of_turn`) offer it:

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
Declarer, having accepted and stayed declarer, who plays the second card from
dummy instead of his own hand has played it (54B2: the play-time interceptor
``in_place``).

The rules (:func:`leads_out_of_turn`):

| record | rectification |
|---|---|
| face-down opening lead by the wrong defender | ``IrregularityRecorded`` ``lead_out_of_turn``, ``CardReturned`` (41A): no rectification |
| faced opening lead by the wrong defender | ``IrregularityRecorded``, ``OptionsOffered`` to the presumed declarer: ``accept_declare``, ``accept_become_dummy``, ``refuse`` (54); ``DeclarerChanged`` when he becomes dummy (54A); refused: a major penalty card (54D, ``ledger.laws.penalty``) |
| a defender's lead out of turn during play | ``IrregularityRecorded``, ``OptionsOffered`` to declarer: ``accept``, ``refuse`` (53A); refused: a major penalty card (56) |
| declarer's lead out of turn (wrong hand, or a defender's turn) | ``IrregularityRecorded`` (offender declarer), ``OptionsOffered`` ``accept``, ``refuse`` to the defender next to play, either defender may answer (55A); refused: ``CardReturned`` (55B1, 55B2) |
| a fifth card | ``IrregularityRecorded`` ``fifth_card`` (45E); declarer's or dummy's: ``CardReturned`` (45E2); a defender's: a penalty card (45E1, ``ledger.laws.penalty``) |
| the player whose lead it was is also next in rotation, and plays | accepted (53A), and ``DirectorReviewRequired``: was it his proper lead instead (1997 53C, 2017 53B)? |

The 1997 and 2017 texts agree on these points; 2017 53A adds "prior to the
thirteenth trick" and 2017 55A says which defender's choice prevails when
they differ (the ledger takes the first choice, as for 43B2a).
"""

from __future__ import annotations

from typing import Any

import attrs

from ledger.bridge import Card, Seat
from ledger.events import (CardPlayed, CardReturned, DeclarerChanged, DirectorReviewRequired, DummySpreadStarted,
                           IrregularityRecorded, LeadFaceDown, OptionsOffered)
from ledger.laws.base import Prescription, Ruled, at_play, cited, handles, on_attention
from projections.cards import dummy_first_attention, dummy_first_law, dummy_review, second_from_dummy, unprocessed
from projections.fold import Step, law_of
from projections.play import add_card, premature, try_play
from projections.state import (OPENING_LEAD, PLAY, Choice, Exposure, NotMade, OutOfTurn,
                               TableState, pending_lead)
from projections.vocab import IrregularityKind, OutOfTurnKind

LAWS = ("41", "53", "54", "55", "56", "60")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS = {
    "the wrong defender played to declarer's lead out of turn": {"1997": "53B", "2017": "53C"},
    "the player whose lead it was played next": {"1997": "53C", "2017": "53B"},
    "face down while a faced lead out of turn waits": {"1997": "41A", "2017": "54"},
}
"""The family's citations per edition (``ledger.laws.base.cited``)."""

OFFER_LAWS = ("54", "53A", "55A")
"""The Laws (edition stripped) of the offers made about a lead out of turn."""

DEFENDER_LEADS = frozenset({OutOfTurnKind.DEFENDER_LEAD, OutOfTurnKind.OPENING_LEAD})
"""A defender's lead out of turn, at the opening lead (54) or during the play (53, 56)."""
DURING_PLAY_LEADS = frozenset({OutOfTurnKind.DEFENDER_LEAD, OutOfTurnKind.DECLARER_LEAD})
"""A lead out of turn during the play, by a defender (53) or by declarer (55)."""


# -- the reading of the facts ------------------------------------------------------------

def _set(state: TableState, oot: OutOfTurn) -> TableState:
    return attrs.evolve(state, out_of_turn=tuple(oot if o.seq == oot.seq else o for o in state.out_of_turn))


def _not_made(state: TableState, seq: int, seat: Seat, card: Card, reason: str, law: str) -> TableState:
    return attrs.evolve(state, plays_not_made=state.plays_not_made + (NotMade(seq, seat, str(card), reason, law),))


def _leading(state: TableState) -> bool:
    trick = state.current_trick
    return state.phase == OPENING_LEAD or trick is None or trick.complete


def _declaring(state: TableState, seat: Seat) -> bool:
    return state.contract is not None and seat.side is state.contract.side


# -- a card played out of turn ------------------------------------------------

@at_play("out_of_turn")
def intercept(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
              law: str) -> tuple[TableState, bool | None]:
    """A card that counts as played, before the turn is checked: the answer
    to a pending lead out of turn, or a new lead out of turn. ``(state,
    None)``: not ours, ``try_play`` goes on with ``state``."""
    oot = pending_lead(state)
    if oot is not None:
        if seat is oot.seat.next():
            state = accept(state, oot, seq, "played", state.cite("54B" if oot.kind == OutOfTurnKind.OPENING_LEAD else "53A"))
            return try_play(state, seq, type_, seat, card, law)
        if oot.kind == OutOfTurnKind.DECLARER_LEAD and seat is oot.seat.rho and state.holds(seat, card):
            # 1997 53B / 2017 53C: the defender on the right of declarer's lead out of turn plays
            # before the one on its left chose: the lead stands, his card is a premature play (57)
            via = cited(state, CITATIONS, "the wrong defender played to declarer's lead out of turn")
            state = accept(state, oot, seq, "wrong_defender_played", via)
            read = premature(state, seq, type_, seat, card, law, via=via)  # Law 57 (its family)
            return read if read is not None else try_play(state, seq, type_, seat, card, law)
        return unprocessed(state, seq, type_, seat,
                            f"{card} of {seat} while {oot.seat}'s lead out of turn {oot.card} awaits the "
                            f"ruling (9B2)"), False
    refused = _refused_declarer_lead(state)
    if refused is not None and not _declaring(state, seat) and seat is not state.turn:
        # 60B: a defender's card after declarer's lead out of turn was refused, before declarer led from
        # the correct hand: a major penalty card, not a lead out of turn (spec 1.3)
        law = state.cite("60B")
        state = _not_made(state, seq, seat, card, f"played before declarer led from {refused.correct} after his "
                          "lead out of turn was refused: a major penalty card", law)
        return attrs.evolve(state, exposures=state.exposures + (Exposure(seq, seat, card, "lead_out_of_turn", law),)), False
    if state.contract is None or not _leading(state):
        return state, None
    if seat is state.turn:
        lapsed = tuple(o for o in state.pending if law_of(o.law) in ("50D2", "51A"))
        if lapsed and law_of(lapsed[0].law) == "50D2":
            state = attrs.evolve(state, pending=tuple(o for o in state.pending if o not in lapsed))
            state = unprocessed(state, seq, type_, seat,
                                 f"{seat} led {card} before declarer chose among the options of "
                                 f"{lapsed[0].law}: the director rules")
        return state, None
    correct = state.turn
    assert correct is not None
    if state.phase == OPENING_LEAD:
        if _declaring(state, seat):
            return state, None  # the presumed declarer or dummy "leads": 1997 Law 24 / 2017 54E, not built
        kind, law_cited = OutOfTurnKind.OPENING_LEAD, state.cite("54")
    elif _declaring(state, seat):
        kind, law_cited = OutOfTurnKind.DECLARER_LEAD, state.cite("55")
    else:
        kind, law_cited = OutOfTurnKind.DEFENDER_LEAD, state.cite("53")
    oot = OutOfTurn(seq, seat, card, kind, correct, law=law_cited)
    return attrs.evolve(state, out_of_turn=state.out_of_turn + (oot,)), False


def _refused_declarer_lead(state: TableState) -> OutOfTurn | None:
    """Declarer's lead out of turn refused, the correct hand his own or dummy's (55B2), and nobody has led
    since: the moment of 60B."""
    oot = state.out_of_turn[-1] if state.out_of_turn else None
    if oot is None or oot.kind != OutOfTurnKind.DECLARER_LEAD or oot.status != "refused" or oot.settled is None \
            or not _declaring(state, oot.correct) or not _leading(state):
        return None
    settled = oot.settled
    if any(p.seq > settled for t in state.tricks for p in t.cards):
        return None
    return oot


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
    if oot.kind == OutOfTurnKind.DECLARER_LEAD:
        law = state.cite("55B1" if not _declaring(state, oot.correct) else "55B2")
        return _not_made(state, oot.seq, oot.seat, oot.card,
                         f"declarer's lead out of turn not accepted: back to the hand, {oot.correct} leads", law)
    law = state.cite("54D" if oot.kind == OutOfTurnKind.OPENING_LEAD else "56")
    state = _not_made(state, oot.seq, oot.seat, oot.card,
                      "lead out of turn not accepted: a major penalty card", law)
    return attrs.evolve(state, exposures=state.exposures + (Exposure(oot.seq, oot.seat, oot.card,
                                                                     "lead_out_of_turn", law),))


# -- 1997 43B2c / 2017 43B3: dummy drew attention first ---------------------------------

@on_attention
def dummy_drew_attention(state: TableState, seq: int) -> TableState:
    """Dummy, after a 43A2 violation, is the first to draw attention to a defender's lead out
    of turn: no rectification, play continues as though there were no irregularity (1997
    43B2c, 2017 43B3): the offer lapses and the card leads its trick as if in turn; the
    director adjusts at the end (``ledger.laws.leads`` asks him)."""
    oot = pending_lead(state)
    if oot is None or _declaring(state, oot.seat) or oot.kind not in DEFENDER_LEADS:
        return state
    if dummy_first_attention(state, oot.seq) != seq:
        return state
    return accept(state, oot, seq, "dummy_43b", state.cite(dummy_first_law(state)))


# -- 54B2: declarer plays the second card from dummy -------------------------------------

@at_play("in_place")
def played_in_place(state: TableState, seat: Seat) -> str | None:
    """The Law under which ``seat``'s card, not in turn, is played in its place all the same
    (54B2); None: not ours."""
    return state.cite("54B2") if second_from_dummy(state, seat) else None


# -- spreading the hand ---------------------------------------------------------

@handles(DummySpreadStarted)
def on_spread(state: TableState, step: Step[DummySpreadStarted]) -> TableState:
    """41D; after a faced opening lead out of turn: dummy begins to spread,
    the lead is accepted (54C); the presumed declarer spreads his own hand,
    he becomes dummy (54A)."""
    seq, ev = step.seq, step.event
    state = attrs.evolve(state, spreads=state.spreads + (seq,))
    oot = pending_lead(state)
    if oot is None or oot.kind != OutOfTurnKind.OPENING_LEAD or state.contract is None:
        return state
    if ev.seat is state.contract.declarer:
        return accept(state, oot, seq, "declarer_spread", state.cite("54A"))
    return accept(state, oot, seq, "dummy_spread", state.cite("54C"))


# -- a face-down opening lead out of turn (41A) -----------------------------------

@at_play("face_down")
def face_down(state: TableState, seq: int, ev: LeadFaceDown) -> TableState | None:
    """The wrong defender leads face down: returned to his hand, no
    rectification (nobody saw it; seed 002). While a faced lead out of turn
    is pending, the correct leader's face-down lead is retracted too (2017
    54 preamble). None: not ours."""
    if state.phase != OPENING_LEAD or state.contract is None or _declaring(state, ev.seat):
        return None
    if not state.holds(ev.seat, ev.card):
        return None
    oot = pending_lead(state)
    if ev.seat is state.turn and oot is None:
        return None
    law = state.cite("41A") if oot is None else cited(state, CITATIONS, "face down while a faced lead out of turn waits")
    reason = ("face-down opening lead out of turn: returned to the hand, no rectification" if oot is None else
              "face-down lead while a faced lead out of turn awaits the ruling: retracted")
    rec = OutOfTurn(seq, ev.seat, ev.card, OutOfTurnKind.FACE_DOWN, state.turn or ev.seat, status="returned",
                    how="returned", settled=seq, law=law)
    state = attrs.evolve(state, out_of_turn=state.out_of_turn + (rec,))
    return _not_made(state, seq, ev.seat, ev.card, reason, law)


# -- the fifth card (45E) ------------------------------------------------------------

@at_play("fifth_card")
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
    rec = OutOfTurn(seq, ev.seat, ev.card, OutOfTurnKind.FIFTH_CARD, ev.seat, status="returned" if how == "returned" else
                    "refused", how=how, settled=seq, law=law)
    return attrs.evolve(state, out_of_turn=state.out_of_turn + (rec,))


# -- the state document ---------------------------------------------------------------

def leads_out_of_turn_document(state: TableState) -> list[dict[str, Any]]:
    """``leads_out_of_turn`` (extension): every lead out of turn, face-down
    lead out of turn and fifth card, with how it was settled."""
    return [{"seq": o.seq, "seat": str(o.seat), "card": str(o.card), "kind": o.kind, "correct": str(o.correct),
             "status": o.status, "how": o.how, "settled": o.settled, "law": o.law}
            for o in state.out_of_turn]


# -- option effects: the choice on a lead out of turn (and 52) -------------------------

def on_option(state: TableState, choice: Choice) -> TableState:
    """OptionChosen on an offer of 54, 53A or 55A."""
    oot = pending_lead(state)
    if oot is None:
        return state
    if choice.option == "refuse":
        return refuse(state, oot, choice.seq)
    law = {"accept_declare": "54B", "accept_become_dummy": "54A"}.get(choice.option, law_of(choice.law))
    return accept(state, oot, choice.seq, choice.option, state.cite(law))


OPTION_EFFECTS = {law: on_option for law in OFFER_LAWS}


# -- the rules ---------------------------------------------------------------------------

OPENING = ("accept_declare", "accept_become_dummy", "refuse")
DURING_PLAY = ("accept", "refuse")


def leads_out_of_turn(state: TableState) -> list[Prescription]:
    out: list[Prescription] = []
    if state.contract is None:
        return out
    cite = state.cite
    for o in state.out_of_turn:
        causes = (o.seq,)
        if o.kind == OutOfTurnKind.FIFTH_CARD:
            out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.FIFTH_CARD, offender=str(o.seat), about=o.seq),
                                    causes, o.law))
            if o.how == "returned":
                out.append(Prescription(CardReturned(seat=o.seat, card=o.card), causes, o.law))
            continue
        declaring = o.seat.side is state.contract.side
        offender = state.contract.declarer if declaring else o.seat
        out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.LEAD_OUT_OF_TURN, offender=str(offender), about=o.seq),
                                causes, o.law))
        settled = causes + ((o.settled,) if o.settled is not None and o.settled != o.seq else ())
        if o.kind == OutOfTurnKind.FACE_DOWN:
            out.append(Prescription(CardReturned(seat=o.seat, card=o.card), causes, o.law))
        elif o.kind == OutOfTurnKind.OPENING_LEAD:
            presumed = o.correct.rho
            out.append(Prescription(OptionsOffered(to=presumed, options=OPENING, law=cite("54"), about=o.seq),
                                    causes, cite("54")))
            if o.status == "accepted" and o.how in ("accept_become_dummy", "declarer_spread"):
                out.append(Prescription(DeclarerChanged(declarer=presumed.partner, dummy=presumed), settled,
                                        cite("54A")))
        if o.kind in DURING_PLAY_LEADS and o.how == "played" and o.correct is o.seat.next():
            law = cited(state, CITATIONS, "the player whose lead it was played next")
            out.append(Prescription(DirectorReviewRequired(
                reason=f"{law.split(':', 1)[1]} {o.correct}, whose lead it was, played next: the ledger reads "
                       f"his card as played to the lead out of turn (accepting it); if it was his own proper "
                       f"lead, the lead out of turn goes back and the director rules", about=o.settled),
                settled, law))
        if o.how == "dummy_43b":  # 1997 43B2c / 2017 43B3
            out.append(Prescription(DirectorReviewRequired(reason=dummy_review(
                state, f"{o.seat}'s lead out of turn {o.card}", "the card leads its trick as if in turn"),
                about=o.settled), settled, state.cite(dummy_first_law(state))))
        if o.kind == OutOfTurnKind.DEFENDER_LEAD:
            # The declarer at the time: only an opening lead out of turn changes him, before any other lead.
            out.append(Prescription(OptionsOffered(to=state.contract.declarer, options=DURING_PLAY,
                                                   law=cite("53A"), about=o.seq), causes, cite("53A")))
        elif o.kind == OutOfTurnKind.DECLARER_LEAD:
            out.append(Prescription(OptionsOffered(to=o.seat.lho, options=DURING_PLAY, law=cite("55A"),
                                                   about=o.seq), causes, cite("55A")))
            if o.status == "refused":
                law = cite("55B2" if o.correct.side is state.contract.side else "55B1")
                out.append(Prescription(CardReturned(seat=o.seat, card=o.card), settled, law))
    return out


# -- words and citations -----------------------------------------------------------------

OUT_OF_TURN: dict[OutOfTurnKind, Ruled] = {
    OutOfTurnKind.OPENING_LEAD: Ruled("opening lead out of turn", {"1997": "54", "2017": "54"}),
    OutOfTurnKind.DEFENDER_LEAD: Ruled("lead out of turn", {"1997": "53", "2017": "53"}),
    OutOfTurnKind.DECLARER_LEAD: Ruled("declarer's lead out of turn", {"1997": "55", "2017": "55"}),
    OutOfTurnKind.FACE_DOWN: Ruled("face-down opening lead out of turn", {"1997": "41A", "2017": "41A"}),
    OutOfTurnKind.FIFTH_CARD: Ruled("fifth card to a trick", {"1997": "45E", "2017": "45E"}),
}
"""Each lead or card out of turn (the document's ``leads_out_of_turn``): how it reads for people
(``ledger.render``) and the Law it rests on, by edition, every edition named (``None``: cannot
arise under it; none here). The record carries its own case (a face-down lead while a faced one
waits is 2017 54, a fifth card 45E1 or 45E2)."""

OUT_OF_TURN_STATUS: dict[str, str] = {
    "pending": "the option is open", "returned": "back to the hand, no rectification",
    "refused": "not accepted", "accepted": "accepted",
}
"""Where a lead out of turn stands, in a director's words."""

OUT_OF_TURN_HOW: dict[str, str] = {
    "dummy_43b": "dummy, who had lost his rights, drew attention to it first: no rectification, it leads "
                 "its trick as if in turn (1997 43B2c, 2017 43B3)",
    "played": "the next hand played to it",
    "dummy_spread": "dummy began to spread his hand",
    "declarer_spread": "declarer began to spread his hand and becomes dummy",
    "accept_declare": "declarer accepted and declares",
    "accept_become_dummy": "declarer accepted and becomes dummy",
    "wrong_defender_played": "the wrong defender played to it (1997 53B, 2017 53C): it stands",
}
"""How a lead out of turn came to be accepted, in a director's words."""

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.LEAD_OUT_OF_TURN: "lead out of turn",
    IrregularityKind.FIFTH_CARD: "fifth card played to a trick",
}
"""How the irregularities of this family's rules (``IrregularityKind``: 41A, 45E, 53 to 55) read for people."""

OPTION_WORDS: dict[str, str] = {
    "accept": "accept it",
    "refuse": "do not accept it",
}
"""Plain words for the options to accept an irregularity or not, said after their ids; the
Laws that give them their own words are in ``OPTION_WORDS_BY_LAW`` (of each family)."""

OPTION_WORDS_BY_LAW: dict[tuple[str, str], str] = {
    ("53", "accept"): "accept the lead out of turn",
    ("53", "refuse"): "do not accept it: the card becomes a major penalty card, the right defender leads",
    ("54", "accept_declare"): "accept the lead and declare: dummy is spread after it (54B)",
    ("54", "accept_become_dummy"): "accept the lead and spread his own hand: partner declares (54A)",
    ("54", "refuse"): "do not accept it: the card becomes a major penalty card, the right defender leads",
    ("55", "accept"): "accept declarer's lead out of turn",
    ("55", "refuse"): "do not accept it: declarer leads from the correct hand (55B)",
}
"""Words for the options of Laws 53 to 55, by the Law that offered them (its number, edition stripped)."""
