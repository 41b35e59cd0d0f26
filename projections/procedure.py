"""The journal of procedure facts (Laws 9 to 11, 42, 43, 61B, 64B): the facts
the revoke and dummy rules read, kept in ``state.procedure`` by the handler
that owns each of them (decorated with :func:`journalled`)."""

from __future__ import annotations

import attrs

from ledger import events as ev
from ledger.bridge import Seat
from projections.fold import Handler, Step, handles
from projections.state import ProcedureFact, TableState

RECORDED = (ev.AttentionDrawn, ev.DirectorCalled, ev.RevokeInquiry, ev.DummyWarnedDeclarer, ev.DummyViolation,
            ev.RightsReserved, ev.HandsReturned, ev.NextBoardStarted, ev.RoundEnded, ev.ClaimAgreed,
            ev.AdjustedScoreAwarded, ev.RulingGiven, ev.ClaimRuled, ev.DummyIndicatedCard,
            ev.RectificationWaived)
"""Facts the revoke and dummy rules read, kept in ``state.procedure``."""

REVIEW_PREFIXES = ("64C", "62D", "43B", "64A", "45F", "10B")
"""Director reviews of the revoke and dummy rules, answered by the director's ruling (an
adjusted score, a ruling given) logged after them."""

ANSWERS = (ev.AdjustedScoreAwarded, ev.RulingGiven)


def fact(seq: int, event: ev.Event) -> ProcedureFact:
    about = getattr(event, "about", None)
    detail = "" if about is None or isinstance(about, int) else f"about {about}"
    if isinstance(event, ev.DummyWarnedDeclarer):
        about, detail = None, event.about
    elif isinstance(event, ev.DummyViolation):
        detail = event.kind
    elif isinstance(event, ev.NextBoardStarted):
        detail = str(event.side)
    elif isinstance(event, ev.RightsReserved) and event.reason:
        detail = event.reason
    elif isinstance(event, ev.RulingGiven):
        detail = " ".join(event.laws)
    elif isinstance(event, ev.DummyIndicatedCard):
        detail = str(event.card)
    by = getattr(event, "by", None)
    return ProcedureFact(seq, event.TYPE, by if isinstance(by, Seat) else None, getattr(event, "to", None),
                         about if isinstance(about, int) else None, detail)


def record(state: TableState, step: Step[ev.Event]) -> TableState:
    """Journal the fact; the director's ruling answers the revoke and dummy questions asked before it."""
    seq, event = step.seq, step.event
    state = attrs.evolve(state, procedure=state.procedure + (fact(seq, event),))
    if isinstance(event, ANSWERS):
        state = attrs.evolve(state, review=tuple(
            attrs.evolve(r, resolved=True) if r.reason.startswith(REVIEW_PREFIXES) and r.seq < seq else r
            for r in state.review))
    return state


def journalled(handler: Handler) -> Handler:
    """The handler, then the fact journalled (for the owner of a type in :data:`RECORDED`)."""
    def wrapped(state: TableState, step: Step[ev.Event]) -> TableState:
        return record(handler(state, step), step)
    wrapped.__name__ = handler.__name__
    wrapped.__qualname__ = handler.__qualname__
    wrapped.__module__ = handler.__module__
    wrapped.__doc__ = handler.__doc__
    return wrapped


def recorded_only(state: TableState, step: Step[ev.Event]) -> TableState:
    """A procedure fact with no effect but its place in the journal."""
    return record(state, step)


handles(ev.DirectorCalled, ev.HandsReturned, ev.NextBoardStarted, ev.RoundEnded,
        ev.DummyIndicatedCard, ev.RectificationWaived)(recorded_only)
