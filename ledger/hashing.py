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


def canonical_json(obj: Any) -> str:
    """Keys sorted, no spaces, non-ASCII kept as UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(stream: str, seq: int, id: str, type: str, v: int, data: dict[str, Any],
               actor: dict[str, Any], at: str, causes: Iterable[int], law: str | None,
               prev: str) -> str:
    body = {
        "stream": stream, "seq": seq, "id": id, "type": type, "v": v, "data": data,
        "actor": actor, "at": at, "causes": list(causes), "law": law, "prev": prev,
    }
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


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
