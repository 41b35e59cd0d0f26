"""Inadmissible calls (Laws 35 to 39): one family, its reading and its rules
(LAWS-DIGEST 14.10, LEDGER-SPEC 9.D4). Built so far: the inadmissible double or
redouble in rotation (Law 36; 1997 36, 2017 36B) and the call after the final
pass (Law 39, both editions). Law 37 (a call by a player obliged to pass) is
the calls family's (``ledger.laws.calls``); Law 38 (a bid of more than seven),
the LHO-called-first readings (1997 35A-35D, 2017 36A, 37A, 38D, 39B) and an
inadmissible double out of rotation are not built yet.

| | 1997 | 2017 |
|---|---|---|
| double or redouble Law 19 does not allow | 36: cancelled, the offender calls legally, partner passes to the end, Law 26 | 36B: the same |
| call after the final pass | 39: cancelled; a defender's bid, double or redouble: Law 26 | 39A cancelled; 39B a defender's pass or any call of the declaring side: nothing more; 39C a defender's bid, double or redouble: Law 26 |
"""

from __future__ import annotations

from ledger.bridge import PASS, Call
from ledger.events import CallCancelled, CallPlaced, IrregularityRecorded, PartnerMustPass
from ledger.laws.base import Prescription
from ledger.laws.calls import RULING_WORDS, WITHDRAWN_READERS
from projections import calls as reading
from projections.insufficient import pending_insufficient
from projections.auction import why_illegal
from projections.state import AUCTION, OPENING_LEAD, AuctionCall, CallRecord, TableState

LAWS = ("35", "36", "38", "39")  # 38: a bid of more than seven, in rotation
"""The Laws this family rules on (``ledger.laws.find_law``; 37 stays the calls family's)."""

DOUBLE = "inadmissible_double"
ABOVE_SEVEN = "above_seven"
AFTER_CLOSE = "after_final_pass"


def _law_36(state: TableState) -> str:
    return state.cite("36" if state.edition == "1997" else "36B")


@reading.call_interceptor("inadmissible")
def read_call(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """A ``CallPlaced`` as Laws 36 and 39 read it (None: not this family's call)."""
    seat, call = ev.seat, ev.call
    if state.phase == OPENING_LEAD and not state.tricks and state.face_down_lead is None:
        assert state.contract is not None
        declaring = seat.side is state.contract.side
        what = "the declaring side" if declaring else "a defender"
        return reading.record_call(state, CallRecord(
            seq, seat, call, AFTER_CLOSE, law=state.cite("39"),
            detail=f"{call} by {seat} ({what}) after the final pass: cancelled"))
    if state.phase == AUCTION and seat is state.turn and call.is_bid and (call.level or 0) > 7:
        return _above_seven(state, seq, ev)
    if state.phase != AUCTION or seat is not state.turn or call.kind not in ("double", "redouble"):
        return None
    if pending_insufficient(state) is not None or reading.pending_substitution(state) is not None:
        return None
    reason = why_illegal(state.auction, seat, call)
    if reason is None:
        return None
    if reading.must_pass_now(state, seat):
        return None  # Law 37 first (the calls family)
    return reading.record_call(state, CallRecord(
        seq, seat, call, DOUBLE, law=_law_36(state),
        detail=f"{reason}: cancelled; {seat} must make a legal call, {seat.partner} passes to the end"))


def _above_seven(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    """Law 38 (both editions; 1997 read as 2017 38B/38C, LAWS-DIGEST 14.12 decision 8): the bid is
    cancelled, a Pass is entered for its maker, both members of his side pass to the end."""
    seat, call = ev.seat, ev.call
    law = state.cite("38" if state.edition == "1997" else "38C")
    state = reading.record_call(state, CallRecord(
        seq, seat, call, ABOVE_SEVEN, law=law,
        detail=f"a bid of more than seven: cancelled, Pass substituted; {seat} and {seat.partner} pass to the end"))
    return reading.with_auction(state, state.auction + (AuctionCall(seq, seat, PASS, law),))


reading.NOT_ENTERED.update({
    ABOVE_SEVEN: lambda r: "a bid of more than seven: cancelled, Pass substituted (Law 38)",
    DOUBLE: lambda r: "inadmissible double or redouble: cancelled (Law 36)",
    AFTER_CLOSE: lambda r: "call after the final pass: cancelled (Law 39)",
})

RULING_WORDS.update({
    ABOVE_SEVEN: "{call} is a bid of more than seven: cancelled, Pass substituted; {seat} and {partner} must "
                 "pass whenever it is their turn; a lead restriction may follow",
    DOUBLE: "{call} is a double or redouble Law 19 does not allow: cancelled; {seat} makes a legal call, "
            "{partner} must pass whenever it is his turn; a lead restriction may follow",
    AFTER_CLOSE: "{call} after the final pass: cancelled ({detail})",
})


def _defender_action(state, rec: CallRecord) -> bool:
    contract = state.contract
    return contract is not None and rec.seat.side is not contract.side and not rec.call.is_pass


def _withdrawn(state) -> list[tuple[CallRecord, Call]]:
    """Law 26 after 36 (36B3, 36B4) and 39C (1997 39)."""
    return [(rec, rec.call) for rec in state.calls
            if rec.ruling in (DOUBLE, ABOVE_SEVEN) or rec.ruling == AFTER_CLOSE and _defender_action(state, rec)]


WITHDRAWN_READERS["inadmissible"] = _withdrawn


def inadmissible_calls(state) -> list[Prescription]:
    out: list[Prescription] = []
    for rec in state.calls:
        if rec.ruling not in (DOUBLE, AFTER_CLOSE, ABOVE_SEVEN) or rec.law is None:
            continue

        def p(event, law: str | None = None) -> Prescription:
            return Prescription(event, (rec.seq,), law or rec.law)

        out.append(p(IrregularityRecorded(kind="inadmissible_call", offender=str(rec.seat), about=rec.seq)))
        if rec.ruling == DOUBLE:
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call)))
            out.append(p(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction")))
        elif rec.ruling == ABOVE_SEVEN:
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call)))
            for seat in (rec.seat, rec.seat.partner):
                out.append(p(PartnerMustPass(seat=seat, until="end_of_auction")))
        else:
            first = "39" if state.edition == "1997" else "39A"
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call), state.cite(first)))
    return out
