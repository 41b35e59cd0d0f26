"""One dispatch for the fold: each event type has exactly one owner handler.

A family registers its handlers with :func:`handles`; registering a second
handler for a type fails at import, as ``ledger.events.register`` does for
event names. Every handler has one signature, ``handler(state, step)``: the
:class:`Step` carries the event, its seq, the role of the actor who logged it
and the Law on the record (a rectification's citation), so no handler is
reached any other way.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Mapping, TypeVar

import attrs

from ledger import events as ev
from projections.state import Choice, TableState


E = TypeVar("E", bound=ev.Event)


@attrs.frozen
class Step(Generic[E]):
    """One stored event as a fold handler receives it."""

    seq: int
    event: E
    role: str = ev.TABLE
    """The role of the actor who appended it (who decided matters for Laws 12, 90 and 92)."""
    law: str | None = None
    """The Law on the record (the engine's citation for a rectification)."""


Handler = Callable[[TableState, "Step[Any]"], TableState]
Effect = Callable[[TableState, Choice], TableState]
H = TypeVar("H", bound=Handler)

HANDLERS: dict[type[ev.Event], Handler] = {}
"""The owner handler of each event type."""
OWNERS: dict[type[ev.Event], str] = {}
"""The module that owns each event type's handler."""


def handles(*types: type[ev.Event]) -> Callable[[H], H]:
    """Register the decorated function as the one handler of ``types``."""
    def wrap(handler: H) -> H:
        for t in types:
            if t in HANDLERS:
                raise RuntimeError(f"event type {t.__name__} handled twice: by {OWNERS[t]} and "
                                   f"{handler.__module__}.{handler.__qualname__}")
            HANDLERS[t] = handler
            OWNERS[t] = f"{handler.__module__}.{handler.__qualname__}"
        return handler
    return wrap


EFFECTS: dict[str, Effect] = {}
"""What an option taken does to the table, by the Law of the offer (edition stripped)."""
EFFECT_OWNERS: dict[str, str] = {}


def option_effects(effects: Mapping[str, Effect], owner: str) -> None:
    """Register a family's option effects; a second effect for a Law fails at import."""
    for law, effect in effects.items():
        if law in EFFECTS:
            raise RuntimeError(f"option effect of {law} registered twice: by {EFFECT_OWNERS[law]} and {owner}")
        EFFECTS[law] = effect
        EFFECT_OWNERS[law] = owner
