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
"""

from __future__ import annotations

from typing import Any

from ledger.bridge import SEATS
from ledger.laws.boards import board_document
from ledger.laws.calls import call_rulings
from ledger.laws.claims import claim_document
from ledger.laws.cards import card_rulings_document
from ledger.laws.leads import leads_out_of_turn_document
from ledger.laws.premature import play_restrictions_document as play_restrictions, premature_document as premature_plays
from ledger.laws.rotation import call_restrictions, required_calls
from ledger.laws.penalty import document as penalty_cards_document
from ledger.laws.results import result_in_force
from ledger.laws.revokes import exposures, irregularities, procedure_document, revokes_document, transfers_document
from ledger.laws.scores import adjusted_document, appeals_document, decisions_document
from projections.obligations import active_must_pass, active_restrictions
from projections.state import TableState
from projections.waiting import review_law


def to_document(state: TableState, verified: bool | None = None) -> dict[str, Any]:
    b = state.board
    contract = state.contract
    won_decl, won_def = state.tricks_won()
    result = result_in_force(state)
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
        "call_rulings": call_rulings(state),
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
        "penalty_cards": penalty_cards_document(state),
        "leads_out_of_turn": leads_out_of_turn_document(state),
        "card_rulings": card_rulings_document(state),
        "exposed_cards": [{"seq": x.seq, "seat": str(x.seat), "card": str(x.card), "how": x.how, "law": x.law}
                          for x in exposures(state) if state.holds(x.seat, x.card)],
        "lead_restrictions": [{"seat": str(r.seat), "suit": str(r.suit), "mode": r.mode, "lasts": r.lasts}
                              for r in active_restrictions(state)],
        "partner_must_pass": [{"seat": str(m.seat), "until": m.until} for m in active_must_pass(state)],
        "required_calls": required_calls(state),
        "call_restrictions": call_restrictions(state),
        "play_restrictions": play_restrictions(state),
        "premature_plays": premature_plays(state),
        "caps": [{"side": str(c.side), "max": c.max} for c in state.caps],
        "pending": [{"to": str(o.to), "options": list(o.options), "law": o.law, "seq": o.seq}
                    for o in state.pending],
        "irregularities": [_irregularity(i) for i in irregularities(state)],
        "tricks_won": {"declarer": won_decl, "defenders": won_def},
        "transfers": transfers_document(state),
        "result": None if result is None else {
            "contract": result.contract,
            "declarer": str(result.declarer) if result.declarer else None,
            "risk": result.risk, "tricks": result.tricks,
            "score_ns": result.score_ns, "text": result.text},
        "adjusted": adjusted_document(state),
        "review": [{"reason": r.reason, "seq": r.seq, "about": r.about,
                    "law": review_law(r.reason, state.edition)}
                   for r in state.review if not r.resolved],
        "findings": [{"seq": f.seq, "about": f.about, "field": f.field, "value": f.value}
                     for f in state.findings],
        "claim": claim_document(state),
        "correction_period_ended": state.correction_period_ended,
        "procedural_penalties": [{"side": side, "amount": amount} for side, amount in state.penalties],
        "result_cancelled": state.result_cancelled,
        "decisions": decisions_document(state),
        "appeals": appeals_document(state),
        "irregular_boards": board_document(state),
        "revokes": revokes_document(state),
        "procedure": procedure_document(state),
        "voided": [{"seq": v.seq, "by_seq": v.by, "reason": v.reason} for v in state.voided],
        "integrity": {"head": state.head, "verified": verified},
    }


def _irregularity(i) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": i.kind, "offender": i.offender, "seq": i.seq, "law": i.law}
    if i.trick is not None:
        out["trick"] = i.trick
    if i.established is not None:
        out["established"] = i.established
    if i.kind == "unprocessed":
        out["type"] = i.type
        out["detail"] = i.detail
    if i.kind == "adjustment_not_applied":  # an award stored but not in force (ledger.laws.scores)
        out["type"] = i.type
        out["detail"] = i.detail
    return out
