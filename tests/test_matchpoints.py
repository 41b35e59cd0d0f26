"""Pairs matchpoints across a field (Law 78A), Neuberg, and Law 12 adjusted scores,
checked against matchpoints computed by hand (the arithmetic is in the comments)."""

import pytest

from projections import matchpoints as mp
from projections.results import TableResult, adjusted_imps, matchpoint_field, standings


def table(n, score=None, *, adjusted=None, distribution=None, ns=None, ew=None, split=None,
          penalties=(), match=None, laws="2017"):
    dist = distribution if distribution is not None else (((score, 1.0),) if score is not None else ())
    return TableResult(stream=f"t/{n}", board=1, table=str(n), room=None, match=match,
                       ns=ns or f"NS{n}", ew=ew or f"EW{n}", score_ns=score, adjusted=adjusted,
                       distribution=dist, split=split, penalties=penalties, laws=laws)


def field():
    return [table(1, 420), table(2, 420), table(3, 450), table(4, -50), table(5, 170), table(6, 420),
            table(7, adjusted={"kind": "artificial", "ns": "A+", "ew": "A-"}),
            table(8, adjusted={"kind": "weighted"}, distribution=((420, 0.5), (-50, 0.5)))]


def by_table(results):
    return {r.table: r for r in results}


def test_eight_tables_with_ties_an_artificial_and_a_weighted_score():
    out = by_table(matchpoint_field(field()))
    # Top on 8 tables: 14. Table 7 (artificial) is no comparison for the others: each real
    # result is compared with 6 others (7 results), then Neuberg to 8: (MP + 1) x 8/7 - 1.
    # T1 420: tie T2, lose T3, beat T4, beat T5, tie T6, T8 half tie half beat = 1.5 -> 7.5
    assert out["1"].mp_ns == pytest.approx(8.71, abs=0.01)  # 8.5 x 8/7 - 1
    assert out["1"].mp_ew == pytest.approx(5.29, abs=0.01)  # (12 - 7.5 + 1) x 8/7 - 1
    assert out["1"].pct_ns == pytest.approx(62.24, abs=0.01)
    assert out["2"].mp_ns == out["6"].mp_ns == out["1"].mp_ns  # ties score alike
    assert out["3"].mp_ns == pytest.approx(13.86, abs=0.01)  # raw 12: 13 x 8/7 - 1
    assert out["4"].mp_ns == pytest.approx(0.71, abs=0.01)  # raw 0.5 (half a tie with T8)
    assert out["5"].mp_ns == pytest.approx(3.57, abs=0.01)  # raw 3
    # T8 weighted: 420 scores 7 against the field, -50 scores 1: 0.5 x 7 + 0.5 x 1 = 4
    assert out["8"].mp_ns == pytest.approx(4.71, abs=0.01)  # 5 x 8/7 - 1
    # T7 artificial: 60 % and 40 % of the top, not balancing to the top
    assert (out["7"].mp_ns, out["7"].mp_ew, out["7"].pct_ns) == pytest.approx((8.4, 5.6, 60.0))
    assert out["7"].score_ns is None


def test_a_board_played_in_full_needs_no_neuberg():
    out = by_table(matchpoint_field([table(1, 100), table(2, 100), table(3, 90)]))
    # top 4: 100 beats 90 and ties 100 -> 3; 90 -> 0
    assert (out["1"].mp_ns, out["1"].mp_ew, out["3"].mp_ns, out["3"].mp_ew) == (3.0, 1.0, 0.0, 4.0)
    assert out["1"].pct_ns == 75.0


def test_a_split_assigned_score_gives_each_side_its_own_result():
    out = by_table(matchpoint_field([table(1, 420), table(2, 450), table(3, -50),
                                     table(4, adjusted={"kind": "assigned"}, split=(450, 420))]))
    # NS of T4 have 450: tie T2, beat T1 and T3 -> 5 of 6 among 3 others (n = 4 = tables)
    # EW of T4 have NS 420 against them: the NS view of 420 scores 2 (beats -50) + 0 + 1 (tie T1)
    # = 3, so EW get 6 - 3 = 3
    assert (out["4"].mp_ns, out["4"].mp_ew) == (5.0, 3.0)


def test_a_procedural_penalty_comes_off_one_side_only():
    out = by_table(matchpoint_field([table(1, 100, penalties=(("NS", "10%"),)), table(2, 90)]))
    # top 2: NS 2 - 10 % of 2 = 1.8; EW unchanged 0
    assert (out["1"].mp_ns, out["1"].mp_ew) == (1.8, 0.0)


@pytest.mark.parametrize("award, session, edition, pct", [
    ("A+", None, "2017", 60.0), ("A+", 55.0, "2017", 60.0), ("A+", 70.0, "2017", 70.0),
    ("A-", 30.0, "2017", 40.0), ("A-", 30.0, "1997", 30.0), ("A-", 45.0, "1997", 40.0),
    ("A+", 65.0, "1997", 65.0), ("A", 70.0, "2017", 50.0), (55, None, "2017", 55.0),
])
def test_artificial_scores_and_the_session_percentage(award, session, edition, pct):
    assert mp.artificial_pct(award, session, edition) == pct


def test_teams_artificial_and_weighted_imps():
    rooms = [table(1, 420, match="A v B"),
             table(2, adjusted={"kind": "weighted"}, distribution=((620, 0.6), (170, 0.4)), match="A v B"),
             table(3, 100, match="C v D"),
             table(4, adjusted={"kind": "artificial", "ns": "A+", "ew": "A-"}, match="C v D")]
    out = by_table(adjusted_imps(rooms))
    # weighted: 0.6 x IMPs(620 - 420 = 200 -> 5) + 0.4 x IMPs(170 - 420 = -250 -> -6) = 3 - 2.4
    assert out["2"].imp_ns == pytest.approx(0.6)
    assert out["4"].imp_ns == 3


def test_standings_rank_pairs_by_percentage():
    boards = {1: matchpoint_field([table(1, 100, ns="Ann-Bob", ew="Cy-Di"), table(2, 90, ns="Ed-Flo", ew="Gus-Hal")])}
    rows = {r["name"]: r for r in standings(boards, "MP")}
    assert rows["Ann-Bob"]["pct"] == 100.0 and rows["Ann-Bob"]["rank"] == 1
    assert rows["Cy-Di"]["pct"] == 0.0 and rows["Gus-Hal"]["pct"] == 100.0
