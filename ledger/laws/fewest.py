"""``G(side)``: the fewest of the remaining tricks a side takes over every sequence of legal plays
(LAWS-DIGEST 15.1, LEDGER-SPEC 10.B), the one mechanical tool of Laws 69B and 71.

From a position (the cards each seat still holds, the trick in progress, the seat to play, the
trump suit), every player follows suit when he can and is free otherwise; everybody, the side itself
included, plays so that the side takes as few tricks as possible. A trick the side takes on every such
sequence "could not be lost by any normal play" (71B): careless play is normal play, and no play at
all loses it. Anything above this floor is the director's (Law 70's "normal play"); this module never
guesses it.

Everybody works together against the side, so ``G`` is no game between two parties but a shortest
path: from the position, each trick a step costing 1 when the side wins it and 0 otherwise, to the
end of the play. The search is exact:

* a position is packed in one integer, the four hands side by side (52 bits each), and **closed
  up** at each trick's start: each suit's remaining cards sit at its top ranks, so positions that
  differ only by the ranks already played are one position (the transposition table's key: the
  remaining cards, the leader, and the tricks so far as the path's cost);
* **equivalent cards** (one hand's cards adjacent in a suit once closed up: no card of another hand
  between them, nor of the trick in progress) are tried once, the lowest standing for its run;
* positions are taken **cheapest first** (a bucket queue on the side's tricks so far plus a lower
  bound of the tricks still to come: 0-1 breadth first search, A* with a consistent bound), so each
  position is expanded once and the first end of play reached is the answer; within a bucket the
  last position found is taken first (depth first, to reach an end quickly);
* the **lower bound** is the larger of three, each consistent (it never falls by more than a trick
  costs, which is what makes the first visit of a position its cheapest): the side's sure trump
  tricks (a trump of one hand loses only to a higher trump of an opponent played to the same
  trick, each opponent's trump beats at most one: a greedy matching); and, when the opponents
  hold no trump, the tricks a hand of the side whose every card tops the opponents' wins before it
  can discard, and the tricks the side wins while every suit the opponents may lead is guarded
  (one hand of the side holding cards of it all above theirs);
* the tricks the side wins without a trump wait for the next bucket (when the bound is the
  trumps'): the last bucket is left as soon as an end of play is reached, so most are never
  generated;
* the last trick is played out directly (every card is forced).

Its cost grows with the number of positions reachable while the side takes fewer than ``G`` tricks:
at most ``(n!)^4`` card orders for ``n`` tricks, far fewer after following suit and the reductions;
the most at no-trumps when the side holds most of the winners and the bounds do not see it. Five
tricks take at most about 15 ms of CPU time, six about 30 ms, seven 110 ms (``cli.py bench
--claim-floor``, README "How the ledger decides claims"); the
engine computes it up to :data:`EXACT_LIMIT` tricks and asks the director beyond
(``DirectorReviewRequired`` with the same Law).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from ledger.bridge import SUITS, Card, Seat, Side, Suit

EXACT_LIMIT = 5
"""The engine computes ``G`` exactly when at most this many tricks remain (the spec's floor)."""

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_HAND = 52
"""Bits per hand in a packed position: the hands N E S W side by side, 13 bits a suit (S H D C),
the lowest bit of a suit its lowest rank."""
_ALL = (1 << _HAND) - 1
_SUIT_OF = [code // 13 for code in range(52)]
_SUIT_MASK = [0x1FFF << (13 * s) for s in range(4)]
_BOTTOMS = sum(1 << (13 * s) for s in range(4))


def _four(mask: int) -> int:
    """``mask`` repeated in the four hands of a packed position."""
    return mask | mask << _HAND | mask << (2 * _HAND) | mask << (3 * _HAND)


_BELOW = [((1 << code) - 1) & _SUIT_MASK[code // 13] for code in range(52)]
_BELOW4 = [_four(below) for below in _BELOW]
_KEEP4 = [_four(_ALL & ~below & ~(1 << code)) for code, below in enumerate(_BELOW)]
_BIT = [[1 << (_HAND * seat + code) for code in range(52)] for seat in range(4)]


def fewest_tricks(hands: Sequence[Iterable[Card]], trick: Sequence[tuple[Seat, Card]], to_play: Seat,
                  trump: Suit | None, side: Side) -> int:
    """``G(side)`` from a position: ``hands`` in N E S W order (the cards not yet played), ``trick``
    the cards already on the trick in progress (seat, card) in the order played (empty at a trick's
    start), ``to_play`` the seat whose card is due, ``trump`` the trump suit (None at no-trumps)."""
    held = [set(hand) for hand in hands]
    if len({len(hand) for hand in held}) != 1 and not trick:
        raise ValueError("every hand must hold the same number of cards at a trick's start")
    codes = _closed_up_codes([card for hand in held for card in hand] + [card for _, card in trick])
    position = 0
    for seat, hand in enumerate(held):
        for card in hand:
            position |= _BIT[seat][codes[card]]
    search = _Search(-1 if trump is None else _SUIT_INDEX[trump], side.seats[0].index % 2)
    cards = len(held[to_play.index])
    if not trick:
        return search.shortest({position << 2 | to_play.index: 0}, cards, cards)
    starts: dict[int, int] = {}
    search.complete(position, to_play.index, [(seat.index, codes[card]) for seat, card in trick], starts)
    return search.shortest(starts, cards - 1, cards)


def _closed_up_codes(cards: list[Card]) -> dict[Card, int]:
    """Each card's code in the closed-up layout: a suit's cards (held or on the trick in progress)
    at its top ranks, in order."""
    codes: dict[Card, int] = {}
    for suit in SUITS:
        ranked = sorted({card for card in cards if card.suit is suit}, key=lambda card: -card.strength)
        top = 13 * _SUIT_INDEX[suit] + 12
        for i, card in enumerate(ranked):
            codes[card] = top - i
    return codes


def _close_up(position: int, codes: Iterable[int]) -> int:
    """The packed position once the cards at ``codes`` are gone (played to a trick), each suit's
    remaining cards moved up to fill their places, so that a suit's cards always sit at its top ranks
    and positions that differ only by the ranks already played are one position."""
    for code in sorted(codes):  # the lowest first: closing up below a card leaves higher ones in place
        position = (position & _KEEP4[code]) | ((position & _BELOW4[code]) << 1)
    return position


def _runs(hand: int) -> int:
    """The lowest card of each run of equivalent cards of ``hand`` (closed up at the trick's start:
    cards adjacent in a suit have no card of another hand between them, and the cards of the trick in
    progress keep their places until the trick ends)."""
    return hand & ~((hand << 1) & ~_BOTTOMS)


def _bits(mask: int) -> list[int]:
    """The codes in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=1 << 16)
def _sure_trumps(first: int, second: int, opponents: int) -> int:
    """The side's sure trump tricks: for the better of its two hands (one card a trick, so one hand's
    trumps win distinct tricks), its trumps less those an opponent's higher trump can be matched with
    (each opponent's trump beats at most one; a greedy matching, lowest first, is a largest one)."""
    theirs = _bits(opponents)
    best = 0
    for mine in (_bits(first), _bits(second)):
        matched, j = 0, 0
        for code in mine:
            while j < len(theirs) and theirs[j] <= code:
                j += 1
            if j < len(theirs):
                matched += 1
                j += 1
        best = max(best, len(mine) - matched)
    return best


class _Search:
    """A shortest path over tricks (the side's tricks its cost) from the position to the end of play:
    a bucket queue on the cost so far plus a lower bound of the tricks still to come; positions (packed,
    closed up, shifted left twice with the leader in the low bits) expanded once each."""

    def __init__(self, trump: int, parity: int) -> None:
        self.trump = trump
        self.parity = parity  # seats with index % 2 == parity belong to the side
        # a card's power on a trick led in each suit: trumps above the suit led, discards nothing
        self.power = [[code + 64 if _SUIT_OF[code] == trump else (code if _SUIT_OF[code] == led else -1)
                       for code in range(52)] for led in range(4)]

    def shortest(self, starts: dict[int, int], cards: int, tricks: int) -> int:  # noqa: C901 (the hot loop, inline for speed: bench --claim-floor)
        """The fewest tricks for the side from ``starts`` (positions at a trick's start with
        ``cards`` cards a hand -> the side's tricks on the way there), ``tricks`` the most it
        can take.

        A position is expanded in two phases: first every way to play the next trick except those
        the side wins without playing a trump (so its sure trump tricks cannot have fallen: those
        outcomes cost one more than the position's bucket), then, from the next bucket, those. The
        last bucket is left as soon as an end is reached, so most second phases are never run."""
        if cards == 0:
            return min(starts.values())
        if cards == 1:
            return min(g + self.last(key) for key, g in starts.items())
        best = tricks
        cost: dict[int, int] = {}
        buckets: list[list[tuple[int, int, int]]] = [[] for _ in range(tricks + 2)]
        for key, g in starts.items():
            f = g + max(self.sure(key >> 2), self.masters(key))
            if f < best and g < cost.get(key, best):
                cost[key] = g
                buckets[f].append((key, cards, 0))
        done: set[int] = set()
        parity, trump, power_by_suit, sure, masters = self.parity, self.trump, self.power, self.sure, self.masters
        mastered: dict[int, int] = {}  # the bound from the masters by key (position and leader)
        keep, below = _KEEP4, _BELOW4
        trump_bits = _four(_SUIT_MASK[trump]) if trump >= 0 else 0
        known: dict[int, int] = {}  # the sure trump tricks by the trumps in the four hands
        listed: dict[int, list[int]] = {}

        def bits(mask: int) -> list[int]:
            found = listed.get(mask)
            if found is None:
                found = listed[mask] = _bits(mask)
            return found

        for f in range(tricks):
            if f >= best:
                break
            bucket = buckets[f]
            while bucket:
                key, held, phase = bucket.pop()
                if not phase:
                    if key in done:
                        continue
                    done.add(key)
                g = cost[key]
                position, leader = key >> 2, key & 3
                held -= 1
                seats = (leader, (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3)
                hands = [(position >> (_HAND * seat)) & _ALL for seat in seats]
                bit0, bit1, bit2, bit3 = (_BIT[seat] for seat in seats)
                ours = leader & 1 == parity  # the leader and the third hand are the side's
                deferred = False
                # the side's tricks won without a trump wait for the next bucket only when the bound
                # is the trumps' (the masters' bound may fall by one when the side wins a trick)
                lead_bound = mastered.get(key, -1)
                if lead_bound < 0:
                    lead_bound = mastered[key] = masters(key)
                defer = phase or not lead_bound or lead_bound <= sure(position)
                hand1, hand2, hand3 = hands[1], hands[2], hands[3]
                for lead in bits(_runs(hands[0])):
                    suit = _SUIT_OF[lead]
                    power = power_by_suit[suit]
                    mask = _SUIT_MASK[suit]
                    plays1 = bits(_runs((hand1 & mask) or hand1))
                    plays2 = bits(_runs((hand2 & mask) or hand2))
                    plays3 = bits(_runs((hand3 & mask) or hand3))
                    after0 = position ^ bit0[lead]
                    top0 = power[lead]
                    for card1 in plays1:
                        after1 = after0 ^ bit1[card1]
                        top1, win1 = (power[card1], 1) if power[card1] > top0 else (top0, 0)
                        for card2 in plays2:
                            after2 = after1 ^ bit2[card2]
                            top2, win2 = (power[card2], 2) if power[card2] > top1 else (top1, win1)
                            for card3 in plays3:
                                win = 3 if power[card3] > top2 else win2
                                won = 1 if (win & 1 == 0) == ours else 0
                                if won:
                                    trumped = (_SUIT_OF[lead] == trump or _SUIT_OF[card2] == trump) if ours \
                                        else (_SUIT_OF[card1] == trump or _SUIT_OF[card3] == trump)
                                    if trumped == phase and defer:  # a first phase's outcome, or a second's
                                        deferred = True
                                        continue
                                elif phase:
                                    continue
                                total = g + won
                                after = after2 ^ bit3[card3]
                                if held == 1:
                                    total += self.last_of(after, seats[win])
                                    if total < best:
                                        best = total
                                        if best <= f:
                                            return best
                                    continue
                                low, second, third, high = sorted((lead, card1, card2, card3))
                                after = (after & keep[low]) | ((after & below[low]) << 1)  # _close_up
                                after = (after & keep[second]) | ((after & below[second]) << 1)
                                after = (after & keep[third]) | ((after & below[third]) << 1)
                                after = (after & keep[high]) | ((after & below[high]) << 1)
                                next_key = after << 2 | seats[win]
                                if total >= cost.get(next_key, best):
                                    continue  # reached already at no greater cost (most outcomes are)
                                if trump >= 0:
                                    trumps = after & trump_bits
                                    bound = known.get(trumps, -1)
                                    if bound < 0:
                                        bound = known[trumps] = sure(after)
                                else:
                                    bound = 0
                                lead_bound = mastered.get(next_key, -1)
                                if lead_bound < 0:
                                    lead_bound = mastered[next_key] = masters(next_key)
                                bound = total + (lead_bound if lead_bound > bound else bound)
                                if bound >= best:
                                    continue
                                cost[next_key] = total
                                buckets[bound].append((next_key, held, 0))
                if deferred and not phase:
                    buckets[f + 1].append((key, held + 1, 1))
        return best

    def sure(self, position: int) -> int:
        """A lower bound of the side's tricks still to come: its sure trump tricks (0 at no-trumps).
        It never falls by more than a trick costs (a trump lost went to a higher trump it was
        matched with), so A* expands each position first at its cheapest."""
        if self.trump < 0:
            return 0
        shift = 13 * self.trump
        parity = self.parity
        first = (position >> (shift + _HAND * parity)) & 0x1FFF
        second = (position >> (shift + _HAND * (parity + 2))) & 0x1FFF
        theirs = ((position >> (shift + _HAND * (1 - parity)))
                  | (position >> (shift + _HAND * (3 - parity)))) & 0x1FFF
        return _sure_trumps(first, second, theirs)

    def masters(self, key: int) -> int:  # noqa: C901 (a bound per position, inline for speed)
        """A lower bound of the side's tricks still to come from its cards that top the opponents'
        in their suits (0 when an opponent holds a trump: he might ruff them); the larger of two.

        A hand of the side "masters" a suit when it holds cards of it all above the opponents':
        following suit with one, it wins the trick for the side. A trick led in a suit the
        opponents do not hold is the side's anyway.

        * One hand mastering every suit the opponents hold wins each trick it follows suit to, and
          can discard (on an opponents' trick, or on its partner's lead of a suit only the side
          holds) only once void in a suit another hand holds, which it reaches only by following
          suit: the side wins at least the fewest cards the hand holds in such a suit another hand
          holds more of (every trick, when there is none).
        * When every suit the opponents hold is mastered by a hand of the side, or the side is on
          lead and every such suit it holds is, the side wins the trick and keeps the lead; that
          lasts at least as long as the master of a suit whose other hand of the side also holds
          it keeps a card of it (one card a trick): the fewest such cards (every trick, when none).

        Each falls by one at most a trick, and while it is above 0 the side wins every trick: it is
        consistent. And when the side is on lead with a hand whose every card tops the other three
        hands' cards of its suit (the partner holding no trump to ruff with where he is void), it
        wins every trick (:meth:`runs_away`)."""
        position = key >> 2
        parity = self.parity
        first = (position >> (_HAND * parity)) & _ALL
        second = (position >> (_HAND * (parity + 2))) & _ALL
        left = (position >> (_HAND * (1 - parity))) & _ALL
        right = (position >> (_HAND * (3 - parity))) & _ALL
        theirs = left | right
        if self.trump >= 0 and theirs & _SUIT_MASK[self.trump]:
            return 0
        cards = first.bit_count()
        on_lead = key & 1 == parity
        if on_lead and self.runs_away(position, key & 3, first if key & 3 == parity else second,
                                      second if key & 3 == parity else first):
            return cards
        by_first = by_second = guarded = cards  # -1 once the reading fails
        for shift in (0, 13, 26, 39):
            opposed = (theirs >> shift) & 0x1FFF
            a, b = (first >> shift) & 0x1FFF, (second >> shift) & 0x1FFF
            if not opposed:
                # a suit only the side holds: the partner leading it lets a hand void in it discard
                # (a master too) on a trick the side wins: a hand reaches that only after following
                # to as many tricks of it as it holds cards of it
                a_length, b_length = a.bit_count(), b.bit_count()
                if by_first >= 0 and b_length > a_length and a_length < by_first:
                    by_first = a_length
                if by_second >= 0 and a_length > b_length and b_length < by_second:
                    by_second = b_length
                continue
            a_masters, b_masters = a and opposed < a & -a, b and opposed < b & -b
            a_length, b_length = a.bit_count(), b.bit_count()
            longest = max(((left >> shift) & 0x1FFF).bit_count(), ((right >> shift) & 0x1FFF).bit_count())
            if by_first >= 0:
                if not a_masters:
                    by_first = -1
                elif max(b_length, longest) > a_length and a_length < by_first:
                    by_first = a_length
            if by_second >= 0:
                if not b_masters:
                    by_second = -1
                elif max(a_length, longest) > b_length and b_length < by_second:
                    by_second = b_length
            if guarded >= 0:
                if not a_masters and not b_masters:
                    if not on_lead or a or b:
                        guarded = -1
                elif a and not a_masters:
                    guarded = min(guarded, b_length)
                elif b and not b_masters:
                    guarded = min(guarded, a_length)
        return max(by_first, by_second, guarded, 0)

    def runs_away(self, position: int, leader: int, hand: int, partner: int) -> bool:
        """The side's ``leader`` wins every remaining trick: each of his cards tops every other
        card of its suit (the opponents hold no trump, the caller checked), and his partner cannot
        ruff one (holding a trump, he must hold as many cards as the leader of each other suit: void
        in it first, he could ruff and take the lead): whatever he leads wins, the lead stays with
        him, and nothing here ever changes."""
        others = 0
        for seat in range(4):
            if seat != leader:
                others |= (position >> (_HAND * seat)) & _ALL
        ruffs = self.trump >= 0 and partner & _SUIT_MASK[self.trump]
        for suit in range(4):
            shift = 13 * suit
            held = (hand >> shift) & 0x1FFF
            if not held:
                continue
            if (others >> shift) & 0x1FFF >= held & -held:
                return False
            if ruffs and suit != self.trump and ((partner >> shift) & 0x1FFF).bit_count() < held.bit_count():
                return False  # the partner, void in it before the leader, could ruff: the lead would pass
        return True

    def last(self, key: int) -> int:
        """The last trick from a key (position and leader)."""
        return self.last_of(key >> 2, key & 3)

    def last_of(self, position: int, leader: int) -> int:
        """The last trick, every card forced: 1 if the side wins it."""
        played = [(seat, ((position >> (_HAND * seat)) & _ALL).bit_length() - 1) for seat in range(4)]
        power = self.power[_SUIT_OF[played[leader][1]]]
        winner = max(played, key=lambda pc: power[pc[1]])[0]
        return 1 if winner % 2 == self.parity else 0

    def complete(self, position: int, seat: int, played: list[tuple[int, int]], out: dict[int, int]) -> None:
        """Every way to complete the trick in progress (``played`` on it, ``seat`` to play): (position
        after it, shifted, | winner) -> 1 if the side wins it."""
        if len(played) == 4:
            power = self.power[_SUIT_OF[played[0][1]]]
            winner = max(played, key=lambda pc: power[pc[1]])[0]
            key = _close_up(position, [code for _, code in played]) << 2 | winner
            won = 1 if winner % 2 == self.parity else 0
            if won < out.get(key, 2):
                out[key] = won
            return
        hand = (position >> (_HAND * seat)) & _ALL
        if played:
            hand = (hand & _SUIT_MASK[_SUIT_OF[played[0][1]]]) or hand
        for code in _bits(_runs(hand)):
            self.complete(position ^ _BIT[seat][code], (seat + 1) & 3, played + [(seat, code)], out)


def brute_force(hands: Sequence[Iterable[Card]], trick: Sequence[tuple[Seat, Card]], to_play: Seat,
                trump: Suit | None, side: Side) -> int:
    """The same floor by plain enumeration of every legal sequence, no reduction, no memo: the
    reference the property tests compare :func:`fewest_tricks` with (small positions only)."""
    held = [set(h) for h in hands]
    side_seats = side.seats

    def winner(cards: list[tuple[Seat, Card]]) -> Seat:
        led = cards[0][1].suit

        def key(pc: tuple[Seat, Card]) -> int:
            c = pc[1]
            if trump is not None and c.suit is trump:
                return 100 + c.strength
            return 50 + c.strength if c.suit is led else 0
        return max(cards, key=key)[0]

    def go(seat: Seat, cards: list[tuple[Seat, Card]]) -> int:
        if len(cards) == 4:
            w = winner(cards)
            won = 1 if w in side_seats else 0
            if not any(held[i] for i in range(4)):
                return won
            return won + go(w, [])
        hand = held[seat.index]
        follow = [c for c in hand if cards and c.suit is cards[0][1].suit]
        legal = follow or list(hand)
        best = 14
        for c in legal:
            hand.remove(c)
            best = min(best, go(seat.lho, cards + [(seat, c)]))
            hand.add(c)
        return best

    if not trick and not any(held):
        return 0
    return go(to_play, list(trick))
