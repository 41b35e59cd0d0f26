"""Penalty cards: Laws 49 to 51 (and 52 via ``state.breaches``), both editions.

Where penalty cards come from: ``state.exposures`` (a defender's card exposed
without being played: dropped, named, substituted, a revoke card withdrawn,
a lead out of turn refused, a fifth card). This module reads their history
(:func:`history`: when each became a penalty card, of which kind, when it
stopped being one) for the ruling engine (the rules below), folds the
engine's ``PenaltyCardDesignated`` / ``PenaltyCardCleared`` into
``state.penalty_cards``, and says when a card played breaks a penalty-card
obligation (:func:`play_breach`).

| | 1997 | 2017 |
|---|---|---|
| minor | a single card below honour rank exposed inadvertently (50B) | the same, "unintentionally" (50B) |
| major | an honour, any card exposed through deliberate play, or two or more penalty cards (50B) | the same (50B) |
| minor, restriction | no other card of that suit below honour rank before it; an honour may be played (50C) | the same (50C) |
| major, offender to play | at the first legal opportunity; following suit or a lead restriction comes first (50D1) | the same (50D1a, 50D1c) |
| major, partner to lead | declarer requires or forbids the suit (card picked up) or leaves it (50D2) | the same (50D2) |
| two or more playable | declarer designates (51A) | the same (51A) |
| information | partner may not use it (50D, 16C) | requirements authorized, the rest unauthorized to partner (50E) |

What the ruling engine emits for this reading (the rules below):

| facts | rectification |
|---|---|
| a defender's card exposed (dropped, named, substituted, a revoke card withdrawn, a lead out of turn refused, a fifth card) | ``PenaltyCardDesignated`` ``minor`` (a single card below honour rank exposed inadvertently) or ``major`` (50B; 54D, 56 for a lead out of turn refused) |
| a second penalty card of the same defender | ``PenaltyCardDesignated`` ``major`` for the first one too (50B) |
| the penalty card played, or picked up under 50D2a | ``PenaltyCardCleared`` (50C, 50D1a, 50D2a) |
| the owner's partner obtains the lead while a major penalty card is there | ``OptionsOffered`` to declarer: ``require_suit``, ``forbid_suit`` (with the suit of a penalty card: ``LeadRestriction``, the card picked up) or ``leave_penalty_card`` (50D2) |
| two or more major penalty cards can legally be played | ``OptionsOffered`` ``play:<card>`` to declarer (51A) |
| a play against a penalty card when able to comply | ``IrregularityRecorded`` ``revoke`` (61A, no trick transfer 64B3), from ``state.breaches`` (``ledger.laws.calls.lead_breaches``) |

Information (1997 50D, 16C; 2017 50E): that the card must be played is
authorized to everyone; anything else its sight tells the owner's partner is
not. Whether a partner used it is the director's judgment, asked for only
when a side reserves its rights (not prescribed here).
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from ledger.bridge import Card, Seat, Suit
from ledger.events import (DirectorReviewRequired, LeadRestriction, OptionsOffered, PenaltyCardCleared,
                           PenaltyCardDesignated)
from ledger.laws.base import Citations, Prescription, Ruled, at_play, cited, handles, on_play_on
from projections.cards import dummy_first_attention, dummy_first_law, dummy_review, locate, replace_card
from projections.derived import read
from projections.fold import Step, law_of
from projections.obligations import active_restrictions
from projections.state import ENDED, OPENING_LEAD, PLAY, Breach, Choice, Contract, Exposure, PenaltyCard, TableState, pending_lead
from projections.vocab import Edition, PenaltyKind

LAWS = ("50", "51", "52")
"""The Laws this family rules on (``ledger.laws.find_law``)."""


DELIBERATE = frozenset({"substituted", "withdrawn", "named", "lead_out_of_turn", "premature"})
"""Exposures through deliberate play (50B: major whatever the rank)."""
INADVERTENT = frozenset({"dropped", "fifth_card"})
"""Exposures by accident (50B: minor when a single card below honour rank)."""
PENALTY_HOWS = DELIBERATE | INADVERTENT

AUCTION_HOWS = frozenset({"auction_major", "auction_minor"})
"""Cards a future defender exposed during the auction (Law 24), penalty cards once the
auction closes: 2017 24E; 1997 24 when declarer chose ``treat_as_penalty_card``."""
AUCTION_RECORD_LAWS = ("24A", "24B", "24C")
"""The Laws a card exposed during the auction is recorded under (the record's own Law; a
card faced at the opening lead, 2017 54E / 1997 24, is not one: it goes back to the hand)."""

CITATIONS: Citations = {
    "major penalty card, partner on lead": {"1997": "50D2", "2017": "50D2"},
    "penalty cards of several suits": {"1997": "51B", "2017": "51B"},
}
"""The family's citations per edition (``ledger.laws.base.cited``). The Law that makes a card
exposed during the auction a penalty card (2017 24E; 1997 24, declarer's choice) is the Law 24
family's (``ledger.laws.exposed``), which designates it; this family reads it from the record."""

PICKUP_OPTIONS = ("require_suit", "forbid_suit")
LEAD_OPTIONS = ("require_suit", "forbid_suit", "leave_penalty_card")


# -- the reading of the facts: each penalty card's history ----------------------------------

@attrs.frozen
class History:
    """One penalty card's life: designated at ``exposure.seq`` as ``initial``;
    major from ``upgraded`` on (50B, a second penalty card); cleared at
    ``cleared`` (``played``, or ``picked_up`` under 50D2a at lead occasion
    ``pickup_trick``, with the choice's seq ``pickup``)."""

    exposure: Exposure
    initial: PenaltyKind
    upgraded: int | None = None
    cleared: int | None = None
    cleared_how: str | None = None
    pickup: int | None = None
    pickup_trick: int | None = None

    @property
    def seat(self) -> Seat:
        return self.exposure.seat

    @property
    def card(self) -> Card:
        return self.exposure.card

    def alive_at(self, seq: int) -> bool:
        return self.exposure.seq < seq and (self.cleared is None or self.cleared > seq)

    def major_at(self, seq: int) -> bool:
        return self.initial == PenaltyKind.MAJOR or (self.upgraded is not None and self.upgraded <= seq)


def lead_seq(state: TableState, number: int) -> int | None:
    """Seq of the first card of trick ``number``, if it was led."""
    if number <= len(state.tricks) and state.tricks[number - 1].cards:
        return state.tricks[number - 1].cards[0].seq
    return None


def occasion_leader(state: TableState, number: int) -> Seat | None:
    """The seat whose lead trick ``number`` is (the previous trick's winner;
    the declarer's LHO for the first), whoever actually led it."""
    if state.contract is None:
        return None
    if number == 1:
        return _contract(state).declarer.lho
    if number - 1 <= len(state.tricks):
        return state.tricks[number - 2].winner
    return None


def trick_of_choice(state: TableState, seq: int) -> int:
    """The lead occasion a choice at ``seq`` belongs to: the first trick led after it."""
    for trick in state.tricks:
        if trick.cards and trick.cards[0].seq > seq:
            return trick.number
    return len(state.tricks) + 1


def _pickups(state: TableState) -> list[tuple[int, int, Seat | None, Suit]]:
    """(choice seq, trick, owner, suit) for every 50D2 require/forbid choice."""
    out = []
    for c in state.choices:
        if law_of(c.law) != "50D2" or c.option not in PICKUP_OPTIONS or c.suit is None:
            continue
        trick = trick_of_choice(state, c.seq)
        leader = occasion_leader(state, trick)
        out.append((c.seq, trick, leader.partner if leader else None, c.suit))
    return out


def not_rectified(state: TableState, seq: int) -> bool:
    """The fact at ``seq`` is not rectified: the director let the players' waiver stand
    (``RectificationWaived`` about it, finding ``waiver_cancelled: false``, 10B) or found
    the right to rectification forfeited (finding ``rectification_forfeited: true``, 11A).
    An exposed card is then no penalty card and goes back to the hand with no obligation."""
    forfeited = waived = None
    waivers = {f.seq for f in state.procedure if f.type == "RectificationWaived" and f.about == seq}
    for f in state.findings:
        if f.field == "rectification_forfeited" and f.about == seq:
            forfeited = f.value
        elif f.field == "waiver_cancelled" and f.about in waivers:
            waived = f.value
    return forfeited is True or waived is False


def _played_after(state: TableState, seat: Seat, card: Card, seq: int) -> int | None:
    for t in state.tricks:
        for p in t.cards:
            if p.seat is seat and p.card == card and p.seq > seq:
                return p.seq
    return None


def auction_cards(state: TableState) -> list[Exposure]:
    """The cards a defender exposed during the auction that are penalty cards since it closed
    (2017 24E; 1997 24 on ``treat_as_penalty_card``), read as exposures: ``auction_minor`` for a
    single card below honour rank not led (24A, 50B), ``auction_major`` otherwise. The Law 24
    family designates them; this reading lets Laws 50 and 51 follow them (50D2 at the opening
    lead included)."""
    contract = state.contract
    if contract is None or not state.card_records:
        return []
    records = [r for r in state.card_records
               if r.card is not None and law_of(r.law) in AUCTION_RECORD_LAWS and r.seat.side is not contract.side]
    if not records:
        return []
    if state.edition == Edition.E1997:  # declarer's one choice for all the cards (LAWS-DIGEST 14.12 decision 9)
        chosen = next((c for c in state.choices if law_of(c.law) == "24"), None)
        if chosen is None or chosen.option != "treat_as_penalty_card":
            return []
    out = []
    for r in records:
        assert r.card is not None
        single = sum(1 for x in records if x.seat is r.seat) == 1
        how = "auction_minor" if single and law_of(r.law) == "24A" else "auction_major"
        out.append(Exposure(r.seq, r.seat, r.card, how, r.law or ""))
    return out


def history(state: TableState) -> list[History]:
    """Every penalty card the board has had, in order of exposure."""
    if state.contract is None:
        return []
    pickups = _pickups(state)
    base: list[History] = []
    for e in read(state, "exposures"):  # without a revoke card whose rectification was forfeited (11A)
        if e.how not in PENALTY_HOWS or e.seat.side is _contract(state).side or not_rectified(state, e.seq):
            continue
        h = History(e, PenaltyKind.MINOR)
        played = _played_after(state, e.seat, e.card, e.seq)
        picked = next(((s, t) for s, t, owner, suit in pickups
                       if owner is e.seat and suit is e.card.suit and s > e.seq), None)
        dummy = None if e.how == "lead_out_of_turn" else dummy_first_attention(state, e.seq)  # 43B3, 43B2c
        if dummy is not None and (played is None or dummy < played) and (picked is None or dummy < picked[0]):
            h = attrs.evolve(h, cleared=dummy, cleared_how="dummy_43b")
        elif picked is not None and (played is None or picked[0] < played):
            h = attrs.evolve(h, cleared=picked[0], cleared_how="picked_up", pickup=picked[0],
                             pickup_trick=picked[1])
        elif played is not None:
            h = attrs.evolve(h, cleared=played, cleared_how="played")
        base.append(h)
    for e in auction_cards(state):  # 2017 24E, 1997 24: penalty cards since the auction closed
        if not_rectified(state, e.seq):
            continue
        h = History(e, PenaltyKind.MINOR)
        played = _played_after(state, e.seat, e.card, e.seq)
        picked = next(((s, t) for s, t, owner, suit in pickups
                       if owner is e.seat and suit is e.card.suit and s > e.seq), None)
        if picked is not None and (played is None or picked[0] < played):
            h = attrs.evolve(h, cleared=picked[0], cleared_how="picked_up", pickup=picked[0],
                             pickup_trick=picked[1])
        elif played is not None:
            h = attrs.evolve(h, cleared=played, cleared_how="played")
        base.append(h)
    base.sort(key=lambda h: h.exposure.seq)
    out = []
    for h in base:
        e = h.exposure
        others = [o for o in base if o is not h and o.seat is h.seat]
        deliberate = e.how in DELIBERATE or e.how == "auction_major" or e.card.is_honour
        if deliberate or any(o.alive_at(e.seq) for o in others):
            h = attrs.evolve(h, initial=PenaltyKind.MAJOR)
        else:
            later = [o.exposure.seq for o in others if o.exposure.seq > e.seq and h.alive_at(o.exposure.seq)]
            if later:
                h = attrs.evolve(h, upgraded=min(later))
        out.append(h)
    return out


def alive(state: TableState, seat: Seat | None = None) -> list[PenaltyCard]:
    """Penalty cards in force, still in the hand (of ``seat`` when given)."""
    return [p for p in state.penalty_cards
            if (seat is None or p.seat is seat) and state.holds(p.seat, p.card)]


# -- the fold of the engine's events -------------------------------------------

@handles(PenaltyCardDesignated)
def on_designated(state: TableState, step: Step[PenaltyCardDesignated]) -> TableState:
    seq, ev = step.seq, step.event
    kept = tuple(p for p in state.penalty_cards if not (p.seat is ev.seat and p.card == ev.card))
    exposure = next((e for e in reversed(state.exposures) if e.seat is ev.seat and e.card == ev.card), None)
    law = exposure.law if exposure is not None and exposure.how in ("lead_out_of_turn", "premature") \
        and ev.kind == PenaltyKind.MAJOR \
        else state.cite("50B")
    return attrs.evolve(state, penalty_cards=kept + (PenaltyCard(seq, ev.seat, ev.card, ev.kind, law),))


@handles(PenaltyCardCleared)
def on_cleared(state: TableState, step: Step[PenaltyCardCleared]) -> TableState:
    ev = step.event
    return attrs.evolve(state, penalty_cards=tuple(p for p in state.penalty_cards
                                                   if not (p.seat is ev.seat and p.card == ev.card)))


# -- obligations when the owner plays ----------------------------------------------

def designated_card(state: TableState, seat: Seat) -> Card | None:
    """The penalty card declarer designated (51A) for ``seat``'s current play, if any."""
    played = [p.seq for t in state.tricks for p in t.cards]
    last = max(played) if played else 0
    for c in reversed(state.choices):
        if law_of(c.law) == "51A" and c.option.startswith("play:") and c.seq > last:
            card = Card.parse(c.option.split(":", 1)[1])
            if state.holds(seat, card):
                return card
    return None


def playable_majors(state: TableState, seat: Seat) -> list[Card]:
    """The major penalty cards ``seat`` must choose among at this play (50D1a):
    leading, all of them (unless a lead restriction applies, 50D1c); following,
    those of the suit led, or, void in it, all of them; none when he can
    follow suit with another card only."""
    majors = [p.card for p in alive(state, seat) if p.kind == PenaltyKind.MAJOR]
    if not majors:
        return []
    trick = state.current_trick
    if trick is None or trick.complete:
        if any(r.seat is seat for r in active_restrictions(state)):
            return []  # a lead restriction comes first (1997 50D1b, 2017 50D1c)
        return majors
    led = trick.suit_led
    of_led = [c for c in majors if c.suit is led]
    if of_led:
        return of_led
    if any(c.suit is led for c in state.hand(seat)):
        return []  # following suit comes first
    return majors


@at_play("breach")
def play_breach(state: TableState, seat: Seat, card: Card) -> str | None:
    """A play against a penalty card when the player could comply (61A, 52)."""
    pcs = alive(state, seat)
    if not pcs:
        return None
    majors = playable_majors(state, seat)
    designated = designated_card(state, seat)
    if designated is not None and card != designated and designated in majors:
        return f"{seat} played {card}; declarer had designated the penalty card {designated} (51A)"
    if majors and card not in majors:
        names = " ".join(str(c) for c in majors)
        return f"{seat} played {card} instead of the major penalty card {names} (50D1)"
    for p in pcs:
        if p.kind == PenaltyKind.MINOR and card != p.card and card.suit is p.card.suit and not card.is_honour:
            return (f"{seat} played {card} before the minor penalty card {p.card}, a lower card of its suit "
                    "(50C)")
    return None


def implied_suit(state: TableState, option: str) -> Suit | None:
    """50D2a: the suit declarer requires or forbids when he names none, the suit of the
    penalty card(s) when there is one (the fold's default suit of the option)."""
    if option not in PICKUP_OPTIONS:
        return None
    implied = lead_option_suits(state)
    return next(iter(implied)) if len(implied) == 1 else None


def lead_option_suits(state: TableState) -> set[Suit]:
    """The suits declarer may require or forbid under 50D2 (51B): those of the
    major penalty cards of the partner of the player on lead."""
    leader = state.turn
    if leader is None:
        return set()
    return {p.card.suit for p in alive(state, leader.partner) if p.kind == PenaltyKind.MAJOR}


# -- option effects and lapses: Law 52, a major penalty card not played (the leads family
# registers the effect of its offer with its own) ---------------------------------------------

MAJOR_BREACH = ("(50D1)", "(51A)")
"""Breach details that are a failure to lead or play a major penalty card (52)."""


def _contract(state: TableState) -> Contract:
    """The contract, read where the play has begun (a penalty card's breach, lead or designation)."""
    contract = state.contract
    assert contract is not None  # narrowing: these rules run on a breach or lead of the play, after the auction
    return contract


def major_breaches(state: TableState) -> list[Breach]:
    return [b for b in state.breaches if b.detail.endswith(MAJOR_BREACH)]


def on_52_choice(state: TableState, choice: Choice) -> TableState:
    """52B2 (``require_penalty_card``): the card illegally played goes back
    and becomes a major penalty card; the penalty card takes its place. With
    two or more penalty cards that could replace it, nothing moves: the
    engine asks the director (51A)."""
    if choice.option != "require_penalty_card":
        return state
    breach = next((b for b in reversed(major_breaches(state)) if b.seq < choice.seq), None)
    if breach is None:
        return state
    found = next(((i, p) for i, t in enumerate(state.tricks) for p in t.cards if p.seq == breach.seq), None)
    if found is None:
        return state
    index, played = found
    trick = state.tricks[index]
    majors = [p.card for p in alive(state, breach.seat) if p.kind == PenaltyKind.MAJOR]
    if trick.cards[0].seat is not breach.seat:
        led = trick.suit_led
        of_led = [c for c in majors if c.suit is led]
        majors = of_led or majors
    if len(majors) != 1:
        return state
    law = state.cite("52B2")
    state, _ = replace_card(state, index, breach.seat, majors[0], choice.seq, law)
    assert locate(state, breach.seat, majors[0]) is not None
    return attrs.evolve(state, exposures=state.exposures + (Exposure(choice.seq, breach.seat, played.card,
                                                                     "substituted", law),))


@on_play_on
def lapse_52(state: TableState, seat: Seat) -> TableState:
    """52B1a: declarer must accept once he has played from either hand since.
    A defender's card answers an open 51A designation offer (declarer did not
    designate: the card played is read as it is)."""
    if state.contract is None:
        return state
    lapsing = "51A" if seat.side is not _contract(state).side else "52"
    kept = tuple(o for o in state.pending if law_of(o.law) != lapsing)
    return attrs.evolve(state, pending=kept) if kept != state.pending else state


OPTION_EFFECTS = {"52": on_52_choice}
"""52B2: the option of the card illegally played (offered by the penalty cards' rule)."""


# -- rules: what the engine emits for the reading --------------------------------------------

BIG = 10 ** 12


def penalty_cards(state: TableState) -> list[Prescription]:
    out: list[Prescription] = []
    if state.contract is None:
        return out
    hist = history(state)
    for h in hist:
        e = h.exposure
        auction = e.how in AUCTION_HOWS  # designated by the Law 24 family when the auction closed
        law = e.law if e.how in ("lead_out_of_turn", "premature") else state.cite("50B")
        if not auction:
            out.append(Prescription(PenaltyCardDesignated(seat=e.seat, card=e.card, kind=h.initial), (e.seq,), law))
        if h.upgraded is not None:
            out.append(Prescription(PenaltyCardDesignated(seat=e.seat, card=e.card, kind=PenaltyKind.MAJOR),
                                    (e.seq, h.upgraded), state.cite("50B")))
        if h.cleared is not None:
            if h.cleared_how == "picked_up":
                law = state.cite("50D2a")
            elif h.cleared_how == "dummy_43b":  # dummy drew attention first: no rectification
                law = state.cite(dummy_first_law(state))
            else:
                law = state.cite("50D1a" if h.major_at(h.cleared) else "50C")
            out.append(Prescription(PenaltyCardCleared(seat=e.seat, card=e.card), (e.seq, h.cleared), law))
            if h.cleared_how == "dummy_43b":
                out.append(Prescription(DirectorReviewRequired(reason=dummy_review(
                    state, f"{e.seat}'s exposed card {e.card}", "it is no penalty card"), about=h.cleared),
                    (e.seq, h.cleared), law))
    out += _lead_offers(state, hist)
    out += _lead_restrictions(state)
    out += _designations(state)
    out += _failures(state)
    return out


def _failures(state: TableState) -> list[Prescription]:
    """52: a defender failed to lead or play a major penalty card: declarer
    accepts the card played, or requires the penalty card in its place (the
    card played becomes a major penalty card, 52B2, through the exposure)."""
    out = []
    law = state.cite("52")
    for b in major_breaches(state):
        out.append(Prescription(OptionsOffered(to=_contract(state).declarer, options=("accept", "require_penalty_card"),
                                               law=law, about=b.seq), (b.seq,), law))
    for c in state.choices:
        if law_of(c.law) != "52" or c.option != "require_penalty_card":
            continue
        breach = next((b for b in reversed(major_breaches(state)) if b.seq < c.seq), None)
        moved = any(e.seq == c.seq and e.how == "substituted" for e in state.exposures)
        if breach is not None and not moved:
            out.append(Prescription(DirectorReviewRequired(
                reason="51A two or more penalty cards could replace the card played: declarer designates one, "
                       "the director moves it", about=c.seq), (breach.seq, c.seq), state.cite("51A")))
    return out


def _leading_now(state: TableState) -> bool:
    trick = state.current_trick
    return (state.phase in (OPENING_LEAD, PLAY) and state.claim is None and state.face_down_lead is None
            and not pending_lead(state) is not None and (trick is None or trick.complete))


def _majors_at(state: TableState, hist: list[History], number: int) -> list[History]:
    """The major penalty cards of the partner of trick ``number``'s leader
    when he obtained the lead (50D2)."""
    leader = occasion_leader(state, number)
    if leader is None or leader.side is _contract(state).side:
        return []
    lead = lead_seq(state, number)
    if lead is None and not (number == len(state.tricks) + 1 and _leading_now(state)):
        return []
    at = lead if lead is not None else BIG
    out = []
    for h in hist:
        if h.seat is not leader.partner or h.exposure.seq >= at or not h.major_at(at):
            continue
        if h.cleared_how == "played" and h.cleared is not None and h.cleared < at:
            continue
        if h.cleared_how == "picked_up" and h.pickup_trick is not None and h.pickup_trick < number:
            continue
        out.append(h)
    return out


def _lead_offers(state: TableState, hist: list[History]) -> list[Prescription]:
    out: list[Prescription] = []
    if not hist:  # no penalty card: no offer (and no read of the tricks, which change at every card)
        return out
    if state.phase == ENDED and not state.tricks:
        return out
    last = len(state.tricks) + (1 if _leading_now(state) else 0)
    for number in range(1, last + 1):
        majors = _majors_at(state, hist, number)
        if not majors:
            continue
        if number == 1:
            about = min(h.exposure.seq for h in majors)
        else:
            about = max(p.seq for p in state.tricks[number - 2].cards)
        law = cited(state, CITATIONS, "major penalty card, partner on lead")
        # 51B: with penalty cards of two suits or more the offer is made under 51B (the options stay 50D2's)
        cite = cited(state, CITATIONS, "penalty cards of several suits") \
            if len({h.exposure.card.suit for h in majors}) > 1 else law
        out.append(Prescription(OptionsOffered(to=_contract(state).declarer, options=LEAD_OPTIONS, law=law,
                                               about=about), tuple(sorted({h.exposure.seq for h in majors})), cite))
    return out


def _lead_restrictions(state: TableState) -> list[Prescription]:
    out = []
    for c in state.choices:
        if law_of(c.law) != "50D2" or c.option not in PICKUP_OPTIONS or c.suit is None:
            continue
        leader = occasion_leader(state, trick_of_choice(state, c.seq))
        if leader is None:
            continue
        mode, lasts = ("must", "next_lead") if c.option == "require_suit" else ("must_not", "while_on_lead")
        out.append(Prescription(LeadRestriction(seat=leader, suit=c.suit, mode=mode, lasts=lasts, about=c.seq),
                                (c.offer, c.seq), state.cite("50D2a")))
    return out


def _designations(state: TableState) -> list[Prescription]:
    """51A: declarer designates which of two or more penalty cards is played.
    Offers already made stay prescribed (they rest on the position when they
    were made, which later plays change)."""
    out = []
    for key, _ in state.rectifications:
        if not key.startswith("OptionsOffered:"):
            continue
        data = json.loads(key.split(":", 1)[1])
        if law_of(data.get("law")) == "51A":
            out.append(Prescription(OptionsOffered.from_data(data), (data.get("about"),) if data.get("about")
                                    else (), data["law"]))
    if not state.penalty_cards:  # no penalty card in force: none to designate (playable_majors)
        return out
    seat = state.turn
    if (seat is None or state.phase not in (OPENING_LEAD, PLAY) or state.claim is not None
            or pending_lead(state) is not None or seat.side is _contract(state).side):
        return out
    if any(law_of(o.law) == "50D2" for o in state.pending):
        return out
    cards = playable_majors(state, seat)
    if len(cards) < 2:
        return out
    played = [p.seq for t in state.tricks for p in t.cards]
    about = max(played) if played else min(p.seq for p in state.penalty_cards)
    law = state.cite("51A")
    options = tuple(f"play:{c}" for c in sorted(cards, key=_card_order))
    out.append(Prescription(OptionsOffered(to=_contract(state).declarer, options=options, law=law, about=about),
                            (about,), law))
    return out


def _card_order(card: Card) -> tuple[int, int]:
    return card.sort_key


# -- words: the penalty cards in the state document ------------------------------------------

def document(state: TableState) -> list[dict[str, Any]]:
    """``penalty_cards`` of the state document: ``{seat, card, kind}`` (spec
    section 5), with ``seq`` (the designation) and ``law`` (extension)."""
    return [{"seat": str(p.seat), "card": str(p.card), "kind": p.kind, "seq": p.seq, "law": p.law}
            for p in alive(state)]


# -- words and citations -----------------------------------------------------------------

PENALTY_KINDS: dict[PenaltyKind, Ruled] = {
    PenaltyKind.MAJOR: Ruled(" (to be played at the first legal opportunity; when partner is to lead, declarer may "
                             "require or forbid its suit: 50D)", {"1997": "50D", "2017": "50D"}),
    PenaltyKind.MINOR: Ruled(" (no other card of its suit below honour rank before it; an honour may be played: 50C)",
                             {"1997": "50C", "2017": "50C"}),
}
"""Each kind of penalty card: what it obliges, said after the card (``ledger.render``, the
document's ``penalty_cards``), and the Law of it by edition, every edition named (``None``:
cannot arise under it; none here). The designation carries its own Law (50B, 54D, 24...)."""

OPTION_WORDS: dict[str, str] = {
    "leave_penalty_card": "no restriction: the penalty card stays",
    "require_penalty_card": "the penalty card replaces the card played, which becomes a penalty card",
}
"""Plain words for declarer's options on penalty cards (50D2, 52), said after their ids."""

OPTION_WORDS_BY_LAW: dict[tuple[str, str], str] = {
    ("52", "accept"): "accept the card played",
}
"""Words that Law 52 gives an option of its own."""
