"""Irregular boards and information (Laws 13 to 16; 1997 17D, 2017 15A): what the
ruling engine appends after the fold (``projections.boards``) has applied what
is mechanical.

Everything here that needs judgment (is the information harmless, do all four
players agree, does the substituted call differ, was a logical alternative
suggested, was there damage, who was at fault for an artificial score) is a
``DirectorReviewRequired`` whose reason starts with the Law and edition: the
engine never proposes an adjusted score itself, and never because a
rectification is severe (1997 12B, 2017 12B2).  The prescriptions depend on the
facts and the director's findings only, so they are stable: the same stream
yields the same questions, once each.
"""

from __future__ import annotations

from ledger.events import CallCancelled, DirectorReviewRequired, IrregularityRecorded
from ledger.laws.base import Prescription


def _finding(state, about: int, field: str):
    value = None
    for f in state.findings:
        if f.about == about and f.field == field:
            value = f.value
    return value


def _review(reason: str, about: int, law: str | None) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=about), (about,), law)


def _hand_count(state, f) -> list[Prescription]:
    if f.ruling == "result_cancelled":
        penalty = "1997:90" if state.edition == "1997" else "2017:90"
        return [_review(f"{f.law}: {f.detail}; award an artificial adjusted score "
                        f"(a procedural penalty is possible, {penalty})", f.seq, f.law)]
    if f.ruling == "missing_card":
        return [_review(f"{f.law}: {f.detail}; a card found is restored (MissingCardFound), one not found "
                        "means the deal is reconstructed", f.seq, f.law)]
    if f.ruling == "call_made":
        if state.edition == "2017":
            return [_review("2017:13B: a call was made with an incorrect hand: the call stands; the director "
                            "decides whether the deal can be corrected and played (and may adjust after "
                            "play), else awards an adjusted score", f.seq, f.law)]
        agree = _finding(state, f.seq, "all_agree")
        if agree is True:
            return []  # corrected without a change of call, all four agree: played normally
        if agree is False:
            return [_review("1997:13: a call was made with an incorrect hand and not all four players agree "
                            "to play it: artificial adjusted score (the offender may be penalised)",
                            f.seq, f.law)]
        return [_review("1997:13: a call was made with an incorrect hand: the board is played only if it "
                        "can be corrected without a change of call and all four players agree "
                        "(FindingMade all_agree)", f.seq, f.law)]
    return []  # correct_and_play (13A): nothing to ask


def _card_seen(state, f) -> list[Prescription]:
    if f.ruling == "seen_with_wrong_count":
        if state.edition == "1997":
            return [_review(f"1997:13B: {f.detail} after a wrong count: if the information is harmless the "
                            "board is played normally with all four players' agreement; if it would "
                            "interfere with normal play, or a player objects, artificial adjusted score",
                            f.seq, f.law)]
        return [_review(f"2017:13A: {f.detail} after a wrong count: play and score normally if the "
                        "information is unlikely to interfere (adjust later if it did); otherwise an "
                        "adjusted score", f.seq, f.law)]
    if f.law == "1997:16B":
        return [_review(f"1997:16B: {f.detail}: unauthorized information from another source; if it could "
                        "interfere the director may switch positions, appoint a substitute (all agree) "
                        "or award an artificial adjusted score", f.seq, f.law)]
    if f.law == "2017:16D2":
        return [_review(f"2017:16D2: {f.detail} before any call: the director may adjust positions, order "
                        "a redeal, allow play and adjust later, or award an artificial adjusted score",
                        f.seq, f.law)]
    return [_review(f"2017:16D3: {f.detail} after the first call: play continues; the director may "
                    "adjust at the end", f.seq, f.law)]


def _missing_card(state, f) -> list[Prescription]:
    if f.ruling == "defective_trick":
        return [_review(f"{f.law}: {f.detail}: the director rules the defective trick", f.seq, f.law)]
    card = f.card
    showed_out = [t.number for t in state.tricks
                  if t.complete and t.suit_led is card.suit and all(p.seq < f.seq for p in t.cards)
                  and (mine := t.card_of(f.seat)) is not None and mine.card.suit is not card.suit]
    ruled = {i.trick for i in state.irregularities if i.kind == "revoke" and i.offender == str(f.seat)}
    showed_out = [n for n in showed_out if n not in ruled]  # a revoke already ruled by Laws 61 to 64
    if not showed_out:
        return []
    tricks = ", ".join(str(n) for n in showed_out)
    return [_review(f"{f.law}: {card} restored to {f.seat}, deemed to have belonged to the hand throughout: "
                    f"{f.seat} did not follow suit to trick {tricks}: a revoke (61 to 64)", f.seq, f.law)]


def _wrong_board(state, f) -> list[Prescription]:
    if f.ruling == "cancelled":
        artificial = "1997:15B" if state.edition == "1997" else "2017:15B3"
        return [_review(f"{f.law}: {f.detail}; artificial adjusted score to each contestant deprived of a "
                        f"valid score ({artificial})", f.seq, f.law)]
    if f.ruling == "repeat_calls":
        return [_review(f"1997:15C: {f.detail}", f.seq, f.law)]
    return []


def _wrong_cards(state, f) -> list[Prescription]:
    out: list[Prescription] = []
    cancelled = [n for n in state.calls_not_made if n.law == f.law and n.reason == "made with cards from another board"
                 and n.seq < f.seq]
    for n in cancelled:
        from ledger.bridge import Call

        out.append(Prescription(CallCancelled(seat=n.seat, call=Call.parse(n.what)), (f.seq, n.seq), f.law))
    if f.ruling.startswith("calls_cancelled"):
        out.append(Prescription(IrregularityRecorded(kind="cards_from_wrong_board", offender=str(f.seat),
                                                     about=f.seq), (f.seq,), f.law))
    if f.ruling == "calls_cancelled_partner_called" and state.edition == "2017":
        out.append(_review(f"2017:15A: {f.seat}'s partner called over the cancelled call: adjusted score "
                           "(a procedural penalty is possible)", f.seq, f.law))
    elif f.ruling in ("calls_cancelled_lho_called", "calls_cancelled_partner_called") and state.edition == "1997":
        out.append(_review(f"1997:17D: {f.seat}'s LHO called over the cancelled call: if the substituted "
                           "call differs significantly, artificial adjusted scores", f.seq, f.law))
    if f.ruling.startswith("calls_cancelled"):
        if state.edition == "1997":
            text = (f"1997:17D: if {f.seat} later repeats the cancelled call differently on the board it "
                    "came from, artificial adjusted score")
        else:
            text = (f"2017:15A: on the board it came from, a call by {f.seat} different from the cancelled "
                    "one (much different meaning or a psychic call) means an adjusted score")
        out.append(_review(text, f.seq, f.law))
    elif f.ruling == "after_auction":
        out.append(_review(f"{f.law}: {f.detail} after the auction: the director rules", f.seq, f.law))
    return out


def _extraneous(state, f) -> list[Prescription]:
    options = {"1997:16B": "switch positions, appoint a substitute (all agree) or award an artificial "
                           "adjusted score",
               "2017:16D2": "adjust positions, order a redeal, allow play and adjust later, or award an "
                            "artificial adjusted score",
               "2017:16D3": "play continues; the director may adjust at the end"}[f.law]
    return [_review(f"{f.law}: {f.detail}: if it could interfere with normal play: {options}", f.seq, f.law)]


def _rights_reserved(state, f) -> list[Prescription]:
    if state.result is None and state.result_cancelled is None:
        return []  # the director is called once play has ended
    return [_review(f"{f.law}: {f.detail}: unauthorized information: the director rules whether a logical "
                    "alternative that could have been suggested was chosen, and whether it damaged the "
                    "non-offenders (adjusted score)", f.seq, f.law)]


def _result_cancelled(state, f) -> list[Prescription]:
    return [_review(f"result cancelled ({f.detail}): award an artificial adjusted score", f.seq, f.law)]


_RULES = {
    "HandCountWrong": _hand_count,
    "CardSeen": _card_seen,
    "MissingCardFound": _missing_card,
    "WrongBoardPlayed": _wrong_board,
    "WrongBoardCards": _wrong_cards,
    "ExtraneousInformation": _extraneous,
    "RightsReserved": _rights_reserved,
    "ResultCancelled": _result_cancelled,
}


def irregular_boards(state) -> list[Prescription]:
    """Laws 13 to 16: the mechanical records and the director's questions, per fact."""
    out: list[Prescription] = []
    for f in getattr(state, "board_facts", ()):
        out.extend(_RULES[f.type](state, f))
    return out
