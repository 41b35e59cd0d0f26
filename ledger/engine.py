"""The ruling engine (spec section 4): after every appended event it reads the
folded state and says which rectifications the Laws prescribe that are not
yet in the stream, and (after the director's word) which ones in the stream
are no longer prescribed.

Rules are declarative: each returns every rectification the Laws prescribe
for the facts as they now read, whether or not it was already emitted. The
engine compares that with the rectifications in force (``state.rectifications``,
keyed by type and data) and emits the difference, so the same stream always
yields the same rectifications and never one twice. After a ``FindingMade``
or a ``RulingOverridden`` it also cancels, with a ``RulingOverridden`` of its
own citing the director's event, each rectification emitted on the earlier
view that the Laws no longer prescribe. A rectification a director or a
committee cancelled is never emitted again.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ledger.laws import LAPSES, RULES, Prescription, Rule
from projections.derived import derive, shared_values
from projections.state import TableState
from projections.table import rectification_key

MAX_ROUNDS = 64
"""A guard: no single fact can call for more rectifications than this."""

OVERRIDE_TEXT = "no longer prescribed by the Laws after the director's finding or ruling"
LAPSE_TEXT = ("no longer prescribed by the Laws: the offender's left-hand opponent called before rectification "
              "(1997 35, 2017 36A, 37A, 38D, 39B)")
"""The text of the engine's override when a fact, not the director, withdrew a rectification (``LAPSES``)."""


def override_text(director_spoke: bool) -> str:
    return OVERRIDE_TEXT if director_spoke else LAPSE_TEXT


def _keyed(rule: Rule) -> Callable[[Any], list[tuple[Prescription, str]]]:
    """The rule with each prescription's key (computed once, kept with the rule's value)."""
    def keyed(state: Any) -> list[tuple[Prescription, str]]:
        return [(p, rectification_key(p.event)) for p in rule(state)]
    return keyed


def prescribe_keyed(state: TableState, rules: Iterable[Rule] = RULES) -> list[tuple[Prescription, str]]:
    """Every prescription of every rule for this state with its key, in rule order, once each.

    Incremental: each rule's value is derived (:mod:`projections.derived`), so a rule runs
    again only when a field of the state it read has changed (is another object) since the
    state it last ran on; otherwise its value stands. The check is inlined here (the same
    as :func:`projections.derived.derive`): most rules read two or three fields."""
    out: list[tuple[Prescription, str]] = []
    seen: set[str] = set()
    shared = shared_values(state)
    for rule in rules:
        entry = shared.get(rule)
        if entry is not None:
            for name, value in entry[1]:
                if getattr(state, name) is not value:
                    entry = None
                    break
        value = entry[0] if entry is not None else derive(state, rule, _keyed(rule))
        for p, key in value:
            if key not in seen:
                seen.add(key)
                out.append((p, key))
    return out


def prescribe(state: TableState, rules: Iterable[Rule] = RULES) -> list[Prescription]:
    """Every prescription of every rule for this state, in rule order, once each."""
    return [p for p, _ in prescribe_keyed(state, rules)]


def _active(state: TableState) -> frozenset[str]:
    """The keys of the rectifications in force."""
    return frozenset(key for key, _ in state.rectifications)


def reconcile(state: TableState, *, may_override: bool = False,
              rules: Iterable[Rule] = RULES) -> tuple[list[Prescription], list[int]]:
    """(rectifications to emit, seqs of rectifications to cancel)."""
    desired = prescribe_keyed(state, rules)
    active = derive(state, "active", _active)
    cancelled = state.cancelled
    emit = [p for p, key in desired if key not in active and key not in cancelled]
    overrides: list[int] = []
    if may_override:
        wanted = {key for _, key in desired}
        overrides = [seq for key, seq in state.rectifications if key not in wanted]
    lapsed = [e for lapse in LAPSES for e in derive(state, lapse, lapse)]  # issue 12: 36A, 37A, 38D, 39B (9.C2); derived: rerun only when a field it read changed
    if lapsed and not may_override:  # each an event, or the seq of a rectification
        keys = {rectification_key(e) for e in lapsed if not isinstance(e, int)}
        seqs = {e for e in lapsed if isinstance(e, int)}
        wanted = {key for _, key in desired}
        overrides = [seq for key, seq in state.rectifications if (key in keys or seq in seqs) and key not in wanted]
    return emit, overrides
