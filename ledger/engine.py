"""The ruling engine (spec section 4): after every appended event it reads the
folded state and returns, in order, the rectifications the Laws prescribe.

The service appends them as role ``system``, in the same transaction, each
folded before the engine is asked again, until the Laws prescribe nothing
more. Deciding is separate from folding: rules read a state and return
events; they never write.
"""

from __future__ import annotations

from typing import Iterable

from ledger.laws import RULES, Prescription, Rule

MAX_ROUNDS = 64
"""A guard: no single fact can call for more rectifications than this."""


def prescribe(state, rules: Iterable[Rule] = RULES) -> list[Prescription]:
    """Every prescription of every rule for this state (empty when none is due)."""
    out: list[Prescription] = []
    for rule in rules:
        out.extend(rule(state))
    return out
