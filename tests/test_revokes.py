"""Revokes (Laws 61 to 64), dummy's limits (42, 43) and the director's procedure
(9 to 11): what the ruling engine appends to the log, and what the state says.

The deals are seed 001's example 1 (6NT by South) and example 6 (3NT by South);
the scenario files in tests/scenarios/revoke-*.jsonl play the seed's examples
in full. These tests look at the log (the engine's events, their Laws and
causes), the refold, refusals and the readable state."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from ledger.errors import BadInput
from ledger.render import render_state
from ledger.scenario import replay_text
from ledger.service import Ledger
from ledger.laws import revokes as revoke_projection

SCENARIOS = Path(__file__).parent / "scenarios"


def render_text(doc: dict) -> str:
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render_state(doc))
    return console.export_text()

EX1 = "N:K75.Q9.AQJ73.KJ5 T84.JT65432..AQ3 AQ63.AK7.KT8.642 J92.8.96542.T987"
EX6 = "N:85.65.Q87.AJ9865 QT932.AJ8.63.T74 AK7.QT4.AJT92.K3 J64.K9732.K54.Q2"
STREAM = "t/revoke"


def opened(deal: str, laws: str = "2017") -> dict:
    return {"type": "BoardOpened", "tournament": "t", "board": 1, "table": "1", "dealer": "S",
            "vulnerability": "None", "laws": laws, "deal": deal}


def calls(final: str) -> list[dict]:
    seats = ["S", "W", "N", "E", "S", "W"]
    return [{"type": "CallPlaced", "seat": s, "call": c}
            for s, c in zip(seats, ["1NT", "Pass", final, "Pass", "Pass", "Pass"])]


def cards(*plays: str) -> list[dict]:
    """``"W:CT"`` -> a CardPlayed fact."""
    return [{"type": "CardPlayed", "seat": p[0], "card": p[2:]} for p in plays]


# Example 1: West fails to follow on the ace of clubs (trick 2); declarer takes tricks 3 to 13.
EX1_TRICK2_REVOKE = cards("W:CT", "N:C5", "E:CQ", "S:C2", "E:CA", "S:C4") + [
    {"type": "CardPlayed", "seat": "W", "card": "D2", "id": "revoke"}] + cards("N:CJ")
EX1_REST = cards(
    "E:C3", "S:C6", "W:C7", "N:CK", "N:D3", "E:H2", "S:DK", "W:D4", "S:D8", "W:D5", "N:DA", "E:H3",
    "N:DQ", "E:H4", "S:DT", "W:D6", "N:DJ", "E:H5", "S:S3", "W:D9", "N:D7", "E:H6", "S:S6", "W:C8",
    "N:HQ", "E:HT", "S:H7", "W:H8", "N:H9", "E:HJ", "S:HA", "W:C9", "S:HK", "W:S2", "N:S5", "E:S4",
    "S:SA", "W:S9", "N:S7", "E:S8", "S:SQ", "W:SJ", "N:SK", "E:ST")
ATTENTION = {"type": "AttentionDrawn", "by": "S", "about": "revoke"}


@pytest.fixture
def ledger():
    with Ledger.open("sqlite:///:memory:", create=True) as opened_ledger:
        yield opened_ledger


def given(ledger: Ledger, facts: list[dict]) -> dict:
    for fact in facts:
        ledger.append(STREAM, [fact])
    return ledger.state(STREAM)


def logged(ledger: Ledger, type_: str) -> list:
    return [e for e in ledger.events(STREAM) if e.type == type_ and e.actor.role == "system"]


def seq_of(ledger: Ledger, event_id: str) -> int:
    return next(e.seq for e in ledger.events(STREAM) if e.id == event_id)


# -- detection and establishment -------------------------------------------------------------

def test_the_revoke_card_is_recorded_under_61a_and_established_by_the_next_trick(ledger):
    doc = given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE)
    revoke_seq = seq_of(ledger, "revoke")
    recorded = logged(ledger, "IrregularityRecorded")
    assert [(e.data, e.law, e.causes) for e in recorded] == [
        ({"kind": "revoke", "offender": "W", "about": revoke_seq}, "2017:61A", (revoke_seq,))]
    assert logged(ledger, "RevokeEstablished") == []
    assert doc["revokes"][0]["established"] is False
    doc = given(ledger, cards("E:C3"))  # East, the offender's partner, leads to trick 3 (63A1)
    established = logged(ledger, "RevokeEstablished")
    assert [(e.data, e.law) for e in established] == [({"seat": "W", "trick": 2}, "2017:63A1")]
    assert established[0].causes == (revoke_seq, doc["tricks"][2]["cards"][0]["seq"])


def test_discarding_when_void_is_no_revoke(ledger):
    # West discards a club on trick 8 when void in diamonds: only the club-trick revoke is listed.
    doc = given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE + EX1_REST)
    assert [(r["seat"], r["trick"]) for r in doc["revokes"]] == [("W", 2)]


def test_a_revoke_nobody_pointed_out_is_not_rectified_until_attention_is_drawn(ledger):
    doc = given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE + EX1_REST)
    assert doc["result"]["tricks"] == 11 and logged(ledger, "TricksTransferred") == []
    first_result = logged(ledger, "ResultRecorded")
    assert [e.data["tricks"] for e in first_result] == [11]
    doc = given(ledger, [ATTENTION])
    transferred = logged(ledger, "TricksTransferred")
    assert [(e.data, e.law) for e in transferred] == [({"to": "declarer", "tricks": 1}, "2017:64A2")]
    assert seq_of(ledger, "revoke") in transferred[0].causes
    results = logged(ledger, "ResultRecorded")
    assert [e.data["tricks"] for e in results] == [11, 12]  # the result is recorded again, transfer included
    assert doc["result"]["score_ns"] == 990


def test_attention_first_drawn_after_the_next_board_began_brings_no_transfer_64b4(ledger):
    doc = given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE + EX1_REST
                + [{"type": "NextBoardStarted", "side": "NS"}, ATTENTION])
    assert logged(ledger, "TricksTransferred") == []
    assert doc["revokes"][0]["exempt"] == "2017:64B4" and doc["result"]["tricks"] == 11


def test_only_the_non_offenders_call_on_the_next_board_counts_for_64b4(ledger):
    # The offending side (EW) calling on the next board does not end the right to a transfer.
    doc = given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE + EX1_REST
                + [{"type": "NextBoardStarted", "side": "EW"}, ATTENTION])
    assert doc["revokes"][0]["exempt"] is None and doc["result"]["tricks"] == 12


def test_the_director_finding_the_right_forfeited_cancels_the_transfer_and_result_11a(ledger):
    given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE + [ATTENTION] + EX1_REST)
    transfer = logged(ledger, "TricksTransferred")[0]
    result = logged(ledger, "ResultRecorded")[-1]
    assert result.data["tricks"] == 12
    doc = given(ledger, [{"type": "FindingMade", "about": "revoke", "field": "rectification_forfeited",
                          "value": True}])
    overrides = {e.data["about"]: e.law for e in logged(ledger, "RulingOverridden")}
    assert overrides == {transfer.seq: "2017:82C", result.seq: "2017:82C"}
    assert doc["transfers"] == [] and doc["result"]["tricks"] == 11
    assert doc["revokes"][0]["exempt"] == "2017:11A"


# -- the refold is the same as the step-by-step fold ------------------------------------------

@pytest.mark.parametrize("name", ["revoke-rule7-1997-equity-adjusted-score", "revoke-63b-1997-partner-asked",
                                  "revoke-62c1-2017-non-offender-takes-back-his-card",
                                  "dummy-43b2b-1997-dummy-asks-declarer-after-violation",
                                  "revoke-trick12-2017-corrected"])
def test_snapshots_match_the_refold(name):
    text = (SCENARIOS / f"{name}.jsonl").read_text(encoding="utf-8")
    with replay_text(text) as (replayed, stream):
        before = replayed.state(stream)
        assert replayed.rebuild([stream])["differed"] == 0
        assert replayed.state(stream) == before


# -- the log of the seed's examples ---------------------------------------------------------------

def scenario_log(name: str) -> tuple[list, dict]:
    text = (SCENARIOS / f"{name}.jsonl").read_text(encoding="utf-8")
    with replay_text(text) as (replayed, stream):
        return replayed.events(stream), replayed.state(stream)


def system(events, type_):
    return [e for e in events if e.type == type_ and e.actor.role == "system"]


@pytest.mark.parametrize("edition, tricks", [("1997", 2), ("2017", 1)])
def test_seed_rule_6_is_two_tricks_in_1997_and_one_in_2017(edition, tricks):
    name = ("revoke-rule6-1997-two-tricks-card-of-the-revoke-suit" if edition == "1997"
            else "revoke-rule6-2017-one-trick-second-limb-deleted")
    events, doc = scenario_log(name)
    transfers = system(events, "TricksTransferred")
    assert [(e.data["tricks"], e.law) for e in transfers] == [(tricks, f"{edition}:64A2")]
    assert system(events, "ResultRecorded")[-1].data["tricks"] == 9 + tricks


def test_seed_rule_2_tricks_won_before_the_revoke_are_never_transferred():
    events, doc = scenario_log("revoke-rule2-1997-no-trick-from-the-revoke-on")
    assert doc["tricks_won"]["defenders"] == 2  # both before the revoke trick
    assert system(events, "TricksTransferred") == []
    assert system(events, "ResultRecorded")[-1].data == {"contract": "6NT", "declarer": "S", "risk": "",
                                                         "tricks": 11, "score_ns": -50}


def test_a_second_revoke_in_the_same_suit_transfers_nothing_more_and_asks_the_director():
    events, doc = scenario_log("revoke-64b2-2017-second-revoke-same-suit")
    assert [e.data for e in system(events, "RevokeEstablished")] == [{"seat": "W", "trick": 2},
                                                                       {"seat": "W", "trick": 3}]
    assert [e.data["tricks"] for e in system(events, "TricksTransferred")] == [1]
    reviews = system(events, "DirectorReviewRequired")
    assert [e.law for e in reviews] == ["2017:64C"] and reviews[0].data["reason"].startswith("64C")


def test_the_63b_inquiry_establishes_the_revoke_in_1997_only():
    events97, doc97 = scenario_log("revoke-63b-1997-partner-asked")
    events17, doc17 = scenario_log("revoke-61b3-2017-partner-asked")
    assert [e.law for e in system(events97, "RevokeEstablished")] == ["1997:63B"]
    assert system(events17, "RevokeEstablished") == []
    assert (doc97["result"]["tricks"], doc17["result"]["tricks"]) == (11, 9)
    # Either way West's withdrawn diamond is exposed, a (major) penalty card (62B1).
    for events in (events97, events17):
        withdrawn = next(e for e in events if e.type == "CardWithdrawn")
        assert withdrawn.data == {"seat": "W", "card": "D2", "replacement": "C8"}


def test_the_claim_that_establishes_a_revoke_has_the_transfer_in_its_result():
    events, doc = scenario_log("claim-63a3-2017-concession-establishes-revoke")
    claim = next(e for e in events if e.type == "ClaimMade")
    established = system(events, "RevokeEstablished")
    assert [(e.law, e.causes[-1]) for e in established] == [("2017:63A3", claim.seq)]
    assert system(events, "ResultRecorded")[-1].data["tricks"] == 12


def test_a_revoke_by_dummy_is_never_a_transfer_and_asks_for_equity():
    events, doc = scenario_log("revoke-64b3-2017-dummy-revoke")
    assert [e.data["offender"] for e in system(events, "IrregularityRecorded")] == ["N"]
    assert system(events, "TricksTransferred") == []
    assert [e.law for e in system(events, "DirectorReviewRequired")] == ["2017:64C"]


def test_trick_12_is_corrected_not_transferred_before_the_hands_go_back():
    events, doc = scenario_log("revoke-trick12-1997-corrected")
    reasons = [e.data["reason"] for e in system(events, "DirectorReviewRequired")]
    assert len(reasons) == 1 and reasons[0].startswith("62D1")
    assert system(events, "TricksTransferred") == []
    events, doc = scenario_log("revoke-trick12-1997-after-hands-returned")
    assert [e.data["tricks"] for e in system(events, "TricksTransferred")] == [1]


# -- dummy ---------------------------------------------------------------------------------------

def test_dummy_drawing_attention_after_play_ended_is_no_irregularity(ledger):
    given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE + EX1_REST
          + [{"type": "AttentionDrawn", "by": "N", "about": "revoke"}])
    kinds = [e.data["kind"] for e in logged(ledger, "IrregularityRecorded")]
    assert kinds == ["revoke"]  # 42B3: dummy may draw attention once play has ended
    assert logged(ledger, "TricksTransferred")[0].data == {"to": "declarer", "tricks": 1}


def test_dummy_drawing_attention_during_play_is_recorded_43a1b(ledger):
    given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE
          + [{"type": "AttentionDrawn", "by": "N", "about": "revoke"}])
    recorded = [(e.data["kind"], e.data["offender"], e.law) for e in logged(ledger, "IrregularityRecorded")]
    assert recorded == [("revoke", "W", "2017:61A"), ("dummy_drew_attention", "N", "2017:43A1b")]


def test_dummy_may_call_the_director_once_another_player_drew_attention(ledger):
    given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE
          + [ATTENTION, {"type": "AttentionDrawn", "by": "N"}, {"type": "DirectorCalled", "by": "N"}])
    assert [e.data["kind"] for e in logged(ledger, "IrregularityRecorded")] == ["revoke"]
    doc = ledger.state(STREAM)
    assert [(p["type"], p["by"]) for p in doc["procedure"]] == [
        ("AttentionDrawn", "S"), ("AttentionDrawn", "N"), ("DirectorCalled", "N")]


def test_43b2a_the_choice_belongs_to_the_defenders_not_declarer(ledger):
    facts = [opened(EX6, "1997")] + calls("3NT") + cards("W:H3", "N:H5", "E:HJ", "S:HQ") + [
        {"type": "DummyViolation", "kind": "watched_declarer"},
        {"type": "DummyWarnedDeclarer", "about": "lead_from_wrong_hand"}]
    doc = given(ledger, facts)
    assert doc["pending"][0]["options"] == ["lead_from_hand", "lead_from_dummy"]
    head = ledger.events(STREAM)[-1].seq
    with pytest.raises(BadInput) as refused:
        ledger.append(STREAM, [{"type": "OptionChosen", "seat": "S", "option": "lead_from_dummy"}])
    assert refused.value.exit_code == 2 and ledger.events(STREAM)[-1].seq == head
    doc = given(ledger, [{"type": "OptionChosen", "seat": "E", "option": "lead_from_dummy"}])
    assert doc["pending"] == []


def test_a_warning_by_dummy_who_kept_his_rights_offers_nothing_42b2(ledger):
    facts = [opened(EX6, "1997")] + calls("3NT") + cards("W:H3", "N:H5", "E:HJ", "S:HQ") + [
        {"type": "DummyWarnedDeclarer", "about": "lead_from_wrong_hand"}]
    assert given(ledger, facts)["pending"] == []


def test_62c1_the_offer_goes_only_to_the_non_offender_who_played_after_the_revoke_card(ledger):
    facts = [opened(EX6)] + calls("3NT") + cards("W:H3", "N:H5", "E:HJ", "S:HQ", "S:CK", "W:C2", "N:C5",
                                                 "E:C4", "S:C3", "W:S4", "N:CA") + [
        {"type": "CardWithdrawn", "seat": "W", "card": "S4", "replacement": "CQ"}]
    doc = given(ledger, facts)
    assert [(o["to"], o["law"]) for o in doc["pending"]] == [("N", "2017:62C1")]
    with pytest.raises(BadInput):
        ledger.append(STREAM, [{"type": "OptionChosen", "seat": "E", "option": "withdraw_card"}])
    doc = given(ledger, [{"type": "OptionChosen", "seat": "N", "option": "keep_card"}])
    assert doc["pending"] == [] and [c["card"] for c in doc["tricks"][2]["cards"]] == ["C3", "CQ", "CA"]


# -- the readable state -----------------------------------------------------------------------------

def test_the_readable_state_says_the_revoke_and_the_transfer_in_words():
    text = (SCENARIOS / "revoke-rule5-1997-two-tricks.jsonl").read_text(encoding="utf-8")
    with replay_text(text) as (replayed, stream):
        shown = render_text(replayed.state(stream))
    assert "Revoke: E played ♠8 to trick 8 holding ♦" in shown
    assert "2 tricks to declarer (1997:64A2)" not in shown  # 64A1: he won the revoke trick
    assert "2 tricks to declarer (1997:64A1)" in shown
    assert "Tricks transferred: 2 tricks to declarer" in shown


def test_describe_names_every_law_it_applies():
    events, doc = scenario_log("revoke-63b-1997-partner-asked")
    text = doc["revokes"][0]["text"]
    for law in ("1997:61A", "1997:62B", "1997:63B", "1997:64A2"):
        assert law in text
    assert revoke_projection.REVIEW_PREFIXES == ("64C", "62D", "43B", "64A", "45F", "10B")


def test_an_inquiry_of_oneself_or_before_the_play_is_refused(ledger):
    given(ledger, [opened(EX1)] + calls("6NT")[:2])
    with pytest.raises(BadInput) as refused:
        ledger.append(STREAM, [{"type": "RevokeInquiry", "by": "E", "to": "W"}])
    assert refused.value.exit_code == 2 and "auction" in str(refused.value)
    given(ledger, calls("6NT")[2:] + cards("W:CT"))
    with pytest.raises(BadInput) as refused:
        ledger.append(STREAM, [{"type": "RevokeInquiry", "by": "W", "to": "W"}])
    assert "field 'to', value 'W'" in str(refused.value) and "not himself" in str(refused.value)


def test_trick_12_restored_only_while_the_hands_are_out_of_the_board():
    text = (SCENARIOS / "revoke-trick12-2017-after-hands-returned.jsonl").read_text(encoding="utf-8")
    with replay_text(text) as (replayed, stream):
        head = replayed.events(stream)[-1].seq
        with pytest.raises(BadInput) as refused:  # the king was played to trick 13: too late to bring it back
            replayed.append(stream, [{"type": "CardWithdrawn", "seat": "E", "card": "CT", "replacement": "DK"}])
        assert refused.value.exit_code == 2 and "DK" in str(refused.value)
        assert replayed.events(stream)[-1].seq == head
    events, doc = scenario_log("revoke-trick12-2017-corrected")
    assert doc["tricks"][11]["winner"] == "E" and doc["tricks"][12]["cards"][0]["card"] == "CT"
    returned = [n for n in doc["plays_not_made"] if n["law"] == "2017:62D1"]
    assert sorted(n["card"] for n in returned) == ["C7", "CT", "DK", "H9", "SJ"]
    assert [e.data["tricks"] for e in system(events, "ResultRecorded")] == [10]  # the same result: recorded once


def test_11a_forfeiture_also_takes_away_the_penalty_card_of_a_corrected_revoke(ledger):
    facts = [opened(EX6)] + calls("3NT") + cards("W:H3", "N:H5", "E:HJ", "S:HQ", "S:CK", "W:C2", "N:C5",
                                                 "E:C4", "S:C3") + [
        {"type": "CardPlayed", "seat": "W", "card": "S4", "id": "revoke"},
        {"type": "CardWithdrawn", "seat": "W", "card": "S4", "replacement": "CQ"}]
    doc = given(ledger, facts)
    assert [(x["seat"], x["card"], x["how"]) for x in doc["exposed_cards"]] == [("W", "S4", "withdrawn")]
    doc = given(ledger, [{"type": "FindingMade", "about": "revoke", "field": "rectification_forfeited",
                          "value": True}])
    assert doc["exposed_cards"] == [] and doc["revokes"][0]["exempt"] == "2017:11A"
    # A penalty card the engine designated from the exposure is cancelled with it (82C).
    designated = [e.seq for e in logged(ledger, "PenaltyCardDesignated")]
    overridden = {e.data["about"] for e in logged(ledger, "RulingOverridden")}
    assert set(designated) <= overridden


def test_dummy_may_ask_declarer_but_not_a_defender_42b1(ledger):
    given(ledger, [opened(EX1)] + calls("6NT") + EX1_TRICK2_REVOKE
          + [{"type": "RevokeInquiry", "by": "N", "to": "W"}])
    recorded = [(e.data["kind"], e.data["offender"], e.law) for e in logged(ledger, "IrregularityRecorded")]
    assert recorded == [("revoke", "W", "2017:61A"), ("dummy_inquiry", "N", "2017:42B1")]
    doc = ledger.state(STREAM)
    assert doc["revokes"][0]["established"] is False and doc["revokes"][0]["discovered"] is not None
