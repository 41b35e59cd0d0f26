"""The SHA-256 hash chain of spec section 2.

``hash`` = SHA-256 of the canonical JSON (keys sorted, no spaces, UTF-8) of
``{stream, seq, id, type, v, data, actor, at, causes, law, prev}``; ``prev``
is the previous event's hash in the stream, 64 zeros for the first.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

from ledger.errors import IntegrityError
from ledger.store.base import GENESIS, StoredEvent


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_encode = _CANONICAL.encode
_string = json.encoder.encode_basestring  # a str as canonical_json writes it (ensure_ascii=False)


def canonical_json(obj: Any) -> str:
    """Keys sorted, no spaces, non-ASCII kept as UTF-8."""
    return _encode(obj)  # one encoder, built once: json.dumps would build one per call


def event_hash(stream: str, seq: int, id: str, type: str, v: int, data: dict[str, Any],
               actor: dict[str, Any], at: str, causes: Iterable[int], law: str | None,
               prev: str) -> str:
    causes = list(causes)
    text = _envelope_json(stream, seq, id, type, v, data, actor, at, causes, law, prev)
    if text is None:  # a value of another type (a damaged row being verified): the general encoder
        text = _encode({"stream": stream, "seq": seq, "id": id, "type": type, "v": v, "data": data,
                        "actor": actor, "at": at, "causes": causes, "law": law, "prev": prev})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _envelope_json(stream: Any, seq: Any, id_: Any, type_: Any, v: Any, data: Any, actor: Any, at: Any,
                   causes: list[Any], law: Any, prev: Any) -> str | None:
    """The canonical JSON of the hashed envelope written key by key (the keys in sorted order,
    each value as :func:`canonical_json` writes it): the same text, without sorting the
    envelope's keys or encoding its scalars one by one through the encoder. None when a value
    is not of the type the fast path knows (the caller encodes the whole envelope then)."""
    if not (type(stream) is str and type(id_) is str and type(type_) is str and type(at) is str
            and type(prev) is str and type(seq) is int and type(v) is int
            and (law is None or type(law) is str) and type(actor) is dict and type(data) is dict):
        return None
    for c in causes:
        if type(c) is not int:
            return None
    return "".join((
        '{"actor":', _encode(actor), ',"at":', _string(at),
        ',"causes":[', ",".join(map(repr, causes)), '],"data":', _encode(data),
        ',"id":', _string(id_), ',"law":', "null" if law is None else _string(law),
        ',"prev":', _string(prev), ',"seq":', repr(seq), ',"stream":', _string(stream),
        ',"type":', _string(type_), ',"v":', repr(v), "}",
    ))


def hash_of(event: StoredEvent) -> str:
    """The hash ``event`` should carry, recomputed from its other fields."""
    return event_hash(event.stream, event.seq, event.id, event.type, event.v, event.data,
                      event.actor.to_json(), event.at, event.causes, event.law, event.prev)


def first_break(events: Iterable[StoredEvent]) -> IntegrityError | None:
    """The first place where one stream's events (in seq order) do not match
    their hash chain, or None when the whole chain verifies."""
    prev, expected = GENESIS, 1
    for ev in events:
        if ev.seq != expected:
            return IntegrityError(ev.stream, expected, f"seq {expected} is missing")
        if ev.prev != prev:
            return IntegrityError(ev.stream, ev.seq, "prev does not match the previous event's hash")
        if hash_of(ev) != ev.hash:
            return IntegrityError(ev.stream, ev.seq, "hash does not match the event's content")
        prev, expected = ev.hash, expected + 1
    return None


def verify_chain(events: Iterable[StoredEvent]) -> str:
    """Check one stream's events in seq order; return the head hash.

    Raises :class:`IntegrityError` naming the first seq that does not match.
    """
    events = list(events)
    problem = first_break(events)
    if problem is not None:
        raise problem
    return events[-1].hash if events else GENESIS
