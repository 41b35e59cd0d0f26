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
    from ledger.laws import boards, calls, cards, claims, results, revokes
    from ledger.laws import leads, penalty  # leads out of turn (41A, 45E, 53-56), penalty cards (49-51)

    return [calls.change_of_call, calls.lead_restrictions, calls.lead_breaches,
            cards.card_rulings,
            leads.leads_out_of_turn, penalty.penalty_cards,
            claims.disputed_claim, revokes.revoke_rulings, revokes.dummy_rulings,
            results.record_result,
            boards.irregular_boards]


RULES: list[Rule] = _rules()
