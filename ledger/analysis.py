"""Double-dummy analysis of a table state (``cli.py analyse``), on endplay's DDS solver.

An optional extra (``pip install 'bridge-ruling-ledger[analysis]'``): endplay
ships Bo Haglund's DDS solver, but brings numpy and matplotlib, so it stays out
of the core install (and out of the PBN reader, which is our own).  endplay is
imported lazily; without it :func:`analyse` raises :class:`AnalysisUnavailable`
naming the extra.

* :func:`dd_table`: the double-dummy table of a deal: for each strain and each
  declarer, the tricks declarer's side takes with best play by all four.
* :func:`card_tricks`: for the player on turn (dummy's seat on dummy's turn),
  the tricks of the remaining ones that each legal card gives his side, and
  the total with the tricks his side has already won.
"""

from __future__ import annotations

from typing import Any

from ledger.bridge import SEATS, Deal, Seat
from ledger.errors import LedgerError
from projections.state import OPENING_LEAD, PLAY, TableState

__all__ = ["AnalysisUnavailable", "analyse", "card_tricks", "dd_table", "render_analysis"]

EXTRA = "pip install 'bridge-ruling-ledger[analysis]'"
STRAINS = ("C", "D", "H", "S", "NT")


class AnalysisUnavailable(LedgerError):
    """The analysis extra (endplay) is not installed, or DDS cannot solve the position."""

    exit_code = 1


def _endplay():
    try:
        import endplay.dds as dds
        import endplay.types as types
    except ImportError as exc:
        raise AnalysisUnavailable(
            f"double-dummy analysis needs the optional 'analysis' extra (endplay, with the DDS "
            f"solver): {EXTRA}  ({exc})") from None
    return dds, types


def dd_table(deal: Deal) -> dict[str, dict[str, int]]:
    """``{strain: {declarer seat: tricks}}`` for the 5 strains and 4 declarers."""
    dds, types = _endplay()
    table = dds.calc_dd_table(types.Deal(deal.to_pbn()))
    denoms = {"C": types.Denom.clubs, "D": types.Denom.diamonds, "H": types.Denom.hearts,
              "S": types.Denom.spades, "NT": types.Denom.nt}
    players = {"N": types.Player.north, "E": types.Player.east, "S": types.Player.south,
               "W": types.Player.west}
    return {strain: {seat: int(table[denoms[strain], players[seat]]) for seat in players}
            for strain in STRAINS}


def _hand_pbn(cards) -> str:
    return ".".join("".join(c.rank for c in sorted(cards, key=lambda c: -c.strength)
                            if c.suit.value == suit) for suit in "SHDC")


def card_tricks(state: TableState) -> dict[str, Any]:
    """The player on turn and, for each legal card, the tricks it gives his side."""
    dds, types = _endplay()
    if state.phase not in (OPENING_LEAD, PLAY) or state.contract is None:
        raise AnalysisUnavailable(f"no card to analyse: the board is in phase {state.phase.value!r}")
    turn = state.turn
    assert turn is not None
    contract = state.contract
    trick = state.current_trick
    in_trick = list(trick.cards) if trick is not None and not trick.complete else []
    hands = {seat: list(state.hand(seat)) for seat in SEATS}
    for played in in_trick:  # back into the hands, then played again on endplay's deal
        hands[played.seat].append(played.card)
    sizes = {len(cards) for cards in hands.values()}
    if len(sizes) != 1:
        raise AnalysisUnavailable("the hands left do not hold the same number of cards "
                                  "(an irregularity not yet ruled on); no double-dummy analysis")
    deal = types.Deal("N:" + " ".join(_hand_pbn(hands[seat]) for seat in SEATS))
    deal.trump = {"C": types.Denom.clubs, "D": types.Denom.diamonds, "H": types.Denom.hearts,
                  "S": types.Denom.spades, "NT": types.Denom.nt}[str(contract.strain)]
    leader = in_trick[0].seat if in_trick else turn
    deal.first = types.Player.find(str(leader))
    for played in in_trick:
        deal.play(str(played.card))
    try:
        solved = list(dds.solve_board(deal))
    except Exception as exc:  # DDS reports a position it cannot solve
        raise AnalysisUnavailable(f"DDS cannot solve this position: {exc}") from None
    side = turn.side
    won_declarer, won_defenders = state.tricks_won()
    already = won_declarer if side is contract.side else won_defenders
    cards = sorted(((_card_text(card), int(tricks)) for card, tricks in solved),
                   key=lambda item: (-item[1], "SHDC".index(item[0][0]),
                                     -"23456789TJQKA".index(item[0][1])))
    remaining = len(hands[turn])
    return {
        "turn": str(turn), "side": str(side), "plays_for": _plays_for(state, turn),
        "remaining_tricks": remaining, "already_won": already,
        "cards": [{"card": c, "tricks": t, "total": t + already} for c, t in cards],
    }


def _plays_for(state: TableState, turn: Seat) -> str:
    return str(state.declarer) if turn is state.dummy else str(turn)


def _card_text(card) -> str:
    suit = "SHDC"[int(card.suit)]
    rank = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}.get(int(card.rank.value).bit_length() - 1,
                                                           None)
    if rank is None:
        rank = str(int(card.rank.value).bit_length() - 1)
    return suit + rank


def analyse(state: TableState) -> dict[str, Any]:
    """The analysis document: the stream, seq, contract, the cards of the player on turn
    (null when no card is due), and the double-dummy table of the deal."""
    doc: dict[str, Any] = {
        "stream": state.stream, "seq": state.seq, "phase": state.phase,
        "contract": None if state.contract is None else {
            "level": state.contract.level, "strain": str(state.contract.strain),
            "risk": state.contract.risk.value, "declarer": str(state.contract.declarer)},
        "play": None,
        "dd_table": dd_table(state.board.deal),
    }
    if state.phase in (OPENING_LEAD, PLAY) and state.contract is not None:
        doc["play"] = card_tricks(state)
    return doc


def render_analysis(doc: dict[str, Any]):
    """The analysis for the terminal (rich)."""
    from rich.console import Group
    from rich.table import Table

    parts: list[Any] = []
    play = doc["play"]
    if play is not None:
        who = play["turn"] if play["plays_for"] == play["turn"] else \
            f"{play['turn']} (dummy, played by {play['plays_for']})"
        cards = Table(title=f"{doc['stream']} after seq {doc['seq']}: {who} to play; double-dummy "
                            f"tricks for {play['side']} ({play['already_won']} already won, "
                            f"{play['remaining_tricks']} to play)", title_justify="left")
        cards.add_column("card")
        cards.add_column("of the remaining", justify="right")
        cards.add_column("in all", justify="right")
        for c in play["cards"]:
            cards.add_row(c["card"], str(c["tricks"]), str(c["total"]))
        parts.append(cards)
    table = Table(title="double-dummy table of the deal (tricks for declarer)", title_justify="left")
    table.add_column("declarer")
    for strain in STRAINS:
        table.add_column(strain, justify="right")
    for seat in ("N", "S", "E", "W"):
        table.add_row(seat, *(str(doc["dd_table"][strain][seat]) for strain in STRAINS))
    parts.append(table)
    return Group(*parts)

