"""Calls: FFB 57.3-57.5, Laws 21B, 25A, 25B, 26 and 37 in both editions,
through the ordinary append path (the fold and the ruling engine).

Given a board, when the table (and the director) log these facts, then the
state and the engine's rectifications are what the Laws prescribe. The
scenario files of tests/scenarios/calls-*.jsonl tell the seed's examples
whole; these tests pin each rule on its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.errors import BadInput
from ledger.render import render_state
from ledger.service import Ledger
from rich.console import Console

# North 5-5 in the black suits; East a strong heart hand (board 5: dealer N, NS vulnerable).
BLACK = "N:KQJ84.3.J2.AQ975 A5.AKQJ92.K84.J3 T972.T65.Q763.K8 63.874.AT95.T642"
# North means hearts (board 9: dealer N, EW vulnerable).
HEARTS = "N:A3.AKJ95.Q84.763 KQJ74.T2.A95.K82 T962.Q873.K6.QJ5 85.64.JT732.AT94"
# North 1NT, East Landy (board 1: dealer N, none vulnerable).
LANDY = "N:AQ4.K72.KJ85.A93 KJ963.QJ854.7.K4 T72.AT9.Q962.QJ5 85.63.AT43.T8762"
BOARDS = {BLACK: (5, "NS"), HEARTS: (9, "EW"), LANDY: (1, "None")}


class Table:
    """A board in a fresh in-memory ledger: ``log`` appends facts one at a time."""

    def __init__(self, laws: str, deal: str = BLACK) -> None:
        self.ledger = Ledger.open("sqlite:///:memory:", create=True)
        self.stream = "t/b"
        board, vul = BOARDS[deal]
        self.log({"type": "BoardOpened", "tournament": "t", "board": board, "table": "1", "dealer": "N",
                  "vulnerability": vul, "laws": laws, "deal": deal, "id": "open"})

    def log(self, *facts: dict) -> "Table":
        for fact in facts:
            self.ledger.append(self.stream, [fact])
        return self

    def calls(self, *pairs: str) -> "Table":
        """``"N 1C", "E Pass"``: calls placed in order."""
        return self.log(*({"type": "CallPlaced", "seat": p.split()[0], "call": p.split()[1]} for p in pairs))

    @property
    def doc(self) -> dict:
        return self.ledger.state(self.stream)

    def emitted(self, type_: str) -> list[tuple[int, dict, str | None, tuple[int, ...]]]:
        """(seq, data, law, causes) of the engine's events of that type."""
        return [(e.seq, e.data, e.law, e.causes) for e in self.ledger.events(self.stream)
                if e.type == type_ and e.actor.role == "system"]

    def seq_of(self, event_id: str) -> int:
        return next(e.seq for e in self.ledger.events(self.stream) if e.id == event_id)

    def auction(self) -> list[tuple[str, str, str]]:
        return [(a["seat"], a["call"], a["law"]) for a in self.doc["auction"]]


def change_of_mind(t: Table, first: str = "1C", second: str = "1S") -> Table:
    return t.log({"type": "CallPlaced", "seat": "N", "call": first, "id": "n1"},
                 {"type": "CallReplaced", "seat": "N", "call": second, "unintended": False, "id": "n1b"})


# -- FFB 57.3, 57.4 ----------------------------------------------------------------------


@pytest.mark.parametrize("laws", ["1997", "2017"])
def test_an_accidental_call_is_no_call_in_either_edition(laws):
    t = Table(laws).log({"type": "CallPlaced", "seat": "N", "call": "1D", "intentional": False})
    doc = t.doc
    assert doc["auction"] == [] and doc["turn"] == "N"
    assert doc["calls_not_made"] == [{"seq": 2, "seat": "N", "call": "1D", "reason": "accidental",
                                      "law": "FFB:57.3"}]
    assert t.emitted("IrregularityRecorded") == []


def test_a_call_not_released_is_no_call_and_the_director_is_asked_about_partners_ui():
    t = Table("1997", LANDY).log({"type": "CallPulled", "seat": "N", "call": "1D"})
    doc = t.doc
    assert doc["turn"] == "N" and doc["calls_not_made"][0]["law"] == "FFB:57.4"
    (review,) = t.emitted("DirectorReviewRequired")
    assert review[1]["about"] == 2 and review[2] == "FFB:57.4" and "unauthorized information for S" in \
        review[1]["reason"]


# -- 25A ---------------------------------------------------------------------------------


def test_1997_an_unintended_call_corrected_without_pause_is_replaced_without_penalty():
    t = Table("1997", HEARTS).log(
        {"type": "CallPlaced", "seat": "N", "call": "1S"},
        {"type": "CallReplaced", "seat": "N", "call": "1H", "unintended": True, "without_pause": True})
    assert t.auction() == [("N", "1H", "1997:25A")]
    assert [d["kind"] for _, d, _, _ in t.emitted("IrregularityRecorded")] == ["unintended_call_corrected"]
    assert t.emitted("OptionsOffered") == [] and t.emitted("DirectorReviewRequired") == []


def test_1997_an_unintended_call_needs_the_pause_finding_and_without_it_becomes_25b():
    t = Table("1997", HEARTS).log(
        {"type": "CallPlaced", "seat": "N", "call": "1S"},
        {"type": "CallReplaced", "seat": "N", "call": "1H", "unintended": True, "id": "n1b"})
    assert t.auction() == [("N", "1S", "FFB:57.3")]
    (review,) = t.emitted("DirectorReviewRequired")
    assert review[1]["reason"].startswith("25A was the call corrected without pause")
    t.log({"type": "FindingMade", "about": "n1b", "field": "without_pause", "value": False, "id": "f1"})
    overridden = t.emitted("RulingOverridden")
    assert [(d["about"], law, causes) for _, d, law, causes in overridden] == [
        (review[0], "1997:82C", (t.seq_of("f1"), review[0]))]
    assert t.doc["pending"][0]["options"] == ["accept_substitute", "reject_substitute"]
    assert t.doc["review"] == []


def test_2017_an_unintended_call_is_replaced_after_lho_called_and_lhos_call_left_illegal_is_withdrawn():
    t = Table("2017").calls("N 1C", "E 1H").log(
        {"type": "CallReplaced", "seat": "N", "call": "1S", "unintended": True})
    assert t.auction() == [("N", "1S", "2017:25A1")]
    assert t.doc["turn"] == "E"
    assert [(n["seat"], n["call"], n["law"]) for n in t.doc["calls_not_made"]] == [
        ("N", "1C", "2017:25A1"), ("E", "1H", "2017:25A6")]


def test_2017_after_a_25a_correction_lho_may_change_a_call_still_legal():
    t = Table("2017").calls("N 1C", "E 2H").log(
        {"type": "CallReplaced", "seat": "N", "call": "1S", "unintended": True},
        {"type": "CallReplaced", "seat": "E", "call": "4H"})
    assert t.auction() == [("N", "1S", "2017:25A1"), ("E", "4H", "2017:25A6")]


@pytest.mark.parametrize("laws, law", [("1997", "1997:25A"), ("2017", "2017:25A4")])
def test_an_unintended_call_corrected_after_partner_called_is_too_late(laws, law):
    t = Table(laws, HEARTS).calls("N 1S", "E Pass", "S 2S", "W Pass").log(
        {"type": "CallReplaced", "seat": "N", "call": "1H", "unintended": True, "without_pause": True})
    assert [a[1] for a in t.auction()] == ["1S", "Pass", "2S", "Pass"]
    assert t.doc["calls_not_made"] == [{"seq": 6, "seat": "N", "call": "1H", "law": law,
                                        "reason": "change refused: partner has called since, 1S stands"}]
    assert [(d["kind"], lw) for _, d, lw, _ in t.emitted("IrregularityRecorded")] == [("change_of_call", law)]
    assert t.doc["review"][0]["about"] == 6


# -- 25B ---------------------------------------------------------------------------------


@pytest.mark.parametrize("laws", ["1997", "2017"])
def test_a_change_of_mind_gives_lho_the_option_and_the_first_call_stands_meanwhile(laws):
    t = change_of_mind(Table(laws))
    assert t.auction() == [("N", "1C", "FFB:57.3")]
    assert t.doc["pending"] == [{"to": "E", "options": ["accept_substitute", "reject_substitute"],
                                 "law": f"{laws}:25B1", "seq": 5}]


def test_2017_lho_calling_intentionally_over_the_substitute_accepts_it():
    t = change_of_mind(Table("2017")).log({"type": "CallPlaced", "seat": "E", "call": "2H", "over_substitute": True})
    assert t.auction() == [("N", "1S", "2017:25B1"), ("E", "2H", "FFB:57.3")]
    assert t.doc["pending"] == []


def test_2017_lho_calling_over_the_first_call_cancels_the_substitute():
    t = change_of_mind(Table("2017")).log({"type": "CallPlaced", "seat": "E", "call": "1H", "over_substitute": False})
    assert t.auction() == [("N", "1C", "FFB:57.3"), ("E", "1H", "FFB:57.3")]
    assert [(d["seat"], d["call"]) for _, d, _, _ in t.emitted("CallCancelled")] == [("N", "1S")]
    assert t.doc["pending"] == []


def test_2017_lho_call_of_unknown_intent_waits_for_the_director_and_the_option_lapses():
    t = change_of_mind(Table("2017")).log({"type": "CallPlaced", "seat": "E", "call": "1H", "id": "e1"})
    doc = t.doc
    assert t.auction() == [("N", "1C", "FFB:57.3")] and doc["turn"] == "E" and doc["pending"] == []
    assert doc["review"][0]["about"] == 6 and doc["review"][0]["reason"].startswith("25B1 did E call")
    with pytest.raises(BadInput, match="option not offered"):
        t.log({"type": "OptionChosen", "seat": "E", "option": "accept_substitute"})
    t.log({"type": "FindingMade", "about": "e1", "field": "over_substitute", "value": True})
    # Accepted: but 1H is insufficient over 1S, now ruled by 2017 Law 27 (it was stored as
    # logged, kind "unprocessed", before Law 27 was built): South may accept it.
    assert t.auction() == [("N", "1S", "2017:25B1")] and t.doc["review"] == []
    assert t.doc["irregularities"][-1]["kind"] == "insufficient_bid"
    assert [(o["to"], o["options"], o["law"]) for o in t.doc["pending"]] == [("S", ["accept", "refuse"], "2017:27A1")]


def test_1997_lho_call_over_the_first_call_still_legal_stands_and_may_be_withdrawn():
    t = change_of_mind(Table("1997")).log(
        {"type": "CallPlaced", "seat": "E", "call": "2H", "over_substitute": False})
    assert t.auction() == [("N", "1S", "1997:25B1"), ("E", "2H", "FFB:57.3")]
    t.log({"type": "CallReplaced", "seat": "E", "call": "4H"})
    assert t.auction() == [("N", "1S", "1997:25B1"), ("E", "4H", "1997:25B1")]
    assert t.emitted("DirectorReviewRequired") == []


def test_1997_lho_call_over_the_first_call_left_illegal_is_withdrawn_not_insufficient():
    t = change_of_mind(Table("1997")).log(
        {"type": "CallPlaced", "seat": "E", "call": "1H", "over_substitute": False})
    doc = t.doc
    assert t.auction() == [("N", "1S", "1997:25B1")] and doc["turn"] == "E"
    assert not any(i["kind"] == "unprocessed" for i in doc["irregularities"])
    assert doc["calls_not_made"][-1]["call"] == "1H" and doc["calls_not_made"][-1]["law"] == "1997:25B1"


def test_1997_lho_call_of_unknown_intent_asks_the_director_only_when_it_matters():
    legal = change_of_mind(Table("1997")).log({"type": "CallPlaced", "seat": "E", "call": "2H", "id": "e1"})
    assert legal.auction()[-1][:2] == ("E", "2H") and legal.doc["review"] == []
    legal.log({"type": "CallReplaced", "seat": "E", "call": "4H"})  # may he withdraw it? the director says
    assert legal.doc["review"][0]["reason"].startswith("25B1 did E intend his 2H")
    illegal = change_of_mind(Table("1997")).log({"type": "CallPlaced", "seat": "E", "call": "1H"})
    assert illegal.auction() == [("N", "1S", "1997:25B1")]
    assert illegal.doc["review"][0]["reason"].startswith("25B1 did E intend his call over N's first call")


@pytest.mark.parametrize("laws, law", [("1997", "1997:25B"), ("2017", "2017:25B2")])
def test_a_change_of_mind_after_lho_called_is_cancelled_and_the_first_call_stands(laws, law):
    t = Table(laws).calls("N 1C", "E 1H").log({"type": "CallReplaced", "seat": "N", "call": "1S", "unintended": False})
    assert t.auction() == [("N", "1C", "FFB:57.3"), ("E", "1H", "FFB:57.3")]
    assert t.emitted("OptionsOffered") == []
    assert [(d["call"], lw) for _, d, lw, _ in t.emitted("CallCancelled")] == [("1S", law)]


def test_1997_rejected_substitute_other_call_caps_the_side_and_withdraws_the_first_call():
    t = change_of_mind(Table("1997")).log({"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
                                          {"type": "OptionChosen", "seat": "N", "option": "other_call"})
    assert t.doc["auction"] == [] and t.doc["turn"] == "N"
    assert t.doc["caps"] == [{"side": "NS", "max": "A-"}]
    assert {(n["call"], n["law"]) for n in t.doc["calls_not_made"]} == {("1C", "1997:25B2b2"), ("1S", "1997:25B2")}


def test_a_finding_that_reverses_unintended_overrides_the_25a_record_citing_the_finding():
    t = Table("2017", HEARTS).log(
        {"type": "CallPlaced", "seat": "N", "call": "1S"},
        {"type": "CallReplaced", "seat": "N", "call": "1H", "unintended": True, "id": "n1b"})
    (corrected,) = t.emitted("IrregularityRecorded")
    t.log({"type": "FindingMade", "about": "n1b", "field": "unintended", "value": False, "id": "f1"})
    (override,) = t.emitted("RulingOverridden")
    assert override[1]["about"] == corrected[0] and override[3] == (t.seq_of("f1"), corrected[0])
    assert t.auction() == [("N", "1S", "FFB:57.3")]
    assert [i["kind"] for i in t.doc["irregularities"]] == ["change_of_call"]
    assert t.doc["pending"][0]["to"] == "E"
    # The finding named the fact by its id: the state names it by its seq.
    assert t.doc["findings"] == [{"seq": t.seq_of("f1"), "about": t.seq_of("n1b"), "field": "unintended",
                                  "value": False}]


# -- Law 37: a call by a player who must pass --------------------------------------------


def test_1997_partner_bidding_when_obliged_to_pass_is_cancelled_and_both_pass_to_the_end():
    t = change_of_mind(Table("1997")).log({"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
                                          {"type": "OptionChosen", "seat": "N", "option": "keep_first_call"})
    t.calls("E 4H", "S 4S")
    t.log({"type": "DirectorCalled", "by": "W"})  # rectified before West calls (West calling first is 1997 35B)
    assert t.auction()[-1] == ("S", "Pass", "1997:37")
    assert t.doc["turn"] == "W"
    assert t.doc["partner_must_pass"] == [{"seat": "S", "until": "end_of_auction"},
                                          {"seat": "N", "until": "end_of_auction"}]
    t.calls("W Pass", "N 5C")  # North, too, must pass now
    assert t.auction()[-1] == ("N", "Pass", "1997:37") and t.doc["phase"] == "opening_lead"


# -- 21B ---------------------------------------------------------------------------------


def misinformed(laws: str) -> Table:
    t = Table(laws, LANDY).calls("N 1NT", "E 2D")
    t.log({"type": "ExplanationGiven", "by": "W", "call_index": 2, "text": "transfer to hearts"})
    return t.calls("S 2H", "W Pass")


def correct(t: Table) -> Table:
    return t.log({"type": "ExplanationCorrected", "by": "W", "call_index": 2, "text": "Landy"})


@pytest.mark.parametrize("laws, law", [("1997", "1997:21B1"), ("2017", "2017:21B1a")])
def test_a_call_changed_after_a_correction_stands_and_lho_may_change_his_since(laws, law):
    t = correct(misinformed(laws)).log(
        {"type": "CallReplaced", "seat": "S", "call": "Pass", "mi_influenced": True},
        {"type": "CallReplaced", "seat": "W", "call": "2H"})
    assert t.auction() == [("N", "1NT", "FFB:57.3"), ("E", "2D", "FFB:57.3"), ("S", "Pass", law),
                           ("W", "2H", f"{laws}:21B2")]
    assert [(d["kind"], d["offender"]) for _, d, _, _ in t.emitted("IrregularityRecorded")] == [
        ("misinformation", "EW")]
    assert t.doc["review"] == []


@pytest.mark.parametrize("laws", ["1997", "2017"])
def test_a_call_changed_too_late_after_a_correction_asks_for_redress_without_blaming_the_player(laws):
    t = correct(misinformed(laws).calls("N Pass")).log(
        {"type": "CallReplaced", "seat": "S", "call": "Pass", "mi_influenced": True})
    assert [a[1] for a in t.auction()] == ["1NT", "2D", "2H", "Pass", "Pass"]
    assert [d["kind"] for _, d, _, _ in t.emitted("IrregularityRecorded")] == ["misinformation"]
    (review,) = t.emitted("DirectorReviewRequired")
    assert review[2] == f"{laws}:21B3" and review[1]["reason"].startswith("21B3 too late for S")


def test_a_change_after_a_correction_with_no_judgment_logged_asks_the_director():
    t = correct(misinformed("2017")).log({"type": "CallReplaced", "seat": "S", "call": "Pass"})
    assert t.auction()[2] == ("S", "2H", "FFB:57.3")
    assert t.doc["review"][0]["reason"].startswith("21B1a could the call have been influenced")


# -- Law 26 ------------------------------------------------------------------------------


def to_opening_lead(t: Table) -> Table:
    return t.calls("E 4H", "S Pass", "W Pass", "N Pass")


def test_2017_law26_lets_declarer_forbid_only_a_suit_the_offender_did_not_specify():
    t = to_opening_lead(change_of_mind(Table("2017")).log(
        {"type": "OptionChosen", "seat": "E", "option": "accept_substitute"}))
    assert t.doc["pending"][0]["options"] == ["forbid_suit", "no_restriction"]
    before = len(t.ledger.events(t.stream))
    with pytest.raises(BadInput, match=r"may name only ♥ ♦ ♣"):
        t.log({"type": "OptionChosen", "seat": "E", "option": "forbid_suit", "suit": "S"})
    assert len(t.ledger.events(t.stream)) == before  # nothing written
    t.log({"type": "OptionChosen", "seat": "E", "option": "forbid_suit", "suit": "C"})
    assert t.doc["lead_restrictions"] == [{"seat": "S", "suit": "C", "mode": "must_not", "lasts": "while_on_lead"}]


def test_1997_law26_for_a_withdrawn_notrump_call_forbids_any_suit_but_requires_none():
    t = change_of_mind(Table("1997"), "1C", "1NT").log(
        {"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
        {"type": "OptionChosen", "seat": "N", "option": "keep_first_call"})
    t = to_opening_lead(t)
    assert t.doc["pending"][0] == {"to": "E", "options": ["forbid_suit", "no_restriction"], "law": "1997:26",
                                   "seq": t.doc["pending"][0]["seq"]}
    t.log({"type": "OptionChosen", "seat": "E", "option": "forbid_suit", "suit": "H"})
    assert t.doc["lead_restrictions"][0]["suit"] == "H"


def test_1997_law26_gives_nothing_when_the_withdrawn_suit_was_bid_legally_by_the_offender():
    t = change_of_mind(Table("1997")).log({"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
                                          {"type": "OptionChosen", "seat": "N", "option": "keep_first_call"})
    t.calls("E 2H", "S Pass", "W Pass", "N 2S", "E 4H", "S Pass", "W Pass", "N Pass")
    assert t.doc["phase"] == "opening_lead" and t.doc["turn"] == "S"
    assert t.doc["pending"] == [] and t.emitted("OptionsOffered")[-1][1]["law"] == "1997:25B2b"


def test_1997_law26_after_another_call_reaches_only_the_withdrawn_suit_never_bid_legally():
    t = change_of_mind(Table("1997"), "1S", "2C").log(
        {"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
        {"type": "OptionChosen", "seat": "N", "option": "other_call"})
    t.calls("N 2C")  # the withdrawn 1S is gone, 2C is bid legally: 1S's spades were never bid legally
    t = to_opening_lead(t)
    assert t.doc["pending"][0]["options"] == ["require_suit", "forbid_suit", "no_restriction"]
    with pytest.raises(BadInput, match="may name only ♠"):
        t.log({"type": "OptionChosen", "seat": "E", "option": "require_suit", "suit": "C"})


def test_law26_waits_for_the_offender_partners_first_turn_to_lead():
    # North (the offender) leads against 4H by West; South's first lead comes when he wins trick 1.
    t = change_of_mind(Table("2017")).log({"type": "OptionChosen", "seat": "E", "option": "reject_substitute"})
    t.calls("E Pass", "S Pass", "W 1H", "N Pass", "E 4H", "S Pass", "W Pass", "N Pass")
    assert t.doc["contract"]["declarer"] == "W" and t.doc["turn"] == "N" and t.doc["pending"] == []
    t.log(*({"type": "CardPlayed", "seat": s, "card": c} for s, c in
            (("N", "C5"), ("E", "CJ"), ("S", "CK"), ("W", "C2"))))
    assert t.doc["tricks"][0]["winner"] == "S"
    assert t.doc["pending"] == [{"to": "W", "options": ["forbid_suit", "no_restriction"], "law": "2017:26",
                                 "seq": t.doc["pending"][0]["seq"]}]
    t.log({"type": "OptionChosen", "seat": "W", "option": "forbid_suit", "suit": "S"})
    assert t.doc["lead_restrictions"] == [{"seat": "S", "suit": "S", "mode": "must_not", "lasts": "while_on_lead"}]


def test_a_lead_against_the_restriction_when_able_is_a_revoke():
    t = to_opening_lead(change_of_mind(Table("2017")).log(
        {"type": "OptionChosen", "seat": "E", "option": "reject_substitute"}))
    t.log({"type": "OptionChosen", "seat": "E", "option": "forbid_suit", "suit": "S"},
          {"type": "CardPlayed", "seat": "S", "card": "S2", "id": "lead"})
    assert t.doc["irregularities"][-1] == {"kind": "revoke", "offender": "S", "seq": t.seq_of("lead"),
                                           "law": "2017:61A", "trick": 1, "established": False}  # 61A, 63A


# -- the state says it all, with its Law ---------------------------------------------------


def test_every_call_decision_in_the_state_carries_its_law():
    t = correct(misinformed("1997")).log({"type": "CallReplaced", "seat": "S", "call": "Pass", "mi_influenced": True})
    doc = t.doc
    assert all(a["law"] for a in doc["auction"])
    assert all(n["law"] for n in doc["calls_not_made"])
    assert all(r["law"] for r in doc["call_rulings"])


def test_the_readable_state_says_each_call_ruling_in_plain_words_with_its_law():
    t = change_of_mind(Table("1997")).log({"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
                                          {"type": "OptionChosen", "seat": "N", "option": "keep_first_call"})
    console = Console(width=200, color_system=None, record=True)
    console.print(render_state(t.doc))
    text = console.export_text()
    assert "seq 3 N 1♠ not accepted; N keeps 1♣, S must pass at his next turn — 1997:25B2b1" in text
    assert "Irregularity: change of call by N (seq 3) — 1997:25B" in text
    assert "seq 3 N 1♠: not a call (substituted call not accepted: cancelled) — 1997:25B2" in text


# -- every ruling a call record takes has words and a Law in its board's edition (issue 10) -----------

CALL_SCENARIOS = sorted(p for p in (Path(__file__).parent / "scenarios").glob("*.jsonl")
                        if p.name.startswith(("calls-", "rotation-", "inadmissible-")))


@pytest.mark.parametrize("path", CALL_SCENARIOS, ids=[p.stem for p in CALL_SCENARIOS])
def test_every_ruling_a_call_takes_has_words_and_a_law_in_the_boards_edition(path):
    """The call records of each step of the fold of a scenario (the readings on the way, such as
    ``undecided`` or ``change_of_mind``, as well as the last): each ruling is one the families give
    words (``made`` and ``not_made`` are not shown) and a Law in the board's edition
    (``RULING_LAWS``: where a ruling exists, it has a citation)."""
    from ledger.laws.base import cited
    from ledger.laws import CALL_RULING_LAWS as RULING_LAWS, CALL_RULING_WORDS as RULING_WORDS
    from projections.auction import CALL_MADE, CALL_NOT_RELEASED
    from ledger.scenario import replay_text
    from ledger.service import recorded
    from projections.resolve import resolve
    from projections.table import evolve

    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        records = [recorded(e) for e in ledger.events(stream)]
    state, seen = None, set()
    for record, in_force in resolve(records):
        state = evolve(state, stream, record, in_force)
        seen |= {(str(r.ruling), r.law) for r in state.calls}
    assert state is not None and seen
    for ruling, law in sorted(seen, key=str):
        if ruling in ("made", "not_made"):
            assert law in (CALL_MADE, CALL_NOT_RELEASED)
            continue
        assert ruling in RULING_WORDS, ruling
        assert RULING_LAWS[ruling].get(state.edition), f"{ruling} has no Law in the {state.edition} Laws"
        assert cited(state, RULING_LAWS, ruling).startswith(f"{state.edition}:")


# -- issue 29 item 4: the call families name their rulings and kinds by enum member --------------

CALL_MODULES = ("ledger/laws/calls.py", "ledger/laws/insufficient.py", "projections/auction.py")

LOOK_ALIKES = {
    "mi_change": "an occasion of calls.CITATIONS (21B1), cited through law(state, ...)",
    "obliged_to_pass": "an occasion of calls.CITATIONS (37), cited through law(state, ...)",
    "change_of_call": "an interception point of projections.auction.CALL_POINTS",
    "insufficient_bid": "an interception point of projections.auction.CALL_POINTS",
    "other_call": "an option id of 25B2b (OptionsOffered, Choice.option, OPTION_WORDS)",
    "misinformation": "the words of IrregularityKind.MISINFORMATION",
}
"""The string literals of the call modules that spell a call ruling or an irregularity kind but
mean something else, and what they mean."""


def _string_literals(path: str) -> list[tuple[int, str]]:
    """(line, value) of each string constant of ``path`` that is not a docstring."""
    import ast

    tree = ast.parse((Path(__file__).parent.parent / path).read_text(encoding="utf-8"))
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def _dict_keys(path: str) -> set[tuple[int, str]]:
    """(line, value) of each string constant of ``path`` that is the key of a dict display."""
    import ast

    tree = ast.parse((Path(__file__).parent.parent / path).read_text(encoding="utf-8"))
    return {(k.lineno, k.value) for n in ast.walk(tree) if isinstance(n, ast.Dict)
            for k in n.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}


@pytest.mark.parametrize("path", CALL_MODULES)
def test_the_call_modules_name_rulings_kinds_and_editions_by_member_not_by_string(path):
    """A call ruling, an irregularity kind, a phase or an edition is named by its member
    (``CallRuling.MADE``, ``IrregularityKind.REVOKE``, ``PLAY``, ``Edition.E2017``): a literal
    spelling one is only one of the look-alikes above, or an edition keying a Law table
    (``{"1997": "25A", "2017": "25A1"}``: data, not code)."""
    from projections.vocab import CallRuling, Edition, IrregularityKind, Phase

    vocabulary = {m.value for enum in (CallRuling, IrregularityKind, Phase) for m in enum}
    literals = _string_literals(path)
    named = [(line, value) for line, value in literals if value in vocabulary]
    assert [(line, value) for line, value in named if value not in LOOK_ALIKES] == []
    editions = {(line, value) for line, value in literals if value in set(Edition)}
    assert sorted(editions - _dict_keys(path)) == []


def test_the_call_families_key_their_tables_by_member():
    """One ``RULINGS`` table (words and Laws) and one ``IRREGULARITIES`` table per call family,
    keyed by members; the old parallel string tables are gone; what the families supply to the
    reading of calls (``NOT_ENTERED``) and to the rules (``RECORD_RULES``) is keyed by member too."""
    from ledger.laws import calls, insufficient
    from ledger.laws.base import Ruled
    from projections import auction
    from projections.vocab import CallRuling, IrregularityKind

    for module in (calls, insufficient):
        for old in ("RULING_WORDS", "RULING_LAWS", "IRREGULARITY_WORDS"):
            assert not hasattr(module, old), f"{module.__name__}.{old}"
        assert module.RULINGS and all(type(k) is CallRuling and isinstance(v, Ruled)
                                      for k, v in module.RULINGS.items())
        assert module.IRREGULARITIES and all(type(k) is IrregularityKind for k in module.IRREGULARITIES)
    for table in (insufficient.NOT_ENTERED, insufficient.RECORD_RULES, auction.NOT_ENTERED, calls.RULES_BY_RULING):
        assert table and all(type(k) is CallRuling for k in table)
    assert all(type(r) is CallRuling for r in auction.IB_OPEN | auction.IB_SETTLED)
    assert not auction.IB_OPEN & auction.IB_SETTLED


def test_a_reason_or_rule_keyed_by_a_string_that_is_no_ruling_is_refused_at_registration():
    """``supply_not_entered`` and ``supply_record_rules`` (the composition root's registration)
    refuse a key that is not a ``CallRuling`` member and leave the tables as they were."""
    from ledger.laws import calls
    from projections import auction

    not_entered, rules = dict(auction.NOT_ENTERED), dict(calls.RULES_BY_RULING)
    with pytest.raises(ValueError, match="not_a_ruling"):
        auction.supply_not_entered({"not_a_ruling": lambda r: ""}, "elsewhere")
    with pytest.raises(ValueError, match="not_a_ruling"):
        calls.supply_record_rules({"not_a_ruling": lambda state, rec: []}, "elsewhere")
    assert auction.NOT_ENTERED == not_entered and calls.RULES_BY_RULING == rules


def test_the_fold_leaves_call_records_whose_ruling_is_a_member_and_the_document_the_same_strings():
    """A record's ruling is the member (``CallRecord.ruling``), whichever family read it; the state
    document's ``call_rulings`` says it as the same string (json), as before the members."""
    import json

    from ledger.laws.calls import call_rulings
    from ledger.scenario import replay_text
    from ledger.service import recorded
    from projections.resolve import resolve
    from projections.table import evolve
    from projections.vocab import CallRuling

    path = Path(__file__).parent / "scenarios" / "calls-25a-2017-unintended.jsonl"
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        records = [recorded(e) for e in ledger.events(stream)]
        document = ledger.state(stream)
    state = None
    for record, in_force in resolve(records):
        state = evolve(state, stream, record, in_force)
    assert state is not None
    rulings = [r.ruling for r in state.calls]
    assert all(type(r) is CallRuling for r in rulings)
    assert {CallRuling.MADE, CallRuling.UNINTENDED_CORRECTED, CallRuling.WITHDRAWN} <= set(rulings)
    said = [r["ruling"] for r in json.loads(json.dumps(call_rulings(state)))]
    assert said == [r["ruling"] for r in document["call_rulings"]]
    assert "unintended_corrected" in said and "withdrawn" in said and "made" not in said
