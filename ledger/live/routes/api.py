"""The JSON API under ``/api``: the append endpoint, the reads, and the live feed."""

from __future__ import annotations

import json
import time
from typing import Any, AsyncIterator, Callable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from ledger.errors import BadInput
from ledger.live import security, views
from ledger.live.accounts import Refused
from ledger.live.deps import LiveDep, Principal, ReaderDep, StreamReaderDep, Table, TableDep, principal
from ledger.live.errors import HttpError
from ledger.live.feed import brief, read_after
from ledger.live.sessions import get_session, list_sessions
from ledger.live.state import LiveState
from ledger.live.writes import APPEND_DOC, MAX_BODY, do_append, parse_body, parse_expected

router = APIRouter(prefix="/api")


# -- the append path ---------------------------------------------------------

async def read_body(request: Request) -> bytes:
    """The request's body, refused (413) past MAX_BODY before it is all read."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise HttpError(413, "too_large", f"the body is {length} bytes; at most {MAX_BODY}")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HttpError(413, "too_large", f"the body is over {MAX_BODY} bytes")
    return body


def server_timing(queued: float, marks: dict[str, float], done: float) -> str:
    """Where the server's time went (ms), for the bench and a browser's network panel:
    waiting for a thread, the credential and the body, the ledger's append, the whole."""
    return ", ".join(f"{name};dur={ms * 1000:.2f}" for name, ms in (
        ("queue", marks["thread"] - queued), ("credential", marks["credential"] - marks["thread"]),
        ("append", marks["append"] - marks["credential"]), ("total", done - queued)))


@router.post("/streams/{stream:path}/events", status_code=201, openapi_extra=APPEND_DOC, tags=["append"])
async def append_events(stream: str, request: Request, live: LiveDep) -> JSONResponse:
    """Append events (JSON array or JSON Lines) as one atomic batch; the actor is
    set from the credential."""
    body = await read_body(request)
    queued = time.perf_counter()
    marks: dict[str, float] = {}

    def handle() -> dict[str, Any]:  # one trip to the thread pool for the whole request
        marks["thread"] = time.perf_counter()
        who = principal(live, request, write=True)
        if isinstance(who, Table):
            live.table_appends.take(who.token_key)
        expected = parse_expected(request.query_params.get("expected_seq"))
        lines = parse_body(body, request.headers.get("content-type", ""))
        marks["credential"] = time.perf_counter()
        answer = do_append(live, who, stream, lines, expected)
        marks["append"] = time.perf_counter()
        return answer

    answer = await run_in_threadpool(handle)
    timing = server_timing(queued, marks, time.perf_counter())
    return JSONResponse(answer, status_code=200 if answer["replayed"] else 201,
                        headers={"Server-Timing": timing})


# -- reads -------------------------------------------------------------------

@router.get("/streams/{stream:path}/state", tags=["read"])
def stream_state(stream: str, who: StreamReaderDep, live: LiveDep, at: int | None = None) -> JSONResponse:
    """The state document (spec section 5), at the head or after seq ``at``."""
    doc = live.ledger.state(stream, at)
    if isinstance(who, Table):
        return JSONResponse(views.device_view(doc, who.seat))
    return JSONResponse(doc)


@router.get("/streams/{stream:path}/log", tags=["read"])
def stream_log(stream: str, who: StreamReaderDep, live: LiveDep) -> JSONResponse:
    """Every event of the stream, in seq order, with actor and Law."""
    envelopes = [e.envelope() for e in live.ledger.events(stream)]
    if isinstance(who, Table):
        ended = views.board_phase(live.ledger, stream) == "ended"
        envelopes = [views.device_envelope(e, ended) for e in envelopes]
    return JSONResponse({"stream": stream, "events": envelopes})


@router.get("/streams/{stream:path}/casefile", tags=["read"])
def stream_casefile(stream: str, who: StreamReaderDep, live: LiveDep, format: str = "json") -> Response:
    """The appeal case file (``format=json`` or ``html``)."""
    from fastapi.responses import HTMLResponse

    from ledger.casefile import build_casefile, render_html

    if isinstance(who, Table):
        raise Refused("the case file is for the director and the committee", 403)
    if format not in ("json", "html"):
        raise BadInput("json or html", field="format", value=format)
    case = build_casefile(live.ledger, stream)
    if format == "html":
        return HTMLResponse(render_html(case))
    return JSONResponse(case)


@router.get("/events", tags=["read"])
def events_after(who: ReaderDep, live: LiveDep, after: int = 0, prefix: str = "",
                 limit: int = 500) -> JSONResponse:
    """Events with position > ``after`` in position order (a table token sees its table's only)."""
    if not 1 <= limit <= 1000:
        raise BadInput("1 to 1000", field="limit", value=limit)
    if after < 0:
        raise BadInput("0 or more", field="after", value=after)
    scope = who.prefix if isinstance(who, Table) else ""
    found, scanned = read_after(live.ledger.store, after,
                                lambda s: s.startswith(scope) and s.startswith(prefix), limit)
    if isinstance(who, Table):
        found = [views.device_envelope(e) for e in found]
    return JSONResponse({"events": found, "last_position": scanned})


@router.get("/sessions", tags=["read"])
def sessions_list(who: ReaderDep, live: LiveDep) -> JSONResponse:
    """The playing sessions (people only)."""
    if isinstance(who, Table):
        raise Refused("the sessions list is for the director and the committee", 403)
    return JSONResponse({"sessions": [s.to_json() for s in list_sessions(live.engine)]})


@router.get("/sessions/{session_id}/results", tags=["read"])
def session_results(session_id: int, who: ReaderDep, live: LiveDep) -> JSONResponse:
    """Travellers (matchpoints or IMPs, adjusted scores applied) and standings so far."""
    if isinstance(who, Table):
        raise Refused("results are for the director and the committee", 403)
    session = get_session(live.engine, session_id)
    if session is None:
        raise HttpError(404, "unknown_session", f"no session {session_id}")
    return JSONResponse(views.session_results(live.ledger, session))


@router.get("/table", tags=["table"])
def table_now(who: TableDep, live: LiveDep) -> JSONResponse:
    """For a table token: its session, table, and the board it plays now (with its state)."""
    now = views.current_board(live.ledger, who.session, who.grant.table)
    now["doc"] = views.device_view(now["doc"], who.seat)
    return JSONResponse({"session": f"{who.session.tournament}/{who.session.name}",
                         "table": who.grant.table, "seat": who.seat, "entry": who.session.entry, **now})


# -- live feed ---------------------------------------------------------------

def feed_start(live: LiveState, request: Request, after: int | None) -> int:
    """Where a feed starts: ``after``, else the browser's ``Last-Event-ID``, else now."""
    if after is not None:
        return after
    last_id = request.headers.get("last-event-id", "")
    return int(last_id) if last_id.isdigit() else live.feed.last


def device_counts(live: LiveState, who: Principal) -> dict[str, int] | None:
    """A table device's entry in the console's "connected", counted in (None for a person)."""
    if not isinstance(who, Table):
        return None
    device = live.connected.setdefault((who.session.id, who.grant.table), {})
    kind = who.seat or "table"
    device[kind] = device.get(kind, 0) + 1
    return device


async def feed_window(live: LiveState, position: int, accept: Callable[[str], bool]) -> tuple[list[Any], int]:
    """The events after ``position`` this page may see: from the process's window, or
    (a page far behind) from the log itself."""
    window = live.feed.since(position, accept)  # the process's window: no database read
    if window is not None:
        return window
    envelopes, scanned = await run_in_threadpool(read_after, live.ledger.store, position, accept)
    return [brief(e) for e in envelopes], scanned


async def follow(live: LiveState, request: Request, who: Principal, start: int,
                 accept: Callable[[str], bool]) -> AsyncIterator[str]:
    """The server-sent events of one page, from ``start`` on, until it goes away (or its
    token is revoked: a revoked token's feed ends before it tells more)."""
    position = start
    yield f"retry: 1000\n: from position {position}\n\n"
    checked = time.monotonic()
    while not await request.is_disconnected():
        found, scanned = await feed_window(live, position, accept)
        if isinstance(who, Table) and (found or time.monotonic() - checked > 1):
            checked = time.monotonic()
            if not await run_in_threadpool(security.token_still_valid, live.reads, who.token_key):
                yield security.REVOKED
                return
        for item in found:
            yield f"id: {item['position']}\nevent: ledger\ndata: {json.dumps(item)}\n\n"
        position = max(position, scanned)
        if not found or position >= live.feed.last:
            if not await live.feed.wait_beyond(position, timeout=5 if isinstance(who, Table) else 15):
                yield ": keep-alive\n\n"


@router.get("/feed", tags=["read"], response_class=StreamingResponse)
async def live_feed(request: Request, who: ReaderDep, live: LiveDep, after: int | None = None,
                    prefix: str = "") -> StreamingResponse:
    """Server-sent events: one per event of the log after ``after`` (or
    ``Last-Event-ID``); the event id is the position. A table token sees
    its own table only."""
    await live.feed.watch()  # from here on, this process's feed reads the log for this page
    start = feed_start(live, request, after)
    scope = who.prefix if isinstance(who, Table) else ""
    device = device_counts(live, who)

    def accept(s: str) -> bool:
        return s.startswith(scope) and s.startswith(prefix)

    async def stream() -> AsyncIterator[str]:
        try:
            async for chunk in follow(live, request, who, start, accept):
                yield chunk
        finally:
            live.feed.unwatch()
            if device is not None and isinstance(who, Table):
                kind = who.seat or "table"
                device[kind] = max(0, device.get(kind, 1) - 1)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

