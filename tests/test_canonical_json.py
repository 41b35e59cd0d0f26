"""Canonical JSON by orjson where it writes the standard library's very bytes (issue 28,
item 6; ``ledger/hashing.py``): byte identity with the standard library on every event of
every scenario file, through the real append (the stored hashes recomputed by the standard
library alone), on hypothesis-generated JSON values with floats and unicode, and on each
condition under which orjson would write otherwise; reading back equal to ``json.loads``;
the fallback without orjson."""

from __future__ import annotations

import collections
import datetime
import enum
import hashlib
import json
import math
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from golden_fold import ROOT, scenario_files
from hypothesis import given, settings, strategies as st

from ledger import hashing
from ledger.hashing import canonical_bytes, canonical_json, event_hash, orjson_writes_alike, read_json

orjson = pytest.importorskip("orjson")  # a main dependency: the fast path is what is tested here


def stdlib(obj: Any) -> str:
    """The definition (spec section 2), written here independently of ledger.hashing."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stdlib_hash(e: Any) -> str:
    envelope = {"stream": e.stream, "seq": e.seq, "id": e.id, "type": e.type, "v": e.v, "data": e.data,
                "actor": e.actor.to_json(), "at": e.at, "causes": list(e.causes), "law": e.law, "prev": e.prev}
    return hashlib.sha256(stdlib(envelope).encode("utf-8")).hexdigest()


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values, telling 1, 1.0 and True apart, -0.0 from 0.0, and key order."""
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def has_float(obj: Any) -> bool:
    if isinstance(obj, dict):
        return any(has_float(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(has_float(v) for v in obj)
    return isinstance(obj, float)


def test_the_fast_path_is_on():
    assert hashing.FAST


# --- every scenario file, through the real append ---------------------------------------------

FILES = scenario_files()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_scenario_event_is_hashed_and_stored_as_the_standard_library_writes_it(path: Path):
    from ledger.scenario import replay_text

    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        stored = ledger.store.read(stream)
        with ledger.store.engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT seq, data, causes FROM events WHERE stream = ? ORDER BY seq",
                                        (stream,)).fetchall()
            snaps = conn.exec_driver_sql("SELECT state FROM snapshots WHERE stream = ?", (stream,)).fetchall()
    assert stored and len(rows) == len(stored)
    fast = floats = 0
    for e, (seq, data_text, causes_text) in zip(stored, rows, strict=True):
        assert e.seq == seq
        # the hash the append stored (computed by the fast path) is the standard library's
        assert e.hash == stdlib_hash(e), f"seq {e.seq}"
        # the stored columns are the standard library's text, and read back to the same values
        assert data_text == stdlib(e.data) == canonical_json(e.data)
        assert causes_text == stdlib(list(e.causes))
        assert same_value(read_json(data_text), json.loads(data_text))
        fast += orjson_writes_alike(e.data)
        floats += has_float(e.data)
    for (state_text,) in snaps:
        state = json.loads(state_text)
        assert state_text == stdlib(state) == canonical_json(state)
        assert same_value(read_json(state_text), state)
    # the fast path wrote every event's data but those holding a float
    assert fast == len(stored) - floats


# --- hypothesis: JSON values, floats and unicode included -------------------------------------

class Colour(enum.StrEnum):
    RED = "red"
    EMPTY = ""


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 1 << 40


keys = st.text(max_size=8)
scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text() | st.sampled_from([Colour.RED, Colour.EMPTY, Level.LOW, Level.HIGH])
           | st.integers(min_value=-(1 << 70), max_value=1 << 70)
           | st.sampled_from([1e-05, 1e16, 1e22, -0.0, 0.1, 5e-324, 1.7976931348623157e308, 2 ** 63, 2 ** 64,
                              -(2 ** 63) - 1, "\u2028\u2029", "\x7f", "\x00\x1f\"\\/", "é✓😀", "\ud800"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


def _both(f: Any, obj: Any) -> Any:
    try:
        return f(obj)
    except Exception as exc:  # the same error type on both sides
        return type(exc)


@settings(max_examples=800, deadline=None)
@given(values)
def test_canonical_json_is_the_standard_library_s_for_any_value(obj: Any):
    assert _both(canonical_json, obj) == _both(stdlib, obj)
    expected = _both(lambda o: stdlib(o).encode("utf-8"), obj)
    assert _both(canonical_bytes, obj) == expected


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, values, max_size=5), st.dictionaries(keys, st.text() | st.none(), max_size=2),
       st.lists(st.integers(min_value=0, max_value=1 << 40), max_size=3), st.text(max_size=12) | st.none())
def test_event_hash_is_the_standard_library_s(data: dict[str, Any], actor: dict[str, Any], causes: list[int],
                                              law: str | None):
    envelope = {"stream": "s/1", "seq": 7, "id": "x-1", "type": "CardPlayed", "v": 1, "data": data,
                "actor": actor, "at": "2026-11-28T07:00:00.000001Z", "causes": causes, "law": law, "prev": "0" * 64}
    expected = _both(lambda e: hashlib.sha256(stdlib(e).encode("utf-8")).hexdigest(), envelope)
    assert _both(lambda e: event_hash(**e), envelope) == expected


json_texts = values.map(lambda v: json.dumps(v, ensure_ascii=False)) | st.sampled_from([
    "18446744073709551615", "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890",
    '{"n": 12345678901234567890123}', "1e400", "-1e400", "NaN", "Infinity", '"\\ud800"', '"\\ud83d\\ude00"',
    '{"a":1,"b":2,"a":3}', " [1] ", "1.0000000000000000000000000001", "9007199254740993.0", "[1,]", "",
    "\x00", '"\x01"', '"\\u0000"', "[" * 1100 + "]" * 1100, "-0", "-0.0", "0.1e1", "1E5", '"é✓😀"'])


@settings(max_examples=800, deadline=None)
@given(json_texts | st.floats().map(repr) | st.integers().map(str) | st.decimals(allow_nan=False).map(str))
def test_read_json_reads_what_json_loads_reads(text: str):
    try:
        expected = json.loads(text)
    except Exception as exc:
        with pytest.raises(type(exc)):
            read_json(text)
        return
    assert same_value(read_json(text), expected)


# --- each condition under which orjson writes otherwise ---------------------------------------

class Odd(str, enum.Enum):
    """Characters other than the value."""

    def __new__(cls, text: str, value: str) -> "Odd":
        member = str.__new__(cls, text)
        member._value_ = value
        return member

    A = ("chars", "value")


class Plain(enum.Enum):
    A = "a"


class ItemsDict(dict):  # type: ignore[type-arg]
    def items(self):  # type: ignore[override]
        return [("z", 1)]


Pair = collections.namedtuple("Pair", "a b")


@pytest.mark.parametrize("obj, alike", [
    (1e-05, False), (0.5, False), (float("nan"), False), (float("inf"), False), (-0.0, False), ({"w": 0.25}, False),
    ([1, [2, [3.0]]], False), (uuid.UUID(int=1), False), (datetime.date(2026, 11, 28), False), (Plain.A, False),
    ({1: 2}, False), ({None: 1}, False), (ItemsDict(a=1), False), (Pair(1, 2), False),
    (Odd.A, True), (Colour.RED, True), (Level.HIGH, True), (True, True), (None, True), ((1, "x"), True),
    ({"b": 1, "a": [None, "\u2028", "\x7f", "\x1f"], "é": {"😀": 2 ** 64 - 1}}, True),
])
def test_the_conditions(obj: Any, alike: bool):
    """What :func:`orjson_writes_alike` refuses is what orjson would write otherwise (or what the
    standard library refuses); what it accepts orjson writes alike. Both ways, the canonical
    text is the standard library's, or its error."""
    assert orjson_writes_alike(obj) is alike
    assert _both(canonical_json, obj) == _both(stdlib, obj)
    if alike:
        assert orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode() == stdlib(obj)


@pytest.mark.parametrize("obj", [2 ** 64, -(2 ** 63) - 1, {"k": "\ud800"}, "\udfff", [1]])
def test_what_orjson_refuses_goes_to_the_standard_library(obj: Any):
    deep: Any = obj
    for _ in range(300):  # past orjson's nesting limit (254)
        deep = [deep]
    for value in (obj, deep):
        assert canonical_json(value) == stdlib(value)


def test_orjson_writes_these_differently():
    """Why the conditions exist (orjson's own output, here, would change a hash)."""
    assert orjson.dumps(1e-05) == b"0.00001" and stdlib(1e-05) == "1e-05"
    assert orjson.dumps(math.nan) == b"null" and stdlib(math.nan) == "NaN"
    assert orjson.dumps(uuid.UUID(int=1)).startswith(b'"0000')
    with pytest.raises(TypeError):
        stdlib(uuid.UUID(int=1))


def test_without_orjson_the_standard_library_does_everything():
    """orjson absent (its import refused): the same texts, the same hash, no fast path."""
    script = (
        "import sys, json; sys.modules['orjson'] = None\n"
        "from ledger import hashing\n"
        "assert not hashing.FAST and hashing.orjson is None\n"
        "v = {'b': [1, 2.5, 1e-05, 'é'], 'a': None}\n"
        "print(json.dumps([hashing.canonical_json(v), hashing.read_json('[1, 2.5]'),\n"
        "    hashing.event_hash('s', 1, 'i', 'T', 1, v, {'role': 'table', 'name': None}, 'at', [1], None, '0' * 64)]))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    text, read, digest = json.loads(out.stdout)
    v = {"b": [1, 2.5, 1e-05, "é"], "a": None}
    assert text == canonical_json(v) == stdlib(v)
    assert read == [1, 2.5]
    assert digest == event_hash("s", 1, "i", "T", 1, v, {"role": "table", "name": None}, "at", [1], None, "0" * 64)
