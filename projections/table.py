"""The table projection: a pure fold of one stream's events into a
:class:`TableState` (spec section 5 via :mod:`projections.document`).

``evolve(state, stream, record)`` is one fold step: no I/O, no clock, no
logging; the one owner handler of the event's type, looked up in
:data:`projections.fold.HANDLERS` (the modules imported here register them).
An event no Law module rules on yet (:data:`UNRULED`) is kept in
``irregularities`` as ``unprocessed``; procedure records such as an
explanation pass through without effect.
Replaying old history can never fail: the fold never raises on a stored event.

``fold_log`` is the whole fold, findings and overrides included
(:mod:`projections.resolve`): the state after seq N depends on events 1..N only.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

from ledger import events as ev
from ledger.bridge import Seat
from ledger.hashing import canonical_json
from projections import play, procedure
from projections.derived import carry
from projections.fold import CHOICE_SUITS, EFFECTS, EITHER_DEFENDER_LAWS, HANDLERS, Step, handles, law_of, \
    require_composed
from projections.resolve import Recorded, needs_refold, resolve
from projections.state import (Cap, Choice, DefectiveTrick, Finding, Irregularity, MustPass, Offer, Restriction, Review,
                               TableState, Voided, initial_hands, replace, set_fresh)
from projections.vocab import CallRuling, IrregularityKind

UNRULED: tuple[type[ev.Event], ...] = ()
"""Facts no Law module rules on yet: kept as ``unprocessed`` irregularities."""

def rectification_key(event: ev.Event) -> str:
    """What makes two rectifications the same one: type and data."""
    return f"{event.TYPE}:{canonical_json(event.to_data())}"


def _opened(board: ev.BoardOpened, stream: str, seq: int, head: str) -> TableState:
    board = board.completed()
    return TableState(stream=stream, seq=seq, head=head, board=board, hands=initial_hands(board))


@handles(ev.CallCancelled, ev.CardReturned,  # the fold of the call's or card's record already says so
         ev.ExplanationGiven,  # a record that changes nothing on the table
         ev.DeclarerChanged)  # the option (or the spread) already changed the declarer
def _no_effect(state: TableState, step: Step[ev.Event]) -> TableState:
    return state


@handles(*UNRULED, ev.BoardOpened,  # a second BoardOpened is refused on append
         *ev.TOURNAMENT_EVENTS)  # the register's events are refused in a board's stream (ledger.checks)
def _unprocessed(state: TableState, step: Step[ev.Event]) -> TableState:
    event = step.event
    offender = getattr(event, "seat", None)
    detail = f"{event.TYPE} is stored as logged; no ruling on it yet"
    return state.add_irregularity(Irregularity(
        IrregularityKind.UNPROCESSED, step.seq, event.TYPE, offender=str(offender) if offender else None, detail=detail))


@handles(ev.DirectorReviewRequired)
def _review_required(state: TableState, step: Step[ev.DirectorReviewRequired]) -> TableState:
    event = step.event
    return attrs.evolve(state, review=state.review + (Review(step.seq, event.reason, event.about),))


@handles(ev.FindingMade)
def _finding(state: TableState, step: Step[ev.FindingMade]) -> TableState:
    event = step.event
    about = event.about if isinstance(event.about, int) else -1
    state = attrs.evolve(state, findings=state.findings + (Finding(step.seq, about, event.field, event.value),))
    if event.field == "waiver_cancelled":  # 10B: the director has ruled on the players' waiver
        state = attrs.evolve(state, review=tuple(attrs.evolve(r, resolved=True) if r.about == about
                                                 and r.reason.startswith("10B") else r for r in state.review))
    return state


@handles(ev.EntryVoided)
def _entry_voided(state: TableState, step: Step[ev.EntryVoided]) -> TableState:
    """The voided entry itself is skipped by projections.resolve; this keeps the trace."""
    event = step.event
    about = event.about if isinstance(event.about, int) else -1
    return attrs.evolve(state, voided=state.voided + (Voided(about, step.seq, event.reason),))


@handles(ev.OptionsOffered)
def _options_offered(state: TableState, step: Step[ev.OptionsOffered]) -> TableState:
    event = step.event
    if event.law.endswith(":25B1") and _lho_has_called(state, event.to):
        return state  # 25B1: the LHO's call after the substitution has decided it; nothing left to choose
    offer = Offer(step.seq, event.to, event.options, event.law)
    return attrs.evolve(state, pending=state.pending + (offer,))


_CHANGES_OF_MIND = frozenset({CallRuling.CHANGE_OF_MIND, CallRuling.SUBSTITUTE_ACCEPTED, CallRuling.SUBSTITUTE_REJECTED,
                              CallRuling.SUBSTITUTE_CANCELLED, CallRuling.FIRST_CALL_KEPT, CallRuling.OTHER_CALL})
"""A change of call (25B) and what became of it."""
_SETTLED_BY_LHO = frozenset({CallRuling.SUBSTITUTE_ACCEPTED, CallRuling.SUBSTITUTE_CANCELLED})
"""A change of call the LHO's own call over it settled (2017 25B1 / 25B2; 1997 25B1)."""


def _lho_has_called(state: TableState, lho: Seat) -> bool:
    """The latest change of call by ``lho``'s RHO was settled by ``lho``'s own call over it
    (2017 25B1 accepted / 25B2 not accepted; 1997 25B1 the substitute stands)."""
    rec = next((r for r in reversed(state.calls) if r.seat is lho.rho and r.ruling in _CHANGES_OF_MIND), None)
    return rec is not None and rec.ruling in _SETTLED_BY_LHO


@handles(ev.OptionChosen)
def _option_chosen(state: TableState, step: Step[ev.OptionChosen]) -> TableState:
    seq, event = step.seq, step.event
    offer = next((o for o in state.pending if event.option in o.options and
                  (event.seat is o.to or law_of(o.law) in EITHER_DEFENDER_LAWS
                   and event.seat.side is o.to.side)), None)
    if offer is None:  # refused on append; kept if an override removed the offer since
        return state.add_irregularity(Irregularity(
            IrregularityKind.UNPROCESSED, seq, event.TYPE, offender=str(event.seat),
            detail=f"option {event.option} chosen by {event.seat} with no such option pending"))
    suit = event.suit
    if suit is None:
        default = CHOICE_SUITS.get(law_of(offer.law))  # 50D2a: the suit of the penalty card(s)
        suit = default(state, event.option) if default is not None else None
    choice = Choice(seq, offer.seq, event.seat, event.option, offer.law, suit)
    state = attrs.evolve(state, pending=tuple(o for o in state.pending if o.seq != offer.seq),
                         choices=state.choices + (choice,))
    effect = EFFECTS.get(offer.law.split(":", 1)[1])
    return effect(state, choice) if effect else state


@handles(ev.IrregularityRecorded)
def _irregularity_recorded(state: TableState, step: Step[ev.IrregularityRecorded]) -> TableState:
    event = step.event
    return state.add_irregularity(_defective_read(state, event, step.law)
                                  or Irregularity(event.kind, event.about, event.TYPE,
                                                  offender=event.offender, law=step.law))


def _defective_read(state: TableState, event: ev.IrregularityRecorded, law: str | None) -> Irregularity | None:
    """Spec 1.3 (67): a defective trick's ``IrregularityRecorded``, and 67B1's deemed revoke, carry
    their trick (read from the state's ``defective`` entries, the core's own record of the findings)."""
    if event.kind == IrregularityKind.DEFECTIVE_TRICK:
        d = next((d for d in state.defective if d.seq == event.about), None)
        return Irregularity(event.kind, event.about, event.TYPE, offender=event.offender, law=law,
                            trick=d.trick if d else None)
    if event.kind == IrregularityKind.REVOKE and law_of(law) == "67B1":
        d = next((d for d in state.defective if d.placed == event.about), None)
        return Irregularity(event.kind, event.about, event.TYPE, offender=event.offender, law=law,
                            trick=d.trick if d else None, established=True)
    return None


@handles(ev.PartnerMustPass)
def _must_pass(state: TableState, step: Step[ev.PartnerMustPass]) -> TableState:
    event = step.event
    return attrs.evolve(state, partner_must_pass=state.partner_must_pass + (MustPass(step.seq, event.seat, event.until),))


@handles(ev.ScoreCapped)
def _capped(state: TableState, step: Step[ev.ScoreCapped]) -> TableState:
    event = step.event
    return attrs.evolve(state, caps=state.caps + (Cap(step.seq, event.side, event.max),))


@handles(ev.LeadRestriction)
def _lead_restriction(state: TableState, step: Step[ev.LeadRestriction]) -> TableState:
    event = step.event
    r = Restriction(step.seq, event.seat, event.suit, event.mode, event.lasts)
    return attrs.evolve(state, lead_restrictions=state.lead_restrictions + (r,))


def evolve(state: TableState | None, stream: str, record: Recorded, in_force: bool = True,
           cancelled_by: str | None = None) -> TableState:
    """One fold step: the state after ``record`` (``in_force`` False: cancelled by an override)."""
    event, seq = record.event, record.seq
    if state is None:
        if isinstance(event, ev.BoardOpened):
            require_composed()  # the families' handlers are registered (ledger.laws, the composition root)
            return _opened(event, stream, seq, record.hash)
        raise ValueError(f"stream {stream!r} does not start with BoardOpened (seq {seq} is {event.TYPE})")
    if not in_force:
        cancelled = state.cancelled + (rectification_key(event),) \
            if event.FAMILY == "rectification" and cancelled_by in ("director", "committee") else state.cancelled
        new = replace(state, seq=seq, head=record.hash, cancelled=cancelled)
        carry(state, new)
        return new
    # Every type has its owner (tests/test_structure.py); a type added without one is kept as
    # unprocessed rather than failing: the fold never raises on a stored event.
    new = HANDLERS.get(type(event), _unprocessed)(state, Step(seq, event, record.role, record.law))
    carry(state, new)  # the derived values of the state before (projections.derived)
    rectifications = new.rectifications + ((rectification_key(event), seq),) \
        if event.FAMILY == "rectification" else new.rectifications
    if new is state:  # the handler changed nothing: a copy for the new seq and head
        new = replace(state, seq=seq, head=record.hash, rectifications=rectifications)
        carry(state, new)
        return new
    return _stamp(new, seq, record.hash, rectifications)


def _stamp(fresh: TableState, seq: int, head: str, rectifications: tuple[tuple[str, int], ...]) -> TableState:
    """The fold step's last touch on the state its handlers just built (no one else holds it yet):
    its seq, head and rectifications set in place rather than by one more copy of every field."""
    return set_fresh(fresh, seq=seq, head=head, rectifications=rectifications)


REGISTERED = (play, procedure)
"""The core modules whose import registers the fold's own handlers; the families' are registered
by the composition root (``ledger.laws``), which this module does not import."""


def fold_log(stream: str, records: Sequence[Recorded]) -> TableState | None:
    """The state after the last record: findings applied, overrides honoured."""
    state: TableState | None = None
    if not needs_refold(records):  # no finding, override or void: every record in force as logged
        for record in records:
            state = evolve(state, stream, record)
        return state
    overrides = _override_roles(records)
    resolved = resolve(records)
    found = tuple(DefectiveTrick(r.seq, r.event.trick, r.event.seat) for r, in_force in resolved
                  if in_force and isinstance(r.event, ev.DefectiveTrickFound))
    for record, in_force in resolved:
        state = evolve(state, stream, record, in_force, overrides.get(record.seq))
        if found and state is not None and record is resolved[0][0]:
            # spec 1.3 (67): the stream read again with each defective trick known from the start
            state = attrs.evolve(state, defective=found)
    return state


def _override_roles(records: Sequence[Recorded]) -> dict[int, str]:
    ids = {r.id: r.seq for r in records}
    out = {}
    for r in records:
        if isinstance(r.event, ev.RulingOverridden):
            target = r.event.about if isinstance(r.event.about, int) else ids.get(r.event.about)
            if target is not None:
                out[target] = r.role
    return out


def fold(stream: str, items: Iterable[tuple[int, str, ev.Event]],
         state: TableState | None = None) -> TableState | None:
    """Fold ``(seq, hash, event)`` items onto ``state`` one step at a time
    (facts as the table logged them; findings are applied by ``fold_log``)."""
    for seq, head, event in items:
        state = evolve(state, stream, Recorded(seq, head, f"#{seq}", "table", event))
    return state
