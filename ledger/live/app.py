"""The live service's ASGI application (FastAPI on Starlette).

Entry points: the JSON API under ``/api`` (OpenAPI document at
``/openapi.json``, browsable at ``/docs``), the table page ``/table/<token>``,
the director's console ``/director``, the committee's view ``/committee``,
``/login`` and ``/logout``, and the live feed ``/api/feed`` (server-sent
events).

Credentials: a table terminal presents its token (``Authorization: Bearer``,
or the page's URL); a person signs in and gets a cookie session, and every
write made with the cookie must carry the session's CSRF token
(``X-CSRF-Token``). The actor of every appended event is set here, from the
credential: an input line that claims another actor is refused (403), as is a
table token writing anywhere but its own table's current board.

Every append goes through :meth:`ledger.service.Ledger.append`, the same path
as ``cli.py append``: its refusals become HTTP statuses (400 bad input naming
line, field and value; 403 role or scope; 404 unknown stream; 409 stale
``expected_seq``), and nothing is written on any refusal.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Mapping
from urllib.parse import parse_qs, quote

import anyio.to_thread
import attrs
import sqlalchemy as sa
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ledger.errors import (BadInput, ConcurrencyError, LedgerError, NotAllowed, StoreBusy, StoreUnavailable,
                           StreamNotFound)
from ledger.live import accounts, security, signin, views
from ledger.live.accounts import Refused, TableGrant, User
from ledger.live.db import Notifier, live_engine, read_engine
from ledger.live.feed import Feed, brief, read_after
from ledger.live.limits import Buckets, Limits, RateLimited
from ledger.live.sessions import Session, board_opened_fact, get_session, list_sessions
from ledger.groupcommit import live_append
from ledger.service import Ledger, check_stream_id, json_lines, parse_fact
from ledger.render import IRREGULARITY_WORDS, PENALTY_KIND_WORDS, option_words

log = structlog.get_logger("ledger.live")

MAX_BODY = 256 * 1024
"""Largest request body accepted (413 beyond): a whole board is about 20 KiB."""
MAX_LINES = 500
COOKIE = "ledger_session"
JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines",
               "application/json-lines")
TEMPLATES = Path(__file__).resolve().parent / "templates"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
WHOSE_CARD = re.compile(r"\s*\(it is [NESW]'s card\)")


@attrs.frozen
class Table:
    """A table terminal's credential, resolved."""

    grant: TableGrant
    session: Session
    token_key: str = ""
    """The token's digest: the key of its rate limit."""

    @property
    def seat(self) -> str | None:
        """A seat device's seat; None for the table's shared device."""
        return self.grant.seat

    @property
    def actor(self) -> dict[str, str]:
        name = self.session.table_actor_name(self.grant.table)
        return {"role": "table", "name": f"{name}-{self.seat}" if self.seat else name}

    @property
    def prefix(self) -> str:
        return self.session.table_prefix(self.grant.table)

    @property
    def label(self) -> str:
        return self.session.table_label(self.grant.table)


@attrs.frozen
class Person:
    user: User
    csrf: str

    @property
    def actor(self) -> dict[str, str]:
        return {"role": self.user.role, "name": self.user.name}


Principal = Table | Person


def _jsonable(value: Any) -> Any:
    try:  # the answer is strict JSON: NaN and Infinity (Python's json reads them) are named, not sent
        json.dumps(value, allow_nan=False)
        return value
    except (TypeError, ValueError):
        return repr(value)


RETRY_AFTER_S = 1
"""Seconds a terminal waits before re-sending an append the busy store refused (503)."""


def error_body(exc: Exception) -> tuple[int, dict[str, Any]]:
    if isinstance(exc, BadInput):
        return 400, {"error": "bad_input", "message": str(exc), "reason": exc.reason,
                     "line": exc.line, "field": exc.field, "value": _jsonable(exc.value),
                     "event_type": exc.event_type}
    if isinstance(exc, NotAllowed):
        return 403, {"error": "not_allowed", "message": str(exc), "reason": exc.reason,
                     "line": exc.line, "role": exc.role, "event_type": exc.event_type}
    if isinstance(exc, Refused):
        return exc.status, {"error": "unauthorized" if exc.status == 401 else "forbidden",
                            "message": exc.reason, "reason": exc.reason}
    if isinstance(exc, ConcurrencyError):
        return 409, {"error": "conflict", "message": str(exc), "expected_seq": exc.expected,
                     "head_seq": exc.actual}
    if isinstance(exc, StreamNotFound):
        return 404, {"error": "unknown_stream", "message": str(exc), "stream": exc.stream}
    if isinstance(exc, StoreBusy):  # a condition, not a failure: nothing written, send it again
        return 503, {"error": "store_busy", "message": str(exc), "retry_after": RETRY_AFTER_S}
    if isinstance(exc, StoreUnavailable):
        return 503, {"error": "store_unavailable", "message": str(exc)}
    return 500, {"error": "internal", "message": str(exc)}


class HttpError(Exception):
    def __init__(self, status: int, error: str, message: str, **extra: Any) -> None:
        self.status = status
        self.body = {"error": error, "message": message, **extra}
        super().__init__(message)


def create_app(db_url: str, *, secure_cookies: bool = False, poll: float = 1.0,
               ledger: Ledger | None = None, limits: Limits | None = None,
               threads: int = 16) -> FastAPI:
    ledger = ledger or Ledger.open(db_url)
    limits = limits or Limits()
    table_appends = Buckets(limits.table_appends)
    engine = live_engine(db_url)  # the live tables' own engine: the store is reached via `ledger`
    reads = read_engine(engine)  # one-statement reads (tokens, cookies): one round trip each
    feed = Feed(ledger.store, engine, poll=poll)
    notifier = Notifier(engine)  # NOTIFY after an append, from a thread of its own
    sessions_seen: dict[int, Session] = {}  # a session's movement and deals never change
    progress: dict[tuple[int, int], int] = {}  # (session, table) -> schedule index of its board
    opened: set[str] = set()  # streams known to exist (the log is append-only)
    connected: dict[tuple[int, int], dict[str, int]] = {}
    """(session, table) -> device ("table" or a seat) -> this process's feeds open now: which
    devices of a table follow the live feed (the console's "connected")."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape())
    env.globals.update(suits=SUITS, seat_names=SEAT_NAMES, call_text=call_text, card_text=card_text,
                       irregularity_words=IRREGULARITY_WORDS,  # the families' words, as the terminal prints them
                       penalty_kind_words=PENALTY_KIND_WORDS)

    def warm() -> None:
        """Open the connections the first requests need before answering any: a table's
        first append would otherwise wait for new database connections (and, on
        PostgreSQL, for each new backend to load its catalog) while every terminal of the
        room opens its board at once."""
        started = time.perf_counter()
        store_warm = getattr(ledger.store, "warm", None)
        opened = store_warm(readers=4) if store_warm is not None else 0
        with contextlib.ExitStack() as held:  # several at once: the pool keeps them all
            for _ in range(4):
                conn = held.enter_context(reads.connect())
                conn.execute(sa.select(sa.literal(1)))  # the connection (pooled once returned)
            try:
                accounts.table_grant(reads, "warm-up")  # the token look-up's statement, once
            except Refused:
                pass
        log.info("live_warm", connections=opened + 4, ms=round((time.perf_counter() - started) * 1000, 1))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Every request that touches the database runs in AnyIO's thread pool: enough threads
        # for the terminals' appends and the pages' reads to wait on the database together.
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        await run_in_threadpool(warm)  # before the first request: see warm()
        notifier.start()
        await feed.start()
        keeper = None
        if getattr(ledger.store, "integrate_behind", False):  # the tree behind the log (issue 28)
            from ledger.store.integrator import Keeper

            keeper = Keeper(ledger.store)
            keeper.start()
        try:
            yield
        finally:
            if keeper is not None:
                keeper.stop()
            await feed.stop()
            notifier.stop()
            ledger.close()
            engine.dispose()

    app = FastAPI(
        title="Bridge ruling ledger: live service",
        version="1",
        description="Table terminals, the director's console and the committee's view over the "
                    "ledger's one append path. Errors are JSON objects with `error` and `message` "
                    "(and `line`, `field`, `value` for bad input).",
        lifespan=lifespan,
    )
    app.state.ledger = ledger
    app.state.live_engine = engine
    app.state.feed = feed

    # -- errors ------------------------------------------------------------

    @app.exception_handler(LedgerError)
    async def _ledger_error(_: Request, exc: LedgerError) -> JSONResponse:
        status, body = error_body(exc)
        headers = {"Retry-After": str(RETRY_AFTER_S)} if isinstance(exc, StoreBusy) else None
        return JSONResponse(body, status_code=status, headers=headers)

    @app.exception_handler(RateLimited)
    async def _rate_limited(_: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse({"error": "rate_limited", "message": str(exc), "limit": exc.limit.name,
                             "retry_after": exc.retry_after}, status_code=429,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(HttpError)
    async def _http_error(_: Request, exc: HttpError) -> JSONResponse:
        return JSONResponse(exc.body, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _starlette_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = "not_found" if exc.status_code == 404 else "http_error"
        return JSONResponse({"error": kind, "message": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = (exc.errors() or [{}])[0]
        field = ".".join(str(p) for p in first.get("loc", ())[1:]) or None
        body = {"error": "bad_input", "message": f"field {field!r}: {first.get('msg', 'invalid')}",
                "reason": first.get("msg"), "line": None, "field": field,
                "value": _jsonable(first.get("input"))}
        return JSONResponse(body, status_code=400)

    # -- credentials -------------------------------------------------------

    def table_from_token(token: str | None) -> Table:
        grant = accounts.table_grant(reads, token)
        session = sessions_seen.get(grant.session_id)
        if session is None:
            found = get_session(engine, grant.session_id)
            assert found is not None  # a token's session is never deleted
            session = sessions_seen[grant.session_id] = attrs.evolve(found, closed_at=None)
        if grant.session_closed_at is not None:
            raise Refused(f"session {session.tournament}/{session.name} is closed", 403)
        return Table(grant, session, accounts.digest(token or ""))

    def principal(request: Request, *, write: bool = False) -> Principal:
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return table_from_token(header[7:].strip())
        token = request.query_params.get("token")
        if token and not write:  # EventSource cannot send a header
            return table_from_token(token)
        ws = accounts.web_session(reads, request.cookies.get(COOKIE))
        if ws is None:
            raise Refused("sign in (a director or committee account) or present a table token", 401)
        if write and request.headers.get("x-csrf-token") != ws.csrf:
            raise Refused("missing or wrong CSRF token (X-CSRF-Token): reload the page", 403)
        return Person(ws.user, ws.csrf)

    def may_read(who: Principal, stream: str) -> None:
        if isinstance(who, Table) and not stream.startswith(who.prefix):
            raise Refused(f"{who.label}'s token may read only its own table's boards "
                          f"({who.prefix}...)", 403)

    def person_page(request: Request, roles: tuple[str, ...]) -> Person | None:
        ws = accounts.web_session(reads, request.cookies.get(COOKIE))
        if ws is None or ws.user.role not in roles:
            return None
        return Person(ws.user, ws.csrf)

    # -- the append path ---------------------------------------------------

    def parse_body(body: bytes, content_type: str) -> list[tuple[int, Mapping[str, Any]]]:
        kind = content_type.split(";")[0].strip().lower()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput("the body is not UTF-8 text", field="body", value=body[:40]) from None
        if kind == "application/json":
            doc = security.json_body(text)  # nesting and numbers within the input limits
            if isinstance(doc, Mapping):
                doc = [doc]
            if not isinstance(doc, list):
                raise BadInput("a JSON body is an array of events (or one event object)",
                               field="body", value=doc)
            lines = []
            for i, obj in enumerate(doc, start=1):
                if not isinstance(obj, Mapping):
                    raise BadInput("each element must be a JSON object", field="line", value=obj,
                                   line=i)
                lines.append((i, obj))
        elif kind in JSONL_TYPES:
            lines = json_lines(text)
        else:
            raise HttpError(415, "unsupported_media_type",
                            f"send application/json (an array) or application/x-ndjson (JSON Lines), "
                            f"not {kind or 'no content type'}", content_type=kind)
        if not lines:
            raise BadInput("nothing to append: the input has no event", field="body", value="")
        if len(lines) > MAX_LINES:
            raise BadInput(f"at most {MAX_LINES} events in one request", field="body",
                           value=len(lines))
        return lines

    def stream_exists(stream: str) -> bool:
        if stream in opened:
            return True
        if ledger.store.read(stream, 1):
            opened.add(stream)
            return True
        return False

    def table_board(who: Table, stream: str) -> dict[str, Any]:
        """The table's current board, when ``stream`` is it or the board just before it
        (a director call after the last trick, Law 64); else NotAllowed. The board a table
        plays only moves forward: this process remembers where it is and looks at the log
        only when the table asks for a board further on."""
        session, table = who.session, who.grant.table
        schedule = session.schedule(table)
        key = (session.id, table)
        if key in progress:  # the board this process last saw the table on: no database read
            now = views.board_at(ledger, session, table, progress[key], with_doc=False)
            if stream == now["stream"]:
                return now
        index = progress[key] = views.locate(ledger, session, table, progress.get(key, 0))
        now = views.board_at(ledger, session, table, index, with_doc=False)
        previous = session.stream(table, schedule[index - 1][2]) if index > 0 else None
        if stream == now["stream"] or (stream == previous and stream_exists(stream)):
            return now
        where = now["stream"] or "nothing (the session is finished for this table)"
        also = f" (or the board it just played, {previous})" if previous and stream_exists(previous) else ""
        raise NotAllowed("table", "events", f"{who.label}'s token may append only "
                         f"to its current board, {where}{also}; not to {stream}")

    def check_scope(who: Principal, stream: str, lines: list[tuple[int, Mapping[str, Any]]]) -> dict[str, Any] | None:
        """Refuse what the credential may not write; for a table, its current board."""
        if isinstance(who, Table):
            now = table_board(who, stream)
            if stream == now["stream"] and not stream_exists(stream):
                expected = board_opened_fact(who.session, who.grant.table, now["board"],
                                             _seating(who.session, who.grant.table, now["round"]))
                first = dict(lines[0][1])
                if first.get("type") != "BoardOpened":
                    raise BadInput("the board is not opened yet: the first event is BoardOpened",
                                   field="type", value=first.get("type"), line=lines[0][0])
                for field in ("tournament", "board", "table", "deal", "match", "room"):
                    if field in first and first[field] != expected.get(field):
                        raise BadInput(f"this table's board is {expected['tournament']} board "
                                       f"{expected['board']} at {who.label} with the "
                                       "session's deal", field=field, value=first[field],
                                       line=lines[0][0])
            return now
        if not stream_exists(stream) and not any(s.parse_stream(stream)
                                                 for s in list_sessions(engine, open_only=True)):
            raise StreamNotFound(stream)
        return None

    def server_facts(who: Principal, lines: list[tuple[int, Mapping[str, Any]]],
                     fill: Mapping[str, Any] | None = None) -> list[Any]:
        actor = who.actor
        facts = []
        for number, obj in lines:
            body = dict(obj)
            claimed = body.pop("actor", None)
            if claimed is not None:
                same = isinstance(claimed, Mapping) and claimed.get("role") == actor["role"] \
                    and claimed.get("name") in (None, actor["name"])
                if not same:
                    raise NotAllowed(str(claimed.get("role") if isinstance(claimed, Mapping) else claimed),
                                     str(body.get("type")),
                                     f"the server sets the actor from your credential "
                                     f"({actor['role']} {actor['name']}); this line claims "
                                     f"{json.dumps(claimed)}", line=number)
            if fill and body.get("type") == "BoardOpened":
                body = {**fill, **body}
            body["actor"] = actor
            facts.append(parse_fact(body, number))
        return facts

    def do_append(who: Principal, stream: str, lines: list[tuple[int, Mapping[str, Any]]],
                  expected_seq: int | None) -> dict[str, Any]:
        check_stream_id(stream)
        now = check_scope(who, stream, lines)
        fill = None
        if isinstance(who, Table) and now is not None and stream == now["stream"] \
                and lines[0][1].get("type") == "BoardOpened":
            fill = board_opened_fact(who.session, who.grant.table, now["board"],
                                     _seating(who.session, who.grant.table, now["round"]))
            fill.pop("id")
        if isinstance(who, Table) and who.seat:
            check_seat(who, stream, lines)
        facts = server_facts(who, lines, fill)
        try:
            result = live_append(ledger, stream, facts, expected_seq)  # group commit (issue 28)
        except BadInput as exc:
            if isinstance(who, Table) and WHOSE_CARD.search(exc.reason):
                # never tell a table device whose card a card is (Law 16): "not dealt" is enough
                raise BadInput(WHOSE_CARD.sub("", exc.reason), field=exc.field, value=exc.value,
                               line=exc.line, event_type=exc.event_type) from None
            raise
        opened.add(stream)
        if result.stored:
            last = result.stored[-1].position or 0
            notifier.send(last)  # the other processes' feeds (PostgreSQL); never waits
            feed.poke()
        head = result.stored[-1].seq if result.stored else ledger.store.read(stream)[-1].seq
        log.info("live_append", stream=stream, actor=who.actor, seqs=list(result.fact_seqs),
                 replayed=result.replayed)
        envelopes = [e.envelope() for e in result.stored]
        if isinstance(who, Table):  # a device gets what it may show (Law 16)
            envelopes = [views.device_envelope(e) for e in envelopes]
        return {"stream": stream, "seqs": list(result.fact_seqs), "replayed": result.replayed,
                "head_seq": head, "events": envelopes}

    def check_seat(who: Table, stream: str, lines: list[tuple[int, Mapping[str, Any]]]) -> None:
        """A seat device logs its own player's calls, cards and answers; declarer's device
        also dummy's cards (declarer plays them, 45B). Anything else is the table's device's
        or the director's."""
        seat = str(who.seat)
        doc = views.head_document(ledger, stream) if stream_exists(stream) else None
        dummy = doc.get("dummy") if doc else None
        declarer = (doc.get("contract") or {}).get("declarer") if doc else None
        for number, obj in lines:
            kind = obj.get("type")
            if kind in ("BoardOpened", "EntryVoided", "HandsReturned"):
                continue
            whose = obj.get("seat", obj.get("by"))
            if kind in ("CardPlayed", "CardHeld", "LeadFaceDown") and whose == seat == dummy:
                raise NotAllowed("table", str(kind), f"{views.SEATS_WORDS[seat]} is dummy: declarer "
                                 "plays dummy's cards from his own device (Law 45B)", line=number)
            if whose == seat:
                continue
            if kind == "CardPlayed" and whose == dummy and declarer == seat:
                continue
            raise NotAllowed("table", str(kind), f"this device is {views.SEATS_WORDS[seat]}'s: it logs "
                             f"{views.SEATS_WORDS[seat]}'s own calls and cards"
                             + (" and dummy's cards" if declarer == seat else "")
                             + f", not {views.SEATS_WORDS.get(str(whose), 'another player')}'s",
                             line=number)

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

    append_doc = {
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

    @app.post("/api/streams/{stream:path}/events", status_code=201, openapi_extra=append_doc,
              tags=["append"])
    async def append_events(stream: str, request: Request) -> JSONResponse:
        """Append events (JSON array or JSON Lines) as one atomic batch; the actor is
        set from the credential."""
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_BODY:
            raise HttpError(413, "too_large", f"the body is {length} bytes; at most {MAX_BODY}")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise HttpError(413, "too_large", f"the body is over {MAX_BODY} bytes")
        queued = time.perf_counter()
        marks: dict[str, float] = {}

        def handle() -> dict[str, Any]:  # one trip to the thread pool for the whole request
            marks["thread"] = time.perf_counter()
            who = principal(request, write=True)
            if isinstance(who, Table):
                table_appends.take(who.token_key)
            expected = parse_expected(request.query_params.get("expected_seq"))
            lines = parse_body(body, request.headers.get("content-type", ""))
            marks["credential"] = time.perf_counter()
            answer = do_append(who, stream, lines, expected)
            marks["append"] = time.perf_counter()
            return answer

        answer = await run_in_threadpool(handle)
        done = time.perf_counter()
        # Where the server's time went (ms), for the bench and a browser's network panel:
        # waiting for a thread, the credential and the body, the ledger's append, the whole.
        timing = ", ".join(f"{name};dur={ms * 1000:.2f}" for name, ms in (
            ("queue", marks["thread"] - queued), ("credential", marks["credential"] - marks["thread"]),
            ("append", marks["append"] - marks["credential"]), ("total", done - queued)))
        return JSONResponse(answer, status_code=200 if answer["replayed"] else 201,
                            headers={"Server-Timing": timing})

    # -- reads -------------------------------------------------------------

    def read_guard(request: Request, stream: str) -> Principal:
        who = principal(request)
        check_stream_id(stream)
        may_read(who, stream)
        return who

    @app.get("/api/streams/{stream:path}/state", tags=["read"])
    def stream_state(stream: str, request: Request, at: int | None = None) -> JSONResponse:
        """The state document (spec section 5), at the head or after seq ``at``."""
        who = read_guard(request, stream)
        doc = ledger.state(stream, at)
        if isinstance(who, Table):
            return JSONResponse(views.device_view(doc, who.seat))
        return JSONResponse(doc)

    @app.get("/api/streams/{stream:path}/log", tags=["read"])
    def stream_log(stream: str, request: Request) -> JSONResponse:
        """Every event of the stream, in seq order, with actor and Law."""
        who = read_guard(request, stream)
        envelopes = [e.envelope() for e in ledger.events(stream)]
        if isinstance(who, Table):
            ended = views.board_phase(ledger, stream) == "ended"
            envelopes = [views.device_envelope(e, ended) for e in envelopes]
        return JSONResponse({"stream": stream, "events": envelopes})

    @app.get("/api/streams/{stream:path}/casefile", tags=["read"])
    def stream_casefile(stream: str, request: Request, format: str = "json") -> Response:
        """The appeal case file (``format=json`` or ``html``)."""
        from ledger.casefile import build_casefile, render_html

        who = read_guard(request, stream)
        if isinstance(who, Table):
            raise Refused("the case file is for the director and the committee", 403)
        if format not in ("json", "html"):
            raise BadInput("json or html", field="format", value=format)
        case = build_casefile(ledger, stream)
        if format == "html":
            return HTMLResponse(render_html(case))
        return JSONResponse(case)

    @app.get("/api/events", tags=["read"])
    def events_after(request: Request, after: int = 0, prefix: str = "", limit: int = 500) -> JSONResponse:
        """Events with position > ``after`` in position order (a table token sees its table's only)."""
        who = principal(request)
        if not 1 <= limit <= 1000:
            raise BadInput("1 to 1000", field="limit", value=limit)
        if after < 0:
            raise BadInput("0 or more", field="after", value=after)
        scope = who.prefix if isinstance(who, Table) else ""
        found, scanned = read_after(ledger.store, after,
                                    lambda s: s.startswith(scope) and s.startswith(prefix), limit)
        if isinstance(who, Table):
            found = [views.device_envelope(e) for e in found]
        return JSONResponse({"events": found, "last_position": scanned})

    @app.get("/api/sessions", tags=["read"])
    def sessions_list(request: Request) -> JSONResponse:
        """The playing sessions (people only)."""
        who = principal(request)
        if isinstance(who, Table):
            raise Refused("the sessions list is for the director and the committee", 403)
        return JSONResponse({"sessions": [s.to_json() for s in list_sessions(engine)]})

    @app.get("/api/sessions/{session_id}/results", tags=["read"])
    def session_results(session_id: int, request: Request) -> JSONResponse:
        """Travellers (matchpoints or IMPs, adjusted scores applied) and standings so far."""
        who = principal(request)
        if isinstance(who, Table):
            raise Refused("results are for the director and the committee", 403)
        session = get_session(engine, session_id)
        if session is None:
            raise HttpError(404, "unknown_session", f"no session {session_id}")
        return JSONResponse(views.session_results(ledger, session))

    @app.get("/api/table", tags=["table"])
    def table_now(request: Request) -> JSONResponse:
        """For a table token: its session, table, and the board it plays now (with its state)."""
        who = principal(request)
        if not isinstance(who, Table):
            raise Refused("this is a table terminal's call: present the table token", 403)
        now = views.current_board(ledger, who.session, who.grant.table)
        now["doc"] = views.device_view(now["doc"], who.seat)
        return JSONResponse({"session": f"{who.session.tournament}/{who.session.name}",
                             "table": who.grant.table, "seat": who.seat, "entry": who.session.entry, **now})

    # -- live feed ---------------------------------------------------------

    @app.get("/api/feed", tags=["read"], response_class=StreamingResponse)
    async def live_feed(request: Request, after: int | None = None, prefix: str = "") -> StreamingResponse:
        """Server-sent events: one per event of the log after ``after`` (or
        ``Last-Event-ID``); the event id is the position. A table token sees
        its own table only."""
        who = await run_in_threadpool(principal, request)
        await feed.watch()  # from here on, this process's feed reads the log for this page
        start = after
        if start is None:
            last_id = request.headers.get("last-event-id", "")
            start = int(last_id) if last_id.isdigit() else feed.last
        scope = who.prefix if isinstance(who, Table) else ""
        device = None
        if isinstance(who, Table):
            device = connected.setdefault((who.session.id, who.grant.table), {})
            kind = who.seat or "table"
            device[kind] = device.get(kind, 0) + 1

        def accept(s: str) -> bool:
            return s.startswith(scope) and s.startswith(prefix)

        async def stream() -> AsyncIterator[str]:
            try:
                async for chunk in follow():
                    yield chunk
            finally:
                feed.unwatch()
                if device is not None and isinstance(who, Table):
                    kind = who.seat or "table"
                    device[kind] = max(0, device.get(kind, 1) - 1)

        async def follow() -> AsyncIterator[str]:
            position = start
            yield f"retry: 1000\n: from position {position}\n\n"
            checked = time.monotonic()
            while True:
                if await request.is_disconnected():
                    return
                window = feed.since(position, accept)  # the process's window: no database read
                if window is None:  # a page far behind: catch up from the log itself
                    envelopes, scanned = await run_in_threadpool(read_after, ledger.store, position, accept)
                    found = [brief(e) for e in envelopes]
                else:
                    found, scanned = window
                if isinstance(who, Table) and (found or time.monotonic() - checked > 1):
                    checked = time.monotonic()  # a revoked token's feed ends before it tells more
                    if not await run_in_threadpool(security.token_still_valid, reads, who.token_key):
                        yield security.REVOKED
                        return
                for item in found:
                    yield f"id: {item['position']}\nevent: ledger\ndata: {json.dumps(item)}\n\n"
                position = max(position, scanned)
                if not found or position >= feed.last:
                    if not await feed.wait_beyond(position, timeout=5 if isinstance(who, Table) else 15):
                        yield ": keep-alive\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # -- pages: the table --------------------------------------------------

    def table_context(token: str, mode: str | None = None) -> dict[str, Any]:
        """What a table device shows: the state as the device may have it (views.device_view:
        no hand it may not show is in the page), the bidding box's caller, the undo, the
        claim's answers, and after a board its traveller and the pairs' moves."""
        who = table_from_token(token)
        session, table = who.session, who.grant.table
        now = views.current_board(ledger, session, table)
        full = now["doc"]
        doc = views.device_view(full, who.seat)
        now["doc"] = doc
        previous = None
        boards = [b for _r, _s, b in session.schedule(table)]
        rounds = [r for r, _s, _b in session.schedule(table)]
        if now["board"] in boards and boards.index(now["board"]) > 0 or now["done"]:
            index = boards.index(now["board"]) - 1 if not now["done"] else len(boards) - 1
            before = boards[index]
            prev_doc = views.head_document(ledger, session.stream(table, before))
            if prev_doc is not None:
                moving = []
                if now["done"] or rounds[index] != now["round"]:
                    moving = views.moves(session, table, now["round"]) if not now["done"] else []
                prev_stream = session.stream(table, before)
                prev_claim = prev_doc.get("claim") or None
                prev_answers = {}
                if prev_claim and prev_claim.get("status") == "agreed" and not prev_claim.get("established"):
                    prev_records = [e.envelope() for e in ledger.events(prev_stream)]
                    prev_answers = views.claim_answers(prev_records, prev_claim.get("seq"))
                previous = {"board": before, "doc": views.device_view(prev_doc, who.seat),
                            "traveller": views.traveller(ledger, session, before), "moves": moving,
                            "round": rounds[index], "stream": prev_stream, "claim_answers": prev_answers}
        records = [e.envelope() for e in ledger.events(now["stream"])] if doc else []
        voided = {e["data"].get("about") for e in records if e["type"] == "EntryVoided"}
        calls = [e["data"]["seat"] for e in records if e["type"] == "CallPlaced" and e["seq"] not in voided]
        logged = any(e["type"] in ("CallPlaced", "CardPlayed", "ClaimMade") and e["seq"] not in voided
                     for e in records)
        reported = any(e["type"] == "ResultReported" for e in records)
        entry = "cards" if (session.entry == "cards" or mode == "cards" or logged or who.seat) else "quick"
        undo = views.last_own_entry(records)
        if undo is not None and who.seat and undo.get("actor") != who.actor:
            undo = None  # a seat device undoes only what it logged itself
        claim = (doc or {}).get("claim") or None
        answers = views.claim_answers(records, claim.get("seq") if claim else None)
        started = views.round_started(ledger, session, table, now["round"]) if now["round"] else None
        return {"token": token, "session": session, "table": table, "now": now,
                "previous": previous, "seat": who.seat, "entry": entry, "reported": reported,
                "doc": doc, "grid": auction_grid(doc) if doc else None,
                "caller": views.next_caller(doc, calls) if doc and doc["phase"] == "auction" else None,
                "undo": {"seq": undo["seq"], "words": views.entry_words(undo)} if undo else None,
                "claim_answers": answers, "round_started": started,
                "option_buttons": [o for o in option_buttons(doc) if who.seat in (None, o["seat"])] if doc else [],
                "bids": [f"{level}{s}" for level in range(1, 8) for s in ("C", "D", "H", "S", "NT")]}

    def table_refused(exc: Refused) -> HTMLResponse:
        page = env.get_template("refused.html").render(reason=exc.reason, title="Table")
        return HTMLResponse(page, status_code=exc.status)

    @app.get("/table/{token}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(token: str, mode: str | None = None) -> HTMLResponse:
        try:
            ctx = table_context(token, mode)
        except Refused as exc:
            return table_refused(exc)
        return HTMLResponse(env.get_template("table.html").render(**ctx))

    @app.get("/table/{token}/panel", response_class=HTMLResponse, include_in_schema=False)
    def table_panel(token: str, mode: str | None = None) -> HTMLResponse:
        try:
            ctx = table_context(token, mode)
        except Refused as exc:
            return table_refused(exc)
        return HTMLResponse(env.get_template("table_panel.html").render(**ctx))

    # -- pages: people -----------------------------------------------------

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        who = person_page(request, ("director", "committee"))
        if who is None:
            return RedirectResponse("/login", status_code=303)
        return RedirectResponse("/director" if who.user.role == "director" else "/committee",
                                status_code=303)

    @app.post("/logout", include_in_schema=False)
    async def logout(request: Request) -> Response:
        body = (await request.body())[:4096].decode("utf-8", "replace")
        form = {k: v[0] for k, v in parse_qs(body).items()}
        ws = accounts.web_session(engine, request.cookies.get(COOKIE))
        if ws is not None and form.get("csrf") != ws.csrf:
            raise Refused("missing or wrong CSRF token", 403)
        accounts.close_web_session(engine, request.cookies.get(COOKIE))
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    def need(request: Request, roles: tuple[str, ...]) -> Person | Response:
        who = person_page(request, roles)
        if who is None:
            return RedirectResponse(f"/login?next={quote(str(request.url.path))}", status_code=303)
        return who

    def console_context(who: Person, session_id: int | None) -> dict[str, Any]:
        sessions = list_sessions(engine)
        chosen = None
        if session_id is not None:
            chosen = next((s for s in sessions if s.id == session_id), None)
        if chosen is None:
            open_ones = [s for s in sessions if s.closed_at is None]
            pool = open_ones or sessions
            chosen = pool[-1] if pool else None
        rows = views.console_rows(ledger, chosen) if chosen else []
        for row in rows:
            here = connected.get((chosen.id, row["table"]), {}) if chosen else {}
            row["devices"] = [("the table's device" if k == "table" else f"{SEAT_NAMES[k]}'s phone")
                              for k in ("table", "N", "E", "S", "W") if here.get(k)]
        results = views.session_results(ledger, chosen) if chosen else None
        return {"who": who, "csrf": who.csrf, "sessions": sessions, "session": chosen, "rows": rows,
                "results": results, "title": "Director's console"}

    @app.get("/director", response_class=HTMLResponse, include_in_schema=False)
    def director(request: Request, session: int | None = None) -> Response:
        who = need(request, ("director",))
        if not isinstance(who, Person):
            return who
        return HTMLResponse(env.get_template("director.html").render(**console_context(who, session)))

    @app.get("/director/panel", response_class=HTMLResponse, include_in_schema=False)
    def director_panel(request: Request, session: int | None = None) -> Response:
        who = need(request, ("director",))
        if not isinstance(who, Person):
            return who
        return HTMLResponse(env.get_template("director_panel.html").render(**console_context(who, session)))

    @app.get("/director/board/{stream:path}", response_class=HTMLResponse, include_in_schema=False)
    def director_board(stream: str, request: Request) -> Response:
        who = need(request, ("director", "committee"))
        if not isinstance(who, Person):
            return who
        check_stream_id(stream)
        doc = ledger.state(stream)
        envelopes = [e.envelope() for e in ledger.events(stream)]
        matters = views.matters(ledger, [stream])
        page = env.get_template("board.html").render(
            who=who, csrf=who.csrf, stream=stream, doc=doc, events=envelopes, matters=matters,
            grid=auction_grid(doc), title=f"Board {doc['board']['number']}: {stream}",
            state_text=state_as_cli(doc), deal=views.compass(doc["board"].get("deal")),
            sentence=views.log_sentence, voidable=views.voidable(envelopes),
            questions=views.review_questions(doc, envelopes))
        return HTMLResponse(page)

    @app.get("/director/boards/{tournament}", response_class=HTMLResponse, include_in_schema=False)
    def director_boards(tournament: str, request: Request, session: str | None = None, table: str | None = None,
                        pair: str | None = None, rulings: str | None = None) -> Response:
        """The boards of a tournament, as ``cli.py boards`` lists them (projections.event.board_rows)."""
        who = need(request, ("director",))
        if not isinstance(who, Person):
            return who
        from ledger.register import read_register
        from ledger.tournament import tournament_tables
        from projections.event import board_rows

        filters: dict[str, Any] = {"session": session or None, "table": table or None, "pair": pair or None,
                                   "rulings": bool(rulings)}
        rows = board_rows(tournament_tables(ledger, tournament, with_voided=True), read_register(ledger, tournament),
                          session=session or None, table=table or None, pair=pair or None, has_rulings=bool(rulings))
        return HTMLResponse(env.get_template("boards.html").render(
            who=who, csrf=who.csrf, tournament=tournament, rows=rows, filters=filters, title=f"Boards of {tournament}"))

    @app.get("/committee", response_class=HTMLResponse, include_in_schema=False)
    def committee(request: Request) -> Response:
        who = need(request, ("committee", "director"))
        if not isinstance(who, Person):
            return who
        appeals = []
        for s in list_sessions(engine):
            for stream in ledger.store.streams(prefix=s.prefix):
                doc = views.head_document(ledger, stream)
                if doc is None:
                    continue
                for a in doc.get("appeals") or []:
                    appeals.append({**a, "stream": stream, "board": doc["board"]["number"]})
        page = env.get_template("committee.html").render(who=who, csrf=who.csrf, appeals=appeals,
                                                         title="Appeals committee")
        return HTMLResponse(page)

    @app.get("/committee/casefile/{stream:path}", response_class=HTMLResponse, include_in_schema=False)
    def committee_casefile(stream: str, request: Request) -> Response:
        from ledger.casefile import build_casefile, render_html

        who = need(request, ("committee", "director"))
        if not isinstance(who, Person):
            return who
        check_stream_id(stream)
        return HTMLResponse(render_html(build_casefile(ledger, stream)))

    @app.get("/committee/register", response_class=HTMLResponse, include_in_schema=False)
    def committee_register(request: Request, law: str = "", tournament: str = "", since: str = "",
                           until: str = "", outcome: str = "") -> Response:
        """The appeals register of the store (issue 25, ledger/appeals.py), filtered."""
        from ledger.appeals import OUTCOMES, register

        who = need(request, ("committee", "director"))
        if not isinstance(who, Person):
            return who
        asked = {"law": law.strip(), "tournament": tournament.strip(), "since": since.strip(),
                 "until": until.strip(), "outcome": outcome.strip()}
        bad = [k for k in ("since", "until") if asked[k] and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", asked[k])]
        if asked["outcome"] and asked["outcome"] not in OUTCOMES:
            bad.append("outcome")
        entries = [] if bad else register(ledger, **{k: v or None for k, v in asked.items()})
        page = env.get_template("register.html").render(who=who, csrf=who.csrf, entries=entries, asked=asked,
                                                        bad=bad, outcomes=OUTCOMES, title="Appeals register")
        return HTMLResponse(page, status_code=400 if bad else 200)

    @app.get("/static/live.js", include_in_schema=False)
    def live_js() -> Response:
        return Response((TEMPLATES / "live.js").read_text(encoding="utf-8"),
                        media_type="text/javascript")

    signin.install(app, env=env, engine=engine, secure=secure_cookies, session_cookie=COOKIE)
    security.install(app, secure=secure_cookies, pages=env, error_body=error_body)  # headers, ids, errors

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        # The log's newest position, also while no page follows this process's feed.
        return JSONResponse({"ok": True, "position": await run_in_threadpool(feed.newest)})

    return app


def state_as_cli(doc: dict[str, Any]) -> str:
    """The readable state exactly as ``cli.py state`` prints it (rich), as plain text."""
    from rich.console import Console

    from ledger.render import render_state

    console = Console(record=True, width=110, color_system=None, file=open(os.devnull, "w"))
    try:
        console.print(render_state(doc))
        return console.export_text()
    finally:
        console.file.close()


def _seating(session: Session, table: int, rnd: int | None) -> Any:
    return session.movement[(rnd or 1) - 1][table - 1]


def call_text(call: str) -> str:
    for strain, sign in SUITS.items():
        if call[1:] == strain and call[:1].isdigit():
            return f"{call[0]}{sign}"
    return {"Pass": "Pass", "X": "X", "XX": "XX"}.get(call, call)


def card_text(card: str) -> str:
    return f"{SUITS.get(card[0], card[0])}{'10' if card[1:] == 'T' else card[1:]}"


def auction_grid(doc: dict[str, Any]) -> list[list[str]]:
    """Rows of four cells W N E S, the dealer's first call in its column."""
    order = ["W", "N", "E", "S"]
    dealer = doc["board"]["dealer"]
    cells = [""] * order.index(dealer) + [call_text(a["call"]) for a in doc.get("auction") or []]
    if doc.get("phase") == "auction" and doc.get("turn"):
        cells.append("?")
    return [cells[i:i + 4] + [""] * (4 - len(cells[i:i + 4])) for i in range(0, len(cells), 4)] or [[""] * 4]


def option_buttons(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pending option as a button: seat, option, suit (for require/forbid suit), and
    what it means under the Law that offered it (the families' words, as the terminal's
    state prints them), for players who do not know the option's name."""
    out = []
    for offer in doc.get("pending") or []:
        for option in offer["options"]:
            words = option_words(option, offer["law"])
            if option in ("require_suit", "forbid_suit"):
                for suit in ("S", "H", "D", "C"):
                    out.append({"seat": offer["to"], "option": option, "suit": suit, "law": offer["law"],
                                "label": f"{option.replace('_', ' ')} {SUITS[suit]}", "words": words})
            else:
                out.append({"seat": offer["to"], "option": option, "suit": None, "law": offer["law"],
                            "label": option.replace("_", " "), "words": words})
    return out
