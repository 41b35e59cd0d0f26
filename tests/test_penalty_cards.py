"""Penalty cards (Laws 49 to 52): classification, several penalty cards,
the 50D2 lead options, declarer's designation (51A), a failure to play one
(52, 61A), given/when/then through the ordinary append path. The seed's
worked examples are tests/scenarios/penalty-*.jsonl and lead-54d-*.jsonl;
the properties over them are in tests/test_leads.py. Expected states come
from the Laws."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from ledger.errors import BadInput
from ledger.render import render_state
from boardkit import cards, choose, given, ledger, logged  # noqa: F401 (ledger: the fixture)

DEAL_3NT = "N:762.K743.A5.KQJ2 QT.J962.T862.543 K84.AQ5.KJ93.A76 AJ953.T8.Q74.T98"
# N 762 K743 A5 KQJ2 / E QT J962 T862 543 / S K84 AQ5 KJ93 A76 / W AJ953 T8 Q74 T98; 3NT by S, W leads


def opened(laws: str = "2017") -> dict:
    return {"type": "BoardOpened", "tournament": "t", "board": 3, "table": "1", "deal": DEAL_3NT, "laws": laws}


THREE_NT = [{"type": "CallPlaced", "seat": s, "call": c}
            for s, c in (("S", "1NT"), ("W", "Pass"), ("N", "3NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"))]



def dropped(seat: str, card: str) -> dict:
    return {"type": "CardDropped", "seat": seat, "card": card}






def pcs(doc: dict) -> list[tuple[str, str, str]]:
    return [(p["seat"], p["card"], p["kind"]) for p in doc["penalty_cards"]]


# -- 50B: minor or major ---------------------------------------------------------------------

@pytest.mark.parametrize("laws", ["1997", "2017"])
def test_an_honour_dropped_is_a_major_penalty_card_a_spot_card_a_minor_one(ledger, laws):
    doc = given(ledger, [opened(laws)] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "HJ")])
    assert pcs(doc) == [("E", "HJ", "major")] and doc["penalty_cards"][0]["law"] == f"{laws}:50B"
    doc = given(ledger, [opened(laws)] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "H2")], "t/b4")
    assert pcs(doc) == [("E", "H2", "minor")]


def test_a_second_penalty_card_makes_both_major(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "H2"),
                                                                                    dropped("E", "C3")])
    assert sorted(pcs(doc)) == [("E", "C3", "major"), ("E", "H2", "major")]
    designations = [(e.data["card"], e.data["kind"], list(e.causes)) for e in logged(ledger, "PenaltyCardDesignated")]
    assert designations[0] == ("H2", "minor", [10])
    assert ("H2", "major", [10, 13]) in designations and ("C3", "major", [13]) in designations


def test_a_minor_penalty_card_played_is_cleared_under_50c(ledger):
    doc = given(ledger, [opened("1997")] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "H2")] +
                cards(("E", "SQ"), ("S", "SK"), ("S", "HA"), ("W", "H8"), ("N", "H3"), ("E", "H2")))
    assert doc["penalty_cards"] == []
    (cleared,) = logged(ledger, "PenaltyCardCleared")
    assert cleared.data == {"seat": "E", "card": "H2"} and cleared.law == "1997:50C"
    assert [i["kind"] for i in doc["irregularities"]] == ["exposed_card"]


# -- 50C and 50D2: partner on lead ----------------------------------------------------------------

def test_a_minor_penalty_card_gives_declarer_no_lead_options(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "SA"), ("N", "S2")) + [dropped("E", "H2")] +
                cards(("E", "ST"), ("S", "S4")))
    assert doc["turn"] == "W" and pcs(doc) == [("E", "H2", "minor")] and doc["pending"] == []


def test_penalty_cards_in_two_suits_declarer_forbids_one_suit_only_its_card_is_picked_up(ledger):
    facts = [opened()] + THREE_NT + cards(("W", "SA"), ("N", "S2")) + [dropped("E", "H2"), dropped("E", "C3")] + \
        cards(("E", "ST"), ("S", "S4"))
    doc = given(ledger, facts)
    assert doc["pending"][0]["law"] == "2017:50D2" and doc["pending"][0]["to"] == "S"
    with pytest.raises(BadInput, match="suit of a major penalty card"):
        ledger.append("t/b3", [choose("S", "require_suit", "D")])
    doc = given(ledger, [choose("S", "forbid_suit", "C")])
    assert pcs(doc) == [("E", "H2", "major")]
    assert doc["lead_restrictions"] == [{"seat": "W", "suit": "C", "mode": "must_not", "lasts": "while_on_lead"}]
    (cleared,) = logged(ledger, "PenaltyCardCleared")
    assert cleared.data == {"seat": "E", "card": "C3"} and cleared.law == "2017:50D2a"


# -- 51A and 52: the owner to play -----------------------------------------------------------------

EAST_WINS_WITH_TWO_PENALTY_CARDS = [opened()] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [
    dropped("E", "H2"), dropped("E", "C3")] + cards(("E", "SQ"), ("S", "S4"))


def test_two_penalty_cards_that_may_be_led_declarer_designates_one_51a(ledger):
    doc = given(ledger, EAST_WINS_WITH_TWO_PENALTY_CARDS)
    assert doc["turn"] == "E"
    assert doc["pending"] == [{"to": "S", "options": ["play:H2", "play:C3"], "law": "2017:51A", "seq": 19}]
    doc = given(ledger, [choose("S", "play:C3")] + cards(("E", "C3")))
    assert pcs(doc) == [("E", "H2", "major")] and doc["tricks"][1]["cards"][0]["card"] == "C3"
    assert [i["kind"] for i in doc["irregularities"]] == ["exposed_card", "exposed_card"]


def test_leading_another_penalty_card_than_the_one_designated_is_a_failure_52_61a(ledger):
    doc = given(ledger, EAST_WINS_WITH_TWO_PENALTY_CARDS + [choose("S", "play:C3")] + cards(("E", "H2")))
    assert doc["irregularities"][-1]["kind"] == "revoke" and doc["irregularities"][-1]["law"] == "2017:61A"
    assert doc["pending"] == [{"to": "S", "options": ["accept", "require_penalty_card"], "law": "2017:52",
                               "seq": doc["pending"][0]["seq"]}]


def test_declarer_playing_on_accepts_the_card_52b1(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "HJ")] +
                cards(("E", "SQ"), ("S", "S4"), ("E", "D2"), ("S", "D3")))
    assert [i["kind"] for i in doc["irregularities"]] == ["exposed_card", "revoke"]
    assert doc["pending"] == [] and pcs(doc) == [("E", "HJ", "major")]
    assert [c["card"] for c in doc["tricks"][1]["cards"]] == ["D2", "D3"]


def test_following_suit_comes_before_the_major_penalty_card_50d1(ledger):
    doc = given(ledger, [opened("1997")] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "HJ")] +
                cards(("E", "SQ"), ("S", "SK"), ("S", "DK"), ("W", "D4"), ("N", "D5"), ("E", "D2")))
    assert [i["kind"] for i in doc["irregularities"]] == ["exposed_card"] and pcs(doc) == [("E", "HJ", "major")]


def test_the_state_says_the_penalty_card_in_plain_words(ledger):
    doc = given(ledger, [opened("1997")] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [dropped("E", "H2")])
    console = Console(record=True, width=250, color_system=None, file=io.StringIO())
    console.print(render_state(doc))
    text = console.export_text()
    assert ("Minor penalty card: E ♥2 — 1997:50B (no other card of its suit below honour rank before it; "
            "an honour may be played: 50C)") in text


def test_the_same_restriction_imposed_twice_on_a_board_is_emitted_twice(ledger):
    facts = [opened()] + THREE_NT + cards(("E", "H2")) + [choose("S", "refuse"), choose("S", "forbid_suit", "H")] + \
        cards(("W", "S5"), ("N", "S2"), ("E", "SQ"), ("S", "SK"), ("S", "S4"), ("W", "SA"), ("N", "S6"),
              ("E", "ST")) + [dropped("E", "HJ")]
    doc = given(ledger, facts)
    assert doc["turn"] == "W" and pcs(doc) == [("E", "HJ", "major")] and doc["lead_restrictions"] == []
    doc = given(ledger, [choose("S", "forbid_suit", "H")])
    restrictions = logged(ledger, "LeadRestriction")
    assert [(r.data["suit"], r.data["mode"]) for r in restrictions] == [("H", "must_not"), ("H", "must_not")]
    assert doc["lead_restrictions"] == [{"seat": "W", "suit": "H", "mode": "must_not", "lasts": "while_on_lead"}]
    assert pcs(doc) == []


LAW_24_AT_THE_LEAD = sorted((Path(__file__).parent / "scenarios").glob("exposed-24e-2017-*.jsonl")) + [
    Path(__file__).parent / "scenarios" / "exposed-24-1997-treated-as-penalty-card-partner-on-lead-50d2.jsonl"]


@pytest.mark.parametrize("path", LAW_24_AT_THE_LEAD, ids=[p.stem for p in LAW_24_AT_THE_LEAD])
def test_law_24_cards_give_declarer_the_50d2_choice_on_both_stores(backend, path):
    """2017 24E (1997 24 on treat_as_penalty_card): a card a future defender exposed during the
    auction is a penalty card when it closes; with his partner on opening lead declarer has the
    50D2 choice (51B with two suits) before the lead. The scenario's expectations, on each store."""
    from golden_fold import assert_scenario_holds

    assert_scenario_holds(path, backend.url, expectations=5)
