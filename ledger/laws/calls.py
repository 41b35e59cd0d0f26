"""Changes of call: Laws 21B, 25A, 25B, 26 and 37, both editions, and the
FFB regulation art. 57 (read by ``projections.calls``).

The projection classifies every call-related fact (``state.calls``); these
rules say what the Laws prescribe for each classification. Edition
differences sit side by side:

| | 1997 | 2017 |
|---|---|---|
| 25A | unintended and corrected without pause for thought | unintended, until partner calls |
| 25B rejected | offender keeps the first call (partner passes once) or makes another call (side capped at average minus) | the first call stands |
| 26 | declarer may require or forbid the suit of a withdrawn suit bid; forbid any one suit otherwise | declarer may forbid one suit not named by the offender in the legal auction |
"""

from __future__ import annotations

from ledger.bridge import Seat, Suit
from ledger.events import (CallCancelled, DirectorReviewRequired, IrregularityRecorded, LeadRestriction,
                           OptionsOffered, PartnerMustPass, ScoreCapped)
from ledger.laws import Prescription

_FROM_25B = ("change_of_mind", "substitute_accepted", "substitute_rejected", "substitute_cancelled",
             "first_call_kept", "other_call")


def _irregular(kind: str, rec, law: str) -> Prescription:
    return Prescription(IrregularityRecorded(kind=kind, offender=str(rec.seat), about=rec.seq), (rec.seq,), law)


def _review(reason: str, rec, law: str) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=rec.seq), (rec.seq,), law)


def change_of_call(state) -> list[Prescription]:
    """Rectifications for every change of call, by its classification."""
    out: list[Prescription] = []
    cite = state.cite
    for rec in state.calls:
        ruling = rec.ruling
        if ruling == "explanation_corrected":
            out.append(Prescription(IrregularityRecorded(kind="misinformation", offender=str(rec.seat.side),
                                                         about=rec.seq), (rec.seq,), cite("21B1")))
        elif ruling == "unintended_corrected":
            out.append(_irregular("unintended_call_corrected", rec, rec.law))
        elif ruling == "too_late":
            out.append(_irregular("change_of_call", rec, rec.law))
            reason = ("21B3 call changed after misinformation, but partner had called: "
                      "adjusted score if the offending side gained") if rec.law.endswith("21B3") else \
                     ("25 change of call after partner called: the first call stands; "
                      "rule on the irregular call the attempt constitutes")
            out.append(_review(reason, rec, rec.law))
        elif ruling == "undecided":
            out.append(_review(f"{rec.law.split(':')[1]} {rec.detail}", rec, rec.law))
        elif ruling == "irregular" and rec.law.endswith(":37"):
            out.append(_irregular("call_while_obliged_to_pass", rec, rec.law))
            out.append(_review("37 call by a player obliged to pass", rec, rec.law))
        elif ruling == "lho_called":
            out.append(_irregular("change_of_call", rec, cite("25B")))
            out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law))
        elif ruling in _FROM_25B:
            out.extend(_law_25b(state, rec))
    return out


def _law_25b(state, rec) -> list[Prescription]:
    cite = state.cite
    out = [_irregular("change_of_call", rec, cite("25B")),
           Prescription(OptionsOffered(to=rec.seat.lho, options=("accept_substitute", "reject_substitute"),
                                       law=cite("25B1")), (rec.seq,), cite("25B1"))]
    if rec.ruling == "substitute_cancelled":  # 2017: not accepted, the first call stands
        out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), cite("25B2")))
    if rec.ruling in ("substitute_rejected", "first_call_kept", "other_call"):  # 1997 25B2b
        out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), cite("25B2")))
        out.append(Prescription(OptionsOffered(to=rec.seat, options=("keep_first_call", "other_call"),
                                               law=cite("25B2b")), (rec.seq,), cite("25B2b")))
    if rec.ruling == "first_call_kept":
        out.append(Prescription(PartnerMustPass(seat=rec.seat.partner, until="next_turn"), (rec.seq,),
                                cite("25B2b1")))
    if rec.ruling == "other_call":
        out.append(Prescription(ScoreCapped(side=rec.seat.side, max="A-"), (rec.seq,), cite("25B2b2")))
    return out


# -- Law 26: lead restrictions after a withdrawn call ------------------------

def withdrawn_calls(state) -> list[tuple[object, object]]:
    """(record, the call withdrawn) for each call withdrawn that Law 26 reaches."""
    out = []
    for rec in state.calls:
        if state.edition == "2017":
            if rec.ruling == "substitute_accepted":
                out.append((rec, rec.first_call))
            elif rec.ruling in ("substitute_cancelled", "lho_called"):
                out.append((rec, rec.call))
        else:
            if rec.ruling == "first_call_kept":
                out.append((rec, rec.call))
            elif rec.ruling == "other_call":
                out.append((rec, rec.first_call))
    return out


def _named_by(state, seat: Seat) -> set[Suit]:
    """Suits the player specified in the legal auction."""
    return {a.call.strain.trump for a in state.auction
            if a.seat is seat and a.call.is_bid and a.call.strain.trump is not None}


def _first_turn_to_lead_reached(state, seat: Seat) -> bool:
    if any(t.leader is seat for t in state.tricks):
        return True
    if state.phase == "opening_lead":
        return state.turn is seat
    trick = state.current_trick
    return state.phase == "play" and trick is not None and trick.complete and trick.winner is seat


def lead_restrictions(state) -> list[Prescription]:
    contract = state.contract
    if contract is None:
        return []
    out: list[Prescription] = []
    cite = state.cite
    for rec, call in withdrawn_calls(state):
        offender = rec.seat
        if offender.side is contract.side:
            continue  # the offender's partner will not lead as a defender
        suit = call.strain.trump if call.is_bid else None
        if suit is not None and suit in _named_by(state, offender):
            continue  # related solely to a suit he specified in the legal auction: no restriction
        if not _first_turn_to_lead_reached(state, offender.partner):
            continue
        if state.edition == "1997" and suit is not None:
            options = ("require_suit", "forbid_suit", "no_restriction")
        else:
            options = ("forbid_suit", "no_restriction")
        out.append(Prescription(OptionsOffered(to=contract.declarer, options=options, law=cite("26")),
                                (rec.seq,), cite("26")))
    for choice in state.choices:
        if not choice.law.endswith(":26") or choice.option == "no_restriction" or choice.suit is None:
            continue
        seat = _restricted_seat(state)
        if seat is None:
            continue
        mode, lasts = ("must", "next_lead") if choice.option == "require_suit" else ("must_not", "while_on_lead")
        out.append(Prescription(LeadRestriction(seat=seat, suit=choice.suit, mode=mode, lasts=lasts),
                                (choice.offer, choice.seq), choice.law))
    return out


def _restricted_seat(state) -> Seat | None:
    """The offender's partner, for the (first) withdrawn call of a defender."""
    for rec, _ in withdrawn_calls(state):
        if rec.seat.side is not state.contract.side:
            return rec.seat.partner
    return None


def lead_breaches(state) -> list[Prescription]:
    """A lead against a restriction when able to comply: kind ``revoke`` (61A), no transfer (64B3)."""
    return [Prescription(IrregularityRecorded(kind="revoke", offender=str(b.seat), about=b.seq), (b.seq,),
                         state.cite("61A")) for b in state.breaches]
