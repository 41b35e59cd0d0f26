"""Was the call made, and what becomes of a changed call: FFB art. 57.3-57.5,
Laws 21B, 25A, 25B (both editions), and the enforced passes of 1997 25B2b1
and Law 37.

Each call-related fact leaves a :class:`CallRecord` saying how the Laws read
it; the ruling engine (``ledger.laws.calls``) derives the rectifications from
those records. Judgment fields are read as resolved by the director's findings
(``projections.resolve``); a judgment nobody has given yet leaves the record
``undecided`` and the auction as it was, and the engine asks the director.

Rulings of a record (``CallRecord.ruling``), and what the auction holds:

* ``made``: a call, entered (FFB 57.3).
* ``not_made``: an accident (57.3) or a call not released (57.4); not entered.
* ``explanation_corrected``: an explanation corrected, misinformation (21B).
* ``unintended_corrected``: 25A, the intended call takes the first call's place.
* ``mi_change``: 21B1, changed after the correction; takes the first call's place.
* ``permitted_change``: the LHO's change after 21B1 (21B2), after 25A (2017
  25A6; 1997 25A, the ledger's reading), or of a call made over the first
  call while the 25B1 option was open (1997 25B1); takes its place.
* ``too_late``: the change came after partner called; the first call stands.
* ``undecided``: a judgment the director has not given; nothing changes yet.
* ``change_of_mind``: 25B, awaiting the LHO's option; the first call stands.
* ``substitute_accepted``: 25B1, the substitute takes the first call's place.
* ``substitute_cancelled``: 2017 25B2, not accepted; the first call stands.
* ``lho_called``: the change came after the LHO had called; cancelled.
* ``substitute_rejected``: 1997 25B2, not accepted; the offender's choice is pending.
* ``first_call_kept``: 1997 25B2b1, the first call stands, partner passes once.
* ``other_call``: 1997 25B2b2, the first call is withdrawn, the offender calls
  again, his side is capped at average minus.
* ``obliged_to_pass``: Law 37, a call by a player who must pass; Pass entered.
* ``made_over_first_call``: 1997 25B1, the LHO's call made over the first
  call; entered, and he may still withdraw it.
* ``made_while_option_open``: 1997 25B1, the LHO's call, over which call not
  known; entered (whether he may withdraw it is the director's finding).
* ``withdrawn``: a call made over the first call that the change left illegal:
  withdrawn without rectification, its maker calls again (1997 25B1, 2017
  25A6, 21B2).
* ``irregular``: 25A, the intended call is itself illegal (Laws 27-39).
* Law 27 (2017 only; see the Law 27 section below): ``insufficient``,
  ``ib_accepted``, ``ib_refused``, ``ib_b3_pending``, ``ib_b1a``, ``ib_b1b``,
  ``ib_b2``, ``ib_b3`` on the insufficient bid; ``ib_correction`` and
  ``ib_cancelled_double`` on the call that corrects it.

``calls_not_made`` is derived from the records after each step
(:func:`refresh_not_made`): every call fact that is not (or no longer) in the
auction, with the reason and the Law.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from ledger.bridge import PASS, Call, Seat
from ledger.events import CallPlaced, CallPulled, CallReplaced, ExplanationCorrected
from projections.auction import auction_closed, final_contract, why_illegal
from projections.fold import Step, handles, option_effects
from projections.state import (AUCTION, ENDED, OPENING_LEAD, AuctionCall, CallRecord, Choice,
                               Irregularity, NotMade, Result, TableState)

CALL_MADE = "FFB:57.3"
"""The test of a call made in both editions (the 2017 Laws leave it to the RA, 18F)."""
CALL_NOT_RELEASED = "FFB:57.4"

LAWS: dict[str, dict[str, str]] = {
    "unintended": {"1997": "25A", "2017": "25A1"},
    "unintended_too_late": {"1997": "25A", "2017": "25A4"},
    "unintended_lho": {"1997": "25A", "2017": "25A6"},
    "mi_change": {"1997": "21B1", "2017": "21B1a"},
    "mi_lho": {"1997": "21B2", "2017": "21B2"},
    "mi_too_late": {"1997": "21B3", "2017": "21B3"},
    "lho_option": {"1997": "25B1", "2017": "25B1"},
    "not_accepted": {"1997": "25B2", "2017": "25B2"},
    "lho_had_called": {"1997": "25B", "2017": "25B2"},
    "obliged_to_pass": {"1997": "37", "2017": "37B"},
}
"""The Law each reading rests on, by edition (cited as ``edition:law``)."""

def law(state: TableState, key: str) -> str:
    return state.cite(LAWS[key][state.edition])


def _record(state: TableState, rec: CallRecord) -> TableState:
    return attrs.evolve(state, calls=state.calls + (rec,))


def _unprocessed(state: TableState, seq: int, type_: str, seat: Seat, detail: str) -> TableState:
    return state.add_irregularity(Irregularity("unprocessed", seq, type_, offender=str(seat), detail=detail))


def with_auction(state: TableState, auction: tuple[AuctionCall, ...]) -> TableState:
    """The state with ``auction``, and the phase, contract or result it implies.

    A change allowed after the auction closed (until the end of the auction
    period: no card led yet) may reopen it."""
    if state.phase not in (AUCTION, OPENING_LEAD) or state.tricks or state.face_down_lead is not None:
        return attrs.evolve(state, auction=auction)
    if not auction_closed(auction):
        return attrs.evolve(state, auction=auction, phase=AUCTION, contract=None)
    contract = final_contract(auction)
    if contract is None:
        passed_out = Result("Pass", None, "", None, 0, state.cite("77"))
        return attrs.evolve(state, auction=auction, phase=ENDED, result=passed_out, contract=None)
    return attrs.evolve(state, auction=auction, contract=contract, phase=OPENING_LEAD)


def _index_of(state: TableState, seq: int | None) -> int | None:
    return next((i for i, a in enumerate(state.auction) if a.seq == seq), None)


def _set_ruling(state: TableState, seq: int, ruling: str, law_: str | None = None, detail: str = "") -> TableState:
    """The record at ``seq`` read anew (an option taken, a call left illegal)."""
    calls = tuple(attrs.evolve(r, ruling=ruling, law=law_ or r.law, detail=detail) if r.seq == seq else r
                  for r in state.calls)
    return attrs.evolve(state, calls=calls)


def record_at(state: TableState, seq: int | None) -> CallRecord | None:
    return next((r for r in state.calls if r.seq == seq), None)


# -- obligations to pass (1997 25B2b1, Law 37) ---------------------------------

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


def _lapse_lho_option(state: TableState, offender: Seat) -> TableState:
    """The LHO called while his 25B1 option was open: his call (or the
    director's finding about it) decides; the option is no longer pending."""
    pending = tuple(o for o in state.pending
                    if not (o.law.endswith(":25B1") and o.to is offender.lho))
    return attrs.evolve(state, pending=pending)


# -- CallPlaced ---------------------------------------------------------------

@handles(CallPlaced)
def on_call_placed(state: TableState, step: Step[CallPlaced]) -> TableState:
    seq, ev = step.seq, step.event
    return refresh_not_made(_call_placed(state, seq, ev))


def _call_placed(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    seat, call = ev.seat, ev.call
    if ev.intentional is False:
        return _record(state, CallRecord(seq, seat, call, "not_made", law=CALL_MADE, detail="accidental"))
    for hook in CALL_HOOKS.values():  # the families of Laws 28 to 39 (ledger.laws.rotation, ...)
        handled = hook(state, seq, ev)
        if handled is not None:
            return handled
    if state.phase != AUCTION:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{call} by {seat} after the auction closed")
    ib = pending_insufficient(state)
    if ib is not None:
        handled = _law27_call(state, seq, ev, ib)
        if handled is not None:
            return handled
    waiting = pending_substitution(state)
    if waiting is not None and seat is waiting.seat.lho and seat is state.turn:
        return _lho_called_over_substitution(state, seq, ev, waiting)
    return _in_turn(state, seq, seat, call, ev.TYPE)


def _in_turn(state: TableState, seq: int, seat: Seat, call: Call, type_: str,
             ruling: str = "made", law_: str = CALL_MADE, detail: str = "") -> TableState:
    """A call at the seat's turn: entered, cancelled (Law 37) or left to Laws 27-39."""
    if seat is not state.turn:
        return _unprocessed(state, seq, type_, seat, f"{call} by {seat} out of turn ({state.turn} to call)")
    if not call.is_pass and must_pass_now(state, seat):
        state = _record(state, CallRecord(seq, seat, call, "obliged_to_pass", law=law(state, "obliged_to_pass"),
                                          detail=f"{seat} had to pass: {call} cancelled, Pass substituted"))
        entry = AuctionCall(seq, seat, PASS, law(state, "obliged_to_pass"))
        return with_auction(state, state.auction + (entry,))
    reason = why_illegal(state.auction, seat, call)
    if reason is not None and call.is_bid:
        return _insufficient(state, seq, seat, call, reason)  # Law 27, both editions
    if reason is not None:
        return _unprocessed(state, seq, type_, seat, f"{reason} by {seat}")
    state = _record(state, CallRecord(seq, seat, call, ruling, law=law_, detail=detail))
    return with_auction(state, state.auction + (AuctionCall(seq, seat, call, CALL_MADE),))


def _lho_called_over_substitution(state: TableState, seq: int, ev: CallPlaced,
                                  waiting: CallRecord) -> TableState:
    """The offender's LHO called while his 25B1 option was open.

    2017: a call intentionally over the substituted call accepts it (25B1);
    over the first call, it is not accepted (25B2) and his call stands over
    the first call; not known, the director is asked and the call waits.
    1997: the substituted call stands either way (25B1); a call made over the
    first call may be withdrawn, and when the substitution left it illegal it
    is withdrawn (it is not an insufficient bid) and the LHO calls again."""
    seat, call, over = ev.seat, ev.call, ev.over_substitute
    state = _lapse_lho_option(state, waiting.seat)
    option_law = law(state, "lho_option")
    if state.edition == "2017":
        if over is None:
            return _record(state, CallRecord(
                seq, seat, call, "undecided", law=option_law,
                detail=f"did {seat} call intentionally over {waiting.seat}'s substituted {waiting.call}?"))
        if over:
            state = accept_substitute(state, waiting, option_law)
        else:
            state = reject_substitute_2017(state, waiting)
        return _in_turn(state, seq, seat, call, ev.TYPE)
    state = accept_substitute(state, waiting, option_law)
    if over is True:
        return _in_turn(state, seq, seat, call, ev.TYPE)
    illegal = why_illegal(state.auction, seat, call)
    if over is False:
        if illegal is not None:
            return _record(state, CallRecord(
                seq, seat, call, "withdrawn", law=option_law,
                detail=f"made over {waiting.seat}'s first call {waiting.first_call}: withdrawn, not an "
                       f"insufficient bid; {seat} calls again"))
        return _in_turn(state, seq, seat, call, ev.TYPE, "made_over_first_call", option_law,
                        f"made over {waiting.seat}'s first call {waiting.first_call}: {seat} may withdraw it")
    if illegal is not None:
        return _record(state, CallRecord(
            seq, seat, call, "undecided", law=option_law,
            detail=f"did {seat} intend his call over {waiting.seat}'s first call {waiting.first_call}?"))
    return _in_turn(state, seq, seat, call, ev.TYPE, "made_while_option_open", option_law,
                    f"{seat} called while his 25B1 option was open")


# -- CallPulled ---------------------------------------------------------------

@handles(CallPulled)
def on_call_pulled(state: TableState, step: Step[CallPulled]) -> TableState:
    seq, ev = step.seq, step.event
    rec = CallRecord(seq, ev.seat, ev.call, "not_made", law=CALL_NOT_RELEASED,
                     detail="not released on the table")
    return refresh_not_made(_record(state, rec))


@handles(ExplanationCorrected)
def on_explanation_corrected(state: TableState, step: Step[ExplanationCorrected]) -> TableState:
    """Kept for 21B (a call changed after a correction) and for the engine
    (the misinformation it reveals)."""
    seq, ev = step.seq, step.event
    return _record(state, CallRecord(seq, ev.by, PASS, "explanation_corrected", law=law(state, "mi_change")))


# -- CallReplaced -------------------------------------------------------------

def _last_call_of(state: TableState, seat: Seat) -> tuple[int, AuctionCall] | None:
    for i in range(len(state.auction) - 1, -1, -1):
        if state.auction[i].seat is seat:
            return i, state.auction[i]
    return None


def _called_since(state: TableState, seat: Seat, seq: int, before: int | None = None) -> bool:
    return any(a.seat is seat and a.seq > seq and (before is None or a.seq < before) for a in state.auction)


def _correction_since(state: TableState, seq: int) -> bool:
    """Was an explanation corrected after the call at ``seq`` was made?"""
    return any(r.ruling == "explanation_corrected" and r.seq > seq for r in state.calls)


def _illegal_call_since(state: TableState, seat: Seat, seq: int) -> bool:
    """Has ``seat`` made, after ``seq``, a call the fold could not enter (Laws 27-39)?"""
    return any(i.kind == "unprocessed" and i.type == "CallPlaced" and i.offender == str(seat) and i.seq > seq
               for i in state.irregularities) or any(
        r.seat is seat and r.seq > seq and r.ruling in IB_OPEN for r in state.calls)  # Law 27 not complete


@handles(CallReplaced)
def on_call_replaced(state: TableState, step: Step[CallReplaced]) -> TableState:
    seq, ev = step.seq, step.event
    return refresh_not_made(_call_replaced(state, seq, ev))


def _call_replaced(state: TableState, seq: int, ev: CallReplaced) -> TableState:
    seat, call = ev.seat, ev.call
    found = _last_call_of(state, seat)
    in_period = state.phase in (AUCTION, OPENING_LEAD) and not state.tricks and state.face_down_lead is None
    if found is None or not in_period:
        return _unprocessed(state, seq, ev.TYPE, seat,
                            f"{seat} replaces a call by {call}, but has no call in the auction to replace"
                            if found is None else f"{seat} replaces a call by {call} after the auction period")
    position, first = found
    if _illegal_call_since(state, seat, first.seq):
        return _unprocessed(state, seq, ev.TYPE, seat,
                            f"{seat} replaces by {call} a call that is not in the auction (Laws 27-39)")

    def rec(ruling: str, law_: str | None, detail: str = "") -> CallRecord:
        return CallRecord(seq, seat, call, ruling, replaces=first.seq, position=position,
                          first_call=first.call, law=law_, detail=detail)

    partner_called = _called_since(state, seat.partner, first.seq)
    own = record_at(state, first.seq)
    if own is not None and own.ruling == "made_while_option_open" and not partner_called:
        return _record(state, rec("undecided", own.law, f"did {seat} intend his {first.call} over "
                                  f"{seat.rho}'s first call? (then he may withdraw it)"))
    permitted = _permitted_change(state, seat, first)
    if permitted is not None:
        return _replace(state, rec(*permitted), ev.TYPE)
    if ev.mi_influenced:
        if partner_called:
            return _record(state, rec("too_late", law(state, "mi_too_late"),
                                      "changed after the correction, but partner has called since"))
        return _replace(state, rec("mi_change", law(state, "mi_change")), ev.TYPE)
    if partner_called:
        return _record(state, rec("too_late", law(state, "unintended_too_late"),
                                  "changed after partner called: the first call stands"))
    if ev.mi_influenced is None and _correction_since(state, first.seq):
        return _record(state, rec("undecided", law(state, "mi_change"),
                                  "could the call have been influenced by the misinformation?"
                                  if state.edition == "2017" else
                                  "was the call probably made as a result of the misinformation?"))
    if ev.unintended is None:
        return _record(state, rec("undecided", law(state, "unintended"), "was the first call unintended?"))
    if ev.unintended and state.edition == "1997" and ev.without_pause is None:
        return _record(state, rec("undecided", law(state, "unintended"),
                                  "was the call corrected without pause for thought?"))
    if ev.unintended and (state.edition == "2017" or ev.without_pause):
        return _replace(state, rec("unintended_corrected", law(state, "unintended")), ev.TYPE)
    # A change of mind (25B).
    if _called_since(state, seat.lho, first.seq):
        # 1997: 25B runs only until LHO calls; 2017: LHO did not call over the substitute.
        return _record(state, rec("lho_called", law(state, "lho_had_called"),
                                  "LHO had called: the substituted call is cancelled, the first call stands"))
    return _record(state, rec("change_of_mind", law(state, "lho_option"), "awaiting the LHO's option"))


def _permitted_change(state: TableState, seat: Seat, mine: AuctionCall) -> tuple[str, str, str] | None:
    """(ruling, law, detail) when ``seat`` may change ``mine`` because of what
    happened to his RHO's call: after a change under 25A (2017 25A6; 1997 25A,
    the ledger's reading) or 21B1 (21B2), a call he made over the first call;
    1997 25B1, a call he made over the first call while the LHO option was open."""
    if _called_since(state, seat.partner, mine.seq):
        return None
    own = record_at(state, mine.seq)
    if own is not None and own.ruling == "made_over_first_call":
        return "permitted_change", own.law or law(state, "lho_option"), "his call was made over the first call"
    for r in state.calls:
        if r.seat is not seat.rho or r.ruling not in ("unintended_corrected", "mi_change") or r.replaces is None:
            continue
        if r.replaces < mine.seq < r.seq:
            key = "mi_lho" if r.ruling == "mi_change" else "unintended_lho"
            return "permitted_change", law(state, key), f"made over {r.seat}'s {r.first_call}, since changed"
    return None


def _replace(state: TableState, rec: CallRecord, type_: str) -> TableState:
    """``rec.call`` takes the place of the call at ``rec.replaces``, if legal there."""
    index = _index_of(state, rec.replaces)
    assert index is not None
    reason = why_illegal(state.auction[:index], rec.seat, rec.call)
    if reason is not None:
        state = _record(state, attrs.evolve(rec, ruling="irregular", detail=reason))
        return _unprocessed(state, rec.seq, type_, rec.seat, f"{rec.call} replaces {rec.first_call}: {reason}")
    state = _record(state, rec)
    lho_law = {"unintended_corrected": law(state, "unintended_lho"),
               "mi_change": law(state, "mi_lho")}.get(rec.ruling, rec.law)
    return _put(state, rec.replaces, AuctionCall(rec.seq, rec.seat, rec.call, rec.law or CALL_MADE), lho_law)


def _put(state: TableState, old_seq: int | None, entry: AuctionCall, law_: str | None) -> TableState:
    """Replace the auction entry of seq ``old_seq`` by ``entry``; a later call
    left illegal by the change is withdrawn (its maker calls again)."""
    index = _index_of(state, old_seq)
    assert index is not None
    auction = state.auction[:index] + (entry,)
    later = state.auction[index + 1:]
    stranded = False
    for a in later:
        if stranded or why_illegal(auction, a.seat, a.call) is not None:
            state = _set_ruling(state, a.seq, "withdrawn", law_,
                                f"made over {entry.seat}'s earlier call and left illegal by the change: "
                                f"withdrawn, {a.seat} calls again")
            stranded = True
            continue
        auction += (a,)
    return with_auction(state, auction)


# -- the effects of the options of 25B ---------------------------------------

def accept_substitute(state: TableState, rec: CallRecord, law_: str) -> TableState:
    state = _set_ruling(state, rec.seq, "substitute_accepted", law_)
    return _put(state, rec.replaces, AuctionCall(rec.seq, rec.seat, rec.call, law_), law_)


def reject_substitute_2017(state: TableState, rec: CallRecord) -> TableState:
    return _set_ruling(state, rec.seq, "substitute_cancelled", law(state, "not_accepted"))


def _on_accept(state: TableState, choice: Choice) -> TableState:
    rec = pending_substitution(state)
    return accept_substitute(state, rec, choice.law) if rec else state


def _on_reject(state: TableState, choice: Choice) -> TableState:
    rec = pending_substitution(state)
    if rec is None:
        return state
    if state.edition == "2017":
        return reject_substitute_2017(state, rec)
    return _set_ruling(state, rec.seq, "substitute_rejected", law(state, "not_accepted"))


def _on_keep_first(state: TableState, choice: Choice) -> TableState:
    rec = _rejected_record(state)
    return _set_ruling(state, rec.seq, "first_call_kept", state.cite("25B2b1")) if rec else state


def _on_other_call(state: TableState, choice: Choice) -> TableState:
    rec = _rejected_record(state)
    if rec is None:
        return state
    state = _set_ruling(state, rec.seq, "other_call", state.cite("25B2b2"))
    # The first call is withdrawn: the offender calls again at its place.
    index = _index_of(state, rec.replaces)
    if index is None:
        return state
    return with_auction(state, state.auction[:index] + state.auction[index + 1:])


def _rejected_record(state: TableState) -> CallRecord | None:
    return next((r for r in reversed(state.calls) if r.ruling == "substitute_rejected"), None)


def _effect(fn):
    return lambda state, choice: refresh_not_made(fn(state, choice))


OPTION_EFFECTS = {
    "25B1": _effect(lambda state, choice: (_on_accept if choice.option == "accept_substitute"
                                           else _on_reject)(state, choice)),
    "25B2b": _effect(lambda state, choice: (_on_keep_first if choice.option == "keep_first_call"
                                            else _on_other_call)(state, choice)),
}


# -- Law 27: an insufficient bid (2017 edition) -----------------------------------
#
# Source: the 2017 Laws of Duplicate Bridge, Law 27 (the public text the digest
# names as its 2017 source; LAWS-DIGEST does not summarise Law 27 and the seeds
# leave it out: seed 000 "des enchères insuffisantes ... font l'objet de lois
# particulières"). The 1997 Law 27 text is in none of the project's sources:
# a 1997 insufficient bid stays ``unprocessed`` (docs/EXTENSIONS.md).
#
# Records of the insufficient bid (its ``ruling``): ``insufficient`` (27A1, the
# LHO's option open), ``ib_accepted`` (27A1, entered), ``ib_refused`` (27B, the
# offender must correct), ``ib_b3_pending`` (27B3, a double or redouble
# attempted and cancelled, a legal call still due), and once corrected
# ``ib_b1a``, ``ib_b1b``, ``ib_b2``, ``ib_b3``. The correcting call's record:
# ``ib_correction`` (entered), ``ib_cancelled_double`` (27B3) or ``undecided``
# (the director's judgment: ``same_denomination`` for 27B1a, ``comparable``
# for 27B1b).

IB_OPEN = ("insufficient", "ib_refused", "ib_b3_pending")
IB_SETTLED = ("ib_accepted", "ib_b1a", "ib_b1b", "ib_b2", "ib_b3")


def pending_insufficient(state: TableState) -> CallRecord | None:
    """An insufficient bid whose rectification is not complete yet."""
    for rec in reversed(state.calls):
        if rec.ruling in IB_OPEN:
            return rec
        if rec.ruling in IB_SETTLED:
            return None
    return None


def accept_law(state: TableState) -> str:
    """The LHO's option on an insufficient bid: 1997 27A, 2017 27A1."""
    return state.cite("27A" if state.edition == "1997" else "27A1")


def lowest_sufficient(state: TableState, call: Call) -> Call | None:
    """The lowest sufficient bid in the strain of ``call`` (1997 27B1(a))."""
    for level in range(1, 8):
        bid = Call.parse(f"{level}{call.strain}")
        if why_illegal(state.auction, Seat.N, bid) is None:
            return bid
    return None


def _insufficient(state: TableState, seq: int, seat: Seat, call: Call, reason: str) -> TableState:
    return _record(state, CallRecord(seq, seat, call, "insufficient", law=accept_law(state),
                                     detail=f"{reason}: {seat.lho} may accept it"))


def _law27_call(state: TableState, seq: int, ev: CallPlaced, ib: CallRecord) -> TableState | None:
    """A call while an insufficient bid waits (None: not Law 27's call)."""
    seat, call = ev.seat, ev.call
    if ib.ruling == "insufficient":
        if seat is ib.seat.lho:  # 27A1: "It is accepted if that player calls."
            state = accept_insufficient(state, ib, f"accepted: {seat} called over it")
            return _in_turn(state, seq, seat, call, ev.TYPE)
        if seat is ib.seat:
            return _unprocessed(state, seq, ev.TYPE, seat,
                                f"{call} replaces the insufficient {ib.call} before {seat.lho}'s option "
                                "(27C premature replacement: not ruled by the ledger)")
        return None
    if seat is not ib.seat or seat is not state.turn:
        return None
    return _correct_insufficient(state, seq, ev, ib)


def _correct_insufficient(state: TableState, seq: int, ev: CallPlaced, ib: CallRecord) -> TableState:
    """27B: the offender's call in place of his insufficient bid, not accepted."""
    seat, call, cite = ev.seat, ev.call, state.cite
    reason = why_illegal(state.auction, seat, call)

    def ask(key: str, question: str) -> TableState:
        return _record(state, CallRecord(seq, seat, call, "undecided", law=cite(key), replaces=ib.seq,
                                         first_call=ib.call, detail=question))

    def enter(ib_ruling: str, key: str, detail: str) -> TableState:
        st = _set_ruling(state, ib.seq, ib_ruling, cite(key), detail)
        st = _record(st, CallRecord(seq, seat, call, "ib_correction", law=cite(key), replaces=ib.seq,
                                    first_call=ib.call, detail=detail))
        return with_auction(st, st.auction + (AuctionCall(seq, seat, call, cite(key)),))

    if ib.ruling == "ib_b3_pending":  # 27B3: "must replace it as the foregoing allows"
        if reason is not None:
            return _unprocessed(state, seq, ev.TYPE, seat, f"{reason} by {seat} (27B3: a legal call is due)")
        return enter("ib_b3", "27B3", f"{seat.partner} must pass whenever it is his turn to call")
    if state.edition == "1997":
        return _correct_insufficient_1997(state, seq, ev, ib, reason, ask, enter)
    if call.kind in ("double", "redouble"):
        if reason is None and ev.comparable is None:
            return ask("27B1b", f"is {call} a comparable call (23A) in place of the insufficient {ib.call}?")
        if reason is None and ev.comparable:
            return enter("ib_b1b", "27B1b", "a comparable call: no further rectification (27D at the end)")
        state = _set_ruling(state, ib.seq, "ib_b3_pending", cite("27B3"),
                            f"{call} attempted in place of the insufficient {ib.call}: cancelled")
        return _record(state, CallRecord(seq, seat, call, "ib_cancelled_double", law=cite("27B3"), replaces=ib.seq,
                                         first_call=ib.call,
                                         detail=f"cancelled; {seat} must make a legal call, "
                                                f"{seat.partner} must pass whenever it is his turn to call"))
    if reason is not None:  # 27B4: another insufficient bid (or an illegal call)
        return _unprocessed(state, seq, ev.TYPE, seat,
                            f"{reason} by {seat} in place of the insufficient {ib.call} (27B4: not ruled by the ledger)")
    if call.is_bid:
        if ev.same_denomination is None:
            return ask("27B1a", f"is {call} the lowest sufficient bid specifying the same denomination(s) as "
                                f"the insufficient {ib.call}?")
        if ev.same_denomination:
            return enter("ib_b1a", "27B1a", "lowest sufficient bid, same denomination(s): no further "
                                            "rectification (27D at the end)")
    if ev.comparable is None:
        return ask("27B1b", f"is {call} a comparable call (23A) in place of the insufficient {ib.call}?")
    if ev.comparable:
        return enter("ib_b1b", "27B1b", "a comparable call: no further rectification (27D at the end)")
    return enter("ib_b2", "27B2", f"{seat.partner} must pass whenever it is his turn to call; Law 26 may apply")


def _correct_insufficient_1997(state: TableState, seq: int, ev: CallPlaced, ib: CallRecord, reason: str | None,
                               ask, enter) -> TableState:
    """1997 27B: only a sufficient bid or a pass may replace it (LAWS-DIGEST 14.9, LEDGER-SPEC 9.D5)."""
    seat, call, cite = ev.seat, ev.call, state.cite
    if call.kind in ("double", "redouble"):  # 27B3 (LAWS-DIGEST 14.12, decision 6)
        state = _set_ruling(state, ib.seq, "ib_b3_pending", cite("27B3"),
                            f"{call} attempted in place of the insufficient {ib.call}: cancelled")
        return _record(state, CallRecord(seq, seat, call, "ib_cancelled_double", law=cite("27B3"), replaces=ib.seq,
                                         first_call=ib.call,
                                         detail=f"cancelled; {seat} must bid sufficiently or pass, "
                                                f"{seat.partner} must pass whenever it is his turn to call"))
    if reason is not None:  # another insufficient bid: no 1997 text (LAWS-DIGEST 14.12, decision 7)
        return _unprocessed(state, seq, ev.TYPE, seat,
                            f"{reason} by {seat} in place of the insufficient {ib.call} (1997: no rule; the director's)")
    if call.is_bid and call == lowest_sufficient(state, ib.call):
        if ev.same_denomination is None:
            return ask("27B1a", f"is {call}, the lowest sufficient bid in the strain of the insufficient {ib.call}, "
                                "free of conventional meaning, and the insufficient bid too (same_denomination)?")
        if ev.same_denomination:
            return enter("ib_b1a", "27B1a", "lowest sufficient bid in the same denomination, neither conventional: "
                                            "no penalty (the director may adjust, 27B1(b))")
    return enter("ib_b2", "27B2", f"{seat.partner} must pass whenever it is his turn to call; Law 26 may apply")


def accept_insufficient(state: TableState, ib: CallRecord, detail: str) -> TableState:
    """27A1: the insufficient bid is treated as legal and entered; the LHO's option lapses."""
    law_ = accept_law(state)
    pending = tuple(o for o in state.pending if not (o.law == law_ and o.to is ib.seat.lho))
    state = _set_ruling(attrs.evolve(state, pending=pending), ib.seq, "ib_accepted", law_, detail)
    return with_auction(state, state.auction + (AuctionCall(ib.seq, ib.seat, ib.call, law_),))


def _on_27a1(state: TableState, choice: Choice) -> TableState:
    ib = pending_insufficient(state)
    if ib is None or ib.ruling != "insufficient":
        return state
    if choice.option == "accept":
        return accept_insufficient(state, ib, f"accepted by {choice.seat}")
    return _set_ruling(state, ib.seq, "ib_refused", state.cite("27B"),
                       f"not accepted by {choice.seat}: {ib.seat} must correct it")


OPTION_EFFECTS["27A1"] = _effect(_on_27a1)
OPTION_EFFECTS["27A"] = _effect(_on_27a1)  # 1997


# -- the hooks of the families of Laws 28 to 39 -----------------------------------

CALL_HOOKS: dict[str, Callable[[TableState, int, CallPlaced], "TableState | None"]] = {}
"""Readers of a ``CallPlaced`` supplied by other families (out of rotation, 28 to 34;
inadmissible calls, 35 to 39), consulted in order before the reading above; each
returns the new state, or None when the call is not its to read."""

NOT_ENTERED: dict[str, Callable[[CallRecord], str]] = {}
"""Rulings of other families whose call is not in the auction: the reason shown in
``calls_not_made`` (its Law is the record's)."""


def call_hook(point: str):
    """Register the decorated reader at ``point`` of :data:`CALL_HOOKS`; one per point."""
    def wrap(fn):
        if point in CALL_HOOKS:
            raise RuntimeError(f"call hook {point!r} supplied twice")
        CALL_HOOKS[point] = fn
        return fn
    return wrap


in_turn = _in_turn
record = _record
set_ruling = _set_ruling
unprocessed = _unprocessed
call_replaced = _call_replaced
effect = _effect


# -- what did not amount to a call ---------------------------------------------

def _not_made(rec: CallRecord) -> list[NotMade]:
    """The calls of ``rec``'s fact that are not in the auction, and why."""
    law_ = rec.law or CALL_MADE
    first = (rec.replaces, rec.first_call)

    def entry(seq: int | None, call: Call | None, reason: str, why: str = law_) -> NotMade:
        assert seq is not None and call is not None
        return NotMade(seq, rec.seat, str(call), reason, why)

    ruling = rec.ruling
    if ruling == "not_made":
        return [entry(rec.seq, rec.call, rec.detail)]
    if ruling == "unintended_corrected":
        return [entry(*first, f"unintended, replaced by {rec.call}")]
    if ruling == "mi_change":
        return [entry(*first, f"changed to {rec.call} after the correction of misinformation")]
    if ruling == "permitted_change":
        return [entry(*first, f"changed to {rec.call}: {rec.detail}")]
    if ruling == "substitute_accepted":
        return [entry(*first, f"withdrawn: the substituted {rec.call} was accepted")]
    if ruling == "too_late":
        return [entry(rec.seq, rec.call, f"change refused: partner has called since, {rec.first_call} stands")]
    if ruling == "undecided":
        return [entry(rec.seq, rec.call, f"awaiting the director: {rec.detail}")]
    if ruling == "change_of_mind":
        return [entry(rec.seq, rec.call, f"substituted for {rec.first_call}, awaiting the LHO's option")]
    if ruling in ("substitute_cancelled", "lho_called"):
        return [entry(rec.seq, rec.call, f"substituted call cancelled: {rec.first_call} stands")]
    law_25b2 = f"{law_.split(':')[0]}:25B2"
    if ruling in ("substitute_rejected", "first_call_kept"):
        return [entry(rec.seq, rec.call, "substituted call not accepted: cancelled", law_25b2)]
    if ruling == "other_call":
        return [entry(*first, "withdrawn: the offender makes another call", law_),
                entry(rec.seq, rec.call, "substituted call not accepted: cancelled", law_25b2)]
    if ruling == "obliged_to_pass":
        return [entry(rec.seq, rec.call, "cancelled: the player had to pass; Pass substituted")]
    if ruling == "withdrawn":
        return [entry(rec.seq, rec.call, rec.detail)]
    if ruling == "insufficient":
        return [entry(rec.seq, rec.call, f"insufficient bid, awaiting {rec.seat.lho}'s option")]
    if ruling in ("ib_refused", "ib_b3_pending", "ib_b1a", "ib_b1b", "ib_b2", "ib_b3"):
        return [entry(rec.seq, rec.call, "insufficient bid not accepted: withdrawn")]
    if ruling == "ib_cancelled_double":
        return [entry(rec.seq, rec.call, f"cancelled: attempted in place of the insufficient {rec.first_call}")]
    reason = NOT_ENTERED.get(ruling)
    if reason is not None:
        return [entry(rec.seq, rec.call, reason(rec), rec.law or law_)]
    return []


def refresh_not_made(state: TableState) -> TableState:
    """``calls_not_made`` as the records now read, in seq order."""
    entries = sorted((n for rec in state.calls for n in _not_made(rec)), key=lambda n: n.seq)
    return attrs.evolve(state, calls_not_made=tuple(entries))


# -- the readable account of each ruling (state document extension) ------------

def call_rulings(state: TableState) -> list[dict[str, Any]]:
    """Every call fact the Laws did more with than enter it, with its Law:
    the ``call_rulings`` key of the state document (docs/EXTENSIONS.md)."""
    return [{"seq": r.seq, "seat": str(r.seat), "call": str(r.call),
             "first_call": str(r.first_call) if r.first_call is not None else None,
             "replaces": r.replaces, "ruling": r.ruling, "law": r.law, "detail": r.detail}
            for r in state.calls if r.ruling not in ("made", "not_made")]


option_effects(OPTION_EFFECTS, __name__)
