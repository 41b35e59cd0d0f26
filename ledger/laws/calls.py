"""Calls, and what becomes of a changed call: FFB art. 57.3-57.5, Laws 21B,
25A, 25B, 26 and 37 (both editions): one family, its reading of the facts and
its rules.

The reading (the fold): each call-related fact leaves a :class:`CallRecord`
saying how the Laws read it; the rules below derive the rectifications from
those records. Judgment fields are read as resolved by the director's findings
(``projections.resolve``); a judgment nobody has given yet leaves the record
``undecided`` and the auction as it was, and the engine asks the director.
The families of Laws 27 to 39 (``ledger.laws.inadmissible``, ``rotation``,
``insufficient``) supply their readings of a ``CallPlaced`` at the interception
points of ``projections.auction.CALL_POINTS`` (the reading of calls' core, which
this family fills too: Law 37's ``obliged``, Law 25's ``change_of_call``); this
module imports none of them.

| | 1997 | 2017 |
|---|---|---|
| 25A | unintended and corrected without pause for thought | unintended, until partner calls |
| 25B1, LHO called over the first call | the substitute stands, LHO may withdraw his call | not accepted (25B2) |
| 25B rejected | offender keeps the first call (partner passes once) or makes another call (side capped at average minus) | the first call stands |
| 26 | declarer may require or forbid the suit of a withdrawn suit bid; forbid any one suit otherwise | declarer may forbid one suit not named by the offender in the legal auction |
| 37 | call by a player who must pass: cancelled, Pass substituted, both of his side pass to the end | the same (37B) |

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
* Law 27 (read by ``ledger.laws.insufficient``): ``insufficient``,
  ``ib_accepted``, ``ib_refused``, ``ib_b3_pending``, ``ib_b1a``, ``ib_b1b``,
  ``ib_b2``, ``ib_b3`` on the insufficient bid; ``ib_correction`` and
  ``ib_cancelled_double`` on the call that corrects it.

``calls_not_made`` is derived from the records after each step
(:func:`refreshed`): every call fact that is not (or no longer) in the
auction, with the reason and the Law.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import attrs

from ledger.bridge import PASS, SUITS, Call, Seat, Suit
from ledger.events import (CallCancelled, CallPlaced, CallPulled, CallReplaced, ExplanationCorrected,
                           IrregularityRecorded, LeadRestriction, OptionsOffered, PartnerMustPass, ScoreCapped)
from ledger.laws.base import Citations, Prescription, Ruled, at_call, cited, handles, irregular, label, review
from projections.auction import (CALL_INTERCEPTORS, CALL_MADE, CALL_NOT_RELEASED, IB_OPEN, in_turn, index_of,
                                 pending_substitution, record_at, record_call, refreshed, refreshing, ruled,
                                 set_ruling, unprocessed, why_illegal, with_auction)
from projections.fold import Step
from projections.state import (AUCTION, ENDED, OPENING_LEAD, PLAY, AuctionCall, CallRecord, Choice,
                               TableState, replace)
from projections.vocab import CallRuling, Edition, IrregularityKind

LAWS = ("17", "18", "19", "20", "21", "25", "26", "27", "37", "40", "57.3", "57.4")
"""The Laws this family rules on (``ledger.laws.find_law``; Law 27 is the insufficient bids' first)."""

CITATIONS: Citations = {
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
"""The Law each reading rests on, by edition (cited through ``ledger.laws.base.cited``)."""


def law(state: TableState, key: str) -> str:
    return cited(state, CITATIONS, key)


# -- obligations to pass (1997 25B2b1, Law 37) ---------------------------------

def _lapse_lho_option(state: TableState, offender: Seat) -> TableState:
    """The LHO called while his 25B1 option was open: his call (or the
    director's finding about it) decides; the option is no longer pending."""
    pending = tuple(o for o in state.pending
                    if not (o.law.endswith(":25B1") and o.to is offender.lho))
    return replace(state, pending=pending)


# -- CallPlaced ---------------------------------------------------------------

@at_call("obliged")
def obliged_to_pass(state: TableState, seq: int, seat: Seat, call: Call) -> TableState:
    """Law 37: a call by a player who must pass: cancelled, Pass entered in its place."""
    obliged = CallRecord(seq, seat, call, CallRuling.OBLIGED_TO_PASS, law=law(state, "obliged_to_pass"),
                         detail=f"{seat} had to pass: {call} cancelled, Pass substituted")
    entry = AuctionCall(seq, seat, PASS, law(state, "obliged_to_pass"))
    return with_auction(state, state.auction + (entry,), calls=state.calls + (obliged,))


@handles(CallPlaced)
def on_call_placed(state: TableState, step: Step[CallPlaced]) -> TableState:
    seq, ev = step.seq, step.event
    return refreshed(state, _call_placed(state, seq, ev))


def _call_placed(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    seat, call = ev.seat, ev.call
    if ev.intentional is False:
        return record_call(state, CallRecord(seq, seat, call, CallRuling.NOT_MADE, law=CALL_MADE, detail="accidental"))
    for reader in (CALL_INTERCEPTORS.get("inadmissible"), CALL_INTERCEPTORS.get("rotation")):  # 36, 39; 28 to 34
        handled = reader(state, seq, ev) if reader is not None else None
        if handled is not None:
            return handled
    if state.phase != AUCTION:
        return unprocessed(state, seq, ev.TYPE, seat, f"{call} by {seat} after the auction closed")
    pending = CALL_INTERCEPTORS.get("pending")  # a call while an option is open (27A1, 27B)
    if pending is not None:
        handled = pending(state, seq, ev)
        if handled is not None:
            return handled
    waiting = pending_substitution(state)
    if waiting is not None and seat is waiting.seat.lho and seat is state.turn:
        return _lho_called_over_substitution(state, seq, ev, waiting)
    return in_turn(state, seq, seat, call, ev.TYPE)


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
    if state.edition == Edition.E2017:
        if over is None:
            return record_call(state, CallRecord(
                seq, seat, call, CallRuling.UNDECIDED, law=option_law,
                detail=f"did {seat} call intentionally over {waiting.seat}'s substituted {waiting.call}?"))
        if over:
            state = accept_substitute(state, waiting, option_law)
        else:
            state = reject_substitute_2017(state, waiting)
        return in_turn(state, seq, seat, call, ev.TYPE)
    state = accept_substitute(state, waiting, option_law)
    if over is True:
        return in_turn(state, seq, seat, call, ev.TYPE)
    illegal = why_illegal(state.auction, seat, call)
    if over is False:
        if illegal is not None:
            return record_call(state, CallRecord(
                seq, seat, call, CallRuling.WITHDRAWN, law=option_law,
                detail=f"made over {waiting.seat}'s first call {waiting.first_call}: withdrawn, not an "
                       f"insufficient bid; {seat} calls again"))
        return in_turn(state, seq, seat, call, ev.TYPE, CallRuling.MADE_OVER_FIRST_CALL, option_law,
                        f"made over {waiting.seat}'s first call {waiting.first_call}: {seat} may withdraw it")
    if illegal is not None:
        return record_call(state, CallRecord(
            seq, seat, call, CallRuling.UNDECIDED, law=option_law,
            detail=f"did {seat} intend his call over {waiting.seat}'s first call {waiting.first_call}?"))
    return in_turn(state, seq, seat, call, ev.TYPE, CallRuling.MADE_WHILE_OPTION_OPEN, option_law,
                    f"{seat} called while his 25B1 option was open")


# -- CallPulled ---------------------------------------------------------------

@handles(CallPulled)
def on_call_pulled(state: TableState, step: Step[CallPulled]) -> TableState:
    seq, ev = step.seq, step.event
    rec = CallRecord(seq, ev.seat, ev.call, CallRuling.NOT_MADE, law=CALL_NOT_RELEASED,
                     detail="not released on the table")
    return refreshed(state, record_call(state, rec))


@handles(ExplanationCorrected)
def on_explanation_corrected(state: TableState, step: Step[ExplanationCorrected]) -> TableState:
    """Kept for 21B (a call changed after a correction) and for the engine
    (the misinformation it reveals)."""
    seq, ev = step.seq, step.event
    return record_call(state, CallRecord(seq, ev.by, PASS, CallRuling.EXPLANATION_CORRECTED,
                                         law=law(state, "mi_change")))


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
    return any(r.ruling == CallRuling.EXPLANATION_CORRECTED and r.seq > seq for r in state.calls)


def _illegal_call_since(state: TableState, seat: Seat, seq: int) -> bool:
    """Has ``seat`` made, after ``seq``, a call the fold could not enter (Laws 27-39)?"""
    return any(i.kind == IrregularityKind.UNPROCESSED and i.type == "CallPlaced" and i.offender == str(seat)
               and i.seq > seq for i in state.irregularities) or any(
        r.seat is seat and r.seq > seq and r.ruling in IB_OPEN for r in state.calls)  # Law 27 not complete


@handles(CallReplaced)
def on_call_replaced(state: TableState, step: Step[CallReplaced]) -> TableState:
    seq, ev = step.seq, step.event
    return refreshed(state, _call_replaced(state, seq, ev))


@at_call("change_of_call")
def call_replaced(state: TableState, seq: int, ev: CallReplaced) -> TableState:
    """A ``CallReplaced`` as Law 25 reads it (also a ``CallPlaced`` that changes the caller's last call)."""
    return _call_replaced(state, seq, ev)


def _call_replaced(state: TableState, seq: int, ev: CallReplaced) -> TableState:
    seat, call = ev.seat, ev.call
    withdrawn = withdrawn_awaiting(state, seat)
    if withdrawn is not None:
        return _call_in_place_of_withdrawn(state, seq, ev, withdrawn)
    found = _last_call_of(state, seat)
    in_period = state.phase in (AUCTION, OPENING_LEAD) and not state.tricks and state.face_down_lead is None
    if found is None or not in_period:
        return unprocessed(state, seq, ev.TYPE, seat,
                            f"{seat} replaces a call by {call}, but has no call in the auction to replace"
                            if found is None else f"{seat} replaces a call by {call} after the auction period")
    position, first = found
    if _illegal_call_since(state, seat, first.seq):
        return unprocessed(state, seq, ev.TYPE, seat,
                            f"{seat} replaces by {call} a call that is not in the auction (Laws 27-39)")

    def rec(ruling: CallRuling, law_: str | None, detail: str = "") -> CallRecord:
        return CallRecord(seq, seat, call, ruling, replaces=first.seq, position=position,
                          first_call=first.call, law=law_, detail=detail)

    partner_called = _called_since(state, seat.partner, first.seq)
    own = record_at(state, first.seq)
    if own is not None and own.ruling == CallRuling.MADE_WHILE_OPTION_OPEN and not partner_called:
        return record_call(state, rec(CallRuling.UNDECIDED, own.law, f"did {seat} intend his {first.call} over "
                                  f"{seat.rho}'s first call? (then he may withdraw it)"))
    permitted = _permitted_change(state, seat, first)
    if permitted is not None:
        return _replace(state, rec(*permitted), ev.TYPE)
    if ev.mi_influenced:
        if partner_called:
            return record_call(state, rec(CallRuling.TOO_LATE, law(state, "mi_too_late"),
                                      "changed after the correction, but partner has called since"))
        return _replace(state, rec(CallRuling.MI_CHANGE, law(state, "mi_change")), ev.TYPE)
    if partner_called:
        return record_call(state, rec(CallRuling.TOO_LATE, law(state, "unintended_too_late"),
                                  "changed after partner called: the first call stands"))
    if ev.mi_influenced is None and _correction_since(state, first.seq):
        return record_call(state, rec(CallRuling.UNDECIDED, law(state, "mi_change"),
                                  "could the call have been influenced by the misinformation?"
                                  if state.edition == Edition.E2017 else
                                  "was the call probably made as a result of the misinformation?"))
    if ev.unintended is None:
        return record_call(state, rec(CallRuling.UNDECIDED, law(state, "unintended"), "was the first call unintended?"))
    if ev.unintended and state.edition == Edition.E1997 and ev.without_pause is None:
        return record_call(state, rec(CallRuling.UNDECIDED, law(state, "unintended"),
                                  "was the call corrected without pause for thought?"))
    if ev.unintended and (state.edition == Edition.E2017 or ev.without_pause):
        return _replace(state, rec(CallRuling.UNINTENDED_CORRECTED, law(state, "unintended")), ev.TYPE)
    # A change of mind (25B).
    if _called_since(state, seat.lho, first.seq):
        # 1997: 25B runs only until LHO calls; 2017: LHO did not call over the substitute.
        return record_call(state, rec(CallRuling.LHO_CALLED, law(state, "lho_had_called"),
                                  "LHO had called: the substituted call is cancelled, the first call stands"))
    return record_call(state, rec(CallRuling.CHANGE_OF_MIND, law(state, "lho_option"), "awaiting the LHO's option"))


def withdrawn_awaiting(state: TableState, seat: Seat) -> CallRecord | None:
    """The call of ``seat`` that a permitted change left illegal and withdrew (1997 25B1, 2017 25A6,
    21B2), when he has not called since and it is his turn: he calls again."""
    if state.phase != AUCTION or seat is not state.turn:
        return None
    last = _last_call_of(state, seat)
    since = last[1].seq if last is not None else 0
    mine = [r for r in state.calls if r.seat is seat and r.seq > since
            and r.ruling not in (CallRuling.EXPLANATION_CORRECTED, CallRuling.NOT_MADE)]
    if not mine or mine[-1].ruling != CallRuling.WITHDRAWN:
        return None
    return mine[-1]


def _call_in_place_of_withdrawn(state: TableState, seq: int, ev: CallReplaced,
                                withdrawn: CallRecord) -> TableState:
    """D2 (issue 11): the change a player whose call was withdrawn logs as ``CallReplaced`` (spec
    section 3) is his call at his turn, read like any call there (Law 37, Law 27...)."""
    seat, call = ev.seat, ev.call
    law_ = withdrawn.law or CALL_MADE
    before = len(state.calls)
    state = in_turn(state, seq, seat, call, ev.TYPE, CallRuling.REPLACES_WITHDRAWN, law_,
                    f"{seat} calls again in place of his withdrawn {withdrawn.call}")
    calls = tuple(attrs.evolve(r, replaces=withdrawn.seq, first_call=withdrawn.call)
                  if i >= before and r.seq == seq and r.ruling == CallRuling.REPLACES_WITHDRAWN else r
                  for i, r in enumerate(state.calls))
    return replace(state, calls=calls)


_CHANGED_IN_PLACE = frozenset({CallRuling.UNINTENDED_CORRECTED, CallRuling.MI_CHANGE})
"""A change under 25A or 21B1 that took the first call's place (its LHO may change a call made over it)."""


def _permitted_change(state: TableState, seat: Seat, mine: AuctionCall) -> tuple[CallRuling, str, str] | None:
    """(ruling, law, detail) when ``seat`` may change ``mine`` because of what
    happened to his RHO's call: after a change under 25A (2017 25A6; 1997 25A,
    the ledger's reading) or 21B1 (21B2), a call he made over the first call;
    1997 25B1, a call he made over the first call while the LHO option was open."""
    if _called_since(state, seat.partner, mine.seq):
        return None
    own = record_at(state, mine.seq)
    if own is not None and own.ruling == CallRuling.MADE_OVER_FIRST_CALL:
        return CallRuling.PERMITTED_CHANGE, own.law or law(state, "lho_option"), "his call was made over the first call"
    for r in state.calls:
        if r.seat is not seat.rho or r.ruling not in _CHANGED_IN_PLACE or r.replaces is None:
            continue
        if r.replaces < mine.seq < r.seq:
            key = "mi_lho" if r.ruling == CallRuling.MI_CHANGE else "unintended_lho"
            return CallRuling.PERMITTED_CHANGE, law(state, key), f"made over {r.seat}'s {r.first_call}, since changed"
    return None


def _replace(state: TableState, rec: CallRecord, type_: str) -> TableState:
    """``rec.call`` takes the place of the call at ``rec.replaces``, if legal there."""
    index = index_of(state, rec.replaces)
    assert index is not None
    reason = why_illegal(state.auction[:index], rec.seat, rec.call)
    if reason is not None:
        state = record_call(state, attrs.evolve(rec, ruling=CallRuling.IRREGULAR, detail=reason))
        return unprocessed(state, rec.seq, type_, rec.seat, f"{rec.call} replaces {rec.first_call}: {reason}")
    lho_law = {CallRuling.UNINTENDED_CORRECTED: law(state, "unintended_lho"),
               CallRuling.MI_CHANGE: law(state, "mi_lho")}.get(rec.ruling, rec.law)
    return _put(state, rec.replaces, AuctionCall(rec.seq, rec.seat, rec.call, rec.law or CALL_MADE), lho_law,
                state.calls + (rec,))


def _put(state: TableState, old_seq: int | None, entry: AuctionCall, law_: str | None,
         calls: tuple[CallRecord, ...]) -> TableState:
    """Replace the auction entry of seq ``old_seq`` by ``entry``, the records being ``calls``; a
    later call left illegal by the change is withdrawn (its maker calls again). One copy of the state."""
    index = index_of(state, old_seq)
    assert index is not None
    auction = state.auction[:index] + (entry,)
    later = state.auction[index + 1:]
    stranded = False
    for a in later:
        if stranded or why_illegal(auction, a.seat, a.call) is not None:
            calls = ruled(calls, a.seq, CallRuling.WITHDRAWN, law_,
                          f"made over {entry.seat}'s earlier call and left illegal by the change: "
                          f"withdrawn, {a.seat} calls again")
            stranded = True
            continue
        auction += (a,)
    return with_auction(state, auction, calls=calls)


# -- Law 27's vocabulary (the family is ledger.laws.insufficient) -----------------------

# -- the readable account of each ruling (state document extension) ------------

def call_rulings(state: TableState) -> list[dict[str, Any]]:
    """Every call fact the Laws did more with than enter it, with its Law:
    the ``call_rulings`` key of the state document (docs/EXTENSIONS.md)."""
    return [{"seq": r.seq, "seat": str(r.seat), "call": str(r.call),
             "first_call": str(r.first_call) if r.first_call is not None else None,
             "replaces": r.replaces, "ruling": r.ruling, "law": r.law, "detail": r.detail}
            for r in state.calls if r.ruling not in (CallRuling.MADE, CallRuling.NOT_MADE)]


# -- option effects ----------------------------------------------------------------------

def accept_substitute(state: TableState, rec: CallRecord, law_: str) -> TableState:
    calls = ruled(state.calls, rec.seq, CallRuling.SUBSTITUTE_ACCEPTED, law_)
    return _put(state, rec.replaces, AuctionCall(rec.seq, rec.seat, rec.call, law_), law_, calls)


def reject_substitute_2017(state: TableState, rec: CallRecord) -> TableState:
    return set_ruling(state, rec.seq, CallRuling.SUBSTITUTE_CANCELLED, law(state, "not_accepted"))


def _on_accept(state: TableState, choice: Choice) -> TableState:
    rec = pending_substitution(state)
    return accept_substitute(state, rec, choice.law) if rec else state


def _on_reject(state: TableState, choice: Choice) -> TableState:
    rec = pending_substitution(state)
    if rec is None:
        return state
    if state.edition == Edition.E2017:
        return reject_substitute_2017(state, rec)
    return set_ruling(state, rec.seq, CallRuling.SUBSTITUTE_REJECTED, law(state, "not_accepted"))


def _on_keep_first(state: TableState, choice: Choice) -> TableState:
    rec = _rejected_record(state)
    return set_ruling(state, rec.seq, CallRuling.FIRST_CALL_KEPT, state.cite("25B2b1")) if rec else state


def _on_other_call(state: TableState, choice: Choice) -> TableState:
    rec = _rejected_record(state)
    if rec is None:
        return state
    calls = ruled(state.calls, rec.seq, CallRuling.OTHER_CALL, state.cite("25B2b2"))
    # The first call is withdrawn: the offender calls again at its place.
    index = index_of(state, rec.replaces)
    if index is None:
        return replace(state, calls=calls)
    return with_auction(state, state.auction[:index] + state.auction[index + 1:], calls=calls)


def _rejected_record(state: TableState) -> CallRecord | None:
    return next((r for r in reversed(state.calls) if r.ruling == CallRuling.SUBSTITUTE_REJECTED), None)


OPTION_EFFECTS = {
    "25B1": refreshing(lambda state, choice: (_on_accept if choice.option == "accept_substitute"
                                           else _on_reject)(state, choice)),
    "25B2b": refreshing(lambda state, choice: (_on_keep_first if choice.option == "keep_first_call"
                                            else _on_other_call)(state, choice)),
}


# -- the rules --------------------------------------------------------------------------

_FROM_25B = frozenset({CallRuling.CHANGE_OF_MIND, CallRuling.SUBSTITUTE_ACCEPTED, CallRuling.SUBSTITUTE_REJECTED,
                       CallRuling.SUBSTITUTE_CANCELLED, CallRuling.FIRST_CALL_KEPT, CallRuling.OTHER_CALL})
"""The rulings of a change of mind (25B) and of the LHO's option on it."""
_REJECTED_1997 = frozenset({CallRuling.SUBSTITUTE_REJECTED, CallRuling.FIRST_CALL_KEPT, CallRuling.OTHER_CALL})
"""1997 25B2b: the substitute not accepted, the offender's choice pending or made."""

RULES_BY_RULING: dict[CallRuling, Callable[[Any, CallRecord], list[Prescription]]] = {}
"""What other families prescribe for their rulings on a call record (``rule(state, record)``, by
ruling: Law 27's, ``ledger.laws.insufficient``): :func:`change_of_call` consults them record by
record, so the rectifications come in the order of the facts whichever family rules on them.
Their ``RECORD_RULES``, registered by the composition root (:func:`supply_record_rules`)."""


def supply_record_rules(rules: Mapping[CallRuling, Callable[[Any, CallRecord], list[Prescription]]], owner: str) -> None:
    """Register a family's rules on its rulings of a call record (keyed by ``CallRuling`` member; a
    key that is not one fails, ``ValueError``); a second rule for a ruling fails."""
    for ruling, rule in rules.items():
        if ruling in RULES_BY_RULING:
            raise RuntimeError(f"the rule on a {ruling} call record supplied twice (by {owner})")
        RULES_BY_RULING[CallRuling(ruling)] = rule


def _law(rec: CallRecord) -> str:
    """The Law of a classified change of call (the projection cites one on every such record)."""
    assert rec.law is not None  # narrowing: too_late and undecided records carry their Law
    return rec.law


def change_of_call(state: TableState) -> list[Prescription]:
    """Rectifications for every change of call, by its classification."""
    out: list[Prescription] = []
    for rec in state.calls:
        ruling = rec.ruling
        if ruling == CallRuling.NOT_MADE and rec.law == CALL_NOT_RELEASED:
            partner = rec.seat.partner
            out.append(review(f"FFB 57.4 {rec.seat} took {rec.call} from the box without releasing it: "
                               f"unauthorized information for {partner} (Law 16); adjusted score if {partner} "
                               "chose an action it could have suggested", rec, rec.law))
        elif ruling == CallRuling.EXPLANATION_CORRECTED:
            misinformation = IrregularityRecorded(kind=IrregularityKind.MISINFORMATION, offender=str(rec.seat.side),
                                                  about=rec.seq)
            out.append(Prescription(misinformation, (rec.seq,), rec.law))
        elif ruling == CallRuling.UNINTENDED_CORRECTED:
            out.append(irregular(IrregularityKind.UNINTENDED_CALL_CORRECTED, rec, rec.law))
        elif ruling == CallRuling.TOO_LATE and _law(rec).endswith("21B3"):
            # Not an irregularity of the player misinformed: he asks for redress.
            redress = ("the director may award an adjusted score (Law 40C)" if state.edition == Edition.E1997 else
                       "adjusted score if the offending side gained an advantage")
            out.append(review(f"21B3 too late for {rec.seat} to change {rec.first_call} after the correction "
                               f"of misinformation (partner has called): {redress}", rec, rec.law))
        elif ruling == CallRuling.TOO_LATE:
            out.append(irregular(IrregularityKind.CHANGE_OF_CALL, rec, rec.law))
            out.append(review(f"{label(_law(rec))} change of call after partner called: the first call stands; "
                               "rule on the irregular call the attempt constitutes", rec, rec.law))
        elif ruling == CallRuling.UNDECIDED:
            out.append(review(f"{label(_law(rec))} {rec.detail}", rec, rec.law))
        elif ruling == CallRuling.OBLIGED_TO_PASS:
            out.extend(_law_37(state, rec))
        elif ruling == CallRuling.LHO_CALLED:
            out.append(irregular(IrregularityKind.CHANGE_OF_CALL, rec, state.cite("25B")))
            out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law))
        elif ruling in _FROM_25B:
            out.extend(_law_25b(state, rec))
        else:
            rule = RULES_BY_RULING.get(ruling)
            if rule is not None:
                out.extend(rule(state, rec))
    return out


def _law_25b(state: TableState, rec: CallRecord) -> list[Prescription]:
    cite = state.cite
    out = [irregular(IrregularityKind.CHANGE_OF_CALL, rec, cite("25B")),
           Prescription(OptionsOffered(to=rec.seat.lho, options=("accept_substitute", "reject_substitute"),
                                       law=cite("25B1")), (rec.seq,), cite("25B1"))]
    if rec.ruling == CallRuling.SUBSTITUTE_CANCELLED:  # 2017: not accepted, the first call stands
        out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), cite("25B2")))
    if rec.ruling in _REJECTED_1997:  # 1997 25B2b
        out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), cite("25B2")))
        out.append(Prescription(OptionsOffered(to=rec.seat, options=("keep_first_call", "other_call"),
                                               law=cite("25B2b")), (rec.seq,), cite("25B2b")))
    if rec.ruling == CallRuling.FIRST_CALL_KEPT:
        out.append(Prescription(PartnerMustPass(seat=rec.seat.partner, until="next_turn"), (rec.seq,),
                                cite("25B2b1")))
    if rec.ruling == CallRuling.OTHER_CALL:
        out.append(Prescription(ScoreCapped(side=rec.seat.side, max="A-"), (rec.seq,), cite("25B2b2")))
    return out


def _law_37(state: TableState, rec: CallRecord) -> list[Prescription]:
    """A bid, double or redouble by a player who must pass: cancelled, Pass
    substituted (the projection did), both members of his side pass for the
    rest of the auction; Law 26 may apply to the cancelled call (below)."""
    out = [irregular(IrregularityKind.INADMISSIBLE_CALL, rec, rec.law),
           Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law)]
    for seat in (rec.seat, rec.seat.partner):
        out.append(Prescription(PartnerMustPass(seat=seat, until="end_of_auction"), (rec.seq,), rec.law))
    return out


# -- Law 26: lead restrictions after a withdrawn call ------------------------

_WITHDRAWN_27 = frozenset({CallRuling.IB_B2, CallRuling.IB_B3, CallRuling.IB_CANCELLED_DOUBLE})
"""Law 27's rulings whose call Law 26 reaches: the insufficient bid (27B2, 27B3), a cancelled double."""


def withdrawn_calls(state: TableState) -> list[tuple[CallRecord, Call]]:
    """(record, call withdrawn) for each withdrawn call Law 26 reaches: a call
    withdrawn for which the offender chose a different final call at that turn.

    2017: the first call when the substitute was accepted (25B1), the
    substitute when it was not (25B2), a call cancelled under 37B. 1997: the
    cancelled substitute when the first call is kept (25B2b1), the first call
    and the substitute when another call is made (25B2b2), each unless it is
    the final call of that turn, a call cancelled under Law 37. (1997 25B1 is
    "without penalty"; 25A and 21B changes carry no lead restriction.)"""
    out: list[tuple[CallRecord, Call]] = []
    for rec in state.calls:
        if rec.ruling == CallRuling.OBLIGED_TO_PASS:
            out.append((rec, rec.call))
        elif rec.ruling in _WITHDRAWN_27:
            out.append((rec, rec.call))  # 27B2, 27B3: the insufficient bid, a cancelled double
        elif state.edition == Edition.E2017:
            if rec.ruling == CallRuling.SUBSTITUTE_ACCEPTED:
                assert rec.first_call is not None  # narrowing: an accepted substitute replaced a first call
                out.append((rec, rec.first_call))
            elif rec.ruling in (CallRuling.SUBSTITUTE_CANCELLED, CallRuling.LHO_CALLED):
                out.append((rec, rec.call))
        elif rec.ruling == CallRuling.FIRST_CALL_KEPT:
            out.append((rec, rec.call))
        elif rec.ruling == CallRuling.OTHER_CALL:
            final = _final_call_after(state, rec)
            out.extend((rec, c) for c in (rec.first_call, rec.call) if c is not None and c != final)
    for family in sorted(WITHDRAWN_READERS):  # the families of Laws 28 to 39, by module name
        out.extend(WITHDRAWN_READERS[family](state))
    return out


WITHDRAWN_READERS: dict[str, Callable[..., list[tuple[CallRecord, Call]]]] = {}
"""Other families' withdrawn calls Law 26 reaches (``reader(state)``), by family module (their
``WITHDRAWN_CALLS``, registered by the composition root: :func:`supply_withdrawn`)."""


def supply_withdrawn(reader: Callable[..., list[tuple[CallRecord, Call]]], owner: str) -> None:
    if owner in WITHDRAWN_READERS:
        raise RuntimeError(f"withdrawn calls of {owner} supplied twice")
    WITHDRAWN_READERS[owner] = reader


def _final_call_after(state: TableState, rec: CallRecord) -> Call | None:
    """The offender's call at the turn of a 1997 25B2b2 choice."""
    choice = next((c for c in state.choices if c.option == "other_call" and c.seat is rec.seat), None)
    after = choice.seq if choice is not None else rec.seq
    return next((a.call for a in state.auction if a.seat is rec.seat and a.seq > after), None)


def _named_by(state: TableState, seat: Seat) -> set[Suit]:
    """Suits the player specified in the legal auction."""
    return {a.call.strain.trump for a in state.auction
            if a.seat is seat and a.call.is_bid and a.call.strain is not None and a.call.strain.trump is not None}


def _suit_of(call: Call) -> Suit | None:
    return call.strain.trump if call.is_bid and call.strain is not None else None


PASS_LIKE = Call.parse("Pass")
"""What an artificial withdrawn bid counts as for Law 26: a call not related to a suit (26B)."""


def law26_terms(state: TableState, offender: Seat) -> dict[str, frozenset[Suit]] | None:
    """The options Law 26 gives declarer for ``offender``'s withdrawn calls,
    each with the suits it may name (None: no lead restriction)."""
    withdrawn = [(rec, call) for rec, call in withdrawn_calls(state) if rec.seat is offender]
    if not withdrawn:
        return None
    # an artificial call (29C, the ``artificial`` judgment) is not related solely to its suit: 26B
    calls = [PASS_LIKE if rec.artificial and call.is_bid else call for rec, call in withdrawn]
    named = _named_by(state, offender)
    if state.edition == Edition.E2017:  # 26B: any one suit not specified in the legal auction by the offender
        allowed = frozenset(s for s in SUITS if s not in named)
        return {"forbid_suit": allowed, "no_restriction": frozenset()} if allowed else None
    unnamed = frozenset(s for s in (_suit_of(c) for c in calls) if s is not None and s not in named)
    other = any(_suit_of(c) is None for c in calls)  # 26B: not related solely to a suit
    if not unnamed and not other:
        return None  # 26A1: each suit was specified in the legal auction by the offender
    terms: dict[str, frozenset[Suit]] = {}
    if unnamed:  # 26A2: require or forbid one such suit
        terms["require_suit"] = unnamed
    terms["forbid_suit"] = frozenset(SUITS) if other else unnamed
    terms["no_restriction"] = frozenset()
    return terms


def _first_lead(state: TableState, seat: Seat) -> int | None:
    """When ``seat``'s first turn to lead came: 0 for the opening lead, else
    the number of the first trick he leads; None if it has not come yet."""
    contract = state.contract
    if contract is None:
        return None
    if contract.declarer.lho is seat:
        return 0
    led = next((t.number for t in state.tricks if t.leader is seat), None)
    if led is not None:
        return led
    trick = state.current_trick
    if state.phase == PLAY and trick is not None and trick.complete and trick.winner is seat:
        return trick.number + 1
    return None


def law26_offender(state: TableState) -> Seat | None:
    """The defender whose withdrawn call Law 26 now reaches: the one whose
    partner's first turn to lead came first. (The ledger rectifies one
    offender per board; a second defender's withdrawn call is the director's.)"""
    contract = state.contract
    if contract is None or state.phase not in (OPENING_LEAD, PLAY, ENDED):
        return None
    offenders = {rec.seat for rec, _ in withdrawn_calls(state) if rec.seat.side is not contract.side}
    reached = sorted((lead, seat.index, seat) for seat in offenders
                     if (lead := _first_lead(state, seat.partner)) is not None and law26_terms(state, seat))
    return reached[0][2] if reached else None


def law26_suits(state: TableState, option: str) -> frozenset[Suit]:
    """The suits declarer may name with ``option`` under the Law 26 offer now pending."""
    offender = law26_offender(state)
    terms = law26_terms(state, offender) if offender is not None else None
    return (terms or {}).get(option, frozenset())


def lead_restrictions(state: TableState) -> list[Prescription]:
    offender = law26_offender(state)
    if offender is None:
        return []
    terms = law26_terms(state, offender)
    assert terms is not None and state.contract is not None
    cite = state.cite
    first = next(rec for rec, _ in withdrawn_calls(state) if rec.seat is offender)
    out = [Prescription(OptionsOffered(to=state.contract.declarer, options=tuple(terms), law=cite("26")),
                        (first.seq,), cite("26"))]
    for choice in state.choices:
        if not choice.law.endswith(":26") or choice.option == "no_restriction" or choice.suit is None:
            continue
        mode, lasts = ("must", "next_lead") if choice.option == "require_suit" else ("must_not", "while_on_lead")
        out.append(Prescription(LeadRestriction(seat=offender.partner, suit=choice.suit, mode=mode, lasts=lasts),
                                (choice.offer, choice.seq), choice.law))
    return out


def lead_breaches(state: TableState) -> list[Prescription]:
    """A lead against a restriction when able to comply: kind ``revoke`` (61A), no transfer (64B3)."""
    return [Prescription(IrregularityRecorded(kind=IrregularityKind.REVOKE, offender=str(b.seat), about=b.seq),
                         (b.seq,), state.cite("61A")) for b in state.breaches]


# -- words ------------------------------------------------------------------------------

RULINGS: dict[CallRuling, Ruled] = {
    CallRuling.EXPLANATION_CORRECTED: Ruled(
        "corrected an explanation: misinformation (a call made since may be changed "
        "until the caller's partner calls)",
        {"1997": "21B1", "2017": "21B1a"}),
    CallRuling.UNINTENDED_CORRECTED: Ruled(
        "unintended {first} replaced by {call}: {call} stands, no rectification",
        {"1997": "25A", "2017": "25A1"}),
    CallRuling.MI_CHANGE: Ruled(
        "{first} changed to {call} after the correction of misinformation: no rectification",
        {"1997": "21B1", "2017": "21B1a"}),
    CallRuling.PERMITTED_CHANGE: Ruled(
        "{first} changed to {call} without rectification ({detail})",
        {"1997": "21B2", "2017": "21B2"}),
    CallRuling.TOO_LATE: Ruled(
        "change of {first} to {call} refused: partner has called since, {first} stands; "
        "the director rules",
        {"1997": "25A", "2017": "25A4"}),
    CallRuling.UNDECIDED: Ruled("{call} waits for the director: {detail}", {"1997": "85A", "2017": "85A"}),
    CallRuling.CHANGE_OF_MIND: Ruled(
        "{first} replaced by {call}, a change of mind: {lho} may accept {call} or reject it",
        {"1997": "25B1", "2017": "25B1"}),
    CallRuling.SUBSTITUTE_ACCEPTED: Ruled("{call} accepted in place of {first}", {"1997": "25B1", "2017": "25B1"}),
    CallRuling.SUBSTITUTE_CANCELLED: Ruled("{call} not accepted: cancelled, {first} stands", {"2017": "25B2"}),
    CallRuling.LHO_CALLED: Ruled(
        "{call} cancelled, the left-hand opponent had already called: {first} stands",
        {"1997": "25B", "2017": "25B2"}),
    CallRuling.SUBSTITUTE_REJECTED: Ruled(
        "{call} not accepted: cancelled; {seat} keeps {first} or makes another call",
        {"1997": "25B2"}),
    CallRuling.FIRST_CALL_KEPT: Ruled(
        "{call} not accepted; {seat} keeps {first}, {partner} must pass at his next turn",
        {"1997": "25B2b1"}),
    CallRuling.OTHER_CALL: Ruled(
        "{call} not accepted; {seat} withdraws {first} and calls again, {side} scoring at most "
        "average minus",
        {"1997": "25B2b2"}),
    CallRuling.OBLIGED_TO_PASS: Ruled(
        "{call} by a player obliged to pass: cancelled, Pass substituted; {seat} and {partner} "
        "pass to the end of the auction",
        {"1997": "37", "2017": "37B"}),
    CallRuling.MADE_OVER_FIRST_CALL: Ruled(
        "{call} was made over the first call: it stands, {seat} may withdraw it",
        {"1997": "25B1"}),
    CallRuling.MADE_WHILE_OPTION_OPEN: Ruled(
        "{call} made while {seat}'s option was open: it stands",
        {"1997": "25B1"}),
    CallRuling.WITHDRAWN: Ruled("{call}: {detail}", {"1997": "25B1", "2017": "25A6"}),
    CallRuling.PASSED_OVER_34: Ruled(
        "{call} out of rotation, accepted, was one of three passes closing the auction: {detail} "
        "(the player who passed out of rotation is an offender, 16C)",
        {"1997": "34", "2017": "34"}),
    CallRuling.CANCELLED_34: Ruled("{call} cancelled: {detail}", {"1997": "34", "2017": "34"}),
    CallRuling.REPLACES_WITHDRAWN: Ruled(
        "{call} replaces {first}, withdrawn after the change of the call it was made over: "
        "{seat} calls again without rectification",
        {"1997": "25B1", "2017": "25A6"}),
    CallRuling.IRREGULAR: Ruled(
        "{call} in place of {first} is itself irregular: {detail}",
        {"1997": "25A", "2017": "25A1"}),
}
"""Each ruling on a call this family reads (``CallRuling``, the document's ``call_rulings``): how it
reads for people (``ledger.render``; ``made`` and ``not_made`` are not rulings shown there) and the
Law it rests on, by edition (``ledger.laws.base.cited``); an edition missing means the ruling does
not arise under it. The record carries the Law of its own case (a change too late after
misinformation is 21B3, a call withdrawn after a 21B1 change 21B2; a judgment awaited,
``undecided``, cites the Law of the question, the table the director's assessment of facts, 85A).
The other call families add theirs, in their own ``RULINGS``."""


# -- words of the other vocabularies -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.CHANGE_OF_CALL: "change of call",
    IrregularityKind.MISINFORMATION: "misinformation",
    IrregularityKind.UNINTENDED_CALL_CORRECTED: "unintended call corrected",
}
"""How the irregularities of this family's rules (``IrregularityKind``: 21B, 25) read for people."""

OPTION_WORDS: dict[str, str] = {
    "accept_substitute": "the substituted call stands",
    "reject_substitute": "the substituted call is cancelled",
    "keep_first_call": "the first call stands and partner passes at his next turn",
    "other_call": "any other legal call, the side scoring at most average minus",
    "require_suit": "require the lead of a suit",
    "forbid_suit": "forbid the lead of a suit",
    "no_restriction": "no lead restriction",
}
"""Plain words for the options of the Laws on calls (25B, 26), said after their ids (50D2 offers
the same lead restrictions)."""

UNTIL_WORDS: dict[str, str] = {"next_turn": "at the next turn to call",
                               "end_of_auction": "for the rest of the auction"}
"""How long a player must pass (``PartnerMustPass.until``), in a director's words."""
