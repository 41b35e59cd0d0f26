"""Irregular boards and information in the table fold (Laws 13 to 16; 1997 17D, 2017 15A).

The fold applies what is mechanical and records every fact in
``state.board_facts`` with its reading (``ruling``) and Law; the rules
(below) ask the director about the rest.

* ``HandCountWrong`` (13): discovered after play (a result exists) the result
  is cancelled (1997 13C, 2017 13D); a hand short of cards before that is
  Law 14 (a missing card); otherwise the reading depends on whether a call
  was made (1997 13 first paragraph / 2017 13B) or not (13A).
* ``CardSeen`` (13B with a wrong count; otherwise 1997 16B / 2017 16D).
* ``MissingCardFound`` (14): the card is part of ``seat``'s hand and deemed to
  have been there throughout (1997 14C, 2017 14B): the hands are the deal's,
  so the card is in the hand unless it was played; play and revoke logic see
  it.  Found among the played cards (2017 14B1, 1997 14; 58B4): Law 67B2, the card stays in the hand on
  the record (it was never logged as played), a revoke it shows read from the tricks; no question.
* ``WrongBoardPlayed`` (15): played before by one of the four: the result is
  cancelled for both sides (1997 15B, 2017 15B1); none of them: the score
  stands (1997 15A, 2017 15B2).
* ``WrongBoardCards`` (1997 17D, 2017 15A): the player's calls on this board
  are cancelled with every call after them; he calls again.
* ``ExtraneousInformation`` (1997 16B, 2017 16D2 before any call, 16D3 after).
* ``ResultCancelled``: the result no longer counts; an artificial adjusted
  score follows.
* ``RightsReserved`` (1997 16A, 2017 16B2): recorded; the engine asks the
  director once play has ended.
* ``RulingGiven`` citing a Law answers the open ``review`` questions whose
  reason starts with that citation (the director ruled on them: "play on").

The rules: what the ruling engine appends after the fold has applied what is
mechanical.

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

from typing import Any, Callable

import attrs

from ledger import events as ev
from ledger.bridge import sort_cards
from ledger.events import CallCancelled, DirectorReviewRequired, IrregularityRecorded
from ledger.laws.base import Citations, Prescription, cited, handles
from projections.derived import read
from projections.fold import Step
from projections.procedure import journalled
from projections.state import AUCTION, BoardFact, NotMade, TableState
from projections.vocab import Edition, IrregularityKind

LAWS = ("13", "14", "15", "16", "17D")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS: Citations = {
    "wrong_count_after_play": {"1997": "13C", "2017": "13D"},
    "wrong_count_call_made": {"1997": "13", "2017": "13B"},
    "seen_with_wrong_count": {"1997": "13B", "2017": "13A"},
    "information_before_calls": {"1997": "16B", "2017": "16D2"},
    "information_after_calls": {"1997": "16B", "2017": "16D3"},
    "card_found": {"1997": "14C", "2017": "14B"},
    "played_before": {"1997": "15B", "2017": "15B1"},
    "not_played_before": {"1997": "15A", "2017": "15B2"},
    "wrong_board_cancelled": {"1997": "15B", "2017": "15B3"},
    "found_during_auction": {"1997": "15C"},
    "wrong_board_cards": {"1997": "17D", "2017": "15A"},
    "rights_reserved": {"1997": "16A", "2017": "16B2"},
}
"""Where the editions differ on the facts of this family: the Law each edition cites."""

# -- the reading of the facts (fold handlers) ---------------------------------------------


def _add(state: TableState, fact: BoardFact) -> TableState:
    return attrs.evolve(state, board_facts=state.board_facts + (fact,))


def _calls_made(state: TableState) -> bool:
    return bool(state.auction)


def _information(state: TableState) -> str:
    """Information from outside the table, or a card seen (1997 16B; 2017 16D2 before any call, 16D3 after)."""
    return cited(state, CITATIONS, "information_after_calls" if _calls_made(state) else "information_before_calls")


def _in_edition(state: TableState) -> set[str]:
    """The occasions of :data:`CITATIONS` that exist in the board's edition."""
    return {occasion for occasion, laws in CITATIONS.items() if state.edition in laws}


@handles(ev.HandCountWrong)
def on_hand_count_wrong(state: TableState, step: Step[ev.HandCountWrong]) -> TableState:
    seq, event = step.seq, step.event
    if state.result is not None and event.count != 13:
        law = cited(state, CITATIONS, "wrong_count_after_play")
        state = attrs.evolve(state, result_cancelled=seq)
        return _add(state, BoardFact(seq, event.TYPE, event.seat, "result_cancelled", law,
                                     f"{event.seat}'s hand held {event.count} cards: found after play, "
                                     "the result is cancelled"))
    if event.count < 13:
        law = state.cite("14B" if state.tricks else "14A")
        return _add(state, BoardFact(seq, event.TYPE, event.seat, "missing_card", law,
                                     f"{event.seat}'s hand holds {event.count} cards: the director "
                                     "searches for the missing card (Law 14, not 13, when the other "
                                     "three hands are correct)"))
    if _calls_made(state):
        law = cited(state, CITATIONS, "wrong_count_call_made")
        return _add(state, BoardFact(seq, event.TYPE, event.seat, "call_made", law,
                                     f"{event.seat}'s hand held {event.count} cards and a call was made"))
    law = state.cite("13A")
    return _add(state, BoardFact(seq, event.TYPE, event.seat, "correct_and_play", law,
                                 f"{event.seat}'s hand held {event.count} cards, no call made: the "
                                 "director corrects the board and it is played normally"))


@handles(ev.CardSeen)
def on_card_seen(state: TableState, step: Step[ev.CardSeen]) -> TableState:
    seq, event = step.seq, step.event
    wrong_count = any(f.type == "HandCountWrong" for f in state.board_facts)
    holder = state.board.deal.holder(event.card)
    if wrong_count:
        law = cited(state, CITATIONS, "seen_with_wrong_count")
        ruling = "seen_with_wrong_count"
    else:
        law, ruling = _information(state), "seen"
    return _add(state, BoardFact(seq, event.TYPE, event.by, ruling, law,
                                 f"{event.by} saw {event.card} of {holder}'s hand", card=event.card))


@handles(ev.MissingCardFound)
def on_missing_card_found(state: TableState, step: Step[ev.MissingCardFound]) -> TableState:
    seq, event = step.seq, step.event
    if event.among_played:  # spec 1.3: 67B2 (through 2017 14B1; 58B4 for cards played together)
        return _add(state, BoardFact(seq, event.TYPE, event.seat, "defective_trick", state.cite("67B2"),
                                     f"{event.card} found among {event.seat}'s played cards: a defective trick "
                                     "(67B2): never logged as played, the card is in the hand on the record and "
                                     "stays there; no trick changes owner; a revoke it shows is read from the "
                                     "tricks (61 to 64)", card=event.card))
    law = cited(state, CITATIONS, "card_found")
    played = any(p.card == event.card for t in state.tricks for p in t.cards)
    if not played and not state.holds(event.seat, event.card):
        hands = list(state.hands)
        hands[event.seat.index] = tuple(sort_cards(hands[event.seat.index] + (event.card,)))
        state = attrs.evolve(state, hands=tuple(hands))
    return _add(state, BoardFact(seq, event.TYPE, event.seat, "restored", law,
                                 f"{event.card} restored to {event.seat}'s hand, deemed to have belonged "
                                 "to it throughout: it may become a penalty card, and failure to have "
                                 "played it may be a revoke", card=event.card))


@handles(ev.WrongBoardPlayed)
def on_wrong_board_played(state: TableState, step: Step[ev.WrongBoardPlayed]) -> TableState:
    seq, event = step.seq, step.event
    seats = " ".join(str(s) for s in event.played_before_by)
    if event.played_before_by:
        law = cited(state, CITATIONS, "played_before")
        state = attrs.evolve(state, result_cancelled=seq)
        return _add(state, BoardFact(seq, event.TYPE, None, "cancelled", law,
                                     f"the board was played before by {seats}: the score is cancelled "
                                     "for both sides"))
    if "found_during_auction" in _in_edition(state) and state.phase == AUCTION and state.auction:
        return _add(state, BoardFact(seq, event.TYPE, None, "repeat_calls",
                                     cited(state, CITATIONS, "found_during_auction"),
                                     "found during the auction: the right contestants are seated and "
                                     "must repeat their calls; if any call differs the board is cancelled"))
    law = cited(state, CITATIONS, "not_played_before")
    return _add(state, BoardFact(seq, event.TYPE, None, "score_stands", law,
                                 "none of the four had played the board: the score stands (the right "
                                 "board may be played later)"))


@handles(ev.WrongBoardCards)
def on_wrong_board_cards(state: TableState, step: Step[ev.WrongBoardCards]) -> TableState:
    seq, event = step.seq, step.event
    law = cited(state, CITATIONS, "wrong_board_cards")
    first = next((i for i, a in enumerate(state.auction) if a.seat is event.seat), None)
    if state.phase != AUCTION or first is None:
        return _add(state, BoardFact(seq, event.TYPE, event.seat, "no_call_to_cancel" if state.phase == AUCTION
                                     else "after_auction", law,
                                     f"{event.seat} held cards from another board"))
    cancelled = state.auction[first:]
    not_made = tuple(NotMade(a.seq, a.seat, str(a.call), "made with cards from another board", law)
                     for a in cancelled)
    partner_called = any(a.seat is event.seat.partner for a in cancelled[1:])
    lho_called = any(a.seat is event.seat.lho for a in cancelled[1:])
    ruling = "calls_cancelled_partner_called" if partner_called else (
        "calls_cancelled_lho_called" if lho_called else "calls_cancelled")
    state = attrs.evolve(state, auction=state.auction[:first], calls_not_made=state.calls_not_made + not_made)
    calls = ", ".join(f"{a.seat} {a.call}" for a in cancelled)
    return _add(state, BoardFact(seq, event.TYPE, event.seat, ruling, law,
                                 f"{event.seat} called with cards from another board: cancelled {calls}; "
                                 f"{event.seat} calls again"))


@handles(ev.BoardWithdrawn, ev.BoardVoided)
def on_board_withdrawn(state: TableState, step: Step[ev.BoardWithdrawn | ev.BoardVoided]) -> TableState:
    """A board withdrawn (not played, or its play stopped: 13, 15, 16, 86, 87) or voided (opened
    by mistake): any result is cancelled; the board fact says which, with the director's Law."""
    seq, event = step.seq, step.event
    law = event.law if isinstance(event, ev.BoardWithdrawn) else None
    ruling = "withdrawn" if isinstance(event, ev.BoardWithdrawn) else "voided"
    state = attrs.evolve(state, result_cancelled=seq)
    return _add(state, BoardFact(seq, event.TYPE, None, ruling, law, event.reason))


@handles(ev.ExtraneousInformation)
def on_extraneous_information(state: TableState, step: Step[ev.ExtraneousInformation]) -> TableState:
    seq, event = step.seq, step.event
    return _add(state, BoardFact(seq, event.TYPE, event.by, "extraneous", _information(state),
                                 f"{event.by} received information from outside the table: {event.text}"))


@handles(ev.ResultCancelled)
def on_result_cancelled(state: TableState, step: Step[ev.ResultCancelled]) -> TableState:
    seq, event = step.seq, step.event
    state = attrs.evolve(state, result_cancelled=seq)
    return _add(state, BoardFact(seq, event.TYPE, None, "cancelled", None, event.text))


@handles(ev.RightsReserved)
@journalled
def on_rights_reserved(state: TableState, step: Step[ev.RightsReserved]) -> TableState:
    seq, event = step.seq, step.event
    law = cited(state, CITATIONS, "rights_reserved")
    about = f" about seq {event.about}" if event.about is not None else ""
    reason = f": {event.reason}" if event.reason else ""
    return _add(state, BoardFact(seq, event.TYPE, event.by, "rights_reserved", law,
                                 f"{event.by} reserved the right to call the director later{about}{reason}"))


def board_document(state: TableState) -> list[dict[str, Any]]:
    """``irregular_boards`` (extension): each fact of Laws 13 to 16 and its reading."""
    return [{"seq": f.seq, "type": f.type, "seat": str(f.seat) if f.seat else None, "ruling": f.ruling,
             "law": f.law, "detail": f.detail, **({"card": str(f.card)} if f.card else {})}
            for f in state.board_facts]


# -- the rules ----------------------------------------------------------------------------


def _finding(state: TableState, about: int, field: str) -> object:
    value = None
    for f in state.findings:
        if f.about == about and f.field == field:
            value = f.value
    return value


def _review(reason: str, about: int, law: str | None) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=about), (about,), law)


def _hand_count(state: TableState, f: BoardFact) -> list[Prescription]:
    if f.ruling == "result_cancelled":
        penalty = state.cite("90")
        return [_review(f"{f.law}: {f.detail}; award an artificial adjusted score "
                        f"(a procedural penalty is possible, {penalty})", f.seq, f.law)]
    if f.ruling == "missing_card":
        return [_review(f"{f.law}: {f.detail}; a card found is restored (MissingCardFound), one not found "
                        "means the deal is reconstructed", f.seq, f.law)]
    if f.ruling == "call_made":
        if state.edition == Edition.E2017:
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


def _card_seen(state: TableState, f: BoardFact) -> list[Prescription]:
    if f.ruling == "seen_with_wrong_count":
        if state.edition == Edition.E1997:
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


def _missing_card(state: TableState, f: BoardFact) -> list[Prescription]:
    if f.ruling == "defective_trick":
        return []  # spec 1.3 (67B2): the record already holds the card; the revokes read the tricks
    card, seat = f.card, f.seat
    assert card is not None and seat is not None  # narrowing: a MissingCardFound names its card and seat (checks)
    showed_out = [t.number for t in state.tricks
                  if t.complete and t.suit_led is card.suit and all(p.seq < f.seq for p in t.cards)
                  and (mine := t.card_of(seat)) is not None and mine.card.suit is not card.suit]
    ruled = {i.trick for i in read(state, "irregularities") if i.kind == IrregularityKind.REVOKE and i.offender == str(f.seat)}
    showed_out = [n for n in showed_out if n not in ruled]  # a revoke already ruled by Laws 61 to 64
    if not showed_out:
        return []
    tricks = ", ".join(str(n) for n in showed_out)
    return [_review(f"{f.law}: {card} restored to {f.seat}, deemed to have belonged to the hand throughout: "
                    f"{f.seat} did not follow suit to trick {tricks}: a revoke (61 to 64)", f.seq, f.law)]


def _wrong_board(state: TableState, f: BoardFact) -> list[Prescription]:
    if f.ruling == "cancelled":
        artificial = cited(state, CITATIONS, "wrong_board_cancelled")
        return [_review(f"{f.law}: {f.detail}; artificial adjusted score to each contestant deprived of a "
                        f"valid score ({artificial})", f.seq, f.law)]
    if f.ruling == "repeat_calls":
        return [_review(f"1997:15C: {f.detail}", f.seq, f.law)]
    return []


def _wrong_cards(state: TableState, f: BoardFact) -> list[Prescription]:
    out: list[Prescription] = []
    cancelled = [n for n in state.calls_not_made if n.law == f.law and n.reason == "made with cards from another board"
                 and n.seq < f.seq]
    for n in cancelled:
        from ledger.bridge import Call

        out.append(Prescription(CallCancelled(seat=n.seat, call=Call.parse(n.what)), (f.seq, n.seq), f.law))
    if f.ruling.startswith("calls_cancelled"):
        out.append(Prescription(IrregularityRecorded(kind=IrregularityKind.CARDS_FROM_WRONG_BOARD, offender=str(f.seat),
                                                     about=f.seq), (f.seq,), f.law))
    if f.ruling == "calls_cancelled_partner_called" and state.edition == Edition.E2017:
        out.append(_review(f"2017:15A: {f.seat}'s partner called over the cancelled call: adjusted score "
                           "(a procedural penalty is possible)", f.seq, f.law))
    elif f.ruling in ("calls_cancelled_lho_called", "calls_cancelled_partner_called") and state.edition == Edition.E1997:
        out.append(_review(f"1997:17D: {f.seat}'s LHO called over the cancelled call: if the substituted "
                           "call differs significantly, artificial adjusted scores", f.seq, f.law))
    if f.ruling.startswith("calls_cancelled"):
        if state.edition == Edition.E1997:
            text = (f"1997:17D: if {f.seat} later repeats the cancelled call differently on the board it "
                    "came from, artificial adjusted score")
        else:
            text = (f"2017:15A: on the board it came from, a call by {f.seat} different from the cancelled "
                    "one (much different meaning or a psychic call) means an adjusted score")
        out.append(_review(text, f.seq, f.law))
    elif f.ruling == "after_auction":
        out.append(_review(f"{f.law}: {f.detail} after the auction: the director rules", f.seq, f.law))
    return out


def _extraneous(state: TableState, f: BoardFact) -> list[Prescription]:
    assert f.law is not None  # narrowing: the engine cites 16B / 16D on every ExtraneousInformation it reads
    options = {"1997:16B": "switch positions, appoint a substitute (all agree) or award an artificial "
                           "adjusted score",
               "2017:16D2": "adjust positions, order a redeal, allow play and adjust later, or award an "
                            "artificial adjusted score",
               "2017:16D3": "play continues; the director may adjust at the end"}[f.law]
    return [_review(f"{f.law}: {f.detail}: if it could interfere with normal play: {options}", f.seq, f.law)]


def _rights_reserved(state: TableState, f: BoardFact) -> list[Prescription]:
    if state.result is None and state.result_cancelled is None:
        return []  # the director is called once play has ended
    return [_review(f"{f.law}: {f.detail}: unauthorized information: the director rules whether a logical "
                    "alternative that could have been suggested was chosen, and whether it damaged the "
                    "non-offenders (adjusted score)", f.seq, f.law)]


def _result_cancelled(state: TableState, f: BoardFact) -> list[Prescription]:
    return [_review(f"result cancelled ({f.detail}): award an artificial adjusted score", f.seq, f.law)]


_RULES: dict[str, Callable[[TableState, BoardFact], list[Prescription]]] = {
    "HandCountWrong": _hand_count,
    "CardSeen": _card_seen,
    "MissingCardFound": _missing_card,
    "WrongBoardPlayed": _wrong_board,
    "WrongBoardCards": _wrong_cards,
    "ExtraneousInformation": _extraneous,
    "RightsReserved": _rights_reserved,
    "ResultCancelled": _result_cancelled,
    "BoardWithdrawn": lambda state, f: [],  # the director's own decision: nothing to ask
    "BoardVoided": lambda state, f: [],
}


def irregular_boards(state: TableState) -> list[Prescription]:
    """Laws 13 to 16: the mechanical records and the director's questions, per fact."""
    out: list[Prescription] = []
    for f in getattr(state, "board_facts", ()):
        out.extend(_RULES[f.type](state, f))
    return out


# -- words -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.CARDS_FROM_WRONG_BOARD: "cards from wrong board",
}
"""How the irregularity this family records (``IrregularityKind``: 1997 17D, 2017 15A) reads for people."""
