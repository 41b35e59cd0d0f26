"""Auction irregularities: 2017 Law 27 (insufficient bid), through the ordinary
append path (the fold and the ruling engine).

Source: the 2017 Laws of Duplicate Bridge, Law 27 (LAWS-DIGEST names the public
2017 text as its 2017 source; the digest does not summarise Law 27, the seeds
leave it out). The 1997 Law 27 is read from LAWS-DIGEST 14.9 (issue 12); Laws 28
to 32 are ledger.laws.rotation (tests/scenarios/rotation-*.jsonl). The scenario
files tests/scenarios/calls-27-*.jsonl tell whole boards; these tests pin each
rule on its own.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ledger.errors import BadInput
from ledger.render import render_state
from ledger.service import Ledger

# Board 5, dealer N, NS vulnerable: North spades and clubs, East a strong heart hand.
BLACK = "N:KQJ84.3.J2.AQ975 A5.AKQJ92.K84.J3 T972.T65.Q763.K8 63.874.AT95.T642"


class Table:
    def __init__(self, laws: str = "2017") -> None:
        self.ledger = Ledger.open("sqlite:///:memory:", create=True)
        self.stream = "t/b"
        self.log({"type": "BoardOpened", "tournament": "t", "board": 5, "table": "1", "dealer": "N",
                  "vulnerability": "NS", "laws": laws, "deal": BLACK, "id": "open"})

    def log(self, *facts: dict) -> "Table":
        for fact in facts:
            self.ledger.append(self.stream, [fact])
        return self

    def calls(self, *pairs: str) -> "Table":
        return self.log(*({"type": "CallPlaced", "seat": p.split()[0], "call": p.split()[1]} for p in pairs))

    def choose(self, seat: str, option: str) -> "Table":
        return self.log({"type": "OptionChosen", "seat": seat, "option": option})

    @property
    def doc(self) -> dict:
        return self.ledger.state(self.stream)

    def count(self) -> int:
        return len(list(self.ledger.events(self.stream)))

    def emitted(self, type_: str) -> list[tuple[dict, str | None]]:
        return [(e.data, e.law) for e in self.ledger.events(self.stream)
                if e.type == type_ and e.actor.role == "system"]

    def auction(self) -> list[tuple[str, str, str]]:
        return [(a["seat"], a["call"], a["law"]) for a in self.doc["auction"]]

    def refused(self, fact: dict, match: str) -> None:
        before = self.count()
        with pytest.raises(BadInput, match=match):
            self.log(fact)
        assert self.count() == before, "nothing is written"


def insufficient() -> Table:
    """North 1S, East 1H (insufficient)."""
    return Table().calls("N 1S", "E 1H")


def refused() -> Table:
    return insufficient().choose("S", "refuse")


# -- 27A: the LHO's option ---------------------------------------------------------

def test_an_insufficient_bid_is_recorded_and_offered_to_lho_only():
    t = insufficient()
    doc = t.doc
    assert t.auction() == [("N", "1S", "FFB:57.3")] and doc["turn"] == "E"
    assert [(o["to"], o["options"], o["law"]) for o in doc["pending"]] == [("S", ["accept", "refuse"], "2017:27A1")]
    assert [(i["kind"], i["offender"], i["seq"], i["law"]) for i in doc["irregularities"]] == [
        ("insufficient_bid", "E", 3, "2017:27")]
    assert doc["calls_not_made"][0]["call"] == "1H" and doc["calls_not_made"][0]["law"] == "2017:27A1"


@pytest.mark.parametrize("seat, option, match", [
    ("W", "accept", "option"),            # the offender's partner
    ("E", "refuse", "option"),            # the offender
    ("N", "accept", "option"),            # the offender's RHO
    ("S", "accept_substitute", "option not offered"),  # a 25B option, not offered here
    ("S", "forbid_suit", "option not offered"),
])
def test_the_option_is_refused_to_anyone_but_lho_and_for_options_not_offered(seat, option, match):
    t = insufficient()
    t.refused({"type": "OptionChosen", "seat": seat, "option": option}, match)
    assert t.doc["pending"][0]["to"] == "S"


def test_accepted_by_option_the_bid_is_legal_and_the_auction_goes_on_over_it():
    t = insufficient().choose("S", "accept")
    assert t.auction() == [("N", "1S", "FFB:57.3"), ("E", "1H", "2017:27A1")]
    assert t.doc["turn"] == "S" and t.doc["pending"] == [] and t.doc["calls_not_made"] == []
    t.calls("S 1S")  # sufficient over the accepted 1H
    assert t.auction()[-1] == ("S", "1S", "FFB:57.3")
    assert t.emitted("PartnerMustPass") == [] and t.doc["review"] == []


def test_lho_calling_accepts_and_the_option_lapses():
    t = insufficient().calls("S 2S")
    assert t.auction() == [("N", "1S", "FFB:57.3"), ("E", "1H", "2017:27A1"), ("S", "2S", "FFB:57.3")]
    assert t.doc["pending"] == []
    t.refused({"type": "OptionChosen", "seat": "S", "option": "refuse"}, "option not offered")


def test_a_call_by_another_seat_accepts_nothing():
    t = insufficient().calls("W Pass")
    assert t.auction() == [("N", "1S", "FFB:57.3")] and t.doc["pending"][0]["to"] == "S"
    assert t.doc["irregularities"][-1]["kind"] == "unprocessed"


def test_premature_replacement_is_not_ruled_and_leaves_the_option_open():
    t = insufficient().log({"type": "CallPlaced", "seat": "E", "call": "2H", "same_denomination": True})
    doc = t.doc
    assert t.auction() == [("N", "1S", "FFB:57.3")] and doc["pending"][0]["to"] == "S"
    assert doc["irregularities"][-1]["kind"] == "unprocessed" and "27C" in doc["irregularities"][-1]["detail"]


# -- 27B: the correction ----------------------------------------------------------

def test_27b1a_lowest_sufficient_bid_same_denomination_no_rectification_but_27d_review():
    t = refused().log({"type": "CallPlaced", "seat": "E", "call": "2H", "same_denomination": True})
    assert t.auction() == [("N", "1S", "FFB:57.3"), ("E", "2H", "2017:27B1a")]
    assert t.emitted("PartnerMustPass") == [] and t.doc["partner_must_pass"] == []
    [(review, law)] = t.emitted("DirectorReviewRequired")
    assert law == "2017:27D" and review["reason"].startswith("27D") and review["about"] == 3
    t.calls("S Pass", "W 3H")  # West is not barred
    assert t.auction()[-1] == ("W", "3H", "FFB:57.3")


def test_27b2_a_non_comparable_bid_bars_partner_throughout_and_law_37_enforces_it():
    t = refused().log({"type": "CallPlaced", "seat": "E", "call": "3C", "same_denomination": False,
                       "comparable": False})
    assert t.auction()[-1] == ("E", "3C", "2017:27B2")
    assert t.emitted("PartnerMustPass") == [({"seat": "W", "until": "end_of_auction"}, "2017:27B2")]
    t.calls("S Pass", "W 4H")
    assert t.auction()[-1] == ("W", "Pass", "2017:37B")
    t.calls("N 3S", "E 4H", "S Pass")
    t.calls("W 5C")  # still barred at his next turn too
    assert t.auction()[-1] == ("W", "Pass", "2017:37B")


def test_27b2_a_pass_not_comparable_bars_partner():
    t = refused().log({"type": "CallPlaced", "seat": "E", "call": "Pass", "comparable": False})
    assert t.auction()[-1] == ("E", "Pass", "2017:27B2")
    assert t.doc["partner_must_pass"] == [{"seat": "W", "until": "end_of_auction"}]


def test_27b1b_a_comparable_call_no_bar_and_27d_review():
    t = refused().log({"type": "CallPlaced", "seat": "E", "call": "Pass", "comparable": True})
    assert t.auction()[-1] == ("E", "Pass", "2017:27B1b")
    assert t.doc["partner_must_pass"] == []
    assert [law for _, law in t.emitted("DirectorReviewRequired")] == ["2017:27D"]


def test_a_judgment_not_given_is_asked_and_nothing_changes():
    t = refused().calls("E 2H")
    doc = t.doc
    assert t.auction() == [("N", "1S", "FFB:57.3")] and doc["turn"] == "E"
    assert doc["review"][0]["reason"].startswith("27B1a is 2H the lowest sufficient bid")
    assert t.emitted("PartnerMustPass") == []
    # The director: not the same denomination, not comparable -> 27B2.
    t.log({"type": "FindingMade", "about": doc["review"][0]["about"], "field": "same_denomination", "value": False})
    assert t.doc["review"][-1]["reason"].startswith("27B1b is 2H a comparable call")
    t.log({"type": "FindingMade", "about": doc["review"][0]["about"], "field": "comparable", "value": False})
    assert t.auction()[-1] == ("E", "2H", "2017:27B2")
    assert t.doc["partner_must_pass"] == [{"seat": "W", "until": "end_of_auction"}]


def test_a_finding_about_a_field_the_fact_does_not_have_is_refused():
    t = refused()
    seq = t.count()  # the refusal
    t.refused({"type": "FindingMade", "about": seq, "field": "comparable", "value": True},
              "OptionChosen has no judgment field 'comparable'")


def test_27b3_a_double_is_cancelled_partner_barred_then_a_legal_call_is_due():
    t = Table().calls("N 1S", "E Pass", "S 2S", "W 2H").choose("N", "refuse")
    t.log({"type": "CallPlaced", "seat": "W", "call": "X", "comparable": False})
    doc = t.doc
    assert doc["turn"] == "W" and [a["call"] for a in doc["auction"]] == ["1S", "Pass", "2S"]
    assert [(d["seat"], d["call"], law) for d, law in t.emitted("CallCancelled")] == [("W", "X", "2017:27B3")]
    assert t.emitted("PartnerMustPass") == [({"seat": "E", "until": "end_of_auction"}, "2017:27B3")]
    t.calls("W 3H")
    assert t.auction()[-1] == ("W", "3H", "2017:27B3")
    t.calls("N 3S", "E 4H")
    assert t.auction()[-1] == ("E", "Pass", "2017:37B")
    t.log({"type": "DirectorCalled", "by": "S"})  # rectified before South calls (South calling first is 37A)
    t.calls("S Pass", "W Pass")
    # Law 26 (2017 26B): declarer may forbid one suit West did not specify in the legal auction
    # (West's 3H is legal: hearts may not be forbidden).
    assert t.doc["phase"] == "opening_lead"
    [offer] = t.doc["pending"]
    assert offer["to"] == "N" and offer["law"] == "2017:26" and offer["options"] == ["forbid_suit", "no_restriction"]
    t.refused({"type": "OptionChosen", "seat": "N", "option": "forbid_suit", "suit": "H"}, "may name only")
    t.log({"type": "OptionChosen", "seat": "N", "option": "forbid_suit", "suit": "C"})
    assert t.doc["lead_restrictions"] == [{"seat": "E", "suit": "C", "mode": "must_not", "lasts": "while_on_lead"}]


def test_a_comparable_double_stands_under_27b1b():
    t = Table().calls("N 1S", "E Pass", "S 2S", "W 2H").choose("N", "refuse")
    t.log({"type": "CallPlaced", "seat": "W", "call": "X", "comparable": True})
    assert t.auction()[-1] == ("W", "X", "2017:27B1b") and t.emitted("CallCancelled") == []


def test_another_insufficient_bid_as_correction_is_not_ruled():
    t = refused().calls("E 1D")
    assert t.auction() == [("N", "1S", "FFB:57.3")]
    assert t.doc["irregularities"][-1]["kind"] == "unprocessed" and "27B4" in t.doc["irregularities"][-1]["detail"]


def _west_insufficient(correction: dict) -> Table:
    """N 1S, E Pass, S 2S, W 2H (insufficient), refused; West's correction; 4S by North, East leads."""
    t = Table().calls("N 1S", "E Pass", "S 2S", "W 2H").choose("N", "refuse")
    t.log({"type": "CallPlaced", "seat": "W", **correction})
    return t.calls("N 4S", "E Pass", "S Pass", "W Pass")


def test_27b1a_leaves_no_lead_restriction_but_27b2_does():
    plain = _west_insufficient({"call": "3H", "same_denomination": True})
    assert plain.doc["phase"] == "opening_lead" and plain.doc["turn"] == "E" and plain.doc["pending"] == []
    barred = _west_insufficient({"call": "Pass", "comparable": False})
    assert barred.doc["phase"] == "opening_lead"
    [offer] = barred.doc["pending"]
    assert (offer["to"], offer["law"], offer["options"]) == ("N", "2017:26", ["forbid_suit", "no_restriction"])


def test_27b1b_comparable_call_leaves_no_lead_restriction():
    t = _west_insufficient({"call": "Pass", "comparable": True})
    assert t.doc["phase"] == "opening_lead" and t.doc["pending"] == []


# -- 1997 Law 27 (issue 12; LAWS-DIGEST 14.9) ------------------------------------------

def test_1997_the_lho_may_accept_an_insufficient_bid():
    t = Table("1997").calls("N 1S", "E 1H")
    doc = t.doc
    assert [(o["to"], o["law"]) for o in doc["pending"]] == [("S", "1997:27A")] and t.auction() == [("N", "1S", "FFB:57.3")]
    assert [(i["kind"], i["law"]) for i in doc["irregularities"]] == [("insufficient_bid", "1997:27")]
    t.refused({"type": "OptionChosen", "seat": "W", "option": "accept"}, "not W's")
    t.choose("S", "accept")
    assert t.auction()[-1] == ("E", "1H", "1997:27A") and t.doc["turn"] == "S"


@pytest.mark.parametrize("correction", ["3H", "2C", "Pass"])
def test_1997_any_correction_but_the_lowest_in_the_same_strain_is_27b2_without_a_judgment(correction):
    t = Table("1997").calls("N 1S", "E 1H").choose("S", "refuse").calls(f"E {correction}")
    assert t.auction()[-1] == ("E", correction, "1997:27B2") and t.doc["review"] == []
    assert t.doc["partner_must_pass"] == [{"seat": "W", "until": "end_of_auction"}]


def test_1997_the_lowest_sufficient_bid_in_the_same_strain_asks_whether_either_bid_is_conventional():
    t = Table("1997").calls("N 1S", "E 1H").choose("S", "refuse").calls("E 2H")
    assert t.auction() == [("N", "1S", "FFB:57.3")] and t.doc["review"][0]["reason"].startswith("27B1a")
    t.log({"type": "FindingMade", "about": 7, "field": "same_denomination", "value": False})
    assert t.auction()[-1] == ("E", "2H", "1997:27B2")
    assert t.doc["partner_must_pass"] == [{"seat": "W", "until": "end_of_auction"}]


# -- the readable state -----------------------------------------------------------

def _rendered(t: Table) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(render_state(t.doc))
    return out.getvalue()


def test_the_readable_state_says_the_ruling_in_plain_words():
    text = _rendered(insufficient())
    assert "1♥ is an insufficient bid: S may accept it or refuse it" in text
    t = refused().log({"type": "CallPlaced", "seat": "E", "call": "Pass", "comparable": False})
    text = _rendered(t)
    assert "not comparable: W must pass whenever it is his turn" in text and "2017:27B2" in text


def test_a_call_replaced_while_law_27_is_open_is_not_ruled_and_changes_nothing():
    # West's earlier Pass is in the auction; his 3H is insufficient over 4S. A CallReplaced by West now
    # concerns the insufficient bid (27C / 25A, not built), not his Pass: it is not read as a change of it.
    t = Table().calls("N 1S", "E Pass", "S 2S", "W Pass", "N 3S", "E Pass", "S 4S", "W 3H")
    before = t.auction()
    t.log({"type": "CallReplaced", "seat": "W", "call": "5H", "unintended": True})
    doc = t.doc
    assert t.auction() == before and doc["pending"][0]["law"] == "2017:27A1"
    assert [i["kind"] for i in doc["irregularities"]] == ["insufficient_bid", "unprocessed"]
    assert not any(r["ruling"] == "too_late" for r in doc["call_rulings"])
