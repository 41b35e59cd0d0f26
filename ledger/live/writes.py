"""The live service's side of the one append path: the body read as events, the
credential's scope (a table writes its own current board; a seat device its own
player's entries), the actor set from the credential, then
:meth:`ledger.service.Ledger.append` (the same path as ``cli.py append``).

Its refusals become HTTP statuses (400 bad input naming line, field and value; 403 role
or scope; 404 unknown stream; 409 stale ``expected_seq``), and nothing is written on any
refusal. The endpoint is ``ledger.live.routes.api.append_events``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

import structlog

from ledger.errors import BadInput, NotAllowed, StreamNotFound
from ledger.groupcommit import live_append
from ledger.live import security, views
from ledger.live.deps import Principal, Table
from ledger.live.errors import HttpError
from ledger.live.pages import seating
from ledger.live.sessions import board_opened_fact, list_sessions
from ledger.live.state import LiveState
from ledger.service import check_stream_id, json_lines, parse_fact

log = structlog.get_logger("ledger.live")

MAX_BODY = 256 * 1024
"""Largest request body accepted (413 beyond): a whole board is about 20 KiB."""
MAX_LINES = 500
JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines",
               "application/json-lines")
WHOSE_CARD = re.compile(r"\s*\(it is [NESW]'s card\)")

Lines = list[tuple[int, Mapping[str, Any]]]

APPEND_DOC = {
    "requestBody": {"required": True, "content": {
        "application/json": {"schema": {"type": "array", "items": {"type": "object"}}},
        "application/x-ndjson": {"schema": {"type": "string"}},
    }},
    "parameters": [{"name": "expected_seq", "in": "query", "required": False,
                    "schema": {"type": "integer", "minimum": 0}}],
    "responses": {
        "200": {"description": "A retry: every event was already stored; the stored seqs"},
        "400": {"description": "Bad input: names the line, the field and the value"},
        "401": {"description": "No credential"},
        "403": {"description": "Role or scope refused, or an actor claimed"},
        "404": {"description": "Unknown stream"},
        "409": {"description": "Stale expected_seq"},
        "413": {"description": "Body too large"},
        "415": {"description": "Wrong content type"},
    },
}
"""The append endpoint's OpenAPI description (its body is read by hand, not by a model)."""


def json_array_lines(text: str) -> Lines:
    doc = security.json_body(text)  # nesting and numbers within the input limits
    if isinstance(doc, Mapping):
        doc = [doc]
    if not isinstance(doc, list):
        raise BadInput("a JSON body is an array of events (or one event object)", field="body", value=doc)
    lines = []
    for i, obj in enumerate(doc, start=1):
        if not isinstance(obj, Mapping):
            raise BadInput("each element must be a JSON object", field="line", value=obj, line=i)
        lines.append((i, obj))
    return lines


def parse_body(body: bytes, content_type: str) -> Lines:
    kind = content_type.split(";")[0].strip().lower()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("the body is not UTF-8 text", field="body", value=body[:40]) from None
    if kind == "application/json":
        lines = json_array_lines(text)
    elif kind in JSONL_TYPES:
        lines = json_lines(text)
    else:
        raise HttpError(415, "unsupported_media_type",
                        f"send application/json (an array) or application/x-ndjson (JSON Lines), "
                        f"not {kind or 'no content type'}", content_type=kind)
    if not lines:
        raise BadInput("nothing to append: the input has no event", field="body", value="")
    if len(lines) > MAX_LINES:
        raise BadInput(f"at most {MAX_LINES} events in one request", field="body", value=len(lines))
    return lines


def parse_expected(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise BadInput("expected_seq is a whole number (the seq you last saw; 0 for a new "
                       "stream)", field="expected_seq", value=raw) from None
    if value < 0:
        raise BadInput("expected_seq is 0 or more", field="expected_seq", value=value)
    return value


def stream_exists(live: LiveState, stream: str) -> bool:
    if stream in live.opened:
        return True
    if live.ledger.store.read(stream, 1):
        live.opened.add(stream)
        return True
    return False


def table_board(live: LiveState, who: Table, stream: str) -> dict[str, Any]:
    """The table's current board, when ``stream`` is it or the board just before it
    (a director call after the last trick, Law 64); else NotAllowed. The board a table
    plays only moves forward: this process remembers where it is and looks at the log
    only when the table asks for a board further on."""
    session, table = who.session, who.grant.table
    schedule = session.schedule(table)
    key = (session.id, table)
    if key in live.progress:  # the board this process last saw the table on: no database read
        now = views.board_at(live.ledger, session, table, live.progress[key], with_doc=False)
        if stream == now["stream"]:
            return now
    index = live.progress[key] = views.locate(live.ledger, session, table, live.progress.get(key, 0))
    now = views.board_at(live.ledger, session, table, index, with_doc=False)
    previous = session.stream(table, schedule[index - 1][2]) if index > 0 else None
    if stream == now["stream"] or (stream == previous and stream_exists(live, stream)):
        return now
    where = now["stream"] or "nothing (the session is finished for this table)"
    also = f" (or the board it just played, {previous})" if previous and stream_exists(live, previous) else ""
    raise NotAllowed("table", "events", f"{who.label}'s token may append only "
                     f"to its current board, {where}{also}; not to {stream}")


def opening_fact(who: Table, now: dict[str, Any]) -> dict[str, Any]:
    """The BoardOpened fact of the table's current board, as the session has it."""
    return board_opened_fact(who.session, who.grant.table, now["board"],
                             seating(who.session, who.grant.table, now["round"]))


def check_opening(who: Table, now: dict[str, Any], lines: Lines) -> None:
    """A table's first entry on a board not yet opened is its BoardOpened, of the
    session's board, table and deal."""
    expected = opening_fact(who, now)
    first = dict(lines[0][1])
    if first.get("type") != "BoardOpened":
        raise BadInput("the board is not opened yet: the first event is BoardOpened",
                       field="type", value=first.get("type"), line=lines[0][0])
    for field in ("tournament", "board", "table", "deal", "match", "room"):
        if field in first and first[field] != expected.get(field):
            raise BadInput(f"this table's board is {expected['tournament']} board "
                           f"{expected['board']} at {who.label} with the "
                           "session's deal", field=field, value=first[field], line=lines[0][0])


def check_scope(live: LiveState, who: Principal, stream: str, lines: Lines) -> dict[str, Any] | None:
    """Refuse what the credential may not write; for a table, its current board."""
    if isinstance(who, Table):
        now = table_board(live, who, stream)
        if stream == now["stream"] and not stream_exists(live, stream):
            check_opening(who, now, lines)
        return now
    if not stream_exists(live, stream) and not any(s.parse_stream(stream)
                                                   for s in list_sessions(live.engine, open_only=True)):
        raise StreamNotFound(stream)
    return None


def check_actor(actor: dict[str, str], claimed: Any, kind: Any, number: int) -> None:
    """A line may name its actor only as the credential's own."""
    same = isinstance(claimed, Mapping) and claimed.get("role") == actor["role"] \
        and claimed.get("name") in (None, actor["name"])
    if not same:
        raise NotAllowed(str(claimed.get("role") if isinstance(claimed, Mapping) else claimed), str(kind),
                         f"the server sets the actor from your credential "
                         f"({actor['role']} {actor['name']}); this line claims "
                         f"{json.dumps(claimed)}", line=number)


def server_facts(who: Principal, lines: Lines, fill: Mapping[str, Any] | None = None) -> list[Any]:
    actor = who.actor
    facts = []
    for number, obj in lines:
        body = dict(obj)
        claimed = body.pop("actor", None)
        if claimed is not None:
            check_actor(actor, claimed, body.get("type"), number)
        if fill and body.get("type") == "BoardOpened":
            body = {**fill, **body}
        body["actor"] = actor
        facts.append(parse_fact(body, number))
    return facts


def seat_may_log(seat: str, kind: Any, whose: Any, dummy: Any, declarer: Any, number: int) -> bool:
    """Whether a seat device logs this line: its own player's, or (declarer's device)
    dummy's card; the table's result by quick entry, which the opponents confirm on the
    device (Law 79A1); NotAllowed for dummy's own device playing dummy's cards (45B)."""
    if kind in ("BoardOpened", "EntryVoided", "HandsReturned", "ResultReported"):
        return True
    if kind in ("CardPlayed", "CardHeld", "LeadFaceDown") and whose == seat == dummy:
        raise NotAllowed("table", str(kind), f"{views.SEATS_WORDS[seat]} is dummy: declarer "
                         "plays dummy's cards from his own device (Law 45B)", line=number)
    return whose == seat or (kind == "CardPlayed" and whose == dummy and declarer == seat)


def check_seat(live: LiveState, who: Table, stream: str, lines: Lines) -> None:
    """A seat device logs its own player's calls, cards and answers; declarer's device
    also dummy's cards (declarer plays them, 45B). Anything else is the table's device's
    or the director's."""
    seat = str(who.seat)
    doc = views.head_document(live.ledger, stream) if stream_exists(live, stream) else None
    dummy = doc.get("dummy") if doc else None
    declarer = (doc.get("contract") or {}).get("declarer") if doc else None
    for number, obj in lines:
        kind = obj.get("type")
        whose = obj.get("seat", obj.get("by"))
        if seat_may_log(seat, kind, whose, dummy, declarer, number):
            continue
        raise NotAllowed("table", str(kind), f"this device is {views.SEATS_WORDS[seat]}'s: it logs "
                         f"{views.SEATS_WORDS[seat]}'s own calls and cards"
                         + (" and dummy's cards" if declarer == seat else "")
                         + f", not {views.SEATS_WORDS.get(str(whose), 'another player')}'s",
                         line=number)


def board_fill(who: Principal, now: dict[str, Any] | None, stream: str, lines: Lines) -> dict[str, Any] | None:
    """What the server fills in of a table's BoardOpened (the session's board and deal)."""
    if not isinstance(who, Table) or now is None or stream != now["stream"] \
            or lines[0][1].get("type") != "BoardOpened":
        return None
    fill = opening_fact(who, now)
    fill.pop("id")
    return fill


def do_append(live: LiveState, who: Principal, stream: str, lines: Lines,
              expected_seq: int | None) -> dict[str, Any]:
    check_stream_id(stream)
    now = check_scope(live, who, stream, lines)
    fill = board_fill(who, now, stream, lines)
    if isinstance(who, Table) and who.seat:
        check_seat(live, who, stream, lines)
    facts = server_facts(who, lines, fill)
    try:
        result = live_append(live.ledger, stream, facts, expected_seq)  # group commit (issue 28)
    except BadInput as exc:
        if isinstance(who, Table) and WHOSE_CARD.search(exc.reason):
            # never tell a table device whose card a card is (Law 16): "not dealt" is enough
            raise BadInput(WHOSE_CARD.sub("", exc.reason), field=exc.field, value=exc.value,
                           line=exc.line, event_type=exc.event_type) from None
        raise
    live.opened.add(stream)
    if result.stored:
        last = result.stored[-1].position or 0
        live.notifier.send(last)  # the other processes' feeds (PostgreSQL); never waits
        live.feed.poke()
    head = result.stored[-1].seq if result.stored else live.ledger.store.read(stream)[-1].seq
    # the positions as committed: a grouped append's are given by its group's INSERT, after
    # Ledger.append's own "appended" line was logged (which says "staged" for them)
    positions = [e.position for e in result.stored]
    log.info("live_append", stream=stream, actor=who.actor, seqs=list(result.fact_seqs),
             positions=positions[:1] + positions[-1:], replayed=result.replayed)
    envelopes = [e.envelope() for e in result.stored]
    if isinstance(who, Table):  # a device gets what it may show (Law 16)
        envelopes = [views.device_envelope(e) for e in envelopes]
    return {"stream": stream, "seqs": list(result.fact_seqs), "replayed": result.replayed,
            "head_seq": head, "events": envelopes}
