"""Issue 22 (spec 1.3 section 10): claims, the Correction Period, 38B, ids in `about`.

* The issue's scenario files replayed on both stores (SQLite and PostgreSQL), their expectations holding.
* Bad input: a line with a card not held, a revoke in the line, a line that does not give the awarded
  tricks, a second ``CorrectionPeriodEnded``, ``DefectiveTrickFound`` for a trick not complete: exit 2
  naming the line, the field and the value, nothing written; a table may not end the Correction Period.
* ``cli.py open`` lists a claim with an objection pending inside its Correction Period; the readable
  state and the case file tell the claim's history.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import init_db
from golden_fold import assert_scenario_holds

from ledger.cli import main

SCENARIOS = Path(__file__).parent / "scenarios"
ISSUE_22 = sorted(p for p in SCENARIOS.glob("*.jsonl") if p.name.startswith((
    "claim-68b2-", "claim-68d-", "claim-69a-", "claim-69b-", "claim-70-2017-agreement", "claim-71-", "claim-79c-",
    "inadmissible-38d-2017", "penalty-10b-2017-exposed-card-waived-by-id", "lead-60b-")))


def test_the_issue_has_its_scenarios():
    assert len(ISSUE_22) >= 14


@pytest.mark.parametrize("path", ISSUE_22, ids=[p.stem for p in ISSUE_22])
def test_scenario_on_both_stores(path, store_url):
    assert_scenario_holds(path, store_url)


def _lines(path: Path, stop: str) -> list[str]:
    """The facts of a scenario file up to (not including) the first line containing ``stop``."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if stop in line:
            break
        if line.startswith("{") and '"type"' in line and '"expect' not in line:
            out.append(line)
    return out


@pytest.fixture
def db(tmp_path, monkeypatch):
    return init_db(tmp_path, monkeypatch)


def _append(capsys, tmp_path, stream, lines, name="in.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    code = main(["append", stream, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def _seqs(capsys, stream):
    main(["log", stream, "--json"])
    out, _ = capsys.readouterr()
    return [json.loads(x)["seq"] for x in out.splitlines()]


LINE_OK = ["SK", "SA", "DA", "CA", "C2", "HT", "DT", "ST", "SQ", "C3", "HJ", "DJ", "SJ", "C4", "HQ", "DQ",
           "HA", "C5", "HK", "DK"]
DISPUTED = SCENARIOS / "claim-70-2017-agreement-disputed-before-established-line-of-play.jsonl"

BAD_RULINGS = [
    ({"tricks": 4, "line": ["SA"] + LINE_OK[1:]}, "'line'", "does not hold it"),
    ({"tricks": 4, "line": ["SK", "C2"] + LINE_OK[2:]}, "'line'", "a revoke"),
    ({"tricks": 5, "line": LINE_OK}, "'line'", "not the 5 awarded"),
    ({"tricks": 4, "line": LINE_OK[:-1]}, "'line'", "every remaining card"),
    ({"tricks": 6}, "'tricks', value 6", "5 tricks remained"),
]


@pytest.mark.parametrize("ruling, field, reason", BAD_RULINGS, ids=[r for _, _, r in BAD_RULINGS])
def test_a_bad_ruling_is_exit_2_naming_line_field_value_and_nothing_written(db, tmp_path, capsys, ruling, field,
                                                                          reason):
    facts = _lines(DISPUTED, "ClaimRuled")
    assert _append(capsys, tmp_path, "t/b", facts, "board.jsonl")[0] == 0
    before = _seqs(capsys, "t/b")
    bad = {"type": "ClaimRuled", **ruling}
    code, _, err = _append(capsys, tmp_path, "t/b", [{"type": "RulingGiven", "laws": ["2017:70"], "text": "x"}, bad])
    assert code == 2, err
    assert "line 2" in err and field in err and reason in err, err
    assert _seqs(capsys, "t/b") == before


def test_a_ruling_with_no_claim_is_refused(db, tmp_path, capsys):
    facts = _lines(DISPUTED, "ClaimMade")
    _append(capsys, tmp_path, "t/b", facts, "board.jsonl")
    code, _, err = _append(capsys, tmp_path, "t/b", [{"type": "ClaimRuled", "tricks": 1}])
    assert code == 2 and "no claim to rule on" in err and "line 1" in err


def test_a_second_end_of_the_correction_period_is_refused_and_a_table_may_not_log_it(db, tmp_path, capsys):
    facts = _lines(DISPUTED, "NextBoardStarted")
    _append(capsys, tmp_path, "t/b", facts + ['{"type": "CorrectionPeriodEnded"}'], "board.jsonl")
    before = _seqs(capsys, "t/b")
    code, _, err = _append(capsys, tmp_path, "t/b", ['{"type": "CorrectionPeriodEnded"}'])
    assert code == 2 and "line 1" in err and "'type'" in err and "CorrectionPeriodEnded" in err and \
        "already ended" in err
    code, _, err = _append(capsys, tmp_path, "t/c", facts[:1] + [
        '{"type": "CorrectionPeriodEnded", "actor": {"role": "table", "name": "t1"}}'])
    assert code == 4, err
    assert _seqs(capsys, "t/b") == before and _seqs(capsys, "t/c") == []


def test_a_defective_trick_not_yet_complete_is_refused(db, tmp_path, capsys):
    facts = _lines(DISPUTED, "ClaimMade")  # eight tricks played
    _append(capsys, tmp_path, "t/b", facts, "board.jsonl")
    before = _seqs(capsys, "t/b")
    code, _, err = _append(capsys, tmp_path, "t/b", [{"type": "DefectiveTrickFound", "trick": 9, "seat": "E"}])
    assert code == 2 and "line 1" in err and "'trick', value 9" in err and "not complete" in err, err
    assert _seqs(capsys, "t/b") == before


def test_open_lists_a_claim_with_an_objection_pending_in_its_correction_period(db, tmp_path, capsys):
    path = SCENARIOS / "claim-71-2017-concession-stands-director-asked.jsonl"
    _append(capsys, tmp_path, "t/b", _lines(path, "ClaimRuled"), "board.jsonl")
    main(["open", "claims", "--json"])
    items = [json.loads(x) for x in capsys.readouterr()[0].splitlines()]
    claims = [i for i in items if i["kind"] == "claim"]
    assert len(claims) == 1 and "Correction Period" in claims[0]["what"] and claims[0]["law"] == "2017:71"
    _append(capsys, tmp_path, "t/b", ['{"type": "CorrectionPeriodEnded"}'], "end.jsonl")
    main(["open", "claims", "--json"])
    items = [json.loads(x) for x in capsys.readouterr()[0].splitlines()]
    assert not [i for i in items if i["kind"] == "claim"]


def test_the_state_and_the_case_file_tell_the_claims_history(db, tmp_path, capsys):
    _append(capsys, tmp_path, "t/b", _lines(DISPUTED, "expect_error") + [
        json.dumps({"type": "ClaimRuled", "tricks": 4, "text": "the SA is a trick", "line": LINE_OK})], "board.jsonl")
    main(["state", "t/b"])
    out = capsys.readouterr()[0]
    assert "E agreed (seq 39)" in out and "W disputed the claim" in out and "line of play" in out
    main(["casefile", "t/b", "-o", str(tmp_path / "case.html")])
    capsys.readouterr()
    html = (tmp_path / "case.html").read_text(encoding="utf-8")
    assert "claim-history" in html and "trick 9: N SK E SA S DA W CA (won by E)" in html
