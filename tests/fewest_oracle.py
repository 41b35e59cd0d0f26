"""The first search for ``G(side)`` (``ledger.laws.fewest`` before issue 22's item 2: memo at each
trick's start on normalised hands, equivalent cards merged, a trump lower bound, the narrowest
question first), kept here, outside the package, as the oracle the new search is compared with on
positions of up to five tricks (``tests/test_fewest.py``)."""

from __future__ import annotations

from typing import Iterable, Sequence

from ledger.bridge import RANKS, SUITS, Card, Seat, Side, Suit

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def _code(card: Card) -> int:
    return _SUIT_INDEX[card.suit] * 13 + RANKS.index(card.rank)


def old_fewest_tricks(hands: Sequence[Iterable[Card]], trick: Sequence[tuple[Seat, Card]], to_play: Seat,
                  trump: Suit | None, side: Side) -> int:
    """``G(side)`` from a position: ``hands`` in N E S W order (the cards not yet played), ``trick``
    the cards already on the trick in progress (seat, card) in the order played (empty at a trick's
    start), ``to_play`` the seat whose card is due, ``trump`` the trump suit (None at no-trumps)."""
    masks = [0, 0, 0, 0]
    for i, hand in enumerate(hands):
        for card in hand:
            masks[i] |= 1 << _code(card)
    counts = {bin(m).count("1") for m in masks}
    on_trick = [(s.index, _code(c)) for s, c in trick]
    if len(counts) != 1 and not on_trick:
        raise ValueError("every hand must hold the same number of cards at a trick's start")
    search = _Search(-1 if trump is None else _SUIT_INDEX[trump], side.seats[0].index % 2)
    start, tricks = tuple(masks), (bin(masks[to_play.index]).count("1") + (1 if on_trick else 0))
    target = search.sure(start) if not on_trick else 0
    while target < tricks:  # the narrowest question first: can the side be held to `target`?
        if search.trick(start, to_play.index, tuple(on_trick), target + 1) <= target:
            return target
        target += 1
    return tricks


_SUIT_MASK = [((1 << 13) - 1) << (13 * i) for i in range(4)]


class _Search:
    """Branch and bound over legal plays: :meth:`value` answers the floor when it is below the bound
    it is given, or a lower bound of it otherwise; what is proved is kept per position (``memo``:
    the lowest value proved possible above, the highest proved impossible below)."""

    def __init__(self, trump: int, parity: int) -> None:
        self.trump = trump
        self.parity = parity  # seats with index % 2 == parity belong to the side
        self.memo: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}

    def value(self, hands: tuple[int, ...], leader: int, bound: int) -> int:
        """The floor from a trick's start if it is below ``bound``; else a number >= ``bound``."""
        if not hands[0] and not hands[1] and not hands[2] and not hands[3]:
            return 0
        hands = _normalised(hands)
        key = (hands, leader)
        known = self.memo.get(key)
        if known is None:
            low, high = self.sure(hands), bin(hands[0]).count("1")
        else:
            low, high = known
        if low >= bound or low == high:
            return low
        target = min(bound, high)
        found = self.trick(hands, leader, (), target)
        if found < target:
            low = high = found
        else:
            low = max(low, target)
        self.memo[key] = (low, high)
        return found if found < target else (high if target == high else low)

    def sure(self, hands: tuple[int, ...]) -> int:
        """A lower bound: a trump of the side loses its trick only to a higher trump of an opponent
        played to that trick, each opponent's trump beats at most one (one card of a hand to a
        trick), so a hand of the side wins at least its trumps less those an opponent's higher trump
        can be matched with (a greedy matching, lowest first)."""
        if self.trump < 0:
            return 0
        suit = _SUIT_MASK[self.trump]
        opponents = _ranks((hands[1 - self.parity] | hands[3 - self.parity]) & suit)
        best = 0
        for seat in (self.parity, self.parity + 2):
            mine = _ranks(hands[seat] & suit)
            matched, j = 0, 0
            for rank in mine:  # ascending
                while j < len(opponents) and opponents[j] <= rank:
                    j += 1
                if j < len(opponents):
                    matched += 1
                    j += 1
            best = max(best, len(mine) - matched)
        return best

    def trick(self, hands: tuple[int, ...], seat: int, played: tuple[tuple[int, int], ...], bound: int) -> int:
        """The floor with ``played`` on the trick in progress and ``seat`` to play, if below ``bound``:
        every way to complete the trick (one card of each run of equivalent cards), each distinct
        outcome once, those the side does not win first and, among them, those that leave the side
        its lowest cards first."""
        outcomes: dict[tuple[tuple[int, ...], int], int] = {}
        self.complete(hands, seat, played, outcomes)
        ordered = sorted(outcomes.items(), key=lambda item: (item[1], self.strength(item[0][0])))
        best = bound
        for (after, winner), won in ordered:
            if won >= best:
                break
            value = won + self.value(after, winner, best - won)
            if value < best:
                best = value
                if best == 0:
                    break
        return best

    def complete(self, hands: tuple[int, ...], seat: int, played: tuple[tuple[int, int], ...],
                 outcomes: dict[tuple[tuple[int, ...], int], int]) -> None:
        """Every outcome of the trick in progress: (hands after it, winner) -> tricks the side won."""
        if len(played) == 4:
            winner = self.winner(played)
            outcomes[(hands, winner)] = 1 if winner % 2 == self.parity else 0
            return
        hand = hands[seat]
        if played:
            led = played[0][1] // 13
            follow = hand & _SUIT_MASK[led]
            legal = follow if follow else hand
        else:
            legal = hand
        others = 0
        for i in range(4):
            if i != seat:
                others |= hands[i]
        for _, code in played:
            others |= 1 << code
        for code in _representatives(legal, others):
            new = list(hands)
            new[seat] = hand & ~(1 << code)
            self.complete(tuple(new), (seat + 1) % 4, played + ((seat, code),), outcomes)

    def strength(self, hands: tuple[int, ...]) -> int:
        """What the side keeps: the sum of its cards' ranks (a side that sheds its high cards takes
        fewer tricks later)."""
        total = 0
        for seat in (self.parity, self.parity + 2):
            mask = hands[seat]
            code = 0
            while mask:
                if mask & 1:
                    total += code % 13 + (20 if code // 13 == self.trump else 0)
                mask >>= 1
                code += 1
        return total

    def winner(self, played: tuple[tuple[int, int], ...]) -> int:
        led = played[0][1] // 13
        best_seat, best_key = -1, -1
        for seat, code in played:
            suit = code // 13
            key = 100 + code % 13 if suit == self.trump else (50 + code % 13 if suit == led else 0)
            if key > best_key:
                best_seat, best_key = seat, key
        return best_seat


def _ranks(mask: int) -> list[int]:
    """The codes in ``mask``, ascending."""
    out, code = [], 0
    while mask:
        if mask & 1:
            out.append(code)
        mask >>= 1
        code += 1
    return out


def _normalised(hands: tuple[int, ...]) -> tuple[int, ...]:
    """The same position with each suit's remaining cards moved to the top ranks, in order: positions
    that differ only by the ranks already played share one entry of the memo."""
    out = [0, 0, 0, 0]
    for suit in range(4):
        rank = 13 * suit + 12
        for code in range(13 * suit + 12, 13 * suit - 1, -1):
            bit = 1 << code
            for i in range(4):
                if hands[i] & bit:
                    out[i] |= 1 << rank
                    rank -= 1
                    break
    return tuple(out)


def _representatives(legal: int, others: int) -> list[int]:
    """One card of each run of equivalent cards in ``legal``: cards of one suit with no card of
    ``others`` between them (ranks already played are no barrier)."""
    out = []
    previous = -2
    code = 0
    mask = legal
    while mask:
        if mask & 1:
            if previous >= 0 and previous // 13 == code // 13 and not _between(others, previous, code):
                previous = code  # the same run: keep the one already taken
            else:
                out.append(code)
                previous = code
        mask >>= 1
        code += 1
    return out


def _between(others: int, low: int, high: int) -> bool:
    """A card of ``others`` strictly between codes ``low`` and ``high``."""
    span = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return bool(others & span)
