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
from typing import Mapping

import attrs

from ledger.laws import (boards, calls, cards, claims, designations, exposed, inadmissible, insufficient, leads, penalty,
                         premature, results, revokes, rotation, scores, withdrawals)
from ledger.laws.base import Prescription, Rule
from projections import derived, document, fold
from projections.derived import Reader
from projections.document import Section
from projections.fold import ChoiceSuit

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
    document: Mapping[str, Section] = attrs.field(factory=dict)
    """Its part of the state document (``projections.document``), by key."""
    derived: Mapping[str, Reader] = attrs.field(factory=dict)
    """The values it derives from the state that the core and other families read by name
    (``projections.derived.read``): a family's conclusion another family's Law rests on."""
    choice_suits: Mapping[str, ChoiceSuit] = attrs.field(factory=dict)
    """The default suit of an option it offers, taken without one (by Law, edition stripped)."""


FAMILIES: tuple[Family, ...] = (
    Family("calls out of rotation", rotation.LAWS, (rotation.calls_out_of_rotation,), "ledger.laws.rotation",
           document={"required_calls": rotation.required_calls, "call_restrictions": rotation.call_restrictions}),
    Family("inadmissible calls", inadmissible.LAWS, (inadmissible.inadmissible_calls,), "ledger.laws.inadmissible"),
    # Law 27's rule (insufficient.law_27) runs inside calls.change_of_call, record by record
    # (calls.RECORD_RULES), so its rectifications keep their place in the order of the facts
    Family("insufficient bids", insufficient.LAWS, (), "ledger.laws.insufficient"),
    Family("cards exposed in the auction", exposed.LAWS, (exposed.exposed_in_auction,), "ledger.laws.exposed"),
    Family("calls", calls.LAWS, (calls.change_of_call, calls.lead_restrictions, calls.lead_breaches),
           "ledger.laws.calls", document={"call_rulings": calls.call_rulings}),
    Family("cards played or not", cards.LAWS, (cards.card_rulings, cards.dummy_indications), "ledger.laws.cards",
           document={"card_rulings": cards.card_rulings_document}),
    Family("designations", designations.LAWS, (), "ledger.laws.designations"),
    Family("withdrawals", withdrawals.LAWS, (), "ledger.laws.withdrawals"),
    Family("leads out of turn", leads.LAWS, (leads.leads_out_of_turn,), "ledger.laws.leads",
           document={"leads_out_of_turn": leads.leads_out_of_turn_document}),
    Family("premature plays", premature.LAWS, (premature.premature_plays,), "ledger.laws.premature",
           document={"play_restrictions": premature.play_restrictions_document,
                     "premature_plays": premature.premature_document}),
    Family("penalty cards", penalty.LAWS, (penalty.penalty_cards,), "ledger.laws.penalty",
           document={"penalty_cards": penalty.document},
           choice_suits={"50D2": penalty.implied_suit}),
    Family("claims", claims.LAWS, (claims.claim_rules,), "ledger.laws.claims",
           document={"claim": claims.claim_document}),
    Family("revokes and dummy", revokes.LAWS,
           (revokes.revoke_rulings, revokes.dummy_rulings, revokes.waivers), "ledger.laws.revokes",
           document={"transfers": revokes.transfers_document, "revokes": revokes.revokes_document},
           derived={"irregularities": revokes.irregularities, "exposures": revokes.exposures,
                    "tricks after transfers": revokes.tricks_after_transfers}),
    Family("results", results.LAWS, (results.record_result,), "ledger.laws.results",
           derived={"board result": results.board_result, "result in force": results.result_in_force}),
    Family("irregular boards", boards.LAWS, (boards.irregular_boards,), "ledger.laws.boards",
           document={"irregular_boards": boards.board_document}),
    Family("scores and appeals", scores.LAWS, (), "ledger.laws.scores",
           document={"adjusted": scores.adjusted_document, "decisions": scores.decisions_document,
                     "appeals": scores.appeals_document},
           derived={"adjusted for results": scores.adjusted_for_results}),
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


def _compose() -> None:
    """The one place the families plug into the core: each family's document sections, derived
    values and default suits registered once, a second supplier of any of them refused."""
    for family in FAMILIES:
        document.sections(family.document, family.name)
        derived.supply(family.derived, family.name)
        fold.choice_suits(family.choice_suits, family.name)
    missing = document.missing_sections()
    if missing:
        raise RuntimeError(f"no family supplies the document's {missing}")
    fold.composed(__name__)


_compose()
