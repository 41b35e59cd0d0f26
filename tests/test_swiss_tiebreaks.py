"""Swiss tie-breaks for the final ranking (projections.event.swiss_ranked) and the first round's
pairing rule (ledger.teams.swiss_pairing), worked by hand."""

from __future__ import annotations

from ledger.teams import swiss_pairing
from projections.event import swiss_ranked


def match(home: str, away: str, imps: tuple[float, float], vps: tuple[float, float]) -> dict:
    return {"match": f"{home}v{away}", "home": home, "away": away, "imps_home": imps[0], "imps_away": imps[1],
            "vp_home": vps[0], "vp_away": vps[1]}


def order(rows: list[dict]) -> list[tuple[str, int, bool]]:
    return [(r["name"], r["rank"], r["tied"]) for r in rows]


def test_two_teams_level_that_met_are_ordered_head_to_head():
    # B beat A 13 - 7; A has the better IMP quotient (A won 2 + 28 over 8 + 2 = 3.0; B 8 + 12 over
    # 2 + 12 = 1.429): head to head comes first.
    matches = [match("A", "B", (2, 8), (7, 13)), match("A", "C", (28, 2), (20, 0)), match("B", "D", (12, 12), (10, 10))]
    rows = swiss_ranked({"A": 27.0, "B": 27.0, "C": 5.0, "D": 10.0}, {}, matches)
    assert order(rows) == [("B", 1, False), ("A", 2, False), ("D", 3, False), ("C", 4, False)]
    assert rows[0]["tiebreak"] == "head to head 13 VPs" and (rows[0]["quotient"], rows[1]["quotient"]) == (1.429, 3.0)


def test_three_teams_level_in_a_circle_go_to_the_imp_quotient():
    # A beat B, B beat C, C beat A, each 12 - 8: 20 VPs each head to head, level. IMPs: A won 5 + 1,
    # lost 2 + 9 (6/11 = 0.545); B 2 + 6 over 5 + 3 (1.0); C 3 + 9 over 6 + 1 (12/7 = 1.714).
    matches = [match("A", "B", (5, 2), (12, 8)), match("B", "C", (6, 3), (12, 8)), match("C", "A", (9, 1), (12, 8))]
    rows = swiss_ranked({"A": 30.0, "B": 30.0, "C": 30.0, "D": 12.0}, {}, matches)
    assert order(rows) == [("C", 1, False), ("B", 2, False), ("A", 3, False), ("D", 4, False)]
    assert [r["quotient"] for r in rows[:3]] == [1.714, 1.0, 0.545]
    assert rows[0]["tiebreak"] == "IMP quotient 1.714"


def test_teams_level_on_everything_share_the_rank():
    # A and B never met, same quotient (10/5 = 2): tied at rank 1; C third.
    matches = [match("A", "C", (10, 5), (14, 6)), match("B", "D", (10, 5), (14, 6))]
    rows = swiss_ranked({"A": 14.0, "B": 14.0, "C": 6.0, "D": 5.0}, {}, matches)
    assert order(rows) == [("A", 1, True), ("B", 1, True), ("C", 3, False), ("D", 4, False)]
    assert "tiebreak" not in rows[0]


def test_first_round_is_by_seeding_top_half_against_bottom_half():
    # Six teams in seeding order: 1 v 4, 2 v 5, 3 v 6 (the scores do not count in round 1).
    teams = ["1", "2", "3", "4", "5", "6"]
    assert swiss_pairing(teams, {"6": 20.0}, [], first_round=True) == ([("1", "4"), ("2", "5"), ("3", "6")], None)
    # Seven: the lowest seed sits out (nobody has had a bye), then the same rule for six.
    assert swiss_pairing(teams + ["7"], {}, [], first_round=True) == ([("1", "4"), ("2", "5"), ("3", "6")], "7")
