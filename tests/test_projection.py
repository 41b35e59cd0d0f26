"""The table projection: a pure fold (spec section 5) for regular boards, and
unprocessed irregularities kept as logged. Given/when/then over facts."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ledger.service import parse_fact
from ledger.simulate import random_board
from projections import snapshot
from projections.document import to_document
from projections.table import fold

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
# North KT8 A96 A95 7542 / East Q5 KJ52 KQ874 T8 / South AJ92 874 JT6 AQ3 / West 7643 QT3 32 KJ96


def opened(board=11, **extra):
    fact = {"type": "BoardOpened", "tournament": "t", "board": board, "table": "1", "deal": DEAL}
    fact.update(extra)
    return fact


def calls(*seq_calls):
    return [{"type": "CallPlaced", "seat": s, "call": c} for s, c in seq_calls]


def cards(*pairs):
    return [{"type": "CardPlayed", "seat": s, "card": c} for s, c in pairs]


def given_facts(facts):
    parsed = [parse_fact(f, n) for n, f in enumerate(facts, start=1)]
    return fold("t/b", [(n, f"h{n}", p.event) for n, p in enumerate(parsed, start=1)])


def doc_of(facts):
    return to_document(given_facts(facts))


# Board 11: dealer S, nobody vulnerable. S opens 1NT, all pass: S declares, W leads.
AUCTION_1NT = calls(("S", "1NT"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass"))


def test_board_number_gives_dealer_and_vulnerability_when_omitted():
    doc = doc_of([opened(board=11)])
    assert doc["board"]["dealer"] == "S" and doc["board"]["vulnerability"] == "None"
    assert doc["laws"] == "2017" and doc["phase"] == "auction" and doc["turn"] == "S"


def test_given_dealer_and_vulnerability_win_over_the_rotation():
    doc = doc_of([opened(board=11, dealer="W", vulnerability="Both", laws="1997")])
    assert doc["board"]["dealer"] == "W" and doc["board"]["vulnerability"] == "All"
    assert doc["laws"] == "1997" and doc["turn"] == "W"


def test_three_passes_after_a_bid_close_the_auction_and_name_the_contract():
    doc = doc_of([opened()] + AUCTION_1NT)
    assert doc["phase"] == "opening_lead"
    assert doc["contract"] == {"level": 1, "strain": "NT", "risk": "", "declarer": "S"}
    assert doc["dummy"] == "N" and doc["turn"] == "W"
    assert [a["call"] for a in doc["auction"]] == ["1NT", "Pass", "Pass", "Pass"]
    assert all(a["law"] == "FFB:57.3" for a in doc["auction"])


def test_declarer_is_the_first_of_the_side_to_name_the_strain():
    doc = doc_of([opened()] + calls(("S", "1S"), ("W", "Pass"), ("N", "2S"), ("E", "Pass"),
                                    ("S", "Pass"), ("W", "Pass")))
    assert doc["contract"]["declarer"] == "S" and doc["contract"]["level"] == 2


def test_doubled_and_redoubled_contracts():
    doc = doc_of([opened()] + calls(("S", "1H"), ("W", "X"), ("N", "XX"), ("E", "Pass"),
                                    ("S", "Pass"), ("W", "Pass")))
    assert doc["contract"]["risk"] == "XX"
    doc = doc_of([opened()] + calls(("S", "1H"), ("W", "X"), ("N", "2C"), ("E", "X"),
                                    ("S", "Pass"), ("W", "Pass"), ("N", "Pass")))
    assert doc["contract"] == {"level": 2, "strain": "C", "risk": "X", "declarer": "N"}


def test_four_passes_pass_the_board_out():
    doc = doc_of([opened()] + calls(("S", "Pass"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass")))
    assert doc["phase"] == "ended" and doc["contract"] is None and doc["turn"] is None
    assert doc["result"] == {"contract": "Pass", "declarer": None, "risk": "", "tricks": None,
                             "score_ns": 0, "text": "Pass"}


@pytest.mark.parametrize("facts, detail", [
    (calls(("S", "1S"), ("W", "Pass"), ("N", "X")), "inadmissible double"),
    (calls(("S", "X")), "inadmissible double"),
    (calls(("S", "1S"), ("W", "X"), ("N", "Pass"), ("E", "XX")), "inadmissible redouble"),
    (calls(("S", "1S"), ("W", "Pass"), ("N", "XX")), "inadmissible redouble"),
])
def test_an_inadmissible_double_is_not_entered_and_read_by_law_36(facts, detail):
    # Issue 12: no longer unprocessed (ledger.laws.inadmissible, 2017 36B).
    doc = doc_of([opened()] + facts)
    assert doc["irregularities"] == [] and len(doc["auction"]) == len(facts) - 1
    last = doc["call_rulings"][-1]
    assert (last["ruling"], last["law"], last["seq"]) == ("inadmissible_double", "2017:36B", len(facts) + 1)
    assert detail in last["detail"]


def test_a_call_out_of_rotation_is_not_entered_and_waits_for_the_lho():
    # Issue 12: no longer unprocessed; Laws 28 to 32 (ledger.laws.rotation) read it.
    doc = doc_of([opened()] + calls(("W", "1S")))
    assert doc["auction"] == [] and doc["turn"] == "S" and doc["irregularities"] == []
    assert [(r["ruling"], r["law"]) for r in doc["call_rulings"]] == [("coor", "2017:31")]
    assert "awaiting N's option (29A)" in doc["calls_not_made"][0]["reason"]


def test_an_insufficient_bid_is_read_by_law_27_in_both_editions():
    # It was unprocessed before Law 27 was built (2017) and before issue 12 (1997); it waits for LHO's option.
    facts = calls(("S", "1S"), ("W", "1H"))
    for laws, option in (("1997", "1997:27A"), ("2017", "2017:27A1")):
        doc = doc_of([opened(laws=laws)] + facts)
        assert doc["irregularities"] == [] and len(doc["auction"]) == 1 and doc["turn"] == "W"
        assert [(r["ruling"], r["law"]) for r in doc["call_rulings"]] == [("insufficient", option)]


def test_a_call_after_the_final_pass_is_read_by_law_39():
    doc = doc_of([opened()] + AUCTION_1NT + calls(("W", "2H")))
    assert doc["irregularities"] == [] and doc["phase"] == "opening_lead"
    assert [(n["call"], n["law"]) for n in doc["calls_not_made"]] == [("2H", "2017:39")]


def test_an_accidental_call_is_not_a_call_ffb_57_3():
    doc = doc_of([opened(), {"type": "CallPlaced", "seat": "S", "call": "1S", "intentional": False}])
    assert doc["auction"] == [] and doc["irregularities"] == [] and doc["turn"] == "S"
    assert doc["calls_not_made"] == [{"seq": 2, "seat": "S", "call": "1S", "reason": "accidental",
                                      "law": "FFB:57.3"}]


def test_opening_lead_by_the_wrong_defender_waits_for_declarers_option_and_is_not_played():
    doc = doc_of([opened()] + AUCTION_1NT + cards(("E", "DK")))
    assert doc["tricks"] == [] and doc["phase"] == "opening_lead"
    (lead,) = doc["leads_out_of_turn"]  # Law 54: declarer's options (tests/test_leads.py)
    assert (lead["seat"], lead["card"], lead["kind"], lead["correct"], lead["status"]) == (
        "E", "DK", "opening_lead", "W", "pending")
    assert "DK" in doc["hands"]["E"]


def test_a_card_during_the_auction_is_read_by_law_24():
    # Issue 12: no longer unprocessed (ledger.laws.exposed): a card led during the auction is 24B.
    doc = doc_of([opened()] + cards(("W", "C9")))
    assert doc["irregularities"] == [] and doc["auction"] == []
    assert [(r["ruling"], r["law"]) for r in doc["card_rulings"]] == [("auction_exposed", "2017:24B")]
    assert "C9" in doc["hands"]["W"]


def test_a_trick_goes_to_the_highest_card_of_the_suit_led_law_44():
    doc = doc_of([opened()] + AUCTION_1NT + cards(("W", "C9"), ("N", "C2"), ("E", "CT"), ("S", "CA")))
    trick = doc["tricks"][0]
    assert trick["winner"] == "S" and trick["leader"] == "W"
    assert [c["law"] for c in trick["cards"]] == ["2017:45A", "2017:45B", "2017:45A", "2017:45A"]
    assert doc["turn"] == "S" and doc["tricks_won"] == {"declarer": 1, "defenders": 0}
    assert "CA" not in doc["hands"]["S"] and len(doc["hands"]["S"]) == 12


def test_a_trump_wins_over_the_suit_led():
    facts = [opened()] + calls(("S", "1S"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass"))
    # W leads a diamond; N follows, E follows, S discards... S holds diamonds, so use a club
    # trick where E is void after trick 1: E holds CT8 only. Trick 1 clubs, trick 2 clubs again.
    facts += cards(("W", "C9"), ("N", "C2"), ("E", "C8"), ("S", "CA"))  # S wins
    facts += cards(("S", "C3"), ("W", "CJ"), ("N", "C4"), ("E", "CT"))  # W wins with CJ
    facts += cards(("W", "C6"), ("N", "C5"), ("E", "S5"), ("S", "CQ"))  # E void: ruffs with S5
    doc = doc_of(facts)
    assert [t["winner"] for t in doc["tricks"]] == ["S", "W", "E"]
    assert doc["irregularities"] == []
    assert doc["tricks_won"] == {"declarer": 1, "defenders": 2}


def test_a_revoke_card_is_played_and_the_fold_reads_the_revoke():
    # E holds CT8 and plays a heart to a club lead: played (61), a revoke not yet
    # established (the engine's IrregularityRecorded lists it; ledger.laws.revokes).
    doc = doc_of([opened()] + AUCTION_1NT + cards(("W", "C9"), ("N", "C2"), ("E", "H2")))
    assert [c["card"] for c in doc["tricks"][0]["cards"]] == ["C9", "C2", "H2"]
    assert doc["irregularities"] == []
    revoke = doc["revokes"][0]
    assert (revoke["seat"], revoke["card"], revoke["trick"], revoke["seq"]) == ("E", "H2", 1, 8)
    assert revoke["established"] is False and revoke["tricks"] == 0


def test_face_down_lead_is_played_when_faced_law_41():
    facts = [opened()] + AUCTION_1NT + [{"type": "LeadFaceDown", "seat": "W", "card": "C9"}]
    doc = doc_of(facts)
    assert doc["tricks"] == [] and doc["phase"] == "opening_lead"
    doc = doc_of(facts + [{"type": "LeadFaced"}])
    assert doc["tricks"][0]["cards"] == [{"seat": "W", "card": "C9", "seq": 6, "law": "2017:41C"}]
    assert doc["turn"] == "N"


def test_unhandled_facts_are_kept_as_unprocessed_never_dropped():
    doc = doc_of([opened(), {"type": "CardHeld", "seat": "W", "card": "C9"},
                  {"type": "DirectorCalled", "by": "W"}])
    assert [i["type"] for i in doc["irregularities"]] == ["CardHeld"]


def test_state_at_an_earlier_seq_is_the_fold_of_the_prefix():
    facts = [opened()] + AUCTION_1NT
    assert doc_of(facts[:3])["phase"] == "auction"
    assert doc_of(facts[:3])["seq"] == 3


# -- properties ------------------------------------------------------------

boards = st.builds(lambda seed, n: random_board(random.Random(seed), board=n),
                   st.integers(0, 2**32 - 1), st.integers(1, 32))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards)
def test_random_legal_boards_end_with_13_tricks_and_the_law_77_score(board):
    doc = doc_of(board.facts)
    assert doc["phase"] == "ended" and doc["irregularities"] == []
    if board.contract == "Pass":
        assert doc["result"]["contract"] == "Pass" and doc["result"]["score_ns"] == 0
        return
    assert len(doc["tricks"]) == 13 and all(len(t["cards"]) == 4 for t in doc["tricks"])
    assert all(hand == [] for hand in doc["hands"].values())
    assert doc["tricks_won"]["declarer"] + doc["tricks_won"]["defenders"] == 13
    result = doc["result"]
    assert (result["contract"], result["risk"], result["declarer"], result["tricks"], result["score_ns"]) == \
        (board.contract, board.risk, board.declarer, board.tricks, board.score_ns)


@settings(max_examples=30, deadline=None)
@given(boards)
def test_the_fold_is_deterministic(board):
    assert doc_of(board.facts) == doc_of(board.facts)


@settings(max_examples=30, deadline=None)
@given(boards, st.data())
def test_folding_a_prefix_then_the_rest_equals_folding_the_whole(board, data):
    parsed = [parse_fact(f, n).event for n, f in enumerate(board.facts, start=1)]
    items = [(n, f"h{n}", e) for n, e in enumerate(parsed, start=1)]
    cut = data.draw(st.integers(1, len(items)))
    prefix = fold("t/b", items[:cut])
    assert fold("t/b", items[cut:], prefix) == fold("t/b", items)


@settings(max_examples=30, deadline=None)
@given(boards, st.data())
def test_a_snapshot_round_trips_the_folded_state(board, data):
    parsed = [parse_fact(f, n).event for n, f in enumerate(board.facts, start=1)]
    cut = data.draw(st.integers(1, len(parsed)))
    state = fold("t/b", [(n, f"h{n}", e) for n, e in enumerate(parsed[:cut], start=1)])
    assert snapshot.load(snapshot.dump(state)) == state


# -- claims (Laws 68 to 71) ------------------------------------------------

def claim_facts():
    """1NT by S; W leads C9, S wins trick 1 with the CA, then claims 8 of the 12 left."""
    return [opened()] + AUCTION_1NT + cards(("W", "C9"), ("N", "C2"), ("E", "C8"), ("S", "CA")) + [
        {"type": "ClaimMade", "seat": "S", "tricks": 8}]


def test_an_agreed_claim_ends_play_with_the_claimed_tricks():
    doc = doc_of(claim_facts() + [{"type": "ClaimAgreed", "by": "W"}])
    assert doc["phase"] == "ended"
    # 1 trick won + 8 claimed = 9 tricks: 1NT+2, not vulnerable (board 11) = 150
    assert doc["result"]["tricks"] == 9 and doc["result"]["score_ns"] == 150
    assert doc["claim"]["status"] == "agreed" and doc["claim"]["remaining"] == 12


def test_a_defender_claim_counts_for_the_defenders():
    facts = claim_facts()[:-1] + [{"type": "ClaimMade", "seat": "E", "tricks": 7},
                                  {"type": "ClaimAgreed", "by": "S"}]
    doc = doc_of(facts)
    # declarer: 1 won + (12 - 7) = 6 tricks: 1NT-1, NV = -50
    assert doc["result"]["tricks"] == 6 and doc["result"]["score_ns"] == -50


def test_a_disputed_claim_waits_for_the_director_and_his_ruling_decides():
    doc = doc_of(claim_facts() + [{"type": "ClaimDisputed", "by": "E"}])
    assert doc["phase"] == "play" and doc["result"] is None and doc["claim"]["status"] == "disputed"
    doc = doc_of(claim_facts() + [{"type": "ClaimDisputed", "by": "E"},
                                  {"type": "ClaimRuled", "tricks": 7, "text": "a club loser"}])
    assert doc["phase"] == "ended" and doc["result"]["tricks"] == 8 and doc["claim"]["status"] == "ruled"


def test_an_agreement_by_the_claimers_partner_is_not_an_agreement():
    doc = doc_of(claim_facts() + [{"type": "ClaimAgreed", "by": "N"}])
    assert doc["phase"] == "play" and doc["irregularities"][-1]["type"] == "ClaimAgreed"


def test_a_card_played_after_a_claim_is_not_a_play():
    """Spec 1.3 (68D): no play, no irregularity; kept among the plays not made with its Law."""
    doc = doc_of(claim_facts() + cards(("S", "C3")))
    assert doc["plays_not_made"][-1]["law"].endswith(":68D") and doc["plays_not_made"][-1]["card"] == "C3"
    assert len(doc["tricks"]) == 1 and not [i for i in doc["irregularities"] if i["kind"] == "unprocessed"]
