"""One dispatch for the fold: each event type has exactly one owner handler.

A family registers its handlers with :func:`handles`; registering a second
handler for a type fails at import, as ``ledger.events.register`` does for
event names. Every handler has one signature, ``handler(state, step)``: the
:class:`Step` carries the event, its seq, the role of the actor who logged it
and the Law on the record (a rectification's citation), so no handler is
reached any other way.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

import attrs

from ledger import events as ev
from projections.state import TableState


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
