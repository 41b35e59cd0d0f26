"""Scenario files: JSON Lines whose first line is ``BoardOpened``, appended to
a fresh in-memory ledger through the ordinary append path, one line per
append, as table terminals and directors would (spec section 8, ``replay``).

A line's ``actor`` defaults to role ``director`` for director events,
``committee`` for committee events and ``table`` otherwise. A line may carry
``"expect": {...}``: ignored by the ledger, read by the tests (see
``tests/scenarios/``).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import attrs

from ledger.errors import BadInput, LedgerError
from ledger.service import Ledger, json_lines, parse_fact

SCENARIO_KEYS = ("expect", "comment", "expect_error")


def scenario_lines(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON line; ``#`` lines and blanks skipped."""
    return [(number, dict(obj)) for number, obj in json_lines(text)]


def stream_name(first: dict[str, Any]) -> str:
    board = first.get("board")
    return f"replay/{first.get('tournament', 't')}/{first.get('table', 't')}/b{board}".replace(" ", "_")


@attrs.frozen
class Mismatch:
    line: int
    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"line {self.line}: {self.path}: expected {self.expected!r}, got {self.actual!r}"


def matches(expected: Any, actual: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Where ``actual`` departs from ``expected``: objects are compared key by key
    on the keys ``expected`` names; lists element by element, with the same length."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [(path or ".", expected, actual)]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append((f"{path}.{key}", value, "<absent>"))
            else:
                out.extend(matches(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [(path or ".", expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out.extend(matches(e, a, f"{path}[{i}]"))
        return out
    return [] if expected == actual else [(path or ".", expected, actual)]


@attrs.frozen
class Checked:
    expectations: int
    mismatches: tuple[Mismatch, ...]


@contextmanager
def replay_text(text: str, url: str = "sqlite:///:memory:",
                checked: list[Checked] | None = None) -> Iterator[tuple[Ledger, str]]:
    """A fresh ledger holding the scenario; yields (ledger, stream).

    Lines ``{"expect": {...}}`` (no ``type``) are checked against the state
    document after the line before; a line with ``"expect_error": {"exit": 2,
    "contains": "..."}`` must be refused (and nothing written). The outcome is
    appended to ``checked`` when given; otherwise expectations are ignored."""
    lines = scenario_lines(text)
    events = [(n, o) for n, o in lines if "type" in o]
    if not events:
        raise BadInput("the scenario has no event", field="FILE", value="")
    first_line, first = events[0]
    if first.get("type") != "BoardOpened":
        raise BadInput("a scenario's first line must be BoardOpened", field="type",
                       value=first.get("type"), line=first_line)
    stream = "".join(ch if ch.isalnum() or ch in "._/-" else "_" for ch in stream_name(first))
    ledger = Ledger.open(url, create=True)
    mismatches: list[Mismatch] = []
    expectations = 0
    try:
        seq = 0
        for number, obj in lines:
            if "type" not in obj:
                if "expect" in obj:
                    expectations += 1
                    if checked is not None:
                        doc = ledger.state(stream)
                        mismatches += [Mismatch(number, p, e, a) for p, e, a in matches(obj["expect"], doc)]
                continue
            body = {k: v for k, v in obj.items() if k not in SCENARIO_KEYS}
            if "expect_error" in obj:  # a line the ledger must refuse: only tried when checking
                if checked is not None:
                    expectations += 1
                    mismatches += _expect_refusal(ledger, stream, body, number, seq, obj["expect_error"])
                continue
            fact = parse_fact(body, number)
            result = ledger.append(stream, [fact], expected_seq=seq)
            if result.stored:
                seq = result.stored[-1].seq
        if checked is not None:
            checked.append(Checked(expectations, tuple(mismatches)))
        yield ledger, stream
    finally:
        ledger.close()


def _expect_refusal(ledger: Ledger, stream: str, body: dict[str, Any], number: int, seq: int,
                    expected: dict[str, Any]) -> list[Mismatch]:
    try:
        ledger.append(stream, [parse_fact(body, number)], expected_seq=seq)
    except LedgerError as exc:
        out = []
        if "exit" in expected and exc.exit_code != expected["exit"]:
            out.append(Mismatch(number, "exit", expected["exit"], exc.exit_code))
        if "contains" in expected and expected["contains"] not in str(exc):
            out.append(Mismatch(number, "message", expected["contains"], str(exc)))
        if ledger.store.read(stream)[-1].seq != seq:
            out.append(Mismatch(number, "written", seq, ledger.store.read(stream)[-1].seq))
        return out
    return [Mismatch(number, "refused", expected, "accepted")]
