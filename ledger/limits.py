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


class _Refused:
    """A number the decoder read but the limits refuse: kept in place by the decoder
    and named by its field path afterwards (``board``, ``tricks``, ``about.n``)."""

    __slots__ = ("text", "reason")

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason

    def __repr__(self) -> str:
        return self.text


_DIGITS = f"a number must be finite and have at most {MAX_NUMBER_DIGITS} digits"


def _parse_int(text: str) -> Any:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        return _Refused(text, _DIGITS)
    return int(text)


def _parse_float(text: str) -> Any:
    if len(text) > MAX_NUMBER_DIGITS + 8:
        return _Refused(text, _DIGITS)
    value = float(text)
    if not math.isfinite(value):
        return _Refused(text, _DIGITS)
    return value


def _parse_constant(text: str) -> Any:
    return _Refused(text, _DIGITS)  # NaN, Infinity, -Infinity: not JSON


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float,
                            parse_constant=_parse_constant)

#: JSON's own whitespace (RFC 8259): what is stripped around a line, nothing else
#: (U+2028, U+2029, U+0085 are characters a string may hold, not line ends).
JSON_SPACE = " \t\r\n"


def split_lines(text: str) -> list[str]:
    """JSON Lines as the format defines them: split on ``\\n`` only, a ``\\r``
    before it removed. U+2028, U+2029, U+0085, form feeds... inside a string
    stay where they are (``str.splitlines`` would cut there)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _nesting_path(text: str) -> str:
    """The field path where ``text`` (JSON too deep for the decoder) first nests
    deeper than MAX_DEPTH: a scan that follows strings, keys and indexes."""
    stack: list[list[Any]] = []  # [kind, key or index]
    i, n = 0, len(text)
    expect_key = False
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if expect_key and stack and stack[-1][0] == "{":
                try:
                    stack[-1][1] = json.loads(text[i:j + 1])
                except ValueError:
                    stack[-1][1] = text[i + 1:j]
                expect_key = False
            i = j + 1
            continue
        if c in "[{":
            if len(stack) >= MAX_DEPTH:
                break
            stack.append([c, 0 if c == "[" else ""])
            expect_key = c == "{"
        elif c in "]}":
            if stack:
                stack.pop()
        elif c == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] += 1
            elif stack:
                expect_key = True
        i += 1
    return _path(stack)


def _path(stack: list[list[Any]]) -> str:
    out = ""
    for kind, where in stack:
        if kind == "[":
            out += f"[{where}]"
        else:
            out += f".{where}" if out else str(where)
    return out or "line"


def _refused_in(obj: Any, path: str = "", depth: int = 0) -> tuple[str, _Refused] | None:
    """The first refused number of a parsed value, with its field path."""
    if isinstance(obj, _Refused):
        return path or "line", obj
    if depth > MAX_DEPTH:
        return None  # check_value names it
    if isinstance(obj, dict):
        for key, value in obj.items():
            found = _refused_in(value, f"{path}.{key}" if path else str(key), depth + 1)
            if found:
                return found
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            found = _refused_in(value, f"{path}[{i}]" if path else f"[{i}]", depth + 1)
            if found:
                return found
    return None


def load_json(text: str, line: int | None, *, field: str = "line") -> Any:
    """Parse ``text`` within the limits of nesting and numbers; a refusal names the
    field path of the value (``board``, ``about.tricks``, ``[3].n``; ``field`` when
    the text as a whole is at fault)."""
    try:
        obj = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"malformed JSON: {exc.msg} at column {exc.colno}"
                       + (f" of line {exc.lineno}" if exc.lineno > 1 else ""), field=field,
                       value=text, line=line) from None
    except RecursionError:
        raise BadInput(f"arrays or objects nested deeper than {MAX_DEPTH} levels",
                       field=_nesting_path(text), value=text, line=line) from None
    except ValueError as exc:  # e.g. Python's own limit on the digits of an integer
        raise BadInput(f"unreadable number: {exc}", field=field, value=text, line=line) from None
    found = _refused_in(obj)
    if found is not None:
        path, refused = found
        raise BadInput(refused.reason, field=path, value=refused.text, line=line)
    return obj


def load_line(text: str, line: int) -> Any:
    """One line of JSON Lines input, parsed within the limits of its length,
    nesting and numbers (its strings: :func:`check_value`, run on every fact)."""
    if len(text) > MAX_LINE:
        raise BadInput(f"the line is {len(text)} characters long; the limit is {MAX_LINE}",
                       field="line", value=text, line=line)
    return load_json(text, line)


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
