"""Leads out of turn (Laws 41A, 53 to 56; 47E1 is tests/test_cards.py) and the
fifth card (45E): what the scenario files (tests/scenarios/lead-*.jsonl,
play-ooo-*.jsonl, fifth-card-*.jsonl) do not already show, given/when/then
through the ordinary append path, and properties over those scenarios.
Expected states come from the Laws."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger import engine
from ledger.errors import BadInput
from ledger.scenario import replay_text
from boardkit import STREAM, calls, cards, choose, given, ledger, logged  # noqa: F401 (ledger: the fixture)
from projections import snapshot

DEAL_3NT = "N:762.K743.A5.KQJ2 QT.J962.T862.543 K84.AQ5.KJ93.A76 AJ953.T8.Q74.T98"
# N 762 K743 A5 KQJ2 / E QT J962 T862 543 / S K84 AQ5 KJ93 A76 / W AJ953 T8 Q74 T98; 3NT by S, W leads

HERE = Path(__file__).parent / "scenarios"
SCENARIOS = sorted([*HERE.glob("lead-*.jsonl"), *HERE.glob("play-ooo-*.jsonl"), *HERE.glob("fifth-card-*.jsonl"),
                    *HERE.glob("penalty-*.jsonl")])


def opened(laws: str = "2017") -> dict:
    return {"type": "BoardOpened", "tournament": "t", "board": 3, "table": "1", "deal": DEAL_3NT, "laws": laws}





THREE_NT = calls(("S", "1NT"), ("W", "Pass"), ("N", "3NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"))
WEST_WINS_TRICK_1 = cards(("W", "SA"), ("N", "S2"), ("E", "ST"), ("S", "S4"))
SOUTH_WINS_TRICK_1 = cards(("W", "S5"), ("N", "S2"), ("E", "SQ"), ("S", "SK"))





# -- the opening lead -----------------------------------------------------------------------

def test_nobody_plays_while_declarer_has_not_chosen_9b2(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("E", "H2"), ("W", "S5")))
    assert doc["tricks"] == [] and "S5" in doc["hands"]["W"] and "H2" in doc["hands"]["E"]
    assert doc["irregularities"][-1]["kind"] == "unprocessed" and "(9B2)" in doc["irregularities"][-1]["detail"]
    assert [p["law"] for p in doc["pending"]] == ["2017:54"]


def test_declarer_playing_second_from_his_hand_accepts_the_lead_54b(ledger):
    doc = given(ledger, [opened("1997")] + THREE_NT + cards(("E", "H2"), ("S", "H5")))
    assert doc["pending"] == [] and doc["contract"]["declarer"] == "S"
    assert [(c["seat"], c["card"], c["law"]) for c in doc["tricks"][0]["cards"]] == [
        ("E", "H2", "1997:54B"), ("S", "H5", "1997:45A")]
    assert logged(ledger, "DeclarerChanged") == []


def test_become_dummy_emits_declarer_changed_with_its_law_and_causes(ledger):
    given(ledger, [opened()] + THREE_NT + cards(("E", "H2")) + [choose("S", "accept_become_dummy")])
    (changed,) = logged(ledger, "DeclarerChanged")
    assert changed.data == {"declarer": "N", "dummy": "S"} and changed.law == "2017:54A"
    assert list(changed.causes) == [8, 11]


def test_the_correct_leaders_face_down_lead_is_retracted_while_a_faced_lead_out_of_turn_waits_2017(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("E", "H2")) + [
        {"type": "LeadFaceDown", "seat": "W", "card": "S5"}])
    assert doc["pending"][0]["law"] == "2017:54" and doc["tricks"] == []
    assert [(p["seat"], p["card"], p["law"]) for p in doc["plays_not_made"]] == [("W", "S5", "2017:54")]
    assert [e.data for e in logged(ledger, "CardReturned")] == [{"seat": "W", "card": "S5"}]


def test_a_lead_by_the_presumed_declarer_is_a_card_exposed_54e(ledger):
    # Issue 12: 2017 54E (it was left to the director): Law 24, the card goes back, West still leads.
    doc = given(ledger, [opened()] + THREE_NT + cards(("S", "H5")))
    assert doc["pending"] == [] and doc["leads_out_of_turn"] == [] and doc["turn"] == "W"
    assert [(i["kind"], i["law"]) for i in doc["irregularities"]] == [("exposed_card", "2017:54E")]
    assert [e.data for e in logged(ledger, "CardReturned")] == [{"seat": "S", "card": "H5"}]


def test_a_choice_only_from_the_offer_and_only_by_the_entitled_seat(ledger):
    given(ledger, [opened()] + THREE_NT + cards(("E", "H2")))
    with pytest.raises(BadInput, match="S's to choose"):
        ledger.append("t/b3", [choose("N", "refuse")])
    with pytest.raises(BadInput, match="not offered"):
        ledger.append("t/b3", [choose("S", "accept")])
    with pytest.raises(BadInput, match="takes no suit"):
        ledger.append("t/b3", [choose("S", "refuse", "H")])
    assert len(ledger.store.read("t/b3")) == 10


# -- during the play ----------------------------------------------------------------------------

def test_declarers_lead_when_a_defender_is_on_lead_is_returned_55b1(ledger):
    doc = given(ledger, [opened()] + THREE_NT + WEST_WINS_TRICK_1 + cards(("S", "D3")) + [choose("E", "refuse")])
    assert doc["turn"] == "W" and len(doc["tricks"]) == 1 and "D3" in doc["hands"]["S"]
    (returned,) = logged(ledger, "CardReturned")
    assert returned.data == {"seat": "S", "card": "D3"} and returned.law == "2017:55B1"
    assert doc["penalty_cards"] == []  # declarer never has penalty cards


def test_either_defender_may_accept_declarers_lead_out_of_turn_55a(ledger):
    doc = given(ledger, [opened()] + THREE_NT + SOUTH_WINS_TRICK_1 + cards(("N", "C2")) + [choose("W", "accept")])
    assert doc["tricks"][1]["leader"] == "N" and doc["turn"] == "E"
    assert doc["tricks"][1]["cards"] == [{"seat": "N", "card": "C2", "seq": 12, "law": "2017:55A"}]


def test_two_leads_out_of_turn_on_one_board_each_get_their_offer(ledger):
    facts = [opened()] + THREE_NT + SOUTH_WINS_TRICK_1 + cards(("E", "D2")) + [choose("S", "accept")] + \
        cards(("S", "DK"), ("W", "D4"), ("N", "D5")) + cards(("E", "C3")) + [choose("S", "accept")]
    doc = given(ledger, facts)
    offers = logged(ledger, "OptionsOffered")
    assert [(o.data["law"], o.data["about"]) for o in offers] == [("2017:53A", 12), ("2017:53A", 19)]
    assert [t["leader"] for t in doc["tricks"]] == ["W", "E", "E"]
    assert [i["kind"] for i in doc["irregularities"]] == ["lead_out_of_turn", "lead_out_of_turn"]


def test_a_defender_playing_out_of_turn_to_a_trick_is_left_to_the_director(ledger):
    # 2017 57D: East plays at his RHO's turn after his partner led: a legal card is played at his
    # proper turn, no options (it was kept unprocessed before Law 57 was built).
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5"), ("E", "SQ")))
    assert [len(t["cards"]) for t in doc["tricks"]] == [2] and doc["pending"] == [] and doc["turn"] == "N"
    assert doc["tricks"][0]["cards"][1] == {"seat": "E", "card": "SQ", "seq": 9, "law": "2017:57D"}
    assert [(i["kind"], i["law"]) for i in doc["irregularities"]] == [("play_out_of_turn", "2017:57D")]


def test_57a_premature_play_bad_options_are_refused_and_nothing_is_written(ledger):
    # South wins trick 1 and leads the H5; East plays the H2 before West: 57A.
    facts = [opened()] + THREE_NT + cards(("W", "S5"), ("N", "S2"), ("E", "SQ"), ("S", "SK"), ("S", "H5"),
                                          ("E", "H2"))
    doc = given(ledger, facts)
    assert doc["pending"][-1]["options"] == ["play_highest", "play_lowest", "play_other_suit", "forbid_other_suit"]
    before = len(ledger.store.read(STREAM))
    for bad, field in ((choose("S", "play_other_suit"), "suit"), (choose("S", "forbid_other_suit", "H"), "suit"),
                       (choose("W", "play_lowest"), "seat"), (choose("S", "accept"), "option")):
        with pytest.raises(BadInput) as err:
            ledger.append(STREAM, [bad])
        assert err.value.field == field
    assert len(ledger.store.read(STREAM)) == before
    doc = given(ledger, [choose("S", "play_other_suit", "D")])
    assert doc["play_restrictions"] == [{"seat": "W", "mode": "suit", "suit": "D", "law": "2017:57A"}]


# -- the fifth card ---------------------------------------------------------------------------

def test_a_defenders_fifth_card_honour_is_a_major_penalty_card_and_partner_on_lead_gives_declarer_options(ledger):
    facts = [opened()] + THREE_NT + WEST_WINS_TRICK_1 + [
        {"type": "CardPlayed", "seat": "E", "card": "HJ", "fifth_card": True}]
    doc = given(ledger, facts)
    assert doc["penalty_cards"] == [{"seat": "E", "card": "HJ", "kind": "major", "seq": 14, "law": "2017:50B"}]
    assert doc["pending"] == [{"to": "S", "options": ["require_suit", "forbid_suit", "leave_penalty_card"],
                               "law": "2017:50D2", "seq": 15}]


def test_a_fifth_card_logged_for_a_seat_that_has_not_played_to_the_trick_is_not_ruled(ledger):
    doc = given(ledger, [opened()] + THREE_NT + cards(("W", "S5")) + [
        {"type": "CardPlayed", "seat": "E", "card": "H2", "fifth_card": True}])
    assert doc["penalty_cards"] == [] and doc["irregularities"][0]["kind"] == "unprocessed"


# -- properties over the scenarios ------------------------------------------------------------

def _final(path: Path):
    with replay_text(path.read_text(encoding="utf-8")) as (led, stream):
        state, _ = led.table_state(stream)
        return led.state(stream), state, list(led.store.read(stream))


def test_there_are_scenarios_for_each_family():
    names = [p.name for p in SCENARIOS]
    for prefix in ("lead-", "penalty-", "play-ooo-", "fifth-card-"):
        assert any(n.startswith(prefix) for n in names), prefix
    for edition in ("1997", "2017"):
        assert any(f"-{edition}-" in n for n in names)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_citation_carries_the_boards_edition(path):
    doc, _, events = _final(path)
    laws = [c["law"] for t in doc["tricks"] for c in t["cards"]] + [p["law"] for p in doc["plays_not_made"]] + \
        [x["law"] for x in doc["penalty_cards"]] + [e.law for e in events if e.actor.role == "system"]
    assert laws and all(law.startswith(doc["laws"] + ":") for law in laws), laws


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_engine_is_declarative_nothing_left_to_emit_or_cancel(path):
    _, state, events = _final(path)
    assert engine.reconcile(state, may_override=True) == ([], [])
    engine_events = [(e.type, str(sorted(e.data.items()))) for e in events if e.actor.role == "system"]
    assert len(engine_events) == len(set(engine_events))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_head_snapshot_round_trips(path):
    _, state, _ = _final(path)
    assert snapshot.load(snapshot.dump(state)) == state
