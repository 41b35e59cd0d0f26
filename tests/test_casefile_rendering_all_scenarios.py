"""The case file is a deterministic rendering of its events (issue 25): for every
scenario file, the case built from the store and the one rendered again from its
events alone (as ``check-proof`` does) are identical, JSON and HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.casefile import build_casefile, render_html, rerender
from ledger.scenario import replay_text

SCENARIOS = sorted((Path(__file__).resolve().parent / "scenarios").glob("*.jsonl"))


@pytest.mark.parametrize("start", range(0, len(SCENARIOS), 32), ids=lambda s: f"from-{s}")
def test_every_scenario_renders_again_from_its_events_alone(start):
    checked = 0
    for path in SCENARIOS[start:start + 32]:
        with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
            case = json.loads(json.dumps(build_casefile(ledger, stream), ensure_ascii=False))
        again = rerender({"events": case["events"], "context": case["context"]})
        assert again == case, path.name
        assert render_html(again) == render_html(case), path.name
        checked += 1
    assert checked == len(SCENARIOS[start:start + 32])
