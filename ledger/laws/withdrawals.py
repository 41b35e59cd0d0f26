"""Withdrawals of a card (Law 47, with 41A and 45D) and the lead an opponent
authorised (47E1), both editions side by side: one family, its reading (the
rules that follow from its card records are ``ledger.laws.cards.card_rulings``,
as for every card fact).

| withdrawal | 1997 | 2017 |
|---|---|---|
| to correct an illegal play (a revoke not established) | 47B | the same |
| after an opponent's change of play (45C4b, 45D, 47) | 47D | the same |
| after a mistaken explanation, corrected: no card played to the trick since | 47E2a | the same |
| the same, too late | 47E2b: Law 40C, an adjusted score possible | 47E2b: the director may adjust |
| both sides revoked on one trick, one revoke established | the established one stands (an illegal withdrawal) | 62C3: corrected too |
| a face-down opening lead | only after an opponent's mistaken explanation (41A) | the same |
| a lead (2017: or a play) out of turn after an opponent said it was his turn | 47E1: retracted, no rectification | the same |
| any other withdrawal: illegal, the card stands | 47G | 47F |
"""

from __future__ import annotations

import attrs

from ledger.bridge import Card, Seat
from ledger.events import CardWithdrawn, LeadAuthorisedByOpponent
from ledger.laws.base import Ruled, at_play, cited, handles
from projections.cards import (expose, is_defender, locate, not_made, record_card, record_played, remove_card,
                               replace_card, unprocessed)
from projections import play
from projections.fold import Step
from projections.state import (AUCTION, OPENING_LEAD, PLAY, CardRecord, Exposure, NotMade, PlayedCard, TableState,
                               Trick)
from projections.vocab import CallRuling, CardRuling, Edition, IrregularityKind

LAWS = ("47",)
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS = {
    "illegal withdrawal": {"1997": "47G", "2017": "47F"},
}
"""The family's citations per edition (``ledger.laws.base.cited``)."""


# -- the reading of the facts ------------------------------------------------------------

# -- CardWithdrawn: Law 47 (and 41A, 45D) -------------------------------------------

def _corrections_since(state: TableState, seat: Seat, seq: int) -> list[int]:
    """Seqs of corrections of an explanation by an opponent of ``seat`` after ``seq``."""
    return [r.seq for r in state.calls if r.ruling == CallRuling.EXPLANATION_CORRECTED and r.seat.side is not seat.side
            and r.seq > seq]


def _was_revoke(state: TableState, trick: Trick, p: PlayedCard) -> bool:
    if any(b.seq == p.seq for b in state.breaches):  # against a penalty card or a lead restriction: 61A
        return True
    led = trick.suit_led
    if trick.cards[0] is p or p.card.suit is led:
        return False
    later = [q.card for t in state.tricks for q in t.cards if q.seat is p.seat and q.seq > p.seq]
    return any(c.suit is led for c in state.hand(p.seat) + tuple(later))


def _both_sides_revoked(state: TableState, trick: Trick) -> bool:
    """2017 62C3: both sides revoked on ``trick`` (a revoke card still on it, or one already
    corrected there) and only one side has played to the next trick."""
    sides = {p.seat.side for p in trick.cards if _was_revoke(state, trick, p)}
    sides |= {p.seat.side for p in trick.cards for r in state.card_records
              if r.seq == p.seq and r.ruling == CardRuling.WITHDRAWN and r.law is not None
              and r.law.split(":", 1)[-1] in ("47B", "62C3")}
    following = state.tricks[trick.number] if trick.number < len(state.tricks) else None
    played = {p.seat.side for p in following.cards} if following is not None else set()
    return len(sides) == 2 and len(played) == 1


def _changed_by_opponent(state: TableState, seat: Seat, trick: Trick, p: PlayedCard) -> str | None:
    """The Law that lets ``seat`` withdraw ``p`` after an opponent changed, on
    this trick and after ``p`` was played, a card played before ``p``: 47D
    (45C4b change of designation, a legal withdrawal), or 45D (dummy's misplaced
    card withdrawn)."""
    seqs = [q.seq for q in trick.cards]
    for rec in state.card_records:
        if rec.seat.side is seat.side:
            continue
        mine = trick.card_of(rec.seat)
        if rec.ruling == CardRuling.CHANGE_PERMITTED and rec.about is not None:
            original, change = rec.about, rec.seq
            on_trick = mine is not None and mine.seq == rec.seq
        elif rec.ruling == CardRuling.MISPLACED_CORRECTED and mine is not None:
            original, change = rec.seq, mine.seq
            on_trick = mine.card == rec.other
        elif rec.ruling == CardRuling.WITHDRAWN and rec.about is not None:
            original, change = rec.about, rec.seq
            on_trick = min(seqs) <= rec.about <= max(seqs)
        else:
            continue
        if on_trick and original < p.seq < change:
            return "45D" if rec.ruling == CardRuling.MISPLACED_CORRECTED else "47D"
    return None


def _dummy_spread_since(state: TableState, seq: int) -> bool:
    return any(s > seq for s in state.spreads) or \
        any(i.type == "DummySpreadStarted" and i.seq > seq for i in state.irregularities)


@at_play("withdrawn")
def on_card_withdrawn(state: TableState, seq: int, ev: CardWithdrawn) -> TableState:
    seat, card, replacement = ev.seat, ev.card, ev.replacement
    if state.contract is None or state.phase == AUCTION:
        return unprocessed(state, seq, ev.TYPE, seat, f"{card} of {seat} withdrawn during the auction")
    lead = state.face_down_lead
    if lead is not None and lead.seat is seat and lead.card == card:
        return _withdraw_face_down_lead(state, seq, ev)
    found = locate(state, seat, card)
    if found is None:
        state = record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.NO_PLAYED_CARD,
                                          detail=f"{card} is not a played card: nothing to withdraw",
                                          other=replacement))
        if replacement is not None:
            state = record_played(state, seq, ev.TYPE, seat, replacement, play.play_law(state, seat))
        return state
    index, p = found
    trick = state.tricks[index]
    law, review = _withdrawal_law(state, seat, trick, p)
    if law is None:
        return _illegal_withdrawal(state, seq, ev, p, review)
    cite = state.cite(law)
    last = index == len(state.tricks) - 1
    if not last and replacement is None:
        state = record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.IRREGULAR, cite, about=p.seq,
                                          detail="withdrawn from a trick after the next trick began"))
        return unprocessed(state, seq, ev.TYPE, seat, f"{card} withdrawn from trick {trick.number} after the "
                                                       "next trick began: the director rules")
    state = not_made(state, p.seq, seat, str(card), f"withdrawn ({_WITHDRAWAL_WORDS[law]})", cite)
    if is_defender(state, seat) and law in ("47B", "62C3"):  # 62B1; 62C3: a penalty card
        state = expose(state, seq, seat, card, "withdrawn", cite)
    state = record_card(state, CardRecord(seq, ev.TYPE, seat, card, CardRuling.WITHDRAWN, cite, about=p.seq,
                                          other=replacement, detail=_WITHDRAWAL_WORDS[law]))
    if replacement is None:
        return remove_card(state, index, seat)
    ordinary = play.play_law(state, seat)
    if last:
        return record_played(remove_card(state, index, seat), seq, ev.TYPE, seat, replacement, ordinary)
    state, question = replace_card(state, index, seat, replacement, seq, ordinary)
    return record_card(state, CardRecord(seq, ev.TYPE, seat, replacement, CardRuling.PLAYED, ordinary,
                                     review=question and f"{law} {question}"))


_WITHDRAWAL_WORDS = {
    "47B": "to correct an illegal play",
    "47D": "after an opponent's change of play",
    "45D": "played after dummy's misplaced card, which was withdrawn",
    "47E2a": "after a mistaken explanation by an opponent, corrected after the card was played, "
             "no card played to the trick since",
    "41A": "face-down opening lead withdrawn after an opponent's explanation was corrected",
    "62C3": "to correct a revoke, established but corrected because both sides revoked on the trick",
    "62D2": "on the director's instruction under 62D2 (the play of trick 12 reconstructed after his "
            "partner's revoke)",
}


def _reconstructed_62d2(state: TableState, seat: Seat, trick: Trick, p: PlayedCard) -> bool:
    """62D2 (1997 seed 001 rule 8; 2017 with 16C): the director, ruling under 62D2 after a
    defender's revoke on trick 12 (his ``RulingGiven`` citing 62D2, logged after the card),
    has the revoker's partner take back his trick-12 card and play another: his reconstruction,
    not an illegal withdrawal."""
    if trick.number != 12 or not is_defender(state, seat) or trick.card_of(seat.partner) is None:
        return False
    return any(f.type == "RulingGiven" and f.seq > p.seq and any(t.split(":")[-1] == "62D2" for t in f.detail.split())
               for f in state.procedure)


def _withdrawal_law(state: TableState, seat: Seat, trick: Trick, p: PlayedCard) -> tuple[str | None, str | None]:
    """The Law that permits withdrawing ``p`` (None: not permitted), and a
    question for the director (47E2b: too late after a mistaken explanation)."""
    if _was_revoke(state, trick, p) and _both_sides_revoked(state, trick):  # 62C3: each revoke is corrected
        later = [t for t in state.tricks if t.number > trick.number]
        established = any(t.card_of(seat) or t.card_of(seat.partner) for t in later)
        if not established:
            return "47B", None
        if state.edition == Edition.E2017:
            return "62C3", None
    changed = _changed_by_opponent(state, seat, trick, p)  # first: a card legal when played is no revoke
    if changed is not None:
        return changed, None
    if _reconstructed_62d2(state, seat, trick, p):
        return "62D2", None
    if _was_revoke(state, trick, p):
        partner = seat.partner
        later = [t for t in state.tricks if t.number > trick.number]
        if not any(t.card_of(seat) or t.card_of(partner) for t in later):  # 63A1: not yet established
            return "47B", None
        if state.edition == Edition.E2017 and _both_sides_revoked(state, trick):  # 62C3: the established one too
            return "62C3", None
    if _corrections_since(state, seat, p.seq):
        since = any(q.seq > p.seq for q in trick.cards)
        opening = trick.number == 1 and p.seat is trick.leader
        if not since and not (opening and _dummy_spread_since(state, p.seq)):
            return "47E2a", None
        return None, ("47E2b too late to retract the card (a card was played to the trick since"
                      + (", or dummy had faced a card" if opening else "") + "): "
                      + ("Law 40C applies, adjusted score possible" if state.edition == Edition.E1997
                         else "the director may award an adjusted score"))
    return None, None


def _illegal_withdrawal(state: TableState, seq: int, ev: CardWithdrawn, p: PlayedCard,
                        review: str | None) -> TableState:
    """1997 47G / 2017 47F: the played card stands. Declarer's substituted card
    goes back to his hand; dummy's first card stands; a defender's substituted
    card is exposed (a major penalty card, Law 50, in a later issue)."""
    seat, replacement = ev.seat, ev.replacement
    law = cited(state, CITATIONS, "illegal withdrawal")
    detail = f"{p.card} was played and stands"
    if replacement is not None:
        if is_defender(state, seat):
            state = not_made(state, seq, seat, str(replacement),
                              f"put in place of {p.card}, which stands: exposed, not played", law)
            state = expose(state, seq, seat, replacement, "substituted", law)
            detail += f"; {replacement} substituted is exposed"
        else:
            state = not_made(state, seq, seat, str(replacement),
                              f"put in place of {p.card}, which stands: goes back to the hand", law)
            detail += f"; {replacement} goes back"
    return record_card(state, CardRecord(seq, ev.TYPE, seat, ev.card, CardRuling.ILLEGAL_WITHDRAWAL, law, about=p.seq,
                                     other=replacement, detail=detail, review=review))


def _withdraw_face_down_lead(state: TableState, seq: int, ev: CardWithdrawn) -> TableState:
    """41A: a face-down opening lead may be withdrawn only on the director's
    instruction after an irregularity (an opponent's mistaken explanation, 47E2)."""
    lead = state.face_down_lead
    assert lead is not None
    if not _corrections_since(state, ev.seat, lead.seq):
        law = state.cite("41A")
        state = record_card(state, CardRecord(seq, ev.TYPE, ev.seat, ev.card, CardRuling.ILLEGAL_WITHDRAWAL, law,
                                          about=lead.seq, other=ev.replacement,
                                          detail=f"face-down lead {ev.card} withdrawn with no irregularity: "
                                                 "it stands"))
        if ev.replacement is not None:
            state = not_made(state, seq, ev.seat, str(ev.replacement),
                              f"put in place of the face-down lead {ev.card}, which stands: exposed", law)
            state = expose(state, seq, ev.seat, ev.replacement, "substituted", law)
        return state
    law = state.cite("41A")
    state = attrs.evolve(state, face_down_lead=None)
    state = not_made(state, lead.seq, ev.seat, str(ev.card), _WITHDRAWAL_WORDS["41A"], law)
    state = record_card(state, CardRecord(seq, ev.TYPE, ev.seat, ev.card, CardRuling.WITHDRAWN, law, about=lead.seq,
                                      other=ev.replacement, detail=_WITHDRAWAL_WORDS["41A"]))
    if ev.replacement is not None:
        state = record_played(state, seq, ev.TYPE, ev.seat, ev.replacement, state.cite("45A"))
    return state


# -- a card faced while an illegally withdrawn one stands (47G, 2017 47F) ---------------

def _stands_after_illegal_withdrawal(state: TableState, seat: Seat) -> CardRecord | None:
    """A defender's card on the last trick (no card of the next one played yet) whose
    withdrawal was illegal (1997 47G, 2017 47F): its record, else None."""
    trick = state.current_trick
    if state.contract is None or seat.side is state.contract.side or trick is None:
        return None
    played = trick.card_of(seat)
    if played is None:
        return None
    return next((r for r in reversed(state.card_records) if r.ruling == CardRuling.ILLEGAL_WITHDRAWAL
                 and r.about == played.seq), None)


@at_play("standing")
def faced_while_standing(state: TableState, seq: int, seat: Seat, card: Card) -> TableState | None:
    """A card faced, not in turn, by a defender whose card on the last trick stands after an
    illegal withdrawal (1997 47G / 2017 47F): exposed, not played (49, 50B). None: not ours."""
    standing = _stands_after_illegal_withdrawal(state, seat)
    if standing is None or standing.law is None:  # every illegal withdrawal is recorded with its Law
        return None
    return attrs.evolve(
        state, plays_not_made=state.plays_not_made + (NotMade(
            seq, seat, str(card), f"faced while {standing.card}, played to the last trick, stands: exposed, "
            "not played", standing.law),),
        exposures=state.exposures + (Exposure(seq, seat, card, "substituted", standing.law),))


# -- LeadAuthorisedByOpponent: Law 47E1 ----------------------------------------

def _authorisation(state: TableState, seat: Seat) -> CardRecord | None:
    """An opponent's word that it was ``seat``'s turn (47E1), still to be acted
    on, when ``seat`` now leads (1997) or leads or plays (2017) out of turn."""
    if state.phase not in (OPENING_LEAD, PLAY) or seat is state.turn:
        return None
    trick = state.current_trick
    leading = state.phase == OPENING_LEAD or trick is None or trick.complete
    if not leading and state.edition == Edition.E1997:
        return None
    for rec in reversed(state.card_records):
        if rec.seat is not seat:
            continue
        if rec.ruling == CardRuling.RETRACTED:
            return None  # the word was acted on
        if rec.ruling == CardRuling.LEAD_AUTHORISED:
            acted = any(p.seat is seat and p.seq > rec.seq for t in state.tricks for p in t.cards)
            return None if acted else rec
    return None


@at_play("retracted")
def retracted(state: TableState, seq: int, type_: str, seat: Seat, card: Card) -> TableState | None:
    """47E1: a card that counts as played, led (2017: or played) out of turn after an opponent
    told the player it was his turn, is retracted without rectification and may not be
    accepted. None: not ours (the play core goes on)."""
    auth = _authorisation(state, seat)
    if auth is None:
        return None
    state = record_card(state, CardRecord(seq, type_, seat, card, CardRuling.RETRACTED, state.cite("47E1"),
                                          detail=f"{auth.detail}; retracted without rectification, "
                                                 "it may not be accepted", about=auth.seq))
    what = "lead" if state.phase == OPENING_LEAD or state.current_trick is None or \
        state.current_trick.complete else "play"
    return not_made(state, seq, seat, str(card),
                    f"{what} out of turn after an opponent said it was his turn: retracted, "
                    "may not be accepted", state.cite("47E1"))


@handles(LeadAuthorisedByOpponent)
def on_lead_authorised(state: TableState, step: Step[LeadAuthorisedByOpponent]) -> TableState:
    seq, ev = step.seq, step.event
    if ev.by.side is ev.seat.side:
        state = record_card(state, CardRecord(seq, ev.TYPE, ev.seat, None, CardRuling.IRREGULAR, state.cite("47E1"),
                                          detail=f"{ev.by} is {ev.seat}'s partner, not an opponent"))
        return unprocessed(state, seq, ev.TYPE, ev.seat,
                            f"{ev.seat} was told by his partner {ev.by} that it was his turn: 47E1 does not apply")
    return record_card(state, CardRecord(seq, ev.TYPE, ev.seat, None, CardRuling.LEAD_AUTHORISED, state.cite("47E1"),
                                     detail=f"{ev.by} told {ev.seat} it was his turn"))


# -- words and citations -----------------------------------------------------------------

RULINGS: dict[CardRuling, Ruled] = {
    CardRuling.WITHDRAWN: Ruled("withdrawn", {"1997": "47", "2017": "47"}),
    CardRuling.ILLEGAL_WITHDRAWAL: Ruled("illegal withdrawal",
                                         dict(CITATIONS["illegal withdrawal"])),  # 1997 47G, 2017 47F: one table
    CardRuling.NO_PLAYED_CARD: Ruled("no played card", {"1997": "47", "2017": "47"}),
    CardRuling.LEAD_AUTHORISED: Ruled("lead authorised", {"1997": "47E1", "2017": "47E1"}),
    CardRuling.RETRACTED: Ruled("retracted", {"1997": "47E1", "2017": "47E1"}),
    CardRuling.IRREGULAR: Ruled("irregular", {"1997": "47", "2017": "47"}),
}
"""The card rulings this family reads (``CardRuling``: 47): how each reads for people
(``ledger.render``, the document's ``card_rulings``) and the Law it rests on, by edition, every
edition named (``None``: cannot arise under it; none here). ``withdrawn`` records its own case
(47B, 47D, 47E2a, 41A, 45D, 62C3, 62D1, 62D2); ``no_played_card`` records none (a card not played
is not withdrawn under Law 47, the Law cited here)."""

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.ILLEGAL_WITHDRAWAL: "card illegally withdrawn",
}
"""How the irregularities of this family's Laws (``IrregularityKind``: 1997 47G, 2017 47F) read for people."""
