"""Findings and overrides: how the director's word changes the reading of the log.

The state after seq N is the fold of events 1..N where:

* each fact's judgment fields (``intentional``, ``unintended``, ...) take the
  value of the latest ``FindingMade`` about it among events 1..N (the
  director's finding wins over what the table logged);
* an event cancelled by a ``RulingOverridden`` or voided by an ``EntryVoided``
  among events 1..N is ignored (it keeps its seq; it has no effect).

So the state is a pure function of the log's prefix. An append of a finding
or an override refolds the stream from its first event (rare, and a board is
small); every other append is one fold step.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

from ledger import events as ev

JUDGMENT_FIELDS: dict[type[ev.Event], frozenset[str]] = {
    ev.CallPlaced: frozenset({"intentional", "over_substitute", "same_denomination", "comparable",
                                 "artificial", "over_call_out_of_rotation", "unintended", "without_pause",
                                 "mi_influenced"}),
    ev.CallReplaced: frozenset({"unintended", "without_pause", "mi_influenced"}),
    ev.CardPlayed: frozenset({"fifth_card"}),
    ev.CardHeld: frozenset({"partner_could_see", "face_up_near_table"}),
    ev.DummyCardCalled: frozenset({"lowest_winner"}),
    ev.DesignationChanged: frozenset({"inadvertent", "without_pause"}),
    ev.ClaimDisputed: frozenset({"immediate"}),  # spec 1.3: 68B2
}
"""The judgment (J) fields of spec section 3, per fact type: booleans."""

SPECIAL_FINDINGS = {
    "rectification_forfeited": None,  # 11A: on any irregular fact
    "all_agree": ev.HandCountWrong,  # 1997 13
    "waiver_cancelled": ev.RectificationWaived,
}


@attrs.frozen
class Recorded:
    """One stored event as the fold sees it."""

    seq: int
    hash: str
    id: str
    role: str
    event: ev.Event
    law: str | None = None


def findable_fields(event: ev.Event) -> frozenset[str]:
    fields = set(JUDGMENT_FIELDS.get(type(event), frozenset()))
    for name, owner in SPECIAL_FINDINGS.items():
        if owner is None and event.FAMILY in ("auction", "play"):
            fields.add(name)
        elif owner is not None and isinstance(event, owner):
            fields.add(name)
    return frozenset(fields)


def _seq_of(ref: int | str, ids: dict[str, int]) -> int | None:
    return ref if isinstance(ref, int) else ids.get(ref)


def resolve(records: Sequence[Recorded]) -> list[tuple[Recorded, bool]]:
    """The records with findings applied to their facts, and for each whether
    it is in force (False: cancelled by an override)."""
    ids = {r.id: r.seq for r in records}
    findings: dict[int, dict[str, object]] = {}
    cancelled: set[int] = set()
    for r in records:
        e = r.event
        if isinstance(e, ev.FindingMade):
            target = _seq_of(e.about, ids)
            if target is not None and e.field in JUDGMENT_FIELDS.get(type(records[target - 1].event), ()):
                findings.setdefault(target, {})[e.field] = e.value
        elif isinstance(e, (ev.RulingOverridden, ev.EntryVoided)):
            target = _seq_of(e.about, ids)
            if target is not None:
                cancelled.add(target)
    out = []
    for r in records:
        if refers_by_id(r.event):  # spec section 3: every `about` may be an event id; the state names seqs
            target = ids.get(r.event.about)  # type: ignore[attr-defined]  # refers_by_id: the event has `about`
            if target is not None:
                r = attrs.evolve(r, event=attrs.evolve(r.event, about=target))  # type: ignore[misc]  # events are attrs classes
        if r.seq in findings:
            r = attrs.evolve(r, event=attrs.evolve(r.event, **findings[r.seq]))  # type: ignore[misc]  # events are attrs classes
        out.append((r, r.seq not in cancelled))
    return out


def refers_by_id(event: ev.Event) -> bool:
    """The event names another by its id (``about`` a string, spec section 3): the fold reads it as
    the seq of that event (:func:`resolve`)."""
    return isinstance(getattr(event, "about", None), str) and not isinstance(event, KEPT_AS_ID)


KEPT_AS_ID = (ev.AttentionDrawn, ev.DirectorCalled, ev.RightsReserved)
"""Facts whose id reference the revoke rules read as they are (``ProcedureFact.detail``: attention
drawn "about" an id names the revoke in question, 64B2 reads it so); not rewritten to a seq."""


def needs_refold(records: Iterable[Recorded]) -> bool:
    return any(isinstance(r.event, REREAD) or refers_by_id(r.event) for r in records)


REREAD = (ev.FindingMade, ev.RulingOverridden, ev.EntryVoided, ev.DefectiveTrickFound)
"""Facts that change the reading of earlier ones: the stream is folded again from its start (a
``DefectiveTrickFound``, spec 1.3: the defective trick closed at three cards, ``ledger.laws.defective``)."""
