"""One dispatch for the fold: each event type has exactly one owner handler.

A family registers its handlers with :func:`handles`; registering a second
handler for a type fails at import, as ``ledger.events.register`` does for
event names. Every handler has one signature, ``handler(state, step)``: the
:class:`Step` carries the event, its seq, the role of the actor who logged it
and the Law on the record (a rectification's citation), so no handler is
reached any other way.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Mapping, Protocol, TypeVar

import attrs

from ledger import events as ev
from ledger.bridge import Suit
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


def register(types: tuple[type[ev.Event], ...], handler: Handler) -> None:
    """``handler`` the one handler of ``types``; a second handler of a type fails."""
    for t in types:
        if t in HANDLERS:
            raise RuntimeError(f"event type {t.__name__} handled twice: by {OWNERS[t]} and "
                               f"{handler.__module__}.{handler.__qualname__}")
        HANDLERS[t] = handler
        OWNERS[t] = f"{handler.__module__}.{handler.__qualname__}"


def handles(*types: type[ev.Event]) -> Callable[[H], H]:
    """Register the decorated function (of the core) as the one handler of ``types`` now; a family
    marks its own with ``ledger.laws.base.handles``, registered by the composition root."""
    def wrap(handler: H) -> H:
        register(types, handler)
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


class ChoiceSuit(Protocol):
    """The suit an option taken without one names by default (50D2a: the suit of the penalty
    card(s)), read on the state before the choice; None when there is no one suit."""

    def __call__(self, state: TableState, option: str, /) -> Suit | None: ...


CHOICE_SUITS: dict[str, ChoiceSuit] = {}
"""The default suit of an option taken without one, by the Law of the offer (edition stripped)."""
CHOICE_SUIT_OWNERS: dict[str, str] = {}


def choice_suits(suits: Mapping[str, ChoiceSuit], owner: str) -> None:
    """Register a family's default suits of options; a second one for a Law fails at import."""
    for law, suit in suits.items():
        if law in CHOICE_SUITS:
            raise RuntimeError(f"default suit of {law} registered twice: by {CHOICE_SUIT_OWNERS[law]} and {owner}")
        CHOICE_SUITS[law] = suit
        CHOICE_SUIT_OWNERS[law] = owner


EITHER_DEFENDER_LAWS = ("43B2a", "46B5", "55A")
"""Offers made to one defender that either defender may take (the first to choose decides)."""


def law_of(citation: str | None) -> str:
    """``"2017:46B3b"`` -> ``"46B3b"``."""
    return (citation or "").split(":", 1)[-1]


COMPOSED: list[str] = []
"""The composition root that registered the Law families (``ledger.laws``): the fold refuses
to start a board before it, rather than read every fact as unprocessed."""


def composed(root: str) -> None:
    """Said once by the composition root when every family is registered."""
    if COMPOSED:
        raise RuntimeError(f"the Law families composed twice: by {COMPOSED[0]} and {root}")
    COMPOSED.append(root)


def require_composed() -> None:
    if not COMPOSED:
        raise RuntimeError("no Law family is registered: import the composition root (ledger.laws) "
                           "before folding a board")
