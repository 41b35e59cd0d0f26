"""Revokes (Laws 61 to 64), dummy's rights and limits (42, 43) and the
director's procedure facts (9 to 11), both editions side by side.

The fold records the procedure facts (``state.procedure``, ``projections.procedure``);
everything else is *derived* from the folded tricks and card records, so the
same log always reads the same way and a finding refolds it cleanly. Nothing of
the reading is written into the state: its readers derive it where they read it
(:func:`revokes`; each revoke's irregularity, :func:`irregularities`; the exposures
without an 11A forfeit, :func:`exposures`; the tricks transferred into the result,
``ledger.laws.results.board_result``), each kept by ``projections.derived`` while
the fields it read are unchanged, and carried over card by card while a new card
can change nothing in it (:func:`_carried`).

* **Detection (61A).** A card on a trick, not the lead, of another suit than
  the suit led while its player held a card of that suit when the trick began
  (his dealt cards minus those he played to earlier tricks). A revoke card
  withdrawn under 47B/62 (``CardRecord`` ruling ``withdrawn``) is a revoke
  corrected. Dummy's failure to follow is a revoke too, corrected if noticed
  in time, never rectified by a transfer (64B3).
* **Establishment (63A).** The first of: the offender or his partner plays to
  a later trick (63A1; a card named or designated counts once it is on the
  trick, 63A2); a member of the offending side claims or concedes (63A3), or
  agrees to the opponents' claim (1997 63A3 "acquiesces", 2017 63A4); 1997
  63B: the offender's partner asked him whether he had a card of the suit
  (the revoke must be corrected and Law 64 applies as if established); 43B2b:
  dummy, after a 43A2 violation, was the first to ask declarer.
* **Transfer (64A)**, when play ends (the thirteenth trick or a settled claim;
  the claim's tricks count as tricks won after the revoke). Offender won the
  revoke trick: that trick plus one later trick of his side (64A1). Otherwise,
  his side won the revoke trick or a later one: one trick (64A2); 1997 adds
  a second when the offender later won a trick with a card he could legally
  have played to the revoke trick and his side won another trick from the
  revoke on (seed 001 rule 6). Only tricks from the revoke trick on are ever
  transferred (seed 001 rule 2).
* **No transfer (64B, 11A, 43B)**: 64B1 (no trick from the revoke on), 64B2
  (a later revoke in the same suit by the same player), 64B3 (dummy's card),
  64B4 / 64B5 (attention first drawn after a non-offender called on the next
  board / after the round ended), 2017 64B6 (trick 12), 2017 64B7 and, in
  1997, the WBF Laws Committee's reading (both sides revoked), 62D1 (a revoke
  on trick 12 found before the hands went back in the board: the play of
  tricks 12 and 13 is restored), 11A (the director finds the right forfeited),
  1997 43B2c / 2017 43B3 (dummy, after a 43A2 violation, first drew attention
  to a defender's revoke).
* **Equity (64C) and the director.** The engine never guesses whether the
  transfer restores equity: it asks (``DirectorReviewRequired``) when the
  non-offenders reserve their rights about the revoke (seed 001 rule 7),
  when a revoke is exempt from transfer where the Laws name equity (64B2,
  64B3 established, 64B7, 2017 64B6, 43B3/43B2c), and for 62D (the restored
  play of tricks 12 and 13; 62D2 when a defender's partner played after the
  revoke card, seed 001 rule 8).

When is attention drawn? The first ``AttentionDrawn``, ``DirectorCalled``,
``RevokeInquiry`` (to the offender) or
``RightsReserved`` after it, or its correction. The ledger sees a revoke as soon as
it is played, but the Laws rectify only what a player points out: a revoke
nobody drew attention to is recorded (``IrregularityRecorded``, and
``RevokeEstablished`` when it is) and not rectified; attention drawn later,
before a non-offender calls on the next board and before the round ends
(64B4, 64B5), brings the transfer then (and a new ``ResultRecorded``).
This is the reading of PBN's ``^R`` ("a revoke not noticed") too.

What the ruling engine emits for this reading (the rules below):

| reading | rectification |
|---|---|
| a revoke (61A), corrected or not | ``IrregularityRecorded`` ``revoke`` |
| established (63A1 to 63A4, 1997 63B, 43B2b) | ``RevokeEstablished`` |
| a revoke corrected (62B) after non-offenders played to the trick | ``OptionsOffered`` ``withdraw_card`` / ``keep_card`` to each of them (62C1) |
| play ended, tricks due (64A) | ``TricksTransferred`` (one per direction, the sum; the state lists each revoke's share) |
| equity, 62D, 43B3: the director's judgment | ``DirectorReviewRequired`` |
| dummy drew attention during play (43A1b) or asked a defender (42B1) | ``IrregularityRecorded`` ``dummy_drew_attention`` / ``dummy_inquiry`` |
| dummy, after a 43A2 violation, warned declarer of a lead from the wrong hand | ``OptionsOffered`` ``lead_from_hand`` / ``lead_from_dummy`` to the defenders (43B2a) |

The engine decides nothing that needs judgment: whether a transfer restores
equity is the director's (64C), as is the play of tricks 12 and 13 restored
under 62D.
"""

from __future__ import annotations

from typing import Any

import attrs

from ledger import events as ev
from ledger.bridge import Card, Seat, Side, Suit
from ledger.events import (DirectorReviewRequired, IrregularityRecorded, OptionsOffered, RevokeEstablished,
                           TricksTransferred)
from ledger.laws.base import Citations, Prescription, cited, handles, on_play_on
from projections import cards
from projections.cards import dummy_first_law
from projections import play
from projections.derived import Reads, derive, read, shared_values, state_of
from projections.fold import Step, law_of
from projections.procedure import REVIEW_PREFIXES, recorded_only  # noqa: F401 (REVIEW_PREFIXES: read by the tests)
from projections.state import (AUCTION, ENDED, PLAY, CardRecord, Choice, Exposure, Irregularity, PlayedCard, ProcedureFact, TableState,
                               Trick)
from projections.vocab import CardRuling, Edition, IrregularityKind

LAWS = ("9", "10", "11", "42", "43", "61", "62", "63", "64")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS: Citations = {
    "agreement_establishes": {"1997": "63A3", "2017": "63A4"},
    "both_sides_revoked": {"1997": "64C", "2017": "64B7"},
}
"""Where the editions cite different Laws for the same occasion (read through :func:`law_for`)."""


def law_for(state: TableState, occasion: str) -> str:
    """The Law the board's edition names for ``occasion`` (:data:`CITATIONS`), without the
    edition (the reading cites it when it records it): ``"43B3"``."""
    return cited(state, CITATIONS, occasion).split(":", 1)[1]


# -- the reading of the facts: the fold's handlers ------------------------------------------

@handles(ev.CardWithdrawn)
def on_card_withdrawn(state: TableState, step: Step[ev.CardWithdrawn]) -> TableState:
    """62D1: the revoke card of trick 12 replaced after the revoke was established (trick 13 begun),
    before the hands went back in the board: tricks 12 and 13 are restored (and the 62D1 question
    answered). Otherwise Law 47 (``ledger.laws.cards``)."""
    seq, event = step.seq, step.event
    if _returned_by_62d1(state, event):
        return state  # already back in the hand: the 62D1 restoration returned the cards of trick 13
    restored = _trick12_restored(state, seq, event)
    if restored is None:
        return play.withdraw(state, seq, event)  # Law 47 (the withdrawals family)
    about = restored.card_records[-1].about
    return attrs.evolve(restored, review=tuple(
        attrs.evolve(r, resolved=True) if r.reason.startswith("62D1") and r.about == about else r
        for r in restored.review))


def _returned_by_62d1(state: TableState, event: ev.CardWithdrawn) -> bool:
    """A card of trick 13 withdrawn after the 62D1 restoration already returned it to the hand."""
    return event.replacement is None and len(state.tricks) <= 12 and state.holds(event.seat, event.card) \
        and any(law_of(n.law) == "62D1" and n.seat is event.seat and n.what == str(event.card)
                for n in state.plays_not_made)


def restores_trick12(state: TableState, event: ev.CardWithdrawn) -> PlayedCard | None:
    """The revoke card of trick 12 (a PlayedCard) that ``event`` corrects under 62D1, or None:
    trick 13 begun, the hands not yet returned, a card of the suit led put in its place (it may
    come back from trick 13)."""
    if state.contract is None or len(state.tricks) != 13 or state.claim is not None:
        return None
    if _facts(state, "HandsReturned"):
        return None  # too late: 62D1 needs the hands still out of the board
    t12 = state.tricks[11]
    p = t12.card_of(event.seat)
    led = t12.suit_led
    if p is None or p.card != event.card or p is t12.cards[0] or p.card.suit is led:
        return None
    if event.replacement is None:  # the correction logged as withdrawals, then the cards played (62D1)
        return p if led in {c.suit for c in state.hand(event.seat)} | {
            q.card.suit for q in state.tricks[12].cards if q.seat is event.seat} else None
    if event.replacement.suit is not led:
        return None
    mine = state.tricks[12].card_of(event.seat)
    if not state.holds(event.seat, event.replacement) and (mine is None or mine.card != event.replacement):
        return None
    return p


def _trick12_restored(state: TableState, seq: int, event: ev.CardWithdrawn) -> TableState | None:
    p = restores_trick12(state, event)
    if p is None:
        return None
    law = state.cite("62D1")
    words = "returned: the play of tricks 12 and 13 is restored after the revoke on trick 12"
    hands = state.hands
    for q in state.tricks[12].cards:
        hands = cards.with_card_back(hands, q.seat, q.card)
        state = cards.not_made(state, q.seq, q.seat, str(q.card), words, law)
    state = attrs.evolve(state, hands=hands, tricks=state.tricks[:12], phase=PLAY, result=None)
    state = cards.not_made(state, p.seq, event.seat, str(p.card), "revoke card of trick 12 withdrawn", law)
    if event.replacement is None:
        state = cards.remove_card(state, 11, event.seat)  # the corrected card follows as a CardPlayed
    else:
        state, _ = cards.replace_card(state, 11, event.seat, event.replacement, seq,
                                       play.play_law(state, event.seat))
    return cards.record_card(state, CardRecord(seq, event.TYPE, event.seat, event.card, CardRuling.WITHDRAWN, law,
                                           detail="revoke on trick 12 corrected, tricks 12 and 13 restored",
                                           about=p.seq, other=event.replacement))


@handles(ev.RevokeInquiry, ev.DummyWarnedDeclarer, ev.DummyViolation)
def on_procedure(state: TableState, step: Step[ev.Event]) -> TableState:
    """Dummy's inquiry (42B1), his warning and his violation (43A2): journalled, read by the rules."""
    return recorded_only(state, step)


@handles(ev.RevokeEstablished, ev.TricksTransferred)
def on_revoke_rectification(state: TableState, step: Step[ev.Event]) -> TableState:
    """Derived: :func:`revokes` reads establishment and transfers from the facts; the state shows them
    where it is read (:func:`irregularities`, :func:`exposures`, ``ledger.laws.results.board_result``)."""
    return state


@on_play_on
def lapse_62c1(state: TableState, seat: Seat) -> TableState:
    """62C1: a non-offender's option to withdraw the card he played after the revoke lapses
    once he plays to the next trick."""
    offers = [o for o in state.pending if o.to is seat and law_of(o.law) == "62C1"]
    if not offers:
        return state
    trick = state.current_trick
    target = len(state.tricks) + 1 if trick is None or trick.complete else trick.number
    lapsed = []
    for o in offers:
        at = max((t.number for t in state.tricks if t.cards and t.cards[0].seq < o.seq), default=0)
        if target > at:
            lapsed.append(o.seq)
    if not lapsed:
        return state
    return attrs.evolve(state, pending=tuple(o for o in state.pending if o.seq not in lapsed))


# -- the reading of the revokes, derived from the facts -------------------------------------

@attrs.frozen
class Revoke:
    """One revoke as the Laws read it now."""

    seq: int  # the revoke card's play
    seat: Seat
    card: Card
    trick: int
    suit: Suit  # the suit led
    dummy: bool
    corrected: int | None = None  # seq of the correction (47B / 62B)
    established: int | None = None  # seq of the fact that established it
    established_law: str | None = None
    as_if: bool = False  # corrected, but Law 64 applies as if established (1997 63B, 43B2b)
    discovered: int | None = None  # seq at which attention was first drawn (None: not yet)
    exempt: str | None = None  # the Law that rules out a transfer
    exempt_reason: str = ""
    tricks: int = 0  # tricks to transfer (when play has ended)
    law: str | None = None  # the Law of the transfer
    reviews: tuple[tuple[str, int], ...] = ()  # (reason, about) for the director
    breach: bool = False  # a failure to play a penalty card or to follow a lead restriction (64B3)

    @property
    def is_established(self) -> bool:
        return self.established is not None


def _read(state: TableState) -> bool:
    """Whether the revokes are read into what the state shows: once one is recorded
    (``IrregularityRecorded`` ``revoke``) or play has ended."""
    return state.phase == ENDED or any(i.kind == IrregularityKind.REVOKE for i in state.irregularities)


def irregularities(state: TableState) -> tuple[Irregularity, ...]:
    """The board's irregularities, each revoke's as the Laws read it now: its trick, whether
    it is established (and by which Law) and its words (derived where read, not stored)."""
    if not _read(state):
        return state.irregularities
    return derive(state, "revoke irregularities", _irregularities)


def _irregularities(state: TableState) -> tuple[Irregularity, ...]:
    found = revokes(state)
    if not found:
        return state.irregularities
    by_seq = {r.seq: r for r in found}
    return tuple(_irregularity(i, by_seq.get(i.seq), state) if i.kind == IrregularityKind.REVOKE else i
                 for i in state.irregularities)


def exposures(state: TableState) -> tuple[Exposure, ...]:
    """The cards exposed, without a revoke card withdrawn whose rectification the director
    found forfeited (11A: no penalty card either)."""
    if not state.exposures or not any(f.field == "rectification_forfeited" for f in state.findings) \
            or not _read(state):
        return state.exposures
    return derive(state, "exposures in force", _exposures)


def _exposures(state: TableState) -> tuple[Exposure, ...]:
    found = revokes(state)
    forfeited = {r.corrected for r in found if r.exempt == state.cite("11A") and r.corrected}
    if not forfeited or not any(x.seq in forfeited for x in state.exposures):
        return state.exposures
    return tuple(x for x in state.exposures if x.seq not in forfeited)


def tricks_after_transfers(state: TableState) -> int | None:
    """Declarer's tricks once play has ended, with the tricks the revokes transfer (64A);
    None when play has not ended with a played (or claimed) result."""
    result = state.result
    if state.phase != ENDED or result is None or state.contract is None or result.law != state.cite("77"):
        return None
    return derive(state, "tricks after transfers", _tricks_after_transfers)


def _tricks_after_transfers(state: TableState) -> int | None:
    found = revokes(state)
    deemed = read(state, "defective trick transfer") if state.defective else 0  # spec 1.3: 67B1's one trick
    if not found and not deemed:
        return None
    return max(0, min(13, base_tricks(state) + net_transfer(state, found) + deemed))


def _irregularity(i: Irregularity, rv: Revoke | None, state: TableState) -> Irregularity:
    if rv is None:
        return i
    law = rv.established_law if rv.is_established else i.law
    detail = describe(rv, state)
    return attrs.evolve(i, trick=rv.trick, established=rv.is_established, law=law, detail=detail)


def _facts(state: TableState, type_: str) -> list[ProcedureFact]:
    return [f for f in state.procedure if f.type == type_]


def revokes(state: TableState) -> tuple[Revoke, ...]:
    """Every revoke of the board, in the order played, read as the Laws read it now
    (derived once per state, and reused by the next states while the facts it reads are
    unchanged: :mod:`projections.derived`)."""
    return derive(state, "revokes", _revokes)


def _revokes(state: TableState) -> tuple[Revoke, ...]:
    if state.contract is None or not state.tricks:
        return ()
    carried = _carried(state)
    if carried is not None:
        return carried
    found = _detect(state)
    out = () if not found else tuple(_rectify(state, [_discover(state, _establish(state, rv)) for rv in found]))
    if isinstance(state, Reads):  # (Reads has no subclass: the same test as type(state) is Reads)
        shared_values(state_of(state))[READ] = (state.reads(), out)
    return out


READ = "revokes read"
"""The key of the last reading of the revokes in the fold's shared values (:func:`_carried`)."""


def _carried(state: TableState) -> tuple[Revoke, ...] | None:
    """The last reading of the fold, when the only change since is a card added at the end
    of the last trick (every other field the reading read is the same object) that can
    change nothing in it: not itself a revoke, not on a revoke's trick (its cards
    name the revoke, 64A, and decide 62D2), not a card of the offending side after a
    revoke not yet established (63A1). Play has not ended since (the phase and the result
    are fields the reading read), so no transfer is due yet (64A). Else None: read again."""
    if not isinstance(state, Reads):
        return None
    real = state_of(state)
    last = shared_values(real).get(READ)
    if last is None:
        return None
    found: tuple[Revoke, ...]
    reads, found = last
    tricks = hands = None
    for name, value in reads:
        if name == "tricks":
            tricks = value
        elif name == "hands":
            hands = value
        elif name == "memo" or getattr(real, name) is not value:
            return None
    if tricks is None or hands is None:
        return None
    added = _one_card_added(tricks, real.tricks, hands, real.hands)
    if added is None:
        return None
    trick, p = added
    if p is not trick.cards[0] and p.card.suit is not trick.cards[0].card.suit \
            and _read_off_suit(state, [(len(real.tricks) - 1, p)], state.dummy):
        return None  # a revoke itself
    for rv in found:
        if rv.trick >= trick.number or rv.established is None and rv.corrected is None \
                and p.seat.side is rv.seat.side:
            return None
    for name, _ in reads:
        getattr(state, name)  # the same fields read (projections.derived keeps the value by them)
    shared = shared_values(real)
    shared[READ] = (state.reads(), found)
    detected = shared.get(DETECTED)
    if detected is not None and detected[0] is tricks and detected[1] is hands:
        shared[DETECTED] = (real.tricks, real.hands) + detected[2:]  # no new revoke off the suit led
    return found


def _off_suit(state: TableState) -> list[tuple[int, Any]]:
    """(trick index, card) of every card on a trick, not the lead, off the suit led: the
    only cards that can be revokes (one pass over the tricks, no set of suits built)."""
    out = []
    for i, t in enumerate(state.tricks):
        cards = t.cards
        if len(cards) > 1:
            led = cards[0].card.suit
            for p in cards[1:]:
                if p.card.suit is not led:
                    out.append((i, p))
    return out


def _held_when_led(state: TableState, seat: Seat, suit: Suit, index: int) -> bool:
    """Whether ``seat`` held a card of ``suit`` when the trick at ``index`` began: one in his
    hand now, or one he played to a later trick."""
    if any(c.suit is suit for c in state.hand(seat)):
        return True
    return any(q.seat is seat and q.card.suit is suit for t in state.tricks[index + 1:] for q in t.cards)


PLACED = (":67A1", ":67B1")
"""The laws of a card supplied to (67A1) or placed in (67B1) a defective trick: never a 61A revoke; 67B1's
deemed revoke is ``ledger.laws.defective``'s."""

DETECTED = "revokes off the suit led"
"""The key of the last off-suit reading in the fold's shared values (:func:`_off_suit_revokes`)."""


def _off_suit_revokes(state: TableState) -> list[Revoke]:
    """The revokes of cards played off the suit led while their player held it (61A), in
    the order of the tricks. Incremental: when the only change since the last reading of
    the fold is one card added at the end of the last trick (the card records unchanged),
    only that card can be a new one: a card played to a trick after the revoke trick moves
    from its player's hand to a later trick, so what each player held when an earlier trick
    began is unchanged. Any other change reads every trick again."""
    tricks, hands, records, dummy = state.tricks, state.hands, state.card_records, state.dummy
    shared = shared_values(state_of(state))
    last = shared.get(DETECTED)
    if last is not None and last[2] is records and last[3] is dummy:
        added = _one_card_added(last[0], tricks, last[1], hands)
        if added is not None:
            found: list[Revoke] = last[4]
            trick, p = added
            if p is not trick.cards[0] and p.card.suit is not trick.cards[0].card.suit:
                found = found + [r for r in _read_off_suit(state, [(len(tricks) - 1, p)], dummy)]
            shared[DETECTED] = (tricks, hands, records, dummy, found)
            return found
    found = _read_off_suit(state, _off_suit(state), dummy)
    shared[DETECTED] = (tricks, hands, records, dummy, found)
    return found


def _read_off_suit(state: TableState, off: list[tuple[int, Any]], dummy: Seat | None) -> list[Revoke]:
    out = []
    tricks = state.tricks
    for i, p in off:
        t = tricks[i]
        led = t.cards[0].card.suit
        if p.law.endswith(PLACED):  # spec 1.3: a card supplied or placed under 67 (ledger.laws.defective)
            continue
        if _held_when_led(state, p.seat, led, i) and not _played_before_change(state, t, p):
            out.append(Revoke(p.seq, p.seat, p.card, t.number, led, p.seat is dummy))
    return out


def _one_card_added(before: tuple[Trick, ...], tricks: tuple[Trick, ...], hands_before: tuple[tuple[Card, ...], ...],
                    hands: tuple[tuple[Card, ...], ...]) -> tuple[Trick, PlayedCard] | None:
    """(the last trick, the card) when ``tricks`` and ``hands`` are ``before`` and
    ``hands_before`` with one card moved from its player's hand to the end of the last
    trick (or leading a new one); else None."""
    n = len(tricks)
    if n == len(before):
        if n == 0 or any(tricks[i] is not before[i] for i in range(n - 1)):
            return None
        old, new = before[-1].cards, tricks[-1].cards
        if len(new) != len(old) + 1 or new[:-1] != old:
            return None
    elif n == len(before) + 1:
        if any(tricks[i] is not before[i] for i in range(n - 1)) or len(tricks[-1].cards) != 1:
            return None
    else:
        return None
    p = tricks[-1].cards[-1]
    seat = p.seat.index
    for i in range(4):
        if i != seat and hands[i] is not hands_before[i] and hands[i] != hands_before[i]:
            return None
    held = hands_before[seat]
    if len(hands[seat]) + 1 != len(held) or p.card not in held:
        return None
    i = held.index(p.card)
    if hands[seat] != held[:i] + held[i + 1:]:
        return None
    return tricks[-1], p


def _detect(state: TableState) -> list[Revoke]:
    revoked = _off_suit_revokes(state)
    if not revoked and not state.breaches and not any(r.ruling == CardRuling.WITHDRAWN for r in state.card_records):
        return []  # no card off the suit led, no breach, no card withdrawn: no revoke
    dummy = state.dummy
    out: list[Revoke] = list(revoked)
    breached = {b.seq for b in state.breaches}  # read by _breaches
    for rec in state.card_records:  # a revoke card withdrawn (47B / 62B): a revoke corrected
        if rec.ruling != CardRuling.WITHDRAWN or law_of(rec.law) not in ("47B", "62D1", "62C3") or rec.about is None \
                or rec.card is None or rec.about in breached:
            continue
        found = next((t for t in reversed(state.tricks) if t.cards and t.cards[0].seq < rec.about), None)
        if found is not None and found.suit_led is not None:
            out.append(Revoke(rec.about, rec.seat, rec.card, found.number, found.suit_led, rec.seat is dummy,
                              corrected=rec.seq))
    out += _breaches(state, {r.seq for r in out})
    return sorted(out, key=lambda r: r.seq)


def _breaches(state: TableState, known: set[int]) -> list[Revoke]:
    """A failure to play a penalty card, or a lead against a lead restriction, when able
    to comply (state.breaches): a revoke (61A) with its trick, established by 63A like any
    other, without a trick transfer (64B3)."""
    out = []
    for b in state.breaches:
        if b.seq in known or b.card is None:
            continue
        withdrawn = next((r for r in state.card_records if r.ruling == CardRuling.WITHDRAWN and r.about == b.seq
                          and law_of(r.law) == "47B"), None)
        if withdrawn is not None:  # corrected before it was established (61A, 62A, 47B)
            trick = next((t for t in state.tricks if any(q.seq == withdrawn.seq for q in t.cards)), None) \
                or next((t for t in reversed(state.tricks) if t.cards and t.cards[0].seq < b.seq), None)
        else:
            trick = next((t for t in reversed(state.tricks) if t.cards and t.cards[0].seq <= b.seq), None)
        if trick is None:
            continue
        out.append(Revoke(b.seq, b.seat, b.card, trick.number, trick.suit_led or b.card.suit, False,
                          corrected=withdrawn.seq if withdrawn is not None else None, breach=True))
    return out


def _played_before_change(state: TableState, trick: Trick, p: PlayedCard) -> bool:
    """``p`` was played before an opponent's permitted change of designation (45C4b) of a
    card played before it on this trick: it was legal when played (47D), no revoke."""
    seqs = {q.seq for q in trick.cards}
    return any(rec.ruling == CardRuling.CHANGE_PERMITTED and rec.about is not None and rec.seq in seqs
               and rec.about < p.seq < rec.seq and rec.seat.side is not p.seat.side for rec in state.card_records)


def _violation(state: TableState, before: int) -> ProcedureFact | None:
    """Dummy's 43A2 violation logged before ``before`` (he has lost his rights, 43B2)."""
    return next((f for f in _facts(state, "DummyViolation") if f.seq < before), None)


def _establish(state: TableState, rv: Revoke) -> Revoke:
    side = rv.seat.side
    candidates: list[tuple[int, str]] = []
    if rv.corrected is None:
        offender, partner = rv.seat, rv.seat.partner  # the offending side (compared by identity)
        later = [p.seq for t in state.tricks if t.number > rv.trick for p in t.cards
                 if p.seat is offender or p.seat is partner]
        if later:
            candidates.append((min(later), "63A1"))
        claim = state.claim
        if claim is not None and claim.seq > rv.seq and claim.seat.side is side:
            candidates.append((claim.seq, "63A3"))
        agreed = [f.seq for f in _facts(state, "ClaimAgreed") if f.seq > rv.seq and f.by is not None
                  and f.by.side is side]
        if agreed:
            candidates.append((min(agreed), law_for(state, "agreement_establishes")))
    elif _corrected_62c3(state, rv):  # 2017 62C3: established before its correction, by its side's next card
        later = [p.seq for t in state.tricks if t.number > rv.trick for p in t.cards
                 if p.seat.side is side and p.seq < rv.corrected]
        if later:
            candidates.append((min(later), "63A1"))
    elif _restored_62d(state, rv):  # established before the 62D1 correction: by a card of trick 13, returned
        returned = [n.seq for n in state.plays_not_made if law_of(n.law) == "62D1" and n.seq > rv.seq
                    and n.seat.side is side and n.seq != rv.seq]
        if returned:
            candidates.append((min(returned), "63A1"))
    end = rv.corrected if rv.corrected is not None else 10 ** 9
    for f in _facts(state, "RevokeInquiry"):
        if not rv.seq < f.seq < end or f.to is not rv.seat or f.by is None:
            continue
        if state.edition == Edition.E1997 and f.by is rv.seat.partner and state.contract is not None \
                and rv.seat.side is not state.contract.side:
            candidates.append((f.seq, "63B"))  # a defender asked his partner: established (1997 63B)
        elif f.by is state.dummy and rv.seat is state.declarer and _violation(state, f.seq) is not None \
                and _first_inquiry(state, rv, f):
            candidates.append((f.seq, "43B2b"))
    if not candidates:
        return rv
    seq, law = min(candidates)
    as_if = law in ("63B", "43B2b")
    return attrs.evolve(rv, established=seq, established_law=state.cite(law), as_if=as_if)


def _first_inquiry(state: TableState, rv: Revoke, inquiry: ProcedureFact) -> bool:
    """Dummy was the first to ask (43B2b): no earlier inquiry or attention about this revoke."""
    earlier = [f for f in state.procedure if rv.seq < f.seq < inquiry.seq
               and f.type in ("RevokeInquiry", "AttentionDrawn")]
    return not earlier


ATTENTION_LAWS = ("61", "62", "63", "64")
"""A director's ruling citing one of these Laws is his finding about a revoke (attention drawn to it)."""


def _revoke_seqs(state: TableState, rv: Revoke) -> set[int]:
    """The seqs an ``about`` may name for this revoke: its card, its correction, its trick's cards."""
    seqs = {rv.seq} | ({rv.corrected} if rv.corrected is not None else set())
    for t in state.tricks:
        if t.number == rv.trick:
            seqs |= {p.seq for p in t.cards}
    return seqs


def _names_revoke(state: TableState, rv: Revoke, f: ProcedureFact) -> bool:
    """Attention drawn to this revoke (64A): an ``AttentionDrawn``, ``RightsReserved``
    or ``DirectorCalled`` whose ``about`` names it (a seq of its card or trick; an id
    reference, which the fold cannot resolve, is taken as naming it), an
    ``AttentionDrawn`` / ``RightsReserved`` that names nothing, a revoke inquiry to
    the offender, or the director's ruling on Laws 61 to 64. A director call about
    another matter, or naming nothing, is not (the engine asks, :func:`_unnamed_call`)."""
    if f.type == "RevokeInquiry":
        return f.to is rv.seat
    if f.type == "RulingGiven":
        return any(law.split(":")[-1].startswith(ATTENTION_LAWS) for law in f.detail.split())
    if f.type not in ("AttentionDrawn", "DirectorCalled", "RightsReserved"):
        return False
    if f.about is not None:
        return f.about in _revoke_seqs(state, rv)
    if f.type == "DirectorCalled":
        return f.detail.startswith("about ")  # an id reference
    return True


def _unnamed_call(state: TableState, rv: Revoke) -> ProcedureFact | None:
    """The first director call after the revoke that names nothing, made before any
    attention to the revoke: whether it was about the revoke is the director's to say."""
    for f in state.procedure:
        if f.seq <= rv.seq:
            continue
        if _names_revoke(state, rv, f) or rv.corrected is not None and rv.corrected < f.seq:
            return None
        if f.type == "DirectorCalled" and f.about is None and not f.detail:
            return f
    return None


def _discover(state: TableState, rv: Revoke) -> Revoke:
    seqs = [f.seq for f in state.procedure if f.seq > rv.seq and _names_revoke(state, rv, f)]
    if rv.corrected is not None:
        seqs.append(rv.corrected)
    return attrs.evolve(rv, discovered=min(seqs) if seqs else None)


def _play_ended(state: TableState) -> bool:
    return state.phase == ENDED and state.result is not None


def _claim_tricks(state: TableState, side: Side) -> int:
    """Tricks of the settled claim's remaining ones that go to ``side``."""
    claim = state.claim
    if claim is None or claim.settled_tricks is None:
        return 0
    return claim.settled_tricks if claim.seat.side is side else claim.remaining - claim.settled_tricks


def _rectify(state: TableState, found: list[Revoke]) -> list[Revoke]:
    ended = _play_ended(state)
    established = [r for r in found if r.is_established and not r.breach]
    both_sides = len({r.seat.side for r in established}) == 2
    out: list[Revoke] = []
    for rv in found:
        reviews: list[tuple[str, int]] = []
        if rv.corrected is not None and rv.trick == 12 and not rv.is_established \
                and not _restored_62d(state, rv) and _partner_played_after(state, rv):
            reviews.append(_rule8(state, rv))  # corrected before establishment (62B): 62D2 all the same
        exempt, why, more = _exempted(state, rv, found, both_sides)
        reviews += more + _reviews_after(state, rv)
        out.append(attrs.evolve(_outcome(state, rv, exempt, why, ended), reviews=tuple(reviews)))
    return _cap(state, out)


Exempted = tuple[str | None, str, list[tuple[str, int]]]
"""Why a revoke carries no trick transfer: (the Law, the reason, the questions to the director);
``(None, "", ...)``: it is not exempt (yet)."""


def _exempted(state: TableState, rv: Revoke, found: list[Revoke], both_sides: bool) -> Exempted:
    """The first reading that exempts the revoke from the transfer, in the order the Laws take them."""
    if rv.corrected is not None and (_corrected_62c3(state, rv) or any(
            _corrected_62c3(state, o) for o in found if o.trick == rv.trick and o.seq != rv.seq)):
        return "64B8", "both sides revoked on the trick: each revoke corrected (62C3), no trick transfer", []
    if rv.corrected is not None and _restored_62d(state, rv):
        return ("62D1", "a revoke on trick 12, corrected: tricks 12 and 13 restored, no transfer",
                [_rule8(state, rv)] if _partner_played_after(state, rv) else [])
    if _forfeited(state, rv):
        return "11A", "the director found the right to rectification forfeited (the non-offenders " \
                      "acted before he was called)", []
    if rv.breach:
        return "64B3", "a failure to play a penalty card or to comply with a lead restriction: no " \
                       "trick transfer", []
    if rv.dummy:
        return "64B3", "a revoke by dummy (his cards are faced): no trick transfer", _dummy_reviews(rv)
    if _dummy_drew_attention_first(state, rv):
        return _after_dummy_violation(state, rv)
    if rv.is_established and rv.discovered is None:
        return None, "", []  # nobody has drawn attention to it: no rectification yet (64B4, 64B5 say until when)
    if rv.is_established:
        return _exemption(state, rv, found, both_sides)
    return None, "", []


def _dummy_reviews(rv: Revoke) -> list[tuple[str, int]]:
    """64C: an established revoke by dummy: equity, if the defenders were damaged."""
    if rv.is_established and rv.discovered is not None:
        return [(f"64C revoke by dummy on trick {rv.trick} established: no transfer (64B3); "
                 "the director restores equity if the defenders were damaged", rv.seq)]
    return []


def _dummy_drew_attention_first(state: TableState, rv: Revoke) -> bool:
    """Dummy, after a 43A2 violation, first drew attention to a defender's revoke."""
    assert state.contract is not None
    first = _first_attention(state, rv)
    return first is not None and first.by is state.dummy and rv.seat.side is not state.contract.side \
        and _violation(state, first.seq) is not None


def _after_dummy_violation(state: TableState, rv: Revoke) -> Exempted:
    """1997 43B2c / 2017 43B3: dummy lost his rights and drew attention first: no rectification."""
    law = dummy_first_law(state)
    return (law, "dummy, after a 43A2 violation, was the first to draw attention to it: no "
                 "rectification, play continues as if there were none",
            [(f"{law} dummy lost his rights and drew attention first to {rv.seat}'s revoke: "
              + ("the director assigns an adjusted score to both sides if the defence gained"
                 if state.edition == Edition.E1997 else
                 "at the end of play the director takes away any advantage the defence gained"),
              rv.seq)])


def _reviews_after(state: TableState, rv: Revoke) -> list[tuple[str, int]]:
    """The director's questions whatever the exemption: an unnamed call (64A), rights reserved (64C)."""
    reviews: list[tuple[str, int]] = []
    call = None if rv.breach else _unnamed_call(state, rv)
    if call is not None:
        reviews.append((f"64A the director was called (seq {call.seq}) without naming the matter while "
                        f"{rv.seat}'s revoke on trick {rv.trick} had not been pointed out: was attention drawn "
                        "to it? (an AttentionDrawn about the revoke, or a ruling, says so)", call.seq))
    nos = [s for s in Seat if s.side is not rv.seat.side]
    reserved = [f for f in _facts(state, "RightsReserved") if f.seq > rv.seq and f.by in nos]
    if rv.is_established and reserved and not rv.dummy:
        reviews.append(("64C equity: the non-offending side reserved its rights about the revoke on trick "
                        f"{rv.trick}; if the transfer does not restore equity the director assigns an "
                        "adjusted score (seed 001 rule 7)", rv.seq))
    return reviews


def _outcome(state: TableState, rv: Revoke, exempt: str | None, why: str, ended: bool) -> Revoke:
    """The revoke with its exemption, or at the end of play its transfer (64A; none won: 64B1)."""
    cite = state.cite
    if exempt is not None:
        return attrs.evolve(rv, exempt=cite(exempt), exempt_reason=why)
    if rv.is_established and ended and rv.discovered is not None:
        tricks, law = _transfer(state, rv)
        if tricks == 0:
            return attrs.evolve(rv, exempt=cite("64B1"),
                                exempt_reason="the offending side won neither the revoke trick nor a later one")
        return attrs.evolve(rv, tricks=tricks, law=cite(law))
    return rv


def _first_attention(state: TableState, rv: Revoke) -> ProcedureFact | None:
    return next((f for f in state.procedure if f.seq > rv.seq and f.type in ("AttentionDrawn", "RevokeInquiry")),
                None)


def _forfeited(state: TableState, rv: Revoke) -> bool:
    about = {rv.seq, rv.corrected}
    value = None
    for f in state.findings:
        if f.field == "rectification_forfeited" and f.about in about:
            value = f.value
    return value is True


def _exemption(state: TableState, rv: Revoke, found: list[Revoke],
               both_sides: bool) -> tuple[str | None, str, list[tuple[str, int]]]:
    """64B (and 62D) for an established revoke: (law, why, reviews)."""
    edition = state.edition
    discovered = rv.discovered
    assert discovered is not None
    nos = rv.seat.side.other
    for f in _facts(state, "NextBoardStarted"):
        if f.seq < discovered and f.detail == str(nos):
            return "64B4", "attention was first drawn after a non-offender called on the next board", []
    for f in _facts(state, "RoundEnded"):
        if f.seq < discovered:
            return "64B5", "attention was first drawn after the round ended", []
    if rv.trick == 12:
        returned = [f.seq for f in _facts(state, "HandsReturned")]
        before_return = not any(s < discovered for s in returned)
        if before_return and rv.corrected is None:
            reviews = [("62D1 revoke on trick 12 found before the hands were returned to the board: it must be "
                        "corrected; the director has tricks 12 and 13 restored and scores that play", rv.seq)]
            if _partner_played_after(state, rv):
                reviews.append(_rule8(state, rv))
            return "62D1", "a revoke on trick 12 found before the hands were returned: corrected, no transfer", \
                reviews
        if edition == Edition.E2017:
            return "64B6", "a revoke on trick 12: no trick transfer", \
                [("64C revoke on trick 12 (no transfer, 64B6): the director restores equity if the "
                  "non-offenders were damaged", rv.seq)]
    if both_sides:
        law = law_for(state, "both_sides_revoked")
        return law, "both sides revoked on this board: no transfer", \
            [(f"64C both sides revoked (no transfer{', 64B7' if edition == Edition.E2017 else ''}): the director "
              "restores equity as though no revoke had occurred", rv.seq)]
    earlier = [r for r in found if r.seq < rv.seq and r.seat is rv.seat and r.suit is rv.suit and r.is_established
               and not r.dummy and not r.breach]
    if earlier:
        return "64B2", f"a further revoke in {rv.suit.symbol} by the same player", \
            [("64C a further revoke in the same suit by the same player (no transfer, 64B2): "
              + ("the director adjusts if the non-offenders would have made more tricks without it (64C2a)"
                 if edition == Edition.E2017 else "the director restores equity if the non-offenders were damaged"),
              rv.seq)]
    return None, "", []


def _corrected_62c3(state: TableState, rv: Revoke) -> bool:
    return any(r.seq == rv.corrected and law_of(r.law) == "62C3" for r in state.card_records)


def _restored_62d(state: TableState, rv: Revoke) -> bool:
    return any(r.seq == rv.corrected and law_of(r.law) == "62D1" for r in state.card_records)


def _rule8(state: TableState, rv: Revoke) -> tuple[str, int]:
    if state.edition == Edition.E1997:
        return ("62D2 the offender's partner played to trick 12 after the revoke card: he may not choose a "
                "play suggested by the revoke card (seed 001 rule 8)", rv.seq)
    return ("62D2 the offender's partner played to trick 12 after the revoke card: Law 16C applies to the "
            "information from the withdrawn card", rv.seq)


def _partner_played_after(state: TableState, rv: Revoke) -> bool:
    """Seed 001 rule 8: a defender's revoke on trick 12 before his partner played,
    the partner holding cards of two suits or more."""
    if rv.seat.side is state.contract.side:  # type: ignore[union-attr]  # a revoke is made in play: a contract
        return False
    trick = state.tricks[rv.trick - 1]
    p = trick.card_of(rv.seat.partner)
    if p is None or p.seq < rv.seq:
        return False
    held = {c.suit for c in state.hand(rv.seat.partner)} | {
        q.card.suit for t in state.tricks if t.number >= rv.trick for q in t.cards if q.seat is rv.seat.partner}
    return len(held) >= 2


def _transfer(state: TableState, rv: Revoke) -> tuple[int, str]:
    """64A: the tricks transferred for one established revoke (play has ended)."""
    side = rv.seat.side
    trick = state.tricks[rv.trick - 1] if rv.trick <= len(state.tricks) else None
    complete = [t for t in state.tricks if t.winner is not None]
    claim_os = _claim_tricks(state, side)
    os_from = [t for t in complete if t.number >= rv.trick and t.winner.side is side]  # type: ignore[union-attr]  # a complete trick has a winner
    os_after = [t for t in os_from if t.number > rv.trick]
    won_from = len(os_from) + claim_os
    won_after = len(os_after) + claim_os
    if trick is not None and trick.winner is rv.seat:
        return 1 + (1 if won_after else 0), "64A1"
    if won_from == 0:
        return 0, "64B1"
    if state.edition == Edition.E1997 and won_from >= 2:
        legal = _led_suit_held(state, rv)
        if any(t.winner is rv.seat and (p := t.card_of(rv.seat)) is not None and p.card in legal
               for t in os_after):
            return 2, "64A2"
    return 1, "64A2"


def _led_suit_held(state: TableState, rv: Revoke) -> set[Card]:
    """The cards of the suit led that the offender could legally have played to the revoke trick."""
    before = {p.card for t in state.tricks if t.number < rv.trick for p in t.cards if p.seat is rv.seat}
    return {c for c in state.board.deal.hand(rv.seat) if c.suit is rv.suit and c not in before}


def _cap(state: TableState, found: list[Revoke]) -> list[Revoke]:
    """The tricks transferred never exceed the tricks the offending side won from the first revoke trick on."""
    out: list[Revoke] = []
    room: dict[Any, int] = {}
    for rv in found:
        if rv.tricks == 0:
            out.append(rv)
            continue
        side = rv.seat.side
        if side not in room:
            room[side] = sum(1 for t in state.tricks if t.winner is not None and t.number >= rv.trick
                             and t.winner.side is side) + _claim_tricks(state, side)
        tricks = min(rv.tricks, room[side])
        room[side] -= tricks
        out.append(attrs.evolve(rv, tricks=tricks))
    return out


# -- what the rest of the ledger reads -----------------------------------------------------------

def base_tricks(state: TableState) -> int:
    """Declarer's tricks as played (and claimed), before any transfer."""
    won, _ = state.tricks_won()
    assert state.contract is not None
    claim = state.claim
    if claim is not None and claim.settled_tricks is not None:
        won += _claim_tricks(state, state.contract.side)
    return won


def net_transfer(state: TableState, found: tuple[Revoke, ...] | None = None) -> int:
    """Tricks transferred to declarer (negative: to the defenders)."""
    assert state.contract is not None
    found = revokes(state) if found is None else found
    side = state.contract.side
    return sum(-r.tricks if r.seat.side is side else r.tricks for r in found)


# -- option effects -------------------------------------------------------------------------

def on_dummy_lead_choice(state: TableState, choice: Choice) -> TableState:
    """43B2a: declarer's next lead is from the hand the defender chose; that lead is in turn
    (no lead out of turn, no Law 55 option)."""
    trick = state.current_trick
    if state.contract is None or state.phase != PLAY or trick is None or not trick.complete \
            or trick.winner is None or trick.winner.side is not state.contract.side:
        return state
    seat = state.contract.declarer if choice.option == "lead_from_hand" else state.contract.declarer.partner
    return attrs.evolve(state, lead_hand=(len(state.tricks) + 1, seat))


OPTION_EFFECTS = {"43B2a": on_dummy_lead_choice}


def on_withdrawal_choice(state: TableState, choice: Choice) -> TableState:
    """62C1: a non-offender takes back the card he played after the revoke card, now corrected."""
    if choice.option != "withdraw_card" or not state.tricks:
        return state

    index = len(state.tricks) - 1
    p = state.tricks[index].card_of(choice.seat)
    if p is None:
        return state
    state = cards.not_made(state, p.seq, choice.seat, str(p.card),
                      "taken back after the revoke card before it was corrected", choice.law)
    return cards.remove_card(state, index, choice.seat)  # the same move as a legal withdrawal (47)


OPTION_EFFECTS["62C1"] = on_withdrawal_choice


# -- rules: what the engine emits for the reading --------------------------------------------

def revoke_rulings(state: TableState) -> list[Prescription]:
    """Every rectification the revokes of the board call for, as they read now."""
    if state.contract is None or not state.tricks:
        return []
    found = revokes(state)
    out: list[Prescription] = []
    due = {"declarer": 0, "defenders": 0}
    laws: dict[str, str | None] = {}
    causes: dict[str, list[int]] = {"declarer": [], "defenders": []}
    for rv in found:
        if not rv.breach:  # a breach's is recorded with it (ledger.laws.calls.lead_breaches)
            out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.REVOKE, offender=str(rv.seat), about=rv.seq),
                                    (rv.seq,), state.cite("61A")))
        if rv.established is not None:
            out.append(Prescription(RevokeEstablished(seat=rv.seat, trick=rv.trick),
                                    (rv.seq, rv.established), rv.established_law))
        if rv.corrected is not None and rv.exempt not in (state.cite("62D1"), state.cite("64B8")):  # 62C3: no NOS
            out += _withdrawal_offers(state, rv)
        for reason, about in rv.reviews:
            law = reason.split(" ", 1)[0]
            out.append(Prescription(DirectorReviewRequired(reason=reason, about=about), (rv.seq,),
                                    state.cite(law)))
        if rv.tricks:
            to = "defenders" if rv.seat.side is state.contract.side else "declarer"
            due[to] += rv.tricks
            laws.setdefault(to, rv.law)
            causes[to].append(rv.seq)
    if state.phase == ENDED:
        last = _last_seq(state)
        for to, tricks in due.items():
            if tricks:
                out.append(Prescription(TricksTransferred(to=to, tricks=tricks), tuple(causes[to]) + (last,),
                                        laws[to]))
    return out


def _last_seq(state: TableState) -> int:
    claim = state.claim
    if claim is not None and claim.settled_tricks is not None:
        return claim.seq
    return state.tricks[-1].cards[-1].seq


def _withdrawal_offers(state: TableState, rv: Revoke) -> list[Prescription]:
    """62C1: each non-offender who played to the revoke trick after the revoke card, before
    the correction, may withdraw his card (the offending side's next card may follow, 62C2)."""
    corrected = rv.corrected
    assert corrected is not None  # narrowing: asked only for a corrected revoke (revoke_rulings)
    nos = rv.seat.side.other
    played: dict[Seat, int] = {}  # seat -> seq of the card he played after the revoke card, before the correction
    trick = state.tricks[rv.trick - 1] if rv.trick <= len(state.tricks) else None
    for p in trick.cards if trick is not None else ():
        if p.seat.side is nos and rv.seq < p.seq < corrected:
            played[p.seat] = p.seq
    for rec in state.card_records:  # taken back since (47D, or the option below)
        if rec.ruling == CardRuling.WITHDRAWN and rec.about is not None and rv.seq < rec.about < corrected \
                and rec.seat.side is nos:
            played.setdefault(rec.seat, rec.about)
    for choice in state.choices:
        if choice.law == state.cite("62C1") and choice.seq > corrected:
            played.setdefault(choice.seat, choice.seq)
    law = state.cite("62C1")
    return [Prescription(OptionsOffered(to=seat, options=("withdraw_card", "keep_card"), law=law),
                         (rv.seq, corrected, seq), law) for seat, seq in sorted(played.items(), key=lambda x: x[1])]


def dummy_rulings(state: TableState) -> list[Prescription]:
    """Dummy's limits (43A1b, 42B1) and, after a 43A2 violation, 43B2a."""
    dummy = state.dummy
    if dummy is None or state.phase == AUCTION:
        return []
    out: list[Prescription] = []
    violated = None
    drawn = False  # attention already drawn by another player (dummy may then call the director, 43A1a)
    end = _end_of_play(state)
    for f in state.procedure:
        if f.type == "DummyViolation":
            violated = violated or f.seq
        elif f.type == "AttentionDrawn":
            if f.by is dummy and f.seq < end and not drawn:
                out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.DUMMY_DREW_ATTENTION, offender=str(dummy),
                                                             about=f.seq), (f.seq,), state.cite("43A1b")))
            elif f.by is not dummy:
                drawn = True
        elif f.type == "RevokeInquiry" and f.by is dummy and f.to is not None \
                and f.to.side is not dummy.side:
            out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.DUMMY_INQUIRY, offender=str(dummy), about=f.seq),
                                    (f.seq,), state.cite("42B1")))
        elif f.type == "DummyWarnedDeclarer" and f.detail == "lead_from_wrong_hand" and violated is not None:
            law = state.cite("43B2a")
            out.append(Prescription(OptionsOffered(to=dummy.partner.lho, options=("lead_from_hand",
                                                                                   "lead_from_dummy"), law=law),
                                    (violated, f.seq), law))
    return out


def waivers(state: TableState) -> list[Prescription]:
    """10B (both editions): the players may not waive a rectification on their own; the
    director may let their waiver stand or cancel it. A ``RectificationWaived`` is his
    question (answered by a finding ``waiver_cancelled`` about it, or his ruling)."""
    law = state.cite("10B")
    return [Prescription(DirectorReviewRequired(
        reason=f"10B {f.by} waived the rectification of the irregularity at seq {f.about}: the director lets "
               "the waiver stand or cancels it (a finding waiver_cancelled about this fact)", about=f.seq),
        (f.seq,), law) for f in state.procedure if f.type == "RectificationWaived"]


def _end_of_play(state: TableState) -> int:
    """The seq at which play ended (the last card or the settled claim), else beyond the log."""
    if state.phase != ENDED:
        return 10 ** 9
    if state.claim is not None and state.claim.settled_tricks is not None:
        return state.claim.seq
    return state.tricks[-1].cards[-1].seq if state.tricks else 10 ** 9


# -- words: the revokes and the procedure in the state document -----------------------------

def describe(rv: Revoke, state: TableState) -> str:
    """The revoke in plain words, with its Laws."""
    who = f"{rv.seat}{' (dummy)' if rv.dummy else ''}"
    breach = next((b for b in state.breaches if b.seq == rv.seq), None) if rv.breach else None
    if breach is not None:  # against a penalty card, a lead restriction or a 57A play restriction
        text = f"{breach.detail} ({state.cite('61A')})"
    else:
        text = f"{who} played {rv.card} to trick {rv.trick} holding {rv.suit.symbol} ({state.cite('61A')})"
    if rv.corrected is not None:
        law = "62D1" if _restored_62d(state, rv) else "62C3" if _corrected_62c3(state, rv) else "62B"
        text += f"; corrected at seq {rv.corrected} ({state.cite(law)})"
    if rv.is_established:
        text += f"; established at seq {rv.established} ({rv.established_law})"
        if rv.as_if:
            text += ", Law 64 applies as if it stood"
    elif rv.corrected is None:
        text += "; not established yet: it may be corrected (62A)"
    if rv.is_established and rv.discovered is None and not rv.dummy:
        text += ("; nobody has drawn attention to it: no rectification unless attention is drawn before a "
                 f"non-offender calls on the next board or the round ends ({state.cite('64B4')}, "
                 f"{state.cite('64B5')})")
    if rv.exempt:
        text += f"; no trick transfer: {rv.exempt_reason} ({rv.exempt})"
    elif rv.tricks:
        to = "defenders" if rv.seat.side is state.contract.side else "declarer"  # type: ignore[union-attr]  # a revoke is made in play: a contract
        text += f"; {rv.tricks} trick{'s' if rv.tricks > 1 else ''} to {to} ({rv.law})"
    return text


def transfers_document(state: TableState) -> list[dict[str, Any]]:
    """The state document's ``transfers``: one entry per revoke that transfers tricks."""
    if state.contract is None or not _play_ended(state):
        return []
    side = state.contract.side
    defective: list[dict[str, Any]] = read(state, "defective trick transfers document")
    return [{"to": "defenders" if r.seat.side is side else "declarer", "tricks": r.tricks, "law": r.law,
             "revoke": r.seq} for r in revokes(state) if r.tricks] + defective


def revokes_document(state: TableState) -> list[dict[str, Any]]:
    """The state document's ``revokes`` (extension): every revoke with its reading."""
    return [{"seq": r.seq, "seat": str(r.seat), "card": str(r.card), "trick": r.trick, "suit_led": str(r.suit),
             "dummy": r.dummy, "corrected": r.corrected, "established": r.is_established,
             "established_at": r.established, "established_law": r.established_law, "as_if_established": r.as_if,
             "discovered": r.discovered, "exempt": r.exempt, "exempt_reason": r.exempt_reason or None,
             "tricks": r.tricks, "law": r.law, "reviews": [reason.split(" ", 1)[0] for reason, _ in r.reviews],
             "text": describe(r, state)} for r in revokes(state)]


# -- words and citations -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.REVOKE: "revoke",
    IrregularityKind.DUMMY_DREW_ATTENTION: "dummy drew attention to an irregularity during play (43A1b)",
    IrregularityKind.DUMMY_INQUIRY: "dummy asked a defender about a revoke (42B1)",
}
"""How the irregularities of this family's rules (``IrregularityKind``: 61 to 64, 42, 43) read for people."""

OPTION_WORDS: dict[str, str] = {
    "withdraw_card": "take back the card played after the revoke card and play again",
    "keep_card": "leave the card played",
    "lead_from_hand": "declarer leads from his own hand",
    "lead_from_dummy": "declarer leads from dummy",
}
"""Plain words for the options of revokes (62C1) and dummy (43B2a), said after their ids."""
