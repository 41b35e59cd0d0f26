"""The ledger's own ``log --json`` output sent back to ``append`` (a retry).

An envelope line (``stream``, ``seq``, ``data``, ``hash``...: what ``log --json``
prints) is an event the ledger already wrote: it is accepted only as a retry, a
no-op, when the stream holds an event with that id whose envelope is exactly
the line. Otherwise it is refused naming the line and the field (``id`` when no
such event is stored, the first field that differs when one is), because the
ledger alone assigns seqs, times, hashes and the engine's events. Fact lines
given with envelope lines are appended as usual.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ledger.errors import BadInput
from ledger.store.base import StoreReader

ENVELOPE_KEYS = frozenset({"stream", "seq", "data", "hash"})
"""Keys that make a line an envelope (a fact never has them all)."""


def is_envelope(obj: Mapping[str, Any]) -> bool:
    return ENVELOPE_KEYS <= set(obj)


def split_envelopes(store: StoreReader, stream: str, lines: Sequence[tuple[int, Mapping[str, Any]]]
                    ) -> tuple[list[tuple[int, Mapping[str, Any]]], list[int]]:
    """(the fact lines, the seqs of the envelope lines, each checked as a retry)."""
    facts: list[tuple[int, Mapping[str, Any]]] = []
    seqs: list[int] = []
    stored: dict[str, dict[str, Any]] | None = None
    for number, obj in lines:
        if not is_envelope(obj):
            facts.append((number, obj))
            continue
        if obj.get("stream") != stream:
            raise BadInput(f"this envelope is of another stream; it can be sent back only to its own "
                           f"({stream!r} was given)", field="stream", value=obj.get("stream"), line=number)
        if stored is None:
            stored = {e.id: e.envelope() for e in store.read(stream)}
        ident = obj.get("id")
        # an id that is not a string names no stored event (and a list id cannot key the dict)
        found = stored.get(ident) if isinstance(ident, str) else None
        if found is None:
            raise BadInput("an envelope of `log --json` is accepted only as a retry of an event the "
                           "stream holds, and no event with this id is stored; send the fact itself "
                           "(type, its fields, actor, id)", field="id", value=obj.get("id"), line=number)
        if dict(obj) != found:
            field = next((k for k in sorted(set(obj) | set(found)) if obj.get(k) != found.get(k)), "line")
            raise BadInput("the stream holds an event with this id whose envelope differs: the log "
                           "is never rewritten", field=field, value=obj.get(field), line=number)
        seqs.append(int(found["seq"]))
    return facts, seqs
