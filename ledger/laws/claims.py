"""Claims and concessions (Laws 68 to 71, 79C; spec 1.3 section 10, LAWS-DIGEST 15): one family,
its reading and its rules, both editions.

The reading (the fold):

* ``ClaimMade`` (68A, 68B1): the claimer's side will take ``tricks`` of the ``R`` remaining tricks (the
  trick in progress counts) and concedes the rest; play is suspended (68D: a card after it is no play,
  ``projections.play``); the position is kept (the floor ``G`` and the director's line start from it)
  with the trumps the claimer's opponents hold (70C).
* ``ClaimAgreed`` by an opponent (68D1, 69A): the board is scored as claimed; the second defender's
  agreement is recorded too. The agreement is **established** when a member of the agreeing side calls
  on a later board (``NextBoardStarted`` with that side) or the round ends (``RoundEnded``).
* ``ClaimDisputed`` is read by its moment and its author (:func:`objection_law`): 68B2 (the partner of a
  defender who conceded, at once: no claim, no concession, play resumes), 70 (a claim pending, or
  agreed and not established: the result is withdrawn, the director rules), 69B (the agreeing side,
  the agreement established), 71 (the claimer's side questions its concession), 79C (after
  ``CorrectionPeriodEnded``: no effect).
* ``ClaimRuled`` (70): the director's award, with his line of play when he gives one (checked on
  append, ``ledger.checks``); it answers every open question of the claim.
* ``ClaimRescored`` (the engine's): the tricks credited to the claimer's side after 69B or 71.

The rules (the engine): 71 at the agreement (LAWS-DIGEST 15.11 decision 6) and on the conceding side's
objection, 69B on the agreeing side's, each only where ``G`` proves it (``ledger.laws.fewest``: a trick
the side takes over every legal play); anything beyond the floor, and every disputed claim, is the
director's: the engine asks (``DirectorReviewRequired``) and never guesses "normal play".
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import attrs

from ledger.bridge import Card, Seat, Side, Suit
from ledger.events import (ClaimAgreed, ClaimDisputed, ClaimMade, ClaimRescored, ClaimRuled, CorrectionPeriodEnded,
                           DirectorReviewRequired)
from ledger.laws.base import Prescription, handles
from ledger.laws.fewest import EXACT_LIMIT, fewest_tricks
from projections.fold import Step
from projections.play import final_result, trick_winner
from projections.procedure import journalled
from projections.state import unprocessed
from projections.state import (ENDED, OPENING_LEAD, PLAY, Claim, Irregularity, Objection, PlayedCard, TableState,
                               Trick)
from projections.vocab import IrregularityKind

LAWS = ("68", "69", "70", "71", "79")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

OPEN = ("pending", "agreed", "disputed", "ruled")
"""A claim in one of these states still stands (``void``: 68B2, no claim)."""

# -- the reading of the facts (fold handlers) ---------------------------------------------


def remaining_tricks(state: TableState) -> int:
    return 13 - sum(1 for t in state.tricks if t.complete)


def claim_active(state: TableState) -> bool:
    """A claim stands: play has ceased (68D)."""
    return state.claim is not None and state.claim.status != "void"


@handles(ClaimMade)
def on_claim_made(state: TableState, step: Step[ClaimMade]) -> TableState:
    seq, ev = step.seq, step.event
    if state.phase not in (OPENING_LEAD, PLAY) or state.claim is not None and state.claim.status not in (
            "disputed", "void"):
        return unprocessed(state, seq, ev.TYPE, ev.seat, f"claim by {ev.seat} outside the play")
    remaining = remaining_tricks(state)
    if ev.tricks > remaining:
        return unprocessed(state, seq, ev.TYPE, ev.seat,
                            f"claim of {ev.tricks} tricks with {remaining} to play")
    current = state.current_trick
    in_progress = current.cards if current is not None and not current.complete else ()
    position = (state.hands, in_progress, state.turn)
    return attrs.evolve(state, claim=Claim(seq, ev.seat, ev.tricks, remaining, statement=ev.statement,
                                           position=position, prior_phase=state.phase))


@handles(ClaimAgreed)
@journalled
def on_claim_agreed(state: TableState, step: Step[ClaimAgreed]) -> TableState:
    seq, ev = step.seq, step.event
    claim = state.claim
    if claim is None or claim.status not in ("pending", "agreed", "disputed") or ev.by.side is claim.seat.side:
        return unprocessed(state, seq, ev.TYPE, ev.by, f"agreement by {ev.by} to no pending claim of the opponents")
    claim = attrs.evolve(claim, agreements=claim.agreements + ((seq, ev.by),))
    if claim.status != "pending":  # the second defender's agreement (or one after a dispute): recorded
        return attrs.evolve(state, claim=claim)
    return _settle(state, attrs.evolve(claim, status="agreed", settled_tricks=claim.tricks, settled_seq=seq,
                                       law=state.cite("69A")))


def established(state: TableState, claim: Claim | None = None) -> int | None:
    """69A: the seq at which the agreement was established (a member of the agreeing side called on
    a later board, or the round ended), None while it is not."""
    claim = claim or state.claim
    if claim is None or not claim.agreements:
        return None
    agreeing = claim.seat.side.other
    first = claim.agreements[0][0]
    for p in state.procedure:
        if p.seq > first and (p.type == "RoundEnded" or p.type == "NextBoardStarted" and p.detail == str(agreeing)):
            return p.seq
    return None


def objection_law(state: TableState, claim: Claim, by: Seat, seq: int, immediate: bool | None) -> str:
    """The reading of a ``ClaimDisputed`` by ``by`` (spec 1.3, 10.B; LAWS-DIGEST 15.3), without edition."""
    if state.correction_period_ended is not None:
        return "79C"
    claimers = claim.seat.side
    if claim.status == "pending":
        defender = state.contract is not None and claimers is not state.contract.side
        if defender and claim.tricks < claim.remaining and by is claim.seat.partner and \
                (immediate if immediate is not None else claim.seq == seq - 1 or _first_fact(state, claim, seq)):
            return "68B2"
        return "70"
    if claim.status == "disputed":
        return "70"
    if by.side is claimers:
        return "71"  # the conceding side questions its concession (agreed, established or ruled)
    if claim.status == "agreed" and established(state, claim) is None:
        return "70"
    return "69B"


def _first_fact(state: TableState, claim: Claim, seq: int) -> bool:
    """No fact of the table or the director between the claim and ``seq`` (the engine's own do not count)."""
    logged = [p.seq for p in state.procedure] + [n.seq for n in state.plays_not_made]
    return not any(claim.seq < s < seq for s in logged)


@handles(ClaimDisputed)
def on_claim_disputed(state: TableState, step: Step[ClaimDisputed]) -> TableState:
    seq, ev = step.seq, step.event
    claim = state.claim
    if claim is None or claim.status == "void":
        return unprocessed(state, seq, ev.TYPE, ev.by, f"dispute by {ev.by} of no claim")
    law = objection_law(state, claim, ev.by, seq, ev.immediate)
    claim = attrs.evolve(claim, objections=claim.objections + (Objection(seq, ev.by, state.cite(law), ev.immediate),))
    if law == "68B2":  # neither a claim nor a concession: play resumes where it stopped
        claim = attrs.evolve(claim, status="void", law=state.cite("68B2"), disputed_seq=seq, disputed_by=ev.by)
        return attrs.evolve(state, claim=claim, phase=claim.prior_phase or PLAY)
    if law == "70" and claim.status in ("pending", "agreed"):  # the result recorded on agreement is withdrawn
        claim = attrs.evolve(claim, status="disputed", disputed_seq=seq, disputed_by=ev.by, settled_tricks=None,
                             settled_seq=None, law=None)
        return attrs.evolve(state, claim=claim, result=None, phase=claim.prior_phase or PLAY)
    return attrs.evolve(state, claim=claim)


@handles(ClaimRuled)
@journalled
def on_claim_ruled(state: TableState, step: Step[ClaimRuled]) -> TableState:
    seq, ev = step.seq, step.event
    claim = state.claim
    if claim is None or claim.status not in OPEN or ev.tricks > claim.remaining:
        detail = "claim ruling with no claim to rule on" if claim is None or claim.status not in OPEN else \
            f"claim ruling of {ev.tricks} tricks with {claim.remaining} to play"
        return state.add_irregularity(Irregularity(IrregularityKind.UNPROCESSED, seq, ev.TYPE, detail=detail))
    state = attrs.evolve(state, review=tuple(attrs.evolve(r, resolved=True) if r.about == claim.seq else r
                                             for r in state.review))
    question = claim.objections[-1].law if claim.objections else state.cite("70")
    if question.endswith(("79C", "68B2")):
        question = state.cite("70")
    line = line_tricks(state, claim, ev.line, seq)[0] if ev.line else ()
    return _settle(state, attrs.evolve(claim, status="ruled", settled_tricks=ev.tricks, settled_seq=seq,
                                       ruling_text=ev.text, law=question, line=line, ruled_tricks=ev.tricks))


@handles(ClaimRescored)
def on_claim_rescored(state: TableState, step: Step[ClaimRescored]) -> TableState:
    claim = state.claim
    if claim is None or claim.seq != step.event.about or claim.status not in ("agreed", "ruled"):
        return state  # an earlier reading's rescoring: the claim it was about is no longer settled
    return _settle(state, attrs.evolve(claim, settled_tricks=step.event.tricks, law=step.law))


@handles(CorrectionPeriodEnded)
@journalled
def on_correction_period_ended(state: TableState, step: Step[CorrectionPeriodEnded]) -> TableState:
    if state.correction_period_ended is not None:  # refused on append; kept as logged
        return state.add_irregularity(Irregularity(IrregularityKind.UNPROCESSED, step.seq, step.event.TYPE,
                                                   detail="the Correction Period had already ended"))
    return attrs.evolve(state, correction_period_ended=step.seq)


def _settle(state: TableState, claim: Claim) -> TableState:
    assert state.contract is not None and claim.settled_tricks is not None
    won, _ = state.tricks_won()
    if claim.seat.side is state.contract.side:
        declarer_tricks = won + claim.settled_tricks
    else:
        declarer_tricks = won + claim.remaining - claim.settled_tricks
    state = attrs.evolve(state, claim=claim, phase=ENDED)
    return attrs.evolve(state, result=final_result(state, declarer_tricks))


# -- the position at the claim: the director's line, the floor G ---------------------------------

def line_tricks(state: TableState, claim: Claim, line: tuple[Card, ...], seq: int) -> tuple[tuple[Trick, ...], str | None]:
    """The director's line as tricks from the claim's position, and what is wrong with it (None when
    every card is held by the seat whose turn it is, follows suit when able, and every remaining card
    is played once)."""
    assert claim.position is not None and state.contract is not None
    hands, in_progress, to_play = claim.position
    held = [list(h) for h in hands]
    law = state.cite("70")
    number = 13 - claim.remaining + 1
    cards = list(in_progress)
    if to_play is None:
        return (), "no seat was to play when the claim was made"
    leader: Seat = in_progress[0].seat if in_progress else to_play
    seat: Seat = to_play
    tricks: list[Trick] = []
    for i, card in enumerate(line):
        hand = held[seat.index]
        if card not in hand:
            holder = next((s for s in (Seat.N, Seat.E, Seat.S, Seat.W) if card in held[s.index]), None)
            where = f"{holder} holds it" if holder is not None else "it is not among the remaining cards"
            return tuple(tricks), f"card {i + 1} of the line, {card}: {seat} is to play and does not hold it ({where})"
        if cards and card.suit is not cards[0].card.suit and any(c.suit is cards[0].card.suit for c in hand):
            return tuple(tricks), (f"card {i + 1} of the line, {card}: a revoke ({seat} holds "
                                   f"{cards[0].card.suit.symbol} and must follow suit)")
        hand.remove(card)
        cards.append(PlayedCard(seat, card, seq, law))
        if len(cards) == 4:
            winner = trick_winner(tuple(cards), state.contract.strain)
            tricks.append(Trick(number, leader, tuple(cards), winner))
            number += 1
            cards, leader, seat = [], winner, winner
        else:
            seat = seat.lho
    if cards or any(held):
        return tuple(tricks), (f"the line has {len(line)} cards: it must play every remaining card "
                               f"({sum(len(h) for h in hands)} in the hands)")
    return tuple(tricks), None


def line_error(state: TableState, event: ClaimRuled) -> str | None:
    """Why the director's line cannot stand (``ledger.checks``: exit 2 naming ``line``), None if it can."""
    claim = state.claim
    if event.line is None or claim is None:
        return None
    tricks, error = line_tricks(state, claim, event.line, state.seq + 1)
    if error is not None:
        return error
    side = claim.seat.side
    won = sum(1 for t in tricks if t.winner is not None and t.winner.side is side)
    if won != event.tricks:
        return (f"along the line {claim.seat}'s side takes {won} of the {claim.remaining} tricks, "
                f"not the {event.tricks} awarded")
    return None


@lru_cache(maxsize=256)
def _floor(hands: tuple[tuple[Card, ...], ...], in_progress: tuple[tuple[Seat, Card], ...], to_play: Seat,
           trump: Suit | None, side: Side) -> int:
    return fewest_tricks(hands, in_progress, to_play, trump, side)


def floor(state: TableState, claim: Claim, side: Side) -> int | None:
    """``G(side)`` from the claim's position (LAWS-DIGEST 15.1), None when more than
    :data:`ledger.laws.fewest.EXACT_LIMIT` tricks remained (the director is asked instead)."""
    if claim.remaining > EXACT_LIMIT or claim.position is None or state.contract is None:
        return None
    hands, in_progress, to_play = claim.position
    if to_play is None:
        return None
    return _floor(hands, tuple((p.seat, p.card) for p in in_progress), to_play, state.contract.strain.trump, side)


def outstanding_trumps(state: TableState, claim: Claim) -> list[str]:
    """70C: the trumps the claimer's opponents held when the claim was made."""
    trump = state.contract.strain.trump if state.contract is not None else None
    if trump is None or claim.position is None:
        return []
    hands = claim.position[0]
    return [str(c) for s in claim.seat.side.other.seats for c in hands[s.index] if c.suit is trump]


# -- the rules ----------------------------------------------------------------------------

def _base_tricks(state: TableState, claim: Claim) -> int:
    """The tricks credited to the claimer's side before any objection: as ruled, or as agreed and
    corrected at once by 71 when ``G`` proves more."""
    if claim.status == "ruled" and claim.ruled_tricks is not None:
        return claim.ruled_tricks
    g = floor(state, claim, claim.seat.side)
    return max(claim.tricks, g) if g is not None else claim.tricks


def claim_rules(state: TableState) -> list[Prescription]:
    claim = state.claim
    if claim is None:
        return []
    out: list[Prescription] = []
    cite = state.cite
    if claim.status == "disputed" and claim.disputed_seq is not None:
        out.append(Prescription(DirectorReviewRequired(reason="70 disputed claim", about=claim.seq),
                                (claim.seq, claim.disputed_seq), cite("70")))
    if claim.status == "void" and claim.disputed_seq is not None:
        reason = (f"68B2 {claim.disputed_by} objected at once to his partner's concession: no claim and no "
                  "concession, play continues; unauthorized information (16C)")
        out.append(Prescription(DirectorReviewRequired(reason=reason, about=claim.seq),
                                (claim.seq, claim.disputed_seq), cite("68B2")))
    if claim.status not in ("agreed", "ruled"):
        return out
    agreed_at = claim.agreements[0][0] if claim.agreements else None
    if claim.status == "agreed" and agreed_at is not None:  # 71 at once (decision 6): what G proves
        g = floor(state, claim, claim.seat.side)
        if g is not None and g > claim.tricks:
            out.append(Prescription(ClaimRescored(about=claim.seq, tricks=g), (claim.seq, agreed_at), cite("71")))
    base = _base_tricks(state, claim)
    for o in claim.objections:
        law = o.law.split(":", 1)[1]
        if claim.status == "ruled" and claim.settled_seq is not None and o.seq < claim.settled_seq:
            continue  # answered by the ruling
        if law == "69B":
            g = floor(state, claim, claim.seat.side.other)
            if g is not None and g > claim.remaining - base:
                out.append(Prescription(ClaimRescored(about=claim.seq, tricks=claim.remaining - g),
                                        (claim.seq, o.seq), o.law))
                continue
            reason = (f"69B {o.by} withdraws his side's agreement to {claim.seat}'s claim: a trick his side "
                      "would likely have won had play continued is the director's")
            if g is None:
                reason += f" (more than {EXACT_LIMIT} tricks remained: the floor over every legal play is not computed)"
            out.append(Prescription(DirectorReviewRequired(reason=reason, about=claim.seq), (claim.seq, o.seq), o.law))
        elif law == "71":
            g = floor(state, claim, claim.seat.side)
            if g is not None and g > base:
                out.append(Prescription(ClaimRescored(about=claim.seq, tricks=g), (claim.seq, o.seq), o.law))
                continue
            reason = (f"71 {o.by} questions his side's concession: a trick that could not be lost by any "
                      "normal play is the director's")
            if g is None:
                reason += f" (more than {EXACT_LIMIT} tricks remained: the floor over every legal play is not computed)"
            out.append(Prescription(DirectorReviewRequired(reason=reason, about=claim.seq), (claim.seq, o.seq), o.law))
    return out


def claim_document(state: TableState) -> dict[str, Any] | None:
    """The state document's ``claim`` (spec 1.3, 10.D)."""
    claim = state.claim
    if claim is None:
        return None
    law = claim.law
    if law is None:
        law = state.cite("70") if claim.status == "ruled" else \
            state.cite("69A") if claim.status == "agreed" else state.cite("68")
    est = established(state, claim)
    return {
        "seq": claim.seq, "seat": str(claim.seat), "tricks": claim.tricks,
        "remaining": claim.remaining, "status": claim.status,
        "settled_tricks": claim.settled_tricks,
        "statement": claim.statement, "disputed_seq": claim.disputed_seq,
        "disputed_by": str(claim.disputed_by) if claim.disputed_by else None,
        "settled_seq": claim.settled_seq, "ruling_text": claim.ruling_text,
        "law": law,
        "established": est is not None, "established_seq": est,
        "agreements": [{"seq": s, "by": str(b)} for s, b in claim.agreements],
        "outstanding_trumps": outstanding_trumps(state, claim),
        "objections": [{"seq": o.seq, "by": str(o.by), "law": o.law} for o in claim.objections],
        "line": [{"number": t.number, "leader": str(t.leader),
                  "cards": [{"seat": str(p.seat), "card": str(p.card)} for p in t.cards],
                  "winner": str(t.winner) if t.winner else None} for t in claim.line],
    }


# -- words for people -------------------------------------------------------------------------

OBJECTION_WORDS = {
    "68B2": "objected at once to his partner's concession: no claim and no concession, play continued",
    "70": "disputed the claim: the director rules",
    "69B": "withdrew his side's agreement within the Correction Period",
    "71": "questioned his side's concession within the Correction Period",
    "79C": "objected after the Correction Period: no effect",
}


def claim_history(claim: dict[str, Any]) -> list[str]:
    """The claim's history in plain words (the readable state, the case file): who agreed or
    objected and when, whether the agreement is established, the director's line beside his award."""
    out = []
    for a in claim.get("agreements") or ():
        out.append(f"{a['by']} agreed (seq {a['seq']})")
    if claim.get("agreements") and claim.get("status") == "agreed":
        est = claim.get("established_seq")
        out.append(f"agreement established (seq {est}, Law 69A)" if claim.get("established")
                   else "agreement not established yet (Law 69A: until the agreeing side calls on the next board "
                        "or the round ends)")
    for o in claim.get("objections") or ():
        law = str(o.get("law") or "")
        out.append(f"{o['by']} {OBJECTION_WORDS.get(law.split(':')[-1], 'objected')} (seq {o['seq']}, {law})")
    law = str(claim.get("law") or "")
    if law.endswith(("69B", "71")) and claim.get("settled_tricks") is not None and claim.get("status") == "agreed":
        out.append(f"rescored: {claim['settled_tricks']} of the {claim['remaining']} tricks to the claimer's side "
                   f"({law}: what no legal play could lose)")
    if claim.get("line"):
        tricks = "; ".join(f"trick {t['number']}: " + " ".join(f"{c['seat']} {c['card']}" for c in t["cards"])
                           + f" (won by {t['winner']})" for t in claim["line"])
        out.append(f"the director's line of play: {tricks}")
    if claim.get("outstanding_trumps"):
        out.append("trumps the opponents held at the claim: " + " ".join(claim["outstanding_trumps"]))
    return out
