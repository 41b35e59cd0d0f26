"""The PBN 2.1 reader: small hand-written records, then a real RealBridge file.

The real file is ``shared/bridge-data/realbridge-2021-online-qual-open-r2.pbn``
(see ``shared/bridge-data/SOURCES.md``); its tests are skipped when the file is
absent.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ledger.records.formats.pbn import (
    PbnError,
    auction,
    auction_calls,
    auction_irregularities,
    deal_hands,
    is_complete_play,
    notes,
    play_irregularities,
    play_tricks,
    read_pbn,
    record_result,
    record_to_facts,
    trick_winners,
)
from ledger.scoring import duplicate_score

BRIDGE_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data"
REALBRIDGE = BRIDGE_DATA / "realbridge-2021-online-qual-open-r2.pbn"

# One suit per hand: easy to see who holds what.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# Board 11 of the RealBridge file.
BOARD_11 = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"


def one(text: str):
    records = read_pbn(text)
    assert len(records) == 1
    return records[0]


def game(*lines: str) -> str:
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Games, tags, commentary

def test_games_are_split_at_empty_lines_and_numbered_from_one():
    text = game(
        "% PBN 2.1",
        "% EXPORT",
        '[Board "1"]',
        f'[Deal "{ONE_SUIT_EACH}"]',
        "",
        "",
        '[Board "2"]',
        f'[Deal "{ONE_SUIT_EACH}"]',
    )
    first, second = read_pbn(text)
    assert (first.number, first.line, first.tags["Board"]) == (1, 3, "1")
    assert (second.number, second.line, second.tags["Board"]) == (2, 7, "2")


def test_tag_values_unescape_quotes_and_backslashes_only():
    record = one(game(
        r'[Event "The \"Open\" C:\\bridge"]',
        r'[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]',
    ))
    assert record.tags["Event"] == 'The "Open" C:\\bridge'
    assert record.tags["OptimumResultTable"] == r"Declarer;Denomination\2R;Result\2R"


def test_section_data_follows_its_tag_as_tokens():
    record = one(game(
        '[Board "1"]',
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',
        "N NT  7",
        "S  S 10",
        '[OptimumScore "NS +90"]',
    ))
    assert record.sections == {"OptimumResultTable": ["N", "NT", "7", "S", "S", "10"]}


def test_percent_lines_are_skipped_and_commentary_is_kept():
    record = one(game(
        "% a comment line of the file, not a game",
        '[Board "7"] ; the board of the day',
        "% another escape line inside the game",
        '{ The play: a long',
        '',
        '  story over several lines }',
        '[Dealer "N"]',
    ))
    assert record.tags == {"Board": "7", "Dealer": "N"}
    assert record.commentary == ["the board of the day",
                                 "The play: a long\n\n  story over several lines"]


def test_commentary_before_the_first_tag_belongs_to_the_next_game():
    first, second = read_pbn(game(
        "{ Session 1 }",
        "",
        '[Board "1"]',
        "",
        "; about board 2",
        '[Board "2"]',
    ))
    assert first.commentary == ["Session 1"]
    assert second.commentary == ["about board 2"]


def test_hash_value_inherits_from_the_previous_game():
    first, second, third = read_pbn(game(
        '[Event "Club night"]',
        '[Site "Paris"]',
        '[Board "1"]',
        "",
        '[Event "#"]',
        '[Site "Lyon"]',
        '[Board "2"]',
        "",
        '[Event "#"]',
        '[Site "#"]',
        '[Date "#"]',
        '[Board "3"]',
    ))
    assert second.tags["Event"] == "Club night"
    assert (third.tags["Event"], third.tags["Site"]) == ("Club night", "Lyon")
    assert third.tags["Date"] == ""  # nothing to inherit from


def test_double_hash_value_applies_to_later_games_until_redefined():
    records = read_pbn(game(
        '[Date "##2021.08.23"]',
        '[Board "1"]',
        "",
        '[Board "2"]',
        "",
        '[Date "2021.08.24"]',
        '[Board "3"]',
        "",
        '[Board "4"]',
    ))
    assert [r.tags["Date"] for r in records] == [
        "2021.08.23", "2021.08.23", "2021.08.24", "2021.08.24"]


def test_hash_value_is_refused_on_the_deal():
    with pytest.raises(PbnError, match='Deal may not inherit') as excinfo:
        read_pbn(game(f'[Deal "{ONE_SUIT_EACH}"]', "", '[Board "2"]', '[Deal "#"]'))
    assert (excinfo.value.record, excinfo.value.line) == (2, 4)


def test_a_tag_given_twice_in_one_game_is_refused():
    with pytest.raises(PbnError, match="Board appears twice"):
        read_pbn(game('[Board "1"]', '[Board "2"]'))


# ---------------------------------------------------------------------------
# Deal

def test_deal_is_read_from_any_first_seat_and_sorted():
    record = one(game('[Deal "E:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 '
                      '23456789TJQKA..."]'))
    hands = deal_hands(record)
    assert hands["N"][:3] == ["SA", "SK", "SQ"]
    assert hands["E"][0] == "HA" and hands["W"][-1] == "C2"


def test_deal_with_one_unknown_hand_is_completed():
    record = one(game('[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]'))
    assert deal_hands(record)["W"] == ["C" + r for r in "AKQJT98765432"]


# ---------------------------------------------------------------------------
# Auction

def test_calls_start_with_the_seat_of_the_auction_tag_in_canonical_form():
    record = one(game('[Dealer "W"]', '[Auction "W"]', "p 1n x xx", "2c Pass Pass Pass"))
    assert auction_calls(record) == [("Pass", None), ("1NT", None), ("X", None), ("XX", None),
                                      ("2C", None), ("Pass", None), ("Pass", None),
                                      ("Pass", None)]
    assert [c.seat for c in auction(record)][:5] == ["W", "N", "E", "S", "W"]


def test_all_pass_closes_the_auction_after_a_bid():
    record = one(game('[Auction "N"]', "1S Pass 2S AP"))
    assert [c for c, _ in auction_calls(record)] == ["1S", "Pass", "2S", "Pass", "Pass", "Pass"]
    assert auction(record)[-1].seat == "E"


def test_all_pass_alone_is_a_passed_out_auction():
    record = one(game('[Auction "E"]', "AP"))
    assert [c for c, _ in auction_calls(record)] == ["Pass"] * 4


def test_all_pass_after_passes_completes_four_passes():
    record = one(game('[Auction "E"]', "Pass Pass AP"))
    assert [c for c, _ in auction_calls(record)] == ["Pass"] * 4


def test_note_references_attach_to_the_call_before_them():
    record = one(game(
        '[Auction "S"]',
        "1C =1= Pass 1NT =2= Pass",
        "Pass Pass",
        '[Note "1:11-13,17-19 or clubs"]',
        '[Note "2: 9-11, no 4cM"]',
    ))
    assert auction_calls(record) == [("1C", "1"), ("Pass", None), ("1NT", "2"), ("Pass", None),
                                     ("Pass", None), ("Pass", None)]
    assert notes(record) == {1: "11-13,17-19 or clubs", 2: "9-11, no 4cM"}
    assert notes(record, "Play") == {}


def test_notes_after_the_play_section_are_play_notes():
    record = one(game(
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]',
        '[Contract "1NT"]', '[Declarer "S"]',
        '[Auction "S"]', "1NT =1= AP", '[Note "1:strong"]',
        '[Play "W"]', "CA =1= SA HA DA", "*", '[Note "1:count signal"]',
    ))
    assert notes(record) == {1: "strong"}
    assert notes(record, "Play") == {1: "count signal"}


def test_irregularity_marks_are_kept_with_their_call():
    record = one(game('[Auction "N"]', "1S 1H ^I 2H Pass", "Pass Pass"))
    assert auction_irregularities(record) == {1: "I"}
    assert auction(record)[1].call == "1H"
    assert auction_calls(record)[1] == ("1H", None)


def test_annotations_and_plus_are_not_calls():
    record = one(game('[Auction "N"]', "1S! $1 + 2S? Pass Pass Pass"))
    calls = auction(record)
    assert [c.call for c in calls] == ["1S", "2S", "Pass", "Pass", "Pass"]
    assert calls[0].annotations == ("!", "$1")


def test_end_markers_stop_the_calls():
    record = one(game('[Auction "N"]', "1S Pass -", "*"))
    assert [c for c, _ in auction_calls(record)] == ["1S", "Pass"]


def test_a_token_that_is_not_a_call_is_refused_with_its_line():
    with pytest.raises(PbnError, match="'8S' is not a call") as excinfo:
        read_pbn(game('[Board "1"]', '[Auction "N"]', "1S 8S"))
    assert (excinfo.value.record, excinfo.value.line) == (1, 2)


def test_a_passed_out_board():
    record = one(game(
        '[Board "3"]', '[Dealer "S"]', '[Vulnerable "EW"]', f'[Deal "{BOARD_11}"]',
        '[Scoring "MP"]', '[Declarer ""]', '[Contract "Pass"]', '[Result ""]',
        '[Auction "S"]', "Pass Pass Pass Pass", '[Score "NS 0"]',
    ))
    assert record_result(record) == {"contract": "Pass", "risk": "", "declarer": None,
                                     "tricks": None, "score_ns": 0}
    assert play_tricks(record) == []
    facts = record_to_facts(record, "club")
    assert [f["type"] for f in facts] == ["BoardOpened"] + ["CallPlaced"] * 4
    assert [f["seat"] for f in facts[1:]] == ["S", "W", "N", "E"]


# ---------------------------------------------------------------------------
# Play: PBN columns -> tricks in play order

PLAY_2S = game(
    '[Board "11"]', '[Dealer "S"]', '[Vulnerable "None"]', f'[Deal "{BOARD_11}"]',
    '[Declarer "S"]', '[Contract "2S"]', '[Result "8"]',
    '[Play "W"]',
    "D3 DA D4 D6",
    "D2 D5 DK DT",
    "S3 D9 DQ DJ",
    "C6 C2 C8 CQ",
    "-  -  -  SA",
    "*",
)


def test_play_columns_are_reordered_from_each_tricks_leader():
    tricks = play_tricks(one(PLAY_2S))
    assert tricks == [
        [("W", "D3"), ("N", "DA"), ("E", "D4"), ("S", "D6")],   # N wins
        [("N", "D5"), ("E", "DK"), ("S", "DT"), ("W", "D2")],   # E wins
        [("E", "DQ"), ("S", "DJ"), ("W", "S3"), ("N", "D9")],   # W ruffs
        [("W", "C6"), ("N", "C2"), ("E", "C8"), ("S", "CQ")],   # S wins
        [("S", "SA")],                                          # then a claim
    ]


def test_the_trump_suit_comes_from_the_contract():
    record = one(PLAY_2S.replace('[Contract "2S"]', '[Contract "2NT"]'))
    tricks = play_tricks(record)
    assert trick_winners(record) == ["N", "E", "E", "S"]   # the spade 3 is a discard in NT
    assert tricks[3] == [("E", "C8"), ("S", "CQ"), ("W", "C6"), ("N", "C2")]


def test_facts_of_an_incomplete_play_hold_the_cards_present():
    with_auction = PLAY_2S.replace('[Play "W"]', '[Auction "S"]\n1S Pass 2S Pass\nPass Pass\n[Play "W"]')
    facts = record_to_facts(one(with_auction), "club")
    cards = [(f["seat"], f["card"]) for f in facts if f["type"] == "CardPlayed"]
    assert len(cards) == 17
    assert cards[8:12] == [("E", "DQ"), ("S", "DJ"), ("W", "S3"), ("N", "D9")]
    assert cards[-1] == ("S", "SA")


def test_cards_accept_ten_and_lower_case():
    record = one(PLAY_2S.replace("D2 D5 DK DT", "d2 d5 dk d10"))
    assert play_tricks(record)[1][2] == ("S", "DT")


def test_play_irregularity_marks_are_kept_by_card():
    record = one(PLAY_2S.replace("S3 D9 DQ DJ", "S3 ^R D9 DQ DJ"))
    assert play_irregularities(record) == {"S3": "R"}


def test_a_card_played_from_the_wrong_hand_is_refused():
    with pytest.raises(PbnError, match="West plays DA, which the deal gives to North"):
        read_pbn(PLAY_2S.replace("D3 DA D4 D6", "DA D3 D4 D6"))


def test_a_card_played_twice_is_refused():
    with pytest.raises(PbnError, match="D3 is played twice"):
        read_pbn(PLAY_2S.replace("D2 D5 DK DT", "D3 D5 DK DT"))


# ---------------------------------------------------------------------------
# Result and facts

@pytest.mark.parametrize("contract, declarer, score, expected", [
    ("4S", "S", "NS 420", {"contract": "4S", "risk": "", "score_ns": 420}),
    ("5Dx", "E", "EW 100", {"contract": "5D", "risk": "X", "score_ns": -100}),
    ("3NTXX", "W", "EW -1000", {"contract": "3NT", "risk": "XX", "score_ns": 1000}),
    ("2H", "N", "NS 110 EW -110", {"contract": "2H", "risk": "", "score_ns": 110}),
    ("2H", "E", "110", {"contract": "2H", "risk": "", "score_ns": -110}),
    ("1N", "N", None, {"contract": "1NT", "risk": "", "score_ns": None}),
])
def test_record_result_reads_contract_risk_and_score_from_north_souths_side(
        contract, declarer, score, expected):
    lines = [f'[Contract "{contract}"]', f'[Declarer "{declarer}"]', '[Result "9"]']
    if score is not None:
        lines.append(f'[Score "{score}"]')
    result = record_result(one(game(*lines)))
    assert result == expected | {"declarer": declarer, "tricks": 9}


def test_record_without_contract_has_no_result():
    assert record_result(one(game('[Board "1"]'))) is None


def test_board_opened_from_tags():
    record = one(game(
        '[Board "5"]', '[West "w"]', '[North "n"]', '[East "e"]', '[South "s"]',
        '[Dealer "n"]', '[Vulnerable "Both"]', f'[Deal "W:{BOARD_11[2:]}"]',
        '[Scoring "IMP"]', '[HomeTeam "Home"]', '[VisitTeam "Away"]', '[Room "Closed"]',
        '[Table "12"]',
    ))
    (opened,) = record_to_facts(record, "T")
    assert opened == {
        "type": "BoardOpened", "tournament": "T", "board": 5, "table": "12", "dealer": "N",
        "vulnerability": "All",
        "deal": "N:Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96 KT8.A96.A95.7542",
        "ns": "Home", "ew": "Away", "scoring": "IMP", "room": "closed",
    }


@pytest.mark.parametrize("pbn, canonical", [
    ("None", "None"), ("Love", "None"), ("-", "None"), ("NS", "NS"), ("EW", "EW"),
    ("All", "All"), ("Both", "All"),
])
def test_vulnerability_in_canonical_form(pbn, canonical):
    record = one(game('[Board "1"]', '[Dealer "N"]', f'[Vulnerable "{pbn}"]',
                      f'[Deal "{ONE_SUIT_EACH}"]'))
    assert record_to_facts(record, "T")[0]["vulnerability"] == canonical


def test_pairs_are_named_from_the_players_and_the_table_defaults_to_the_record_number():
    record = one(game(
        '[Board "1"]', '[West "Wendy"]', '[North "Nora"]', '[East "Ed"]', '[South "Sam"]',
        '[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{ONE_SUIT_EACH}"]', '[Scoring "MP"]',
    ))
    opened = record_to_facts(record, "T")[0]
    assert (opened["ns"], opened["ew"], opened["table"]) == ("Nora & Sam", "Ed & Wendy", "1")
    assert "room" not in opened


def test_an_alerted_call_with_a_note_is_explained_by_the_callers_partner():
    record = one(game(
        '[Board "11"]', '[Dealer "S"]', '[Vulnerable "None"]', f'[Deal "{BOARD_11}"]',
        '[Auction "S"]', "1C =1= Pass 1NT =2= Pass", "Pass Pass",
        '[Note "1:2+"]', '[Note "2:9-11"]',
    ))
    facts = record_to_facts(record, "T")[1:]
    assert facts[:3] == [
        {"type": "CallPlaced", "seat": "S", "call": "1C"},
        {"type": "ExplanationGiven", "by": "N", "call_index": 1, "text": "2+"},
        {"type": "CallPlaced", "seat": "W", "call": "Pass"},
    ]
    assert facts[4] == {"type": "ExplanationGiven", "by": "S", "call_index": 3, "text": "9-11"}


# ---------------------------------------------------------------------------
# Errors: one bad record does not stop the others

MALFORMED = game(
    '[Board "1"]',
    f'[Deal "{ONE_SUIT_EACH}"]',
    "",
    '[Board "2"]',
    '[Dealer "E"]',
    # West has 12 clubs: the deuce is missing.
    '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543"]',
    "",
    '[Board "3"]',
    f'[Deal "{ONE_SUIT_EACH}"]',
)


def test_a_malformed_deal_is_reported_with_its_record_and_line_and_the_others_are_read():
    records, errors = read_pbn(MALFORMED, collect_errors=True)
    assert [r.tags["Board"] for r in records] == ["1", "3"]
    assert [r.number for r in records] == [1, 3]
    (error,) = errors
    assert isinstance(error, ValueError)
    assert (error.record, error.line) == (2, 6)
    assert "West holds 12 cards, not 13" in error.reason
    assert str(error).startswith("record 2, line 6: Deal: West holds 12 cards")


def test_without_collecting_the_first_bad_record_raises():
    with pytest.raises(PbnError) as excinfo:
        read_pbn(MALFORMED)
    assert excinfo.value.record == 2


@pytest.mark.parametrize("bad, reason", [
    ('[Board 1]', "cannot read the tag pair"),
    ('{ never closed', "never closed"),
    ('[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 x"]',
     "must give 4 hands"),
    ('[Deal "N:AKQJT98765432... AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"]',
     "SA is in both North's and East's hands"),
    ('[Vulnerable "Some"]', "Vulnerable must be"),
    ('[Dealer "X"]', "Dealer must be one of"),
    ('[Contract "8S"]', "Contract must read like"),
    ('[Note "no number"]', "a Note must read"),
])
def test_unreadable_records_are_collected_with_a_reason(bad, reason):
    text = game('[Board "1"]', "", '[Board "2"]', bad, "", '[Board "3"]')
    records, errors = read_pbn(text, collect_errors=True)
    assert [r.tags["Board"] for r in records] == ["1", "3"]
    assert [(e.record, e.line) for e in errors] == [(2, 4)]
    assert reason in str(errors[0])


def test_section_data_before_any_tag_is_refused():
    with pytest.raises(PbnError, match="before any tag"):
        read_pbn(game("1S Pass", '[Board "1"]'))


# ---------------------------------------------------------------------------
# The RealBridge file (2021 Online Qual: Open R2, 299 table records)

requires_realbridge = pytest.mark.skipif(
    not REALBRIDGE.exists(), reason=f"real PBN data not found at {REALBRIDGE}")


@pytest.fixture(scope="module")
def realbridge():
    if not REALBRIDGE.exists():
        pytest.skip(f"real PBN data not found at {REALBRIDGE}")
    return read_pbn(REALBRIDGE.read_text(encoding="utf-8"))


def _complete(records):
    return [r for r in records if is_complete_play(r)]


def _by_board_table(records, board: str, table: str):
    (record,) = [r for r in records if (r.tags["Board"], r.tags["Table"]) == (board, table)]
    return record


@requires_realbridge
def test_realbridge_file_reads_without_errors():
    records, errors = read_pbn(REALBRIDGE.read_text(encoding="utf-8"), collect_errors=True)
    assert errors == []
    assert len(records) == 299


@requires_realbridge
def test_realbridge_counts(realbridge):
    assert len(realbridge) == 299
    assert [r.number for r in realbridge] == list(range(1, 300))
    assert sum("Auction" in r.tags for r in realbridge) == 279
    assert sum("Play" in r.tags for r in realbridge) == 278
    assert len(_complete(realbridge)) == 64
    assert sum(1 for r in realbridge if r.sections.get("Play", [])[-1:] == ["*"]) == 214


@requires_realbridge
def test_realbridge_complete_plays_use_exactly_each_hands_cards(realbridge):
    for record in _complete(realbridge):
        hands = deal_hands(record)
        played = {seat: set() for seat in hands}
        for trick in play_tricks(record):
            for seat, card in trick:
                played[seat].add(card)
        assert played == {seat: set(cards) for seat, cards in hands.items()}, record.number


@requires_realbridge
def test_realbridge_complete_plays_follow_suit_when_able(realbridge):
    for record in _complete(realbridge):
        held = {seat: set(cards) for seat, cards in deal_hands(record).items()}
        for number, trick in enumerate(play_tricks(record), start=1):
            led = trick[0][1][0]
            for seat, card in trick:
                could_follow = any(c[0] == led for c in held[seat])
                assert card[0] == led or not could_follow, (record.number, number, seat, card)
                held[seat].remove(card)


@requires_realbridge
def test_realbridge_tricks_won_by_declarer_equal_the_result_tag(realbridge):
    side = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    for record in _complete(realbridge):
        result = record_result(record)
        won = sum(side[w] == side[result["declarer"]] for w in trick_winners(record))
        assert won == result["tricks"] == int(record.tags["Result"]), record.number


@requires_realbridge
def test_realbridge_each_trick_is_led_by_the_winner_of_the_one_before(realbridge):
    for record in _complete(realbridge):
        tricks, winners = play_tricks(record), trick_winners(record)
        assert tricks[0][0][0] == record.tags["Play"]
        assert [t[0][0] for t in tricks[1:]] == winners[:-1]


@requires_realbridge
def test_realbridge_board_11_table_26_first_tricks_by_hand(realbridge):
    # Line 228 of the file: 1NT by North, [Play "E"], columns E S W N.
    #   H5 H4 HQ H6   -> E leads H5, S H4, W HQ wins, N H6
    #   H2 H7 HT H9   -> W leads HT and wins, N H9, E H2, S H7
    record = _by_board_table(realbridge, "11", "26")
    assert (record.number, record.line) == (5, 228)
    tricks = play_tricks(record)
    assert tricks[0] == [("E", "H5"), ("S", "H4"), ("W", "HQ"), ("N", "H6")]
    assert tricks[1] == [("W", "HT"), ("N", "H9"), ("E", "H2"), ("S", "H7")]


@requires_realbridge
def test_realbridge_board_11_table_7_leaders_change_with_the_winners(realbridge):
    # Line 291: 3NT by South, [Play "W"], columns W N E S.
    #   S4 ST SQ SA  -> W leads, South's SA wins
    #   D3 D5 DQ DJ  -> S leads DJ, W D3, N D5, East's DQ wins
    #   S3 SK S5 S2  -> E leads S5, S S2, W S3, North's SK wins
    record = _by_board_table(realbridge, "11", "7")
    assert (record.number, record.line) == (6, 291)
    tricks = play_tricks(record)
    assert tricks[0] == [("W", "S4"), ("N", "ST"), ("E", "SQ"), ("S", "SA")]
    assert tricks[1] == [("S", "DJ"), ("W", "D3"), ("N", "D5"), ("E", "DQ")]
    assert tricks[2] == [("E", "S5"), ("S", "S2"), ("W", "S3"), ("N", "SK")]


@requires_realbridge
def test_realbridge_claimed_play_ends_with_star(realbridge):
    # Board 11, table 4 (line 50): seven tricks, then West leads H3 and the play stops.
    record = _by_board_table(realbridge, "11", "4")
    tricks = play_tricks(record)
    assert len(tricks) == 8
    assert tricks[-1] == [("W", "H3")]
    assert record_result(record) == {"contract": "1NT", "risk": "", "declarer": "N",
                                     "tricks": 8, "score_ns": 120}


@requires_realbridge
def test_realbridge_every_score_tag_is_the_law_77_score_of_its_result(realbridge):
    vulnerable = {"None": set(), "NS": {"N", "S"}, "EW": {"E", "W"}, "All": set("NESW")}
    checked = 0
    for record in realbridge:
        result = record_result(record)
        if result is None or result["contract"] == "Pass" or result["score_ns"] is None:
            continue
        declarer = result["declarer"]
        level, strain = int(result["contract"][0]), result["contract"][1:]
        score = duplicate_score(level, strain, result["risk"],
                                declarer in vulnerable[record.tags["Vulnerable"]],
                                result["tricks"])
        assert result["score_ns"] == (score if declarer in "NS" else -score), record.number
        checked += 1
    assert checked == 278


@requires_realbridge
def test_realbridge_facts_of_a_complete_play(realbridge):
    record = _by_board_table(realbridge, "11", "26")
    facts = record_to_facts(record, "realbridge-2021-r2")
    assert facts[0] == {
        "type": "BoardOpened", "tournament": "realbridge-2021-r2", "board": 11, "table": "26",
        "dealer": "S", "vulnerability": "None", "deal": BOARD_11,
        "ns": "ESTONIA", "ew": "RUSSIA", "scoring": "IMP",
    }
    kinds = Counter(f["type"] for f in facts)
    assert kinds == {"BoardOpened": 1, "CallPlaced": 6, "ExplanationGiven": 1, "CardPlayed": 52}
    assert facts[1:3] == [
        {"type": "CallPlaced", "seat": "S", "call": "1D"},
        {"type": "ExplanationGiven", "by": "N", "call_index": 1,
         "text": "11-16, no 5 card major, can be 0 D"},
    ]


@requires_realbridge
def test_realbridge_unplayed_boards_have_only_a_board_opened(realbridge):
    unplayed = [r for r in realbridge if "Auction" not in r.tags]
    assert len(unplayed) == 20
    assert {r.tags["Table"] for r in unplayed} == {"1", "17"}
    for record in unplayed:
        assert [f["type"] for f in record_to_facts(record, "t")] == ["BoardOpened"]
        assert record_result(record)["contract"] == "Pass"
