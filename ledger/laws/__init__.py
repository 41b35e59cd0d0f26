"""The Laws the ruling engine applies, one module per family.

Each module exposes rule functions ``rule(state) -> list[Prescription]``: they
read the folded table state and return the events the Laws prescribe that are
not yet in the stream (so the same stream always yields the same
rectifications, never twice). Edition differences sit side by side in each
module, looked up by ``state.edition``. :data:`RULES` is the engine's list, in
the order the engine consults them.
"""

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


def _rules() -> list[Rule]:
    from ledger.laws import calls, cards, claims, results

    return [calls.change_of_call, calls.lead_restrictions, calls.lead_breaches,
            cards.card_rulings, claims.disputed_claim, results.record_result]


RULES: list[Rule] = _rules()
