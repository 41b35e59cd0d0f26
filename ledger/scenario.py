"""Scenario files: JSON Lines whose first line is ``BoardOpened``, appended to
a fresh in-memory ledger through the ordinary append path, one line per
append, as table terminals and directors would (spec section 8, ``replay``).

A line's ``actor`` defaults to role ``director`` for director events,
``committee`` for committee events and ``table`` otherwise. A line may carry
``"expect": {...}``: ignored by the ledger, read by the tests (see
``tests/scenarios/``).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Iterator

from ledger.errors import BadInput
from ledger.service import Ledger, parse_fact

SCENARIO_KEYS = ("expect", "comment")


def scenario_lines(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON line; ``#`` lines and blanks skipped."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise BadInput(f"malformed JSON: {exc.msg} at column {exc.colno}", field="line",
                           value=stripped[:80], line=number) from None
        if not isinstance(obj, dict):
            raise BadInput("each line must be a JSON object", field="line", value=obj, line=number)
        out.append((number, obj))
    return out


def stream_name(first: dict[str, Any]) -> str:
    board = first.get("board")
    return f"replay/{first.get('tournament', 't')}/{first.get('table', 't')}/b{board}".replace(" ", "_")


@contextmanager
def replay_text(text: str, url: str = "sqlite:///:memory:") -> Iterator[tuple[Ledger, str]]:
    """A fresh ledger holding the scenario; yields (ledger, stream)."""
    lines = scenario_lines(text)
    if not lines:
        raise BadInput("the scenario has no event", field="FILE", value="")
    first = lines[0][1]
    if first.get("type") != "BoardOpened":
        raise BadInput("a scenario's first line must be BoardOpened", field="type",
                       value=first.get("type"), line=lines[0][0])
    stream = "".join(ch if ch.isalnum() or ch in "._/-" else "_" for ch in stream_name(first))
    ledger = Ledger.open(url, create=True)
    try:
        seq = 0
        for number, obj in lines:
            body = {k: v for k, v in obj.items() if k not in SCENARIO_KEYS}
            fact = parse_fact(body, number)
            result = ledger.append(stream, [fact], expected_seq=seq)
            if result.stored:
                seq = result.stored[-1].seq
        yield ledger, stream
    finally:
        ledger.close()
