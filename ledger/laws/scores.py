"""Scores and appeals (Laws 12, 82, 90, 92/93): adjusted scores, procedural penalties and
appeals, their reading in the table fold. The family prescribes nothing: each of its facts is
the director's or the committee's own decision, which the fold reads.

* ``AdjustedScoreAwarded`` (director or committee) puts the award in
  ``state.adjusted``: the latest valid award is the one in force.  An award
  cancelled by a ``RulingOverridden`` is not folded at all
  (:mod:`projections.resolve`), so the award before it (or the table result)
  is in force again.  Nothing is deleted: every award stays in the log and in
  the case file's history.
* An award is *not valid*, and is listed in ``irregularities`` (kind
  ``adjustment_not_applied``) instead of taking effect, when
  - it is a weighted score given by the director under the 1997 Laws (1997
    12C3: only an appeals committee may vary an assigned score to do equity);
  - it is the director's, after the appeals committee decided on the board
    (the committee's decision stands; only a committee event changes it).
* ``ProceduralPenalty`` (Law 90) adds ``(side, amount)`` to ``state.penalties``.
* ``AppealLodged`` opens an appeal; ``AppealDecided`` decides the latest open
  one.  A ``changed`` decision is followed by the committee's own
  ``AdjustedScoreAwarded`` or ``RulingOverridden`` (``followed_by``); until then
  the document shows the appeal as awaiting the committee's score.

Handlers read the role of the event's actor (``step.role``): who
decided matters for the Laws here, and the fold is otherwise role-blind.
"""

from __future__ import annotations

from typing import Any

import attrs

from ledger import events as ev
from ledger.laws.base import Citations, cited, handles
from projections.fold import Step
from projections.procedure import journalled
from projections.state import Adjusted, Appeal, Decision, Irregularity, TableState
from projections.vocab import IrregularityKind
from projections.waiting import answered_by_ruling

LAWS = ("12", "82", "90", "92", "93")
"""The Laws this family rules on (``ledger.laws.find_law``)."""

CITATIONS: Citations = {
    "weighted_by_the_committee_only": {"1997": "12C3"},  # 2017 12C1c: the director may weight too
}
"""Where the editions differ: which of them reserves a weighted score to the appeals committee."""

BOARD_REVIEW_PREFIX = ("13", "14", "15", "16", "1997:13", "1997:14", "1997:15", "1997:16", "1997:17",
                       "2017:13", "2017:14", "2017:15", "2017:16")


def summary(event: ev.AdjustedScoreAwarded) -> str:
    if event.kind == "artificial":
        return f"artificial: NS {event.ns}, EW {event.ew}"
    parts = []
    for r in event.results or ():
        text = "Pass" if r["contract"] == "Pass" else \
            f"{r['contract']}{r.get('risk', '')} by {r['declarer']}, {r['tricks']} tricks"
        if r.get("side", "both") != "both":
            text = f"{r['side']}: {text}"
        if "weight" in r:
            text = f"{r['weight']} x {text}"
        parts.append(text)
    return f"{event.kind}: " + "; ".join(parts)


def _committee_decided(state: TableState) -> Appeal | None:
    return next((a for a in reversed(state.appeals) if a.decided is not None), None)


def _not_applied(state: TableState, seq: int, event: ev.Event, detail: str, law: str | None) -> TableState:
    return state.add_irregularity(Irregularity(IrregularityKind.ADJUSTMENT_NOT_APPLIED, seq, event.TYPE, detail=detail, law=law))


@handles(ev.AdjustedScoreAwarded)
@journalled
def on_adjusted_score(state: TableState, step: Step[ev.AdjustedScoreAwarded]) -> TableState:
    seq, event = step.seq, step.event
    role = step.role
    if event.kind == "weighted" and state.edition in CITATIONS["weighted_by_the_committee_only"] \
            and role != ev.COMMITTEE:
        return _not_applied(state, seq, event, "a weighted score under the 1997 Laws is the appeals "
                            "committee's (1997 12C3); the director assigns a score (12C2)",
                            cited(state, CITATIONS, "weighted_by_the_committee_only"))
    decided = _committee_decided(state)
    if decided is not None and role != ev.COMMITTEE:
        return _not_applied(state, seq, event, f"the appeals committee decided at seq {decided.decided}; "
                            "only the committee's own events change its decision", None)
    award = Adjusted(seq=seq, kind=event.kind, ns=event.ns, ew=event.ew,
                     results=tuple(dict(r) for r in event.results or ()), law=event.law, text=event.text,
                     by=role)
    state = attrs.evolve(state, adjusted=award,
                         decisions=state.decisions + (Decision(seq, event.TYPE, role, summary(event), event.law),),
                         review=tuple(attrs.evolve(r, resolved=True) if _board_review(r.reason) else r
                                      for r in state.review))
    return _follow_appeal(state, seq, role)


def _board_review(reason: str) -> bool:
    """A question of Laws 13 to 16 (or of an adjusted score) that an award answers."""
    return reason.startswith(BOARD_REVIEW_PREFIX) or "adjusted score" in reason


def _follow_appeal(state: TableState, seq: int, role: str) -> TableState:
    """A committee event after a ``changed`` decision is the change itself."""
    if role != ev.COMMITTEE or not state.appeals:
        return state
    last = state.appeals[-1]
    if last.decision == "changed" and last.followed_by is None:
        return attrs.evolve(state, appeals=state.appeals[:-1] + (attrs.evolve(last, followed_by=seq),))
    return state


@handles(ev.ProceduralPenalty)
def on_procedural_penalty(state: TableState, step: Step[ev.ProceduralPenalty]) -> TableState:
    seq, event = step.seq, step.event
    role = step.role
    text = f"{event.side} {event.amount}: {event.text}"
    return attrs.evolve(state, penalties=state.penalties + ((str(event.side), event.amount),),
                        decisions=state.decisions + (Decision(seq, event.TYPE, role, text, event.law),))


@handles(ev.RulingOverridden)
def on_ruling_overridden(state: TableState, step: Step[ev.RulingOverridden]) -> TableState:
    """Its effect is in projections.resolve (the target is not folded); a director's
    or committee's override is a decision of the board's history."""
    seq, event = step.seq, step.event
    role = step.role
    if role not in (ev.DIRECTOR, ev.COMMITTEE):
        return state
    about = event.about if isinstance(event.about, int) else None
    state = attrs.evolve(state, decisions=state.decisions + (
        Decision(seq, event.TYPE, role, f"cancels seq {event.about}: {event.text}", None, about),))
    return _follow_appeal(state, seq, role)


@handles(ev.AppealLodged)
def on_appeal_lodged(state: TableState, step: Step[ev.AppealLodged]) -> TableState:
    seq, event = step.seq, step.event
    role = step.role
    appeal = Appeal(seq, event.side, event.text)
    return attrs.evolve(state, appeals=state.appeals + (appeal,),
                        decisions=state.decisions + (Decision(seq, event.TYPE, role, f"{event.side}: {event.text}"),))


@handles(ev.AppealDecided)
def on_appeal_decided(state: TableState, step: Step[ev.AppealDecided]) -> TableState:
    seq, event = step.seq, step.event
    role = step.role
    open_ = next((a for a in reversed(state.appeals) if a.decided is None), None)
    if open_ is None:
        return state.add_irregularity(Irregularity(IrregularityKind.UNPROCESSED, seq, event.TYPE,
                                                   detail="an appeal decision with no appeal lodged"))
    decided = attrs.evolve(open_, decided=seq, decision=event.decision, decision_text=event.text)
    appeals = tuple(decided if a.seq == open_.seq else a for a in state.appeals)
    return attrs.evolve(state, appeals=appeals, decisions=state.decisions + (
        Decision(seq, event.TYPE, role, f"{event.decision}: {event.text}"),))


@handles(ev.RulingGiven)
@journalled
def on_ruling_given(state: TableState, step: Step[ev.RulingGiven]) -> TableState:
    """The ruling as explained at the table: a decision of the board's history (and,
    citing a Law, the answer to the questions asked under it: ledger.laws.boards)."""
    seq, event = step.seq, step.event
    role = step.role
    state = attrs.evolve(state, decisions=state.decisions + (
        Decision(seq, event.TYPE, role, event.text, ", ".join(event.laws) or None),))
    return answered_by_ruling(state, event.laws)  # the open questions it answers


def adjusted_document(state: TableState) -> dict[str, Any] | None:
    """The ``adjusted`` key of the state document: the award in force, with its Law."""
    a = state.adjusted
    if a is None:
        return None
    out: dict[str, Any] = {"kind": a.kind, "law": a.law, "seq": a.seq, "by": a.by, "text": a.text}
    if a.kind == "artificial":
        out["ns"], out["ew"] = a.ns, a.ew
    else:
        out["results"] = [dict(r) for r in a.results]
    return out


def adjusted_for_results(state: TableState) -> dict[str, Any] | None:
    """What ``projections.results`` reads: ``{kind, ns, ew, results, law}``."""
    a = state.adjusted
    if a is None:
        return None
    out: dict[str, Any] = {"kind": a.kind, "law": a.law}
    if a.kind == "artificial":
        out["ns"], out["ew"] = a.ns, a.ew
    else:
        out["results"] = [dict(r) for r in a.results]
    return out


def decisions_document(state: TableState) -> list[dict[str, Any]]:
    return [{"seq": d.seq, "type": d.type, "by": d.by, "summary": d.summary, "law": d.law,
             **({"about": d.about} if d.about is not None else {})} for d in state.decisions]


def appeals_document(state: TableState) -> list[dict[str, Any]]:
    return [{"seq": a.seq, "side": str(a.side), "text": a.text, "decided": a.decided,
             "decision": a.decision, "decision_text": a.decision_text,
             "awaiting_committee_score": a.decision == "changed" and a.followed_by is None,
             "followed_by": a.followed_by} for a in state.appeals]


# -- words -----------------------------------------------------------------

IRREGULARITIES: dict[IrregularityKind, str] = {
    IrregularityKind.ADJUSTMENT_NOT_APPLIED: "adjustment not applied",
}
"""How the irregularity this family records (``IrregularityKind``: 1997 12C3) reads for people."""
