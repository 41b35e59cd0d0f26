"""Calls out of rotation (Laws 28 to 34, both editions): one family, its reading
and its rules (LAWS-DIGEST 14.2 to 14.8, LEDGER-SPEC 9.D1 to 9.D3).

The reading (the fold, through ``ledger.laws.base.at_call("rotation")``): a call by a
seat that is not on turn is a call out of rotation (COOR) of X, classified by
whose turn it was: his RHO's, his partner's, or his LHO's (he has not called
yet). It is not entered; the auction waits for the LHO's choice (29A):

* his LHO calls (or chooses ``accept``): accepted, entered where it was made,
  the players it skipped lose that turn (law ``<ed>:29A``);
* the player on turn, X's RHO, calls first: 28B, cancelled, no rectification;
* at the LHO's own turn, his call is 29A or 28B by the judgment
  ``over_call_out_of_rotation`` (unknown: the director is asked, the call waits);
* ``refuse``: cancelled (29B), the auction goes back to the player on turn and
  Laws 30 to 32 apply, by edition.

Two readings are not calls out of rotation: the LHO of a player who must pass
now calls at that player's turn (28A: a Pass is entered for the barred
player first), and the player who made the last call calls again at his LHO's
turn (a change of call, Law 25: read as a ``CallReplaced`` of that call).

Progress of a refused COOR (its record's ``ruling``; ``law`` is the Law that
rectifies it, e.g. ``2017:31A``): ``coor_refused``; ``coor_repeat`` (RHO
passed: X must repeat, 31A1 / 2017 32A1 / 1997 32B1), ``coor_repeated``;
``coor_rho_acted`` (RHO bid, doubled or redoubled: X calls freely); and once X
has called in rotation: 2017 ``coor_comparable`` / ``coor_not_comparable`` /
``coor_undecided`` (23A, the director's judgment ``comparable``); 1997
``coor_same_strain`` (31A2(a)), ``coor_same_call``, ``coor_other``.

| | 1997 | 2017 |
|---|---|---|
| pass, no bid yet | 30A: offender passes at his next turn | by whose turn it was |
| pass at RHO's turn | 30B1: offender passes at his next turn | 30A: the same |
| pass at partner's turn | 30B2: offender passes to the end; partner may not double or redouble at that turn | 30B1: offender's next call comparable (nothing) or not (partner passes once, 26B) |
| bid at RHO's turn | 31A1 RHO passes: repeat; 31A2 RHO acts: same strain, partner passes once; other, partner passes to the end, 26 | 31A1 repeat; 31A2 comparable or not |
| bid at partner's / LHO's turn | 31B: partner passes to the end at once, 26 | 31B: comparable or not |
| double/redouble at partner's turn | 32A: partner passes to the end, 26B | 32B: comparable or not |
| double/redouble at RHO's turn | 32B1 repeat; 32B2 partner passes to the end | 32A1 repeat; 32A2 comparable or not |
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from ledger.bridge import PASS, Call, Seat
from ledger.events import (CallCancelled, CallPlaced, CallReplaced, CallRequired, CallsForbidden,
                           DirectorReviewRequired, Event, IrregularityRecorded, OptionsOffered, PartnerMustPass)
from ledger.laws.base import Prescription, Ruled, at_call, handles
from projections import auction as reading
from projections.auction import why_illegal
from projections.fold import Step
from projections.state import AUCTION, AuctionCall, CallRecord, Choice, TableState
from projections.vocab import CallRuling, Edition, IrregularityKind

LAWS = ("28", "29", "30", "31", "32", "33", "34")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

WAITING = CallRuling.COOR
REFUSED = (CallRuling.COOR_REFUSED, CallRuling.COOR_REPEAT, CallRuling.COOR_REPEATED, CallRuling.COOR_RHO_ACTED,
           CallRuling.COOR_COMPARABLE, CallRuling.COOR_NOT_COMPARABLE, CallRuling.COOR_UNDECIDED,
           CallRuling.COOR_SAME_STRAIN, CallRuling.COOR_SAME_CALL, CallRuling.COOR_OTHER)
"""The rulings of a call out of rotation not accepted (29B), in the order of its progress."""
IN_PROGRESS = (CallRuling.COOR_REFUSED, CallRuling.COOR_REPEAT, CallRuling.COOR_RHO_ACTED)
"""A refused call out of rotation whose rectification waits for a call in rotation."""
LAW_34 = (CallRuling.PASSED_OVER_34, CallRuling.CANCELLED_34)
"""The passes Law 34 cancels (read by ``ledger.laws.calls``; rectified here)."""
RHO_FIRST = {"2017": ("31A", "32A"), "1997": ("31A", "32B")}
"""Cases where X's RHO calls before X after the refusal and his call decides (repeat or not)."""
NEXT_CALL = {"2017": ("30B1", "31A", "31B", "32A", "32B"), "1997": ("31A", "31B", "32A", "32B")}
"""Cases where X's next call in rotation decides what follows (2017 23A; 1997 31A2, Law 26)."""
REPEAT_LAW = {("2017", "31A"): "31A1", ("2017", "32A"): "32A1", ("1997", "31A"): "31A1", ("1997", "32B"): "32B1"}
NOT_COMPARABLE_LAW = {"30B1": "30B1b", "31A": "31A2b", "31B": "31B2", "32A": "32A2b", "32B": "32B2"}


# -- the reading of the facts ------------------------------------------------------------

def turn_at(state: TableState, rec: CallRecord) -> Seat:
    """Whose turn it was when the call out of rotation ``rec`` was made."""
    position = rec.position or 0
    if position and position <= len(state.auction):
        return state.auction[position - 1].seat.lho
    dealer = state.board.dealer
    assert dealer is not None
    return dealer


def relation(state: TableState, rec: CallRecord) -> str:
    turn = turn_at(state, rec)
    return "rho" if turn is rec.seat.rho else "partner" if turn is rec.seat.partner else "lho"


def kind_law(call: Call) -> str:
    return "30" if call.is_pass else "31" if call.is_bid else "32"


def case_of(state: TableState, rec: CallRecord, artificial: bool = False) -> str:
    """The Law that rectifies the refused call out of rotation ``rec`` (without edition)."""
    rel, call = relation(state, rec), rec.call
    if call.is_pass and not artificial:  # 30C: an artificial pass is read as a bid (31)
        if state.edition == Edition.E2017:
            return "30A" if rel == "rho" else "30B1"
        if not any(a.call.is_bid for a in state.auction[:rec.position or 0]):
            return "30A"
        return "30B1" if rel == "rho" else "30B2"
    if call.is_bid or call.is_pass:
        return "31A" if rel == "rho" else "31B"
    if state.edition == Edition.E2017:
        return "32A" if rel == "rho" else "32B"
    return "32B" if rel == "rho" else "32A"


def waiting(state: TableState) -> CallRecord | None:
    """A call out of rotation awaiting its LHO's choice (29A)."""
    return next((r for r in reversed(state.calls) if r.ruling == WAITING), None)


def _evolve_record(state: TableState, seq: int, **changes: Any) -> TableState:
    return attrs.evolve(state, calls=tuple(attrs.evolve(r, **changes) if r.seq == seq else r for r in state.calls))


def _lapse_offer(state: TableState, rec: CallRecord) -> TableState:
    pending = tuple(o for o in state.pending if not (o.law.endswith(":29A") and o.to is rec.seat.lho))
    return attrs.evolve(state, pending=pending)


def accept(state: TableState, rec: CallRecord, detail: str) -> TableState:
    """29A: the call out of rotation stands where it was made; the players it skipped lose that turn."""
    law = state.cite("29A")
    state = _evolve_record(_lapse_offer(state, rec), rec.seq, ruling=CallRuling.COOR_ACCEPTED, law=law, detail=detail)
    return reading.with_auction(state, state.auction + (AuctionCall(rec.seq, rec.seat, rec.call, law),))


def ignore(state: TableState, rec: CallRecord, detail: str) -> TableState:
    """28B: the player on turn called; the call out of rotation is cancelled, no rectification."""
    return _evolve_record(_lapse_offer(state, rec), rec.seq, ruling=CallRuling.COOR_28B, law=state.cite("28B"),
                          detail=detail)


def refuse(state: TableState, rec: CallRecord, by: Seat) -> TableState:
    """29B; an artificial pass is rectified as a bid (30C -> 31), and 29C reads an artificial call by
    the denomination(s) it specified (the ``artificial`` judgment, absent = natural)."""
    case = case_of(state, rec, rec.artificial is True)
    turn = turn_at(state, rec)
    why = " (30C: an artificial pass, rectified under Law 31)" if rec.call.is_pass and rec.artificial else ""
    return _evolve_record(state, rec.seq, ruling=CallRuling.COOR_REFUSED, law=state.cite(case),
                          detail=f"not accepted by {by}: cancelled (29B){why}; the auction reverts to {turn}")


@at_call("rotation")
def read_call(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """A ``CallPlaced`` as Laws 28 to 34 read it (None: not this family's call)."""
    if state.phase != AUCTION or reading.pending_insufficient(state) is not None:
        return None
    if reading.pending_substitution(state) is not None:
        return None  # 25B1: the LHO's option (ledger.laws.calls)
    rec = waiting(state)
    if rec is not None:
        return _while_waiting(state, seq, ev, rec)
    if ev.seat is not state.turn:
        return _out_of_rotation(state, seq, ev)
    return _in_rotation(state, seq, ev)


def _out_of_rotation(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    seat, call, turn = ev.seat, ev.call, state.turn
    assert turn is not None
    if seat is turn.lho and reading.must_pass_now(state, turn):  # 28A: deemed to have passed
        state = reading.with_auction(state, state.auction + (AuctionCall(seq, turn, PASS, state.cite("28A")),))
        return reading.in_turn(state, seq, seat, call, ev.TYPE)
    if state.auction and state.auction[-1].seat is seat:  # at his LHO's turn: a change of call (Law 25)
        return reading.replace_call(state, seq, CallReplaced(seat=seat, call=call, unintended=ev.unintended,
                                                              without_pause=ev.without_pause,
                                                              mi_influenced=ev.mi_influenced))
    if call.is_bid and (call.level or 0) > 7:
        return None  # a bid of more than seven out of rotation: never accepted, the director's (not built)
    if not call.is_bid and not call.is_pass and why_illegal(state.auction, seat, call) is not None:
        return None  # an inadmissible double or redouble out of rotation: Law 36, never accepted
    rel = "RHO" if turn is seat.rho else "partner" if turn is seat.partner else "LHO"
    artificial = " (artificial: 29C)" if ev.artificial else ""
    return reading.record_call(state, CallRecord(
        seq, seat, call, WAITING, position=len(state.auction), law=state.cite(kind_law(call)),
        detail=f"{call}{artificial} by {seat} at his {rel}'s turn ({turn} to call): {seat.lho} may accept it (29A)",
        artificial=ev.artificial))


def _while_waiting(state: TableState, seq: int, ev: CallPlaced, rec: CallRecord) -> TableState | None:
    seat, call, turn = ev.seat, ev.call, state.turn
    offender = rec.seat
    if seat is offender.lho:
        if seat is turn:  # the COOR was made at his own turn: over it (29A) or ignoring it (28B)?
            over = ev.over_call_out_of_rotation
            if over is None:
                return reading.record_call(state, CallRecord(
                    seq, seat, call, CallRuling.UNDECIDED, law=state.cite("29A"),
                    detail=f"(28B or 29A) did {seat} call over {offender}'s {rec.call} out of rotation (29A, "
                           f"accepted) or in his own turn ignoring it (28B)?"))
            if not over:
                state = ignore(state, rec, f"{seat} called in his own turn ignoring it")
                return reading.in_turn(state, seq, seat, call, ev.TYPE)
        state = accept(state, rec, f"accepted: {seat} called over it")
        return reading.in_turn(state, seq, seat, call, ev.TYPE)
    if seat is turn and turn is offender.rho:
        state = ignore(state, rec, f"{seat}, on turn, called before {offender.lho} chose")
        return reading.in_turn(state, seq, seat, call, ev.TYPE)
    if seat is turn:  # the offender's partner, before the 29A choice (LAWS-DIGEST 14.12, decision 1)
        return reading.record_call(state, CallRecord(
            seq, seat, call, CallRuling.UNDECIDED, law=state.cite("29A"),
            detail=f"(partner called before the 29A choice) {seat} called before {offender.lho} accepted or "
                   f"refused {offender}'s {rec.call}: his call waits"))
    return None


def _in_rotation(state: TableState, seq: int, ev: CallPlaced) -> TableState | None:
    """The player on turn calls while a refused call out of rotation is in progress."""
    seat, call = ev.seat, ev.call
    edition = state.edition
    if call.kind in ("double", "redouble") and any(
            r["seat"] == str(seat) and str(call) in r["calls"] for r in call_restrictions(state)):
        # 1997 30B2(b) broken: LAWS-DIGEST 14.12, decision 4 (cancelled, he calls again; the director rules)
        return reading.record_call(state, CallRecord(
            seq, seat, call, CallRuling.UNDECIDED, law="1997:30B2b",
            detail=f"double: {seat} may not double or redouble at this turn: {call} is not entered, he calls "
                   "again; any further rectification is the director's"))
    for rec in reversed(state.calls):
        if rec.ruling not in IN_PROGRESS:
            continue
        offender, case = rec.seat, rec.law.split(":", 1)[1] if rec.law else ""
        if rec.ruling == CallRuling.COOR_REFUSED and case in RHO_FIRST[edition] and seat is offender.rho:
            state = reading.in_turn(state, seq, seat, call, ev.TYPE)
            if state.auction and state.auction[-1].seq == seq and state.auction[-1].seat is seat:
                done = CallRuling.COOR_REPEAT if state.auction[-1].call.is_pass else CallRuling.COOR_RHO_ACTED
                state = _evolve_record(state, rec.seq, ruling=done)
            return state
        if seat is not offender:
            continue
        if rec.ruling == CallRuling.COOR_REPEAT:
            repeat = state.cite(REPEAT_LAW[(edition, case)])
            if call != rec.call:  # LAWS-DIGEST 14.12, decision 5: not entered, the director is asked
                return reading.record_call(state, CallRecord(
                    seq, seat, call, CallRuling.UNDECIDED, law=repeat, replaces=rec.seq, first_call=rec.call,
                    detail=f"call not repeated: {seat} must repeat his {rec.call}; {call} is not entered"))
            state = reading.in_turn(state, seq, seat, call, ev.TYPE)
            if state.auction and state.auction[-1].seq == seq and state.auction[-1].call == call:
                entry = attrs.evolve(state.auction[-1], law=repeat)
                state = attrs.evolve(state, auction=state.auction[:-1] + (entry,))
                state = _evolve_record(state, rec.seq, ruling=CallRuling.COOR_REPEATED, replaces=seq)
            return state
        if case not in NEXT_CALL[edition] or (rec.ruling == CallRuling.COOR_REFUSED and case in RHO_FIRST[edition]):
            return None
        state = reading.in_turn(state, seq, seat, call, ev.TYPE)
        if edition == Edition.E2017:
            outcome = {None: CallRuling.COOR_UNDECIDED, True: CallRuling.COOR_COMPARABLE,
                       False: CallRuling.COOR_NOT_COMPARABLE}[ev.comparable]
        elif case == "31A" and (rec.artificial or ev.artificial):
            # 29C (1997 31A2): the denomination an artificial call specified is the director's judgment,
            # given as ``same_denomination`` on the offender's call (unknown: the director is asked)
            outcome = {None: CallRuling.COOR_UNDECIDED, True: CallRuling.COOR_SAME_STRAIN,
                       False: CallRuling.COOR_OTHER}[ev.same_denomination]
        elif case == "31A" and call.is_bid and rec.call.is_bid and call.strain is rec.call.strain:
            outcome = CallRuling.COOR_SAME_STRAIN
        else:
            outcome = CallRuling.COOR_SAME_CALL if call == rec.call else CallRuling.COOR_OTHER
        return _evolve_record(state, rec.seq, ruling=outcome, replaces=seq, first_call=call)
    return None


def _on_29a(state: TableState, choice: Choice) -> TableState:
    rec = waiting(state)
    if rec is None:
        return state
    if choice.option == "accept":
        return accept(state, rec, f"accepted by {choice.seat}")
    return refuse(state, rec, choice.seat)


OPTION_EFFECTS = {"29A": reading.refreshing(_on_29a)}

NOT_ENTERED: dict[CallRuling, Callable[[CallRecord], str]] = {
    CallRuling.COOR: lambda r: f"call out of rotation, awaiting {r.seat.lho}'s option (29A)",
    CallRuling.COOR_28B: lambda r: "call out of rotation cancelled: the player on turn called (28B)",
    **{ruling: (lambda r: "call out of rotation not accepted: cancelled (29B)") for ruling in REFUSED},
}


RULINGS: dict[CallRuling, Ruled] = {
    CallRuling.COOR: Ruled(
        "{call} out of rotation: {lho} may accept it (29A) or refuse it ({detail})",
        {"1997": "29A", "2017": "29A"}),
    CallRuling.COOR_ACCEPTED: Ruled(
        "{call} out of rotation accepted ({detail}): it stands where it was made, the players it "
        "skipped lose that turn",
        {"1997": "29A", "2017": "29A"}),
    CallRuling.COOR_28B: Ruled(
        "{call} out of rotation cancelled: {detail}; no rectification",
        {"1997": "28B", "2017": "28B"}),
    CallRuling.COOR_REFUSED: Ruled(
        "{call} out of rotation not accepted: cancelled; {detail}",
        {"1997": "29B", "2017": "29B"}),
    CallRuling.COOR_REPEAT: Ruled(
        "{call} out of rotation not accepted; the right-hand opponent passed: {seat} must repeat {call}",
        {"1997": "31A1", "2017": "31A1"}),
    CallRuling.COOR_REPEATED: Ruled(
        "{call} out of rotation not accepted, then repeated in turn: no further rectification",
        {"1997": "31A1", "2017": "31A1"}),
    CallRuling.COOR_RHO_ACTED: Ruled(
        "{call} out of rotation not accepted; the right-hand opponent called: {seat} calls freely",
        {"1997": "31A2", "2017": "31A2"}),
    CallRuling.COOR_COMPARABLE: Ruled(
        "{call} out of rotation not accepted; {seat}'s {first} in turn is a comparable call: no "
        "further rectification (the director reviews at the end)",
        {"2017": "23A"}),
    CallRuling.COOR_NOT_COMPARABLE: Ruled(
        "{call} out of rotation not accepted; {seat}'s {first} in turn is not comparable: "
        "{partner} must pass at his next turn; a lead restriction may follow",
        {"2017": "23A"}),
    CallRuling.COOR_UNDECIDED: Ruled(
        "{call} out of rotation not accepted; {seat}'s {first} in turn waits for the director's "
        "judgment (2017: is it a comparable call? 23A; 1997: did it repeat the denomination the "
        "artificial call specified? 29C)",
        {"1997": "29C", "2017": "23A"}),
    CallRuling.COOR_SAME_STRAIN: Ruled(
        "{call} out of rotation not accepted; {seat} bid the same denomination ({first}): "
        "{partner} must pass at his next turn",
        {"1997": "31A2a"}),
    CallRuling.COOR_SAME_CALL: Ruled(
        "{call} out of rotation not accepted; {seat} made the same call in turn",
        {"1997": "29B"}),
    CallRuling.COOR_OTHER: Ruled(
        "{call} out of rotation not accepted; {seat} made another call in turn ({first}): a lead "
        "restriction may follow",
        {"1997": "31A2b"}),
}
"""Each ruling of a call out of rotation: how it reads for people (a template ``ledger.render``
fills) and the Law it rests on, by edition (an edition it cannot arise under is absent: the
comparable call is 2017's, the repeated denomination 1997's). The record carries the Law of its
case: 30, 31 or 32."""


@handles(CallRequired, CallsForbidden)
def on_obligation(state: TableState, step: Step[Event]) -> TableState:
    """The record of the call out of rotation already says so (``required_calls``,
    ``call_restrictions`` are read from it)."""
    return state


def required_calls(state: TableState) -> list[dict[str, Any]]:
    """The ``required_calls`` key of the state document (spec 1.2, 9.E)."""
    return [{"seat": str(r.seat), "call": str(r.call), "law": state.cite(REPEAT_LAW[(state.edition, r.law.split(":")[1])])}
            for r in state.calls if r.ruling == CallRuling.COOR_REPEAT and r.law]


def refused_at(state: TableState, rec: CallRecord) -> int:
    """The seq of the LHO's refusal of ``rec`` (29B)."""
    return next((c.seq for c in state.choices if c.law.endswith(":29A") and c.seq > rec.seq), rec.seq)


def call_restrictions(state: TableState) -> list[dict[str, Any]]:
    """The ``call_restrictions`` key of the state document (spec 1.2, 9.E): 1997 30B2(b)."""
    out = []
    for r in state.calls:
        if r.ruling in REFUSED and r.law == "1997:30B2" and state.phase == AUCTION:
            partner = r.seat.partner
            if not any(a.seat is partner and a.seq > refused_at(state, r) for a in state.auction):
                out.append({"seat": str(partner), "calls": ["X", "XX"], "until": "next_turn", "law": "1997:30B2"})
    return out


# -- the rules ---------------------------------------------------------------------------

def _withdrawn(state: TableState) -> list[tuple[CallRecord, Call]]:
    """Law 26 after a refused call out of rotation (LAWS-DIGEST 14.5)."""
    out = []
    for rec in state.calls:
        case = rec.law.split(":", 1)[1] if rec.law and rec.ruling in REFUSED else ""
        if state.edition == Edition.E2017 and rec.ruling == CallRuling.COOR_NOT_COMPARABLE:
            out.append((rec, rec.call))
        elif state.edition == Edition.E1997 and (rec.ruling == CallRuling.COOR_OTHER
                                                 or case == "31B" and rec.ruling in REFUSED):
            out.append((rec, rec.call))
    return out


WITHDRAWN_CALLS = _withdrawn


def calls_out_of_rotation(state: TableState) -> list[Prescription]:
    out: list[Prescription] = []
    for rec in state.calls:
        if rec.ruling in (WAITING, CallRuling.COOR_ACCEPTED, CallRuling.COOR_28B) or rec.ruling in REFUSED:
            out.extend(_rule(state, rec))
        elif rec.ruling in LAW_34 and rec.law:  # Law 34 (ledger.laws.calls)
            if rec.ruling == CallRuling.PASSED_OVER_34:
                out.extend(_rule(state, attrs.evolve(rec, ruling=CallRuling.COOR_ACCEPTED)))
            out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law))
    return out


def _rule(state: TableState, rec: CallRecord) -> list[Prescription]:
    x, call = rec.seat, rec.call
    at = _At(state, rec)
    out = [at.p(IrregularityRecorded(kind=IrregularityKind.CALL_OUT_OF_ROTATION, offender=str(x), about=rec.seq),
                "30C" if call.is_pass and rec.artificial else kind_law(call)),
           at.p(OptionsOffered(to=x.lho, options=("accept", "refuse"), law=state.cite("29A")), "29A")]
    if rec.ruling == CallRuling.COOR_28B:
        out.append(at.p(CallCancelled(seat=x, call=call), "28B"))
    if rec.ruling not in REFUSED:
        return out
    out.append(at.p(CallCancelled(seat=x, call=call), "29B"))
    case, ruling, edition = (rec.law or ":").split(":", 1)[1], rec.ruling, state.edition
    if ruling in (CallRuling.COOR_REPEAT, CallRuling.COOR_REPEATED):
        out.append(at.p(CallRequired(seat=x, call=call), REPEAT_LAW[(edition, case)]))
    refused = _refused_2017 if edition == Edition.E2017 else _refused_1997
    return out + refused(at, case, ruling)


class _At:
    """The prescriptions of one call out of rotation (its record, the edition's citations)."""

    def __init__(self, state: TableState, rec: CallRecord) -> None:
        self.state, self.rec = state, rec

    def p(self, event: Event, law: str) -> Prescription:
        return Prescription(event, (self.rec.seq,), self.state.cite(law))

    def must_pass(self, seat: Seat, until: str, law: str) -> Prescription:
        return self.p(PartnerMustPass(seat=seat, until=until), law)

    def review(self, reason: str, law: str) -> Prescription:
        return Prescription(DirectorReviewRequired(reason=reason, about=self.rec.replaces or self.rec.seq),
                            (self.rec.seq,), self.state.cite(law))


def _refused_2017(at: _At, case: str, ruling: CallRuling | None) -> list[Prescription]:
    """2017: what follows a refused call out of rotation (30A, 23A, 23C, the not comparable call)."""
    rec = at.rec
    x, call = rec.seat, rec.call
    if case == "30A":
        return [at.must_pass(x, "next_turn", "30A")]
    if ruling == CallRuling.COOR_UNDECIDED:
        return [at.review(f"23A comparable call: is {x}'s {rec.first_call} a comparable call in place of his "
                          f"cancelled {call} ({case})?", "23A")]
    if ruling == CallRuling.COOR_COMPARABLE:
        return [at.review(f"23C {x}'s {call} out of rotation was replaced by a comparable call "
                          f"({rec.first_call}): at the end of play, could the outcome well have been different "
                          "without the assistance of the infraction? (adjusted score)", "23C")]
    if ruling == CallRuling.COOR_NOT_COMPARABLE:
        return [at.must_pass(x.partner, "next_turn", NOT_COMPARABLE_LAW[case])]
    return []


def _refused_1997(at: _At, case: str, ruling: CallRuling | None) -> list[Prescription]:
    """1997: what follows a refused call out of rotation (29C, 30, 31, 32)."""
    rec = at.rec
    x, call, partner = rec.seat, rec.call, rec.seat.partner
    if ruling == CallRuling.COOR_UNDECIDED:  # 29C: an artificial call out of rotation, 1997 31A2
        return [at.review(f"29C artificial: did {x}'s {rec.first_call} repeat the denomination(s) his artificial "
                          f"{call} out of rotation specified (1997 31A2(a): partner passes at his next turn) or "
                          "not (31A2(b): partner passes to the end, Law 26)? (FindingMade same_denomination)",
                          "29C")]
    if case in ("30A", "30B1"):
        return [at.must_pass(x, "next_turn", case)]
    if case == "30B2":
        return [at.must_pass(x, "end_of_auction", "30B2a"),
                at.p(CallsForbidden(seat=partner, calls=(Call.parse("X"), Call.parse("XX")), until="next_turn"),
                     "30B2b")]
    if case in ("31B", "32A"):
        return [at.must_pass(partner, "end_of_auction", case)]
    readings = PARTNER_PASSES_1997.get((case, ruling))
    return [at.must_pass(partner, readings[0], readings[1])] if readings else []


PARTNER_PASSES_1997: dict[tuple[str, CallRuling | None], tuple[str, str]] = {
    ("31A", CallRuling.COOR_SAME_STRAIN): ("next_turn", "31A2a"),
    ("31A", CallRuling.COOR_OTHER): ("end_of_auction", "31A2b"),
    ("32B", CallRuling.COOR_RHO_ACTED): ("end_of_auction", "32B2"),
    ("32B", CallRuling.COOR_SAME_CALL): ("end_of_auction", "32B2"),
    ("32B", CallRuling.COOR_OTHER): ("end_of_auction", "32B2"),
}
"""1997: partner's pass after a refused call out of rotation, by (case, ruling): until when, and the Law."""


# -- words of the other vocabularies -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.CALL_OUT_OF_ROTATION: "call out of rotation",
}
"""How the irregularity of this family's rules (``IrregularityKind``: 29 to 32) reads for people."""
