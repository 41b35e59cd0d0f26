"""Claims and concessions (Laws 68 to 71): one family, its reading and its rules.

The reading (the fold): a claim states how many of the remaining tricks the
claimer's side will take; play ceases (68D). Agreed by an opponent (69A), the
board ends with those tricks; disputed, the director rules (70) with
``ClaimRuled``.

The rule (the engine): a disputed claim is the director's to rule (70); the
engine asks for the ruling and decides nothing itself.
"""

from __future__ import annotations

import attrs

from ledger.events import ClaimAgreed, ClaimDisputed, ClaimMade, ClaimRuled, DirectorReviewRequired
from ledger.laws.base import Prescription
from projections.fold import Step, handles
from ledger.laws.results import final_result
from projections.procedure import journalled
from projections.state import ENDED, OPENING_LEAD, PLAY, Claim, Irregularity, TableState

LAWS = ("68", "69", "70", "71")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

# -- the reading of the facts (fold handlers) ---------------------------------------------


def remaining_tricks(state: TableState) -> int:
    return 13 - sum(1 for t in state.tricks if t.complete)


def _unprocessed(state: TableState, seq: int, type_: str, seat, detail: str) -> TableState:
    return state.add_irregularity(Irregularity("unprocessed", seq, type_, offender=str(seat), detail=detail))


@handles(ClaimMade)
def on_claim_made(state: TableState, step: Step[ClaimMade]) -> TableState:
    seq, ev = step.seq, step.event
    if state.phase not in (OPENING_LEAD, PLAY) or state.claim is not None and state.claim.status != "disputed":
        return _unprocessed(state, seq, ev.TYPE, ev.seat, f"claim by {ev.seat} outside the play")
    remaining = remaining_tricks(state)
    if ev.tricks > remaining:
        return _unprocessed(state, seq, ev.TYPE, ev.seat,
                            f"claim of {ev.tricks} tricks with {remaining} to play")
    return attrs.evolve(state, claim=Claim(seq, ev.seat, ev.tricks, remaining, statement=ev.statement))


@handles(ClaimAgreed)
@journalled
def on_claim_agreed(state: TableState, step: Step[ClaimAgreed]) -> TableState:
    seq, ev = step.seq, step.event
    claim = state.claim
    if claim is None or claim.status != "pending" or ev.by.side is claim.seat.side:
        return _unprocessed(state, seq, ev.TYPE, ev.by, f"agreement by {ev.by} to no pending claim of the opponents")
    return _settle(state, attrs.evolve(claim, status="agreed", settled_tricks=claim.tricks, settled_seq=seq))


@handles(ClaimDisputed)
def on_claim_disputed(state: TableState, step: Step[ClaimDisputed]) -> TableState:
    seq, ev = step.seq, step.event
    claim = state.claim
    if claim is None or claim.status != "pending":
        return _unprocessed(state, seq, ev.TYPE, ev.by, f"dispute by {ev.by} of no pending claim")
    return attrs.evolve(state, claim=attrs.evolve(claim, status="disputed", disputed_seq=seq, disputed_by=ev.by))


@handles(ClaimRuled)
@journalled
def on_claim_ruled(state: TableState, step: Step[ClaimRuled]) -> TableState:
    seq, ev = step.seq, step.event
    claim = state.claim
    if claim is None or claim.status not in ("pending", "disputed") or ev.tricks > claim.remaining:
        detail = "claim ruling with no claim to rule on" if claim is None else \
            f"claim ruling of {ev.tricks} tricks with {claim.remaining} to play"
        return state.add_irregularity(Irregularity("unprocessed", seq, ev.TYPE, detail=detail))
    state = attrs.evolve(state, review=tuple(attrs.evolve(r, resolved=True) if r.about == claim.seq else r
                                             for r in state.review))
    return _settle(state, attrs.evolve(claim, status="ruled", settled_tricks=ev.tricks, settled_seq=seq,
                                       ruling_text=ev.text))


def _settle(state: TableState, claim: Claim) -> TableState:
    assert state.contract is not None and claim.settled_tricks is not None
    won, _ = state.tricks_won()
    if claim.seat.side is state.contract.side:
        declarer_tricks = won + claim.settled_tricks
    else:
        declarer_tricks = won + claim.remaining - claim.settled_tricks
    state = attrs.evolve(state, claim=claim, phase=ENDED)
    return attrs.evolve(state, result=final_result(state, declarer_tricks))


# -- the rules ----------------------------------------------------------------------------

def disputed_claim(state) -> list[Prescription]:
    claim = state.claim
    if claim is None or claim.disputed_seq is None:
        return []
    event = DirectorReviewRequired(reason="70 disputed claim", about=claim.seq)
    return [Prescription(event, (claim.seq, claim.disputed_seq), state.cite("70"))]
