"""Recording the result of a board (Law 77 score; a passed-out board scores 0
for both sides, Law 22A / 77)."""

from __future__ import annotations

from ledger.events import ResultRecorded
from ledger.laws.base import Prescription
from projections.play import result_in_force


def record_result(state) -> list[Prescription]:
    """When play ends (or the board is passed out, or a claim is settled), the result."""
    result = result_in_force(state)
    if result is None:
        return []
    if result is not state.result and state.adjusted is not None:
        last = state.adjusted.seq  # the director's assigned result (64C, 12C)
    elif state.claim is not None and state.claim.status in ("agreed", "ruled"):
        last = state.claim.seq
    elif state.tricks:
        last = state.tricks[-1].cards[-1].seq
    elif state.auction:
        last = state.auction[-1].seq
    else:  # a result reported without calls (ResultReported): the report itself
        last = state.seq
    event = ResultRecorded(contract=result.contract, declarer=result.declarer, risk=result.risk,
                           tricks=result.tricks, score_ns=result.score_ns)
    return [Prescription(event, (last,), result.law)]
