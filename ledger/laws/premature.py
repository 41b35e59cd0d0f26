"""A defender's premature lead or play: Law 57, and 1997 53B / 2017 53C (the wrong
defender plays to declarer's lead out of turn, which then stands), both editions
(read by ``projections.premature``).

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

from ledger.events import CardReturned, DirectorReviewRequired, IrregularityRecorded, OptionsOffered, PlayRestriction
from ledger.laws.base import Prescription
from projections.premature import MODES, OPTIONS

LAWS = ("57",)


def premature_plays(state) -> list[Prescription]:
    out: list[Prescription] = []
    if state.contract is None:
        return out
    cite = state.cite
    for r in state.premature:
        causes = (r.seq,)
        offender = state.contract.declarer if r.kind == "57C3" else r.seat  # 57C3: declarer plays dummy's cards
        out.append(Prescription(IrregularityRecorded(kind="play_out_of_turn", offender=str(offender), about=r.seq),
                                causes, r.law))
        settled = causes + ((r.settled,) if r.settled is not None and r.settled != r.seq else ())
        if r.kind == "57A":
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
        elif r.kind in ("57C1", "57C2"):
            out.append(Prescription(CardReturned(seat=r.seat, card=r.card), causes, r.law))
        elif r.kind == "57D" and state.edition == "1997":
            out.append(Prescription(DirectorReviewRequired(
                reason=f"57 {r.seat} played {r.card} at his RHO's turn after his partner had played: the 1997 "
                       "Laws have no rule (2017 57D); the ledger reads it as "
                       + ("his play at his proper turn" if r.status == "played" else "a major penalty card")
                       + "; the director rules (Law 16 for the information)", about=r.seq), causes, r.law))
        elif r.kind == "57C3" and state.edition == "1997":
            hand = "dummy" if r.seat is state.contract.dummy else "his hand"
            out.append(Prescription(DirectorReviewRequired(
                reason=f"57 declarer played {r.card} from {hand} ({r.seat}) to trick {r.trick} before his turn: the "
                       "1997 Laws have no rule (2017 57C3); the ledger reads it as a played card, in its own "
                       "place in the trick; the director rules", about=r.seq), causes, r.law))
    return out
