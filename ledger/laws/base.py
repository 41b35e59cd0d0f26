"""What every Law family shares: a prescription and the rule signature."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import attrs

from ledger.events import Event


@attrs.frozen
class Prescription:
    """An event the Laws prescribe, with the facts it rests on and its Law."""

    event: Event
    causes: tuple[int, ...]
    law: str | None


Rule = Callable[..., list[Prescription]]


Citations = Mapping[str, Mapping[str, str]]
"""A family's citations per edition: ``{occasion: {"1997": "13C", "2017": "13D"}}``; an
edition missing from an occasion's entry means that edition has no such rule."""


def cited(state: Any, table: Citations, occasion: str) -> str:
    """The one helper families cite their edition tables through: ``"2017:13D"``."""
    edition = state.edition
    law = table[occasion].get(edition)
    if law is None:
        raise KeyError(f"{occasion}: no rule in the {edition} Laws")
    return f"{edition}:{law}"
