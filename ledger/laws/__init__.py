"""The Laws the ruling engine applies, one module per family.

Each family module exposes rule functions ``rule(state) -> list[Prescription]``:
they read the folded table state and return the events the Laws prescribe
(the engine emits those not yet in the stream, so the same stream always
yields the same rectifications, never twice). Edition differences sit side by
side in each module, looked up by ``state.edition``.

:data:`FAMILIES` registers every family once, in precedence order: the engine
consults their rules in that order (:data:`RULES`), and :func:`find_law`
answers which family rules on a Law (``find_law("64A2")`` is the revokes
family). A family names the Laws it rules on and the projection module that
reads its facts in the fold (``reads``).
"""

from __future__ import annotations

import re

import attrs

from ledger.laws import (boards, calls, cards, claims, defective, designations, exposed, inadmissible, insufficient, leads, penalty,
                         premature, results, revokes, rotation, scores, withdrawals)
from ledger.laws.base import Prescription, Rule

__all__ = ["FAMILIES", "LAPSES", "RULES", "Family", "Prescription", "Rule", "find_law"]


@attrs.frozen
class Family:
    """One Law family: its name, the Laws it rules on (numbers, or numbers with a
    section: ``"64"``, ``"46B"``), its rules in engine order, and the projection
    module that reads its facts in the fold."""

    name: str
    laws: tuple[str, ...]
    rules: tuple[Rule, ...]
    reads: str


FAMILIES: tuple[Family, ...] = (
    Family("calls out of rotation", rotation.LAWS, (rotation.calls_out_of_rotation,), "ledger.laws.rotation"),
    Family("inadmissible calls", inadmissible.LAWS, (inadmissible.inadmissible_calls,), "ledger.laws.inadmissible"),
    # Law 27's rule (insufficient.law_27) runs inside calls.change_of_call, record by record
    # (calls.RECORD_RULES), so its rectifications keep their place in the order of the facts
    Family("insufficient bids", insufficient.LAWS, (), "ledger.laws.insufficient"),
    Family("cards exposed in the auction", exposed.LAWS, (exposed.exposed_in_auction,), "ledger.laws.exposed"),
    Family("calls", calls.LAWS, (calls.change_of_call, calls.lead_restrictions, calls.lead_breaches),
           "ledger.laws.calls"),
    Family("cards played or not", cards.LAWS, (cards.card_rulings, cards.dummy_indications), "ledger.laws.cards"),
    Family("designations", designations.LAWS, (), "ledger.laws.designations"),
    Family("withdrawals", withdrawals.LAWS, (), "ledger.laws.withdrawals"),
    Family("leads out of turn", leads.LAWS, (leads.leads_out_of_turn,), "ledger.laws.leads"),
    Family("premature plays", premature.LAWS, (premature.premature_plays,), "ledger.laws.premature"),
    Family("penalty cards", penalty.LAWS, (penalty.penalty_cards,), "ledger.laws.penalty"),
    Family("claims", claims.LAWS, (claims.claim_rules,), "ledger.laws.claims"),
    # spec 1.3: the defective trick read again (67A, 67B); its one hook in the fold is the play core's
    # `defective` point, its transfer is read with the revokes' (revokes.tricks_after_transfers)
    Family("defective tricks", defective.LAWS, (defective.defective_tricks,), "ledger.laws.defective"),
    Family("revokes and dummy", revokes.LAWS,
           (revokes.revoke_rulings, revokes.dummy_rulings, revokes.waivers), "ledger.laws.revokes"),
    Family("results", results.LAWS, (results.record_result,), "ledger.laws.results"),
    Family("irregular boards", boards.LAWS, (boards.irregular_boards,), "ledger.laws.boards"),
    Family("scores and appeals", scores.LAWS, (), "ledger.laws.scores"),
)
"""Every Law family, once, in precedence order."""

RULES: list[Rule] = [rule for family in FAMILIES for rule in family.rules]
"""The engine's rules, in the order the engine consults them."""

LAPSES = (inadmissible.lapsed,)
"""Rectifications a later fact withdrew (spec 1.2, 9.C2: the LHO called before rectification):
each returns events the engine cancels (``RulingOverridden``, 82C) when in force and prescribed by no rule."""

_CITATION = re.compile(r"^(?:(?:1997|2017|FFB):)?(\d+(?:\.\d+)?)([A-Za-z0-9]*)$")


def find_law(law: str) -> Family | None:
    """The family that rules on ``law`` (``"64A2"``, ``"2017:46B3b"``): the one
    naming the longest prefix of it; None when no family rules on it."""
    m = _CITATION.match(law.strip())
    if m is None:
        raise ValueError(f"not a Law: {law!r} (expected e.g. '64A2' or '2017:64A2')")
    number, rest = m.groups()
    best: tuple[int, Family] | None = None
    for family in FAMILIES:
        for name in family.laws:
            if name == number or (name.startswith(number) and (number + rest).startswith(name)):
                if best is None or len(name) > best[0]:
                    best = (len(name), family)
    return None if best is None else best[1]
