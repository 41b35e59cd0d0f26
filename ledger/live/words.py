"""Words for players at a table: seats, calls and cards as they say them, and the ledger's
refusals turned into sentences without event names, sequence numbers, status codes or
addresses (a player is not an engineer). The director's pages keep the ledger's own words."""

from __future__ import annotations

import re

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps"}
RANK_WORDS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}
FACT_WORDS = {
    "CallPlaced": "call", "CallReplaced": "change of call", "CallPulled": "call",
    "CardPlayed": "card", "CardHeld": "card held", "CardDropped": "card dropped",
    "ClaimMade": "claim", "ClaimAgreed": "agreement to the claim", "ClaimDisputed": "objection to the claim",
    "OptionChosen": "choice", "DirectorCalled": "call for the director", "AttentionDrawn": "attention drawn",
    "ExplanationGiven": "explanation", "ExplanationCorrected": "corrected explanation",
    "ResultReported": "result", "EntryVoided": "undo", "BoardOpened": "start of the board",
    "LeadFaceDown": "lead face down", "LeadFaced": "lead faced",
}


def seat_word(seat: object) -> str:
    return SEAT_WORDS.get(str(seat), str(seat))


def call_words(call: str) -> str:
    if call == "Pass":
        return "Pass"
    if call == "X":
        return "Double"
    if call == "XX":
        return "Redouble"
    if call[:1].isdigit():
        return f"{call[0]}{SUIT_SIGNS.get(call[1:], call[1:])}"
    return call


def card_words(card: str) -> str:
    if len(card) < 2:
        return card
    return f"{SUIT_SIGNS.get(card[0], card[0])}{RANK_WORDS.get(card[1:], card[1:])}"


_SEQ = re.compile(r"\s*\((?:at )?seq(?:s)? [0-9, ]+\)|\bseq(?:s)? \d+\b|\bline \d+:?\s*")
_WHOSE = re.compile(r"\s*\(it is [NESW]'s card\)")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
_STREAM = re.compile(r"\b[\w.-]+/[\w.-]+/(?:(?:open|closed)/)?t\d+/b\d+\b")


def player_text(message: str) -> str:
    """The ledger's refusal in a player's words: event names replaced by what they are,
    no seq, no stream or URL, and never whose card a card is (that would tell a player
    where an unseen card lies: Law 16)."""
    text = _WHOSE.sub("", message or "")
    text = _URL.sub("(the server)", text)
    text = _STREAM.sub("this board", text)
    text = _SEQ.sub(" ", text)
    for name, words in FACT_WORDS.items():
        text = re.sub(rf"\b{name}\b", words, text)
    text = re.sub(r"\b([NESW])\b(?= (?:was|has|is|does|holds|played|plays|must|may|calls|called))",
                  lambda m: SEAT_WORDS[m.group(1)], text)
    text = re.sub(r"\b([SHDC])([2-9TJQKA])\b", lambda m: card_words(m.group(0)), text)
    return re.sub(r"\s{2,}", " ", text).strip()
