"""A knockout of four teams on the RealBridge deals (matches of two boards), on both stores: the
winner of each match goes on, carry-over counts, a tie is asked of the director (the conditions
of contest decide), never guessed; and Law 86B's averaging of a non-balancing adjusted score.
IMPs worked by hand (Law 78B scale): board 11 4S N made (+420) against one down (-50), 470 = 10
IMPs; board 15 6S N made (+1430) against one down (-100), 1530 = 17; board 16 3NT made (+400)
against one down (-50), 450 = 10."""

from __future__ import annotations

import json
from types import SimpleNamespace

from ledger.cli import main
from projections.event import match_results
from test_event_swiss import REALBRIDGE, requires_data

REGISTER = [{"type": "PlayerRegistered", "player": f"k{i}", "name": f"Player {i}"} for i in range(1, 17)] + [
    {"type": "SessionScheduled", "session": "ko", "kind": "knockout", "boards": 2, "rounds": 2},
] + [{"type": "TeamEntered", "team": str(t), "name": name, "players": [f"k{4 * t - i}" for i in range(3, -1, -1)]}
     for t, name in ((1, "Lille"), (2, "Lyon"), (3, "Nice"), (4, "Brest"))] + [
    # the draw: 1 v 4 (team 4 carries 12 IMPs in), 2 v 3
    {"type": "KnockoutRoundPaired", "session": "ko", "round": 1, "matches": [["1", "4"], ["2", "3"]],
     "carry": [[0, 12], [0, 0]]},
]

ROUND_1 = """\
r1 1v4 open b11 4S N 10
r1 1v4 closed b11 4S N 9
r1 1v4 open b12 Pass
r1 1v4 closed b12 Pass
r1 2v3 open b11 4S N 10
r1 2v3 closed b11 4S N 10
r1 2v3 open b12 Pass
r1 2v3 closed b12 Pass
"""

ROUND_2 = """\
r2 4v3 open b15 6S N 12
r2 4v3 closed b15 6S N 11
r2 4v3 open b16 3NT N 8
r2 4v3 closed b16 3NT N 9
"""


def run(url: str, *args: str) -> int:
    return main(["--db", url, *args])


def facts(path, items) -> str:
    path.write_text("".join(json.dumps(f) + "\n" for f in items))
    return str(path)


def tie(winner: str, home: str = "2", away: str = "3") -> dict:
    return {"type": "KnockoutTieDecided", "session": "ko", "round": 1, "home": home, "away": away,
            "winner": winner, "reason": "tied after two boards: the first board of the extra set (conditions 4.2)"}


@requires_data
def test_a_knockout_goes_on_with_carry_over_and_a_tie_the_director_decides(store_url, tmp_path, capsys):
    url = store_url
    assert run(url, "init") == 0
    assert run(url, "register", "cup", facts(tmp_path / "reg.jsonl", REGISTER)) == 0
    slips = tmp_path / "r1.txt"
    slips.write_text(ROUND_1)
    assert run(url, "enter", "cup", "ko", str(slips), "--deals", str(REALBRIDGE)) == 0
    capsys.readouterr()
    # 1 v 4: team 1 +420 open and +50 closed: 10 IMPs, but team 4 carried 12: 10 - 12, 4 goes on.
    # 2 v 3: both rooms +420 for the NS team: 0 - 0, tied: the next round cannot be paired.
    assert run(url, "knockout", "cup", "ko") == 2
    out, err = capsys.readouterr()
    assert "round 1: 1 v 4 10 - 12 (carry 0 - 12), won: 4 goes on" in out
    assert "round 1: 2 v 3 0 - 0, tied" in out and "no winner yet" in err
    assert run(url, "results", "cup", "--json", "--strict") != 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["kind"] for c in doc["checks"]] == ["knockout_tied"]
    # Deciding a match that is not tied, or naming a team not in it: refused, nothing written.
    assert run(url, "register", "cup", facts(tmp_path / "bad.jsonl", [tie("4", "1", "4")])) == 2
    assert "not a tie" in capsys.readouterr().err
    assert run(url, "register", "cup", facts(tmp_path / "bad2.jsonl", [tie("1")])) == 2
    capsys.readouterr()
    # A round 2 that is not the winners: refused.
    wrong = {"type": "KnockoutRoundPaired", "session": "ko", "round": 2, "matches": [["1", "3"]]}
    assert run(url, "register", "cup", facts(tmp_path / "wrong.jsonl", [tie("3"), wrong])) == 2
    assert "winners of round 1" in capsys.readouterr().err
    assert run(url, "register", "cup", facts(tmp_path / "tie.jsonl", [tie("3")])) == 0
    capsys.readouterr()
    assert run(url, "knockout", "cup", "ko") == 0
    out = capsys.readouterr().out
    assert "2 v 3 0 - 0, tied: 3 goes on (tied after two boards" in out
    assert out.strip().endswith("round 2: 4 v 3")
    slips.write_text(ROUND_2)
    assert run(url, "enter", "cup", "ko", str(slips), "--deals", str(REALBRIDGE)) == 0
    capsys.readouterr()
    # Final: board 15 team 4 +1430 and +100: 17 IMPs; board 16 team 3 +50 and +400: 10 IMPs. 17 - 10.
    assert run(url, "knockout", "cup", "ko") == 0
    out = capsys.readouterr().out
    assert "round 2: 4 v 3 17 - 10, won: 4 goes on" in out and out.strip().endswith("winner: 4")
    assert run(url, "results", "cup", "--json", "--strict") == 0
    doc = json.loads(capsys.readouterr().out)
    final = [m for m in doc["sessions"][0]["knockout"] if m["round"] == 2]
    assert [(m["home"], m["away"], m["total_home"], m["total_away"], m["winner"]) for m in final] == [
        ("4", "3", 17, 10, "4")]


def _board(number: int, open_: dict, closed: dict) -> dict:
    return {"board": number, "results": [dict(open_, stream="o", room="open"), dict(closed, stream="c", room="closed")]}


def test_law_86b_averages_a_non_balancing_assigned_score_in_a_knockout_only():
    tables = [(stream, SimpleNamespace(board=SimpleNamespace(match="m", room=room, ns=ns, ew=ew)))
              for stream, room, ns, ew in (("o", "open", "A", "B"), ("c", "closed", "B", "A"))]
    # A split assigned score: team A (NS in the open room) +5 IMPs on its own result, team B +1 on its own.
    split = _board(1, {"imp_ns": 5, "imp_ew": 1, "adjusted": {"kind": "assigned"}},
                   {"imp_ns": 1, "imp_ew": 5, "adjusted": None})
    doc = {"boards": [split]}
    (teams,) = match_results(doc, tables, 2)  # type: ignore[arg-type]
    assert (teams["imps_home"], teams["imps_away"]) == (5, 1)  # not a knockout: as awarded
    (ko,) = match_results(doc, tables, 2, knockout=True)  # type: ignore[arg-type]
    assert (ko["imps_home"], ko["imps_away"]) == (2, 0)  # 86B: A's view +5, B's view -1: average +2
    # Average plus to both (artificial, 86A): not averaged (86B excludes it), +3 each.
    both = _board(1, {"imp_ns": 3, "imp_ew": 3, "adjusted": {"kind": "artificial"}},
                  {"imp_ns": 3, "imp_ew": 3, "adjusted": None})
    (art,) = match_results({"boards": [both]}, tables, 2, knockout=True)  # type: ignore[arg-type]
    assert (art["imps_home"], art["imps_away"]) == (3, 3)
