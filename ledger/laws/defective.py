"""Defective tricks: Law 67 (67A, 67B), with 58B4 and 2017 14B1 (spec 1.3, LAWS-DIGEST 15.8).

A trick is defective when a player contributed no card to it (or more than one). The director's
finding ``DefectiveTrickFound {trick: n, seat: X}`` makes the fold read the stream again from the
board's start with trick ``n`` complete without ``X``'s card (:mod:`projections.table` ``fold_log``
marks the trick, :class:`projections.state.Trick` ``absent``): its winner is the winner of the three
cards, the card logged after them begins trick ``n+1``, ``X``'s later cards are his plays to the later
tricks as logged. What the engine emitted on the earlier reading and no longer prescribes is cancelled
by its own ``RulingOverridden`` (82C), as after a finding (``ledger.service``: a refolding fact).

| when (the first ``AttentionDrawn`` / ``DirectorCalled`` after trick ``n``, else the finding) | both editions |
|---|---|
| no player of one of the two sides had played to trick ``n+1`` | 67A: ``X``'s next card is supplied to trick ``n`` (``67A1``), a legal play to it; one that would take the trick from its winner leaves the winner as it was and the director is asked |
| a player of each side had played to trick ``n+1`` | 67B: ``X``'s next card is placed among his played cards for trick ``n`` (``67B1``), of the suit led when he holds one; it never changes the trick's winner |

| 67B1, the deemed revoke | 1997 | 2017 |
|---|---|---|
| ``X`` held a card of the suit led | (a) no penalty | (a) deemed revoke, one trick (64A2) |
| ``X`` held none | (b) deemed revoke, one trick | (b) the same |

The one trick goes to the other side at the end of play when ``X``'s side won trick ``n`` or a later
one, none otherwise (64A2's condition); 64B4 and 64B5 apply (the finding is the attention drawn); a
defective trick of dummy's is asked, not transferred (digest 15.11, decision 4).

A card found among the played cards (``MissingCardFound {among_played: true}``: 2017 14B1, 1997 14;
58B4, several cards played at once and not discovered in time) is 67B2: the extra card was never logged
as played, so it is in the hand on the ledger's record already and stays there; a revoke it shows is
read from the tricks as usual. That reading is the irregular boards family's (``ledger.laws.boards``).
"""

from __future__ import annotations

import attrs

from ledger import events as ev
from ledger.bridge import Card, Seat
from ledger.errors import BadInput
from ledger.events import DirectorReviewRequired, IrregularityRecorded, TricksTransferred
from ledger.laws.base import Prescription, at_play, handles
from projections.fold import Step, law_of
from projections.play import trick_winner
from projections.state import ENDED, DefectiveTrick, Irregularity, PlayedCard, TableState, Trick, replace
from projections.vocab import Edition, IrregularityKind

LAWS = ("67",)
"""The Laws this family rules on (``ledger.laws.find_law``)."""

ATTENTION = ("AttentionDrawn", "DirectorCalled")


# -- the reading of the facts (fold handlers, the play-time interception point) ----------------

@handles(ev.DefectiveTrickFound)
def on_defective_trick(state: TableState, step: Step[ev.DefectiveTrickFound]) -> TableState:
    """The finding reached in the fold: 67A or 67B by the moment attention was drawn."""
    event = step.event
    entries = state.defective
    d = next((d for d in entries if d.seq == step.seq), None)
    if d is None:  # folded one step at a time, not read again from the start (projections.table.fold_log):
        return state.add_irregularity(Irregularity(  # the trick was not closed at three cards; nothing ruled
            IrregularityKind.UNPROCESSED, step.seq, event.TYPE, offender=str(event.seat),
            detail=f"{event.seat} did not play to trick {event.trick}: the stream is to be read again from "
                   "its start (Law 67)"))
    law = state.cite("67B" if _both_sides_played_next(state, d) else "67A")
    return attrs.evolve(state, defective=tuple(attrs.evolve(x, law=law) if x is d else x for x in entries))


def _both_sides_played_next(state: TableState, d: DefectiveTrick) -> bool:
    """Whether a player of each side had played to trick ``n+1`` when attention was first drawn after
    trick ``n`` (or at the finding when nobody drew it)."""
    if len(state.tricks) <= d.trick:
        return False
    trick = state.tricks[d.trick - 1]
    after = max((p.seq for p in trick.cards), default=0)
    attention = next((f.seq for f in state.procedure if f.type in ATTENTION and after < f.seq < d.seq), d.seq)
    sides = {p.seat.side for p in state.tricks[d.trick].cards if p.seq < attention}
    return len(sides) == 2


def waiting(state: TableState, seat: Seat) -> DefectiveTrick | None:
    """The defective trick of ``seat``'s the finding has reached and no card was supplied to yet."""
    return next((d for d in state.defective if d.seat is seat and d.law is not None and d.placed is None), None)


@at_play("defective")
def supply(state: TableState, seq: int, seat: Seat, card: Card) -> TableState | None:
    """The offender's next card after the finding: supplied to the defective trick (67A1) or placed
    among his played cards for it (67B1); the trick's winner stays as it was."""
    d = waiting(state, seat)
    if d is None or len(state.tricks) < d.trick or not state.holds(seat, card):
        return None
    trick = state.tricks[d.trick - 1]
    law = state.cite("67A1" if law_of(d.law) == "67A" else "67B1")
    cards = tuple(sorted(trick.cards + (PlayedCard(seat, card, seq, law),),
                         key=lambda p: (p.seat.index - trick.leader.index) % 4))
    placed = Trick(trick.number, trick.leader, cards, trick.winner, trick.absent)
    tricks = state.tricks[:d.trick - 1] + (placed,) + state.tricks[d.trick:]
    entries = tuple(attrs.evolve(x, placed=seq, card=card) if x is d else x for x in state.defective)
    return replace(state, tricks=tricks, hands=state.without_card(seat, card), defective=entries)


# -- the checks (exit 2, nothing written) -------------------------------------------------------

def check_found(before: TableState, reread: TableState | None, event: ev.DefectiveTrickFound) -> None:
    """Spec 1.3: a defective trick is one the other three completed and play went on from; the seat
    did not play to it. ``before``: the stream as read before the finding; ``reread``: read again
    with it."""
    n, seat = event.trick, event.seat
    trick = before.tricks[n - 1] if len(before.tricks) >= n else None
    mine = trick.card_of(seat) if trick is not None else None
    if trick is not None and mine is not None:  # his card on the trick, played in turn (nothing irregular before it)
        odd = [i.seq for i in before.irregularities if trick.cards[0].seq < i.seq < mine.seq]
        if not odd:
            raise BadInput(f"{seat} played {mine.card} to trick {n} (seq {mine.seq}): the trick is not defective "
                           "for him", field="seat", value=str(seat), event_type=event.TYPE)
    done = reread is not None and len(reread.tricks) >= n and reread.tricks[n - 1].absent is seat \
        and reread.tricks[n - 1].complete and (len(reread.tricks) > n or n == 13)
    if not done:
        raise BadInput(f"trick {n} is not complete yet (or not begun): a trick is found defective once the "
                       "other three have played to it and play went on", field="trick", value=n,
                       event_type=event.TYPE)


def check_supplied(state: TableState, event: ev.CardPlayed) -> None:
    """67A1: the card supplied must be a legal play to the defective trick; 67B1: of the suit led when
    the offender holds one (exit 2 naming the card)."""
    d = waiting(state, event.seat)
    if d is None or len(state.tricks) < d.trick or not state.holds(event.seat, event.card):
        return
    led = state.tricks[d.trick - 1].suit_led
    if led is not None and event.card.suit is not led and any(c.suit is led for c in state.hand(event.seat)):
        law = "67A1" if law_of(d.law) == "67A" else "67B1"
        raise BadInput(f"{event.card}: {event.seat} holds {led.symbol} (the suit led to trick {d.trick}) and must "
                       f"supply one to the defective trick ({state.cite(law)})", field="card",
                       value=str(event.card), event_type=event.TYPE)


# -- what the Laws prescribe -----------------------------------------------------------------------

def deemed_revoke(state: TableState, d: DefectiveTrick) -> bool:
    """67B1: a revoke is deemed on the defective trick (2017 always; 1997 when the offender held no card
    of the suit led, 67B1b)."""
    if law_of(d.law) != "67B" or d.placed is None or d.card is None:
        return False
    led = state.tricks[d.trick - 1].suit_led
    return state.edition == Edition.E2017 or d.card.suit is not led


def _exemption(state: TableState, d: DefectiveTrick) -> str | None:
    """64B4 / 64B5: the finding (the attention drawn) came after a member of the non-offending side called
    on the next board, or after the round ended."""
    for f in state.procedure:
        if f.seq > d.seq:
            break
        if f.type == "RoundEnded":
            return state.cite("64B5")
        if f.type == "NextBoardStarted" and f.detail == str(d.seat.side.other):
            return state.cite("64B4")
    return None


def transfers(state: TableState) -> list[tuple[DefectiveTrick, str]]:
    """The one trick of 67B1 for each deemed revoke, once play has ended: (the defective trick, to whom)."""
    if state.phase != ENDED or state.contract is None or not state.defective:
        return []
    out = []
    for d in state.defective:
        if not deemed_revoke(state, d) or d.seat is state.dummy or _exemption(state, d) is not None:
            continue
        side = d.seat.side
        if any(t.winner is not None and t.winner.side is side for t in state.tricks[d.trick - 1:]):
            out.append((d, "defenders" if side is state.contract.side else "declarer"))
    return out


def net_transfer(state: TableState) -> int:
    """Tricks 67B1 transfers to declarer (negative: to the defenders)."""
    return sum(1 if to == "declarer" else -1 for _, to in transfers(state))


def transfers_document(state: TableState) -> list[dict[str, object]]:
    return [{"to": to, "tricks": 1, "law": state.cite("67B1"), "revoke": d.placed} for d, to in transfers(state)]


def defective_tricks(state: TableState) -> list[Prescription]:
    """The rule: the irregularity of each defective trick, 67A1's question, 67B1's deemed revoke and
    its one trick."""
    out: list[Prescription] = []
    for d in state.defective:
        if d.law is None:
            continue
        out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.DEFECTIVE_TRICK, offender=str(d.seat), about=d.seq),
                                (d.seq,), d.law))
        if d.placed is None or d.card is None or len(state.tricks) < d.trick:
            continue
        trick = state.tricks[d.trick - 1]
        if law_of(d.law) == "67A":
            assert state.contract is not None
            if trick.winner is not None and trick_winner(trick.cards, state.contract.strain) is not trick.winner:
                out.append(Prescription(DirectorReviewRequired(
                    reason=f"67A1 {d.card} supplied by {d.seat} to trick {d.trick} would win it: the trick is "
                           f"left to {trick.winner} until the director rules", about=d.placed),
                    (d.seq, d.placed), state.cite("67A1")))
            continue
        if not deemed_revoke(state, d):
            continue
        out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.REVOKE, offender=str(d.seat), about=d.placed),
                                (d.seq, d.placed), state.cite("67B1")))
        if state.phase != ENDED:
            continue
        if d.seat is state.dummy:
            out.append(Prescription(DirectorReviewRequired(
                reason=f"67B1 the defective trick {d.trick} is dummy's: the director rules the deemed revoke "
                       "(no trick transferred for dummy's revoke, 64B3)", about=d.placed),
                (d.seq, d.placed), state.cite("67B1")))
    for d, to in transfers(state):
        assert d.placed is not None
        out.append(Prescription(TricksTransferred(to=to, tricks=1), (d.seq, d.placed), state.cite("67B1")))
    return out


IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.DEFECTIVE_TRICK: "defective trick",
}
"""How the irregularity of this family's rule (``IrregularityKind``: 67A, 67B) reads for people."""
