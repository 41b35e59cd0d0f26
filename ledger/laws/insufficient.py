"""Insufficient bids, Law 27 (both editions; 1997 from LAWS-DIGEST 14.9): one family, its reading
of the facts (supplied to the reading of calls, ``ledger.laws.calls``, at its interception points
``pending`` and ``insufficient_bid``), its option effects, its rules and its words.

Source: the 2017 Laws of Duplicate Bridge, Law 27 (the public text the digest
names as its 2017 source; LAWS-DIGEST does not summarise Law 27 and the seeds
leave it out: seed 000 "des enchères insuffisantes ... font l'objet de lois
particulières"). The 1997 Law 27 is read from LAWS-DIGEST 14.9 (issue 12):
27A the LHO's option, 27B1(a) the lowest sufficient bid in the same strain
(``same_denomination`` in its 1997 meaning), 27B2 any other correction, 27B3.

Records of the insufficient bid (its ``ruling``): ``insufficient`` (27A1, the
LHO's option open), ``ib_accepted`` (27A1, entered), ``ib_refused`` (27B, the
offender must correct), ``ib_b3_pending`` (27B3, a double or redouble
attempted and cancelled, a legal call still due), and once corrected
``ib_b1a``, ``ib_b1b``, ``ib_b2``, ``ib_b3``. The correcting call's record:
``ib_correction`` (entered), ``ib_cancelled_double`` (27B3) or ``undecided``
(the director's judgment: ``same_denomination`` for 27B1a, ``comparable``
for 27B1b).

| | 1997 | 2017 |
|---|---|---|
| the LHO's option | 27A: accept it (it stands) or not | 27A1: the same |
| corrected by the lowest sufficient bid in the same strain | 27B1(a), neither call conventional: no penalty; 27B1(b) the director may adjust | 27B1a: no rectification, 27D review at the end |
| corrected by a comparable call (23A) | (no such rule: 27B2) | 27B1b: no rectification, 27D review |
| any other sufficient bid or pass | 27B2: partner passes throughout, Law 26 | 27B2: the same |
| a double or redouble attempted | 27B3: cancelled, partner passes throughout (LAWS-DIGEST 14.12, decision 6) | 27B3: the same |
| another insufficient bid in its place | no rule: the director's (decision 7) | 27B4: not ruled by the ledger |
"""

from __future__ import annotations

from typing import Callable

from ledger.bridge import Call, Seat
from ledger.events import CallCancelled, CallPlaced, OptionsOffered, PartnerMustPass
from ledger.laws.base import Citations, Prescription, Rule, Ruled, at_call, cited, irregular, label, review
from projections.auction import (in_turn, pending_insufficient, record_call, refreshing, ruled, set_ruling,
                                 unprocessed, why_illegal, with_auction)
from projections.state import AuctionCall, CallRecord, Choice, TableState, replace
from projections.vocab import CallRuling, Edition, IrregularityKind

LAWS = ("27",)
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS: Citations = {
    "accept": {"1997": "27A", "2017": "27A1"},
}
"""The Law each reading rests on, by edition (cited through ``ledger.laws.base.cited``)."""


# -- the reading of the facts ------------------------------------------------------------

def accept_law(state: TableState) -> str:
    """The LHO's option on an insufficient bid: 1997 27A, 2017 27A1."""
    return cited(state, CITATIONS, "accept")


def lowest_sufficient(state: TableState, call: Call) -> Call | None:
    """The lowest sufficient bid in the strain of ``call`` (1997 27B1(a))."""
    for level in range(1, 8):
        bid = Call.parse(f"{level}{call.strain}")
        if why_illegal(state.auction, Seat.N, bid) is None:
            return bid
    return None


def _insufficient(state: TableState, seq: int, seat: Seat, call: Call, reason: str) -> TableState:
    return record_call(state, CallRecord(seq, seat, call, CallRuling.INSUFFICIENT, law=accept_law(state),
                                     detail=f"{reason}: {seat.lho} may accept it"))


def _law27_call(state: TableState, seq: int, ev: CallPlaced, ib: CallRecord) -> TableState | None:
    """A call while an insufficient bid waits (None: not Law 27's call)."""
    seat, call = ev.seat, ev.call
    if ib.ruling == CallRuling.INSUFFICIENT:
        if seat is ib.seat.lho:  # 27A1: "It is accepted if that player calls."
            state = accept_insufficient(state, ib, f"accepted: {seat} called over it")
            return in_turn(state, seq, seat, call, ev.TYPE)
        if seat is ib.seat:
            return unprocessed(state, seq, ev.TYPE, seat,
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
        return record_call(state, CallRecord(seq, seat, call, CallRuling.UNDECIDED, law=cite(key), replaces=ib.seq,
                                         first_call=ib.call, detail=question))

    def enter(ib_ruling: CallRuling, key: str, detail: str) -> TableState:
        correction = CallRecord(seq, seat, call, CallRuling.IB_CORRECTION, law=cite(key), replaces=ib.seq,
                                first_call=ib.call, detail=detail)
        return with_auction(state, state.auction + (AuctionCall(seq, seat, call, cite(key)),),
                            calls=ruled(state.calls, ib.seq, ib_ruling, cite(key), detail) + (correction,))

    if ib.ruling == CallRuling.IB_B3_PENDING:  # 27B3: "must replace it as the foregoing allows"
        if reason is not None:
            return unprocessed(state, seq, ev.TYPE, seat, f"{reason} by {seat} (27B3: a legal call is due)")
        return enter(CallRuling.IB_B3, "27B3", f"{seat.partner} must pass whenever it is his turn to call")
    if state.edition == Edition.E1997:
        return _correct_insufficient_1997(state, seq, ev, ib, reason, ask, enter)
    if call.kind in ("double", "redouble"):
        if reason is None and ev.comparable is None:
            return ask("27B1b", f"is {call} a comparable call (23A) in place of the insufficient {ib.call}?")
        if reason is None and ev.comparable:
            return enter(CallRuling.IB_B1B, "27B1b", "a comparable call: no further rectification (27D at the end)")
        return _cancel_double(state, seq, ev, ib, f"cancelled; {seat} must make a legal call, "
                                                 f"{seat.partner} must pass whenever it is his turn to call")
    if reason is not None:  # 27B4: another insufficient bid (or an illegal call)
        return unprocessed(state, seq, ev.TYPE, seat,
                            f"{reason} by {seat} in place of the insufficient {ib.call} (27B4: not ruled by the ledger)")
    if call.is_bid:
        if ev.same_denomination is None:
            return ask("27B1a", f"is {call} the lowest sufficient bid specifying the same denomination(s) as "
                                f"the insufficient {ib.call}?")
        if ev.same_denomination:
            return enter(CallRuling.IB_B1A, "27B1a", "lowest sufficient bid, same denomination(s): no further "
                                                       "rectification (27D at the end)")
    if ev.comparable is None:
        return ask("27B1b", f"is {call} a comparable call (23A) in place of the insufficient {ib.call}?")
    if ev.comparable:
        return enter(CallRuling.IB_B1B, "27B1b", "a comparable call: no further rectification (27D at the end)")
    return enter(CallRuling.IB_B2, "27B2",
                 f"{seat.partner} must pass whenever it is his turn to call; Law 26 may apply")


def _correct_insufficient_1997(state: TableState, seq: int, ev: CallPlaced, ib: CallRecord, reason: str | None,
                               ask: Callable[[str, str], TableState],
                               enter: Callable[[CallRuling, str, str], TableState]) -> TableState:
    """1997 27B: only a sufficient bid or a pass may replace it (LAWS-DIGEST 14.9, LEDGER-SPEC 9.D5)."""
    seat, call = ev.seat, ev.call
    if call.kind in ("double", "redouble"):  # 27B3 (LAWS-DIGEST 14.12, decision 6)
        return _cancel_double(state, seq, ev, ib, f"cancelled; {seat} must bid sufficiently or pass, "
                                                 f"{seat.partner} must pass whenever it is his turn to call")
    if reason is not None:  # another insufficient bid: no 1997 text (LAWS-DIGEST 14.12, decision 7)
        return unprocessed(state, seq, ev.TYPE, seat,
                           f"{reason} by {seat} in place of the insufficient {ib.call} (1997: no rule; the director's)")
    if call.is_bid and call == lowest_sufficient(state, ib.call):
        if ev.same_denomination is None:
            return ask("27B1a", f"is {call}, the lowest sufficient bid in the strain of the insufficient {ib.call}, "
                                "free of conventional meaning, and the insufficient bid too (same_denomination)?")
        if ev.same_denomination:
            return enter(CallRuling.IB_B1A, "27B1a",
                         "lowest sufficient bid in the same denomination, neither conventional: "
                         "no penalty (the director may adjust, 27B1(b))")
    return enter(CallRuling.IB_B2, "27B2",
                 f"{seat.partner} must pass whenever it is his turn to call; Law 26 may apply")


def _cancel_double(state: TableState, seq: int, ev: CallPlaced, ib: CallRecord, detail: str) -> TableState:
    """27B3: a double or redouble attempted in place of the insufficient bid is cancelled; a legal call is due."""
    law_ = state.cite("27B3")
    cancelled = CallRecord(seq, ev.seat, ev.call, CallRuling.IB_CANCELLED_DOUBLE, law=law_, replaces=ib.seq,
                           first_call=ib.call, detail=detail)
    calls = ruled(state.calls, ib.seq, CallRuling.IB_B3_PENDING, law_,
                  f"{ev.call} attempted in place of the insufficient {ib.call}: cancelled")
    return replace(state, calls=calls + (cancelled,))


def accept_insufficient(state: TableState, ib: CallRecord, detail: str) -> TableState:
    """27A1 (1997 27A): the insufficient bid is treated as legal and entered; the LHO's option lapses."""
    law_ = accept_law(state)
    pending = tuple(o for o in state.pending if not (o.law == law_ and o.to is ib.seat.lho))
    return with_auction(state, state.auction + (AuctionCall(ib.seq, ib.seat, ib.call, law_),), pending=pending,
                        calls=ruled(state.calls, ib.seq, CallRuling.IB_ACCEPTED, law_, detail))


@at_call("pending")
def law27_pending(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """A call while the insufficient bid's option or correction is open."""
    ib = pending_insufficient(state)
    return None if ib is None else _law27_call(state, seq, ev, ib)


@at_call("insufficient_bid")
def law27_insufficient(state: TableState, seq: int, seat: Seat, call: Call, reason: str) -> TableState | None:
    """Law 27, both editions."""
    return _insufficient(state, seq, seat, call, reason)


# -- option effects ---------------------------------------------------------------------

def _on_27a1(state: TableState, choice: Choice) -> TableState:
    ib = pending_insufficient(state)
    if ib is None or ib.ruling != CallRuling.INSUFFICIENT:
        return state
    if choice.option == "accept":
        return accept_insufficient(state, ib, f"accepted by {choice.seat}")
    return set_ruling(state, ib.seq, CallRuling.IB_REFUSED, state.cite("27B"),
                       f"not accepted by {choice.seat}: {ib.seat} must correct it")


OPTION_EFFECTS = {"27A1": refreshing(_on_27a1), "27A": refreshing(_on_27a1)}  # 27A: 1997


# -- the rules ---------------------------------------------------------------------------

BID_RULINGS = (CallRuling.INSUFFICIENT, CallRuling.IB_ACCEPTED, CallRuling.IB_REFUSED, CallRuling.IB_B3_PENDING,
               CallRuling.IB_B1A, CallRuling.IB_B1B, CallRuling.IB_B2, CallRuling.IB_B3)
"""The rulings on the insufficient bid itself."""


def law_27(state: TableState, rec: CallRecord) -> list[Prescription]:
    """Law 27, an insufficient bid in rotation: the LHO may accept it (27A1;
    1997 27A); not accepted, the correction decides: 27B1a (lowest sufficient
    bid specifying the same denomination) and 27B1b (a comparable call)
    without further rectification, but the director judges at the end whether
    the outcome could well have been different (27D; 1997 27B1(b));
    otherwise partner passes whenever it is his turn (27B2; 27B3 for a double
    or redouble attempted, which is cancelled) and Law 26 may apply."""
    cite = state.cite
    out = [irregular(IrregularityKind.INSUFFICIENT_BID, rec, cite("27")),
           Prescription(OptionsOffered(to=rec.seat.lho, options=("accept", "refuse"), law=accept_law(state)),
                        (rec.seq,), accept_law(state))]
    if rec.ruling == CallRuling.IB_B2:
        out.append(Prescription(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction"), (rec.seq,),
                                cite("27B2")))
    if rec.ruling in (CallRuling.IB_B3_PENDING, CallRuling.IB_B3):
        out.append(Prescription(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction"), (rec.seq,),
                                cite("27B3")))
    if rec.ruling == CallRuling.IB_B1A and state.edition == Edition.E1997:
        out.append(review(f"1997:27B1b {rec.seat}'s insufficient {rec.call} was corrected by the lowest sufficient "
                          "bid in the same denomination: if the insufficient bid gave information that damaged the "
                          "non-offending side, the director may award an adjusted score", rec, cite("27B1b")))
    elif rec.ruling in (CallRuling.IB_B1A, CallRuling.IB_B1B):
        how = ("the lowest sufficient bid in the same denomination" if rec.ruling == CallRuling.IB_B1A
               else "a comparable call")
        assert rec.law is not None  # narrowing: a corrected insufficient bid's record always carries its Law
        out.append(review(f"27D {rec.seat}'s insufficient {rec.call} was corrected by {how} ({label(rec.law)}): "
                          "at the end of play, could the outcome well have been different without the "
                          "assistance of the infraction? (adjusted score, 12B1)", rec, cite("27D")))
    return out


def cancelled_double(state: TableState, rec: CallRecord) -> list[Prescription]:
    """27B3: a double or redouble attempted in place of the insufficient bid is cancelled."""
    return [Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law)]


RECORD_RULES: dict[CallRuling, Rule] = {**{ruling: law_27 for ruling in BID_RULINGS},
                                        CallRuling.IB_CANCELLED_DOUBLE: cancelled_double}


# -- words -------------------------------------------------------------------------------

NOT_ENTERED: dict[CallRuling, Callable[[CallRecord], str]] = {
    CallRuling.INSUFFICIENT: lambda r: f"insufficient bid, awaiting {r.seat.lho}'s option",
    **{ruling: (lambda r: "insufficient bid not accepted: withdrawn")
       for ruling in (CallRuling.IB_REFUSED, CallRuling.IB_B3_PENDING, CallRuling.IB_B1A, CallRuling.IB_B1B,
                      CallRuling.IB_B2, CallRuling.IB_B3)},
    CallRuling.IB_CANCELLED_DOUBLE: lambda r: f"cancelled: attempted in place of the insufficient {r.first_call}",
}

RULINGS: dict[CallRuling, Ruled] = {
    CallRuling.INSUFFICIENT: Ruled(
        "{call} is an insufficient bid: {lho} may accept it or refuse it",
        {"1997": "27A", "2017": "27A1"}),
    CallRuling.IB_ACCEPTED: Ruled(
        "insufficient {call} accepted ({detail}): it stands as a legal bid",
        {"1997": "27A", "2017": "27A1"}),
    CallRuling.IB_REFUSED: Ruled(
        "insufficient {call} not accepted: {seat} must replace it by a legal call",
        {"1997": "27B", "2017": "27B"}),
    CallRuling.IB_B3_PENDING: Ruled(
        "insufficient {call} not accepted; a double or redouble in its place was cancelled: {seat} "
        "must make a legal call, {partner} must pass whenever it is his turn",
        {"1997": "27B3", "2017": "27B3"}),
    CallRuling.IB_B1A: Ruled(
        "insufficient {call} not accepted and corrected by the lowest sufficient bid in the same "
        "denomination: no further rectification (the director reviews at the end)",
        {"1997": "27B1a", "2017": "27B1a"}),
    CallRuling.IB_B1B: Ruled(
        "insufficient {call} not accepted and corrected by a comparable call: no further rectification "
        "(the director reviews at the end)",
        {"2017": "27B1b"}),
    CallRuling.IB_B2: Ruled(
        "insufficient {call} not accepted and corrected by a call that is not comparable: {partner} must "
        "pass whenever it is his turn; lead restrictions may follow",
        {"1997": "27B2", "2017": "27B2"}),
    CallRuling.IB_B3: Ruled(
        "insufficient {call} not accepted; a double or redouble in its place was cancelled: {partner} must "
        "pass whenever it is his turn; lead restrictions may follow",
        {"1997": "27B3", "2017": "27B3"}),
    CallRuling.IB_CORRECTION: Ruled(
        "{call} replaces the insufficient {first}: {detail}",
        {"1997": "27B", "2017": "27B"}),
    CallRuling.IB_CANCELLED_DOUBLE: Ruled(
        "{call} in place of the insufficient {first}: {detail}",
        {"1997": "27B3", "2017": "27B3"}),
}
"""Each ruling on a call this family reads (Law 27, ``CallRuling``): how it reads for people
(``ledger.render``, the document's ``call_rulings``) and the Law it rests on, by edition
(``ledger.laws.base.cited``); an edition missing means the ruling does not arise under it (1997
has no comparable call, 27B1b)."""


# -- words of the other vocabularies -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.INSUFFICIENT_BID: "insufficient bid",
}
"""How the irregularity of this family's rules (``IrregularityKind``: 27) reads for people."""

OPTION_WORDS_BY_LAW: dict[tuple[str, str], str] = {
    ("27A1", "accept"): "accept the insufficient bid: it stands",
    ("27A1", "refuse"): "do not accept it: the offender replaces it by a legal call (27B)",
}
"""Words for the LHO's option of 27A1, by the Law that offered it."""
