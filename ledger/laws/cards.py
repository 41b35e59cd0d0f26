"""Was the card played? Laws 45, 48A and 49 (cards exposed without being played),
both editions side by side: one family, its reading and its rules. Designations
of dummy's card (46B, 45C4b) are ``ledger.laws.designations``, withdrawals and
the lead an opponent authorised (47) ``ledger.laws.withdrawals``, leads out of
turn (41, 53 to 56) ``ledger.laws.leads``: all built on the card reading's core
(``projections.cards``).

The reading (the fold): each card-related fact leaves a :class:`CardRecord`
saying how the Laws read it, and moves the cards (through the play core,
``projections.play``). Judgment fields (``partner_could_see``,
``face_up_near_table``, ``lowest_winner``, ``inadvertent``, ``without_pause``)
are read as resolved by the director's findings (``projections.resolve``); a
judgment nobody has given yet leaves the record ``undecided`` and the table as
it was, and the engine asks the director.

| fact | 1997 | 2017 |
|---|---|---|
| defender's card held | played if his partner could see its face (45C1) | same |
| declarer's card held | played if face up, touching or nearly touching the table (45C2) | same |
| card dropped | not played; declarer is not penalised (48A); a defender's card is exposed (49) | same |
| dummy's card touched | played unless arranging or reaching (45C3) | same |
| card named | played (45C4a) | same |
| designation changed | any player: inadvertent and without pause for thought (45C4b) | declarer, a card of dummy: unintended, until declarer next plays (45C4b) |
| "high" from dummy | highest of the suit; in fourth seat may be deemed the lowest winning card (FFB 46B1a) | highest of the suit led (46B1a) |
| "win" | lowest winning card (46B1a) | lowest card known to win (46B1b) |
| "low" | lowest card (46B1b) | lowest of the suit led (46B1c) |
| illegal withdrawal | 47G | 47F |

The rules (:func:`card_rulings`, for the card records of this family and of
the designations and withdrawals families) say what the Laws prescribe for
each classification:

| record | rectification |
|---|---|
| undecided (a judgment nobody has given) | ``DirectorReviewRequired`` |
| a defender's card exposed (dropped; named, the change refused) | ``IrregularityRecorded`` ``exposed_card`` (49); the penalty card itself (50) is ``ledger.laws.penalty``'s |
| an incomplete designation of dummy's card that calls for a choice | ``OptionsOffered`` ``play:<card>``: declarer (46B3b, 46B4), either defender (46B5) |
| a designation changed as 45C4b permits | ``CardReturned`` (the first card, 47C) |
| dummy's card misplaced | ``IrregularityRecorded`` ``dummy_misplay``; withdrawn in time: ``CardReturned`` (45D) |
| an illegal withdrawal (1997 47G, 2017 47F) | ``IrregularityRecorded`` ``illegal_withdrawal``; declarer's or dummy's substituted card ``CardReturned``; 47E2b: ``DirectorReviewRequired`` |
| a lead (2017: or play) out of turn after an opponent said it was his turn | ``CardReturned`` (47E1); no acceptance is offered |

The Laws never make declarer's or dummy's cards penalty cards (48A).
"""

from __future__ import annotations

from typing import Any

import attrs

from ledger.bridge import Card, Seat
from ledger.events import (AttentionDrawn, CardDropped, CardHeld, CardNamed, CardPlayed, CardReturned,
                           DirectorReviewRequired, DummyCardTouched, DummyMisplaced, IrregularityRecorded,
                           OptionsOffered)
from ledger.laws.base import Prescription, Ruled, handles
from projections import play
from projections.cards import (ATTENTION_HOOKS, AUCTION_CARD_HOOKS, NAMING_LAWS, expose, locate, not_made, play_card,
                               record_card, record_played, replace_card, set_record, unprocessed)
from projections.fold import Step, law_of
from projections.procedure import journalled
from projections.state import AUCTION, ENDED, OPENING_LEAD, PLAY, CardRecord, TableState
from projections.vocab import CardRuling, IrregularityKind

LAWS = ("45", "48", "49")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CardFact = CardPlayed | CardHeld | CardDropped | CardNamed
"""The card facts this family reads (a seat and its card)."""


def _in_auction(state: TableState, seq: int, ev: CardFact) -> TableState | None:
    for hook in AUCTION_CARD_HOOKS:
        return hook(state, seq, ev.TYPE, ev.seat, ev.card)
    return None


def _outside_play(state: TableState, seq: int, ev: CardFact, seat: Seat, what: str) -> TableState | None:
    """A card fact before the auction closed or after play ended: not ruled here; after a claim,
    not a play and no penalty card (68D, spec 1.3)."""
    if state.phase != AUCTION and play.claim_stands(state):
        return play.after_claim(state, seq, seat, ev.card)
    if state.phase == AUCTION and isinstance(ev, CardDropped):
        read = _in_auction(state, seq, ev)  # Law 24
        if read is not None:
            return read
    if state.phase == AUCTION or state.contract is None:
        return unprocessed(state, seq, ev.TYPE, seat, f"{what} during the auction (Law 24): no ruling on it yet")
    if state.phase == ENDED:
        return unprocessed(state, seq, ev.TYPE, seat, f"{what} after play ended")
    return None


# -- CardPlayed, CardHeld, CardDropped, CardNamed, DummyCardTouched ------------

@handles(CardPlayed)
def on_card_played(state: TableState, step: Step[CardPlayed]) -> TableState:
    seq, ev = step.seq, step.event
    if state.phase in (AUCTION, OPENING_LEAD) and not ev.fifth_card:
        read = _in_auction(state, seq, ev)  # Law 24; 2017 54E (the declaring side "leads" at trick one)
        if read is not None:
            return read
    if ev.fifth_card or state.phase in (AUCTION, ENDED):
        return play.on_card_played(state, seq, ev)
    return play_card(state, seq, ev.TYPE, ev.seat, ev.card, play.play_law(state, ev.seat))[0]


def _dummy_card_not_played(state: TableState, seq: int, kind: str, seat: Seat, card: Card) -> TableState:
    """A card of dummy's held or dropped is not played: dummy's cards are played when declarer
    names them (45B, both editions)."""
    law = state.cite("45B")
    state = not_made(state, seq, seat, str(card), "dummy's cards are played when declarer names them", law)
    return record_card(state, CardRecord(seq, kind, seat, card, CardRuling.NOT_PLAYED, law))


@handles(CardHeld)
def on_card_held(state: TableState, step: Step[CardHeld]) -> TableState:
    seq, ev = step.seq, step.event
    seat, card = ev.seat, ev.card
    outside = _outside_play(state, seq, ev, seat, f"{card} of {seat} held")
    if outside is not None:
        return outside
    if seat is state.dummy:
        return _dummy_card_not_played(state, seq, ev.TYPE, seat, card)
    if seat is state.declarer:
        law, seen = state.cite("45C2"), ev.face_up_near_table
        question = "was declarer's card held face up, touching or nearly touching the table?"
        reason = "not held face up, touching or nearly touching the table"
    else:
        law, seen = state.cite("45C1"), ev.partner_could_see
        question = "could the defender's partner see the face of the card held?"
        reason = "held so that partner could not see its face"
    if seen is None:
        return record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.UNDECIDED, law, detail=question))
    if seen:
        return record_played(state, seq, ev.TYPE, seat, card, law)
    state = not_made(state, seq, seat, str(card), reason, law)
    return record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.NOT_PLAYED, law, detail=reason))


@handles(CardDropped)
def on_card_dropped(state: TableState, step: Step[CardDropped]) -> TableState:
    seq, ev = step.seq, step.event
    seat, card = ev.seat, ev.card
    outside = _outside_play(state, seq, ev, seat, f"{card} of {seat} dropped")
    if outside is not None:
        return outside
    if seat is state.declarer:
        law = state.cite("48A")
        reason = "dropped by accident: declarer is not required to play it, and is not penalised"
        state = not_made(state, seq, seat, str(card), reason, law)
        return record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.NOT_PLAYED, law, detail=reason))
    if seat is state.dummy:
        return _dummy_card_not_played(state, seq, ev.TYPE, seat, card)
    law = state.cite("49")
    state = not_made(state, seq, seat, str(card), "dropped by accident: exposed, not played", law)
    state = expose(state, seq, seat, card, "dropped", law)
    return record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.EXPOSED, law,
                                     detail="a defender's card exposed by accident"))


@handles(CardNamed)
def on_card_named(state: TableState, step: Step[CardNamed]) -> TableState:
    seq, ev = step.seq, step.event
    outside = _outside_play(state, seq, ev, ev.seat, f"{ev.card} of {ev.seat} named")
    if outside is not None:
        return outside
    return record_played(state, seq, ev.TYPE, ev.seat, ev.card, state.cite("45C4a"))


@handles(DummyCardTouched)
def on_dummy_card_touched(state: TableState, step: Step[DummyCardTouched]) -> TableState:
    seq, ev = step.seq, step.event
    dummy = state.dummy
    if dummy is None or state.phase not in (OPENING_LEAD, PLAY):
        return unprocessed(state, seq, ev.TYPE, dummy, f"dummy's {ev.card} touched outside the play")
    law = state.cite("45C3")
    if ev.purpose == "play":
        return record_played(state, seq, ev.TYPE, dummy, ev.card, law)
    reason = {"arrange": "touched to arrange dummy's cards",
              "reach": "touched to reach a card above or below it"}[ev.purpose]
    state = not_made(state, seq, dummy, str(ev.card), reason, law)
    return record_card(state, CardRecord(seq, ev.TYPE, dummy, ev.card, CardRuling.NOT_PLAYED, law, detail=reason))


# -- DummyMisplaced and AttentionDrawn: Law 45D ----------------------------------

@handles(DummyMisplaced)
def on_dummy_misplaced(state: TableState, step: Step[DummyMisplaced]) -> TableState:
    seq, ev = step.seq, step.event
    dummy = state.dummy
    named = None
    if dummy is not None and state.tricks:
        for i in (len(state.tricks) - 1, len(state.tricks) - 2):
            p = state.tricks[i].card_of(dummy) if i >= 0 else None
            if p is not None and law_of(p.law) in NAMING_LAWS:
                named = (i, p)
                break
    if named is None or dummy is None or named[1].card == ev.card:
        return unprocessed(state, seq, ev.TYPE, dummy, f"dummy placed {ev.card}, but no other card of dummy was "
                                                        "named to this trick")
    index, p = named
    law = state.cite("45D")
    state, _ = replace_card(state, index, dummy, ev.card, seq, law)
    return record_card(state, CardRecord(seq, ev.TYPE, dummy, ev.card, CardRuling.MISPLACED, law, about=p.seq,
                                     other=p.card, detail=f"dummy placed {ev.card}; declarer had named {p.card}"))


@handles(AttentionDrawn)
def on_attention(state: TableState, step: Step[AttentionDrawn]) -> TableState:
    state = on_attention_drawn(state, step)
    for hook in ATTENTION_HOOKS:
        state = hook(state, step.seq)
    return state


@journalled
def on_attention_drawn(state: TableState, step: Step[AttentionDrawn]) -> TableState:
    """Attention drawn while dummy's misplaced card is on the table (45D): in
    time if each side has not yet played to the next trick."""
    seq = step.seq
    for rec in state.card_records:
        if rec.ruling != CardRuling.MISPLACED or rec.card is None or rec.other is None:
            continue
        found = locate(state, rec.seat, rec.card)
        if found is None:
            continue
        index, _ = found
        following = state.tricks[index + 1] if index + 1 < len(state.tricks) else None
        sides = {p.seat.side for p in following.cards} if following else set()
        if len(sides) == 2:
            state = set_record(state, attrs.evolve(rec, ruling=CardRuling.MISPLACED_STANDS,
                                                    detail=rec.detail + "; attention drawn after each side played "
                                                                        "to the next trick: it stands"))
            continue
        law = state.cite("45D")
        state, question = replace_card(state, index, rec.seat, rec.other, seq, law)
        state = not_made(state, rec.seq, rec.seat, str(rec.card),
                          "placed by dummy though declarer did not name it: withdrawn", law)
        state = set_record(state, attrs.evolve(rec, ruling=CardRuling.MISPLACED_CORRECTED,
                                                review=question and f"45D {question}",
                                                detail=rec.detail + f"; attention drawn in time: {rec.other} "
                                                                    "is played"))
    return state


_PLAY_OR_NOT = frozenset({CardRuling.PLAYED, CardRuling.NOT_PLAYED})
"""The card rulings the document's ``card_rulings`` leaves out (unless a question goes with them)."""


def card_rulings_document(state: TableState) -> list[dict[str, Any]]:
    """Every card fact the Laws did more with than play it or not (designations
    completed or awaiting a choice, changes, misplacements, withdrawals, 47E1):
    the ``card_rulings`` key of the state document (docs/EXTENSIONS.md)."""
    return [{"seq": r.seq, "type": r.type, "seat": str(r.seat), "card": str(r.card) if r.card else None,
             "other": str(r.other) if r.other else None, "ruling": r.ruling, "law": r.law, "detail": r.detail}
            for r in state.card_records if r.ruling not in _PLAY_OR_NOT or r.review]


# -- the rules ---------------------------------------------------------------------------

_EXPOSED_BY = ("dropped", "named")
"""Exposures recorded as ``exposed_card`` (a substituted card is the illegal withdrawal's)."""


_MISPLACED = frozenset({CardRuling.MISPLACED, CardRuling.MISPLACED_CORRECTED, CardRuling.MISPLACED_STANDS})
"""Dummy's misplaced card (45D), whatever became of it: an irregularity each."""


def _review(reason: str, rec: CardRecord, law: str | None) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=rec.seq), (rec.seq,), law)


def _irregular(kind: IrregularityKind, rec: CardRecord, law: str | None) -> Prescription:
    return Prescription(IrregularityRecorded(kind=kind, offender=str(rec.seat), about=rec.seq), (rec.seq,), law)


def _returned(seat: Seat, card: Card, causes: tuple[int, ...], law: str | None) -> Prescription:
    return Prescription(CardReturned(seat=seat, card=card), causes, law)


def dummy_indications(state: TableState) -> list[Prescription]:
    """45F (both editions): dummy touched or indicated a card without instruction.
    Play continues; whether dummy suggested the play and the defenders were
    damaged is the director's judgment at the end of play: he is asked."""
    if state.contract is None:
        return []
    law = state.cite("45F")
    return [Prescription(DirectorReviewRequired(
        reason=f"45F dummy indicated {f.detail} without instruction from declarer: play continues; at the end "
               "of play the director adjusts the score if dummy suggested a play and the defenders were damaged",
        about=f.seq), (f.seq,), law) for f in state.procedure if f.type == "DummyIndicatedCard"]


def card_rulings(state: TableState) -> list[Prescription]:
    """Rectifications for every card fact, by its classification."""
    out: list[Prescription] = []
    for rec in state.card_records:
        ruling = rec.ruling
        causes = (rec.about, rec.seq) if rec.about is not None else (rec.seq,)
        if ruling == CardRuling.UNDECIDED:
            out.append(_review(f"{law_of(rec.law)} {rec.detail}", rec, rec.law))
        elif ruling == CardRuling.CHOOSE:
            assert rec.to is not None and rec.law is not None  # narrowing: a choice names its chooser and Law
            out.append(Prescription(OptionsOffered(to=rec.to, options=rec.options, law=rec.law), (rec.seq,),
                                    rec.law))
        elif ruling == CardRuling.CHANGE_PERMITTED:
            assert rec.other is not None  # narrowing: 47C's record holds the card changed to
            out.append(_returned(rec.seat, rec.other, causes, state.cite("47C")))
        elif ruling in _MISPLACED:
            out.append(_irregular(IrregularityKind.DUMMY_MISPLAY, rec, rec.law))
            if ruling == CardRuling.MISPLACED_CORRECTED:
                assert rec.card is not None  # narrowing: a card misplayed from dummy is a card
                out.append(_returned(rec.seat, rec.card, causes, rec.law))
        elif ruling == CardRuling.ILLEGAL_WITHDRAWAL:
            out.append(_irregular(IrregularityKind.ILLEGAL_WITHDRAWAL, rec, rec.law))
            assert state.contract is not None  # narrowing: a card withdrawn illegally is withdrawn in play
            defender = rec.seat.side is not state.contract.side
            if rec.other is not None and not defender:
                out.append(_returned(rec.seat, rec.other, (rec.seq,), rec.law))
        elif ruling == CardRuling.RETRACTED:
            assert rec.card is not None and rec.about is not None  # narrowing: 47E1's lead and its authorisation
            out.append(_returned(rec.seat, rec.card, (rec.seq, rec.about), rec.law))
        if rec.review:  # a question that goes with the ruling, its Law first ("47E2b too late ...")
            out.append(_review(rec.review, rec, state.cite(rec.review.split(" ", 1)[0])))
    for exposure in state.exposures:
        if exposure.how in _EXPOSED_BY:
            out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.EXPOSED_CARD,
                                                         offender=str(exposure.seat), about=exposure.seq),
                                    (exposure.seq,), exposure.law))
    return out


# -- words and citations -----------------------------------------------------------------

RULINGS: dict[CardRuling, Ruled] = {
    CardRuling.PLAYED: Ruled("played", {"1997": "45", "2017": "45"}),
    CardRuling.NOT_PLAYED: Ruled("not played", {"1997": "45C", "2017": "45C"}),
    CardRuling.EXPOSED: Ruled("exposed", {"1997": "49", "2017": "49"}),
    CardRuling.UNDECIDED: Ruled("undecided", {"1997": "85A", "2017": "85A"}),
    CardRuling.MISPLACED: Ruled("misplaced", {"1997": "45D", "2017": "45D"}),
    CardRuling.MISPLACED_CORRECTED: Ruled("misplaced corrected", {"1997": "45D", "2017": "45D"}),
    CardRuling.MISPLACED_STANDS: Ruled("misplaced stands", {"1997": "45D", "2017": "45D"}),
}
"""The card rulings this family reads (``CardRuling``: 45, 48, 49; the document's ``card_rulings``):
how each reads for people (``ledger.render``) and the Law it rests on, by edition
(``ledger.laws.base.cited``), every edition named: ``None`` would say the ruling cannot arise
under that edition (none here). The designations, withdrawals and auction-exposure families give
theirs (``RULINGS`` in each). The record carries the Law of its own case (``not_played``: 45C1
to 45C3 or 48A; a judgment awaited, ``undecided``, the Law of the question, the table the
director's assessment of facts, 85A, as the call rulings do)."""

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.EXPOSED_CARD: "exposed card",
    IrregularityKind.DUMMY_MISPLAY: "dummy misplaced a card",
}
"""How the irregularities of this family's rules (``IrregularityKind``: 45D, 49) read for people."""

EXPOSED_HOW: dict[str, str] = {
    "dropped": "dropped", "substituted": "put in place of a played card",
    "withdrawn": "withdrawn from a trick", "named": "named",
    "lead_out_of_turn": "led out of turn, the lead refused", "fifth_card": "added to a trick as a fifth card",
    "premature": "led or played before his partner had played to the trick"}
"""How a card came to be exposed (``Exposure.how``, the document's ``exposed_cards``: ``expose``
and the families that call it), in a director's words; ``ledger.laws.penalty.DELIBERATE`` reads
the same vocabulary."""
