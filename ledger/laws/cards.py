"""Was the card played: Laws 41, 45, 46 and 47 (48A, 49 for cards exposed
without being played), both editions (read by ``projections.cards``).

The projection classifies every card-related fact (``state.card_records``)
and moves the cards; these rules say what the Laws prescribe for each
classification, as records of the ruling:

| record | rectification |
|---|---|
| undecided (a judgment nobody has given) | ``DirectorReviewRequired`` |
| a defender's card exposed (dropped; named, the change refused) | ``IrregularityRecorded`` ``exposed_card`` (49); the penalty card itself (50) is a later issue |
| an incomplete designation of dummy's card that calls for a choice | ``OptionsOffered`` ``play:<card>``: declarer (46B3b, 46B4), either defender (46B5) |
| a designation changed as 45C4b permits | ``CardReturned`` (the first card, 47C) |
| dummy's card misplaced | ``IrregularityRecorded`` ``dummy_misplay``; withdrawn in time: ``CardReturned`` (45D) |
| an illegal withdrawal (1997 47G, 2017 47F) | ``IrregularityRecorded`` ``illegal_withdrawal``; declarer's or dummy's substituted card ``CardReturned``; 47E2b: ``DirectorReviewRequired`` |
| a lead (2017: or play) out of turn after an opponent said it was his turn | ``CardReturned`` (47E1); no acceptance is offered |

The Laws never make declarer's or dummy's cards penalty cards (48A).
"""

from __future__ import annotations

from ledger.events import CardReturned, DirectorReviewRequired, IrregularityRecorded, OptionsOffered
from ledger.laws.base import Prescription
from projections.cards import law_of

_EXPOSED_BY = ("dropped", "named")
"""Exposures recorded as ``exposed_card`` (a substituted card is the illegal withdrawal's)."""


def _review(reason: str, rec, law: str | None) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=rec.seq), (rec.seq,), law)


def _irregular(kind: str, rec, law: str | None) -> Prescription:
    return Prescription(IrregularityRecorded(kind=kind, offender=str(rec.seat), about=rec.seq), (rec.seq,), law)


def _returned(seat, card, causes: tuple[int, ...], law: str | None) -> Prescription:
    return Prescription(CardReturned(seat=seat, card=card), causes, law)


def dummy_indications(state) -> list[Prescription]:
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


def card_rulings(state) -> list[Prescription]:
    """Rectifications for every card fact, by its classification."""
    out: list[Prescription] = []
    for rec in state.card_records:
        ruling = rec.ruling
        causes = (rec.about, rec.seq) if rec.about is not None else (rec.seq,)
        if ruling == "undecided":
            out.append(_review(f"{law_of(rec.law)} {rec.detail}", rec, rec.law))
        elif ruling == "choose":
            out.append(Prescription(OptionsOffered(to=rec.to, options=rec.options, law=rec.law), (rec.seq,),
                                    rec.law))
        elif ruling == "change_permitted":
            out.append(_returned(rec.seat, rec.other, causes, state.cite("47C")))
        elif ruling in ("misplaced", "misplaced_corrected", "misplaced_stands"):
            out.append(_irregular("dummy_misplay", rec, rec.law))
            if ruling == "misplaced_corrected":
                out.append(_returned(rec.seat, rec.card, causes, rec.law))
        elif ruling == "illegal_withdrawal":
            out.append(_irregular("illegal_withdrawal", rec, rec.law))
            defender = rec.seat.side is not state.contract.side
            if rec.other is not None and not defender:
                out.append(_returned(rec.seat, rec.other, (rec.seq,), rec.law))
        elif ruling == "retracted":
            out.append(_returned(rec.seat, rec.card, (rec.seq, rec.about), rec.law))
        if rec.review:  # a question that goes with the ruling, its Law first ("47E2b too late ...")
            out.append(_review(rec.review, rec, state.cite(rec.review.split(" ", 1)[0])))
    for exposure in state.exposures:
        if exposure.how in _EXPOSED_BY:
            out.append(Prescription(IrregularityRecorded(kind="exposed_card", offender=str(exposure.seat),
                                                         about=exposure.seq), (exposure.seq,), exposure.law))
    return out
