"""Every scenario file in tests/scenarios runs through ``cli.py replay --check``,
the path a user takes: its expectations (written from the Laws, not from the
program's output) must hold."""

from pathlib import Path

import pytest

from ledger.cli import main

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.jsonl"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path, capsys):
    text = path.read_text(encoding="utf-8")
    assert "# law:" in text.lower() and "# edition:" in text.lower(), "a scenario names its Law and edition"
    code = main(["replay", str(path), "--check"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "expectation(s) hold" in out


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 1
