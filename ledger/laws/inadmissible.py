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

from typing import Callable

from ledger.bridge import PASS, Call
from ledger.events import CallCancelled, CallPlaced, Event, IrregularityRecorded, PartnerMustPass
from ledger.laws.base import Citations, Prescription, Ruled, at_call, cited
from projections import auction as reading
from projections.auction import why_illegal
from projections.state import AUCTION, OPENING_LEAD, AuctionCall, CallRecord, TableState
from projections.vocab import CallRuling, Edition, IrregularityKind

LAWS = ("35", "36", "38", "39")  # 38: a bid of more than seven, in rotation; 35: the LHO called first
"""The Laws this family rules on (``ledger.laws.find_law``; 37 stays the calls family's)."""

CITATIONS: Citations = {
    "a double Law 19 does not allow": {"1997": "36", "2017": "36B"},
    "a double Law 19 does not allow, out of rotation": {"1997": "36", "2017": "36B4"},
    "a bid of more than seven": {"1997": "38", "2017": "38C"},
    "a call after the final pass": {"1997": "39", "2017": "39A"},
}
"""Where the editions cite different Laws for the same occasion (``cited``; an occasion is not a
ruling: the rulings' own Laws are in :data:`RULINGS`)."""

DOUBLE = CallRuling.INADMISSIBLE_DOUBLE
ABOVE_SEVEN = CallRuling.ABOVE_SEVEN
AFTER_CLOSE = CallRuling.AFTER_FINAL_PASS
# The offender's LHO called before rectification (1997 35A-35D, 2017 36A, 37A, 38D, 39B)
DOUBLE_LHO = CallRuling.INADMISSIBLE_DOUBLE_LHO_CALLED
ABOVE_SEVEN_LHO = CallRuling.ABOVE_SEVEN_LHO_CALLED
AFTER_CLOSE_LHO = CallRuling.AFTER_FINAL_PASS_LHO_CALLED
OBLIGED_LHO = CallRuling.OBLIGED_LHO_CALLED
LHO_CANCELLED = CallRuling.LHO_CALL_CANCELLED

LHO_FIRST: dict[CallRuling, tuple[CallRuling, dict[str, str]]] = {
    DOUBLE: (DOUBLE_LHO, {"1997": "35A", "2017": "36A"}),
    ABOVE_SEVEN: (ABOVE_SEVEN_LHO, {"1997": "35C", "2017": "38B"}),  # 38D removes only 26B, 72C
    AFTER_CLOSE: (AFTER_CLOSE_LHO, {"1997": "35D", "2017": "39B"}),
    CallRuling.OBLIGED_TO_PASS: (OBLIGED_LHO, {"1997": "35B", "2017": "37A"}),
}
"""The reading of each inadmissible call when its maker's LHO called over it before rectification."""

RECTIFICATION = ("AttentionDrawn", "DirectorCalled", "RulingGiven")
"""Facts that start the rectification: a call logged before any of them is "before rectification"
(spec 1.2, 9.B)."""


def _law_36(state: TableState) -> str:
    return cited(state, CITATIONS, "a double Law 19 does not allow")


@at_call("inadmissible")
def read_call(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """A ``CallPlaced`` as Laws 36 and 39 read it (None: not this family's call)."""
    seat, call = ev.seat, ev.call
    later = _after_above_seven(state, seq, ev)
    if later is not None:
        return later
    first = _lho_called_first(state, seq, ev)
    if first is not None:
        return first
    if state.phase == OPENING_LEAD and not state.tricks and state.face_down_lead is None:
        return _after_close(state, seq, ev)
    if state.phase == AUCTION and seat is state.turn and call.is_bid and (call.level or 0) > 7:
        return _above_seven(state, seq, ev)
    if state.phase == AUCTION and seat is not state.turn and call.kind in ("double", "redouble"):
        return _out_of_rotation(state, seq, ev)
    if state.phase != AUCTION or seat is not state.turn or call.kind not in ("double", "redouble"):
        return None
    if reading.pending_insufficient(state) is not None or reading.pending_substitution(state) is not None:
        return None
    reason = why_illegal(state.auction, seat, call)
    if reason is None:
        return None
    if reading.must_pass_now(state, seat):
        return None  # Law 37 first (the calls family)
    return reading.record_call(state, CallRecord(
        seq, seat, call, DOUBLE, law=_law_36(state),
        detail=f"{reason}: cancelled; {seat} must make a legal call, {seat.partner} passes to the end"))


def _out_of_rotation(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """An inadmissible double or redouble out of rotation (1997 36, 2017 36B4; never accepted, no 29A
    offer): cancelled, the auction reverts to the player on turn, the offender calls at his own turn,
    his partner passes to the end, Law 26 may apply."""
    seat, call, turn = ev.seat, ev.call, state.turn
    assert turn is not None
    if reading.pending_insufficient(state) is not None or reading.pending_substitution(state) is not None:
        return None
    if any(r.ruling == CallRuling.COOR for r in state.calls):
        return None  # a call out of rotation waits for its LHO's choice (the rotation family)
    if state.auction and state.auction[-1].seat is seat:
        return None  # at his LHO's turn: a change of call (Law 25, the rotation family)
    if seat is turn.lho and reading.must_pass_now(state, turn):
        return None  # 28A (the rotation family)
    reason = why_illegal(state.auction, seat, call)
    if reason is None:
        return None  # an admissible double out of rotation: Law 32
    law = cited(state, CITATIONS, "a double Law 19 does not allow, out of rotation")
    return reading.record_call(state, CallRecord(
        seq, seat, call, DOUBLE, law=law,
        detail=f"{reason}, out of rotation ({turn} to call): cancelled, never accepted; the auction reverts to "
               f"{turn}, {seat} makes a legal call at his turn, {seat.partner} passes to the end"))


def _after_close(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    assert state.contract is not None
    seat, call = ev.seat, ev.call
    what = "the declaring side" if seat.side is state.contract.side else "a defender"
    return reading.record_call(state, CallRecord(
        seq, seat, call, AFTER_CLOSE, law=state.cite("39"),
        detail=f"{call} by {seat} ({what}) after the final pass: cancelled"))


def _last_call_record(state: TableState) -> CallRecord | None:
    return next((r for r in reversed(state.calls) if r.ruling != CallRuling.EXPLANATION_CORRECTED), None)


def _lho_called_first(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """1997 35A-35D, 2017 36A, 37A, 38D, 39B: the offender's LHO calls right after the inadmissible
    call, with no ``AttentionDrawn``, ``DirectorCalled`` or ``RulingGiven`` logged between."""
    last = _last_call_record(state)
    if last is None or last.ruling not in LHO_FIRST or ev.seat is not last.seat.lho:
        return None
    if state.phase not in (AUCTION, OPENING_LEAD) or state.tricks or state.face_down_lead is not None:
        return None
    if any(f.seq > last.seq and f.type in RECTIFICATION for f in state.procedure):
        return None
    if last.ruling == AFTER_CLOSE and not _defender_action(state, last):
        return None  # 39B already: nothing to change
    if state.turn is not (last.seat if last.ruling == DOUBLE else ev.seat) and last.ruling != AFTER_CLOSE:
        return None
    ruling, laws = LHO_FIRST[last.ruling]
    law = state.cite(laws[state.edition])
    seat, call = ev.seat, ev.call
    if last.ruling == DOUBLE:  # 36A / 35A: it and every later call cancelled, as though nothing happened
        state = reading.set_ruling(state, last.seq, ruling, law,
                                   f"{seat} called over it before rectification: it and the calls after it are "
                                   f"cancelled, the auction reverts to {last.seat}; no further rectification")
        return reading.record_call(state, CallRecord(
            seq, seat, call, LHO_CANCELLED, law=law, first_call=last.call,
            detail=f"made over {last.seat}'s inadmissible {last.call} before rectification: cancelled"))
    if last.ruling == ABOVE_SEVEN:  # 38D / 1997 35C (decision 8): 38B and 38C, no Law 26
        state = reading.set_ruling(state, last.seq, ruling, law,
                                   f"{seat} called over it before rectification: cancelled with the calls after "
                                   f"it, Pass substituted, {last.seat} and {last.seat.partner} pass to the end; "
                                   "no lead restriction")
        return reading.record_call(state, CallRecord(
            seq, seat, call, LHO_CANCELLED, law=law, first_call=last.call,
            detail=f"made over {last.seat}'s bid of more than seven: cancelled (38B), {seat} calls again"))
    if last.ruling == AFTER_CLOSE:  # 39B / 35D: cancelled, nothing more
        state = reading.set_ruling(state, last.seq, ruling, law,
                                   f"{seat} called over it before rectification: cancelled, no further "
                                   "rectification")
        return _after_close(state, seq, ev)  # the LHO's own call is a call after the final pass
    # 37A / 35B: the call by the player obliged to pass and the calls after it stand
    index = next((i for i in range(len(state.auction) - 1, -1, -1) if state.auction[i].seq == last.seq), None)
    if index is None or state.phase != AUCTION or why_illegal(state.auction[:index], last.seat, last.call):
        return None
    state = reading.set_ruling(state, last.seq, ruling, law,
                               f"{seat} called over it before rectification: it stands, and the calls after it; "
                               "a player barred to the end of the auction stays barred; no lead restriction")
    entry = AuctionCall(last.seq, last.seat, last.call, law)
    state = reading.with_auction(state, state.auction[:index] + (entry,) + state.auction[index + 1:])
    return reading.in_turn(state, seq, seat, call, ev.TYPE)


def _after_above_seven(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """2017 38B: a bid of more than seven is cancelled together with
    every call made after it before anyone drew attention to it or called the director; the calls after
    the LHO's are cancelled too, whoever makes them: they are not calls out of rotation. The auction
    resumes with the offender's LHO once the rectification begins (AttentionDrawn, DirectorCalled,
    RulingGiven)."""
    if state.phase != AUCTION or state.edition != Edition.E2017:  # 1997 35C not verified: as before (decision 8)
        return None
    bid = next((r for r in reversed(state.calls) if r.ruling == ABOVE_SEVEN_LHO), None)
    if bid is None or any(f.seq > bid.seq and f.type in RECTIFICATION for f in state.procedure):
        return None
    law = state.cite(LHO_FIRST[ABOVE_SEVEN][1][state.edition])
    return reading.record_call(state, CallRecord(
        seq, ev.seat, ev.call, LHO_CANCELLED, law=law, first_call=bid.call,
        detail=f"made after {bid.seat}'s bid of more than seven before rectification: cancelled with it (38B), "
               "not a call out of rotation"))


def _above_seven(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    """Law 38 (both editions; 1997 read as 2017 38B/38C, LAWS-DIGEST 14.12 decision 8): the bid is
    cancelled, a Pass is entered for its maker, both members of his side pass to the end."""
    seat, call = ev.seat, ev.call
    law = cited(state, CITATIONS, "a bid of more than seven")
    state = reading.record_call(state, CallRecord(
        seq, seat, call, ABOVE_SEVEN, law=law,
        detail=f"a bid of more than seven: cancelled, Pass substituted; {seat} and {seat.partner} pass to the end"))
    return reading.with_auction(state, state.auction + (AuctionCall(seq, seat, PASS, law),))


NOT_ENTERED: dict[CallRuling, Callable[[CallRecord], str]] = {
    ABOVE_SEVEN: lambda r: "a bid of more than seven: cancelled, Pass substituted (Law 38)",
    DOUBLE: lambda r: "inadmissible double or redouble: cancelled (Law 36)",
    AFTER_CLOSE: lambda r: "call after the final pass: cancelled (Law 39)",
    DOUBLE_LHO: lambda r: "inadmissible double or redouble: cancelled with the calls after it (LHO called over it)",
    ABOVE_SEVEN_LHO: lambda r: "a bid of more than seven: cancelled, Pass substituted (LHO called over it)",
    AFTER_CLOSE_LHO: lambda r: "call after the final pass: cancelled (LHO called over it)",
    LHO_CANCELLED: lambda r: f"cancelled: made after the inadmissible {r.first_call} before rectification",
}

RULINGS: dict[CallRuling, Ruled] = {
    ABOVE_SEVEN: Ruled(
        "{call} is a bid of more than seven: cancelled, Pass substituted; {seat} and {partner} must "
        "pass whenever it is their turn; a lead restriction may follow",
        {"1997": "38", "2017": "38C"}),
    DOUBLE: Ruled(
        "{call} is a double or redouble Law 19 does not allow: cancelled; {seat} makes a legal call, "
        "{partner} must pass whenever it is his turn; a lead restriction may follow",
        {"1997": "36", "2017": "36B"}),
    AFTER_CLOSE: Ruled("{call} after the final pass: cancelled ({detail})", {"1997": "39", "2017": "39"}),
    DOUBLE_LHO: Ruled("{call} is a double or redouble Law 19 does not allow; {detail}", LHO_FIRST[DOUBLE][1]),
    ABOVE_SEVEN_LHO: Ruled("{call} is a bid of more than seven; {detail}", LHO_FIRST[ABOVE_SEVEN][1]),
    AFTER_CLOSE_LHO: Ruled("{call} after the final pass; {detail}", LHO_FIRST[AFTER_CLOSE][1]),
    OBLIGED_LHO: Ruled("{call} by a player obliged to pass; {detail}", LHO_FIRST[CallRuling.OBLIGED_TO_PASS][1]),
    LHO_CANCELLED: Ruled("{call} {detail}", {"1997": "35A", "2017": "36A"}),
}
"""Each ruling of an inadmissible call: how it reads for people (a template ``ledger.render``
fills) and the Law it rests on, by edition (the LHO-called readings: their ``LHO_FIRST`` Law)."""


def _defender_action(state: TableState, rec: CallRecord) -> bool:
    contract = state.contract
    return contract is not None and rec.seat.side is not contract.side and not rec.call.is_pass


def _withdrawn(state: TableState) -> list[tuple[CallRecord, Call]]:
    """Law 26 after 36 (36B3, 36B4) and 39C (1997 39)."""
    return [(rec, rec.call) for rec in state.calls
            if rec.ruling in (DOUBLE, ABOVE_SEVEN) or rec.ruling == AFTER_CLOSE and _defender_action(state, rec)]


WITHDRAWN_CALLS = _withdrawn


def inadmissible_calls(state: TableState) -> list[Prescription]:
    out: list[Prescription] = []
    for rec in state.calls:
        if rec.ruling == LHO_CANCELLED and rec.law is not None:
            out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law))
            continue
        if rec.ruling == OBLIGED_LHO and rec.law is not None:
            out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.INADMISSIBLE_CALL, offender=str(rec.seat),
                                                         about=rec.seq), (rec.seq,), rec.law))
            continue
        if rec.ruling not in (DOUBLE, AFTER_CLOSE, ABOVE_SEVEN, DOUBLE_LHO, ABOVE_SEVEN_LHO, AFTER_CLOSE_LHO) \
                or rec.law is None:
            continue

        def p(event: Event, law: str | None = None) -> Prescription:
            return Prescription(event, (rec.seq,), law or rec.law)

        out.append(p(IrregularityRecorded(kind=IrregularityKind.INADMISSIBLE_CALL, offender=str(rec.seat), about=rec.seq)))
        if rec.ruling == DOUBLE:
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call)))
            out.append(p(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction")))
        elif rec.ruling == DOUBLE_LHO:
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call)))
        elif rec.ruling in (ABOVE_SEVEN, ABOVE_SEVEN_LHO):
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call)))
            for seat in (rec.seat, rec.seat.partner):
                out.append(p(PartnerMustPass(seat=seat, until="end_of_auction")))
        else:
            out.append(p(CallCancelled(seat=rec.seat, call=rec.call), cited(state, CITATIONS, "a call after the final pass")))
    return out


def lapsed(state: TableState) -> list[int | Event]:
    """Rectifications the engine emitted at once that the LHO's call before rectification withdrew
    (spec 1.2, 9.C2): the partner's bar of 36B (36A / 1997 35A); the cancellation and the bars of
    37B (37A / 1997 35B); a Law 26 offer already made (39B, 38D: no recourse to Law 26), by its seq.
    The engine cancels each one still in force that no rule prescribes."""
    out: list[int | Event] = []
    firsts = [r.seq for r in state.calls if r.ruling in (DOUBLE_LHO, ABOVE_SEVEN_LHO, AFTER_CLOSE_LHO, OBLIGED_LHO)]
    if firsts:
        out.extend(o.seq for o in state.pending if o.law.endswith(":26") and o.seq > min(firsts))
    for rec in state.calls:
        if rec.ruling == DOUBLE_LHO:
            out.append(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction"))
        elif rec.ruling == OBLIGED_LHO:
            out.append(CallCancelled(seat=rec.seat, call=rec.call))
            out.extend(PartnerMustPass(seat=seat, until="end_of_auction") for seat in (rec.seat, rec.seat.partner))
    return out


# -- words of the other vocabularies -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.INADMISSIBLE_CALL: "inadmissible call (Laws 36 to 39: a double Law 19 does not allow, a "
                                        "call by a player obliged to pass, a bid above seven, a call after "
                                        "the final pass)",
}
"""How the irregularity of this family's rules (``IrregularityKind``: 36 to 39) reads for people."""
