"""Pairs scored in IMPs across the field (issue 24): cross-IMPs and Butler, as a session's
option (``SessionScheduled.scoring``). Values worked by hand on the WBF IMP scale."""

from __future__ import annotations

from projections.results import TableResult, butler_field, cross_imp_field, standings


def field(*scores: int) -> list[TableResult]:
    return [TableResult(stream=f"t{i}", board=1, table=str(i), room=None, match=None, ns=f"N{i}", ew=f"E{i}",
                        score_ns=s) for i, s in enumerate(scores, start=1)]


def test_cross_imps_average_over_the_other_tables():
    # 420 v 400: 20 points, 1 IMP; 420 v -50: 470, 10 IMPs -> (1 + 10) / 2 = 5.5
    # 400 v 420: -1; 400 v -50: 450, 10 -> 4.5; -50: -10 and -10 -> -10
    scored = cross_imp_field(field(420, 400, -50))
    assert [(r.imp_ns, r.imp_ew) for r in scored] == [(5.5, -5.5), (4.5, -4.5), (-10.0, 10.0)]


def test_butler_against_the_datum():
    # three scores (no trimming): mean 256.7, datum 260; 420 - 260 = 160: 4 IMPs; 400 - 260 =
    # 140: 4; -50 - 260 = -310: 7 IMPs to EW
    scored = butler_field(field(420, 400, -50))
    assert [r.imp_ns for r in scored] == [4, 4, -7]
    # six scores: the top (1430) and the bottom (-200) are left out: (420 + 420 + 400 + 170) / 4
    # = 352.5, datum 350; 1430 - 350 = 1080: 14 IMPs; 420 - 350 = 70: 2; 170 - 350 = -180: -5;
    # -200 - 350 = -550: -11
    scored = butler_field(field(1430, 420, 420, 400, 170, -200))
    assert [r.imp_ns for r in scored] == [14, 2, 2, 2, -5, -11]


def test_imp_pairs_standings_sum_the_imps():
    boards = {1: cross_imp_field(field(420, 400, -50))}
    rows = {r["name"]: r["score"] for r in standings(boards, "cross-IMP")}
    assert rows["N1"] == 5.5 and rows["E3"] == 10.0 and rows["E1"] == -5.5
