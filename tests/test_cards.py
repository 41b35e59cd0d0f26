"""Was the card played (Laws 41, 45, 46, 47; 48A and 49 for exposed cards):
the rules the scenario files (tests/scenarios/cards-*.jsonl) do not already
show, given/when/then through the ordinary append path, and properties that
hold over every card scenario. Expected states come from the Laws."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger import engine
from ledger.errors import BadInput
from ledger.scenario import replay_text
from ledger.service import Ledger
from boardkit import calls, cards, given, ledger, logged  # noqa: F401 (ledger: the fixture)
from projections import snapshot
from projections.state import PlayedCard, Trick
from ledger.bridge import Card, Seat

# Board 3: dealer S, EW vulnerable. Deals completed for the card examples of seed 000 (see the scenarios).
DEAL_46B = "N:K754.AQJ73.KJ75.- 82.KT6.63.AT8765 AQJ96.52.A42.KQ3 T3.984.QT98.J942"
# N K754 AQJ73 KJ75 - / E 82 KT6 63 AT8765 / S AQJ96 52 A42 KQ3 / W T3 984 QT98 J942; 4S by S
DEAL_3NT = "N:762.K743.A5.KQJ2 QT.J962.T862.543 K84.AQ5.KJ93.A76 AJ953.T8.Q74.T98"
# N 762 K743 A5 KQJ2 / E QT J962 T862 543 / S K84 AQ5 KJ93 A76 / W AJ953 T8 Q74 T98; 3NT by S
DEAL_4S = "N:KJ5.AT3.K874.Q62 82.KQ84.632.JT95 AQ9763.72.A5.K84 T4.J965.QJT9.A73"
# N KJ5 AT3 K874 Q62 / E 82 KQ84 632 JT95 / S AQ9763 72 A5 K84 / W T4 J965 QJT9 A73; 4S by S
DEAL_MI = "N:Q73.QT5.KT4.KQJ6 T652.A642.63.843 AJ4.K93.A985.A72 K98.J87.QJ72.T95"
# N Q73 QT5 KT4 KQJ6 / E T652 A642 63 843 / S AJ4 K93 A985 A72 / W K98 J87 QJ72 T95; 3NT by S

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("cards-*.jsonl"))


def opened(deal: str, laws: str = "2017") -> dict:
    return {"type": "BoardOpened", "tournament": "t", "board": 3, "table": "1", "deal": deal, "laws": laws}




THREE_NT = calls(("S", "1NT"), ("W", "Pass"), ("N", "3NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"))
FOUR_S_46B = calls(("S", "1S"), ("W", "Pass"), ("N", "2H"), ("E", "3C"), ("S", "3S"), ("W", "Pass"),
                   ("N", "4S"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"))
FOUR_S = calls(("S", "1S"), ("W", "Pass"), ("N", "3S"), ("E", "Pass"), ("S", "4S"), ("W", "Pass"),
               ("N", "Pass"), ("E", "Pass"))





# -- Law 46B: completing declarer's designation of dummy's card ----------------------------

def test_high_in_fourth_seat_1997_is_the_highest_card_when_the_director_finds_no_lowest_winner(ledger):
    facts = [opened(DEAL_46B, "1997")] + FOUR_S_46B + cards(("W", "DQ")) + [
        {"type": "DummyCardCalled", "rank": "win"}] + cards(("E", "D3"), ("S", "D2")) + [
        {"type": "DummyCardCalled", "rank": "J"}] + cards(("E", "D6"), ("S", "DA"), ("W", "D8"),
                                                          ("S", "H2"), ("W", "H4")) + [
        {"type": "DummyCardCalled", "rank": "low"}] + cards(("E", "HK"), ("E", "HT"), ("S", "H5"), ("W", "H8")) + [
        {"type": "DummyCardCalled", "rank": "high", "lowest_winner": False}]
    doc = given(ledger, facts)
    assert doc["tricks"][3]["cards"][3] == {"seat": "N", "card": "HA", "seq": 27, "law": "1997:46B1a"}
    assert doc["review"] == []


def test_a_rank_alone_on_lead_not_held_in_the_suit_dummy_won_in_is_played_if_dummy_holds_one_of_that_rank(ledger):
    facts = [opened(DEAL_46B)] + FOUR_S_46B + cards(("W", "DQ")) + [
        {"type": "DummyCardCalled", "suit": "D", "rank": "K"}] + cards(("E", "D3"), ("S", "D2")) + [
        {"type": "DummyCardCalled", "rank": "Q"}]  # no diamond queen in dummy: its only queen is the heart
    doc = given(ledger, facts)
    assert doc["tricks"][1]["cards"] == [{"seat": "N", "card": "HQ", "seq": 16, "law": "2017:46B3b"}]


def test_a_rank_alone_when_following_is_the_card_of_that_rank_dummy_can_legally_play(ledger):
    facts = [opened(DEAL_46B)] + FOUR_S_46B + cards(("W", "DQ")) + [{"type": "DummyCardCalled", "rank": "7"}]
    doc = given(ledger, facts)  # three sevens in dummy, only the diamond follows suit
    assert doc["tricks"][0]["cards"][1] == {"seat": "N", "card": "D7", "seq": 13, "law": "2017:46B3b"}
    assert doc["pending"] == []


def test_a_rank_dummy_cannot_legally_play_is_left_to_the_director(ledger):
    facts = [opened(DEAL_46B)] + FOUR_S_46B + cards(("W", "DQ")) + [{"type": "DummyCardCalled", "rank": "A"}]
    doc = given(ledger, facts)  # the heart ace would be a revoke
    assert doc["turn"] == "N" and len(doc["tricks"][0]["cards"]) == 1
    assert [(r["about"], r["reason"][:5]) for r in doc["review"]] == [(13, "46B3b")]


def test_win_is_the_lowest_card_that_beats_every_card_the_defenders_still_hold(ledger):
    facts = [opened(DEAL_4S)] + FOUR_S + cards(("W", "DQ"), ("N", "D4"), ("E", "D2"), ("S", "DA"),
                                                ("S", "H7"), ("W", "H9")) + [{"type": "DummyCardCalled", "rank": "win"}]
    doc = given(ledger, facts)  # the ten beats the nine, but the defenders hold K Q J: only the ace is known to win
    assert doc["tricks"][1]["cards"][2] == {"seat": "N", "card": "HA", "seq": 16, "law": "2017:46B1b"}


def test_win_with_no_card_of_dummy_known_to_win_is_left_to_the_director(ledger):
    facts = [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5")) + [{"type": "DummyCardCalled", "rank": "win"}]
    doc = given(ledger, facts)  # dummy 762 against the defenders' A J 9 3 Q T
    assert doc["turn"] == "N" and len(doc["review"]) == 1 and doc["review"][0]["reason"].startswith("46B1b")


def test_low_with_no_suit_named_when_dummy_has_none_of_the_suit_led_is_left_to_the_director(ledger):
    facts = [opened(DEAL_46B)] + FOUR_S_46B + cards(("W", "C2")) + [{"type": "DummyCardCalled", "rank": "low"}]
    doc = given(ledger, facts)
    assert doc["turn"] == "N" and doc["review"][0]["reason"].startswith("46B1c")


def test_a_defender_may_designate_dummys_card_only_after_play_anything(ledger):
    facts = [opened(DEAL_46B)] + FOUR_S_46B + cards(("W", "DQ")) + [
        {"type": "DummyCardCalled", "by": "E", "suit": "D", "rank": "K"}]
    doc = given(ledger, facts)
    assert doc["turn"] == "N" and len(doc["tricks"][0]["cards"]) == 1
    assert doc["irregularities"][0]["kind"] == "unprocessed" and "46B5" in doc["irregularities"][0]["detail"]


# -- Law 45C4b: changing a designation, by edition -------------------------------------------

def test_2017_a_defender_may_not_change_the_card_he_named_and_the_second_card_is_exposed(ledger):
    facts = [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [
        {"type": "CardNamed", "seat": "E", "card": "SQ"},
        {"type": "DesignationChanged", "card": "ST", "inadvertent": True, "without_pause": True}]
    doc = given(ledger, facts)
    assert doc["tricks"][0]["cards"][2] == {"seat": "E", "card": "SQ", "seq": 10, "law": "2017:45C4a"}
    assert doc["plays_not_made"] == [{"seq": 11, "seat": "E", "card": "ST", "law": "2017:45C4b",
                                      "reason": doc["plays_not_made"][0]["reason"]}]
    assert doc["exposed_cards"] == [{"seq": 11, "seat": "E", "card": "ST", "how": "named", "law": "2017:49"}]
    assert [(i["kind"], i["offender"], i["seq"]) for i in doc["irregularities"]] == [("exposed_card", "E", 11)]


def test_1997_any_player_may_change_an_inadvertent_designation_made_without_pause(ledger):
    facts = [opened(DEAL_3NT, "1997")] + THREE_NT + cards(("W", "S5"), ("N", "S2")) + [
        {"type": "CardNamed", "seat": "E", "card": "SQ"},
        {"type": "DesignationChanged", "card": "ST", "inadvertent": True, "without_pause": True}]
    doc = given(ledger, facts)
    assert doc["tricks"][0]["cards"][2] == {"seat": "E", "card": "ST", "seq": 11, "law": "1997:45C4b"}
    assert "SQ" in doc["hands"]["E"] and doc["exposed_cards"] == []
    returned = logged(ledger, "CardReturned")
    assert [(e.data, e.law, e.causes) for e in returned] == [({"seat": "E", "card": "SQ"}, "1997:47C", (10, 11))]


# -- Law 47: withdrawals ---------------------------------------------------------------------

def test_1997_47e1_covers_a_lead_only_a_play_out_of_turn_stays_for_the_director(ledger):
    # 1997 47E1 is about a lead: East's play at his RHO's turn after West led is read as 2017 57D
    # (no 1997 rule, digest 14.12 decision 11) and the director is asked; no 47E1 retraction.
    facts = [opened(DEAL_3NT, "1997")] + THREE_NT + cards(("W", "S5")) + [
        {"type": "LeadAuthorisedByOpponent", "seat": "E", "by": "N"}] + cards(("E", "SQ"))
    doc = given(ledger, facts)
    assert doc["plays_not_made"] == [] and logged(ledger, "CardReturned") == []
    assert doc["irregularities"][0]["kind"] == "play_out_of_turn" and doc["irregularities"][0]["law"] == "1997:57"
    assert [r["law"] for r in doc["review"]] == ["1997:57"]


def test_47e1_needs_the_word_of_an_opponent_not_of_partner(ledger):
    facts = [opened(DEAL_3NT, "1997")] + THREE_NT + [
        {"type": "LeadAuthorisedByOpponent", "seat": "E", "by": "W"}] + cards(("E", "H2"))
    doc = given(ledger, facts)
    assert logged(ledger, "CardReturned") == []
    # Not 47E1: an ordinary faced opening lead out of turn (Law 54, tests/test_leads.py).
    assert [(i["kind"], i.get("type")) for i in doc["irregularities"]] == [
        ("unprocessed", "LeadAuthorisedByOpponent"), ("lead_out_of_turn", None)]
    assert doc["pending"][0]["law"] == "1997:54"


def test_an_opening_lead_is_retracted_after_a_mistaken_explanation_while_dummy_has_faced_no_card(ledger):
    facts = [opened(DEAL_MI)] + THREE_NT + cards(("W", "DJ")) + [
        {"type": "ExplanationCorrected", "by": "N", "call_index": 3, "text": "3NT asks for a stopper"},
        {"type": "CardWithdrawn", "seat": "W", "card": "DJ"}]
    doc = given(ledger, facts)
    assert doc["phase"] == "opening_lead" and doc["tricks"] == [] and doc["turn"] == "W"
    assert doc["plays_not_made"][0]["law"] == "2017:47E2a" and "DJ" in doc["hands"]["W"]


def test_an_opening_lead_may_not_be_retracted_once_dummy_has_begun_to_spread(ledger):
    facts = [opened(DEAL_MI)] + THREE_NT + cards(("W", "DJ")) + [
        {"type": "DummySpreadStarted"},
        {"type": "ExplanationCorrected", "by": "N", "call_index": 3, "text": "3NT asks for a stopper"},
        {"type": "CardWithdrawn", "seat": "W", "card": "DJ"}]
    doc = given(ledger, facts)
    assert doc["tricks"][0]["cards"] == [{"seat": "W", "card": "DJ", "seq": 8, "law": "2017:45A"}]
    assert [(i["kind"], i["law"]) for i in doc["irregularities"] if i["kind"] == "illegal_withdrawal"] == \
        [("illegal_withdrawal", "2017:47F")]
    assert doc["review"][0]["reason"].startswith("47E2b")


def test_withdrawing_a_card_that_was_never_played_changes_nothing(ledger):
    facts = [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5")) + [
        {"type": "CardWithdrawn", "seat": "E", "card": "SQ"}]
    doc = given(ledger, facts)
    assert doc["turn"] == "N" and doc["irregularities"] == [] and doc["plays_not_made"] == []
    assert len(doc["tricks"][0]["cards"]) == 1


def test_declarer_may_change_a_card_played_after_his_right_hand_opponent_changed_his(ledger):
    # 45D: dummy's misplaced card withdrawn; East (declarer's RHO) changes his card; then South may change his.
    facts = [opened("N:AQJ4.K52.K63.A84 T987.763.T872.T2 65.AQ4.AQ54.KQ76 K32.JT98.J9.J953")] + THREE_NT + \
        cards(("W", "HJ")) + [{"type": "DummyCardCalled", "suit": "H", "rank": "2"},
                              {"type": "DummyMisplaced", "card": "H5"}] + cards(("E", "H3"), ("S", "H4")) + [
        {"type": "AttentionDrawn", "by": "W"},
        {"type": "CardWithdrawn", "seat": "E", "card": "H3", "replacement": "H7"},
        {"type": "CardWithdrawn", "seat": "S", "card": "H4", "replacement": "HQ"}]
    doc = given(ledger, facts)
    assert [(c["seat"], c["card"]) for c in doc["tricks"][0]["cards"]] == [("W", "HJ"), ("N", "H2"), ("E", "H7"),
                                                                           ("S", "HQ")]
    assert [(p["card"], p["law"]) for p in doc["plays_not_made"]] == [("H5", "2017:45D"), ("H3", "2017:45D"),
                                                                      ("H4", "2017:47D")]
    assert doc["tricks"][0]["winner"] == "S" and [i["kind"] for i in doc["irregularities"]] == ["dummy_misplay"]


# -- what is never a play, and never a penalty card ------------------------------------------

def test_declarers_cards_are_never_exposed_cards(ledger):
    facts = [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5"), ("N", "S2"), ("E", "SQ")) + [
        {"type": "CardDropped", "seat": "S", "card": "DJ"}] + cards(("S", "SK")) + [
        {"type": "CardWithdrawn", "seat": "S", "card": "SK", "replacement": "S4"}]
    doc = given(ledger, facts)
    assert doc["exposed_cards"] == [] and doc["penalty_cards"] == []
    assert [(p["card"], p["law"]) for p in doc["plays_not_made"]] == [("DJ", "2017:48A"), ("S4", "2017:47F")]
    assert [e.data for e in logged(ledger, "CardReturned")] == [{"seat": "S", "card": "S4"}]


def test_a_card_held_by_dummy_is_not_played(ledger):
    facts = [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5")) + [
        {"type": "CardHeld", "seat": "N", "card": "S7", "partner_could_see": True}]
    doc = given(ledger, facts)
    assert doc["turn"] == "N" and doc["plays_not_made"][0]["law"] == "2017:45B"


def test_a_misplaced_card_with_no_card_named_by_declarer_is_left_to_the_director(ledger):
    facts = [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5")) + [{"type": "DummyMisplaced", "card": "S7"}]
    doc = given(ledger, facts)
    assert len(doc["tricks"][0]["cards"]) == 1
    assert doc["irregularities"][0]["kind"] == "unprocessed" and doc["irregularities"][0]["type"] == "DummyMisplaced"


def test_a_card_held_during_the_auction_is_not_ruled_here():
    led = Ledger.open("sqlite:///:memory:", create=True)
    doc = given(led, [opened(DEAL_3NT), {"type": "CardHeld", "seat": "W", "card": "S5", "partner_could_see": True}])
    led.close()
    assert doc["plays_not_made"] == [] and doc["irregularities"][0]["type"] == "CardHeld"


# -- checks: what cannot happen at a table ------------------------------------------------------

@pytest.mark.parametrize("fact, field, words", [
    ({"type": "CardWithdrawn", "seat": "E", "card": "SQ", "replacement": "SA"}, "replacement", "E was not dealt SA"),
    ({"type": "DummyCardTouched", "card": "S5", "purpose": "play"}, "card", "N was not dealt S5"),
    ({"type": "DummyMisplaced", "card": "S5"}, "card", "N was not dealt S5"),
    ({"type": "DesignationChanged", "card": "S5"}, "card", "already played"),
])
def test_cards_a_seat_does_not_hold_are_refused(ledger, fact, field, words):
    given(ledger, [opened(DEAL_3NT)] + THREE_NT + cards(("W", "S5")))
    with pytest.raises(BadInput) as err:
        ledger.append("t/b3", [fact])
    assert err.value.field == field and words in str(err.value)


def test_dummys_card_cannot_be_touched_before_there_is_a_dummy(ledger):
    given(ledger, [opened(DEAL_3NT)])
    with pytest.raises(BadInput, match="no dummy yet"):
        ledger.append("t/b3", [{"type": "DummyCardTouched", "card": "S7", "purpose": "play"}])


# -- the fold's tricks with a withdrawn card ------------------------------------------------------

def test_a_trick_with_a_withdrawn_card_waits_for_that_seat_and_keeps_seat_order():
    trick = Trick(1, Seat.W, (PlayedCard(Seat.W, Card.parse("S5"), 8, "2017:45A"),
                              PlayedCard(Seat.E, Card.parse("SQ"), 10, "2017:45A")))
    assert trick.next_seat is Seat.N and not trick.complete


# -- properties over every card scenario ----------------------------------------------------------

def _final(path: Path):
    with replay_text(path.read_text(encoding="utf-8")) as (led, stream):
        state, _ = led.table_state(stream)
        return led.state(stream), state, [e for e in led.store.read(stream)]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_play_citation_carries_the_boards_edition(path):
    doc, _, events = _final(path)
    laws = [c["law"] for t in doc["tricks"] for c in t["cards"]] + [p["law"] for p in doc["plays_not_made"]] + \
        [x["law"] for x in doc["exposed_cards"]] + [e.law for e in events if e.actor.role == "system"]
    assert laws and all(law.startswith(doc["laws"] + ":") for law in laws), laws


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_engine_has_nothing_left_to_emit_and_never_emits_a_rectification_twice(path):
    _, state, events = _final(path)
    assert engine.reconcile(state, may_override=True) == ([], [])
    engine_events = [(e.type, str(sorted(e.data.items()))) for e in events if e.actor.role == "system"]
    assert len(engine_events) == len(set(engine_events))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_head_snapshot_round_trips_card_records_and_exposures(path):
    _, state, _ = _final(path)
    assert snapshot.load(snapshot.dump(state)) == state


def test_exposed_cards_and_card_rulings_are_said_in_plain_words():
    import io

    from rich.console import Console

    from ledger.render import render_state

    path = Path(__file__).parent / "scenarios" / "cards-47g-1997-defender-replaces-eight-by-queen.jsonl"
    doc, _, _ = _final(path)
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render_state(doc))
    text = console.export_text()
    assert "Exposed card: E ♥Q (put in place of a played card) — 1997:47G" \
        in text
    assert "seq 18 E ♥Q: not played (put in place of ♥8, which stands: exposed, not played) — 1997:47G" in text
    assert "Card ruling, seq 18 CardWithdrawn E: illegal withdrawal: ♥8 was played and stands" in text
