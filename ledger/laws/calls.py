"""Changes of call: Laws 21B, 25A, 25B, 26 and 37, both editions, and the
FFB regulation art. 57 (read by ``projections.calls``).

The projection classifies every call-related fact (``state.calls``); these
rules say what the Laws prescribe for each classification. Edition
differences sit side by side:

| | 1997 | 2017 |
|---|---|---|
| 25A | unintended and corrected without pause for thought | unintended, until partner calls |
| 25B1, LHO called over the first call | the substitute stands, LHO may withdraw his call | not accepted (25B2) |
| 25B rejected | offender keeps the first call (partner passes once) or makes another call (side capped at average minus) | the first call stands |
| 26 | declarer may require or forbid the suit of a withdrawn suit bid; forbid any one suit otherwise | declarer may forbid one suit not named by the offender in the legal auction |
| 37 | call by a player who must pass: cancelled, Pass substituted, both of his side pass to the end | the same (37B) |
| 27 | LHO may accept (27A); corrected by the lowest sufficient bid in the same strain, neither conventional: no penalty, 27B1(b) review; any other sufficient bid or pass, or a double attempted (27B3): partner passes throughout, Law 26 (LAWS-DIGEST 14.9) | LHO may accept (27A1); corrected: 27B1a / 27B1b no rectification, 27D review; 27B2 / 27B3 partner passes throughout, Law 26 |
"""

from __future__ import annotations

from typing import Callable

from ledger.bridge import SUITS, Call, Seat, Suit
from ledger.events import (CallCancelled, DirectorReviewRequired, IrregularityRecorded, LeadRestriction,
                           OptionsOffered, PartnerMustPass, ScoreCapped)
from ledger.laws.base import Prescription
from projections.insufficient import accept_law
from projections.state import CallRecord

_FROM_25B = ("change_of_mind", "substitute_accepted", "substitute_rejected", "substitute_cancelled",
             "first_call_kept", "other_call")


RULING_WORDS: dict[str, str] = {
    "explanation_corrected": "corrected an explanation: misinformation (a call made since may be changed "
                             "until the caller's partner calls)",
    "unintended_corrected": "unintended {first} replaced by {call}: {call} stands, no rectification",
    "mi_change": "{first} changed to {call} after the correction of misinformation: no rectification",
    "permitted_change": "{first} changed to {call} without rectification ({detail})",
    "too_late": "change of {first} to {call} refused: partner has called since, {first} stands; "
                "the director rules",
    "undecided": "{call} waits for the director: {detail}",
    "change_of_mind": "{first} replaced by {call}, a change of mind: {lho} may accept {call} or reject it",
    "substitute_accepted": "{call} accepted in place of {first}",
    "substitute_cancelled": "{call} not accepted: cancelled, {first} stands",
    "lho_called": "{call} cancelled, the left-hand opponent had already called: {first} stands",
    "substitute_rejected": "{call} not accepted: cancelled; {seat} keeps {first} or makes another call",
    "first_call_kept": "{call} not accepted; {seat} keeps {first}, {partner} must pass at his next turn",
    "other_call": "{call} not accepted; {seat} withdraws {first} and calls again, {side} scoring at most "
                  "average minus",
    "obliged_to_pass": "{call} by a player obliged to pass: cancelled, Pass substituted; {seat} and {partner} "
                       "pass to the end of the auction",
    "made_over_first_call": "{call} was made over the first call: it stands, {seat} may withdraw it",
    "made_while_option_open": "{call} made while {seat}'s option was open: it stands",
    "withdrawn": "{call}: {detail}",
    "passed_over_34": "{call} out of rotation, accepted, was one of three passes closing the auction: {detail} "
                      "(the player who passed out of rotation is an offender, 16C)",
    "cancelled_34": "{call} cancelled: {detail}",
    "replaces_withdrawn": "{call} replaces {first}, withdrawn after the change of the call it was made over: "
                          "{seat} calls again without rectification",
    "irregular": "{call} in place of {first} is itself irregular: {detail}",
    # 2017 Law 27, an insufficient bid
    "insufficient": "{call} is an insufficient bid: {lho} may accept it or refuse it",
    "ib_accepted": "insufficient {call} accepted ({detail}): it stands as a legal bid",
    "ib_refused": "insufficient {call} not accepted: {seat} must replace it by a legal call",
    "ib_b3_pending": "insufficient {call} not accepted; a double or redouble in its place was cancelled: {seat} "
                     "must make a legal call, {partner} must pass whenever it is his turn",
    "ib_b1a": "insufficient {call} not accepted and corrected by the lowest sufficient bid in the same "
              "denomination: no further rectification (the director reviews at the end)",
    "ib_b1b": "insufficient {call} not accepted and corrected by a comparable call: no further rectification "
              "(the director reviews at the end)",
    "ib_b2": "insufficient {call} not accepted and corrected by a call that is not comparable: {partner} must "
             "pass whenever it is his turn; lead restrictions may follow",
    "ib_b3": "insufficient {call} not accepted; a double or redouble in its place was cancelled: {partner} must "
             "pass whenever it is his turn; lead restrictions may follow",
    "ib_correction": "{call} replaces the insufficient {first}: {detail}",
    "ib_cancelled_double": "{call} in place of the insufficient {first}: {detail}",
}
"""How each ruling on a call (``CallRuling``, the document's ``call_rulings``) reads for people
(``ledger.render``); ``made`` and ``not_made`` are not rulings shown there."""


def _irregular(kind: str, rec, law: str) -> Prescription:
    return Prescription(IrregularityRecorded(kind=kind, offender=str(rec.seat), about=rec.seq), (rec.seq,), law)


def _review(reason: str, rec, law: str) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=rec.seq), (rec.seq,), law)


def _label(law: str) -> str:
    """``"2017:25A1"`` -> ``"25A1"``: the reason of a review starts with its Law."""
    return law.split(":", 1)[1]


def change_of_call(state) -> list[Prescription]:
    """Rectifications for every change of call, by its classification."""
    out: list[Prescription] = []
    for rec in state.calls:
        ruling = rec.ruling
        if ruling == "not_made" and rec.law == "FFB:57.4":
            partner = rec.seat.partner
            out.append(_review(f"FFB 57.4 {rec.seat} took {rec.call} from the box without releasing it: "
                               f"unauthorized information for {partner} (Law 16); adjusted score if {partner} "
                               "chose an action it could have suggested", rec, rec.law))
        elif ruling == "explanation_corrected":
            out.append(Prescription(IrregularityRecorded(kind="misinformation", offender=str(rec.seat.side),
                                                         about=rec.seq), (rec.seq,), rec.law))
        elif ruling == "unintended_corrected":
            out.append(_irregular("unintended_call_corrected", rec, rec.law))
        elif ruling == "too_late" and rec.law.endswith("21B3"):
            # Not an irregularity of the player misinformed: he asks for redress.
            redress = ("the director may award an adjusted score (Law 40C)" if state.edition == "1997" else
                       "adjusted score if the offending side gained an advantage")
            out.append(_review(f"21B3 too late for {rec.seat} to change {rec.first_call} after the correction "
                               f"of misinformation (partner has called): {redress}", rec, rec.law))
        elif ruling == "too_late":
            out.append(_irregular("change_of_call", rec, rec.law))
            out.append(_review(f"{_label(rec.law)} change of call after partner called: the first call stands; "
                               "rule on the irregular call the attempt constitutes", rec, rec.law))
        elif ruling == "undecided":
            out.append(_review(f"{_label(rec.law)} {rec.detail}", rec, rec.law))
        elif ruling == "obliged_to_pass":
            out.extend(_law_37(state, rec))
        elif ruling == "lho_called":
            out.append(_irregular("change_of_call", rec, state.cite("25B")))
            out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law))
        elif ruling in _FROM_25B:
            out.extend(_law_25b(state, rec))
        elif ruling in _FROM_27:
            out.extend(_law_27(state, rec))
        elif ruling == "ib_cancelled_double":
            out.append(Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law))
    return out


_FROM_27 = ("insufficient", "ib_accepted", "ib_refused", "ib_b3_pending", "ib_b1a", "ib_b1b", "ib_b2", "ib_b3")


def _law_27(state, rec) -> list[Prescription]:
    """2017 Law 27, an insufficient bid in rotation (projections.calls reads it):
    the LHO may accept it (27A1); not accepted, the correction decides: 27B1a
    (lowest sufficient bid specifying the same denomination) and 27B1b (a
    comparable call) without further rectification, but the director judges
    at the end whether the outcome could well have been different (27D);
    otherwise partner passes whenever it is his turn (27B2; 27B3 for a double
    or redouble attempted, which is cancelled) and Law 26 may apply."""
    cite = state.cite
    out = [_irregular("insufficient_bid", rec, cite("27")),
           Prescription(OptionsOffered(to=rec.seat.lho, options=("accept", "refuse"), law=accept_law(state)),
                        (rec.seq,), accept_law(state))]
    if rec.ruling == "ib_b2":
        out.append(Prescription(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction"), (rec.seq,),
                                cite("27B2")))
    if rec.ruling in ("ib_b3_pending", "ib_b3"):
        out.append(Prescription(PartnerMustPass(seat=rec.seat.partner, until="end_of_auction"), (rec.seq,),
                                cite("27B3")))
    if rec.ruling == "ib_b1a" and state.edition == "1997":
        out.append(_review(f"1997:27B1b {rec.seat}'s insufficient {rec.call} was corrected by the lowest sufficient "
                           "bid in the same denomination: if the insufficient bid gave information that damaged the "
                           "non-offending side, the director may award an adjusted score", rec, cite("27B1b")))
    elif rec.ruling in ("ib_b1a", "ib_b1b"):
        how = "the lowest sufficient bid in the same denomination" if rec.ruling == "ib_b1a" else "a comparable call"
        out.append(_review(f"27D {rec.seat}'s insufficient {rec.call} was corrected by {how} ({_label(rec.law)}): "
                           "at the end of play, could the outcome well have been different without the "
                           "assistance of the infraction? (adjusted score, 12B1)", rec, cite("27D")))
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


def _law_37(state, rec) -> list[Prescription]:
    """A bid, double or redouble by a player who must pass: cancelled, Pass
    substituted (the projection did), both members of his side pass for the
    rest of the auction; Law 26 may apply to the cancelled call (below)."""
    out = [_irregular("inadmissible_call", rec, rec.law),
           Prescription(CallCancelled(seat=rec.seat, call=rec.call), (rec.seq,), rec.law)]
    for seat in (rec.seat, rec.seat.partner):
        out.append(Prescription(PartnerMustPass(seat=seat, until="end_of_auction"), (rec.seq,), rec.law))
    return out


# -- Law 26: lead restrictions after a withdrawn call ------------------------

def withdrawn_calls(state) -> list[tuple[CallRecord, Call]]:
    """(record, call withdrawn) for each withdrawn call Law 26 reaches: a call
    withdrawn for which the offender chose a different final call at that turn.

    2017: the first call when the substitute was accepted (25B1), the
    substitute when it was not (25B2), a call cancelled under 37B. 1997: the
    cancelled substitute when the first call is kept (25B2b1), the first call
    and the substitute when another call is made (25B2b2), each unless it is
    the final call of that turn, a call cancelled under Law 37. (1997 25B1 is
    "without penalty"; 25A and 21B changes carry no lead restriction.)"""
    out: list[tuple[CallRecord, Call]] = []
    for rec in state.calls:
        if rec.ruling == "obliged_to_pass":
            out.append((rec, rec.call))
        elif rec.ruling in ("ib_b2", "ib_b3", "ib_cancelled_double"):
            out.append((rec, rec.call))  # 27B2, 27B3: the insufficient bid, a cancelled double
        elif state.edition == "2017":
            if rec.ruling == "substitute_accepted":
                out.append((rec, rec.first_call))
            elif rec.ruling in ("substitute_cancelled", "lho_called"):
                out.append((rec, rec.call))
        elif rec.ruling == "first_call_kept":
            out.append((rec, rec.call))
        elif rec.ruling == "other_call":
            final = _final_call_after(state, rec)
            out.extend((rec, c) for c in (rec.first_call, rec.call) if c is not None and c != final)
    for reader in WITHDRAWN_READERS.values():  # the families of Laws 28 to 39
        out.extend(reader(state))
    return out


WITHDRAWN_READERS: dict[str, Callable[..., list[tuple[CallRecord, Call]]]] = {}
"""Other families' withdrawn calls Law 26 reaches (``reader(state)``), by family name."""


def _final_call_after(state, rec) -> Call | None:
    """The offender's call at the turn of a 1997 25B2b2 choice."""
    choice = next((c for c in state.choices if c.option == "other_call" and c.seat is rec.seat), None)
    after = choice.seq if choice is not None else rec.seq
    return next((a.call for a in state.auction if a.seat is rec.seat and a.seq > after), None)


def _named_by(state, seat: Seat) -> set[Suit]:
    """Suits the player specified in the legal auction."""
    return {a.call.strain.trump for a in state.auction
            if a.seat is seat and a.call.is_bid and a.call.strain.trump is not None}


def _suit_of(call: Call) -> Suit | None:
    return call.strain.trump if call.is_bid and call.strain is not None else None


PASS_LIKE = Call.parse("Pass")
"""What an artificial withdrawn bid counts as for Law 26: a call not related to a suit (26B)."""


def law26_terms(state, offender: Seat) -> dict[str, frozenset[Suit]] | None:
    """The options Law 26 gives declarer for ``offender``'s withdrawn calls,
    each with the suits it may name (None: no lead restriction)."""
    withdrawn = [(rec, call) for rec, call in withdrawn_calls(state) if rec.seat is offender]
    if not withdrawn:
        return None
    # an artificial call (29C, the ``artificial`` judgment) is not related solely to its suit: 26B
    calls = [PASS_LIKE if rec.artificial and call.is_bid else call for rec, call in withdrawn]
    named = _named_by(state, offender)
    if state.edition == "2017":  # 26B: any one suit not specified in the legal auction by the offender
        allowed = frozenset(s for s in SUITS if s not in named)
        return {"forbid_suit": allowed, "no_restriction": frozenset()} if allowed else None
    unnamed = frozenset(s for s in (_suit_of(c) for c in calls) if s is not None and s not in named)
    other = any(_suit_of(c) is None for c in calls)  # 26B: not related solely to a suit
    if not unnamed and not other:
        return None  # 26A1: each suit was specified in the legal auction by the offender
    terms: dict[str, frozenset[Suit]] = {}
    if unnamed:  # 26A2: require or forbid one such suit
        terms["require_suit"] = unnamed
    terms["forbid_suit"] = frozenset(SUITS) if other else unnamed
    terms["no_restriction"] = frozenset()
    return terms


def _first_lead(state, seat: Seat) -> int | None:
    """When ``seat``'s first turn to lead came: 0 for the opening lead, else
    the number of the first trick he leads; None if it has not come yet."""
    contract = state.contract
    if contract is None:
        return None
    if contract.declarer.lho is seat:
        return 0
    led = next((t.number for t in state.tricks if t.leader is seat), None)
    if led is not None:
        return led
    trick = state.current_trick
    if state.phase == "play" and trick is not None and trick.complete and trick.winner is seat:
        return trick.number + 1
    return None


def law26_offender(state) -> Seat | None:
    """The defender whose withdrawn call Law 26 now reaches: the one whose
    partner's first turn to lead came first. (The ledger rectifies one
    offender per board; a second defender's withdrawn call is the director's.)"""
    contract = state.contract
    if contract is None or state.phase not in ("opening_lead", "play", "ended"):
        return None
    offenders = {rec.seat for rec, _ in withdrawn_calls(state) if rec.seat.side is not contract.side}
    reached = sorted((lead, seat.index, seat) for seat in offenders
                     if (lead := _first_lead(state, seat.partner)) is not None and law26_terms(state, seat))
    return reached[0][2] if reached else None


def law26_suits(state, option: str) -> frozenset[Suit]:
    """The suits declarer may name with ``option`` under the Law 26 offer now pending."""
    offender = law26_offender(state)
    terms = law26_terms(state, offender) if offender is not None else None
    return (terms or {}).get(option, frozenset())


def lead_restrictions(state) -> list[Prescription]:
    offender = law26_offender(state)
    if offender is None:
        return []
    terms = law26_terms(state, offender)
    assert terms is not None and state.contract is not None
    cite = state.cite
    first = next(rec for rec, _ in withdrawn_calls(state) if rec.seat is offender)
    out = [Prescription(OptionsOffered(to=state.contract.declarer, options=tuple(terms), law=cite("26")),
                        (first.seq,), cite("26"))]
    for choice in state.choices:
        if not choice.law.endswith(":26") or choice.option == "no_restriction" or choice.suit is None:
            continue
        mode, lasts = ("must", "next_lead") if choice.option == "require_suit" else ("must_not", "while_on_lead")
        out.append(Prescription(LeadRestriction(seat=offender.partner, suit=choice.suit, mode=mode, lasts=lasts),
                                (choice.offer, choice.seq), choice.law))
    return out


def lead_breaches(state) -> list[Prescription]:
    """A lead against a restriction when able to comply: kind ``revoke`` (61A), no transfer (64B3)."""
    return [Prescription(IrregularityRecorded(kind="revoke", offender=str(b.seat), about=b.seq), (b.seq,),
                         state.cite("61A")) for b in state.breaches]
