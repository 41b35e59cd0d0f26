"""Leads out of turn and the fifth card: Laws 41A, 45E, 53, 54, 55, 56, both
editions (read by ``projections.outofturn``; 47E1 is ``ledger.laws.cards``).

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

from ledger.events import (CardReturned, DeclarerChanged, DirectorReviewRequired, IrregularityRecorded,
                           OptionsOffered)
from ledger.laws.base import Prescription
from ledger.laws.penalty import dummy_review

OPENING = ("accept_declare", "accept_become_dummy", "refuse")
DURING_PLAY = ("accept", "refuse")


def leads_out_of_turn(state) -> list[Prescription]:
    out: list[Prescription] = []
    if state.contract is None:
        return out
    cite = state.cite
    for o in state.out_of_turn:
        causes = (o.seq,)
        if o.kind == "fifth_card":
            out.append(Prescription(IrregularityRecorded(kind="fifth_card", offender=str(o.seat), about=o.seq),
                                    causes, o.law))
            if o.how == "returned":
                out.append(Prescription(CardReturned(seat=o.seat, card=o.card), causes, o.law))
            continue
        declaring = o.seat.side is state.contract.side
        offender = state.contract.declarer if declaring else o.seat
        out.append(Prescription(IrregularityRecorded(kind="lead_out_of_turn", offender=str(offender), about=o.seq),
                                causes, o.law))
        settled = causes + ((o.settled,) if o.settled is not None and o.settled != o.seq else ())
        if o.kind == "face_down":
            out.append(Prescription(CardReturned(seat=o.seat, card=o.card), causes, o.law))
        elif o.kind == "opening_lead":
            presumed = o.correct.rho
            out.append(Prescription(OptionsOffered(to=presumed, options=OPENING, law=cite("54"), about=o.seq),
                                    causes, cite("54")))
            if o.status == "accepted" and o.how in ("accept_become_dummy", "declarer_spread"):
                out.append(Prescription(DeclarerChanged(declarer=presumed.partner, dummy=presumed), settled,
                                        cite("54A")))
        if o.kind in ("defender_lead", "declarer_lead") and o.how == "played" and o.correct is o.seat.next():
            law = cite("53C" if state.edition == "1997" else "53B")
            out.append(Prescription(DirectorReviewRequired(
                reason=f"{law.split(':', 1)[1]} {o.correct}, whose lead it was, played next: the ledger reads "
                       f"his card as played to the lead out of turn (accepting it); if it was his own proper "
                       f"lead, the lead out of turn goes back and the director rules", about=o.settled),
                settled, law))
        if o.how == "dummy_43b":  # 1997 43B2c / 2017 43B3
            out.append(Prescription(DirectorReviewRequired(reason=dummy_review(
                state, f"{o.seat}'s lead out of turn {o.card}", "the card leads its trick as if in turn"),
                about=o.settled), settled, cite("43B2c" if state.edition == "1997" else "43B3")))
        if o.kind == "defender_lead":
            # The declarer at the time: only an opening lead out of turn changes him, before any other lead.
            out.append(Prescription(OptionsOffered(to=state.contract.declarer, options=DURING_PLAY,
                                                   law=cite("53A"), about=o.seq), causes, cite("53A")))
        elif o.kind == "declarer_lead":
            out.append(Prescription(OptionsOffered(to=o.seat.lho, options=DURING_PLAY, law=cite("55A"),
                                                   about=o.seq), causes, cite("55A")))
            if o.status == "refused":
                law = cite("55B2" if o.correct.side is state.contract.side else "55B1")
                out.append(Prescription(CardReturned(seat=o.seat, card=o.card), settled, law))
    return out
