"""Law 87 (fouled boards) and Law 86 (a teams board that cannot be compared), on both stores.

A five-table pairs session plays board 1 (the club hand record's, none vulnerable); the
director finds that tables 4 and 5 played it with two cards in the wrong pockets
(``BoardFouled``, form B). 87B: each group is rated separately; the ledger scales each group's
matchpoints to the field by Neuberg's formula, ``(mp + 1) * N / n - 1`` (2 per score beaten,
N tables on the board, n in the group). Expectations worked by hand below.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.cli import main
from projections import results as res

ROOT = Path(__file__).resolve().parents[1]
DEALS = ROOT / "ledger" / "examples" / "event" / "pairs-handrecord.pbn"

PLAYERS = [{"type": "PlayerRegistered", "player": f"f{i}", "name": f"Player {i}"} for i in range(1, 21)]
SESSION = {"type": "SessionScheduled", "session": "s1", "kind": "pairs", "boards": 1, "rounds": 1,
           "movement": [{"round": 1, "table": str(t), "ns": str(t), "ew": str(t + 5), "boards": [1]}
                        for t in range(1, 6)]}
PAIRS = [{"type": "PairEntered", "pair": str(p), "players": [f"f{2 * p - 1}", f"f{2 * p}"]} for p in range(1, 11)]
SLIPS = "t1 b1 4S N 10\nt2 b1 4S N 9\nt3 b1 3S N 9\nt4 b1 3NT N 9\nt5 b1 3NT N 8\n"


def fouled(tables: list[str], form: str = "B", law: str = "2017:87B") -> dict:
    return {"type": "BoardFouled", "session": "s1", "board": 1, "tables": tables, "form": form, "law": law,
            "reason": "two cards in the wrong pockets from round 1 at tables 4 and 5"}


def write(path: Path, facts: list[dict]) -> str:
    path.write_text("".join(json.dumps(f) + "\n" for f in facts))
    return str(path)


def build(url: str, tmp_path: Path, extra: list[dict]) -> None:
    assert main(["--db", url, "init"]) == 0
    assert main(["--db", url, "register", "club", write(tmp_path / "reg.jsonl", PLAYERS + [SESSION] + PAIRS)]) == 0
    slips = tmp_path / "s1.txt"
    slips.write_text(SLIPS)
    assert main(["--db", url, "enter", "club", "s1", str(slips), "--deals", str(DEALS)]) == 0
    if extra:
        assert main(["--db", url, "register", "club", write(tmp_path / "more.jsonl", extra)]) == 0


def results(url: str, capsys, *flags: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["--db", url, "results", "club", "--json", *flags])
    return code, json.loads(capsys.readouterr().out)


def by_table(doc: dict) -> dict[str, dict]:
    return {r["table"]: r for b in doc["boards"] for r in b["results"]}


def test_fouled_board_groups_are_matchpointed_apart_and_scaled_to_the_field(store_url, tmp_path, capsys):
    build(store_url, tmp_path, [fouled(["4", "5"])])
    code, doc = results(store_url, capsys, "--strict")
    assert code == 0 and doc["checks"] == []
    t = by_table(doc)
    # NS scores: t1 +420, t2 -50, t3 +140 (correct form, n = 3); t4 +400, t5 -50 (form B, n = 2).
    # Correct form: t1 beats 2 -> 4 mp, scaled (4 + 1) * 5 / 3 - 1 = 22/3; t3 2 -> 3 * 5/3 - 1 = 4;
    # t2 0 -> 5/3 - 1 = 2/3. Form B: t4 2 -> 3 * 5/2 - 1 = 6.5; t5 0 -> 5/2 - 1 = 1.5. Top 8.
    expected = {"1": 22 / 3, "2": 2 / 3, "3": 4.0, "4": 6.5, "5": 1.5}
    for table, mp_ns in expected.items():
        assert t[table]["mp_ns"] == round(mp_ns, 2)
        assert t[table]["mp_ew"] == round(8 - mp_ns, 2)
        assert t[table]["pct_ns"] == round(100 * mp_ns / 8, 2)
    assert t["4"]["fouled_form"] == "B" and "fouled_form" not in t["1"]
    # Unfouled, +400 at t4 would have beaten three scores (6 mp): the groups are not compared.
    ranking = {r["name"]: r["pct"] for r in doc["standings"]}
    assert ranking["4"] == 81.25 and ranking["9"] == 18.75


def test_a_table_alone_in_its_group_is_asked_of_the_director(store_url, tmp_path, capsys):
    build(store_url, tmp_path, [fouled(["5"])])
    code, doc = results(store_url, capsys, "--strict")
    assert code != 0
    alone = [c for c in doc["checks"] if c["kind"] == "fouled_alone"]
    assert [(c["board"], c["streams"], c["law"]) for c in alone] == [(1, ["club/s1/t5/b1"], "2017:87B")]
    award = tmp_path / "award.jsonl"
    award.write_text(json.dumps({"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A+", "ew": "A+",
                                 "law": "2017:12C2a", "text": "fouled board, no comparison: neither side at fault",
                                 "actor": {"role": "director", "name": "TD"}}) + "\n")
    assert main(["--db", store_url, "append", "club/s1/t5/b1", str(award)]) == 0
    code, doc = results(store_url, capsys, "--strict")
    assert code == 0 and doc["checks"] == []
    # The other four: t1 +420 beats 3 -> 6 of 6 in a group of 4, (6 + 1) * 5/4 - 1 = 7.75 of 8.
    assert by_table(doc)["1"]["mp_ns"] == 7.75
    assert by_table(doc)["5"]["pct_ns"] == 60.0


@pytest.mark.parametrize("bad, field", [
    (fouled(["4"], law="2017:13A"), "law"),
    (fouled(["4"], form="C"), "tables"),
    ({**fouled(["4"]), "session": "s9"}, "session"),
])
def test_bad_fouled_board_is_refused_and_nothing_written(store_url, tmp_path, capsys, bad, field):
    build(store_url, tmp_path, [fouled(["4", "5"])])
    capsys.readouterr()
    assert main(["--db", store_url, "register", "club", write(tmp_path / "bad.jsonl", [bad])]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and field in err
    code, doc = results(store_url, capsys)
    assert by_table(doc)["4"]["mp_ns"] == 6.5  # the register as it was


def _room(stream: str, room: str, score: int, form: str | None) -> res.TableResult:
    return res.TableResult(stream=stream, board=1, table="1", room=room, match="m", ns="1" if room == "open" else "2",
                           ew="2" if room == "open" else "1", score_ns=score, distribution=((score, 1.0),),
                           status="played", form=form)


def test_teams_rooms_in_two_forms_get_no_imps():
    same = res.imps_between_rooms([_room("a", "open", 420, None), _room("b", "closed", -50, None)])
    assert [r.imp_ns for r in same] == [10, -10]  # 470 points: 10 IMPs (Law 78B)
    apart = res.imps_between_rooms([_room("a", "open", 420, None), _room("b", "closed", -50, "B")])
    assert [r.imp_ns for r in apart] == [None, None]
    assert [r.imp_ns for r in res.adjusted_imps(apart)] == [None, None]


def _pair_table(stream: str, score: int, form: str | None) -> res.TableResult:
    return res.TableResult(stream=stream, board=1, table=stream, room=None, match=None, ns="1", ew="2",
                           score_ns=score, distribution=((score, 1.0),), status="played", form=form)


def test_cross_imps_of_a_fouled_board_are_within_each_group():
    # Correct form: +420 and -50 (470: 10 IMPs each way); form B: +400 and +430 (30: 1 IMP).
    tables = [_pair_table("a", 420, None), _pair_table("b", -50, None), _pair_table("c", 400, "B"),
              _pair_table("d", 430, "B")]
    scored = res._score_boards({1: tables}, "cross-IMP")[1]
    assert [r.imp_ns for r in scored] == [10, -10, -1, 1]
