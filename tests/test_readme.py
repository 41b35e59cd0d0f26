"""The README's commands are the ones CI runs, and its examples parse."""

import json
import re
from pathlib import Path

from ledger.service import parse_fact

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_the_first_two_readme_commands_are_what_ci_runs():
    install, tests = (block.strip() for block in code_blocks("sh")[:2])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install in ci and "pip install" in install and "cli.py demo" in install
    assert tests in ci and "pytest" in tests


def test_the_readme_json_example_is_a_valid_fact():
    (example,) = code_blocks("json")
    fact = parse_fact(json.loads(example), 1)
    assert fact.event.TYPE == "CardPlayed" and fact.actor.role == "table" and fact.id == "t12-b07-31"


def test_every_command_the_readme_shows_exists():
    from ledger.cli import cli

    shown = set(re.findall(r"python cli\.py (?:--[\w-]+ \S+ )*([\w-]+)", README))  # after any group option
    assert shown <= set(cli.commands), shown - set(cli.commands)


def test_the_readme_board_and_ruling_run_as_written(tmp_path, monkeypatch, capsys):
    """The adjusted-score example: board.jsonl and ruling.jsonl as shown, then the commands
    of the block that appends them, each exiting 0; the committee's weighted score stands."""
    import shlex

    from ledger.cli import main

    blocks = code_blocks("jsonl")
    (board,) = [b for b in blocks if '"BoardOpened"' in b]
    (ruling,) = [b for b in blocks if '"AdjustedScoreAwarded"' in b]
    (void,) = [b for b in blocks if '"EntryVoided"' in b]
    assert parse_fact(json.loads(void.strip()), 1).event.TYPE == "EntryVoided"
    (commands,) = [b for b in code_blocks("sh") if "ruling.jsonl" in b and "board.jsonl" in b]
    (tmp_path / "board.jsonl").write_text(board, encoding="utf-8")
    (tmp_path / "ruling.jsonl").write_text(ruling, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEDGER_DB", f"sqlite:///{tmp_path / 'ledger.db'}")
    ran = []
    for line in commands.splitlines():
        args = shlex.split(line, comments=True)
        assert args[:2] == ["python", "cli.py"], line
        assert main(args[2:]) == 0, (line, capsys.readouterr().err)
        ran.append(args[2])
        if args[2] == "open":
            assert "2017:16B2" in capsys.readouterr().out  # the reserved right waits
    assert ran == ["init", "append", "open", "append", "results", "casefile"]
    capsys.readouterr()
    assert main(["state", "paris/t4/b1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["result"]["score_ns"] == 420 and doc["adjusted"]["kind"] == "weighted"
    assert doc["adjusted"]["by"] == "committee" and doc["review"] == []
    assert (tmp_path / "case.html").exists()


def test_the_readme_says_how_to_create_the_postgresql_database():
    assert "createdb" in README and "CREATE DATABASE" in README


def test_the_readme_promises_no_live_terminal_it_does_not_have():
    assert "position > last_seen" not in README and "many table terminals" not in README
    assert "log --after POSITION" in README


def test_the_readme_whole_event_runs_as_written(tmp_path, monkeypatch, capsys):
    """A director's day, a whole event: the block that registers the Spring Pairs and the
    Swiss teams runs as written (each command exits 0), from a folder holding the examples."""
    import shlex

    from ledger.cli import main

    (block,) = [b for b in code_blocks("sh") if "register spring-pairs" in b]
    (tmp_path / "ledger").symlink_to(ROOT / "ledger", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEDGER_DB", f"sqlite:///{tmp_path / 'ledger.db'}")
    ran = []
    for line in block.splitlines():
        args = shlex.split(line, comments=True)
        assert args[:2] == ["python", "cli.py"], line
        assert main(args[2:]) == 0, (line, capsys.readouterr().err)
        ran.append(args[2])
        out = capsys.readouterr().out
        if args[2] == "swiss" and "round 1" in out:
            assert "1 v 3, 2 v 4; bye 5" in out
    assert ran.count("swiss") == 5 and ran.count("print") == 5
    for name in ("spring-hands.pdf", "spring-travellers.pdf", "spring-results.pdf", "swiss-results.pdf"):
        assert (tmp_path / name).read_bytes()[:5] == b"%PDF-"
    assert "Marie Roux" in (tmp_path / "spring-s2-cards.html").read_text(encoding="utf-8")
