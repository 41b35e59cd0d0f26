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


def test_a_session_scored_in_cross_imps(store_url, tmp_path, capsys):
    """The Spring Pairs' first session with ``"scoring": "cross-IMP"``: by hand, board 1
    (+430, +400, +400): NS1 +1, NS3 and NS2 -0.5; board 2 (+50, -420, 0): NS2 (10 + 2) / 2 = 6,
    NS1 (-10 - 9) / 2 = -9.5, NS3 (-2 + 9) / 2 = 3.5; board 3 (+430, +400; withdrawn at table 2):
    NS1 +1, NS3 -1. Pairs: 6 +11, 2 +5.5, 3 +2, 4 -4.5, 5 -6.5, 1 -7.5."""
    import json
    from pathlib import Path

    from ledger.cli import main

    examples = Path(__file__).resolve().parents[1] / "ledger" / "examples" / "event"
    register = (examples / "pairs-register.jsonl").read_text().replace(
        '"session": "s1", "kind": "pairs"', '"session": "s1", "kind": "pairs", "scoring": "cross-IMP"')
    (tmp_path / "reg.jsonl").write_text(register)
    url = store_url
    assert main(["--db", url, "init"]) == 0
    assert main(["--db", url, "register", "spring-pairs", str(tmp_path / "reg.jsonl")]) == 0
    assert main(["--db", url, "enter", "spring-pairs", "s1", str(examples / "pairs-s1.txt"),
                 "--deals", str(examples / "pairs-handrecord.pbn")]) == 0
    capsys.readouterr()
    assert main(["--db", url, "results", "spring-pairs", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scoring"] == "cross-IMP"
    assert [(r["name"], r["score"]) for r in doc["standings"]] == [
        ("6", 11.0), ("2", 5.5), ("3", 2.0), ("4", -4.5), ("5", -6.5), ("1", -7.5)]
