"""Law 57 (a defender's premature lead or play), 1997 53B / 2017 53C and 2017 62C3 / 64B8:
the engine's events, the restriction enforced on the next play, and the words a director
reads in the state and the case file. Whole boards are in tests/scenarios/play-57*, play-53*,
revoke-62c3-*."""

from __future__ import annotations

from rich.console import Console

from boardkit import STREAM, calls, cards, choose, given, ledger, logged  # noqa: F401 (ledger: the fixture)
from ledger.casefile import build_casefile, render_html
from ledger.render import render_state

DEAL_3NT = "N:762.K743.A5.KQJ2 QT.J962.T862.543 K84.AQ5.KJ93.A76 AJ953.T8.Q74.T98"
# N 762 K743 A5 KQJ2 / E QT J962 T862 543 / S K84 AQ5 KJ93 A76 / W AJ953 T8 Q74 T98; 3NT by S, W leads
THREE_NT = calls(("S", "1NT"), ("W", "Pass"), ("N", "3NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"))
# South wins trick 1 and leads the H5; East plays the H2 before West (57A).
PREMATURE = cards(("W", "S5"), ("N", "S2"), ("E", "SQ"), ("S", "SK"), ("S", "H5"), ("E", "H2"))


def opened(laws: str = "2017") -> dict:
    return {"type": "BoardOpened", "tournament": "t", "board": 3, "table": "1", "deal": DEAL_3NT, "laws": laws}


def _text(doc: dict) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render_state(doc))
    return console.export_text()


def test_57a_the_choice_is_a_play_restriction_event_for_the_partner(ledger):
    given(ledger, [opened()] + THREE_NT + PREMATURE + [choose("S", "play_lowest")])
    restrictions = logged(ledger, "PlayRestriction")
    assert [(e.data, e.law) for e in restrictions] == [({"seat": "W", "mode": "lowest"}, "2017:57A")]
    designated = logged(ledger, "PenaltyCardDesignated")
    assert [(e.data, e.law) for e in designated] == [({"seat": "E", "card": "H2", "kind": "major"}, "2017:57A")]


def test_57a_a_play_against_the_restriction_is_a_revoke_without_transfer(ledger):
    doc = given(ledger, [opened()] + THREE_NT + PREMATURE + [choose("S", "play_lowest")] + cards(("W", "HT")))
    assert [(i["kind"], i["offender"], i["law"]) for i in doc["irregularities"]] == [
        ("play_out_of_turn", "E", "2017:57A"), ("revoke", "W", "2017:61A")]
    assert doc["revokes"][0]["exempt"] == "2017:64B3" and "not his lowest" in doc["revokes"][0]["text"]
    assert doc["play_restrictions"] == []  # it lapses once the partner has played to the trick


def test_57a_complying_is_no_breach(ledger):
    doc = given(ledger, [opened()] + THREE_NT + PREMATURE + [choose("S", "play_lowest")] + cards(("W", "H8")))
    assert [i["kind"] for i in doc["irregularities"]] == ["play_out_of_turn"] and doc["revokes"] == []


def test_57a_forbid_other_suit_binds_only_a_player_void_in_the_suit_led(ledger):
    # West holds hearts at trick 2: he must follow suit, so forbidding diamonds does not bind him (59).
    doc = given(ledger, [opened()] + THREE_NT + PREMATURE + [choose("S", "forbid_other_suit", "D")]
                + cards(("W", "H8")))
    assert doc["revokes"] == []


def test_the_readable_state_and_the_case_file_say_it_in_words(ledger):
    doc = given(ledger, [opened("1997")] + THREE_NT + PREMATURE + [choose("S", "play_highest")])
    text = _text(doc)
    assert "Premature play: E ♥2" in text and "1997:57A" in text
    assert "Play restriction: W must play his highest card of the suit led to this trick" in text
    case = build_casefile(ledger, STREAM)
    assert any(line.startswith("Premature play: E ♥2") and line.endswith("1997:57A") for line in case["play_rulings"])
    html = render_html(case)
    assert "id='play-rulings'" in html and "plays his highest card of the suit led" in html


def test_53c_the_wrong_defender_plays_to_declarers_lead_out_of_turn(ledger):
    # South wins trick 1 and leads from dummy (the wrong hand); West, on the right of that lead,
    # plays before East answers the 55A offer.
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("N", "S2"), ("E", "SQ"), ("S", "SK"),
                                                        ("N", "CK"), ("W", "CT")))
    assert doc["tricks"][1]["cards"] == [{"seat": "N", "card": "CK", "seq": 12, "law": "2017:53C"}]
    assert doc["premature_plays"][0]["via"] == "2017:53C" and doc["turn"] == "E"
    assert [o["law"] for o in doc["pending"]] == ["2017:57A"]
    assert "wrong defender played to it" in _text(doc)


def test_law_57_is_the_premature_plays_family_and_ffb_57_3_stays_with_calls():
    from ledger.laws import find_law

    assert find_law("2017:57A").name == "premature plays" and find_law("1997:57").name == "premature plays"
    assert find_law("FFB:57.3").name == "calls"


def test_57c3_declarers_premature_play_goes_to_its_own_place_in_the_trick(ledger):
    # West leads; declarer plays the SK from his hand before dummy (57C3): played, no rectification.
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("S", "SK")))
    assert [c["seat"] for c in doc["tricks"][0]["cards"]] == ["W", "S"] and doc["turn"] == "N"
    assert doc["tricks"][0]["cards"][1]["law"] == "2017:57C3" and doc["review"] == []
    assert [(i["kind"], i["offender"], i["law"]) for i in doc["irregularities"]] == [
        ("play_out_of_turn", "S", "2017:57C3")]
    assert logged(ledger, "PenaltyCardDesignated") == [] and logged(ledger, "OptionsOffered") == []
    assert "Premature play: S ♠K" in _text(doc)


def test_57c3_1997_the_same_reading_and_the_director_is_asked(ledger):
    doc = given(ledger, [opened("1997")] + THREE_NT + cards(("W", "S5"), ("S", "SK")))
    assert doc["tricks"][0]["cards"][1]["law"] == "1997:57" and doc["turn"] == "N"
    assert [r["law"] for r in doc["review"]] == ["1997:57"] and "2017 57C3" in doc["review"][0]["reason"]


def test_57c3_is_not_a_lead_a_second_card_from_a_hand_that_played_stays_unprocessed(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("S", "SK"), ("N", "S2"), ("S", "C6")))
    assert [r["card"] for r in doc["premature_plays"]] == ["SK"] and doc["turn"] == "E"
    assert [i["kind"] for i in doc["irregularities"]] == ["play_out_of_turn", "unprocessed"]


def test_57c2_after_dummy_played_a_card_prematurely_the_defenders_card_goes_back(ledger):
    # East wins trick 1 and leads the ST; declarer plays dummy's S6 before his own hand (57C3);
    # East then leads the H2 to the next trick before West has played: 57C2, no rectification.
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("N", "S2"), ("E", "SQ"), ("S", "S4"),
                                                        ("E", "ST"), ("N", "S6"), ("E", "H2")))
    assert [(r["seat"], r["kind"], r["status"], r["law"]) for r in doc["premature_plays"]] == [
        ("N", "57C3", "played", "2017:57C3"), ("E", "57C2", "returned", "2017:57C2")]
    assert doc["penalty_cards"] == [] and doc["pending"] == [] and doc["turn"] == "S"
    assert [(e.data["seat"], e.data["card"]) for e in logged(ledger, "CardReturned")] == [("E", "H2")]
    assert "dummy had played a card prematurely" in doc["plays_not_made"][0]["reason"]


def test_57c3_a_premature_card_that_is_not_legal_is_a_revoke(ledger):
    # Declarer discards the H5 from his hand before dummy plays, holding spades: played (57C3), a revoke (61A).
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("S", "H5"), ("N", "S2"), ("E", "SQ")))
    assert [(r["seat"], r["card"], r["trick"], r["established"]) for r in doc["revokes"]] == [("S", "H5", 1, False)]
    assert doc["tricks"][0]["winner"] == "E" and doc["turn"] == "E"
    assert [i["kind"] for i in doc["irregularities"]] == ["play_out_of_turn", "revoke"]
