"""The table projection: a pure fold of one stream's events into a
:class:`TableState` (spec section 5 via :mod:`projections.document`).

``evolve(state, seq, head, event)`` is one fold step: no I/O, no clock, no
logging; a handler per event type, looked up in :data:`HANDLERS`. An event
with no handler yet is kept in ``irregularities`` as ``unprocessed`` (facts
and rulings the Law modules do not decide yet) or passes through without
effect (procedure records such as an explanation or the director's call).
Replaying old history can never fail: the fold never raises on a stored event.
"""

from __future__ import annotations

from functools import reduce
from typing import Callable, Iterable

import attrs

from ledger import events as ev
from projections import auction, claims, play
from projections.state import Irregularity, TableState, initial_hands

Handler = Callable[[TableState, int, ev.Event], TableState]


def _opened(board: ev.BoardOpened, stream: str, seq: int, head: str) -> TableState:
    board = board.completed()
    return TableState(stream=stream, seq=seq, head=head, board=board, hands=initial_hands(board))


def _result_recorded(state: TableState, seq: int, event: ev.Event) -> TableState:
    return attrs.evolve(state, result_recorded=seq)


def _no_effect(state: TableState, seq: int, event: ev.Event) -> TableState:
    return state


def _unprocessed(state: TableState, seq: int, event: ev.Event) -> TableState:
    offender = getattr(event, "seat", None)
    detail = f"{event.TYPE} is stored as logged; no ruling on it yet"
    return state.add_irregularity(Irregularity(
        "unprocessed", seq, event.TYPE, offender=str(offender) if offender else None, detail=detail))


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.CallPlaced: auction.on_call_placed,  # type: ignore[dict-item]
    ev.CardPlayed: play.on_card_played,  # type: ignore[dict-item]
    ev.LeadFaceDown: play.on_lead_face_down,  # type: ignore[dict-item]
    ev.LeadFaced: play.on_lead_faced,  # type: ignore[dict-item]
    ev.ClaimMade: claims.on_claim_made,  # type: ignore[dict-item]
    ev.ClaimAgreed: claims.on_claim_agreed,  # type: ignore[dict-item]
    ev.ClaimDisputed: claims.on_claim_disputed,  # type: ignore[dict-item]
    ev.ClaimRuled: claims.on_claim_ruled,  # type: ignore[dict-item]
    ev.DirectorReviewRequired: claims.on_review_required,  # type: ignore[dict-item]
    ev.ResultRecorded: _result_recorded,
    # Records that change nothing on the table.
    ev.ExplanationGiven: _no_effect,
    ev.AttentionDrawn: _no_effect,
    ev.DirectorCalled: _no_effect,
    ev.RightsReserved: _no_effect,
    ev.HandsReturned: _no_effect,
    ev.NextBoardStarted: _no_effect,
    ev.RoundEnded: _no_effect,
    ev.RulingGiven: _no_effect,
}


def evolve(state: TableState | None, stream: str, seq: int, head: str, event: ev.Event) -> TableState:
    """One fold step: the state after ``event`` (stored at ``seq`` with hash ``head``)."""
    if state is None:
        if isinstance(event, ev.BoardOpened):
            return _opened(event, stream, seq, head)
        raise ValueError(f"stream {stream!r} does not start with BoardOpened (seq {seq} is {event.TYPE})")
    handler = HANDLERS.get(type(event), _unprocessed)
    if isinstance(event, ev.BoardOpened):
        handler = _unprocessed  # a second BoardOpened is refused on append; kept if ever stored
    new = handler(state, seq, event)
    return attrs.evolve(new, seq=seq, head=head)


def fold(stream: str, items: Iterable[tuple[int, str, ev.Event]],
         state: TableState | None = None) -> TableState | None:
    """Fold ``(seq, hash, event)`` items onto ``state`` (a replay is a reduce)."""
    return reduce(lambda s, item: evolve(s, stream, item[0], item[1], item[2]), items, state)
