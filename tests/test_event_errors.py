"""Bad input in a whole event (issue 24): a player in two seats at once, a substitute for a
board already finished, a fact of the register in a board's stream, a bad traveller line, a
board opened by mistake: a clear error naming the line, the field and the value, exit 2, and
nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.cli import main
from ledger.register import register_stream
from ledger.service import Ledger

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "ledger" / "examples" / "event"
DEALS = EXAMPLES / "pairs-handrecord.pbn"


def run(url: str, *args: str) -> int:
    return main(["--db", url, *args])


def lines(tmp_path: Path, name: str, *objs: dict) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return str(path)


def count(url: str, stream: str) -> int:
    with Ledger.open(url) as ledger:
        return len(ledger.store.read(stream))


def streams(url: str) -> list[str]:
    with Ledger.open(url) as ledger:
        return ledger.store.streams()


def setup(url: str) -> None:
    assert run(url, "init") == 0
    assert run(url, "register", "spring-pairs", str(EXAMPLES / "pairs-register.jsonl")) == 0


def test_a_player_in_two_pairs_is_refused_and_nothing_written(store_url, tmp_path, capsys):
    assert run(store_url, "init") == 0
    path = lines(tmp_path, "reg.jsonl",
                 {"type": "PlayerRegistered", "player": "p1", "name": "Anne Martin"},
                 {"type": "PlayerRegistered", "player": "p2", "name": "Bruno Durand"},
                 {"type": "PlayerRegistered", "player": "p3", "name": "Claire Leroy"},
                 {"type": "PairEntered", "pair": "1", "players": ["p1", "p2"]},
                 {"type": "PairEntered", "pair": "2", "players": ["p3", "p1"]})
    capsys.readouterr()
    assert run(store_url, "register", "club", path) == 2
    err = capsys.readouterr().err
    assert "line 5" in err and "field 'players'" in err and "value 'p1'" in err and "two seats at once" in err
    assert count(store_url, register_stream("club")) == 0


def test_a_substitute_already_seated_for_another_pair_on_that_board(store_url, tmp_path, capsys):
    setup(store_url)
    before = count(store_url, register_stream("spring-pairs"))
    # Anne Martin (p1, pair 1) plays board 4 of s2 for pair 1: she cannot also sit for pair 3
    path = lines(tmp_path, "sub.jsonl", {"type": "SubstituteSeated", "session": "s2", "entry": "3",
                                         "replaces": "p6", "player": "p1", "boards": [4]})
    capsys.readouterr()
    assert run(store_url, "register", "spring-pairs", path) == 2
    err = capsys.readouterr().err
    assert "field 'player'" in err and "value 'p1'" in err and "already sits for 1 on board 4" in err
    assert count(store_url, register_stream("spring-pairs")) == before


def test_a_substitute_for_a_board_already_finished(store_url, tmp_path, capsys):
    setup(store_url)
    assert run(store_url, "enter", "spring-pairs", "s2", str(EXAMPLES / "pairs-s2.txt"), "--deals", str(DEALS)) == 0
    before = count(store_url, register_stream("spring-pairs"))
    path = lines(tmp_path, "sub.jsonl",
                 {"type": "PlayerRegistered", "player": "p99", "name": "Paul Late"},
                 {"type": "SubstituteSeated", "session": "s2", "entry": "1", "replaces": "p2", "player": "p99",
                  "boards": [6]})
    capsys.readouterr()
    assert run(store_url, "register", "spring-pairs", path) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "field 'boards'" in err and "board 6 has already ended" in err
    assert count(store_url, register_stream("spring-pairs")) == before  # the player of line 1 neither


def test_a_bad_traveller_line_writes_no_board(store_url, tmp_path, capsys):
    setup(store_url)
    text = "\n".join((EXAMPLES / "pairs-s1.txt").read_text().splitlines()[:6]) + "\nt3 b1 4Z N 10\n"
    path = tmp_path / "s1.txt"
    path.write_text(text)
    capsys.readouterr()
    assert run(store_url, "enter", "spring-pairs", "s1", str(path), "--deals", str(DEALS)) == 2
    err = capsys.readouterr().err
    assert "line 7" in err and "field 'result'" in err and "'4Z N 10'" in err
    assert [s for s in streams(store_url) if not s.startswith("register/")] == []
    # a table the movement does not give that board: refused the same way
    path.write_text("t4 b2 4S N 10\n")
    assert run(store_url, "enter", "spring-pairs", "s1", str(path), "--deals", str(DEALS)) == 2
    assert "does not give board 2 to table 4" in capsys.readouterr().err
    # a board entered twice (a second slip for the same table): the whole file refused
    path.write_text("t1 b1 3NT N 9\n")
    assert run(store_url, "enter", "spring-pairs", "s1", str(path), "--deals", str(DEALS)) == 0
    path.write_text("t2 b2 4S E 9\nt1 b1 3NT N 10\n")
    capsys.readouterr()
    assert run(store_url, "enter", "spring-pairs", "s1", str(path), "--deals", str(DEALS)) == 2
    assert "spring-pairs/s1/t1/b1" in capsys.readouterr().err
    assert count(store_url, "spring-pairs/s1/t2/b2") == 0 and count(store_url, "spring-pairs/s1/t1/b1") == 3  # opened, reported, scored


def test_register_facts_stay_out_of_a_boards_stream(store_url, tmp_path, capsys):
    setup(store_url)
    path = lines(tmp_path, "x.jsonl", {"type": "BoardOpened", "tournament": "spring-pairs", "board": 1, "table": "9",
                                       "deal": "N:AQT94.T53.KQ8.T9 63.J98.J53.K8654 K72.6.AT9762.AJ7 J85.AKQ742.4.Q32"},
                 {"type": "PlayerRegistered", "player": "p50", "name": "Nobody"})
    capsys.readouterr()
    assert run(store_url, "append", "x/b1", path) == 2
    assert "tournament's register" in capsys.readouterr().err
    assert count(store_url, "x/b1") == 0


def test_a_board_opened_by_mistake_is_voided_whole(store_url, tmp_path, capsys):
    setup(store_url)
    opened = json.loads((EXAMPLES / "pairs-mistake.jsonl").read_text().splitlines()[0])
    assert run(store_url, "append", "m/b3", lines(tmp_path, "o.jsonl", opened)) == 0
    # EntryVoided cannot void a BoardOpened: the message says what does
    capsys.readouterr()
    assert run(store_url, "append", "m/b3", lines(tmp_path, "v.jsonl", {"type": "EntryVoided", "about": 1,
                                                                      "reason": "wrong board"})) == 2
    assert "BoardVoided" in capsys.readouterr().err
    assert run(store_url, "append", "m/b3", lines(tmp_path, "b.jsonl", {"type": "BoardVoided",
                                                                      "reason": "opened by mistake"})) == 0
    capsys.readouterr()
    assert run(store_url, "append", "m/b3", lines(tmp_path, "c.jsonl", {"type": "CallPlaced", "seat": "S",
                                                                      "call": "1D"})) == 2
    assert "voided at seq 2" in capsys.readouterr().err
    assert count(store_url, "m/b3") == 2
