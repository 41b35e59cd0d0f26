"""What people read (issue 15): each option's words fit the Law that offered it, review
reasons carry the edition, a reserved right is not an irregular board, claims are in the
readable state."""

from __future__ import annotations

import io

from rich.console import Console

from ledger.render import option_words, render_state
from ledger.scenario import replay_text
from ledger.service import Ledger


def text(doc: dict) -> str:
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render_state(doc))
    return " ".join(console.export_text().split())


def test_accept_means_the_insufficient_bid_under_27a1_and_the_lead_under_53():
    assert option_words("accept", "2017:27A1") == "accept the insufficient bid: it stands"
    assert "replaces it by a legal call" in option_words("refuse", "2017:27A1")
    assert option_words("accept", "2017:53A") == "accept the lead out of turn"
    assert option_words("accept", "1997:55A") == "accept declarer's lead out of turn"
    assert "lead" not in option_words("accept", "2017:52")


def test_an_insufficient_bid_offer_reads_as_one():
    with Ledger.open("sqlite:///:memory:", create=True) as ledger:
        ledger.append("t/1", [{"type": "BoardOpened", "tournament": "t", "board": 1, "table": "1",
                               "deal": "N:AKJ74.K2.Q93.A85 Q3.AQJT9.K84.962 T986.753.AJ2.KQ4 52.864.T765.JT73"},
                              {"type": "CallPlaced", "seat": "N", "call": "1S"},
                              {"type": "CallPlaced", "seat": "E", "call": "1H"}])
        shown = text(ledger.state("t/1"))
    assert "accept (accept the insufficient bid: it stands)" in shown
    assert "accept the lead" not in shown


def test_a_review_reason_carries_the_edition_and_a_disputed_claim_is_in_the_readable_state():
    scenario = open("tests/scenarios/claim-70-2017-disputed-claim-with-revoke.jsonl", encoding="utf-8").read()
    lines = scenario.splitlines()
    before_ruling = "\n".join(lines[:next(i for i, l in enumerate(lines) if '"ClaimRuled"' in l)])
    with replay_text(before_ruling) as (ledger, stream):
        shown = text(ledger.state(stream))
    assert "Director review required: 2017:70 disputed claim" in shown
    assert "Claim by S" in shown and "disputed by E" in shown and "the director is to rule" in shown
    with replay_text(scenario) as (ledger, stream):
        shown = text(ledger.state(stream))
    assert "the director ruled 10 tricks to S's side" in shown and "declarer has the rest on any line" in shown
    assert "— 2017:70" in shown


def test_a_reserved_right_is_not_headed_irregular_board():
    doc = {"irregular_boards": [{"seq": 5, "type": "RightsReserved", "seat": "N", "ruling": "rights_reserved",
                                 "law": "2017:16B2", "detail": "East hesitated"}]}
    shown = text(doc)
    assert "Rights reserved by N, seq 5: rights reserved: East hesitated — 2017:16B2" in shown
    assert "Irregular board" not in shown


def test_the_log_of_a_whole_board_is_one_line_an_event_at_80_columns(tmp_path, capsys, monkeypatch):
    from ledger.cli import main

    monkeypatch.setenv("COLUMNS", "80")
    db = f"sqlite:///{tmp_path / 'l.db'}"
    assert main(["--db", db, "demo"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "log", "demo/realbridge/b14"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines) and "\u0336" not in "\n".join(lines)
    continued = [line for line in lines if line.startswith("        ")]
    assert len(lines) - len(continued) == 68  # 68 events, 68 lines that begin with their seq
    assert len(continued) <= 3  # only BoardOpened's names and deal wrap
