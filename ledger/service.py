"""The ledger's service layer: the one path every append goes through.

``Ledger.append`` parses the facts (notation, fields), checks the roles
(spec section 6), checks them against the folded state, folds them one by one
and lets the ruling engine add its rectifications after each, then writes the
whole batch in one transaction. Nothing is written when any line is refused.

The folded state at a stream's head is kept in process memory (an LRU of
:data:`HEAD_CACHE_SIZE` streams), used only when the head the store reports
under the write lock is the one it was folded to (same seq and hash), so a
head another writer moved is never used. A snapshot of the state is written
in the append's transaction every :data:`SNAPSHOT_EVERY` events and at the
end of a board, not with every append (issue 10); a state is rebuilt from the
last snapshot plus the events after it, never from seq 1 unless there is no
usable snapshot.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
import uuid
from collections import OrderedDict
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

import attrs
import structlog

from ledger import engine, events as ev, limits
from ledger.checks import check_fact, check_finding
from ledger.laws import defective
from ledger.errors import BadInput, ConcurrencyError, IntegrityError, NotAllowed, StreamNotFound
from ledger.hashing import event_hash, first_break
from ledger.slugs import slugify
from ledger.store.base import Actor, Batching, BoardIndexing, EventStore, Snapshot, StoredEvent, StoreTransaction
from ledger.summaries import saved_summary
from projections import snapshot as snapshots
from projections.document import to_document
from projections.state import TableState
from projections.resolve import Recorded, refers_by_id
from projections.table import evolve, fold_log

if TYPE_CHECKING:
    from ledger.groupcommit import GroupCommitter

REFOLDING = (ev.FindingMade, ev.RulingOverridden, ev.EntryVoided, ev.DefectiveTrickFound)
"""Appending one of these refolds the stream (projections.resolve)."""
_REFOLDING_TYPES = frozenset(cls.TYPE for cls in REFOLDING)

SNAPSHOT_EVERY = 50
"""A snapshot is saved with the append that takes the stream this many events past the
last one saved, and with every append that leaves the board ended."""

HEAD_CACHE_SIZE = 1024
"""How many streams' head states a Ledger keeps in memory (least recently used dropped)."""

log = structlog.get_logger("ledger")

STREAM_ID = re.compile(r"^[A-Za-z0-9._/-]{1,200}$")
EVENT_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
ENGINE_NAMESPACE = uuid.UUID("5b0c1a52-7d59-4c1e-9a51-0e3f8f2b6a10")
ENGINE_ACTOR = Actor(ev.SYSTEM, "ruling-engine")

_DEFAULT_ROLE = {"director": ev.DIRECTOR, "board": ev.DIRECTOR, "committee": ev.COMMITTEE}


def utc_now() -> str:
    """``2026-11-25T00:15:07.123456Z``: the UTC time to the microsecond (one per fact
    appended), its date and time of day formatted once per second."""
    micros = time.time_ns() // 1000
    second, fraction = divmod(micros, 1_000_000)
    last = _LAST_SECOND[0]
    if last[0] != second:
        last = _LAST_SECOND[0] = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{last[1]}.{fraction:06d}Z"


_LAST_SECOND: list[tuple[int, str]] = [(-1, "")]
"""The last second :func:`utc_now` formatted (one tuple, replaced whole: safe between threads)."""


def new_event_id() -> str:
    """A random (version 4) UUID in its usual text form, as ``str(uuid.uuid4())`` writes it,
    from 16 random bytes without building a ``UUID`` object (one per fact appended). The
    bytes are the operating system's (``os.urandom``, as ``uuid4`` reads them), taken from a
    pool refilled 4 KB at a time (one system call per 256 ids instead of one per id), per
    thread, and emptied in a forked child (which must not hand out its parent's ids)."""
    pool = _RANDOM
    at = pool.at
    if at >= len(pool.bytes):
        pool.bytes, at = os.urandom(_RANDOM_POOL), 0
    pool.at = at + 16
    h = pool.bytes[at:at + 16].hex()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:]}"


_VARIANT = {d: "89ab"[int(d, 16) & 3] for d in "0123456789abcdef"}
"""RFC 4122 variant bits (10xx) on the first digit of the fourth group."""

_RANDOM_POOL = 4096
"""Bytes of ``os.urandom`` read at a time by :func:`new_event_id` (256 ids)."""


class _RandomPool(threading.local):
    """A thread's random bytes not yet used by :func:`new_event_id`."""

    def __init__(self) -> None:
        self.bytes = b""
        self.at = 0


_RANDOM = _RandomPool()


def _forget_random() -> None:
    """In a forked child: the parent's pool is the parent's (its ids would be handed out twice)."""
    global _RANDOM
    _RANDOM = _RandomPool()


os.register_at_fork(after_in_child=_forget_random)


def engine_event_id(name: str) -> str:
    """``str(uuid.uuid5(ENGINE_NAMESPACE, name))``, without the ``UUID`` object (RFC 4122:
    SHA-1 of the namespace's bytes and the name, version 5, variant 10): the ruling engine's
    event ids, the same on every retry."""
    h = hashlib.sha1(_ENGINE_NAMESPACE_BYTES + name.encode("utf-8")).hexdigest()
    return f"{h[:8]}-{h[8:12]}-5{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:32]}"


_ENGINE_NAMESPACE_BYTES = ENGINE_NAMESPACE.bytes


def _info_logged() -> bool:
    """Whether an info line would be written: False when the configured logger is structlog's
    filtering logger set above INFO (``configure_logging``), which then answers without a
    logger being bound (a bind per append cost several times the append's hashing)."""
    enabled = getattr(structlog.get_config()["wrapper_class"], "is_enabled_for", None)
    if enabled is None:
        return True
    try:
        return bool(enabled(None, logging.INFO))  # the filtering logger's: a function of the level only
    except Exception:  # another logger's, needing an instance: log as before
        return True


@attrs.frozen
class Fact:
    """One parsed input line: the event, who appends it, its id."""

    event: ev.Event
    actor: Actor
    id: str | None
    line: int


@attrs.frozen
class AppendResult:
    stored: tuple[StoredEvent, ...]
    """Every event written by the append, facts and rectifications, in seq order."""
    fact_seqs: tuple[int, ...]
    """The seq of each input fact, in input order (a retried fact answers its stored seq)."""
    replayed: bool = False
    """True when the whole batch was a retry of events already stored (nothing written)."""

    @property
    def seqs(self) -> list[int]:
        return list(self.fact_seqs)


def check_stream_id(stream: object) -> str:
    if isinstance(stream, str) and STREAM_ID.match(stream):
        return stream
    raise BadInput("a stream id is 1 to 200 characters of A-Z a-z 0-9 . _ / -", field="stream",
                   value=stream)


def parse_fact(obj: object, line: int, *, default_role: str | None = None) -> Fact:
    """One JSON Lines object ``{"type": ..., <fields>, "actor"?: ..., "id"?: ...}``."""
    if not isinstance(obj, Mapping):
        raise BadInput("each line must be a JSON object", field="line", value=obj, line=line)
    limits.check_value(obj, line)
    body = dict(obj)
    type_name = body.pop("type", None)
    try:
        cls = ev.event_class(type_name)
    except BadInput as exc:
        raise exc.at_line(line) from None
    actor = _parse_actor(body.pop("actor", None), cls, line, default_role)
    event_id = body.pop("id", None)
    if event_id is not None and not (isinstance(event_id, str) and EVENT_ID.match(event_id)):
        raise BadInput("an event id is 1 to 64 characters of A-Z a-z 0-9 . _ : -", field="id",
                       value=event_id, line=line, event_type=cls.TYPE)
    try:
        event = cls.from_data(body)
    except BadInput as exc:
        raise exc.at_line(line) from None
    if isinstance(event, ev.BoardOpened):
        event = event.completed()
    fact = Fact(event, actor, event_id, line)
    check_role(fact)
    return fact


def check_role(fact: Fact) -> None:
    """Spec section 6: the actor's role must be allowed to append the event's type."""
    cls = type(fact.event)
    if fact.actor.role == ev.SYSTEM:
        raise NotAllowed(ev.SYSTEM, cls.TYPE, f"role 'system' may not append {cls.TYPE}: it is the "
                         "ruling engine's, never given through the command line or a terminal",
                         line=fact.line)
    if fact.actor.role not in cls.ROLES:
        allowed = " or ".join(sorted(cls.ROLES))
        raise NotAllowed(fact.actor.role, cls.TYPE,
                         f"role {fact.actor.role!r} may not append {cls.TYPE} (only {allowed})",
                         line=fact.line)


def _parse_actor(raw: object, cls: type[ev.Event], line: int, default_role: str | None) -> Actor:
    if raw is None:
        role = default_role or _DEFAULT_ROLE.get(cls.FAMILY, ev.TABLE)
        if role not in cls.ROLES and default_role is None:
            role = sorted(cls.ROLES)[0]
        return Actor(role, None)
    if not isinstance(raw, Mapping) or set(raw) - {"role", "name"}:
        raise BadInput("actor must be an object {\"role\": ..., \"name\": ...}", field="actor",
                       value=raw, line=line, event_type=cls.TYPE)
    given = raw.get("role")
    if not isinstance(given, str) or given not in ev.ROLES:
        raise BadInput(f"unknown role (expected one of {', '.join(ev.ROLES)})", field="actor.role",
                       value=given, line=line, event_type=cls.TYPE)
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise BadInput("actor.name must be a string", field="actor.name", value=name, line=line,
                       event_type=cls.TYPE)
    return Actor(given, name)


def json_lines(text: str) -> list[tuple[int, Mapping[str, Any]]]:
    """(line number, object) for each JSON line; blank lines and ``#`` lines skipped."""
    out = []
    for number, raw in enumerate(limits.split_lines(text), start=1):
        stripped = raw.strip(limits.JSON_SPACE)  # JSON's whitespace only: U+2028 is a character
        if not stripped or stripped.startswith("#"):
            continue
        obj = limits.load_line(stripped, number)
        if not isinstance(obj, Mapping):
            raise BadInput("each line must be a JSON object", field="line", value=obj, line=number)
        out.append((number, obj))
    return out


def parse_jsonl(text: str, *, default_role: str | None = None) -> list[Fact]:
    """Parse JSON Lines input into facts (see :func:`json_lines`)."""
    return [parse_fact(obj, number, default_role=default_role) for number, obj in json_lines(text)]


def decode(stored: StoredEvent) -> ev.Event:
    """The typed event of a stored envelope (upcast to the current version). An event read
    from a row is looked up first in the decoded-event cache (issue 28, item 6), keyed by its
    type, version and the very text of its ``data`` column: the same text decodes to an equal
    event (frozen), whatever the stream, so a replayed stream, and a card or a call seen on
    another board, skip the parse. At most :data:`DECODED_CACHE_SIZE` events are kept; the
    oldest go first."""
    text = stored.data_json
    if text is None:
        return ev.parse_stored(stored.type, stored.v, stored.data)
    key = (stored.type, stored.v, text)
    event = _DECODED.get(key)
    if event is None:
        event = ev.parse_stored(stored.type, stored.v, stored.data)
        _remember_decoded(key, event)
    return event


DECODED_CACHE_SIZE = 4096
"""How many decoded events :func:`decode` keeps (0: none). A board's events are mostly
calls and cards, a few hundred distinct texts in all, so a few thousand cover a whole
tournament's replay."""

_DECODED: dict[tuple[str, int, str], ev.Event] = {}
_DECODED_LOCK = threading.Lock()


def _remember_decoded(key: tuple[str, int, str], event: ev.Event) -> None:
    """Keep ``event`` under ``key``, the oldest entries dropped past :data:`DECODED_CACHE_SIZE`
    (insertion order: a look-up, the common case, takes no lock)."""
    with _DECODED_LOCK:
        while _DECODED and len(_DECODED) >= DECODED_CACHE_SIZE:
            del _DECODED[next(iter(_DECODED))]
        if DECODED_CACHE_SIZE > 0:
            _DECODED[key] = event


_GROUP_START = threading.Lock()
"""Held while a ledger's group committer is started (``Ledger.grouped``)."""


class Ledger:
    """The ledger over one event store."""

    def __init__(self, store: EventStore, *, clock: Callable[[], str] = utc_now) -> None:
        self.store = store
        self.clock = clock
        self._cache: OrderedDict[str, _Head] = OrderedDict()

    @classmethod
    def open(cls, url: str, *, create: bool = False, schema: str | None = None,
             clock: Callable[[], str] = utc_now, busy_timeout: float | None = None) -> "Ledger":
        from ledger.store.sql import open_store  # the adapter: only here is SQLAlchemy loaded

        return cls(open_store(url, schema=schema, create=create, busy_timeout=busy_timeout),
                   clock=clock)

    def close(self) -> None:
        group = self.__dict__.pop("_group", None)
        if group is not None:
            group.close()
        self.store.close()

    def grouped(self) -> GroupCommitter:
        """This ledger's group committer (issue 28, item 1), started at the first call: its
        ``append`` is :meth:`append` committed with the appends of other threads queued at
        the same time, answered once durable. Closed with the ledger."""
        group = self.__dict__.get("_group")
        if group is None:
            from ledger.groupcommit import GroupCommitter

            with _GROUP_START:
                group = self.__dict__.get("_group")
                if group is None:
                    group = self.__dict__["_group"] = GroupCommitter(self)
        return group

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------

    def append(self, stream: str, facts: Sequence[Fact | Mapping[str, Any]],
               expected_seq: int | None = None, *,
               check: Callable[[TableState], None] | None = None) -> AppendResult:
        """Append a batch atomically. ``facts`` are parsed :class:`Fact` or
        JSON-like dicts. ``expected_seq``: the seq the writer last saw (None:
        no check). ``check(state)``: called with the folded state of the batch
        before anything is written; an exception it raises refuses the batch.
        Raises BadInput, NotAllowed, ConcurrencyError."""
        check_stream_id(stream)
        parsed = [f if isinstance(f, Fact) else parse_fact(f, i) for i, f in enumerate(facts, start=1)]
        if not parsed:
            raise BadInput("nothing to append: the input has no event", field="input", value="")
        with self.store.transaction(stream) as tx:
            head_seq, head_hash = tx.head()
            retried = self._retried(tx, stream, parsed, empty=head_seq == 0)
            if retried is not None:
                log.info("append_retried", stream=stream, seqs=retried)
                return AppendResult((), tuple(retried), replayed=True)
            if expected_seq is not None and expected_seq != head_seq:
                raise ConcurrencyError(stream, expected_seq, head_seq)
            head = self._head_state(tx, stream, head_seq, head_hash)
            state = head.state
            written, fact_seqs, state = self._fold_batch(stream, parsed, state, head_seq, head_hash, tx)
            if check is not None and state is not None:
                check(state)
            try:
                stored = tx.insert(written)
            except ConcurrencyError:
                # A writer the store's locks did not hold back stored first: if
                # it stored these very ids, this append is its retry (a no-op).
                retried = self._retried(tx, stream, parsed)
                if retried is None:
                    raise
                log.info("append_retried", stream=stream, seqs=retried, raced=True)
                return AppendResult((), tuple(retried), replayed=True)
            assert state is not None
            if head_seq == 0 and stored[0].type == ev.BoardOpened.TYPE:
                self._index_board(tx, stored[0])
            snapshot_seq = head.snapshot_seq
            if state.phase == "ended" or state.seq - snapshot_seq >= SNAPSHOT_EVERY:
                tx.save_snapshot(Snapshot(stream, state.seq, state.head, snapshots.VERSION,
                                          snapshots.dump(state), saved_summary(stream, state)))
                snapshot_seq = state.seq
        self._remember(stream, _Head(state.seq, state.head, state, snapshot_seq))
        if _info_logged():
            if stored[0].position is None:  # staged in a group (ledger.groupcommit): its positions are
                # given by the group's INSERT, after this line (the live service's "live_append" has them)
                log.info("appended", stream=stream, seqs=[e.seq for e in stored], staged=True)
            else:
                log.info("appended", stream=stream, seqs=[e.seq for e in stored],
                         positions=[stored[0].position, stored[-1].position])
        return AppendResult(tuple(stored), tuple(fact_seqs))

    @staticmethod
    def _index_board(tx: StoreTransaction, opened: StoredEvent) -> None:
        """The board's tournament in the store's index (issue 28, item 4), in the append's
        own transaction: ``ledger.tournament`` finds a tournament's boards by it."""
        if isinstance(tx, BoardIndexing):
            tournament = str(opened.data.get("tournament"))
            tx.index_board(tournament, slugify(tournament))

    def _retried(self, tx: StoreTransaction, stream: str, facts: Sequence[Fact], *,
                 empty: bool = False) -> list[int] | None:
        """Idempotent ids: a batch whose ids are all stored with the same
        content is a retry (answer the stored seqs). Same id, other content:
        refused. A batch mixing stored and new ids: refused. ``empty``: the
        stream has nothing stored (its head read under the stream's lock), so
        no id can be found there: a board's first append skips the look-up."""
        ids = [f.id for f in facts if f.id is not None]
        if not ids:
            return None
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise BadInput("the same id twice in one batch", field="id", value=dup)
        if empty:
            return None
        found = tx.find_ids(ids)
        if not found:
            return None
        for fact in facts:
            stored = found.get(fact.id) if fact.id else None
            if stored is None:
                raise BadInput("this batch mixes events already stored (a retry) with new ones; "
                               "send the new events in a batch of their own",
                               field="id", value=fact.id, line=fact.line)
            if (stored.type, stored.data, stored.actor) != (fact.event.TYPE, fact.event.to_data(), fact.actor):
                raise BadInput(f"id already stored at seq {stored.seq} with other content",
                               field="id", value=fact.id, line=fact.line, event_type=fact.event.TYPE)
        return [found[f.id].seq for f in facts if f.id]

    def _remember(self, stream: str, head: "_Head") -> None:
        self._cache[stream] = head
        self._cache.move_to_end(stream)
        while len(self._cache) > HEAD_CACHE_SIZE:
            self._cache.popitem(last=False)

    def _head_state(self, tx: StoreTransaction, stream: str, head_seq: int,
                    head_hash: str) -> "_Head":
        """The state at the head the store reported (under the write lock): the
        cached one only when folded to that very head, else the last snapshot
        plus the events after it, else a refold from seq 1."""
        if head_seq == 0:
            return _Head(0, head_hash, None, 0)
        cached = self._cache.get(stream)
        if cached is not None and cached.seq == head_seq and cached.hash == head_hash:
            self._cache.move_to_end(stream)
            return cached
        snap = tx.latest_snapshot()
        if snap is not None and snap.version == snapshots.VERSION and snap.seq <= head_seq:
            tail = tx.read(snap.seq) if snap.seq < head_seq else []
            state = state_after(stream, snap, tail)
            if state is not None and state.seq == head_seq and state.head == head_hash:
                return _Head(head_seq, head_hash, state, snap.seq)
        log.info("snapshot_refold", stream=stream, seq=head_seq)
        return _Head(head_seq, head_hash, fold_events(tx.read()), 0)

    def _fold_batch(self, stream: str, facts: Sequence[Fact], state: TableState | None,
                    seq: int, prev: str, tx: StoreTransaction) -> tuple[list[StoredEvent], list[int], TableState | None]:
        written: list[StoredEvent] = []
        fact_seqs: list[int] = []
        stored_history: list[Recorded] | None = None

        def history() -> list[Recorded]:
            """The stream's events as the fold sees them: stored, then this batch."""
            nonlocal stored_history
            if stored_history is None:
                stored_history = [recorded(e) for e in tx.read()] if seq_at_start else []
            return stored_history + [recorded(e) for e in written]

        def append_one(event: ev.Event, actor: Actor, event_id: str, at: str,
                       causes: tuple[int, ...] = (), law: str | None = None) -> StoredEvent:
            nonlocal seq, prev, state
            seq += 1
            stored = self._stored(stream, seq, event_id, event, actor, at, causes, law, prev)
            written.append(stored)
            prev = stored.hash
            if isinstance(event, REFOLDING) or refers_by_id(event):  # an id `about` is read as its seq
                state = fold_log(stream, history())
            else:
                state = evolve(state, stream, recorded(stored, event))
            return stored

        seq_at_start = seq
        for fact in facts:
            check_role(fact)  # the one place every append goes through (facts may come pre-parsed)
            try:
                check_fact(state, fact.event)
                self._check_refs(fact.event, seq, history)
                if isinstance(fact.event, ev.DefectiveTrickFound):  # spec 1.3: checked on the stream read again
                    assert state is not None
                    found = Recorded(seq + 1, "", fact.id or "#found", fact.actor.role, fact.event)
                    defective.check_found(state, fold_log(stream, history() + [found]), fact.event)
                if isinstance(fact.event, ev.EntryVoided):
                    try:
                        check_void(fact.event, fact.actor.role, history())
                    except NotAllowed as exc:
                        raise NotAllowed(exc.role, exc.event_type, exc.reason, line=fact.line) from None
            except BadInput as exc:
                raise exc.at_line(fact.line) from None
            at = self.clock()
            stored = append_one(fact.event, fact.actor, fact.id or new_event_id(), at)
            fact_seqs.append(stored.seq)
            director_spoke = isinstance(fact.event, REFOLDING)
            for _ in range(engine.MAX_ROUNDS):
                assert state is not None
                emit, overrides = engine.reconcile(state, may_override=director_spoke)
                if not emit and not overrides:
                    break
                for cancelled_seq in overrides:
                    rid = engine_event_id(f"{stream}#{seq + 1}#RulingOverridden")
                    text = VOID_OVERRIDE_TEXT if isinstance(fact.event, ev.EntryVoided) else engine.override_text(director_spoke)
                    append_one(ev.RulingOverridden(about=cancelled_seq, text=text),
                               ENGINE_ACTOR, rid, at, (stored.seq, cancelled_seq), state.cite("82C"))
                for p in emit:
                    rid = engine_event_id(f"{stream}#{seq + 1}#{p.event.TYPE}")
                    append_one(p.event, ENGINE_ACTOR, rid, at, p.causes, p.law)
            else:  # pragma: no cover - a Law module that never settles is a bug
                raise RuntimeError(f"the ruling engine did not settle after seq {seq}")
        return written, fact_seqs, state

    def _check_refs(self, event: ev.Event, seq: int, history: Callable[[], list[Recorded]]) -> None:
        """``about`` references must name an event already in the stream; a
        finding must be about a field that event has."""
        about = getattr(event, "about", None)
        if about is None or isinstance(event, ev.DummyWarnedDeclarer):
            return
        if isinstance(about, int) and about > seq:
            raise BadInput(f"no event at seq {about} in this stream (it is at seq {seq})",
                           field="about", value=about, event_type=event.TYPE)
        if not isinstance(about, int) or isinstance(event, ev.FindingMade):
            records = history()
            target = next((r for r in records if (r.seq if isinstance(about, int) else r.id) == about), None)
            if target is None:
                raise BadInput("no event with that id in this stream", field="about", value=about,
                               event_type=event.TYPE)
            if isinstance(event, ev.FindingMade):
                check_finding(event, target.event)
                _check_change_of_call_finding(event, target, records)

    @staticmethod
    def _stored(stream: str, seq: int, event_id: str, event: ev.Event, actor: Actor, at: str,
                causes: tuple[int, ...], law: str | None, prev: str) -> StoredEvent:
        data = event.to_data()
        digest = event_hash(stream, seq, event_id, event.TYPE, event.VERSION, data, actor.to_json(),
                            at, causes, law, prev)
        return StoredEvent(stream=stream, seq=seq, id=event_id, type=event.TYPE, v=event.VERSION,
                           data=data, actor=actor, at=at, causes=causes, law=law, prev=prev,
                           hash=digest)

    def batch(self, streams: Iterable[str] | None = None, *, deferred: bool = False
              ) -> AbstractContextManager[Any]:
        """A context in which many appends share one store transaction (an import):
        each append stays atomic on its own (a refused one writes nothing), and
        all are committed together at the end.  A store without batches gives a
        no-op context (each append commits as usual). ``streams``: every stream the
        batch will append to (PostgreSQL then takes their locks first, in one fixed
        order: no deadlock with another batch; see ``SqlEventStore.batch``). ``deferred``
        (group commit): the appends' rows are written together when the batch ends; the
        context gives the positions (``SqlEventStore.batch``)."""
        from contextlib import nullcontext

        if not isinstance(self.store, Batching):
            return nullcontext()
        batch = self.store.batch
        if streams is None:
            return batch()
        return batch(list(streams), deferred=True) if deferred else batch(list(streams))

    # -- reading -----------------------------------------------------------

    def events(self, stream: str, upto_seq: int | None = None) -> list[StoredEvent]:
        check_stream_id(stream)
        stored = self.store.read(stream, upto_seq)
        if not stored:
            raise StreamNotFound(stream)
        return stored

    def table_state(self, stream: str, at: int | None = None) -> tuple[TableState, bool]:
        """The folded state after seq ``at`` (default: the head), and whether
        the hash chain up to there verified. Every event up to ``at`` is read
        and its hash checked; the state is the cached head's, or the last
        snapshot's plus the events after it (no refold from seq 1 unless no
        usable snapshot is there)."""
        state, verified, _ = self._table_state(stream, at)
        return state, verified

    def _table_state(self, stream: str, at: int | None) -> tuple[TableState, bool, list[StoredEvent]]:
        stored = self.events(stream, at)
        if at is not None and stored[-1].seq < at:
            raise BadInput(f"the stream ends at seq {stored[-1].seq}", field="at", value=at)
        verified = chain_ok(stored)
        state = self._state_of(stream, stored)
        return state, verified, stored

    def _state_of(self, stream: str, stored: Sequence[StoredEvent]) -> TableState:
        """The state after the last of ``stored`` (the stream's events from seq 1)."""
        last = stored[-1]
        cached = self._cache.get(stream)
        if cached is not None and cached.state is not None and cached.seq == last.seq \
                and cached.hash == last.hash:
            return cached.state
        snap = self.store.latest_snapshot(stream)
        if snap is not None and snap.version == snapshots.VERSION and 0 < snap.seq <= last.seq \
                and stored[snap.seq - 1].hash == snap.hash:
            state = state_after(stream, snap, stored[snap.seq:])
            if state is not None:
                return state
        state = fold_events(stored)
        if state is None:
            raise not_a_board(stream)
        return state

    def head_state(self, stream: str) -> TableState:
        """The folded state at the stream's head, cheaply: the cached head, or the
        last snapshot plus the events after it (the chain is not verified here;
        :meth:`table_state` does). Raises StreamNotFound."""
        check_stream_id(stream)
        cached = self._cache.get(stream)
        heads = self.store.heads(stream) if cached is not None else []
        if cached is not None and cached.state is not None and heads \
                and (heads[0].seq, heads[0].hash) == (cached.seq, cached.hash):
            return cached.state
        snap = self.store.latest_snapshot(stream)
        if snap is not None and snap.version == snapshots.VERSION:
            state = state_after(stream, snap, self.store.read_after(stream, snap.seq))
            if state is not None:
                return state
        state = fold_events(self.events(stream))
        if state is None:
            raise not_a_board(stream)
        return state

    def state(self, stream: str, at: int | None = None) -> dict[str, Any]:
        """The state document of spec section 5 (voided entries say who voided them and when)."""
        state, verified, stored = self._table_state(stream, at)
        doc = to_document(state, verified=verified)
        if doc.get("voided"):
            by_seq = {e.seq: e for e in stored}
            for entry in doc["voided"]:
                target, void = by_seq.get(entry["seq"]), by_seq.get(entry["by_seq"])
                entry["type"] = target.type if target else None
                entry["by"] = void.actor.to_json() if void else None
                entry["at"] = void.at if void else None
        return doc

    def verify(self, stream: str | None = None) -> list[IntegrityError]:
        """Check every stream (or one) and what surrounds the chains; every break
        found, by stream and seq (``ledger.audit.verify``). Never raises on damaged rows."""
        from ledger.audit.verify import verify_store

        if stream:
            check_stream_id(stream)
        return list(verify_store(self.store, stream).problems)

    def rebuild(self, streams: Iterable[str] | None = None,
                progress: Callable[[str], None] | None = None, *, jobs: int = 1,
                url: str | None = None) -> dict[str, int]:
        """Refold streams from zero and replace their snapshots. Returns counts
        of streams rebuilt and of snapshots that differed from the refold.
        ``jobs`` > 1 (with the database's ``url``): the folds run in that many worker
        processes (``ledger.parallel``), this process writes the snapshots; the result is
        the serial one's."""
        names = list(streams) if streams is not None else self.store.streams()
        if jobs > 1 and url is not None and len(names) > 1:
            from ledger.parallel import refold_in_workers

            refolded: Iterable[tuple[str, Snapshot | None, bool]] = refold_in_workers(
                refold_streams, url, names, jobs)
        else:
            refolded = ((name, *self.refold(name)) for name in names)
        differed = 0
        for name, snapshot, changed in refolded:
            differed += changed
            if snapshot is not None:
                self.store.save_snapshot(snapshot)
                self._cache.pop(name, None)
            if progress:
                progress(name)
        return {"streams": len(names), "differed": differed}

    def refold(self, name: str) -> tuple[Snapshot | None, bool]:
        """A stream refolded from zero: its fresh snapshot (None for a stream that folds to
        nothing) and whether the snapshot stored now differs from the refold."""
        stored = self.store.read(name)
        state = fold_events(stored)
        if state is None:
            return None, False
        fresh = snapshots.dump(state)
        old = self.store.latest_snapshot(name)
        if old is None:
            # none is expected before the first SNAPSHOT_EVERY events of a board in play
            changed = state.seq >= SNAPSHOT_EVERY or state.phase == "ended"
        else:
            changed = old.version != snapshots.VERSION or not 0 < old.seq <= len(stored) \
                or snapshots.load(old.state) != (state if old.seq == state.seq else fold_events(stored[:old.seq]))
        return Snapshot(name, state.seq, state.head, snapshots.VERSION, fresh, saved_summary(name, state)), bool(changed)


def refold_streams(url: str, names: list[str]) -> list[tuple[str, Snapshot | None, bool]]:
    """A rebuild worker's task (``ledger.parallel``): ``names`` refolded on a ledger of its own."""
    import logging

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    with Ledger.open(url) as ledger:
        return [(name, *ledger.refold(name)) for name in names]


VOID_OVERRIDE_TEXT = "no longer prescribed by the Laws: the entry it was read from is voided as an entry error"

UNVOIDABLE = (ev.BoardOpened, ev.FindingMade, ev.RulingOverridden, ev.EntryVoided)
"""Entries an EntryVoided may not void: the board itself, and the director's word on the
log (a finding is replaced by another finding, an override by a ruling)."""


def check_void(event: ev.EntryVoided, role: str, records: Sequence[Recorded]) -> None:
    """An entry error corrected (``EntryVoided``): refused (BadInput, or NotAllowed for the
    table's limits) unless the entry was logged by a person, may be voided, is not voided yet,
    and, for the table, is its own last entry with nothing but the engine's events after it."""
    target = next((r for r in records if (r.seq if isinstance(event.about, int) else r.id) == event.about), None)
    if target is None:
        raise BadInput("no event with that seq or id in this stream", field="about", value=event.about,
                       event_type=event.TYPE)
    if target.role == ev.SYSTEM:
        raise BadInput(f"seq {target.seq} ({target.event.TYPE}) is the ruling engine's: a director "
                       "cancels a ruling with RulingOverridden, not EntryVoided",
                       field="about", value=event.about, event_type=event.TYPE)
    if isinstance(target.event, UNVOIDABLE):
        hint = (": a board opened by mistake is voided whole with BoardVoided (docs/director.md)"
                if isinstance(target.event, ev.BoardOpened) else "")
        raise BadInput(f"seq {target.seq} is a {target.event.TYPE}, which cannot be voided{hint}",
                       field="about", value=event.about, event_type=event.TYPE)
    ids = {r.id: r.seq for r in records}
    for r in records:
        if isinstance(r.event, (ev.EntryVoided, ev.RulingOverridden)):
            ref = r.event.about
            if (ref if isinstance(ref, int) else ids.get(ref)) == target.seq:
                raise BadInput(f"seq {target.seq} is already voided or overridden (seq {r.seq})",
                               field="about", value=event.about, event_type=event.TYPE)
    if role == ev.TABLE:
        later = [r for r in records if r.seq > target.seq and r.role != ev.SYSTEM]
        if target.role != ev.TABLE or later:
            raise NotAllowed(role, event.TYPE,
                             f"the table may void only its own last entry; seq {target.seq} "
                             + ("was logged by the " + target.role if target.role != ev.TABLE
                                else f"has seq {later[0].seq} ({later[0].event.TYPE}) after it")
                             + ": ask the director")


@attrs.frozen
class _Head:
    """A stream's head as last folded: (seq, hash), the state there, and the seq
    of the last snapshot saved (0: none)."""

    seq: int
    hash: str
    state: TableState | None
    snapshot_seq: int


def state_after(stream: str, snap: Snapshot, tail: Sequence[StoredEvent]) -> TableState | None:
    """The state of ``snap`` folded on with ``tail`` (the events right after it), or
    None when they do not follow it (a break: the caller refolds) or when one of
    them makes the fold look back (a finding, an override, a void: refold)."""
    if tail and (tail[0].seq != snap.seq + 1 or tail[0].prev != snap.hash):
        return None
    if any(e.type in _REFOLDING_TYPES or isinstance(e.data.get("about"), str) for e in tail):
        return None
    state: TableState | None = snapshots.load(snap.state)
    if state is None or state.seq != snap.seq or state.head != snap.hash:
        return None
    for e in tail:
        state = evolve(state, stream, recorded(e))
    return state


def recorded(stored: StoredEvent, event: ev.Event | None = None) -> Recorded:
    return Recorded(stored.seq, stored.hash, stored.id, stored.actor.role,
                    event if event is not None else decode(stored), stored.law)


def fold_events(stored: Iterable[StoredEvent]) -> TableState | None:
    """The state after the last of ``stored`` (one stream, from seq 1); None for an empty
    stream or one that is not a board's (a tournament's register, ledger.register)."""
    stored = list(stored)
    if not stored or stored[0].type != "BoardOpened":
        return None
    return fold_log(stored[0].stream, [recorded(e) for e in stored])


def not_a_board(stream: str) -> BadInput:
    """A stream that is not a board's (a tournament's register): it has no table state."""
    return BadInput("not a board's stream (a tournament's register: read it with `log` or `players`)",
                    field="stream", value=stream)


def chain_ok(stored: Sequence[StoredEvent]) -> bool:
    return first_break(stored) is None


LAW_25_FIELDS = ("unintended", "without_pause", "mi_influenced")


def _check_change_of_call_finding(finding: ev.FindingMade, target: Recorded,
                                  records: Sequence[Recorded]) -> None:
    """Law 25's fields on a ``CallPlaced`` only where it reads as a change of call: the
    player who made the last call calls again (spec 1.2, 9.B; ledger.laws.rotation)."""
    if not isinstance(target.event, ev.CallPlaced) or finding.field not in LAW_25_FIELDS:
        return
    before = [r.event for r in records if r.seq < target.seq and isinstance(r.event, ev.CallPlaced)]
    if not before or before[-1].seat is not target.event.seat:
        raise BadInput(f"CallPlaced has no judgment field {finding.field!r} unless it changes the caller's "
                       "last call (a call at his LHO's turn, Law 25)", field="field", value=finding.field,
                       event_type=finding.TYPE)
