"""The auction: which calls are legal in turn (Laws 18, 19), when the auction
ends (Law 22), the contract and its declarer (Law 22, definitions).

A call the projection cannot rule on yet (out of turn, insufficient,
inadmissible, after the auction closed, or an accident) is kept as an
``unprocessed`` irregularity and has no effect on the auction.
"""

from __future__ import annotations

import attrs

from ledger.bridge import Call, Risk, Seat
from ledger.events import CallPlaced
from projections.state import (AUCTION, ENDED, OPENING_LEAD, AuctionCall, Contract, Irregularity,
                               Result, TableState)

# The FFB regulation (art. 57.3) is the test of a call made in both editions:
# the 2017 Laws leave the method to the Regulating Authority (2017 Law 18F).
CALL_MADE = "FFB:57.3"


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


def on_call_placed(state: TableState, seq: int, ev: CallPlaced) -> TableState:
    def unprocessed(detail: str) -> TableState:
        return state.add_irregularity(Irregularity(
            "unprocessed", seq, ev.TYPE, offender=str(ev.seat), detail=detail))

    if ev.intentional is False:
        return unprocessed(f"{ev.call} by {ev.seat} logged as not intentional (accident)")
    if state.phase != AUCTION:
        return unprocessed(f"{ev.call} by {ev.seat} after the auction closed")
    if ev.seat is not state.turn:
        return unprocessed(f"{ev.call} by {ev.seat} out of turn ({state.turn} to call)")
    reason = why_illegal(state.auction, ev.seat, ev.call)
    if reason is not None:
        return unprocessed(f"{reason} by {ev.seat}")
    auction = state.auction + (AuctionCall(seq, ev.seat, ev.call, CALL_MADE),)
    if not auction_closed(auction):
        return attrs.evolve(state, auction=auction)
    contract = final_contract(auction)
    if contract is None:
        passed_out = Result("Pass", None, "", None, 0, state.cite("77"))
        return attrs.evolve(state, auction=auction, phase=ENDED, result=passed_out)
    return attrs.evolve(state, auction=auction, contract=contract, phase=OPENING_LEAD)
