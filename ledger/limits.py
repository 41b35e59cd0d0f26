"""The limits of append input (the contract: docs/EXTENSIONS.md, "Input limits").

Checked before anything else, so that no input escapes as a crash (a
``RecursionError``, a driver error on a NUL byte) and both stores refuse the
same things. Every refusal is :class:`BadInput` (exit 2) naming the line, the
field (a path such as ``actor.name`` or ``cards[3]``) and the value, cut to a
readable length; nothing is written.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ledger.errors import BadInput

#: Characters in one line of JSON Lines input (a BoardOpened line is about 200).
MAX_LINE = 65_536
#: Bytes of one append's input (FILE or stdin).
MAX_INPUT = 64 * 1024 * 1024
#: Nesting of arrays and objects in one line (the events use at most 3; a
#: scenario's ``expect`` a few more).
MAX_DEPTH = 16
#: Characters in one string, keys included (a director's text, a deal, a name).
MAX_STRING = 10_000
#: Digits of a number (integers beyond 2**53 lose precision in JSON elsewhere).
MAX_NUMBER_DIGITS = 20
#: The largest integer magnitude accepted (2**53 - 1: exact in every JSON reader).
MAX_INT = 2 ** 53 - 1

#: C0 controls and DEL, but tab, line feed and carriage return; lone surrogates
#: (``\ud800`` escaped in JSON: not text, cannot be stored as UTF-8).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _NumberRefused(text)
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 8:
        raise _NumberRefused(text)
    value = float(text)
    if not math.isfinite(value):
        raise _NumberRefused(text)
    return value


def _parse_constant(text: str) -> Any:
    raise _NumberRefused(text)  # NaN, Infinity, -Infinity: not JSON


class _NumberRefused(Exception):
    def __init__(self, text: str) -> None:
        self.text = text


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float,
                            parse_constant=_parse_constant)


def load_line(text: str, line: int) -> Any:
    """One line of JSON Lines input, parsed within the limits of its length,
    nesting and numbers (its strings: :func:`check_value`, run on every fact)."""
    if len(text) > MAX_LINE:
        raise BadInput(f"the line is {len(text)} characters long; the limit is {MAX_LINE}",
                       field="line", value=text, line=line)
    try:
        obj = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"malformed JSON: {exc.msg} at column {exc.colno}", field="line",
                       value=text, line=line) from None
    except RecursionError:
        raise BadInput(f"arrays or objects nested deeper than {MAX_DEPTH} levels", field="line",
                       value=text, line=line) from None
    except _NumberRefused as exc:
        raise BadInput(f"a number must be finite and have at most {MAX_NUMBER_DIGITS} digits",
                       field="line", value=exc.text, line=line) from None
    except ValueError as exc:  # e.g. Python's own limit on the digits of an integer
        raise BadInput(f"unreadable number: {exc}", field="line", value=text, line=line) from None
    return obj


def check_value(obj: Any, line: int | None, path: str = "", depth: int = 0) -> None:
    """Every string, key and number of a parsed line within the limits (see the module)."""
    if depth > MAX_DEPTH:
        raise BadInput(f"arrays or objects nested deeper than {MAX_DEPTH} levels",
                       field=path or "line", value=obj, line=line)
    if isinstance(obj, str):
        check_text(obj, path or "line", line)
    elif isinstance(obj, bool) or obj is None:
        return
    elif isinstance(obj, int):
        if abs(obj) > MAX_INT:
            raise BadInput(f"an integer must be between -{MAX_INT} and {MAX_INT}",
                           field=path or "line", value=obj, line=line)
    elif isinstance(obj, float):
        if not math.isfinite(obj):
            raise BadInput("a number must be finite", field=path or "line", value=obj, line=line)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if not isinstance(key, str):
                raise BadInput("an object key must be a string", field=path or "line", value=key,
                               line=line)
            where = f"{path}.{key}" if path else key
            check_text(key, where, line, what="key")
            check_value(value, line, where, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            check_value(value, line, f"{path}[{i}]" if path else f"[{i}]", depth + 1)


def check_text(text: str, field: str, line: int | None, what: str = "string") -> None:
    if len(text) > MAX_STRING:
        raise BadInput(f"a {what} of {len(text)} characters; the limit is {MAX_STRING}",
                       field=field, value=text, line=line)
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        char = bad.group()
        kind = "a lone surrogate (not text)" if "\ud800" <= char <= "\udfff" else \
            "a control character"
        raise BadInput(f"{kind} U+{ord(char):04X} at character {bad.start() + 1}; "
                       "only tab, line feed and carriage return are allowed", field=field,
                       value=text, line=line)


def decode_input(raw: bytes, source: str) -> str:
    """The bytes of an input, as text: UTF-8 (a BOM is dropped), within MAX_INPUT.
    Invalid UTF-8 is refused naming the line and the column of the first bad byte."""
    if len(raw) > MAX_INPUT:
        raise BadInput(f"the input is {len(raw)} bytes; the limit is {MAX_INPUT}", field="FILE",
                       value=source)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        bad = raw[exc.start:exc.end]
        raise BadInput(f"not UTF-8 text: byte {bad.hex(' ')} at byte {exc.start - start + 1} "
                       "of the line", field="line", value=raw[start:exc.end + 40].decode(
                           "utf-8", errors="replace"), line=line) from None
