"""Canonical JSON and the SHA-256 hash chain of spec section 2.

``hash`` = SHA-256 of the canonical JSON (keys sorted, no spaces, UTF-8) of
``{stream, seq, id, type, v, data, actor, at, causes, law, prev}``; ``prev``
is the previous event's hash in the stream, 64 zeros for the first.

The canonical text is, by definition, what the standard library writes
(``json`` with ``sort_keys=True, separators=(",", ":"), ensure_ascii=False``):
every event already stored was hashed over it. orjson (issue 28, item 6) writes
the same bytes for most values at a tenth of the cost, and is used only where
it provably does (:func:`orjson_writes_alike`); everything else, and everything
when orjson is not installed, goes through the standard library. Reading back
(:func:`read_json`) likewise: orjson where it reads what ``json.loads`` reads.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

from ledger.errors import IntegrityError
from ledger.store.base import GENESIS, StoredEvent

try:  # a main dependency (pyproject.toml); the standard library alone when it is absent
    import orjson
except ImportError:  # pragma: no cover - the fallback is tested by hiding the module (tests/test_canonical_json.py)
    orjson = None  # type: ignore[assignment]

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_encode = _CANONICAL.encode
_string = json.encoder.encode_basestring  # a str as canonical_json writes it (ensure_ascii=False)

FAST = orjson is not None
"""Whether the orjson fast path is in use (False: the standard library writes and reads all)."""


def orjson_writes_alike(obj: Any) -> bool:
    """Whether orjson (``OPT_SORT_KEYS``, no other option) writes ``obj`` byte for byte as
    :func:`stdlib_canonical_json` does, or else refuses it (an error, never other bytes).

    The conditions, each checked by tests/test_canonical_json.py:

    * objects are exact ``dict`` with exact ``str`` keys: the standard library writes
      int, float, bool and None keys as strings (orjson refuses them), sorts keys of a
      ``str`` subclass with its own comparison, and reads a ``dict`` subclass through
      its ``items()`` (orjson through the dict's storage);
    * arrays are exact ``list`` or ``tuple`` (a named tuple is an array to the standard
      library; orjson refuses it);
    * strings are any ``str`` (a subclass, a ``StrEnum`` member: both write its
      characters, not its ``value``); sorted keys and escapes are the same: both sort by
      code point (orjson by UTF-8 bytes, the same order), escape ``"`` ``\\`` and the
      controls below U+0020 alike (``\\n``, ``\\u001f``) and keep every other character,
      U+007F, U+2028 and non-ASCII included, as UTF-8; a lone surrogate is refused by
      orjson (the standard library writes it, and it is not UTF-8);
    * integers are any ``int`` (``bool`` included, and ``IntEnum`` members: both write
      the number); orjson refuses one outside [-2**63, 2**64 - 1] (the standard library
      writes it);
    * no ``float`` anywhere: orjson writes ``1e-05`` as ``0.00001`` and NaN and the
      infinities as ``null`` (the standard library: ``1e-05``, ``NaN``, ``Infinity``);
    * nothing else: orjson writes UUIDs, dates, dataclasses, plain ``Enum`` members and
      ``orjson.Fragment`` values, which the standard library refuses (TypeError).

    A refusal (orjson's ``JSONEncodeError``, a ``TypeError``) sends the value to the
    standard library, which writes it or raises as it always did."""
    t = type(obj)
    if t is dict:
        for key, value in obj.items():
            if type(key) is not str:
                return False
            if type(value) not in _ALIKE and not orjson_writes_alike(value):
                return False
        return True
    if t is list or t is tuple:
        for value in obj:
            if type(value) not in _ALIKE and not orjson_writes_alike(value):
                return False
        return True
    if t in _ALIKE:
        return True
    if isinstance(obj, (str, int)):  # a subclass (a StrEnum's, an IntEnum's): written alike
        if len(_ALIKE) < _ALIKE_MAX:
            _ALIKE.add(t)
        return True
    return False


_ALIKE: set[type] = {str, int, bool, type(None)}
"""The scalar types orjson writes alike: these, and the subclasses of ``str`` and ``int`` met
so far (a set lookup instead of ``isinstance`` for each StrEnum value of a snapshot)."""
_ALIKE_MAX = 256


def stdlib_canonical_json(obj: Any) -> str:
    """The canonical JSON as the standard library writes it: the definition."""
    return _encode(obj)


if orjson is not None:
    _dumps = orjson.dumps
    _SORTED = orjson.OPT_SORT_KEYS
    _loads = orjson.loads

    def _fast_bytes(obj: Any) -> bytes | None:
        """orjson's bytes for ``obj`` when they are the canonical ones, else None."""
        try:
            if not orjson_writes_alike(obj):
                return None
            return _dumps(obj, option=_SORTED)
        except (TypeError, RecursionError):  # refused by orjson, or nested too deep for the check
            return None
else:  # pragma: no cover - without orjson
    def _fast_bytes(obj: Any) -> bytes | None:
        return None


def canonical_json(obj: Any) -> str:
    """Keys sorted, no spaces, non-ASCII kept as UTF-8: :func:`stdlib_canonical_json`'s text
    (orjson's where it is the same: :func:`orjson_writes_alike`)."""
    fast = _fast_bytes(obj)
    return fast.decode() if fast is not None else _encode(obj)


def canonical_bytes(obj: Any) -> bytes:
    """:func:`canonical_json` encoded as UTF-8 (what is hashed)."""
    fast = _fast_bytes(obj)
    return fast if fast is not None else _encode(obj).encode("utf-8")


_DIGIT_RUNS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
"""A byte table: every ASCII digit becomes ``0``, every other byte a space (a UTF-8
character of more than one byte has no byte in 0x30-0x39)."""
_NINETEEN_DIGITS = b"0" * 19


def read_json(text: str | bytes) -> Any:
    """``json.loads(text)``, read by orjson where that gives the same value: text (not bytes,
    whose encoding ``json.loads`` detects) without 19 digits in a row (orjson reads an
    integer outside [-2**63, 2**64 - 1] as a float, ``json.loads`` as an int; the digits
    are found with ``bytes.translate``, a regular expression costs as much as the read).
    What orjson refuses and ``json.loads`` accepts (NaN, Infinity, a number beyond the
    float range, an escaped lone surrogate, nesting past 1,024 levels) is read by
    ``json.loads``; what both refuse raises ``json.loads``'s error."""
    if FAST and type(text) is str:
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in the text itself: not UTF-8
            return json.loads(text)
        if _NINETEEN_DIGITS not in raw.translate(_DIGIT_RUNS):
            try:
                return _loads(raw)
            except ValueError:  # orjson.JSONDecodeError
                pass
    return json.loads(text)


def event_hash(stream: str, seq: int, id: str, type: str, v: int, data: dict[str, Any],
               actor: dict[str, Any], at: str, causes: Iterable[int], law: str | None,
               prev: str) -> str:
    causes = list(causes)
    text = _envelope_bytes(stream, seq, id, type, v, data, actor, at, causes, law, prev)
    if text is None:  # a value of another type (a damaged row being verified): the general encoder
        text = canonical_bytes({"stream": stream, "seq": seq, "id": id, "type": type, "v": v, "data": data,
                                "actor": actor, "at": at, "causes": causes, "law": law, "prev": prev})
    return hashlib.sha256(text).hexdigest()


def _envelope_bytes(stream: Any, seq: Any, id_: Any, type_: Any, v: Any, data: Any, actor: Any, at: Any,
                    causes: list[Any], law: Any, prev: Any) -> bytes | None:
    """The canonical JSON of the hashed envelope: by orjson in one call when ``data`` and
    ``actor`` are written alike (:func:`orjson_writes_alike`), else written key by key (the
    keys in sorted order, each value as the standard library writes it). The same bytes
    either way, without sorting the envelope's keys or encoding its scalars one by one
    through the encoder. None when a value is not of the type the fast path knows (the
    caller encodes the whole envelope then)."""
    if not (type(stream) is str and type(id_) is str and type(type_) is str and type(at) is str
            and type(prev) is str and type(seq) is int and type(v) is int
            and (law is None or type(law) is str) and type(actor) is dict and type(data) is dict):
        return None
    for c in causes:
        if type(c) is not int:
            return None
    if FAST:
        try:
            if orjson_writes_alike(data) and orjson_writes_alike(actor):
                return _dumps({"actor": actor, "at": at, "causes": causes, "data": data, "id": id_,
                               "law": law, "prev": prev, "seq": seq, "stream": stream, "type": type_,
                               "v": v}, option=_SORTED)
        except (TypeError, RecursionError):  # refused by orjson (an int beyond 64 bits, a lone
            pass                              # surrogate), or nested too deep for the check
    return "".join((
        '{"actor":', _encode(actor), ',"at":', _string(at),
        ',"causes":[', ",".join(map(repr, causes)), '],"data":', _encode(data),
        ',"id":', _string(id_), ',"law":', "null" if law is None else _string(law),
        ',"prev":', _string(prev), ',"seq":', repr(seq), ',"stream":', _string(stream),
        ',"type":', _string(type_), ',"v":', repr(v), "}",
    )).encode("utf-8")


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
