"""The table projection: a pure fold of one stream's events into a
:class:`TableState` (spec section 5 via :mod:`projections.document`).

``evolve(state, stream, record)`` is one fold step: no I/O, no clock, no
logging; a handler per event type, looked up in :data:`HANDLERS`. An event
with no handler yet is kept in ``irregularities`` as ``unprocessed`` (facts
and rulings the Law modules do not decide yet) or passes through without
effect (procedure records such as an explanation or the director's call).
Replaying old history can never fail: the fold never raises on a stored event.

``fold_log`` is the whole fold, findings and overrides included
(:mod:`projections.resolve`): the state after seq N depends on events 1..N only.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import attrs

from ledger import events as ev
from ledger.hashing import canonical_json
from projections import auction, calls, cards, claims, play
from projections import adjusted, boards
from projections import revoke
from projections import reported
from projections import outofturn, penalty
from projections.resolve import Recorded, resolve
from projections.state import (Cap, Choice, Finding, Irregularity, MustPass, Offer, Restriction,
                               TableState, Voided, initial_hands)

Handler = Callable[[TableState, int, ev.Event], TableState]


def rectification_key(event: ev.Event) -> str:
    """What makes two rectifications the same one: type and data."""
    return f"{event.TYPE}:{canonical_json(event.to_data())}"


def _opened(board: ev.BoardOpened, stream: str, seq: int, head: str) -> TableState:
    board = board.completed()
    return TableState(stream=stream, seq=seq, head=head, board=board, hands=initial_hands(board))


def _result_recorded(state: TableState, seq: int, event: ev.Event) -> TableState:
    return attrs.evolve(state, result_recorded=seq)


def _no_effect(state: TableState, seq: int, event: ev.Event) -> TableState:
    return state


def _unprocessed(state: TableState, seq: int, event: ev.Event) -> TableState:
    offender = getattr(event, "seat", None)
    detail = f"{event.TYPE} is stored as logged; no ruling on it yet"
    return state.add_irregularity(Irregularity(
        "unprocessed", seq, event.TYPE, offender=str(offender) if offender else None, detail=detail))


def _finding(state: TableState, seq: int, event: ev.FindingMade) -> TableState:
    about = event.about if isinstance(event.about, int) else -1
    return attrs.evolve(state, findings=state.findings + (Finding(seq, about, event.field, event.value),))


def _entry_voided(state: TableState, seq: int, event: ev.EntryVoided) -> TableState:
    """The voided entry itself is skipped by projections.resolve; this keeps the trace."""
    about = event.about if isinstance(event.about, int) else -1
    return attrs.evolve(state, voided=state.voided + (Voided(about, seq, event.reason),))


def _options_offered(state: TableState, seq: int, event: ev.OptionsOffered) -> TableState:
    offer = Offer(seq, event.to, event.options, event.law)
    return attrs.evolve(state, pending=state.pending + (offer,))


def _option_chosen(state: TableState, seq: int, event: ev.OptionChosen) -> TableState:
    offer = next((o for o in state.pending if event.option in o.options and
                  (event.seat is o.to or cards.law_of(o.law) in cards.EITHER_DEFENDER_LAWS
                   and event.seat.side is o.to.side)), None)
    if offer is None:  # refused on append; kept if an override removed the offer since
        return state.add_irregularity(Irregularity(
            "unprocessed", seq, event.TYPE, offender=str(event.seat),
            detail=f"option {event.option} chosen by {event.seat} with no such option pending"))
    choice = Choice(seq, offer.seq, event.seat, event.option, offer.law, event.suit)
    state = attrs.evolve(state, pending=tuple(o for o in state.pending if o.seq != offer.seq),
                         choices=state.choices + (choice,))
    effect = OPTION_EFFECTS.get(offer.law.split(":", 1)[1])
    return effect(state, choice) if effect else state


def _irregularity_recorded(state: TableState, seq: int, event: ev.IrregularityRecorded,
                           law: str | None = None) -> TableState:
    return state.add_irregularity(Irregularity(event.kind, event.about, event.TYPE,
                                               offender=event.offender, law=law))


def _must_pass(state: TableState, seq: int, event: ev.PartnerMustPass) -> TableState:
    return attrs.evolve(state, partner_must_pass=state.partner_must_pass + (MustPass(seq, event.seat, event.until),))


def _capped(state: TableState, seq: int, event: ev.ScoreCapped) -> TableState:
    return attrs.evolve(state, caps=state.caps + (Cap(seq, event.side, event.max),))


def _lead_restriction(state: TableState, seq: int, event: ev.LeadRestriction) -> TableState:
    r = Restriction(seq, event.seat, event.suit, event.mode, event.lasts)
    return attrs.evolve(state, lead_restrictions=state.lead_restrictions + (r,))


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.CallPlaced: calls.on_call_placed,  # type: ignore[dict-item]
    ev.CallPulled: calls.on_call_pulled,  # type: ignore[dict-item]
    ev.CallReplaced: calls.on_call_replaced,  # type: ignore[dict-item]
    ev.ExplanationCorrected: calls.on_explanation_corrected,  # type: ignore[dict-item]
    ev.LeadFaceDown: play.on_lead_face_down,  # type: ignore[dict-item]
    ev.LeadFaced: play.on_lead_faced,  # type: ignore[dict-item]
    # Was the card played (Laws 45 to 47): CardPlayed, CardHeld, CardDropped,
    # CardNamed, DummyCardCalled, DummyCardTouched, DesignationChanged,
    # DummyMisplaced, CardWithdrawn, LeadAuthorisedByOpponent, AttentionDrawn (45D).
    **cards.HANDLERS,  # type: ignore[dict-item]
    ev.ClaimMade: claims.on_claim_made,  # type: ignore[dict-item]
    ev.ClaimAgreed: claims.on_claim_agreed,  # type: ignore[dict-item]
    ev.ClaimDisputed: claims.on_claim_disputed,  # type: ignore[dict-item]
    ev.ClaimRuled: claims.on_claim_ruled,  # type: ignore[dict-item]
    ev.ResultReported: reported.on_result_reported,  # type: ignore[dict-item]
    ev.FindingMade: _finding,  # type: ignore[dict-item]
    ev.OptionChosen: _option_chosen,  # type: ignore[dict-item]
    # The engine's rectifications.
    ev.DirectorReviewRequired: claims.on_review_required,  # type: ignore[dict-item]
    ev.ResultRecorded: _result_recorded,
    ev.OptionsOffered: _options_offered,  # type: ignore[dict-item]
    ev.PartnerMustPass: _must_pass,  # type: ignore[dict-item]
    ev.ScoreCapped: _capped,  # type: ignore[dict-item]
    ev.LeadRestriction: _lead_restriction,  # type: ignore[dict-item]
    ev.CallCancelled: _no_effect,  # the fold of the call's record already says so
    ev.CardReturned: _no_effect,  # the fold of the card's record already says so
    # Records that change nothing on the table.
    ev.ExplanationGiven: _no_effect,
    ev.DirectorCalled: _no_effect,
    ev.RightsReserved: _no_effect,
    ev.HandsReturned: _no_effect,
    ev.NextBoardStarted: _no_effect,
    ev.RoundEnded: _no_effect,
    ev.RulingGiven: _no_effect,
    ev.RulingOverridden: _no_effect,  # its effect is in projections.resolve
    ev.EntryVoided: _entry_voided,  # type: ignore[dict-item]  # its effect is in projections.resolve
    # Irregular boards and information (Laws 13 to 16; RightsReserved included).
    **boards.HANDLERS,  # type: ignore[dict-item]
    # Revokes and dummy's limits (Laws 61 to 64, 42, 43): projections.revoke.
    **revoke.HANDLERS,  # type: ignore[dict-item]
    # Leads out of turn (41A, 53 to 56) and penalty cards (49 to 51).
    ev.DummySpreadStarted: outofturn.on_spread,  # type: ignore[dict-item]
    ev.DeclarerChanged: _no_effect,  # the option (or the spread) already changed the declarer
    ev.PenaltyCardDesignated: penalty.on_designated,  # type: ignore[dict-item]
    ev.PenaltyCardCleared: penalty.on_cleared,  # type: ignore[dict-item]
}

OPTION_EFFECTS: dict[str, Callable[[TableState, Choice], TableState]] = {
    **calls.OPTION_EFFECTS,
    **cards.OPTION_EFFECTS,
    **revoke.OPTION_EFFECTS,
    **outofturn.OPTION_EFFECTS,  # 54, 53A, 55A; 50D2 and 51A are read by the rules
}
"""What an option taken does to the table, by the Law of the offer (edition stripped)."""


def evolve(state: TableState | None, stream: str, record: Recorded, in_force: bool = True,
           cancelled_by: str | None = None) -> TableState:
    """One fold step: the state after ``record`` (``in_force`` False: cancelled by an override)."""
    event, seq = record.event, record.seq
    if state is None:
        if isinstance(event, ev.BoardOpened):
            return _opened(event, stream, seq, record.hash)
        raise ValueError(f"stream {stream!r} does not start with BoardOpened (seq {seq} is {event.TYPE})")
    if not in_force:
        if event.FAMILY == "rectification" and cancelled_by in ("director", "committee"):
            state = attrs.evolve(state, cancelled=state.cancelled + (rectification_key(event),))
        return attrs.evolve(state, seq=seq, head=record.hash)
    if isinstance(event, ev.BoardOpened):
        new = _unprocessed(state, seq, event)  # a second BoardOpened is refused on append
    elif isinstance(event, ev.IrregularityRecorded):
        new = _irregularity_recorded(state, seq, event, record.law)
    elif type(event) in adjusted.ROLE_HANDLERS:  # adjusted scores, penalties, appeals: who decided matters
        new = adjusted.ROLE_HANDLERS[type(event)](state, seq, event, record.role)
    else:
        new = HANDLERS.get(type(event), _unprocessed)(state, seq, event)
    new = revoke.note(new, seq, event)  # procedure facts; revokes read (Laws 9 to 11, 42, 43, 61 to 64)
    if event.FAMILY == "rectification":
        return attrs.evolve(new, seq=seq, head=record.hash,
                            rectifications=new.rectifications + ((rectification_key(event), seq),))
    return attrs.evolve(new, seq=seq, head=record.hash)


def fold_log(stream: str, records: Sequence[Recorded]) -> TableState | None:
    """The state after the last record: findings applied, overrides honoured."""
    state: TableState | None = None
    overrides = _override_roles(records)
    for record, in_force in resolve(records):
        state = evolve(state, stream, record, in_force, overrides.get(record.seq))
    return state


def _override_roles(records: Sequence[Recorded]) -> dict[int, str]:
    ids = {r.id: r.seq for r in records}
    out = {}
    for r in records:
        if isinstance(r.event, ev.RulingOverridden):
            target = r.event.about if isinstance(r.event.about, int) else ids.get(r.event.about)
            if target is not None:
                out[target] = r.role
    return out


def fold(stream: str, items: Iterable[tuple[int, str, ev.Event]],
         state: TableState | None = None) -> TableState | None:
    """Fold ``(seq, hash, event)`` items onto ``state`` one step at a time
    (facts as the table logged them; findings are applied by ``fold_log``)."""
    for seq, head, event in items:
        state = evolve(state, stream, Recorded(seq, head, f"#{seq}", "table", event))
    return state
