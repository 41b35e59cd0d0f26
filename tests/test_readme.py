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

    shown = set(re.findall(r"python cli\.py ([\w-]+)", README))
    assert shown <= set(cli.commands), shown - set(cli.commands)
