"""What the pages show, computed from the ledger: a table's current board, the
open matters a director must see (with how long each has waited), appeals.

The open matters are :func:`projections.waiting.open_rulings`, the function
``cli.py open`` prints: the console and the command agree by construction.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from ledger.bridge import SEAT_LETTERS, SEAT_NAMES
from ledger.errors import StreamNotFound
from ledger.live.sessions import Session
from ledger.live.words import call_words, card_words, seat_word
from ledger.records.games import head_state
from ledger.render import IRREGULARITY_WORDS, option_words
from ledger.service import Ledger
from ledger.tournament import event_times
from projections.document import to_document
from projections.waiting import open_rulings, waited_text, waiting

def head_document(ledger: Ledger, stream: str) -> dict[str, Any] | None:
    """The state document at the stream's head (from the head snapshot when
    current), or None when the stream has no event. Integrity is not
    recomputed here (``Ledger.state`` does, for the board view)."""
    try:
        return to_document(head_state(ledger, stream))
    except StreamNotFound:
        return None


def board_phase(ledger: Ledger, stream: str) -> str | None:
    """The phase at the stream's head (None: no such stream), from the ledger's
    cached head or its last snapshot plus the events after it."""
    try:
        return str(ledger.head_state(stream).phase)
    except StreamNotFound:
        return None


def locate(ledger: Ledger, session: Session, table: int, start: int = 0) -> int:
    """The index in the table's schedule of the first board from ``start`` on that has
    not ended (the log decides); the schedule's length when every one has."""
    schedule = session.schedule(table)
    for index in range(start, len(schedule)):
        if board_phase(ledger, session.stream(table, schedule[index][2])) != "ended":
            return index
    return len(schedule)


def board_at(ledger: Ledger, session: Session, table: int, index: int, *,
             with_doc: bool = True) -> dict[str, Any]:
    """The table's board at ``index`` of its schedule (past the end: the session is done)."""
    schedule = session.schedule(table)
    if index >= len(schedule):
        return {"round": None, "board": None, "stream": None, "ns": None, "ew": None, "doc": None,
                "done": True}
    rnd, seating, board = schedule[index]
    stream = session.stream(table, board)
    doc = head_document(ledger, stream) if with_doc else None
    return {"round": rnd, "board": board, "stream": stream, "ns": seating.ns, "ew": seating.ew,
            "doc": doc, "done": False}


def current_board(ledger: Ledger, session: Session, table: int) -> dict[str, Any]:
    """The first board of the table's schedule that has not ended (the log decides)."""
    return board_at(ledger, session, table, locate(ledger, session, table))


def writable_streams(ledger: Ledger, session: Session, table: int) -> tuple[dict[str, Any], str | None]:
    """What a table's token may append to: its current board, and the board it
    played just before (a director call or attention drawn after the last
    trick, Law 64), when that one was opened."""
    index = locate(ledger, session, table)
    now = board_at(ledger, session, table, index, with_doc=False)
    if index == 0:
        return now, None
    stream = session.stream(table, session.schedule(table)[index - 1][2])
    return now, (stream if ledger.store.read(stream, 1) else None)


def table_overview(ledger: Ledger, session: Session, table: int) -> dict[str, Any]:
    now = current_board(ledger, session, table)
    doc = now["doc"]
    phase = "finished" if now["done"] else ("not started" if doc is None else doc["phase"])
    return {"table": table, "label": session.table_label(table), "room": session.room_of(table),
            "round": now["round"], "board": now["board"], "stream": now["stream"],
            "ns": now["ns"], "ew": now["ew"], "phase": phase}


def matters(ledger: Ledger, streams: Iterable[str], now: datetime | None = None) -> list[dict[str, Any]]:
    """What waits for the director on these boards: :func:`projections.waiting.open_rulings`
    (what ``cli.py open`` prints: one function decides what is open and how long it has
    waited), longest wait first, each as a dict with ``text`` and ``waited`` for the pages."""
    boards = []
    for stream in streams:
        try:
            state = head_state(ledger, stream)
        except StreamNotFound:
            continue
        if waiting(stream, state, director_calls=True):  # the times only where something waits
            boards.append((stream, state, event_times(ledger, stream)))
    found = open_rulings(boards, now or datetime.now(timezone.utc))
    return [{**w.to_json(), "text": w.what, "waited": waited_text(w.waited_s)} for w in found]


def console_rows(ledger: Ledger, session: Session, now: datetime | None = None) -> list[dict[str, Any]]:
    """One row per table: what it plays now and what waits for the director on
    any of its boards (an earlier board may still have an open matter)."""
    rows = []
    for table in range(1, session.tables + 1):
        row = table_overview(ledger, session, table)
        streams = [session.stream(table, board) for _rnd, _seating, board in session.schedule(table)]
        row["matters"] = matters(ledger, streams, now)
        rows.append(row)
    return rows


def session_results(ledger: Ledger, session: Session) -> dict[str, Any]:
    """The session's travellers and standings so far (projections.results)."""
    from projections.results import results

    tables = []
    for stream in ledger.store.streams(prefix=session.prefix):
        try:
            tables.append((stream, head_state(ledger, stream)))
        except StreamNotFound:
            continue
    tables.sort(key=lambda item: (item[1].board.board, item[0]))
    return results(session.tournament, tables)


# -- what a device may show (Laws 16, 41, 66, 68) ----------------------------------------------

SEATS = SEAT_LETTERS
LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
SEATS_WORDS = SEAT_NAMES


def lead_faced(doc: dict[str, Any]) -> bool:
    """The opening lead is faced (a card counts as played to trick 1)."""
    tricks = doc.get("tricks") or []
    return bool(tricks and tricks[0].get("cards"))


def shown_seats(doc: dict[str, Any], seat: str | None) -> dict[str, str]:
    """The hands a device may show, each with the Law that lets it: ``seat`` None is the
    table's shared device (no player's own hand: every player at the table sees it); a seat
    device shows its player's own hand. Dummy's hand once the opening lead is faced (41D);
    the claimer's hand while his claim is open (68C: he faces it); every hand after the
    play (66D: the cards may be inspected). Nothing else: another player's unseen cards
    are unauthorized information (16)."""
    if doc.get("phase") == "ended":
        return {s: "66D" for s in SEATS}
    shown: dict[str, str] = {}
    if seat in SEATS:
        shown[seat] = "own hand"
    dummy = doc.get("dummy")
    if dummy and lead_faced(doc):
        shown.setdefault(dummy, "41D")
    claim = doc.get("claim") or {}
    if claim.get("status") in ("pending", "disputed") and claim.get("seat"):
        shown.setdefault(claim["seat"], "68C")
    return shown


def device_view(doc: dict[str, Any] | None, seat: str | None) -> dict[str, Any] | None:
    """The state document as a table device may have it (a copy): the hands it may not show
    are null (``hands_shown`` says which it may, and by which Law), the deal is absent until
    the play is over, quitted tricks before the last keep their number, leader and winner
    but not their cards (66C: only on the director's instruction; 66A: the last trick until
    the next is begun), and the opponents' outstanding trumps of a claim are absent."""
    if doc is None:
        return None
    out = dict(doc)
    shown = shown_seats(doc, seat)
    out["hands"] = {s: (list(cards) if s in shown else None) for s, cards in (doc.get("hands") or {}).items()}
    out["hands_shown"] = shown
    out["device_seat"] = seat
    ended = doc.get("phase") == "ended"
    if not ended:
        out["board"] = {**doc["board"], "deal": None}
        tricks = [dict(t) for t in doc.get("tricks") or []]
        current = len(tricks) - 1 if tricks and len(tricks[-1].get("cards") or []) < 4 else None
        keep = {current} if current is not None else set()
        if current is None and tricks:
            keep.add(len(tricks) - 1)  # the last trick, until the next one is begun (66A)
        elif current is not None and not tricks[current].get("cards") and current > 0:
            keep.add(current - 1)
        for i, trick in enumerate(tricks):
            if i not in keep:
                trick["cards"] = []
                trick["quitted"] = True
        out["tricks"] = tricks
        if doc.get("claim"):
            out["claim"] = {**doc["claim"], "outstanding_trumps": None}
    return out


def device_envelope(envelope: dict[str, Any], phase_ended: bool = False) -> dict[str, Any]:
    """An event as a table device may have it: the deal of ``BoardOpened`` is absent (each
    player sees his own cards at the table; the device is not where he looks at the others')."""
    if envelope.get("type") == "BoardOpened" and not phase_ended:
        data = dict(envelope.get("data") or {})
        data["deal"] = None
        return {**envelope, "data": data}
    return envelope


def next_caller(doc: dict[str, Any], calls_logged: list[str]) -> str:
    """Whose call the bidding box logs by default: the seat on turn; while a call waits for
    the director or a player's choice (a review, an option), the next player in rotation
    after the last call logged, since the table goes on calling and each call is its
    caller's (the table may choose another seat)."""
    waiting_now = bool(doc.get("review") or doc.get("pending"))
    if doc.get("turn") and not waiting_now:
        return str(doc["turn"])
    if calls_logged:
        return LHO[calls_logged[-1]]
    return str(doc.get("turn") or doc["board"]["dealer"])


def claim_answers(records: list[dict[str, Any]], claim_seq: int | None) -> dict[str, str]:
    """Each opponent's answer to the claim made at ``claim_seq``: seat -> agreed / disputed."""
    answers: dict[str, str] = {}
    if claim_seq is None:
        return answers
    for e in records:
        if e["seq"] > claim_seq and e["type"] in ("ClaimAgreed", "ClaimDisputed"):
            answers[e["data"]["by"]] = "agreed" if e["type"] == "ClaimAgreed" else "disputed"
        if e["seq"] > claim_seq and e["type"] == "ClaimMade":
            answers = {}
    return answers


def last_own_entry(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The table's own last entry, which it may void itself (docs/EXTENSIONS.md, EntryVoided):
    logged by a table device, nothing but the ruling engine after it, not ``BoardOpened``,
    not already voided."""
    voided = {e["data"].get("about") for e in records if e["type"] == "EntryVoided"}
    for e in reversed(records):
        role = (e.get("actor") or {}).get("role")
        if role == "system":
            continue
        if role != "table" or e["type"] in ("BoardOpened", "EntryVoided") or e["seq"] in voided \
                or e.get("id") in voided:
            return None
        return e
    return None


def entry_words(e: dict[str, Any]) -> str:
    """An entry in a player's words (the undo's confirmation)."""
    from ledger.live.words import call_words, card_words, seat_word

    d = e.get("data") or {}
    kind = e["type"]
    if kind == "CallPlaced":
        return f"{seat_word(d.get('seat'))}'s call {call_words(d.get('call', ''))}"
    if kind == "CardPlayed":
        return f"{seat_word(d.get('seat'))}'s card {card_words(d.get('card', ''))}"
    if kind == "ResultReported":
        return "the result entered"
    if kind in ("ClaimAgreed", "ClaimDisputed"):
        return f"{seat_word(d.get('by'))} {'agreeing to' if kind == 'ClaimAgreed' else 'objecting to'} the claim"
    if kind == "ClaimMade":
        return f"{seat_word(d.get('seat'))}'s claim"
    if kind == "OptionChosen":
        return f"{seat_word(d.get('seat'))}'s choice"
    if kind == "DirectorCalled":
        return f"{seat_word(d.get('by'))}'s call for the director"
    if kind == "AttentionDrawn":
        return f"attention drawn by {seat_word(d.get('by'))}"
    return "the last entry"


def traveller(ledger: Ledger, session: Session, board: int) -> list[dict[str, Any]]:
    """The board's results at every table of the session that has played it (the traveller)."""
    rows = []
    for table in range(1, session.tables + 1):
        if not any(b == board for _r, _s, b in session.schedule(table)):
            continue
        doc = head_document(ledger, session.stream(table, board))
        if doc is None or not doc.get("result"):
            continue
        r = doc["result"]
        rows.append({"table": table, "label": session.table_label(table), "ns": doc["board"].get("ns"),
                     "ew": doc["board"].get("ew"), "text": r.get("text"), "score_ns": r.get("score_ns"),
                     "adjusted": bool(doc.get("adjusted"))})
    return rows


def moves(session: Session, table: int, rnd: int) -> list[str]:
    """Where this table's pairs go for round ``rnd`` (the movement), in words."""
    if rnd > len(session.movement):
        return []
    here = session.movement[rnd - 2][table - 1] if rnd >= 2 else None
    if here is None:
        return []
    out = []
    for pair, side in ((here.ns, "North-South"), (here.ew, "East-West")):
        for s in session.movement[rnd - 1]:
            if pair in (s.ns, s.ew):
                seat = "North-South" if pair == s.ns else "East-West"
                where = "stay at this table" if s.table == table else f"move to {session.table_label(s.table)}"
                out.append(f"Pair {pair} ({side}): {where} for round {rnd}, sitting {seat}")
    return out


def round_started(ledger: Ledger, session: Session, table: int, rnd: int) -> str | None:
    """When the table opened the round's first board (the round clock starts there)."""
    for r, _s, board in session.schedule(table):
        if r == rnd:
            times = None
            try:
                times = ledger.store.read(session.stream(table, board), 1)
            except StreamNotFound:
                return None
            return times[0].at if times else None
    return None


# -- the director's board page, in a director's words ------------------------------------------

COMPASS_ORDER = ("N", "E", "S", "W")


def compass(deal: str | None) -> dict[str, dict[str, str]] | None:
    """A PBN deal (``N:hand E S W``, suits S.H.D.C) as each seat's cards by suit, for a
    compass diagram."""
    if not deal or ":" not in deal:
        return None
    first, hands = deal.split(":", 1)
    start = COMPASS_ORDER.index(first.strip().upper()[:1])
    out = {}
    for i, hand in enumerate(hands.split()):
        seat = COMPASS_ORDER[(start + i) % 4]
        suits = (hand.split(".") + ["", "", "", ""])[:4]
        out[seat] = {s: (" ".join("10" if r == "T" else r for r in cards) or "—")
                     for s, cards in zip("SHDC", suits)}
    return out


def _opened(d: dict[str, Any], _law: str) -> str:
    return (f"Board {d.get('board')} opened at table {d.get('table')}: dealer {seat_word(d.get('dealer'))}, "
            f"vulnerable {d.get('vulnerability')}, NS {d.get('ns')}, EW {d.get('ew')}, {d.get('laws')} Laws")


def _option_chosen(d: dict[str, Any], _law: str) -> str:
    words = option_words(str(d.get("option")), None)
    suit = f" {d['suit']}" if d.get("suit") else ""
    return f"{seat_word(d.get('seat'))} chooses {str(d.get('option')).replace('_', ' ')}{suit}" + \
        (f": {words}" if words else "")


def _irregularity(d: dict[str, Any], law: str) -> str:
    what = IRREGULARITY_WORDS.get(str(d.get("kind")), str(d.get("kind")).replace("_", " "))
    return f"Irregularity: {what} by {seat_word(d.get('offender'))}" + law


def _result_reported(d: dict[str, Any], _law: str) -> str:
    risk = d.get("risk") or ""
    lead = f", opening lead {card_words(str(d['lead']))}" if d.get("lead") else ""
    if d.get("contract") == "Pass":
        return "Result entered: passed out"
    return (f"Result entered: {call_words(str(d.get('contract')))}{risk} by {seat_word(d.get('declarer'))}, "
            f"{d.get('tricks')} tricks{lead}" + (f" ({d['text']})" if d.get("text") else ""))


def _any_event(kind: str, d: dict[str, Any], law: str) -> str:
    """An event without a sentence of its own: its name in words and its fields."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower().capitalize()
    fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in d.items() if v not in (None, "", [], {}))
    return f"{words}" + (f": {fields}" if fields else "") + law


SENTENCES: dict[str, Callable[[dict[str, Any], str], str]] = {
    "BoardOpened": _opened,
    "CallPlaced": lambda d, law: f"{seat_word(d.get('seat'))} calls {call_words(str(d.get('call')))}" + law,
    "CallReplaced": lambda d, law: (f"{seat_word(d.get('seat'))} changes his call to "
                                    f"{call_words(str(d.get('call')))}" + law),
    "CardPlayed": lambda d, law: f"{seat_word(d.get('seat'))} plays {card_words(str(d.get('card')))}" + law,
    "DirectorCalled": lambda d, _law: f"{seat_word(d.get('by'))} calls the director",
    "AttentionDrawn": lambda d, _law: f"{seat_word(d.get('by'))} draws attention to an irregularity",
    "OptionChosen": _option_chosen,
    "OptionsOffered": lambda d, law: (f"The Laws give {seat_word(d.get('to'))} a choice: "
                                      + ", ".join(str(o).replace("_", " ") for o in d.get("options") or []) + law),
    "IrregularityRecorded": _irregularity,
    "DirectorReviewRequired": lambda d, law: f"Question for the director: {d.get('reason')}" + law,
    "ClaimMade": lambda d, _law: f"{seat_word(d.get('seat'))} claims {d.get('tricks')} of the remaining tricks",
    "ClaimAgreed": lambda d, law: f"{seat_word(d.get('by'))} agrees to the claim" + law,
    "ClaimDisputed": lambda d, law: f"{seat_word(d.get('by'))} objects to the claim" + law,
    "ClaimRuled": lambda d, _law: (f"The director rules the claim: {d.get('tricks')} tricks to the claimer"
                                   + (f" ({d['text']})" if d.get("text") else "")),
    "ResultReported": _result_reported,
    "ResultRecorded": lambda d, law: (f"Result: {d.get('contract')} {d.get('declarer') or ''} {d.get('tricks')} "
                                      f"tricks, NS {d.get('score_ns')}" + law),
    "EntryVoided": lambda d, _law: f"Entry {d.get('about')} voided as an entry error: {d.get('reason')}",
    "RulingGiven": lambda d, _law: f"Ruling ({', '.join(d.get('laws') or [])}): {d.get('text')}",
    "FindingMade": lambda d, _law: (f"Finding on entry {d.get('about')}: {str(d.get('field')).replace('_', ' ')} "
                                    f"= {d.get('value')}" + (f" ({d['note']})" if d.get("note") else "")),
    "AdjustedScoreAwarded": lambda d, _law: f"Adjusted score ({d.get('kind')}, {d.get('law')}): {d.get('text')}",
    "RulingOverridden": lambda d, law: f"Entry {d.get('about')} cancelled: {d.get('text')}" + law,
}
"""Each event kind's sentence for the director, from its data and its Law (`` (Law)`` or "")."""


def log_sentence(e: dict[str, Any]) -> str:
    """One event of the log as a sentence for the director (the Law where one applied)."""
    d = e.get("data") or {}
    kind = str(e.get("type"))
    law = f" ({e['law']})" if e.get("law") else ""
    sentence = SENTENCES.get(kind)
    return sentence(d, law) if sentence is not None else _any_event(kind, d, law)


VOIDABLE_NOT = ("BoardOpened", "FindingMade", "RulingOverridden", "EntryVoided")


def voidable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries the director may void as entry errors (docs/EXTENSIONS.md, EntryVoided)."""
    gone = {e["data"].get("about") for e in records if e["type"] in ("EntryVoided", "RulingOverridden")}
    return [e for e in records if (e.get("actor") or {}).get("role") != "system"
            and e["type"] not in VOIDABLE_NOT and e["seq"] not in gone and e.get("id") not in gone]


REVIEW_FIELDS = {"27B1a": "same_denomination", "27B1b": "comparable", "25A": "unintended",
                 "21B1": "mi_influenced", "45C1": "partner_could_see", "45C2": "face_up_near_table"}
"""The judgment field a review of this Law asks about, when the review names its entry."""


def review_questions(doc: dict[str, Any], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each open review about an entry with a judgment field: the question as the engine asks
    it, the entry, and the fields a finding may settle (the likely one first)."""
    from projections.resolve import JUDGMENT_FIELDS

    import ledger.events as ev

    by_seq = {e["seq"]: e for e in records}
    out = []
    for r in doc.get("review") or []:
        about = by_seq.get(r.get("about"))
        if about is None:
            continue
        cls = ev.REGISTRY.get(about["type"])
        fields = sorted(JUDGMENT_FIELDS.get(cls, frozenset())) if cls else []
        law = str(r.get("law") or "").split(":")[-1]
        likely = REVIEW_FIELDS.get(law)
        if likely and likely in fields:
            fields.remove(likely)
            fields.insert(0, likely)
        if fields:
            out.append({"seq": r.get("seq"), "about": about["seq"], "question": r.get("reason"),
                        "law": r.get("law"), "entry": log_sentence(about), "fields": fields})
    return out
