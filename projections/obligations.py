"""Obligations in force: enforced passes (1997 25B2b1) and lead restrictions
(Law 26 in both editions; 50D, 54D in part 2)."""

from __future__ import annotations

from projections.state import AUCTION, ENDED, MustPass, Restriction, TableState


def active_must_pass(state: TableState) -> list[MustPass]:
    out = []
    for ob in state.partner_must_pass:
        if state.phase != AUCTION:
            continue
        if ob.until == "next_turn" and any(a.seat is ob.seat and a.seq > ob.seq for a in state.auction):
            continue
        out.append(ob)
    return out


def active_restrictions(state: TableState) -> list[Restriction]:
    """A ``next_lead`` restriction ends with the seat's next lead; a
    ``while_on_lead`` one ends when the lead passes to another player."""
    out = []
    for r in state.lead_restrictions:
        led_after = [t for t in state.tricks if t.cards and t.cards[0].seq > r.seq]
        if r.lasts == "next_lead" and any(t.leader is r.seat for t in led_after):
            continue
        if r.lasts == "while_on_lead" and any(t.leader is not r.seat or (t.complete and t.winner is not r.seat)
                                              for t in led_after):
            continue  # the lead passed to another player (a trick he led was won by another)
        if state.phase == ENDED:
            continue
        out.append(r)
    return out
