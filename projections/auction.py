"""The auction: which calls are legal in turn (Laws 18, 19), when the auction
ends (Law 22), the contract and its declarer (Law 22, definitions), and the
reading of calls' core the call families share: a call's record, the auction it
leaves (with the phase, contract or result it implies), a call at its turn,
what did not amount to a call (``calls_not_made``), and the interception points
through which the families of Laws 25 to 39 read a ``CallPlaced``
(:data:`CALL_POINTS`, typed by :class:`CallPoints`). The fold of call facts is
``ledger.laws.calls``; this module imports no family.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, TypedDict, TypeVar

import attrs

from ledger.bridge import Call, Risk, Seat
from ledger.events import CallPlaced, CallReplaced
from projections.state import unprocessed as unprocessed  # re-exported: the families read it here
from projections.state import (AUCTION, ENDED, OPENING_LEAD, AuctionCall, CallRecord, Choice, Contract, NotMade, Result, TableState, replace, set_fresh)
from projections.vocab import CallRuling

C = TypeVar("C", bound=Callable[..., Any])



def last_bid(auction: tuple[AuctionCall, ...]) -> AuctionCall | None:
    for entry in reversed(auction):
        if entry.call.is_bid:
            return entry
    return None


def last_action(auction: tuple[AuctionCall, ...]) -> AuctionCall | None:
    """The last call other than Pass."""
    for entry in reversed(auction):
        if not entry.call.is_pass:
            return entry
    return None


def why_illegal(auction: tuple[AuctionCall, ...], seat: Seat, call: Call) -> str | None:
    """None when ``call`` by ``seat`` (in turn) is legal, else the reason."""
    if call.is_bid:
        previous = last_bid(auction)
        if previous is not None and not call.outranks(previous.call):
            return f"insufficient bid: {call} after {previous.call}"
        return None
    if call.kind == "double":
        action = last_action(auction)
        if action is None or not action.call.is_bid or action.seat.side is seat.side:
            return "inadmissible double: only the last bid, made by an opponent, may be doubled"
        return None
    if call.kind == "redouble":
        action = last_action(auction)
        if action is None or action.call.kind != "double" or action.seat.side is seat.side:
            return "inadmissible redouble: only an opponent's double may be redoubled"
        return None
    return None


def auction_closed(auction: tuple[AuctionCall, ...]) -> bool:
    """Four passes to start, or three passes after a call (Law 22A)."""
    n = len(auction)
    if n < 4:
        return False
    return all(e.call.is_pass for e in auction[-3:])


def final_contract(auction: tuple[AuctionCall, ...]) -> Contract | None:
    bid = last_bid(auction)
    if bid is None:
        return None
    risk = Risk.NONE
    for entry in auction[auction.index(bid) + 1:]:
        if entry.call.kind == "double":
            risk = Risk.X
        elif entry.call.kind == "redouble":
            risk = Risk.XX
    side = bid.seat.side
    declarer = next(e.seat for e in auction
                    if e.call.is_bid and e.call.strain is bid.call.strain and e.seat.side is side)
    assert bid.call.level is not None and bid.call.strain is not None
    return Contract(bid.call.level, bid.call.strain, risk, declarer)


CALL_MADE = "FFB:57.3"
"""The test of a call made in both editions (the 2017 Laws leave it to the RA, 18F)."""
CALL_NOT_RELEASED = "FFB:57.4"


# -- the reading of calls' core -----------------------------------------------------------

def record_call(state: TableState, rec: CallRecord) -> TableState:
    return replace(state, calls=state.calls + (rec,))


def with_auction(state: TableState, auction: tuple[AuctionCall, ...], **changes: Any) -> TableState:
    """The state with ``auction``, and the phase, contract or result it implies; ``changes``
    (the call's records: ``calls=...``) are made in the same copy of the state.

    A change allowed after the auction closed (until the end of the auction
    period: no card led yet) may reopen it."""
    if state.phase not in (AUCTION, OPENING_LEAD) or state.tricks or state.face_down_lead is not None:
        return replace(state, auction=auction, **changes)
    if not auction_closed(auction):
        return replace(state, auction=auction, phase=AUCTION, contract=None, **changes)
    skipped = _law_34(state, auction)
    if skipped is not None:
        i, entry, due = skipped
        law_ = state.cite("34")
        calls = changes.pop("calls", state.calls)
        for later in auction[i:]:
            ruling = CallRuling.PASSED_OVER_34 if later is entry else CallRuling.CANCELLED_34
            calls = ruled(calls, later.seq, ruling, law_,
                          f"{due} lost his turn to {entry.seat}'s pass out of rotation: the auction reverts "
                          f"to {due}, the passes from his turn on are cancelled")
        return with_auction(state, auction[:i], calls=calls, **changes)
    contract = final_contract(auction)
    if contract is None:
        passed_out = Result("Pass", None, "", None, 0, state.cite("77"))
        return replace(state, auction=auction, phase=ENDED, result=passed_out, contract=None, **changes)
    return replace(state, auction=auction, contract=contract, phase=OPENING_LEAD, **changes)


def _law_34(state: TableState, auction: tuple[AuctionCall, ...]) -> tuple[int, AuctionCall, Seat] | None:
    """Law 34 (2017 34, 17D3): three passes do not end the auction when one of them was an accepted
    pass out of rotation (29A) that deprived a player of his turn: the auction reverts to him and
    the passes from his missed turn on are cancelled (their records say so; the engine cancels them).
    (index, that pass, the player who lost his turn), or None."""
    start = len(auction) - 3
    for i in range(start, len(auction)):
        entry = auction[i]
        if not (entry.law or "").endswith(":29A") or not entry.call.is_pass:
            continue
        due = auction[i - 1].seat.lho if i > 0 else state.board.dealer
        if entry.seat is due:
            continue
        assert due is not None
        return i, entry, due
    return None


def index_of(state: TableState, seq: int | None) -> int | None:
    """The entry of the call fact ``seq`` (the last one: a 28A deemed pass shares the seq of the call
    that made it, and comes before it)."""
    return next((i for i in range(len(state.auction) - 1, -1, -1) if state.auction[i].seq == seq), None)


def set_ruling(state: TableState, seq: int, ruling: CallRuling, law_: str | None = None, detail: str = "") -> TableState:
    """The record at ``seq`` read anew (an option taken, a call left illegal)."""
    return replace(state, calls=ruled(state.calls, seq, ruling, law_, detail))


def ruled(calls: tuple[CallRecord, ...], seq: int, ruling: CallRuling, law_: str | None = None,
          detail: str = "") -> tuple[CallRecord, ...]:
    """``calls`` with the record at ``seq`` read anew (:func:`set_ruling` without the copy of the state)."""
    return tuple(attrs.evolve(r, ruling=ruling, law=law_ or r.law, detail=detail) if r.seq == seq else r
                 for r in calls)


def record_at(state: TableState, seq: int | None) -> CallRecord | None:
    return next((r for r in state.calls if r.seq == seq), None)


# -- obligations to pass and changes awaiting an option -----------------------

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
        if rec.ruling == CallRuling.CHANGE_OF_MIND:
            return rec
    return None


# -- the interception points ---------------------------------------------------

class CallRead(Protocol):
    """``inadmissible``, ``rotation``, ``pending``: a family's reading of a ``CallPlaced``; None: not its own."""

    def __call__(self, state: TableState, seq: int, ev: CallPlaced, /) -> TableState | None: ...


class Obliged(Protocol):
    """``obliged``: a call by a player who must pass (Law 37), in turn."""

    def __call__(self, state: TableState, seq: int, seat: Seat, call: Call, /) -> TableState: ...


class ChangeOfCall(Protocol):
    """``change_of_call``: a call read as a change of the player's last call (Law 25)."""

    def __call__(self, state: TableState, seq: int, ev: CallReplaced, /) -> TableState: ...


class InsufficientBid(Protocol):
    """``insufficient_bid``: a bid in turn that is not sufficient (``reason``); None: not ruled."""

    def __call__(self, state: TableState, seq: int, seat: Seat, call: Call, reason: str, /) -> TableState | None: ...


class CallPoints(TypedDict, total=False):
    """The call reading's interception points, each with its signature."""

    inadmissible: CallRead
    rotation: CallRead
    pending: CallRead
    insufficient_bid: InsufficientBid
    obliged: Obliged
    change_of_call: ChangeOfCall


CALL_INTERCEPTORS: CallPoints = {}
"""What the call families supply to the reading of ``CallPlaced`` (the calls module imports
none of them): ``inadmissible`` (Laws 36, 39) and ``rotation`` (28 to 34), consulted first,
``pending`` (a call while an option is open) and ``insufficient_bid``; each returns None
when it does not rule on the call."""

CALL_POINTS = tuple(CallPoints.__annotations__)

NOT_ENTERED: dict[CallRuling, Callable[[CallRecord], str]] = {}
"""Rulings of the families of Laws 27 to 39 whose call is not in the auction: the reason shown in
``calls_not_made`` (its Law is the record's); their ``NOT_ENTERED``, registered by the composition root."""


def supply_not_entered(reasons: Mapping[CallRuling, Callable[[CallRecord], str]], owner: str) -> None:
    """Register a family's reasons (keyed by ``CallRuling`` member; a key that is not one fails,
    ``ValueError``); a second reason for a ruling fails."""
    for ruling, reason in reasons.items():
        if ruling in NOT_ENTERED:
            raise RuntimeError(f"the reason a {ruling} call is not entered supplied twice (by {owner})")
        NOT_ENTERED[CallRuling(ruling)] = reason


def supply_call(point: str, fn: Callable[..., TableState | None]) -> None:
    """Register ``fn`` at ``point``; one supplier per point (the composition root, ``ledger.laws``,
    registers the families' ``ledger.laws.base.at_call`` marks through it)."""
    if point not in CALL_POINTS:
        raise RuntimeError(f"no interception point {point!r} in the reading of calls (points: {CALL_POINTS})")
    if point in CALL_INTERCEPTORS:
        raise RuntimeError(f"call interceptor {point!r} supplied twice")
    CALL_INTERCEPTORS[point] = fn  # type: ignore[literal-required]  # point checked against CALL_POINTS above


def call_interceptor(point: str) -> Callable[[C], C]:
    """Register the decorated function at ``point`` now; one supplier per point."""
    def wrap(fn: C) -> C:
        supply_call(point, fn)
        return fn
    return wrap


def in_turn(state: TableState, seq: int, seat: Seat, call: Call, type_: str,
             ruling: CallRuling = CallRuling.MADE, law_: str = CALL_MADE, detail: str = "") -> TableState:
    """A call at the seat's turn: entered, cancelled (Law 37) or left to Laws 27-39."""
    if seat is not state.turn:
        return unprocessed(state, seq, type_, seat, f"{call} by {seat} out of turn ({state.turn} to call)")
    obliged = CALL_INTERCEPTORS.get("obliged")
    if not call.is_pass and must_pass_now(state, seat) and obliged is not None:
        return obliged(state, seq, seat, call)  # Law 37 (the calls family)
    reason = why_illegal(state.auction, seat, call)
    insufficient = CALL_INTERCEPTORS.get("insufficient_bid")
    if reason is not None and call.is_bid and insufficient is not None:
        handled = insufficient(state, seq, seat, call, reason)  # 2017 Law 27 (1997: not built)
        if handled is not None:
            return handled
    if reason is not None:
        return unprocessed(state, seq, type_, seat, f"{reason} by {seat}")
    rec = CallRecord(seq, seat, call, ruling, law=law_, detail=detail)
    return with_auction(state, state.auction + (AuctionCall(seq, seat, call, CALL_MADE),), calls=state.calls + (rec,))


IB_OPEN = frozenset({CallRuling.INSUFFICIENT, CallRuling.IB_REFUSED, CallRuling.IB_B3_PENDING})
"""An insufficient bid whose rectification is not complete (Law 27: the LHO's option, or a correction due)."""
IB_SETTLED = frozenset({CallRuling.IB_ACCEPTED, CallRuling.IB_B1A, CallRuling.IB_B1B, CallRuling.IB_B2,
                        CallRuling.IB_B3})
"""An insufficient bid accepted (27A1) or corrected (27B1a, 27B1b, 27B2, 27B3)."""


# -- what did not amount to a call ---------------------------------------------

_LAW_34 = "cancelled: three passes with one out of rotation that deprived a player of his turn (Law 34)"

_NOT_MADE_READINGS: dict[CallRuling, tuple[bool, Callable[[CallRecord], str]]] = {
    # ruling: (the call not made is the first call, not this record's; why)
    CallRuling.NOT_MADE: (False, lambda r: r.detail),
    CallRuling.UNINTENDED_CORRECTED: (True, lambda r: f"unintended, replaced by {r.call}"),
    CallRuling.MI_CHANGE: (True, lambda r: f"changed to {r.call} after the correction of misinformation"),
    CallRuling.PERMITTED_CHANGE: (True, lambda r: f"changed to {r.call}: {r.detail}"),
    CallRuling.SUBSTITUTE_ACCEPTED: (True, lambda r: f"withdrawn: the substituted {r.call} was accepted"),
    CallRuling.TOO_LATE: (False, lambda r: f"change refused: partner has called since, {r.first_call} stands"),
    CallRuling.UNDECIDED: (False, lambda r: f"awaiting the director: {r.detail}"),
    CallRuling.CHANGE_OF_MIND: (False, lambda r: f"substituted for {r.first_call}, awaiting the LHO's option"),
    CallRuling.SUBSTITUTE_CANCELLED: (False, lambda r: f"substituted call cancelled: {r.first_call} stands"),
    CallRuling.LHO_CALLED: (False, lambda r: f"substituted call cancelled: {r.first_call} stands"),
    CallRuling.OBLIGED_TO_PASS: (False, lambda r: "cancelled: the player had to pass; Pass substituted"),
    CallRuling.WITHDRAWN: (False, lambda r: r.detail),
    CallRuling.PASSED_OVER_34: (False, lambda r: _LAW_34),
    CallRuling.CANCELLED_34: (False, lambda r: _LAW_34),
}
"""The rulings whose call (or first call) is not in the auction, each with its reason."""


def _not_made(rec: CallRecord) -> list[NotMade]:
    """The calls of ``rec``'s fact that are not in the auction, and why."""
    law_ = rec.law or CALL_MADE

    def entry(seq: int | None, call: Call | None, reason: str, why: str = law_) -> NotMade:
        assert seq is not None and call is not None
        return NotMade(seq, rec.seat, str(call), reason, why)

    ruling = rec.ruling
    reading = _NOT_MADE_READINGS.get(ruling)
    if reading is not None:
        first, why = reading
        return [entry(*((rec.replaces, rec.first_call) if first else (rec.seq, rec.call)), why(rec))]
    law_25b2 = f"{law_.split(':')[0]}:25B2"
    if ruling in (CallRuling.SUBSTITUTE_REJECTED, CallRuling.FIRST_CALL_KEPT):
        return [entry(rec.seq, rec.call, "substituted call not accepted: cancelled", law_25b2)]
    if ruling == CallRuling.OTHER_CALL:
        return [entry(rec.replaces, rec.first_call, "withdrawn: the offender makes another call", law_),
                entry(rec.seq, rec.call, "substituted call not accepted: cancelled", law_25b2)]
    reason = NOT_ENTERED.get(ruling)
    if reason is not None:
        return [entry(rec.seq, rec.call, reason(rec), rec.law or law_)]
    return []


def not_made(calls: tuple[CallRecord, ...]) -> tuple[NotMade, ...]:
    """``calls_not_made`` as the records ``calls`` read, in seq order (a call entered adds none)."""
    made = CallRuling.MADE
    return tuple(sorted((n for rec in calls if rec.ruling is not made for n in _not_made(rec)),
                        key=lambda n: n.seq))


def refreshed(before: TableState, after: TableState) -> TableState:
    """``after``, the state a handler built from ``before``, with ``calls_not_made`` as its records
    now read. A state the handler built in this fold step (``after is not before``: no one else
    holds it yet) has the field set in place, as the fold step's ``_stamp`` does, rather than by
    one more copy of every field; the derived values read from it are checked by identity
    (``projections.derived``), so none can outlive the change."""
    entries = not_made(after.calls)
    if entries == after.calls_not_made:
        return after
    if after is before:
        return replace(after, calls_not_made=entries)
    return set_fresh(after, calls_not_made=entries)


def refreshing(fn: Callable[[TableState, Choice], TableState]) -> Callable[[TableState, Choice], TableState]:
    """An option effect with ``calls_not_made`` read anew after it."""
    return lambda state, choice: refreshed(state, fn(state, choice))

def replace_call(state: TableState, seq: int, ev: CallReplaced) -> TableState:
    """A call read as a change of the player's last call (Law 25: the calls family's reading)."""
    return CALL_INTERCEPTORS["change_of_call"](state, seq, ev)


def pending_insufficient(state: TableState) -> CallRecord | None:
    """An insufficient bid whose rectification is not complete yet."""
    for rec in reversed(state.calls):
        if rec.ruling in IB_OPEN:
            return rec
        if rec.ruling in IB_SETTLED:
            return None
    return None
