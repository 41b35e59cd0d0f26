"""Law 77 duplicate scores and the Law 78B IMP scale, cell by cell.

Every expected value below is typed in from the published Law 77 scoring table
and the WBF IMP scale (LAWS-DIGEST section 11); none is computed here.
"""

from __future__ import annotations

import pytest

from ledger.scoring import duplicate_score, imps

NV, VUL = False, True

# ---------------------------------------------------------------------------
# Contracts made exactly: 7 levels x 5 strains x 3 risks x 2 vulnerabilities.
#
#  level strain   undoubled      doubled        redoubled
#                 NV     V       NV     V       NV     V
MADE_EXACTLY = [
    (1, "C",      70,    70,     140,   140,    230,   230),
    (1, "D",      70,    70,     140,   140,    230,   230),
    (1, "H",      80,    80,     160,   160,    520,   720),
    (1, "S",      80,    80,     160,   160,    520,   720),
    (1, "NT",     90,    90,     180,   180,    560,   760),
    (2, "C",      90,    90,     180,   180,    560,   760),
    (2, "D",      90,    90,     180,   180,    560,   760),
    (2, "H",     110,   110,     470,   670,    640,   840),
    (2, "S",     110,   110,     470,   670,    640,   840),
    (2, "NT",    120,   120,     490,   690,    680,   880),
    (3, "C",     110,   110,     470,   670,    640,   840),
    (3, "D",     110,   110,     470,   670,    640,   840),
    (3, "H",     140,   140,     530,   730,    760,   960),
    (3, "S",     140,   140,     530,   730,    760,   960),
    (3, "NT",    400,   600,     550,   750,    800,  1000),
    (4, "C",     130,   130,     510,   710,    720,   920),
    (4, "D",     130,   130,     510,   710,    720,   920),
    (4, "H",     420,   620,     590,   790,    880,  1080),
    (4, "S",     420,   620,     590,   790,    880,  1080),
    (4, "NT",    430,   630,     610,   810,    920,  1120),
    (5, "C",     400,   600,     550,   750,    800,  1000),
    (5, "D",     400,   600,     550,   750,    800,  1000),
    (5, "H",     450,   650,     650,   850,   1000,  1200),
    (5, "S",     450,   650,     650,   850,   1000,  1200),
    (5, "NT",    460,   660,     670,   870,   1040,  1240),
    (6, "C",     920,  1370,    1090,  1540,   1380,  1830),
    (6, "D",     920,  1370,    1090,  1540,   1380,  1830),
    (6, "H",     980,  1430,    1210,  1660,   1620,  2070),
    (6, "S",     980,  1430,    1210,  1660,   1620,  2070),
    (6, "NT",    990,  1440,    1230,  1680,   1660,  2110),
    (7, "C",    1440,  2140,    1630,  2330,   1960,  2660),
    (7, "D",    1440,  2140,    1630,  2330,   1960,  2660),
    (7, "H",    1510,  2210,    1770,  2470,   2240,  2940),
    (7, "S",    1510,  2210,    1770,  2470,   2240,  2940),
    (7, "NT",   1520,  2220,    1790,  2490,   2280,  2980),
]


def _made_exactly_cells():
    for level, strain, *scores in MADE_EXACTLY:
        for (risk, vulnerable), score in zip(
            [("", NV), ("", VUL), ("X", NV), ("X", VUL), ("XX", NV), ("XX", VUL)], scores
        ):
            vul_name = "V" if vulnerable else "NV"
            yield pytest.param(level, strain, risk, vulnerable, score,
                               id=f"{level}{strain}{risk}-{vul_name}")


def test_made_exactly_table_has_210_cells():
    assert len(list(_made_exactly_cells())) == 210


@pytest.mark.parametrize("level, strain, risk, vulnerable, expected",
                         list(_made_exactly_cells()))
def test_contract_made_exactly_scores_as_published(level, strain, risk, vulnerable, expected):
    assert duplicate_score(level, strain, risk, vulnerable, level + 6) == expected


# ---------------------------------------------------------------------------
# Overtricks: +1 and +3 (or +1 at the six level) in every risk and vulnerability.
#
#  level strain risk  over   NV     V
OVERTRICKS = [
    (1, "C",  "",   1,    90,    90),
    (2, "C",  "",   1,   110,   110),
    (2, "C",  "",   3,   150,   150),
    (1, "NT", "",   1,   120,   120),
    (1, "NT", "",   3,   180,   180),
    (3, "NT", "",   1,   430,   630),
    (3, "NT", "",   3,   490,   690),
    (4, "H",  "",   1,   450,   650),
    (4, "H",  "",   3,   510,   710),
    (2, "S",  "",   3,   200,   200),
    (5, "D",  "",   1,   420,   620),
    (6, "S",  "",   1,  1010,  1460),
    (1, "S",  "X",  1,   260,   360),
    (1, "NT", "X",  1,   280,   380),
    (1, "NT", "X",  3,   480,   780),
    (2, "C",  "X",  1,   280,   380),
    (2, "C",  "X",  3,   480,   780),
    (3, "NT", "X",  1,   650,   950),
    (3, "NT", "X",  3,   850,  1350),
    (4, "H",  "X",  1,   690,   990),
    (4, "H",  "X",  3,   890,  1390),
    (6, "D",  "X",  1,  1190,  1740),
    (1, "H",  "XX", 1,   720,  1120),
    (1, "NT", "XX", 1,   760,  1160),
    (1, "NT", "XX", 3,  1160,  1960),
    (2, "C",  "XX", 1,   760,  1160),
    (2, "C",  "XX", 3,  1160,  1960),
    (3, "NT", "XX", 1,  1000,  1400),
    (3, "NT", "XX", 3,  1400,  2200),
    (4, "H",  "XX", 1,  1080,  1480),
    (4, "H",  "XX", 3,  1480,  2280),
    (6, "D",  "XX", 1,  1580,  2230),
]


def _overtrick_cells():
    for level, strain, risk, over, nv, v in OVERTRICKS:
        for vulnerable, score in ((NV, nv), (VUL, v)):
            vul_name = "V" if vulnerable else "NV"
            yield pytest.param(level, strain, risk, vulnerable, level + 6 + over, score,
                               id=f"{level}{strain}{risk}+{over}-{vul_name}")


@pytest.mark.parametrize("level, strain, risk, vulnerable, tricks, expected",
                         list(_overtrick_cells()))
def test_contract_made_with_overtricks_scores_as_published(level, strain, risk, vulnerable,
                                                           tricks, expected):
    assert duplicate_score(level, strain, risk, vulnerable, tricks) == expected


# ---------------------------------------------------------------------------
# Undertricks: totals for 1 to 13 down, every risk and vulnerability.
UNDERTRICK_TOTALS = {
    ("", NV): [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650],
    ("", VUL): [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300],
    ("X", NV): [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500],
    ("X", VUL): [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800],
    ("XX", NV): [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000],
    ("XX", VUL): [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000,
                  7600],
}


def _undertrick_cells():
    for (risk, vulnerable), totals in UNDERTRICK_TOTALS.items():
        for down, total in enumerate(totals, start=1):
            vul_name = "V" if vulnerable else "NV"
            yield pytest.param(risk, vulnerable, down, total,
                               id=f"{risk or 'undoubled'}-{vul_name}-down{down}")


@pytest.mark.parametrize("risk, vulnerable, down, total", list(_undertrick_cells()))
def test_undertrick_totals_as_published(risk, vulnerable, down, total):
    # 7NT leaves room for every number of undertricks from 1 to 13.
    assert duplicate_score(7, "NT", risk, vulnerable, 13 - down) == -total


@pytest.mark.parametrize("strain", ["C", "D", "H", "S", "NT"])
@pytest.mark.parametrize("level", [1, 4, 7])
def test_undertricks_do_not_depend_on_the_strain_or_level(level, strain):
    assert duplicate_score(level, strain, "X", False, level + 6 - 2) == -300
    assert duplicate_score(level, strain, "", True, level + 6 - 1) == -100


# ---------------------------------------------------------------------------
# The checks of LAWS-DIGEST section 11.1, one rule per test.

def test_four_hearts_made_nonvulnerable_scores_420():
    assert duplicate_score(4, "H", "", False, 10) == 420


def test_three_notrump_plus_one_vulnerable_scores_630():
    assert duplicate_score(3, "NT", "", True, 10) == 630


def test_six_notrump_made_nonvulnerable_scores_990():
    assert duplicate_score(6, "NT", "", False, 12) == 990


def test_seven_notrump_made_vulnerable_scores_2220():
    assert duplicate_score(7, "NT", "", True, 13) == 2220


def test_doubled_two_hearts_made_nonvulnerable_is_a_game_worth_470():
    assert duplicate_score(2, "H", "X", False, 8) == 470


def test_redoubled_one_notrump_made_nonvulnerable_is_a_game_worth_560():
    assert duplicate_score(1, "NT", "XX", False, 7) == 560


def test_doubled_four_spades_three_down_costs_500_nonvulnerable_800_vulnerable():
    assert duplicate_score(4, "S", "X", False, 7) == -500
    assert duplicate_score(4, "S", "X", True, 7) == -800


def test_doubled_nonvulnerable_fourth_undertrick_costs_300():
    assert duplicate_score(4, "S", "X", False, 6) == -800
    assert duplicate_score(4, "S", "X", False, 6) - duplicate_score(4, "S", "X", False, 7) == -300


def test_redoubled_three_notrump_two_down_vulnerable_costs_1000():
    assert duplicate_score(3, "NT", "XX", True, 7) == -1000


def test_six_notrump_one_down_nonvulnerable_costs_50():
    assert duplicate_score(6, "NT", "", False, 11) == -50


def test_doubled_vulnerable_second_and_third_undertricks_cost_300_each():
    assert duplicate_score(3, "C", "X", True, 8) == -200
    assert duplicate_score(3, "C", "X", True, 7) == -500
    assert duplicate_score(3, "C", "X", True, 6) == -800


def test_redoubled_undertricks_cost_twice_the_doubled_ones():
    assert duplicate_score(2, "D", "XX", False, 4) == -1600
    assert duplicate_score(2, "D", "X", False, 4) == -800


def test_notrump_first_trick_scores_40_so_three_notrump_is_game_but_two_is_not():
    assert duplicate_score(3, "NT", "", False, 9) == 400
    assert duplicate_score(2, "NT", "", False, 8) == 120


def test_doubling_can_turn_a_part_score_into_a_game():
    assert duplicate_score(2, "S", "", True, 8) == 110
    assert duplicate_score(2, "S", "X", True, 8) == 670


def test_grand_slam_bonus_replaces_small_slam_bonus():
    assert duplicate_score(7, "C", "", False, 13) == 1440
    assert duplicate_score(6, "C", "", False, 13) == 940


def test_taking_thirteen_tricks_in_one_club_scores_six_overtricks():
    assert duplicate_score(1, "C", "", False, 13) == 190


def test_zero_tricks_in_one_club_is_seven_down():
    assert duplicate_score(1, "C", "", False, 0) == -350


# ---------------------------------------------------------------------------
# Bad input names the argument and the value.

@pytest.mark.parametrize("kwargs, name, value", [
    ({"level": 0}, "level", "0"),
    ({"level": 8}, "level", "8"),
    ({"level": True}, "level", "True"),
    ({"level": "4"}, "level", "'4'"),
    ({"strain": "N"}, "strain", "'N'"),
    ({"strain": "nt"}, "strain", "'nt'"),
    ({"strain": "♠"}, "strain", "'♠'"),
    ({"risk": "XXX"}, "risk", "'XXX'"),
    ({"risk": None}, "risk", "None"),
    ({"vulnerable": "NS"}, "vulnerable", "'NS'"),
    ({"tricks": -1}, "tricks", "-1"),
    ({"tricks": 14}, "tricks", "14"),
    ({"tricks": 9.0}, "tricks", "9.0"),
])
def test_bad_input_is_refused_naming_argument_and_value(kwargs, name, value):
    args = {"level": 4, "strain": "S", "risk": "", "vulnerable": False, "tricks": 10} | kwargs
    with pytest.raises(ValueError) as excinfo:
        duplicate_score(**args)
    message = str(excinfo.value)
    assert name in message
    assert value in message


# ---------------------------------------------------------------------------
# The WBF IMP scale (Law 78B) at every boundary.
IMP_SCALE = [
    (0, 0), (10, 0),
    (20, 1), (40, 1),
    (50, 2), (80, 2),
    (90, 3), (120, 3),
    (130, 4), (160, 4),
    (170, 5), (210, 5),
    (220, 6), (260, 6),
    (270, 7), (310, 7),
    (320, 8), (360, 8),
    (370, 9), (420, 9),
    (430, 10), (490, 10),
    (500, 11), (590, 11),
    (600, 12), (740, 12),
    (750, 13), (890, 13),
    (900, 14), (1090, 14),
    (1100, 15), (1290, 15),
    (1300, 16), (1490, 16),
    (1500, 17), (1740, 17),
    (1750, 18), (1990, 18),
    (2000, 19), (2240, 19),
    (2250, 20), (2490, 20),
    (2500, 21), (2990, 21),
    (3000, 22), (3490, 22),
    (3500, 23), (3990, 23),
    (4000, 24), (7600, 24),
]


@pytest.mark.parametrize("difference, expected", IMP_SCALE, ids=[f"{d}" for d, _ in IMP_SCALE])
def test_imp_scale_boundary(difference, expected):
    assert imps(difference) == expected


@pytest.mark.parametrize("difference, expected", IMP_SCALE[2:],
                         ids=[f"-{d}" for d, _ in IMP_SCALE[2:]])
def test_negative_difference_gives_negative_imps(difference, expected):
    assert imps(-difference) == -expected


def test_one_point_below_a_boundary_stays_on_the_lower_step():
    assert imps(19) == 0
    assert imps(49) == 1
    assert imps(3999) == 23
    assert imps(-3999) == -23


def test_game_swing_of_420_against_minus_50_is_10_imps():
    assert imps(420 - (-50)) == 10


@pytest.mark.parametrize("bad", [1.5, "20", None, True])
def test_imps_refuse_a_non_integer_difference(bad):
    with pytest.raises(ValueError, match="difference"):
        imps(bad)
