"""Command-side checks: what the ledger refuses before anything is written.

Only what cannot physically happen at a table is refused (a card the seat
does not hold, a second BoardOpened, an event before BoardOpened). An
irregular action that can happen at a real table (a call out of turn, a card
played out of turn, a revoke) is never refused: it is stored and ruled on.
"""

from __future__ import annotations

from ledger import events as ev
from ledger.bridge import Card, Seat
from ledger.errors import BadInput

# Facts whose card must still be in the seat's hand.
_CARD_IN_HAND = (ev.CardPlayed, ev.LeadFaceDown, ev.CardHeld, ev.CardDropped, ev.CardNamed)


def check_fact(state, event: ev.Event) -> None:
    """Raise :class:`BadInput` if ``event`` cannot be appended to a stream in ``state``."""
    if state is None:
        if not isinstance(event, ev.BoardOpened):
            raise BadInput("the first event of a stream must be BoardOpened", field="type",
                           value=event.TYPE)
        return
    if isinstance(event, ev.BoardOpened):
        raise BadInput("the board is already opened (BoardOpened comes once, first)", field="type",
                       value=event.TYPE)
    if isinstance(event, _CARD_IN_HAND):
        _check_holds(state, event.seat, event.card, event.TYPE)  # type: ignore[attr-defined]
    elif isinstance(event, ev.CardWithdrawn):
        _check_dealt(state, event.seat, event.card, event.TYPE)


def _check_dealt(state, seat: Seat, card: Card, type_: str) -> None:
    holder = state.board.deal.holder(card)
    if holder is not seat:
        raise BadInput(f"{seat} was not dealt {card} (it is {holder}'s card)", field="card",
                       value=str(card), event_type=type_)


def _check_holds(state, seat: Seat, card: Card, type_: str) -> None:
    _check_dealt(state, seat, card, type_)
    if not state.holds(seat, card):
        played = next((p.seq for t in state.tricks for p in t.cards if p.card == card), None)
        when = f" (seq {played})" if played is not None else ""
        raise BadInput(f"{card} of {seat} was already played{when}", field="card", value=str(card),
                       event_type=type_)
