"""What every Law family shares: a prescription and the rule signature."""

from __future__ import annotations

from typing import Callable

import attrs

from ledger.events import Event


@attrs.frozen
class Prescription:
    """An event the Laws prescribe, with the facts it rests on and its Law."""

    event: Event
    causes: tuple[int, ...]
    law: str | None


Rule = Callable[..., list[Prescription]]
