"""The table state document of spec section 5, built from a TableState.

Extensions to the spec (documented in docs/EXTENSIONS.md): ``board`` also
carries ``deal`` (the original deal, PBN), ``ns``, ``ew``, ``scoring``, ``match``
and ``room``; unprocessed irregularities carry ``type`` and ``detail``;
``call_rulings`` says how the Laws read each changed or irregular call;
``card_rulings`` says how the Laws read each card fact that did more than
play a card or not (46B designations, 45C4b, 45D, 47); ``exposed_cards``
lists defenders' cards exposed without being played (49), still in the
hand: the penalty cards of Law 50 will be designated from them; ``voided``
lists the entries voided as entry errors (``EntryVoided``), which the fold skipped.

The document is composed here; the Law families hand it their sections
(:data:`SECTIONS`, registered by the composition root ``ledger.laws`` from each
family's ``document``) and the values it shows derived by a family (the board's
irregularities, the exposures in force, the result in force:
``projections.derived.read``). This module imports no family.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from ledger.bridge import SEATS
from projections.derived import read
from projections.obligations import active_must_pass, active_restrictions
from projections.state import Exposure, Irregularity, Result, TableState
from projections.vocab import IrregularityKind
from projections.waiting import review_law


class Section(Protocol):
    """A family's part of the state document: the JSON value of one key."""

    def __call__(self, state: TableState, /) -> Any: ...


FAMILY_SECTIONS = ("call_rulings", "penalty_cards", "leads_out_of_turn", "card_rulings", "required_calls",
                   "call_restrictions", "play_restrictions", "premature_plays", "transfers", "adjusted", "claim",
                   "decisions", "appeals", "irregular_boards", "revokes")
"""The keys of the document a family supplies (each by exactly one family)."""

SECTIONS: dict[str, Section] = {}
"""The families' sections by key (``ledger.laws`` registers them from ``Family.document``)."""
SECTION_OWNERS: dict[str, str] = {}


def sections(supplied: Mapping[str, Section], owner: str) -> None:
    """Register a family's sections; a key outside :data:`FAMILY_SECTIONS` or supplied twice fails."""
    for key, section in supplied.items():
        if key not in FAMILY_SECTIONS:
            raise RuntimeError(f"document section {key!r} of {owner} is not a family's key of the document")
        if key in SECTIONS:
            raise RuntimeError(f"document section {key!r} supplied twice: by {SECTION_OWNERS[key]} and {owner}")
        SECTIONS[key] = section
        SECTION_OWNERS[key] = owner


def missing_sections() -> list[str]:
    """The family keys of the document no family supplies."""
    return [key for key in FAMILY_SECTIONS if key not in SECTIONS]


def to_document(state: TableState, verified: bool | None = None) -> dict[str, Any]:
    s = SECTIONS
    if len(s) != len(FAMILY_SECTIONS):
        raise RuntimeError(f"document sections not supplied: {missing_sections()} (import ledger.laws, "
                           "the composition root)")
    b = state.board
    contract = state.contract
    won_decl, won_def = state.tricks_won()
    result: Result | None = read(state, "result in force")
    exposures: tuple[Exposure, ...] = read(state, "exposures")
    irregularities: tuple[Irregularity, ...] = read(state, "irregularities")
    return {
        "stream": state.stream,
        "seq": state.seq,
        "laws": state.edition,
        "board": {
            "tournament": b.tournament, "number": b.board, "table": b.table,
            "dealer": str(b.dealer), "vulnerability": str(b.vulnerability),
            "deal": b.deal.to_pbn(), "ns": b.ns, "ew": b.ew, "scoring": b.scoring,
            "match": b.match, "room": b.room,
        },
        "phase": state.phase,
        "turn": str(state.turn) if state.turn else None,
        "auction": [{"seq": a.seq, "seat": str(a.seat), "call": str(a.call), "law": a.law}
                    for a in state.auction],
        "calls_not_made": [{"seq": n.seq, "seat": str(n.seat), "call": n.what, "reason": n.reason,
                            "law": n.law} for n in state.calls_not_made],
        "call_rulings": s["call_rulings"](state),
        "contract": None if contract is None else {
            "level": contract.level, "strain": str(contract.strain), "risk": contract.risk.value,
            "declarer": str(contract.declarer)},
        "dummy": str(state.dummy) if state.dummy else None,
        "tricks": [{"number": t.number, "leader": str(t.leader),
                    "cards": [{"seat": str(p.seat), "card": str(p.card), "seq": p.seq, "law": p.law}
                              for p in t.cards],
                    "winner": str(t.winner) if t.winner else None}
                   for t in state.tricks],
        "plays_not_made": [{"seq": n.seq, "seat": str(n.seat), "card": n.what, "reason": n.reason,
                            "law": n.law} for n in state.plays_not_made],
        "hands": {str(seat): [str(c) for c in state.hand(seat)] for seat in SEATS},
        "penalty_cards": s["penalty_cards"](state),
        "leads_out_of_turn": s["leads_out_of_turn"](state),
        "card_rulings": s["card_rulings"](state),
        "exposed_cards": [{"seq": x.seq, "seat": str(x.seat), "card": str(x.card), "how": x.how, "law": x.law}
                          for x in exposures if state.holds(x.seat, x.card)],
        "lead_restrictions": [{"seat": str(r.seat), "suit": str(r.suit), "mode": r.mode, "lasts": r.lasts}
                              for r in active_restrictions(state)],
        "partner_must_pass": [{"seat": str(m.seat), "until": m.until} for m in active_must_pass(state)],
        "required_calls": s["required_calls"](state),
        "call_restrictions": s["call_restrictions"](state),
        "play_restrictions": s["play_restrictions"](state),
        "premature_plays": s["premature_plays"](state),
        "caps": [{"side": str(c.side), "max": c.max} for c in state.caps],
        "pending": [{"to": str(o.to), "options": list(o.options), "law": o.law, "seq": o.seq}
                    for o in state.pending],
        "irregularities": [_irregularity(i) for i in irregularities],
        "tricks_won": {"declarer": won_decl, "defenders": won_def},
        "transfers": s["transfers"](state),
        "result": None if result is None else {
            "contract": result.contract,
            "declarer": str(result.declarer) if result.declarer else None,
            "risk": result.risk, "tricks": result.tricks,
            "score_ns": result.score_ns, "text": result.text},
        "adjusted": s["adjusted"](state),
        "review": [{"reason": r.reason, "seq": r.seq, "about": r.about,
                    "law": review_law(r.reason, state.edition)}
                   for r in state.review if not r.resolved],
        "findings": [{"seq": f.seq, "about": f.about, "field": f.field, "value": f.value}
                     for f in state.findings],
        "claim": s["claim"](state),
        "correction_period_ended": state.correction_period_ended,
        "procedural_penalties": [{"side": side, "amount": amount} for side, amount in state.penalties],
        "result_cancelled": state.result_cancelled,
        "decisions": s["decisions"](state),
        "appeals": s["appeals"](state),
        "irregular_boards": s["irregular_boards"](state),
        "revokes": s["revokes"](state),
        "procedure": [{"seq": f.seq, "type": f.type, "by": str(f.by) if f.by else None,
                       "to": str(f.to) if f.to else None, "about": f.about, "detail": f.detail or None}
                      for f in state.procedure],
        "voided": [{"seq": v.seq, "by_seq": v.by, "reason": v.reason} for v in state.voided],
        "integrity": {"head": state.head, "verified": verified},
    }


_AS_LOGGED = frozenset({IrregularityKind.UNPROCESSED, IrregularityKind.ADJUSTMENT_NOT_APPLIED})
"""Irregularities the document shows with the fact's type and detail: an action stored as logged that
no Law rules on, an adjusted score stored but not in force (``ledger.laws.scores``)."""


def _irregularity(i: Irregularity) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": i.kind, "offender": i.offender, "seq": i.seq, "law": i.law}
    if i.trick is not None:
        out["trick"] = i.trick
    if i.established is not None:
        out["established"] = i.established
    if i.kind in _AS_LOGGED:
        out["type"] = i.type
        out["detail"] = i.detail
    return out
