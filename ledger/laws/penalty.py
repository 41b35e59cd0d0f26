"""Penalty cards: Laws 49, 50, 51 (and the 61A record of a failure to
comply, through ``state.breaches``), both editions (read by
``projections.penalty``).

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

from ledger.bridge import Card
from ledger.events import (DirectorReviewRequired, LeadRestriction, OptionsOffered, PenaltyCardCleared,
                           PenaltyCardDesignated)
from ledger.laws.base import Prescription
from projections.penalty import (LEAD_OPTIONS, PICKUP_OPTIONS, History, trick_of_choice, history, law_of,
                                 lead_seq, occasion_leader, playable_majors)
from projections.state import ENDED, OPENING_LEAD, PLAY, pending_lead

BIG = 10 ** 12


def dummy_review(state, what: str, effect: str) -> str:
    """The question 1997 43B2c / 2017 43B3 leaves to the director."""
    law = "43B2c" if state.edition == "1997" else "43B3"
    return (f"{law} dummy, after a 43A2 violation, was the first to draw attention to {what}: no rectification "
            f"({effect}), play continues as though there were no irregularity; at the end of play "
            + ("the director awards an adjusted score to both sides if the defenders gained by it (equity)"
               if state.edition == "1997" else
               "the director takes away any advantage the defenders gained (adjusted score to them)"))


def penalty_cards(state) -> list[Prescription]:
    out: list[Prescription] = []
    if state.contract is None:
        return out
    hist = history(state)
    for h in hist:
        e = h.exposure
        law = e.law if e.how in ("lead_out_of_turn", "premature") else state.cite("50B")
        out.append(Prescription(PenaltyCardDesignated(seat=e.seat, card=e.card, kind=h.initial), (e.seq,), law))
        if h.upgraded is not None:
            out.append(Prescription(PenaltyCardDesignated(seat=e.seat, card=e.card, kind="major"),
                                    (e.seq, h.upgraded), state.cite("50B")))
        if h.cleared is not None:
            if h.cleared_how == "picked_up":
                law = state.cite("50D2a")
            elif h.cleared_how == "dummy_43b":  # dummy drew attention first: no rectification
                law = state.cite("43B2c" if state.edition == "1997" else "43B3")
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


def _failures(state) -> list[Prescription]:
    """52: a defender failed to lead or play a major penalty card: declarer
    accepts the card played, or requires the penalty card in its place (the
    card played becomes a major penalty card, 52B2, through the exposure)."""
    from projections.penalty import major_breaches

    out = []
    law = state.cite("52")
    for b in major_breaches(state):
        out.append(Prescription(OptionsOffered(to=state.contract.declarer, options=("accept", "require_penalty_card"),
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


def _leading_now(state) -> bool:
    trick = state.current_trick
    return (state.phase in (OPENING_LEAD, PLAY) and state.claim is None and state.face_down_lead is None
            and pending_lead(state) is None and (trick is None or trick.complete))


def _majors_at(state, hist: list[History], number: int) -> list[History]:
    """The major penalty cards of the partner of trick ``number``'s leader
    when he obtained the lead (50D2)."""
    leader = occasion_leader(state, number)
    if leader is None or leader.side is state.contract.side:
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


def _lead_offers(state, hist: list[History]) -> list[Prescription]:
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
        law = state.cite("50D2")
        out.append(Prescription(OptionsOffered(to=state.contract.declarer, options=LEAD_OPTIONS, law=law,
                                               about=about), tuple(sorted({h.exposure.seq for h in majors})), law))
    return out


def _lead_restrictions(state) -> list[Prescription]:
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


def _designations(state) -> list[Prescription]:
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
            or pending_lead(state) is not None or seat.side is state.contract.side):
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
    out.append(Prescription(OptionsOffered(to=state.contract.declarer, options=options, law=law, about=about),
                            (about,), law))
    return out


def _card_order(card: Card) -> tuple[int, int]:
    return card.sort_key
