"""What the live pages share: the templates' environment and the helpers that turn a
state document into what a page shows (calls and cards in symbols, the auction grid,
the Laws' options as buttons, the state as ``cli.py state`` prints it)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ledger.live.sessions import Session
from ledger.bridge import SEAT_NAMES
from ledger.render import IRREGULARITY_WORDS, PENALTY_KIND_WORDS, option_words

TEMPLATES = Path(__file__).resolve().parent / "templates"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}


def call_text(call: str) -> str:
    for strain, sign in SUITS.items():
        if call[1:] == strain and call[:1].isdigit():
            return f"{call[0]}{sign}"
    return {"Pass": "Pass", "X": "X", "XX": "XX"}.get(call, call)


def card_text(card: str) -> str:
    return f"{SUITS.get(card[0], card[0])}{'10' if card[1:] == 'T' else card[1:]}"


def page_env() -> Environment:
    """The templates, with the words and symbols every page uses."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape())
    env.globals.update(suits=SUITS, seat_names=SEAT_NAMES, call_text=call_text, card_text=card_text,
                       irregularity_words=IRREGULARITY_WORDS,  # the families' words, as the terminal prints them
                       penalty_kind_words=PENALTY_KIND_WORDS)
    return env


def state_as_cli(doc: dict[str, Any]) -> str:
    """The readable state exactly as ``cli.py state`` prints it (rich), as plain text."""
    from rich.console import Console

    from ledger.render import render_state

    console = Console(record=True, width=110, color_system=None, file=open(os.devnull, "w"))
    try:
        console.print(render_state(doc))
        return console.export_text()
    finally:
        console.file.close()


def seating(session: Session, table: int, rnd: int | None) -> Any:
    return session.movement[(rnd or 1) - 1][table - 1]


def auction_grid(doc: dict[str, Any]) -> list[list[str]]:
    """Rows of four cells W N E S, the dealer's first call in its column."""
    order = ["W", "N", "E", "S"]
    dealer = doc["board"]["dealer"]
    cells = [""] * order.index(dealer) + [call_text(a["call"]) for a in doc.get("auction") or []]
    if doc.get("phase") == "auction" and doc.get("turn"):
        cells.append("?")
    return [cells[i:i + 4] + [""] * (4 - len(cells[i:i + 4])) for i in range(0, len(cells), 4)] or [[""] * 4]


def option_buttons(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pending option as a button: seat, option, suit (for require/forbid suit), and
    what it means under the Law that offered it (the families' words, as the terminal's
    state prints them), for players who do not know the option's name."""
    out = []
    for offer in doc.get("pending") or []:
        for option in offer["options"]:
            words = option_words(option, offer["law"])
            if option in ("require_suit", "forbid_suit"):
                for suit in ("S", "H", "D", "C"):
                    out.append({"seat": offer["to"], "option": option, "suit": suit, "law": offer["law"],
                                "label": f"{option.replace('_', ' ')} {SUITS[suit]}", "words": words})
            else:
                out.append({"seat": offer["to"], "option": option, "suit": None, "law": offer["law"],
                            "label": option.replace("_", " "), "words": words})
    return out
