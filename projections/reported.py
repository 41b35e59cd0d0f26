"""A result reported without the table's calls and cards (``ResultReported``):
a traveller row, or a game record that gives Contract, Declarer and Result but
no auction.  The fold takes it as the table's result, scored by Law 77; the
ruling engine then records it (``ResultRecorded``) as for a played board.
"""

from __future__ import annotations

import attrs

from ledger import events as ev
from ledger.scoring import duplicate_score
from projections.fold import Step, handles
from projections.state import ENDED, Irregularity, Result, TableState


@handles(ev.ResultReported)
def on_result_reported(state: TableState, step: Step[ev.ResultReported]) -> TableState:
    """The reported result becomes the table's (the board ends); on a table that
    already has calls, cards or a result it is kept as an unprocessed record."""
    seq, event = step.seq, step.event
    if state.auction or state.tricks or state.result is not None:
        return state.add_irregularity(Irregularity(
            "unprocessed", seq, event.TYPE, detail="a result reported for a table that already "
            "has calls, cards or a result is stored as logged; the table's own record stands"))
    if event.contract == "Pass":
        result = Result("Pass", None, "", None, 0, state.cite("77"))
    elif event.declarer is None or event.tricks is None:
        return state.add_irregularity(Irregularity(
            "unprocessed", seq, event.TYPE,
            detail="a reported contract needs its declarer and tricks to be scored"))
    else:
        level, strain = int(event.contract[0]), event.contract[1:]
        risk = event.risk or ""
        side = event.declarer.side
        vulnerability = state.board.vulnerability
        vulnerable = vulnerability is not None and vulnerability.is_vulnerable(side)
        score = duplicate_score(level, strain, risk, vulnerable, event.tricks)
        score_ns = score if side.value == "NS" else -score
        result = Result(event.contract, event.declarer, risk, event.tricks, score_ns,
                        state.cite("77"))
    return attrs.evolve(state, phase=ENDED, result=result)
