"""Was the call made, and what becomes of a changed call: FFB art. 57.3-57.5,
Laws 21B, 25A, 25B (both editions), and the enforced pass of 1997 25B2b1.

Each call-related fact leaves a :class:`CallRecord` saying how the Laws read
it; the ruling engine (``ledger.laws.calls``) derives the rectifications from
those records. Judgment fields are read as resolved by the director's findings
(``projections.resolve``); a judgment nobody has given yet leaves the record
``undecided`` and the auction as it was, and the engine asks the director.
"""

from __future__ import annotations

import attrs

from ledger.bridge import PASS, Call, Seat
from ledger.events import CallPlaced, CallPulled, CallReplaced, ExplanationCorrected
from projections.auction import auction_closed, final_contract, why_illegal
from projections.state import (AUCTION, ENDED, OPENING_LEAD, AuctionCall, CallRecord, Choice,
                               Irregularity, NotMade, Result, TableState)

CALL_MADE = "FFB:57.3"
"""The test of a call made in both editions (the 2017 Laws leave it to the RA, 18F)."""

CHANGE_RULINGS = ("unintended_corrected", "mi_change", "permitted_change")


def _record(state: TableState, rec: CallRecord) -> TableState:
    return attrs.evolve(state, calls=state.calls + (rec,))


def _unprocessed(state: TableState, seq: int, type_: str, seat: Seat, detail: str) -> TableState:
    return state.add_irregularity(Irregularity("unprocessed", seq, type_, offender=str(seat), detail=detail))


def with_auction(state: TableState, auction: tuple[AuctionCall, ...]) -> TableState:
    """The state with ``auction``, and the phase, contract or result it implies."""
    if state.phase != AUCTION or not auction_closed(auction):
        return attrs.evolve(state, auction=auction)
    contract = final_contract(auction)
    if contract is None:
        passed_out = Result("Pass", None, "", None, 0, state.cite("77"))
        return attrs.evolve(state, auction=auction, phase=ENDED, result=passed_out)
    return attrs.evolve(state, auction=auction, contract=contract, phase=OPENING_LEAD)


# -- obligations to pass (1997 25B2b1) --------------------------------------

def must_pass_now(state: TableState, seat: Seat) -> bool:
    """Is ``seat`` under an obligation to pass at this turn?"""
    for ob in state.partner_must_pass:
        if ob.seat is not seat:
            continue
        if ob.until == "end_of_auction":
            return True
        if not any(a.seat is seat and a.seq > ob.seq for a in state.auction):
            return True  # next_turn: until his first call after the obligation
    return False


def pending_substitution(state: TableState) -> CallRecord | None:
    """A change of mind awaiting the LHO's option (25B1)."""
    for rec in reversed(state.calls):
        if rec.ruling == "change_of_mind":
            return rec
    return None


# -- CallPlaced ---------------------------------------------------------------

def on_call_placed(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    seat, call = ev.seat, ev.call
    if ev.intentional is False:
        state = attrs.evolve(state, calls_not_made=state.calls_not_made + (
            NotMade(seq, seat, str(call), "accidental", CALL_MADE),))
        return _record(state, CallRecord(seq, seat, call, "not_made", law=CALL_MADE,
                                         detail="not intentionally taken from the box"))
    if state.phase != AUCTION:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{call} by {seat} after the auction closed")
    waiting = pending_substitution(state)
    if waiting is not None and seat is waiting.seat.lho:
        state = _lho_called_over_substitution(state, seq, ev, waiting)
        if state.phase != AUCTION:
            return state
    if seat is not state.turn:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{call} by {seat} out of turn ({state.turn} to call)")
    if not call.is_pass and must_pass_now(state, seat):
        return _record(state, CallRecord(seq, seat, call, "irregular", law=state.cite("37"),
                                         detail=f"{call} by {seat}, who must pass"))
    reason = why_illegal(state.auction, seat, call)
    if reason is not None:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{reason} by {seat}")
    state = _record(state, CallRecord(seq, seat, call, "made", law=CALL_MADE))
    return with_auction(state, state.auction + (AuctionCall(seq, seat, call, CALL_MADE),))


def _lho_called_over_substitution(state: TableState, seq: int, ev: CallPlaced,
                                  waiting: CallRecord) -> TableState:
    """The offender's LHO called while the 25B1 option was open: 2017, a call
    intentionally over the substitute accepts it; over the first call, it is
    not accepted (25B2). 1997: the substitute stands either way (25B1)."""
    over_substitute = ev.over_substitute
    if state.edition == "2017":
        if over_substitute is None:
            return state  # the engine asks the director; the call is taken as made over the auction
        if over_substitute:
            return accept_substitute(state, waiting, state.cite("25B1"))
        return reject_substitute_2017(state, waiting)
    return accept_substitute(state, waiting, state.cite("25B1"))


# -- CallPulled ---------------------------------------------------------------

def on_call_pulled(state: TableState, seq: int, ev: CallPulled) -> TableState:
    law = "FFB:57.4"
    state = attrs.evolve(state, calls_not_made=state.calls_not_made + (
        NotMade(seq, ev.seat, str(ev.call), "not released on the table", law),))
    return _record(state, CallRecord(seq, ev.seat, ev.call, "not_made", law=law,
                                     detail="taken from the box, not released: unauthorized "
                                            "information for partner (16)"))


def on_explanation_corrected(state: TableState, seq: int, ev: ExplanationCorrected) -> TableState:
    """Kept for 21B (a call changed after a correction) and for the engine
    (the misinformation it reveals)."""
    return _record(state, CallRecord(seq, ev.by, PASS, "explanation_corrected"))


# -- CallReplaced -------------------------------------------------------------

def _last_call_of(state: TableState, seat: Seat) -> tuple[int, AuctionCall] | None:
    for i in range(len(state.auction) - 1, -1, -1):
        if state.auction[i].seat is seat:
            return i, state.auction[i]
    return None


def _called_since(state: TableState, seat: Seat, seq: int) -> bool:
    return any(a.seat is seat and a.seq > seq for a in state.auction)


def _correction_since(state: TableState, seq: int) -> bool:
    """Was an explanation corrected after the call at ``seq`` was made?"""
    return any(r.ruling == "explanation_corrected" and r.seq > seq for r in state.calls)


def on_call_replaced(state: TableState, seq: int, ev: CallReplaced) -> TableState:
    seat, call = ev.seat, ev.call
    found = _last_call_of(state, seat)
    if found is None or state.phase != AUCTION:
        return _unprocessed(state, seq, ev.TYPE, seat,
                            f"{seat} replaces a call by {call}, but has no call in the auction to replace"
                            if found is None else f"{seat} replaces a call by {call} after the auction closed")
    position, first = found

    def rec(ruling: str, law: str | None, detail: str = "") -> CallRecord:
        return CallRecord(seq, seat, call, ruling, replaces=first.seq, position=position,
                          first_call=first.call, law=law, detail=detail)

    permitted = _permitted_change(state, seat, first)
    if permitted is not None:
        return _replace(state, rec("permitted_change", permitted), position)
    partner_called = _called_since(state, seat.partner, first.seq)
    if ev.mi_influenced:
        if partner_called:
            return _record(state, rec("too_late", state.cite("21B3"),
                                      "changed after misinformation, but partner has called since"))
        return _replace(state, rec("mi_change", state.cite("21B1")), position)
    if partner_called:
        return _record(state, rec("too_late", state.cite("25A"),
                                  "changed after partner called: the first call stands"))
    if ev.mi_influenced is None and _correction_since(state, first.seq):
        return _record(state, rec("undecided", state.cite("21B1"),
                                  "could the call have been influenced by the misinformation?"))
    if ev.unintended is None:
        return _record(state, rec("undecided", state.cite("25A"), "was the first call unintended?"))
    if ev.unintended and state.edition == "1997" and ev.without_pause is None:
        return _record(state, rec("undecided", state.cite("25A"),
                                  "was the call corrected without pause for thought?"))
    if ev.unintended and (state.edition == "2017" or ev.without_pause):
        reason = why_illegal(state.auction[:position], seat, call)
        if reason is not None:
            return _unprocessed(_record(state, rec("irregular", state.cite("25A"), reason)), seq, ev.TYPE,
                                seat, f"unintended call corrected by an illegal call: {reason}")
        return _replace(state, rec("unintended_corrected", state.cite("25A")), position)
    # A change of mind (25B).
    if _called_since(state, seat.lho, first.seq):
        # 1997: 25B runs only until LHO calls; 2017: LHO did not call over the substitute.
        return _record(state, rec("lho_called", state.cite("25B2" if state.edition == "2017" else "25B"),
                                  "LHO had called: the substituted call is cancelled, the first call stands"))
    return _record(state, rec("change_of_mind", state.cite("25B1"), "awaiting the LHO's option"))


def _permitted_change(state: TableState, seat: Seat, mine: AuctionCall) -> str | None:
    """After his RHO's call was changed under 25A or 21B, a player may change a
    call made since (2017 25A6; 21B2)."""
    for r in state.calls:
        if r.seat is seat.rho and r.ruling in ("unintended_corrected", "mi_change") and r.replaces is not None \
                and mine.seq > r.replaces and not _called_since(state, seat.partner, mine.seq):
            return state.cite("21B2" if r.ruling == "mi_change" else "25A6")
    return None


def _replace(state: TableState, rec: CallRecord, position: int) -> TableState:
    state = _record(state, rec)
    entry = AuctionCall(rec.seq, rec.seat, rec.call, rec.law or CALL_MADE)
    auction = state.auction[:position] + (entry,) + state.auction[position + 1:]
    return with_auction(state, auction)


def _set_ruling(state: TableState, rec: CallRecord, ruling: str, law: str | None = None) -> TableState:
    calls = tuple(attrs.evolve(r, ruling=ruling, law=law or r.law) if r.seq == rec.seq else r
                  for r in state.calls)
    return attrs.evolve(state, calls=calls)


# -- the effects of the options of 25B ---------------------------------------

def accept_substitute(state: TableState, rec: CallRecord, law: str) -> TableState:
    assert rec.position is not None
    state = _set_ruling(state, rec, "substitute_accepted", law)
    rec = attrs.evolve(rec, ruling="substitute_accepted", law=law)
    return _replace_entry(state, rec)


def _replace_entry(state: TableState, rec: CallRecord) -> TableState:
    assert rec.position is not None
    entry = AuctionCall(rec.seq, rec.seat, rec.call, rec.law or CALL_MADE)
    return with_auction(state, state.auction[:rec.position] + (entry,) + state.auction[rec.position + 1:])


def reject_substitute_2017(state: TableState, rec: CallRecord) -> TableState:
    return _set_ruling(state, rec, "substitute_cancelled", state.cite("25B2"))


def _on_accept(state: TableState, choice: Choice) -> TableState:
    rec = _offered_record(state, choice)
    return accept_substitute(state, rec, choice.law) if rec else state


def _on_reject(state: TableState, choice: Choice) -> TableState:
    rec = _offered_record(state, choice)
    if rec is None:
        return state
    if state.edition == "2017":
        return reject_substitute_2017(state, rec)
    return _set_ruling(state, rec, "substitute_rejected", state.cite("25B2"))


def _on_keep_first(state: TableState, choice: Choice) -> TableState:
    rec = _rejected_record(state)
    return _set_ruling(state, rec, "first_call_kept", choice.law) if rec else state


def _on_other_call(state: TableState, choice: Choice) -> TableState:
    rec = _rejected_record(state)
    if rec is None or rec.position is None:
        return state
    state = _set_ruling(state, rec, "other_call", choice.law)
    # The first call is withdrawn: the offender calls again at its place.
    return attrs.evolve(state, auction=state.auction[:rec.position] + state.auction[rec.position + 1:])


def _offered_record(state: TableState, choice: Choice) -> CallRecord | None:
    return next((r for r in reversed(state.calls) if r.ruling == "change_of_mind"), None)


def _rejected_record(state: TableState) -> CallRecord | None:
    return next((r for r in reversed(state.calls) if r.ruling == "substitute_rejected"), None)


OPTION_EFFECTS = {
    "25B1": lambda state, choice: (_on_accept if choice.option == "accept_substitute" else _on_reject)(state, choice),
    "25B2b": lambda state, choice: (_on_keep_first if choice.option == "keep_first_call" else _on_other_call)(state, choice),
}
