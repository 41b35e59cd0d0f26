"""A PBN 2.1 writer: streams of the ledger back to game records (``cli.py export``).

One game per stream, in PBN's export layout, from the stream's events (what
was logged, in order) and its folded state (contract, result, score):

* Tags: Event (the tournament), Site, Date (empty), Board, the players
  (empty: the ledger knows the pairs or teams, not the seats' names),
  Dealer, Vulnerable, Deal, Scoring, Table, Room, HomeTeam/VisitTeam (teams)
  or PairNS/PairEW (pairs), Declarer, Contract, Result, Score.
* Auction: every ``CallPlaced`` in order, four calls a line, from the dealer;
  an explanation (``ExplanationGiven``) becomes a note ``=n=`` and
  ``[Note "n:text"]``.  Irregularities as PBN 2.1 marks: ``^I`` after an
  insufficient bid; ``- ^S`` for a seat whose turn a call out of rotation
  skipped.  ``*`` when the auction is not over.
* Play: every card that counts as played (the state's tricks), a trick a line, in the fixed column
  order of the seats from the opening leader; ``-`` for a card not played; every other
  card the table logged (a lead out of turn not accepted...) on a row of its own, marked
  ``^O`` (ours: logged, not counted), before the trick that followed it, so that a
  re-import logs every card;
  a reported result's lead on a Play row from the opening leader, or, when the deal
  does not give him that card, in our ``[Lead "SK"]`` tag (the import reads it back);
  ``^L`` after a lead by another seat than the one due (the auction's
  declarer's LHO, then the winner of the trick before), ``^R`` after a
  revoke; ``*`` when the play stops before the thirteenth trick (a claim).
* ``[Declarer "^S"]`` when the auction's declarer accepted the opening lead
  out of turn by spreading his own hand (``DummySpreadStarted`` with his
  seat, 54A), South being his partner; ``[Result "^9"]``
  when the import logged the record's result as a director's ruling.
* The rulings as commentary: every event of a director, a committee or the
  ruling engine (its result record aside), and every irregularity of the
  state, as ``{...}`` after the game's tags.
"""

from __future__ import annotations

import json
from typing import Iterable

from ledger import events as ev
from ledger.bridge import SEATS, Call, Seat
from ledger.records.formats.pbn_facts import RESULT_RULING_PREFIX
from ledger.records.formats.pbn_notation import NOT_COUNTED, trick_winner_seat
from ledger.service import decode
from ledger.store.base import StoredEvent
from ledger.laws.results import board_result
from ledger.laws.revokes import irregularities
from projections.state import AUCTION, TableState

__all__ = ["write_pbn", "game_text", "reported_result"]

def _quote(value: object) -> str:
    text = "" if value is None else str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: object) -> str:
    return f"[{name} {_quote(value)}]"


def write_pbn(games: Iterable[tuple[list[StoredEvent], TableState]]) -> str:
    """The PBN file of the games (each: a stream's stored events and its folded state)."""
    parts = ["% PBN 2.1", "% EXPORT", "% Exported by the bridge ruling ledger", ""]
    for stored, state in games:
        parts.extend(game_text(stored, state))
        parts.append("")
    return "\n".join(parts)


def game_text(stored: list[StoredEvent], state: TableState) -> list[str]:
    """The lines of one game."""
    events = [(s, decode(s)) for s in stored]
    board = state.board
    declarer = _auction_declarer(events, state)
    become_dummy = any(isinstance(e, ev.DummySpreadStarted) and e.seat is not None
                       and e.seat is declarer for _, e in events)
    result_ruled = any(isinstance(e, ev.RulingGiven) and e.text.startswith(RESULT_RULING_PREFIX)
                       for _, e in events)
    declarer_tag, contract, result, score = _outcome(state, become_dummy, result_ruled, declarer)
    lines = [
        _tag("Event", board.tournament), _tag("Site", ""), _tag("Date", ""),
        _tag("Board", board.board),
        _tag("West", ""), _tag("North", ""), _tag("East", ""), _tag("South", ""),
        _tag("Dealer", board.dealer), _tag("Vulnerable", board.vulnerability),
        _tag("Deal", board.deal.to_pbn()),
        _tag("Scoring", board.scoring or ""),
        _tag("Declarer", declarer_tag), _tag("Contract", contract), _tag("Result", result),
        _tag("Table", board.table),
    ]
    if board.room:
        lines.append(_tag("Room", board.room.capitalize()))
    if board.scoring == "IMP":
        lines += [_tag("HomeTeam", board.ns or ""), _tag("VisitTeam", board.ew or "")]
    else:
        lines += [_tag("PairNS", board.ns or ""), _tag("PairEW", board.ew or "")]
    lines += _auction(events, state)
    lines += _play(events, state)
    if score is not None:
        lines.append(_tag("Score", score))
    lines += _commentary(events, state)
    return lines


def _auction_declarer(events: list[tuple[StoredEvent, ev.Event]], state: TableState) -> Seat | None:
    """The auction's declarer: the state's, unless a ``DeclarerChanged`` (54A) made his partner declarer."""
    changed = next((e for _, e in events if isinstance(e, ev.DeclarerChanged)), None)
    if changed is not None:
        return changed.dummy
    return state.contract.declarer if state.contract else None


def _outcome(state: TableState, become_dummy: bool,
             result_ruled: bool, auction_declarer: Seat | None = None) -> tuple[str, str, str, str | None]:
    """Declarer, Contract, Result, Score tag values."""
    result = board_result(state)  # with the tricks the revokes transfer (64A)
    if result is not None and result.contract == "Pass":
        return "", "Pass", "", f"NS {result.score_ns}"
    contract = state.contract
    if contract is None and result is not None and result.tricks is not None:
        # A result reported without the calls (ResultReported): its own contract.
        return (str(result.declarer), f"{result.contract}{result.risk}", str(result.tricks),
                f"NS {result.score_ns}")
    if contract is None:
        return "", "", "", None
    auction_declarer = auction_declarer or contract.declarer
    seat = auction_declarer.partner if become_dummy else auction_declarer
    declarer = ("^" if become_dummy else "") + str(seat)
    text = f"{contract.level}{contract.strain}{contract.risk.value}"
    if result is None or result.tricks is None:
        return declarer, text, "", None
    tricks = ("^" if result_ruled else "") + str(result.tricks)
    return declarer, text, tricks, f"NS {result.score_ns}"


def _auction(events: list[tuple[StoredEvent, ev.Event]], state: TableState) -> list[str]:
    calls = [e for _, e in events if isinstance(e, ev.CallPlaced)]
    if not calls:
        return []
    explanations: dict[int, list[str]] = {}
    for _, e in events:
        if isinstance(e, ev.ExplanationGiven) and e.call_index is not None:
            explanations.setdefault(e.call_index, []).append(e.text)
    dealer = state.board.dealer
    assert dealer is not None
    groups: list[str] = []
    notes: list[str] = []
    last_bid: Call | None = None
    for index, e in enumerate(calls, start=1):
        for _ in range(3):  # seats whose turn a call out of rotation skipped
            if dealer.next(len(groups)) is e.seat:
                break
            groups.append("- ^S")
        group = [str(e.call)]
        if e.call.is_bid:
            if last_bid is not None and not e.call.outranks(last_bid):
                group.append("^I")
            else:
                last_bid = e.call
        for text in explanations.get(index, []):
            notes.append(_tag("Note", f"{len(notes) + 1}:{text}"))
            group.append(f"={len(notes)}=")
        groups.append(" ".join(group))
    lines = [_tag("Auction", dealer)]
    lines += [" ".join(groups[i:i + 4]) for i in range(0, len(groups), 4)]
    if state.phase == AUCTION:
        lines.append("*")
    return lines + notes


def _play(events: list[tuple[StoredEvent, ev.Event]], state: TableState) -> list[str]:
    # The cards that count as played, trick by trick; and every other card the table logged
    # (a lead out of turn not accepted...) on a row of its own marked ^O, before the trick
    # that came after it (its ruling is in the commentary).
    plays = [(p.seat, str(p.card)) for t in state.tricks for p in t.cards]
    counted_seqs = [p.seq for t in state.tricks for p in t.cards]
    counted = set(counted_seqs)
    before: dict[int, list[tuple[Seat, str]]] = {}
    for stored, e in events:
        if isinstance(e, ev.CardPlayed) and stored.seq not in counted:
            position = next((i for i, seq in enumerate(counted_seqs) if seq > stored.seq),
                            len(plays))
            trick_number = (position + 3) // 4 if position % 4 else position // 4
            before.setdefault(trick_number, []).append((e.seat, str(e.card)))
    reported = reported_result(events)
    if not plays and not before and reported is not None and reported.lead is not None \
            and reported.declarer is not None:
        if state.board.deal.holder(reported.lead) is not reported.declarer.lho:
            # A lead the opening leader does not hold (an entry error of the record): kept
            # as the record reported it, in our Lead tag, which the import reads back; a
            # Play section would name a card the leader does not hold.
            holder = state.board.deal.holder(reported.lead)
            return [_tag("Lead", reported.lead),
                    "{" + f"Lead: {reported.lead} as reported; the deal gives it to {holder}, "
                    f"not to {reported.declarer.lho}, the opening leader" + "}"]
        # The lead of a reported result: the opening leader's card, the play stopped there.
        return [_tag("Play", reported.declarer.lho), f"{reported.lead} - - -", "*"]
    if not plays and not before:
        return []
    if not plays:
        seat, _ = before[0][0]
        return [_tag("Play", seat)] + [
            " ".join(f"{card} ^{NOT_COUNTED}" if s is c else "-"
                     for c in (seat.next(k) for k in range(4)))
            for s, card in before[0]] + ["*"]
    contract = state.contract
    trump = None if contract is None or contract.strain.trump is None else str(contract.strain)
    auction_declarer = _auction_declarer(events, state)
    due = auction_declarer.lho if auction_declarer is not None else None  # the auction's declarer's LHO
    hands = {seat: {str(c) for c in state.board.deal.hand(seat)} for seat in SEATS}
    leader = plays[0][0]
    columns = [leader.next(k) for k in range(4)]
    lines = [_tag("Play", leader)]

    def uncounted_rows(number: int) -> list[str]:
        return [" ".join(f"{card} ^{NOT_COUNTED}" if s is c else "-" for c in columns)
                for s, card in before.get(number, [])]

    for start in range(0, len(plays), 4):
        lines += uncounted_rows(start // 4)
        trick = plays[start:start + 4]
        led = trick[0][1][0]
        row: dict[Seat, str] = {}
        for position, (seat, card) in enumerate(trick):
            token = card
            if position == 0 and due is not None and seat is not due:
                token += " ^L"
            elif card[0] != led and any(c[0] == led for c in hands[seat]):
                token += " ^R"
            hands[seat].discard(card)
            row[seat] = token
        lines.append(" ".join(row.get(seat, "-") for seat in columns))
        if len(trick) == 4:
            due = Seat.parse(trick_winner_seat([(str(s), c) for s, c in trick], trump))
    lines += uncounted_rows((len(plays) + 3) // 4)
    if len(plays) < 52:
        lines.append("*")
    return lines


def reported_result(events: list[tuple[StoredEvent, ev.Event]]) -> ev.ResultReported | None:
    """The reported result in force: the last ``ResultReported`` not voided (an erased
    Bridgemate row is logged, then voided, before the row that replaced it)."""
    voided = {e.about for _, e in events if isinstance(e, ev.EntryVoided)}
    found = None
    for stored, e in events:
        if isinstance(e, ev.ResultReported) and stored.id not in voided \
                and stored.seq not in voided:
            found = e
    return found


def _commentary(events: list[tuple[StoredEvent, ev.Event]], state: TableState) -> list[str]:
    lines = []
    for s, e in events:
        if s.actor.role == ev.TABLE or isinstance(e, ev.ResultRecorded):
            continue
        who = s.actor.role + (f" {s.actor.name}" if s.actor.name else "")
        law = f", {s.law}" if s.law else ""
        data = json.dumps(s.data, ensure_ascii=False, sort_keys=True)
        lines.append(f"Ruling: seq {s.seq} {s.type} by {who}{law}: {data}")
    for irregularity in irregularities(state):  # each revoke's as read now (ledger.laws.revokes)
        kind = getattr(irregularity, "kind", "irregularity")
        detail = getattr(irregularity, "detail", "") or kind
        irregularity_law = getattr(irregularity, "law", None)
        cited = f", {irregularity_law}" if irregularity_law else ""
        lines.append(f"Irregularity: seq {getattr(irregularity, 'seq', '?')} {kind}{cited}: {detail}")
    return ["{" + line.replace("}", ")") + "}" for line in lines]

