"""What the given/when/then tests of the Laws share: a board in a fresh
in-memory ledger, facts built from (seat, call) and (seat, card) pairs, and
the engine's events read back from the store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.service import Ledger

STREAM = "t/b3"


def calls(*pairs: tuple[str, str]) -> list[dict]:
    return [{"type": "CallPlaced", "seat": s, "call": c} for s, c in pairs]


def cards(*pairs: tuple[str, str]) -> list[dict]:
    return [{"type": "CardPlayed", "seat": s, "card": c} for s, c in pairs]


def choose(seat: str, option: str, suit: str | None = None) -> dict:
    return {"type": "OptionChosen", "seat": seat, "option": option, **({"suit": suit} if suit else {})}


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    """A fresh in-memory ledger (SQLite)."""
    led = Ledger.open("sqlite:///:memory:", create=True)
    yield led
    led.close()


def given(ledger: Ledger, facts: list[dict], stream: str = STREAM) -> dict:
    """Append the facts one by one, as a table terminal would; the state document after."""
    for fact in facts:
        ledger.append(stream, [fact])
    return ledger.state(stream)


def logged(ledger: Ledger, type_: str, stream: str = STREAM) -> list:
    """The stored events of that type, in order."""
    return [e for e in ledger.store.read(stream) if e.type == type_]
