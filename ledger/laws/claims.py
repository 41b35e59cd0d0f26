"""Claims (Laws 68 to 71): a disputed claim is the director's to rule (70);
the engine asks for the ruling and decides nothing itself."""

from __future__ import annotations

from ledger.events import DirectorReviewRequired
from ledger.laws.base import Prescription


def disputed_claim(state) -> list[Prescription]:
    claim = state.claim
    if claim is None or claim.disputed_seq is None:
        return []
    event = DirectorReviewRequired(reason="70 disputed claim", about=claim.seq)
    return [Prescription(event, (claim.seq, claim.disputed_seq), state.cite("70"))]
