"""The auction: which calls are legal in turn (Laws 18, 19), when the auction
ends (Law 22), the contract and its declarer (Law 22, definitions). Pure
functions of the auction; the fold of call facts is ``ledger.laws.calls``.
"""

from __future__ import annotations

from ledger.bridge import Call, Risk, Seat
from projections.state import AuctionCall, Contract


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
