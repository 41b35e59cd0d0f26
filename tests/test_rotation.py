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
