"""Command-side checks: what the ledger refuses before anything is written.

Only what cannot physically happen at a table is refused (a card the seat
does not hold, a second BoardOpened, an event before BoardOpened). An
irregular action that can happen at a real table (a call out of turn, a card
played out of turn, a revoke) is never refused: it is stored and ruled on.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from ledger import events as ev
from ledger.bridge import Card, Seat
from ledger.errors import BadInput
from projections.fold import EITHER_DEFENDER_LAWS, law_of
from ledger.laws.revokes import restores_trick12

# Facts whose card must still be in the seat's hand.
_CARD_IN_HAND = (ev.CardPlayed, ev.LeadFaceDown, ev.CardHeld, ev.CardDropped, ev.CardNamed)


def check_fact(state, event: ev.Event) -> None:
    """Raise :class:`BadInput` if ``event`` cannot be appended to a stream in ``state``."""
    if state is None:
        if not isinstance(event, ev.BoardOpened):
            raise BadInput("the first event of a stream must be BoardOpened", field="type",
                           value=event.TYPE)
        return
    _check_board_open(state, event)
    for types, check in _FACT_CHECKS:
        if isinstance(event, types):
            check(state, event)
            return


def _check_board_open(state, event: ev.Event) -> None:
    """The board takes this fact at all: not a second BoardOpened nor a register fact, no play
    on a board withdrawn or voided, no call or card after a result reported without them."""
    if isinstance(event, ev.BoardOpened):
        raise BadInput("the board is already opened (BoardOpened comes once, first)", field="type",
                       value=event.TYPE)
    if isinstance(event, ev.TOURNAMENT_EVENTS):
        raise BadInput("a fact of the tournament's register, not of a board: append it with "
                       "`cli.py register TOURNAMENT FILE`", field="type", value=event.TYPE,
                       event_type=event.TYPE)
    ended = withdrawn_or_voided(state)
    if ended is not None and (event.FAMILY in ("auction", "play", "procedure")
                              or isinstance(event, (ev.BoardWithdrawn, ev.BoardVoided))):
        raise BadInput(f"the board was {ended.ruling} at seq {ended.seq} ({ended.detail})", field="type",
                       value=event.TYPE, event_type=event.TYPE)
    if state.result is not None and not state.auction and not state.tricks \
            and event.FAMILY in ("auction", "play"):
        raise BadInput("the table's result was reported without its calls and cards "
                       "(ResultReported): no call or card can follow it", field="type",
                       value=event.TYPE, event_type=event.TYPE)


def _check_card_in_hand(state, event) -> None:
    _check_holds(state, event.seat, event.card, event.TYPE)
    if isinstance(event, ev.CardPlayed) and state.defective:
        from ledger.laws.defective import check_supplied
        check_supplied(state, event)  # spec 1.3: 67A1 / 67B1, the card supplied to a defective trick


def _check_withdrawn(state, event: ev.CardWithdrawn) -> None:
    _check_dealt(state, event.seat, event.card, event.TYPE)
    if event.replacement is not None and restores_trick12(state, event) is None:  # 62D1: may come from trick 13
        _check_holds(state, event.seat, event.replacement, event.TYPE, field="replacement")


def _check_dummy_card(state, event) -> None:
    _check_dummy_holds(state, event.card, event.TYPE)


def _check_designation(state, event: ev.DesignationChanged) -> None:
    _check_holds(state, state.board.deal.holder(event.card), event.card, event.TYPE)


def _check_adjusted(state, event: ev.AdjustedScoreAwarded) -> None:
    check_adjusted_score(event)


def _check_found(state, event: ev.MissingCardFound) -> None:
    _check_dealt(state, event.seat, event.card, event.TYPE)


def _check_period_ended(state, event: ev.CorrectionPeriodEnded) -> None:
    if state.correction_period_ended is not None:
        raise BadInput(f"the Correction Period already ended (seq {state.correction_period_ended}); "
                       "CorrectionPeriodEnded comes once per board", field="type", value=event.TYPE,
                       event_type=event.TYPE)


def _check_claim_ruled(state, event: ev.ClaimRuled) -> None:
    """Spec 1.3 (10.C): a ruling needs a claim that stands, at most the tricks that remained, and a line
    (when given) that is legal card by card and gives the claimer's side exactly the tricks awarded."""
    from ledger.laws.claims import OPEN, line_error
    claim = state.claim
    if claim is None or claim.status not in OPEN:
        why = "no claim was made" if claim is None else "the claim is void (68B2): play continued"
        raise BadInput(f"no claim to rule on: {why}", field="type", value=event.TYPE, event_type=event.TYPE)
    if event.tricks > claim.remaining:
        raise BadInput(f"{claim.remaining} tricks remained when the claim was made", field="tricks",
                       value=event.tricks, event_type=event.TYPE)
    error = line_error(state, event)
    if error is not None:
        raise BadInput(error, field="line", value=[str(c) for c in event.line or ()], event_type=event.TYPE)


def withdrawn_or_voided(state):
    """The board's ``BoardWithdrawn`` or ``BoardVoided`` fact (the last), or None."""
    facts = [f for f in getattr(state, "board_facts", ()) if f.type in ("BoardWithdrawn", "BoardVoided")]
    return facts[-1] if facts else None


def _check_reported(state, event: ev.ResultReported) -> None:
    """A reported result (a traveller row) is the table's whole record: a table that already
    has calls, cards or a result cannot have one; a contract needs declarer and tricks."""
    if state.auction or state.tricks or state.result is not None:
        raise BadInput("the table already has calls, cards or a result", field="type",
                       value=event.TYPE, event_type=event.TYPE)
    if event.contract != "Pass" and (event.declarer is None or event.tricks is None):
        field = "declarer" if event.declarer is None else "tricks"
        raise BadInput(f"a reported contract needs its {field}", field=field, value=None,
                       event_type=event.TYPE)


def _check_dealt(state, seat: Seat, card: Card, type_: str, field: str = "card") -> None:
    holder = state.board.deal.holder(card)
    if holder is not seat:
        raise BadInput(f"{seat} was not dealt {card} (it is {holder}'s card)", field=field,
                       value=str(card), event_type=type_)


def _check_holds(state, seat: Seat, card: Card, type_: str, field: str = "card") -> None:
    _check_dealt(state, seat, card, type_, field)
    if not state.holds(seat, card):
        played = next((p.seq for t in state.tricks for p in t.cards if p.card == card), None)
        when = f" (seq {played})" if played is not None else ""
        raise BadInput(f"{card} of {seat} was already played{when}", field=field, value=str(card),
                       event_type=type_)


def _check_dummy_holds(state, card: Card, type_: str) -> None:
    """Dummy's card touched or misplaced: there is a dummy, and the card is his, unplayed."""
    if state.dummy is None:
        raise BadInput("there is no dummy yet (the auction has not closed)", field="type", value=type_,
                       event_type=type_)
    _check_holds(state, state.dummy, card, type_)


def _check_dummy_fact(state, event: ev.Event) -> None:
    """61B, 42B: an inquiry needs a contract and two different players; dummy's warning needs a dummy."""
    if state.contract is None:
        raise BadInput("there is no play yet (the auction has not closed)", field="type", value=event.TYPE,
                       event_type=event.TYPE)
    if isinstance(event, ev.RevokeInquiry) and event.by is event.to:
        raise BadInput("a player asks another player, not himself", field="to", value=str(event.to),
                       event_type=event.TYPE)


def check_finding(finding: ev.FindingMade, target: ev.Event) -> None:
    """A finding must be about a judgment field the target fact has (spec section 3)."""
    from projections.resolve import JUDGMENT_FIELDS, findable_fields

    fields = findable_fields(target)
    if finding.field not in fields:
        known = ", ".join(sorted(fields)) or "none"
        raise BadInput(f"{target.TYPE} has no judgment field {finding.field!r} (its fields: {known})",
                       field="field", value=finding.field, event_type=finding.TYPE)
    if finding.field in JUDGMENT_FIELDS.get(type(target), ()) or finding.field in (
            "rectification_forfeited", "all_agree", "waiver_cancelled"):
        if not isinstance(finding.value, bool):
            raise BadInput(f"a finding on {finding.field!r} is true or false", field="value",
                           value=finding.value, event_type=finding.TYPE)


OPTIONS_WITH_SUIT = ("require_suit", "forbid_suit", "play_other_suit", "forbid_other_suit")


def _suit_implied(state, offer) -> bool:
    """50D2a: with the major penalty cards all of one suit, require/forbid names
    that suit without saying it; a suit is needed only with two or more (51B)."""
    if law_of(offer.law) != "50D2":
        return False
    from ledger.laws.penalty import lead_option_suits

    return len(lead_option_suits(state)) == 1


def check_option(state, choice: ev.OptionChosen) -> None:
    """An option may be taken only from an offer pending to that seat (spec section 7)."""
    offers = [o for o in state.pending if choice.option in o.options]
    if not offers:
        pending = "; ".join(f"{o.to}: {', '.join(o.options)}" for o in state.pending) or "none"
        raise BadInput(f"option not offered (pending: {pending})", field="option", value=choice.option,
                       event_type=choice.TYPE)
    offer = offers[-1]
    either_defender = law_of(offer.law) in EITHER_DEFENDER_LAWS and choice.seat.side is offer.to.side
    if choice.seat is not offer.to and not either_defender:
        raise BadInput(f"this option is {offer.to}'s to choose ({offer.law}), not {choice.seat}'s",
                       field="seat", value=str(choice.seat), event_type=choice.TYPE)
    if choice.option in OPTIONS_WITH_SUIT and choice.suit is None and not _suit_implied(state, offer):
        raise BadInput(f"{choice.option} needs the suit", field="suit", value=None, event_type=choice.TYPE)
    if choice.option not in OPTIONS_WITH_SUIT and choice.suit is not None:
        raise BadInput(f"{choice.option} takes no suit", field="suit", value=str(choice.suit),
                       event_type=choice.TYPE)
    if offer.law.endswith(":26") and choice.suit is not None:
        from ledger.laws.calls import law26_suits

        allowed = law26_suits(state, choice.option)
        if choice.suit not in allowed:
            names = " ".join(s.symbol for s in sorted(allowed, key=lambda s: s.order)) or "none"
            raise BadInput(f"{choice.option} may name only {names} here ({offer.law})", field="suit",
                           value=str(choice.suit), event_type=choice.TYPE)
    if law_of(offer.law) == "57A" and choice.suit is not None:  # 57A3, 57A4: another suit than the suit led
        trick = state.current_trick
        led = trick.suit_led if trick is not None and not trick.complete else None
        if choice.suit is led:
            raise BadInput(f"{choice.option} names a suit other than the suit led ({offer.law})", field="suit",
                           value=str(choice.suit), event_type=choice.TYPE)
    if law_of(offer.law) == "50D2" and choice.suit is not None:  # 50D2a, 51B: a suit of a penalty card
        from ledger.laws.penalty import lead_option_suits

        suits = lead_option_suits(state)
        if choice.suit not in suits:
            names = " ".join(s.symbol for s in sorted(suits, key=lambda s: s.order)) or "none"
            raise BadInput(f"{choice.option} may name only the suit of a major penalty card: {names} "
                           f"({offer.law})", field="suit", value=str(choice.suit), event_type=choice.TYPE)


def _weight(value: object) -> Fraction:
    """A weight as given, exactly: ``0.3`` is 3/10 (its decimal text), ``"1/3"`` is 1/3."""
    return Fraction(str(value))


def check_adjusted_score(event: ev.AdjustedScoreAwarded) -> None:
    """Law 12: an award says what each side scores, and nothing it cannot mean.

    * artificial: ``ns`` and ``ew`` both given, no ``results``;
    * assigned: ``results`` without weights, either one result for ``both`` or
      one result for each of NS and EW (a split score, 12C1);
    * weighted (2017 12C1c): every result has a weight and the weights sum to 1
      exactly (fractions, not floating point).
    """
    t = event.TYPE
    results = event.results or ()
    if event.kind == "artificial":
        for field in ("ns", "ew"):
            if getattr(event, field) is None:
                raise BadInput("an artificial adjusted score gives both sides a score ('A+', 'A', 'A-', "
                               "a percentage, or 'none')", field=field, value=None, event_type=t)
        if results:
            raise BadInput("an artificial adjusted score has no results", field="results",
                           value=list(results), event_type=t)
        return
    if not results:
        raise BadInput(f"a {event.kind} adjusted score needs its results", field="results", value=None,
                       event_type=t)
    for field in ("ns", "ew"):
        if getattr(event, field) is not None:
            raise BadInput(f"{field} is for artificial scores; a {event.kind} score gives results",
                           field=field, value=getattr(event, field), event_type=t)
    weights = [r.get("weight") for r in results]
    if event.kind == "assigned":
        if any(w is not None for w in weights):
            raise BadInput("an assigned score has no weights (kind 'weighted' has)", field="results.weight",
                           value=weights, event_type=t)
        sides = sorted(r["side"] for r in results)
        if sides not in (["both"], ["EW", "NS"]):
            raise BadInput("an assigned score is one result for 'both', or one for NS and one for EW "
                           "(a split score)", field="results.side", value=sides, event_type=t)
        return
    if any(w is None for w in weights):
        raise BadInput("every result of a weighted score has a weight", field="results.weight",
                       value=weights, event_type=t)
    total = sum((_weight(w) for w in weights), Fraction(0))
    if total != 1:
        raise BadInput(f"the weights of a weighted score must sum to 1 (they sum to {total})",
                       field="results.weight", value=weights, event_type=t)
    if any(r["side"] != "both" for r in results):
        raise BadInput("the components of a weighted score are for both sides", field="results.side",
                       value=[r["side"] for r in results], event_type=t)


#: The check of each kind of fact, the first whose types the fact is (a fact of no kind
#: listed needs no check beyond :func:`_check_board_open`).
_FACT_CHECKS: tuple[tuple[type | tuple[type, ...], Callable[[Any, Any], None]], ...] = (
    (_CARD_IN_HAND, _check_card_in_hand),
    (ev.CardWithdrawn, _check_withdrawn),
    ((ev.DummyCardTouched, ev.DummyMisplaced), _check_dummy_card),
    (ev.DesignationChanged, _check_designation),
    (ev.OptionChosen, check_option),
    ((ev.RevokeInquiry, ev.DummyWarnedDeclarer), _check_dummy_fact),
    (ev.AdjustedScoreAwarded, _check_adjusted),
    (ev.MissingCardFound, _check_found),
    (ev.ResultReported, _check_reported),
    (ev.ClaimRuled, _check_claim_ruled),
    (ev.CorrectionPeriodEnded, _check_period_ended),
)
