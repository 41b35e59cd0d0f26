"""Results (Law 77; a passed-out board scores 0 for both sides, Law 22A / 77): the
result of a board, its reading in the fold and what the engine records.

The reading: when play ends (the thirteenth trick quitted, ``projections.play``
asks at its ``result`` point) the result of the tricks as played; a result
reported without the table's calls and cards (``ResultReported``: a traveller row,
a game record with Contract, Declarer and Result but no auction) is the table's
result too; the engine's own ``ResultRecorded`` is noted (``state.result_recorded``).
A claim settled (``ledger.laws.claims``) scores its tricks through
``projections.play.final_result`` (the score of the contract with its tricks). The board's result in force (:func:`result_in_force`) is an
assigned result for both sides when the director or the committee awarded one
(64C, 12C), else the table's.

| facts | rectification |
|---|---|
| play ended, the board passed out, a claim settled, a result reported | ``ResultRecorded`` (77; 22A for a pass-out) |
| an assigned result for both sides in force (64C, 12C) | ``ResultRecorded`` of that result, caused by the award |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ledger import events as ev
from ledger.bridge import Seat
from ledger.events import ResultRecorded
from ledger.laws.base import Prescription, at_play, handles
from ledger.scoring import duplicate_score
from projections.derived import read
from projections.fold import Step
from projections.play import final_result
from projections.state import ENDED, Irregularity, Result, TableState, replace
from projections.vocab import IrregularityKind

LAWS = ("77",)
"""The Laws this family rules on (``ledger.laws.find_law``)."""


# -- the reading of the facts: the fold's handlers ------------------------------------------

@handles(ev.ResultReported)
def on_result_reported(state: TableState, step: Step[ev.ResultReported]) -> TableState:
    """The reported result becomes the table's (the board ends); on a table that
    already has calls, cards or a result it is kept as an unprocessed record."""
    seq, event = step.seq, step.event
    if state.auction or state.tricks or state.result is not None:
        return state.add_irregularity(Irregularity(
            IrregularityKind.UNPROCESSED, seq, event.TYPE, detail="a result reported for a table that already "
            "has calls, cards or a result is stored as logged; the table's own record stands"))
    if event.contract == "Pass":
        result = Result("Pass", None, "", None, 0, state.cite("77"))
    elif event.declarer is None or event.tricks is None:
        return state.add_irregularity(Irregularity(
            IrregularityKind.UNPROCESSED, seq, event.TYPE,
            detail="a reported contract needs its declarer and tricks to be scored"))
    else:
        result = scored(state, event.contract, event.declarer, event.risk or "", event.tricks, state.cite("77"))
    return attrs.evolve(state, phase=ENDED, result=result)


@handles(ev.ResultRecorded)
def on_result_recorded(state: TableState, step: Step[ev.ResultRecorded]) -> TableState:
    return replace(state, result_recorded=step.seq)


# -- the reading: the result of a board ----------------------------------------------------

def scored(state: TableState, contract: str, declarer: Seat, risk: str, tricks: int, law: str) -> Result:
    """``contract`` (``"4S"``) by ``declarer`` with ``tricks`` for him, scored by Law 77."""
    level, strain = int(contract[0]), contract[1:]
    vulnerability = state.board.vulnerability
    vulnerable = vulnerability is not None and vulnerability.is_vulnerable(declarer.side)
    score = duplicate_score(level, strain, risk, vulnerable, tricks)
    return Result(contract, declarer, risk, tricks, score if declarer.side.value == "NS" else -score, law)


@at_play("result")
def played_result(state: TableState) -> Result:
    """The result of the tricks as played (the play core asks when play ends)."""
    return final_result(state, state.tricks_won()[0])


def board_result(state: TableState) -> Result | None:
    """The table's result: as played (or claimed, or reported) with the tricks the revokes
    transfer when play has ended (64A), derived where read (``state.result`` is the result
    of the tricks as played)."""
    tricks = read(state, "tricks after transfers")  # the revokes family's conclusion (64A)
    if tricks is None:
        return state.result
    result = final_result(state, tricks)
    return state.result if result == state.result else result


def result_in_force(state: TableState) -> Result | None:
    """The board's result: an assigned result for both sides in force (64C, 12C) replaces
    the table result (the engine records it, ``ResultRecorded``). A split score (one result
    per side), a weighted or an artificial one has no single result: ``adjusted`` alone
    carries it and ``result`` stays the table's. An override of the award (not folded), or a
    later award of another kind, brings the table result back."""
    award = state.adjusted
    if award is None or not _assigned(state):
        return board_result(state)
    r: Mapping[str, Any] = award.results[0]  # checked on append: contract, declarer, tricks
    law = award.law or state.cite("12C")
    contract = str(r["contract"])
    if contract == "Pass":
        return Result("Pass", None, "", None, 0, law)
    return scored(state, contract, Seat.parse(r["declarer"]), str(r.get("risk", "")), int(r["tricks"]), law)


def _assigned(state: TableState) -> bool:
    """An assigned result for both sides is in force (:func:`result_in_force` reads it)."""
    award = state.adjusted
    return award is not None and award.kind == "assigned" and len(award.results) == 1 \
        and award.results[0].get("side", "both") == "both"


# -- rules: what the engine emits for the reading --------------------------------------------

def record_result(state: TableState) -> list[Prescription]:
    """When play ends (or the board is passed out, or a claim is settled), the result."""
    result = result_in_force(state)
    if result is None:
        return []
    if state.adjusted is not None and _assigned(state):
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
