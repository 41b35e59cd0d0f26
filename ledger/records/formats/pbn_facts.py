"""PBN 2.1, record -> ledger facts (LEDGER-SPEC 3, JSON Lines form).

:func:`record_to_facts` turns one read record into the facts the import
appends; the readings of PBN's irregularity marks are described there and in
docs/records.md.
"""

from __future__ import annotations

from typing import Any

from ledger.records.formats.pbn_notation import (
    ROOMS, SCORING, SKIPPED, PbnCall, parse_card, record_contract, deal_string, next_seat, partner_of,
    seat_tag, side_of, record_vulnerability, trick_winner_seat, auction, deal_hands, effective_contract,
    effective_declarer, leading_passes, notes, play_sequence, play_tricks, record_result,
    trick_winners)
from ledger.records.formats.pbn_scan import PbnRecord

def _scoring(record: PbnRecord) -> str | None:
    value = record.tags.get("Scoring", "").split(";")[0].strip().upper()
    return SCORING.get(value)


def _names(record: PbnRecord, first: str, second: str) -> str | None:
    a, b = (record.tags.get(t, "").strip() for t in (first, second))
    names = [n for n in (a, b) if n and n != "?"]
    return " & ".join(names) if names else None


def _sides(record: PbnRecord, scoring: str | None) -> tuple[str | None, str | None]:
    """``ns``, ``ew``: teams in IMP scoring, else pairs (PairNS/PairEW, or the players)."""
    def tag(name: str) -> str | None:
        value = record.tags.get(name, "").strip()
        return value if value and value != "?" else None
    if scoring == "IMP" and (tag("HomeTeam") or tag("VisitTeam")):
        return tag("HomeTeam"), tag("VisitTeam")
    return (tag("PairNS") or _names(record, "North", "South"),
            tag("PairEW") or _names(record, "East", "West"))


def _board_number(record: PbnRecord) -> int:
    value = record.tags.get("Board", "").strip()
    if not value.isdigit() or int(value) < 1:
        raise record.error(f"Board must be a positive number, got {value!r}", "Board", value)
    return int(value)


def declarer_marked(record: PbnRecord) -> bool:
    """``[Declarer "^S"]``: S played the hand, but the auction made his partner
    declarer, who accepted the opening lead out of turn and became dummy (54A)."""
    return record.tags.get("Declarer", "").strip().startswith("^")


def result_marked(record: PbnRecord) -> bool:
    """``[Result "^9"]``: the tricks are those after a rectification or a ruling
    that the record does not describe, not the tricks as played."""
    return record.tags.get("Result", "").strip().startswith("^")


def claim_facts(declarer: str, tricks: list[list[tuple[str, str]]], trump: str | None,
                total: int) -> list[dict[str, Any]]:
    """The agreed claim that ends an incomplete play with ``total`` tricks for declarer.

    Declarer claims (``ClaimMade``) the tricks his side takes of the remaining
    ones (``total`` less the complete tricks it has won; an incomplete last
    trick is one of the remaining), and his LHO agrees (``ClaimAgreed``).
    Raises ``ValueError`` when ``total`` cannot be reached from the play.
    """
    complete = [t for t in tricks if len(t) == 4]
    won = sum(1 for t in complete if side_of(trick_winner_seat(t, trump)) == side_of(declarer))
    remaining = 13 - len(complete)
    take = total - won
    if not 0 <= take <= remaining:
        raise ValueError(f"declarer's side has won {won} of the {len(complete)} tricks played "
                         f"and {remaining} remain: {total} tricks in all cannot be reached")
    return [{"type": "ClaimMade", "seat": declarer, "tricks": take},
            {"type": "ClaimAgreed", "by": next_seat(declarer)}]


def _passed_out_unrecorded(record: PbnRecord, scores_written: bool = True) -> bool:
    """``Contract "Pass"`` and no Auction: passed out, the calls not written, when the
    record has a Score, or when the file writes no Score for the board's played
    results (``scores_written`` False: then a missing Score says nothing).  A
    ``Contract "Pass"`` without a Score in a file that scores the board's other
    tables is an unplayed board."""
    contract = record_contract(record)
    if contract != "Pass" or auction(record):
        return False
    return record.tags.get("Score", "").strip() not in ("", "?") or not scores_written


def _opening_lead(record: PbnRecord) -> str | None:
    """The first card of the Play section (the opening leader's column of trick 1)."""
    for token in record.sections.get("Play", []):
        card = parse_card(token.rstrip("!?"))
        if card is not None:
            return card
        if token in ("*", "-"):
            return None
    return None


def reported_result(record: PbnRecord) -> dict[str, Any] | None:
    """A record with a Contract but no Auction (a club traveller written as records):
    the ``ResultReported`` fact of its Contract, Declarer, Result and lead (the
    Play section's first card, else our ``Lead`` tag: a lead the export could not write
    as the opening leader's), or None when it cannot be scored (no Declarer or
    no Result and no complete play to count the tricks from).  The Play section
    is not logged: without the calls there is no auction to end, and cards would
    read as exposed during the auction."""
    contract = record_contract(record)
    if not isinstance(contract, tuple) or auction(record):
        return None
    declarer = seat_tag(record, "Declarer")
    result = record_result(record)
    tricks = result["tricks"] if result is not None else None
    if tricks is None and declarer is not None and is_complete_play(record):
        # No Result, but all 13 tricks: the declarer's side's tricks as played.
        tricks = sum(1 for w in trick_winners(record) if side_of(w) == side_of(declarer))
    if declarer is None or tricks is None:
        return None
    level, strain, risk = contract
    fact: dict[str, Any] = {"type": "ResultReported", "contract": f"{level}{strain}",
                            "declarer": declarer, "risk": risk, "tricks": tricks}
    lead = _opening_lead(record) or parse_card(record.tags.get("Lead", "").strip() or "-")
    if lead is not None:
        fact["lead"] = lead
    if sum(1 for t in record.sections.get("Play", []) if parse_card(t.rstrip("!?"))) > 1:
        fact["text"] = "the record's Play section is not logged: it has no auction"
    return fact


def board_opened(record: PbnRecord, tournament: str) -> dict[str, Any]:
    """The record's ``BoardOpened`` (Board, Dealer, Vulnerable, Deal, Scoring, Table,
    Room, the pairs or teams)."""
    board = _board_number(record)
    hands = deal_hands(record)
    if hands is None:
        raise record.error("the record has no Deal", "Deal")
    dealer = seat_tag(record, "Dealer")
    if dealer is None:
        raise record.error("the record has no Dealer", "Dealer")
    vulnerability = record_vulnerability(record)
    if vulnerability is None:
        raise record.error("the record has no Vulnerable tag", "Vulnerable")
    scoring = _scoring(record)
    ns, ew = _sides(record, scoring)
    table = record.tags.get("Table", "").strip()
    opened: dict[str, Any] = {
        "type": "BoardOpened", "tournament": tournament, "board": board,
        "table": table if table and table != "?" else str(record.number),
        "dealer": dealer, "vulnerability": vulnerability, "deal": deal_string(hands),
    }
    optional = {"ns": ns, "ew": ew, "scoring": scoring,
                "room": ROOMS.get(record.tags.get("Room", "").strip().upper())}
    opened.update({k: v for k, v in optional.items() if v is not None})

    return opened


def record_to_facts(record: PbnRecord, tournament: str, *, shift: int = 0,
                    scores_written: bool = True) -> list[dict[str, Any]]:
    """The record as ledger facts (LEDGER-SPEC 3, JSON Lines form).

    * ``BoardOpened`` from Board, Dealer, Vulnerable, Deal, Scoring, Table,
      Room and the pair or team names (optional fields left out when the
      record does not give them).
    * One ``CallPlaced`` per call; a call with a note (``=n=``) is followed by
      ``ExplanationGiven`` by the caller's partner with the 1-based
      ``call_index`` (counting the calls logged).  A call marked ``^I`` is
      logged as called (LHO's next call accepts it, 27A1); a turn marked
      ``^S`` is skipped: no call is logged for it, and the next seat's call
      is the one out of rotation that LHO accepted (29A).
      ``Contract "Pass"`` with no Auction is four passes from the dealer (the
      only auction that passes a board out) when the record has a Score or
      the file writes no Score for the board (``scores_written`` False); else
      (an unplayed board) only ``BoardOpened`` is logged.  ``shift``: the
      calls are read ``shift`` seats after the Auction tag's seat, the seats
      from the dealer to there passing first (see
      :func:`~ledger.records.formats.pbn_notation.auction_shift`).
    * A Contract with no Auction: ``ResultReported`` (:func:`reported_result`)
      and no call or card.  No Contract tag: the contract is the auction's.
    * One ``CardPlayed`` per card in the order played.  A lead marked ``^L``
      (out of turn, accepted) leads its trick; the next card, played to it by
      the next player, is the acceptance (53A; 54B for the opening lead).
      ``[Declarer "^S"]``: the auction made South's partner declarer, who
      accepted the opening lead out of turn by spreading his own hand
      (``DummySpreadStarted`` with his seat, 54A): South plays the hand.
      ``^R`` (a revoke not noticed) is the card as played.
    * An incomplete play (``*``, or no Play section) with a Result: declarer
      claims the tricks his side takes of the remaining ones and his LHO
      agrees (:func:`claim_facts`).
    * ``[Result "^n"]``: a ``RulingGiven`` by the director saying that the
      record's result is after a rectification it does not describe.
    """
    opened = board_opened(record, tournament)
    calls = _record_calls(record, opened["dealer"], shift, scores_written)
    reported = reported_result(record)
    if reported is not None:
        return [opened, reported]
    if not calls:
        return [opened]  # unplayed, or a result that cannot be scored: the play is not logged
    call_facts, logged = _call_facts(record, calls)
    result = record_result(record)
    contract = effective_contract(record)
    tricks = play_tricks(record)
    declarer = effective_declarer(record)
    facts = [opened] + call_facts + _card_facts(record, declarer)
    complete = len(tricks) == 13 and all(len(t) == 4 for t in tricks)
    if logged and isinstance(contract, tuple) and result is not None \
            and result["tricks"] is not None and not complete:
        facts += _claimed(record, declarer, contract, tricks, result["tricks"])
    if result_marked(record) and result is not None and result["tricks"] is not None:
        facts.append({"type": "RulingGiven", "laws": [],
                      "text": f"{RESULT_RULING_PREFIX}{result['tricks']} tricks for declarer, "
                              "after a rectification or ruling the record does not describe"})
    return facts


def _record_calls(record: PbnRecord, dealer: str, shift: int,
                  scores_written: bool) -> list[PbnCall]:
    """The calls to log: the auction (read ``shift`` seats later, the seats before passing),
    or four passes for a board passed out with no Auction."""
    calls = auction(record, shift)
    if shift:
        calls = [PbnCall(seat, call) for seat, call in leading_passes(record, shift)] + calls
    if _passed_out_unrecorded(record, scores_written):
        calls = [PbnCall(next_seat(dealer, i), "Pass") for i in range(4)]
    return calls


def _call_facts(record: PbnRecord, calls: list[PbnCall]) -> tuple[list[dict[str, Any]], int]:
    """``CallPlaced`` per call (a skipped turn logs none), each note an ``ExplanationGiven``
    by the caller's partner; and the number of calls logged."""
    note_texts = notes(record, "Auction")
    facts: list[dict[str, Any]] = []
    logged = 0
    for call in calls:
        if call.irregularity == SKIPPED:
            continue
        facts.append({"type": "CallPlaced", "seat": call.seat, "call": call.call})
        logged += 1
        for n in call.notes:
            if n in note_texts:
                facts.append({"type": "ExplanationGiven", "by": partner_of(call.seat),
                              "call_index": logged, "text": note_texts[n]})
    return facts, logged


def _card_facts(record: PbnRecord, declarer: str | None) -> list[dict[str, Any]]:
    """``CardPlayed`` per card as the table logged it; after the first counted card, when the
    Declarer tag is marked, the auction's declarer spreading his hand (54A)."""
    marked = declarer_marked(record)
    if marked and declarer is None:
        raise record.error('Declarer "^" must name the seat that played the hand', "Declarer",
                           record.tags.get("Declarer"))
    facts: list[dict[str, Any]] = []
    first_counted = True
    for seat, card, counted in play_sequence(record):
        facts.append({"type": "CardPlayed", "seat": seat, "card": card})
        if counted and first_counted and marked and declarer is not None:  # marked: declarer known (above)
            # 54A: the auction's declarer spreads his own hand and becomes dummy.
            facts.append({"type": "DummySpreadStarted", "seat": partner_of(declarer)})
        first_counted = first_counted and not counted
    return facts


def _claimed(record: PbnRecord, declarer: str | None, contract: tuple[int, str, str],
             tricks: list[list[tuple[str, str]]], result_tricks: int) -> list[dict[str, Any]]:
    """An incomplete play with a result: declarer's claim and his LHO's agreement."""
    if declarer is None:
        raise record.error("a claimed result needs the Declarer tag", "Declarer",
                           record.tags.get("Declarer"))
    trump = None if contract[1] == "NT" else contract[1]
    try:
        return claim_facts(declarer, tricks, trump, result_tricks)
    except ValueError as exc:
        raise record.error(f"Result: {exc}", "Result", record.tags.get("Result")) from None


#: The text that starts the RulingGiven logged for a ``[Result "^n"]`` (the export reads it).
RESULT_RULING_PREFIX = 'PBN Result "^": '


def is_complete_play(record: PbnRecord) -> bool:
    """True when the Play section holds all 13 tricks of four cards."""
    tricks = play_tricks(record)
    return len(tricks) == 13 and all(len(t) == 4 for t in tricks)

