"""The bridge vocabulary: the spec's input forms are accepted, everything else
refused with the value named; deals are legal; dealer and vulnerability follow
the 16-board rotation."""

import pytest
from hypothesis import given, strategies as st

from ledger.bridge import (Call, Card, Deal, Risk, Seat, Side, Strain, Suit, Vulnerability, dealer_for,
                           vulnerability_for)

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"  # RealBridge board 11


@pytest.mark.parametrize("text, canonical", [
    ("N", "N"), ("e", "E"), ("S", "S"), ("w", "W"),
])
def test_seat_accepts_upper_and_lower_case(text, canonical):
    assert str(Seat.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["X", "north", "", None, 1])
def test_seat_refuses_anything_else_naming_the_value(bad):
    with pytest.raises(ValueError, match="not a seat"):
        Seat.parse(bad)


def test_seat_rotation_and_sides():
    assert Seat.N.lho is Seat.E and Seat.N.rho is Seat.W and Seat.N.partner is Seat.S
    assert Seat.W.next() is Seat.N
    assert Seat.E.side is Side.EW and Seat.S.side is Side.NS
    assert Side.NS.other is Side.EW


@pytest.mark.parametrize("text, canonical", [
    ("SA", "SA"), ("HT", "HT"), ("h10", "HT"), ("10H".lower()[:0] + "D10", "DT"), ("c2", "C2"),
    ("♠A", "SA"), ("♥10", "HT"), ("♦k", "DK"), ("♣2", "C2"),
])
def test_card_accepts_ten_lower_case_and_suit_symbols(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["S1", "SAA", "A", "ZA", "S11", "", "H 10", None])
def test_card_refuses_what_is_not_a_card(bad):
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)


@pytest.mark.parametrize("text, canonical", [
    ("Pass", "Pass"), ("P", "Pass"), ("pass", "Pass"), ("X", "X"), ("xx", "XX"),
    ("1C", "1C"), ("1N", "1NT"), ("1nt", "1NT"), ("7NT", "7NT"), ("3♠", "3S"),
])
def test_call_accepts_the_spec_forms(text, canonical):
    assert str(Call.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["10C", "0S", "1X", "XXX", "1", "PP", "", None])
def test_call_refuses_anything_else(bad):
    with pytest.raises(ValueError, match="not a call"):
        Call.parse(bad)


def test_bid_order_is_level_then_strain():
    assert Call.parse("1NT").outranks(Call.parse("1S"))
    assert Call.parse("2C").outranks(Call.parse("1NT"))
    assert not Call.parse("1H").outranks(Call.parse("1S"))
    assert not Call.parse("1S").outranks(Call.parse("1S"))


@pytest.mark.parametrize("text, canonical", [
    ("None", "None"), ("Love", "None"), ("-", "None"), ("NS", "NS"), ("EW", "EW"),
    ("All", "All"), ("Both", "All"),
])
def test_vulnerability_accepts_pbn_aliases(text, canonical):
    assert str(Vulnerability.parse(text)) == canonical


def test_vulnerability_refuses_unknown():
    with pytest.raises(ValueError, match="'Some'"):
        Vulnerability.parse("Some")


def test_strain_and_risk_parse():
    assert Strain.parse("N") is Strain.NT and Strain.parse("s") is Strain.S
    assert Risk.parse("x") is Risk.X and Risk.parse("") is Risk.NONE
    with pytest.raises(ValueError):
        Risk.parse("XXX")
    assert Suit.parse("♥") is Suit.H


def test_deal_parses_from_any_first_seat_and_prints_from_north():
    deal = Deal.parse(DEAL)
    rotated = Deal.parse("S:AJ92.874.JT6.AQ3 7643.QT3.32.KJ96 KT8.A96.A95.7542 Q5.KJ52.KQ874.T8")
    assert rotated == deal
    assert deal.to_pbn() == DEAL
    assert Card.parse("SK") in deal.hand(Seat.N)
    assert deal.holder(Card.parse("C9")) is Seat.W


def test_deal_accepts_voids_and_tens():
    deal = Deal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJ1098765432")
    assert len(deal.hand(Seat.W)) == 13


def test_a_53_card_deal_is_refused():
    with pytest.raises(ValueError, match="14 cards"):
        Deal.parse("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ962")


def test_a_deal_with_a_duplicated_card_is_refused():
    with pytest.raises(ValueError, match="dealt twice"):
        Deal.parse("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ92")


@pytest.mark.parametrize("bad, reason", [
    ("AKQ2.K3.T98.A42 JT9.AQ2.7654.KQ3 876.JT987.AK.T98 543.654.QJ32.J765", "expected PBN"),
    ("X:AKQ2.K3.T98.A42 JT9.AQ2.7654.KQ3 876.JT987.AK.T98 543.654.QJ32.J765", "first seat"),
    ("N:AKQ2.K3.T98.A42 JT9.AQ2.7654.KQ3 876.JT987.AK.T98", "3 hands"),
    ("N:AKQ2.K3.T98 JT9.AQ2.7654.KQ3 876.JT987.AK.T98 543.654.QJ32.J765", "3 suits"),
    ("N:AKQ2.K3.T98.A4Z JT9.AQ2.7654.KQ3 876.JT987.AK.T98 543.654.QJ32.J765", "not a rank"),
])
def test_malformed_deals_are_refused_with_the_reason(bad, reason):
    with pytest.raises(ValueError, match=reason):
        Deal.parse(bad)


@pytest.mark.parametrize("board, dealer, vul", [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "All"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "All"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "All"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "All"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
    (17, "N", "None"), (20, "W", "All"), (32, "W", "EW"),
])
def test_dealer_and_vulnerability_follow_the_16_board_rotation(board, dealer, vul):
    assert str(dealer_for(board)) == dealer
    assert str(vulnerability_for(board)) == vul


@given(st.permutations(range(52)))
def test_any_shuffle_round_trips_through_pbn(order):
    from ledger.bridge import DECK, SEATS

    cards = [DECK[i] for i in order]
    deal = Deal({s: frozenset(cards[i * 13:(i + 1) * 13]) for i, s in enumerate(SEATS)})
    for first in SEATS:
        assert Deal.parse(deal.to_pbn(first)) == deal
