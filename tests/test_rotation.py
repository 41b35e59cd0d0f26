"""Issue 12, the auction irregularities, through the ordinary append path: what the
scenario files (tests/scenarios/rotation-*, inadmissible-*, exposed-*, calls-27-1997-*)
do not pin on their own: the readable state's words and the refusals (exit 2, nothing
written)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ledger.errors import BadInput
from ledger.render import render_state
from ledger.service import Ledger

DEAL = "N:KQJ84.3.J2.AQ975 A5.AKQJ92.K84.J3 T972.T65.Q763.K8 63.874.AT95.T642"


def table(laws: str = "2017") -> Ledger:
    ledger = Ledger.open("sqlite:///:memory:", create=True)
    ledger.append("t/b", [{"type": "BoardOpened", "tournament": "t", "board": 5, "table": "1", "dealer": "N",
                           "vulnerability": "NS", "laws": laws, "deal": DEAL}])
    return ledger


def log(ledger: Ledger, *facts: dict) -> None:
    for fact in facts:
        ledger.append("t/b", [fact])


def call(seat: str, c: str, **extra) -> dict:
    return {"type": "CallPlaced", "seat": seat, "call": c, **extra}


def rendered(ledger: Ledger) -> str:
    out = io.StringIO()
    Console(file=out, width=220, color_system=None).print(render_state(ledger.state("t/b")))
    return out.getvalue()


def test_the_readable_state_says_a_refused_bid_out_of_rotation_and_its_law():
    ledger = table()
    log(ledger, call("E", "1H"), {"type": "OptionChosen", "seat": "S", "option": "refuse"}, call("N", "Pass"))
    text = rendered(ledger)
    assert "out of rotation not accepted" in text and "must repeat" in text and "2017:31A" in text


def test_the_readable_state_says_an_inadmissible_double():
    ledger = table()
    log(ledger, call("N", "1S"), call("E", "Pass"), call("S", "X"))
    text = rendered(ledger)
    assert "double or redouble Law 19 does not allow" in text and "2017:36B" in text


@pytest.mark.parametrize("fact, match", [
    ({"type": "OptionChosen", "seat": "N", "option": "accept"}, "not N's"),  # the wrong seat
    ({"type": "OptionChosen", "seat": "S", "option": "forbid_suit", "suit": "H"}, "option not offered"),
    ({"type": "OptionChosen", "seat": "S", "option": "treat_as_penalty_card"}, "option not offered"),
    ({"type": "CallPlaced", "seat": "S", "call": "10NT"}, "call"),  # level 10: bad notation
    ({"type": "FindingMade", "about": 2, "field": "unintended", "value": True}, "unless it changes"),
])
def test_bad_input_is_refused_with_exit_2_and_nothing_written(fact, match):
    ledger = table()
    log(ledger, call("E", "1H"))  # a bid out of rotation: South's 29A option is open
    before = len(list(ledger.events("t/b")))
    with pytest.raises(BadInput, match=match) as refused:
        ledger.append("t/b", [fact])
    assert refused.value.exit_code == 2
    assert len(list(ledger.events("t/b"))) == before


def test_a_finding_on_the_lho_call_settles_28b():
    ledger = table()
    log(ledger, call("W", "1H"), call("N", "1S"))  # at the dealer's (North's) own turn
    assert ledger.state("t/b")["auction"] == []
    log(ledger, {"type": "FindingMade", "about": 5, "field": "over_call_out_of_rotation", "value": False})
    doc = ledger.state("t/b")
    assert [(a["seat"], a["call"]) for a in doc["auction"]] == [("N", "1S")]
    assert [(n["call"], n["law"]) for n in doc["calls_not_made"]] == [("1H", "2017:28B")]
    assert doc["turn"] == "E" and doc["partner_must_pass"] == [] and doc["review"] == []


def test_a_change_of_call_after_a_28a_deemed_pass_replaces_the_right_call():
    ledger = table()
    log(ledger, call("E", "Pass"), {"type": "OptionChosen", "seat": "S", "option": "refuse"}, call("N", "1S"),
        call("S", "2S"))  # 28A: East, barred, is deemed to have passed
    log(ledger, {"type": "CallReplaced", "seat": "S", "call": "3S", "unintended": True, "without_pause": True})
    doc = ledger.state("t/b")
    assert [(a["seat"], a["call"], a["law"]) for a in doc["auction"]] == [
        ("N", "1S", "FFB:57.3"), ("E", "Pass", "2017:28A"), ("S", "3S", "2017:25A1")]
    assert doc["turn"] == "W"


def test_the_readable_state_names_the_irregularity_kinds_in_words():
    ledger = table("1997")
    log(ledger, call("E", "1H"))
    assert "Irregularity: call out of rotation by E (seq 2) — 1997:31" in rendered(ledger)


# -- issue-auction: the readings added on this branch ---------------------------------------

def test_the_readable_state_says_the_lho_called_over_an_inadmissible_double_36a():
    ledger = table()
    log(ledger, call("N", "1S"), call("E", "Pass"), call("S", "X"), call("W", "Pass"))
    text = rendered(ledger)
    assert "W called over it before rectification" in text and "2017:36A" in text
    doc = ledger.state("t/b")
    assert doc["turn"] == "S" and doc["partner_must_pass"] == []
    events = {e.seq: e for e in ledger.events("t/b")}
    [override] = [e for e in events.values() if e.type == "RulingOverridden"]  # the engine, 82C
    assert events[override.data["about"]].type == "PartnerMustPass" and override.law == "2017:82C"
    assert override.causes[0] == 8  # West's call


def test_the_readable_state_says_a_barred_bid_stands_under_1997_35b():
    ledger = table("1997")
    log(ledger, call("E", "Pass"), {"type": "OptionChosen", "seat": "S", "option": "refuse"}, call("N", "1S"),
        call("E", "2H"), call("S", "2S"))
    text = rendered(ledger)
    assert "obliged to pass" in text and "it stands" in text and "1997:35B" in text
    assert [(a["seat"], a["call"], a["law"]) for a in ledger.state("t/b")["auction"]] == [
        ("N", "1S", "FFB:57.3"), ("E", "2H", "1997:35B"), ("S", "2S", "FFB:57.3")]


def test_the_readable_state_says_law_34_reverts_the_auction():
    ledger = table()
    log(ledger, call("N", "1S"), call("E", "Pass"), call("W", "Pass"), call("N", "Pass"))
    text = rendered(ledger)
    assert "Law 34" in text and "2017:34" in text and "the auction reverts to S" in text
    assert ledger.state("t/b")["turn"] == "S" and ledger.state("t/b")["phase"] == "auction"


def test_the_readable_state_says_a_call_replaced_after_a_withdrawal_is_the_call_again():
    ledger = table("1997")
    log(ledger, call("N", "1C"), {"type": "CallReplaced", "seat": "N", "call": "1S", "unintended": False},
        call("E", "1H", over_substitute=False), {"type": "CallReplaced", "seat": "E", "call": "2H"})
    text = rendered(ledger)
    assert "2♥ replaces 1♥" in text and "calls again without rectification" in text and "1997:25B1" in text
    assert ledger.state("t/b")["turn"] == "S"


def test_treat_as_penalty_card_is_refused_on_a_2017_board_where_1997_would_offer_it():
    ledger = table()
    log(ledger, call("N", "1S"), {"type": "CardDropped", "seat": "E", "card": "H2"}, call("E", "Pass"),
        call("S", "2S"), call("W", "Pass"), call("N", "Pass"), call("E", "Pass"))
    assert ledger.state("t/b")["phase"] == "opening_lead"  # East, a defender, exposed a card (2017 24A / 24E)
    before = len(list(ledger.events("t/b")))
    with pytest.raises(BadInput, match="option not offered") as refused:
        ledger.append("t/b", [{"type": "OptionChosen", "seat": "N", "option": "treat_as_penalty_card"}])
    assert refused.value.exit_code == 2 and "treat_as_penalty_card" in str(refused.value)
    assert len(list(ledger.events("t/b"))) == before


def test_the_case_file_shows_the_36a_and_law_34_rulings_in_words_with_their_laws():
    from ledger.casefile import build_casefile, render_html

    ledger = table()
    log(ledger, call("N", "1S"), call("E", "Pass"), call("S", "X"), call("W", "Pass"))
    html = render_html(build_casefile(ledger, "t/b"))
    assert "before rectification" in html and "2017:36A" in html
    ledger = table("1997")
    log(ledger, call("N", "1S"), call("E", "Pass"), call("W", "Pass"), call("N", "Pass"))
    html = render_html(build_casefile(ledger, "t/b"))
    assert "Law 34" in html and "1997:34" in html
