"""Random complete legal boards, for the benchmark and the property tests.

The generator is written independently of the projection (it keeps its own
auction and trick bookkeeping) so that the tests compare two implementations:
a board it makes must fold to the contract, the tricks and the Law 77 score it
predicts.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from ledger.bridge import DECK, RANKS, SEATS, Deal, Seat, dealer_for, vulnerability_for
from ledger.scoring import duplicate_score

_STRAINS = ("C", "D", "H", "S", "NT")


@attrs.frozen
class SimulatedBoard:
    facts: list[dict[str, Any]]
    contract: str  # "4S" or "Pass"
    risk: str
    declarer: str | None
    tricks: int | None  # declarer's tricks
    score_ns: int


def random_deal(rng: random.Random) -> Deal:
    cards = list(DECK)
    rng.shuffle(cards)
    return Deal({seat: frozenset(cards[i * 13:(i + 1) * 13]) for i, seat in enumerate(SEATS)})


def random_auction(rng: random.Random, dealer: Seat, pass_out: float = 0.05) -> list[tuple[Seat, str]]:
    """A legal auction: sufficient bids, doubles of an opponent's bid,
    redoubles of an opponent's double, closed by three passes (or four)."""
    calls: list[tuple[Seat, str]] = []
    seat = dealer
    if rng.random() < pass_out:
        return [(dealer.next(i), "Pass") for i in range(4)]
    last_bid: tuple[int, int] | None = None  # (level, strain index)
    last_bidder: Seat | None = None
    risk = ""
    passes = 0
    bids_made = 0
    while True:
        options = ["Pass"] * 3
        if last_bid is None or last_bid < (7, 4):
            options += ["bid"] * (4 if bids_made < 3 else 1)
        if last_bid is not None and last_bidder is not None and last_bidder.side is not seat.side:
            if risk == "":
                options.append("X")
        if risk == "X" and last_bidder is not None and last_bidder.side is seat.side:
            options.append("XX")
        if last_bid is None and passes == 3:
            options = ["bid"]  # keep boards mostly played; pass-outs come from pass_out
        choice = rng.choice(options)
        if choice == "bid":
            lo = 0 if last_bid is None else (last_bid[0] - 1) * 5 + last_bid[1] + 1
            hi = min(34, lo + 6)
            pick = rng.randint(lo, hi)
            level, strain = pick // 5 + 1, pick % 5
            last_bid, last_bidder, risk, passes = (level, strain), seat, "", 0
            bids_made += 1
            calls.append((seat, f"{level}{_STRAINS[strain]}"))
        elif choice in ("X", "XX"):
            risk, passes = choice, 0
            calls.append((seat, choice))
        else:
            passes += 1
            calls.append((seat, "Pass"))
            if last_bid is not None and passes == 3:
                return calls
        seat = seat.next()


def winning_seat(cards: list[tuple[Seat, str]], trump: str | None) -> Seat:
    led = cards[0][1][0]

    def key(item: tuple[Seat, str]) -> tuple[int, int]:
        suit, rank = item[1][0], RANKS.index(item[1][1])
        if suit == trump:
            return (2, rank)
        return (1, rank) if suit == led else (0, 0)

    return max(cards, key=key)[0]


def random_board(rng: random.Random, *, tournament: str = "bench", board: int = 1,
                 table: str = "1", laws: str = "2017", pass_out: float = 0.05) -> SimulatedBoard:
    """A complete board played without irregularity, as spec facts."""
    deal = random_deal(rng)
    dealer, vul = dealer_for(board), vulnerability_for(board)
    facts: list[dict[str, Any]] = [{
        "type": "BoardOpened", "tournament": tournament, "board": board, "table": table,
        "dealer": str(dealer), "vulnerability": str(vul), "deal": deal.to_pbn(), "laws": laws,
    }]
    auction = random_auction(rng, dealer, pass_out)
    facts += [{"type": "CallPlaced", "seat": str(s), "call": c} for s, c in auction]
    bids = [(s, c) for s, c in auction if c[0].isdigit()]
    if not bids:
        return SimulatedBoard(facts, "Pass", "", None, None, 0)
    final_seat, final = bids[-1]
    level, strain = int(final[0]), final[1:]
    after = [c for s, c in auction[auction.index((final_seat, final)) + 1:]]
    risk = "XX" if "XX" in after else ("X" if "X" in after else "")
    declarer = next(s for s, c in bids if c[1:] == strain and s.side is final_seat.side)
    trump = None if strain == "NT" else strain
    hands = {seat: [str(c) for c in deal.hand(seat)] for seat in SEATS}
    leader = declarer.lho
    won = 0
    for _ in range(13):
        trick: list[tuple[Seat, str]] = []
        for i in range(4):
            seat = leader.next(i)
            hand = hands[seat]
            if trick:
                follow = [c for c in hand if c[0] == trick[0][1][0]]
                pool = follow or hand
            else:
                pool = hand
            card = rng.choice(sorted(pool))
            hand.remove(card)
            trick.append((seat, card))
            facts.append({"type": "CardPlayed", "seat": str(seat), "card": card})
        leader = winning_seat(trick, trump)
        won += leader.side is declarer.side
    score = duplicate_score(level, strain, risk, vul.is_vulnerable(declarer.side), won)
    score_ns = score if declarer.side.value == "NS" else -score
    return SimulatedBoard(facts, final, risk, str(declarer), won, score_ns)
