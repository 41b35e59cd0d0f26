"""Revokes (Laws 61 to 64), dummy's limits (42, 43) and the procedure facts they
rest on (9 to 11), both editions: what the ruling engine emits for the reading
of :mod:`projections.revoke`.

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

from ledger.events import (DirectorReviewRequired, IrregularityRecorded, OptionsOffered, RevokeEstablished,
                           TricksTransferred)
from ledger.laws.base import Prescription
from projections.revoke import revokes
from projections.state import ENDED


def revoke_rulings(state) -> list[Prescription]:
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
            out.append(Prescription(IrregularityRecorded(kind="revoke", offender=str(rv.seat), about=rv.seq),
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


def _last_seq(state) -> int:
    claim = state.claim
    if claim is not None and claim.settled_tricks is not None:
        return claim.seq
    return state.tricks[-1].cards[-1].seq


def _withdrawal_offers(state, rv) -> list[Prescription]:
    """62C1: each non-offender who played to the revoke trick after the revoke card, before
    the correction, may withdraw his card (the offending side's next card may follow, 62C2)."""
    nos = rv.seat.side.other
    played: dict = {}  # seat -> seq of the card he played after the revoke card, before the correction
    trick = state.tricks[rv.trick - 1] if rv.trick <= len(state.tricks) else None
    for p in trick.cards if trick is not None else ():
        if p.seat.side is nos and rv.seq < p.seq < rv.corrected:
            played[p.seat] = p.seq
    for rec in state.card_records:  # taken back since (47D, or the option below)
        if rec.ruling == "withdrawn" and rec.about is not None and rv.seq < rec.about < rv.corrected \
                and rec.seat.side is nos:
            played.setdefault(rec.seat, rec.about)
    for choice in state.choices:
        if choice.law == state.cite("62C1") and choice.seq > rv.corrected:
            played.setdefault(choice.seat, choice.seq)
    law = state.cite("62C1")
    return [Prescription(OptionsOffered(to=seat, options=("withdraw_card", "keep_card"), law=law),
                         (rv.seq, rv.corrected, seq), law) for seat, seq in sorted(played.items(), key=lambda x: x[1])]


def dummy_rulings(state) -> list[Prescription]:
    """Dummy's limits (43A1b, 42B1) and, after a 43A2 violation, 43B2a."""
    dummy = state.dummy
    if dummy is None or state.phase == "auction":
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
                out.append(Prescription(IrregularityRecorded(kind="dummy_drew_attention", offender=str(dummy),
                                                             about=f.seq), (f.seq,), state.cite("43A1b")))
            elif f.by is not dummy:
                drawn = True
        elif f.type == "RevokeInquiry" and f.by is dummy and f.to is not None \
                and f.to.side is not dummy.side:
            out.append(Prescription(IrregularityRecorded(kind="dummy_inquiry", offender=str(dummy), about=f.seq),
                                    (f.seq,), state.cite("42B1")))
        elif f.type == "DummyWarnedDeclarer" and f.detail == "lead_from_wrong_hand" and violated is not None:
            law = state.cite("43B2a")
            out.append(Prescription(OptionsOffered(to=state.declarer.lho, options=("lead_from_hand",
                                                                                   "lead_from_dummy"), law=law),
                                    (violated, f.seq), law))
    return out


def waivers(state) -> list[Prescription]:
    """10B (both editions): the players may not waive a rectification on their own; the
    director may let their waiver stand or cancel it. A ``RectificationWaived`` is his
    question (answered by a finding ``waiver_cancelled`` about it, or his ruling)."""
    law = state.cite("10B")
    return [Prescription(DirectorReviewRequired(
        reason=f"10B {f.by} waived the rectification of the irregularity at seq {f.about}: the director lets "
               "the waiver stand or cancels it (a finding waiver_cancelled about this fact)", about=f.seq),
        (f.seq,), law) for f in state.procedure if f.type == "RectificationWaived"]


def _end_of_play(state) -> int:
    """The seq at which play ended (the last card or the settled claim), else beyond the log."""
    if state.phase != ENDED:
        return 10 ** 9
    if state.claim is not None and state.claim.settled_tricks is not None:
        return state.claim.seq
    return state.tricks[-1].cards[-1].seq if state.tricks else 10 ** 9
