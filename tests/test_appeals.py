"""Appeals (Laws 92, 93; spec section 3 "Committee"): a board ruled, appealed and
changed by the committee, with the results before and after, end to end through
the command line; the history of every decision stays in the log and the case file.

Four tables on board 1 (top 6, no Neuberg: every table has a score).
"""

from __future__ import annotations

import json

import pytest

from ledger.cli import main
from test_adjusted import append, by_table, db, log_length, opened, played, results_json  # noqa: F401

T = "appeal"
DIRECTOR_AWARD = {"type": "AdjustedScoreAwarded", "kind": "assigned", "id": "td-award",
                  "results": [{"side": "both", "contract": "4S", "declarer": "N", "tricks": 10}],
                  "text": "W's slow pass: E's double suggested; without it 4S makes", "law": "2017:12C1b"}


def field(append):
    append(f"{T}/t1/b1", [opened(T, 1)] + played("4S", 10))  # +420
    append(f"{T}/t2/b1", [opened(T, 2)] + played("4S", 11))  # +450
    append(f"{T}/t3/b1", [opened(T, 3)] + played("4S", 9))   # -50
    append(f"{T}/t4/b1", [opened(T, 4)] + played("4S", 9) + [  # -50, then ruled
        {"type": "RightsReserved", "by": "N", "reason": "W's hesitation before passing"}])
    append(f"{T}/t4/b1", [DIRECTOR_AWARD])


def mps(doc):
    r = by_table(doc)
    return {t: (r[t]["mp_ns"], r[t]["mp_ew"]) for t in sorted(r)}


def test_a_board_ruled_appealed_and_changed_by_the_committee(db, append, capsys):
    field(append)
    # Before the appeal: T4 is 4S= (+420), a tie with T1: T1 and T4 beat T3 (2) tie each other (1)
    # and lose to T2 (0): 3 of 6; T2 6; T3 0.
    before = results_json(capsys, T)
    assert mps(before) == {"1": (3.0, 3.0), "2": (6.0, 0.0), "3": (0.0, 6.0), "4": (3.0, 3.0)}
    append(f"{T}/t4/b1", [{"type": "AppealLodged", "side": "EW", "text": "the pass was in tempo", "id": "appeal"}])
    assert mps(results_json(capsys, T)) == mps(before)  # an appeal alone changes nothing
    append(f"{T}/t4/b1", [{"type": "AppealDecided", "decision": "changed", "id": "decided",
                           "text": "UI established; 4S makes only half the time"}])
    capsys.readouterr()
    assert main(["state", f"{T}/t4/b1", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["appeals"][0]["awaiting_committee_score"] is True
    assert state["adjusted"]["by"] == "director"  # still the director's, until the committee's own score
    append(f"{T}/t4/b1", [{"type": "AdjustedScoreAwarded", "kind": "weighted", "id": "ac-award",
                           "results": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": "1/2"},
                                       {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "1/2"}],
                           "text": "committee: half 4S=, half 4S-1", "law": "2017:12C1c",
                           "actor": {"role": "committee", "name": "AC"}}])
    # After: T4 = 0.5 x (420: tie T1 1, lose T2 0, beat T3 2 = 3) + 0.5 x (-50: 0 + 0 + tie T3 1 = 1) = 2
    # T1: lose T2 0, beat T3 2, T4 half a tie 0.5 and half a win 1 = 3.5; T3: 0.5 x 1 = 0.5
    after = results_json(capsys, T)
    assert mps(after) == {"1": (3.5, 2.5), "2": (6.0, 0.0), "3": (0.5, 5.5), "4": (2.0, 4.0)}
    assert by_table(after)["4"]["adjusted"]["kind"] == "weighted"
    capsys.readouterr()
    assert main(["state", f"{T}/t4/b1", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["adjusted"]["by"] == "committee" and state["adjusted"]["law"] == "2017:12C1c"
    assert state["appeals"][0]["awaiting_committee_score"] is False
    assert [d["type"] for d in state["decisions"]] == ["AdjustedScoreAwarded", "AppealLodged", "AppealDecided",
                                                       "AdjustedScoreAwarded"]
    # The history: every decision in the log and in the case file, none deleted
    assert main(["casefile", f"{T}/t4/b1", "--format", "json"]) == 0
    case = json.loads(capsys.readouterr().out)
    history = [(d["type"], d["actor"]["role"], d["status"]) for d in case["decisions"]]
    ac_seq = state["adjusted"]["seq"]
    assert history == [("AdjustedScoreAwarded", "director", f"replaced by seq {ac_seq}"),
                       ("AppealLodged", "committee", "recorded"), ("AppealDecided", "committee", "recorded"),
                       ("AdjustedScoreAwarded", "committee", "in force")]
    assert [e["mp_ns"] for e in case["traveller"]] == [3.5, 6.0, 0.5, 2.0]
    assert main(["casefile", f"{T}/t4/b1"]) == 0
    page = capsys.readouterr().out
    assert 'id="decisions"' in page and "replaced by seq" in page and "by the committee" in page


def test_a_committee_override_of_the_directors_score_restores_the_table_result(db, append, capsys):
    field(append)
    append(f"{T}/t4/b1", [{"type": "AppealLodged", "side": "NS", "text": "no hesitation"},
                          {"type": "AppealDecided", "decision": "changed", "text": "no UI: the table result stands"},
                          {"type": "RulingOverridden", "about": "td-award", "text": "the committee cancels the award",
                           "actor": {"role": "committee"}}])
    after = results_json(capsys, T)
    # T4 is -50 again, a tie with T3: T3 and T4 1 each, T1 4, T2 6
    assert mps(after) == {"1": (4.0, 2.0), "2": (6.0, 0.0), "3": (1.0, 5.0), "4": (1.0, 5.0)}
    assert by_table(after)["4"]["score_ns"] == -50
    capsys.readouterr()
    assert main(["casefile", f"{T}/t4/b1", "--format", "json"]) == 0
    case = json.loads(capsys.readouterr().out)
    award = next(d for d in case["decisions"] if d["type"] == "AdjustedScoreAwarded")
    assert award["status"].startswith("cancelled by seq") and award["status"].endswith("(committee)")
    assert case["appeal_status"][0]["followed_by"] is not None


def test_an_upheld_appeal_keeps_the_ruling_and_the_director_cannot_change_it_afterwards(db, append, capsys):
    field(append)
    append(f"{T}/t4/b1", [{"type": "AppealLodged", "side": "EW", "text": "x"},
                          {"type": "AppealDecided", "decision": "upheld", "text": "the ruling stands"}])
    before = results_json(capsys, T)
    assert by_table(before)["4"]["score_ns"] == 420
    append(f"{T}/t4/b1", [{"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A", "ew": "A",
                           "text": "the director tries again", "law": "2017:12C2"}])
    assert mps(results_json(capsys, T)) == mps(before)  # not applied: the committee has decided
    capsys.readouterr()
    assert main(["state", f"{T}/t4/b1", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["adjusted"]["by"] == "director" and state["adjusted"]["kind"] == "assigned"
    assert [i["kind"] for i in state["irregularities"]] == ["adjustment_not_applied"]
    assert main(["casefile", f"{T}/t4/b1", "--format", "json"]) == 0
    last = json.loads(capsys.readouterr().out)["decisions"][-1]
    assert last["status"].startswith("not applied: the appeals committee decided at seq")


def test_an_appeal_decision_by_the_director_is_refused_and_nothing_is_written(db, append, capsys):
    field(append)
    append(f"{T}/t4/b1", [{"type": "AppealLodged", "side": "EW", "text": "x"}])
    before = log_length(capsys, f"{T}/t4/b1")
    out = append(f"{T}/t4/b1", [{"type": "AppealDecided", "decision": "changed", "text": "x",
                                 "actor": {"role": "director", "name": "TD"}}], code=4)
    assert "role 'director' may not append AppealDecided (only committee)" in out.err
    out = append(f"{T}/t4/b1", [{"type": "AppealDecided", "decision": "reversed", "text": "x"}], code=2)
    assert "'decision'" in out.err and "'reversed'" in out.err
    assert log_length(capsys, f"{T}/t4/b1") == before


def test_the_rights_reserved_come_back_to_the_director_when_play_has_ended(db, append, capsys):
    field(append)
    capsys.readouterr()
    assert main(["log", f"{T}/t4/b1", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    review = [e for e in events if e["type"] == "DirectorReviewRequired"]
    assert len(review) == 1 and review[0]["law"] == "2017:16B2"
    assert "N reserved the right" in review[0]["data"]["reason"]
    # the award answers it: the state has no open question left
    assert main(["state", f"{T}/t4/b1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["review"] == []


@pytest.mark.parametrize("laws, role, applied", [("1997", "director", False), ("1997", "committee", True),
                                                 ("2017", "director", True)])
def test_weighted_scores_under_1997_are_the_committees(db, append, capsys, laws, role, applied):
    append(f"{T}/t1/b1", [opened(T, 1, laws=laws)] + played("4S", 9))
    append(f"{T}/t1/b1", [{"type": "AdjustedScoreAwarded", "kind": "weighted", "law": f"{laws}:12C3",
                           "results": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": 0.5},
                                       {"contract": "4S", "declarer": "N", "tricks": 9, "weight": 0.5}],
                           "text": "equity", "actor": {"role": role}}])
    capsys.readouterr()
    assert main(["state", f"{T}/t1/b1", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["adjusted"] is not None) is applied
    if not applied:
        assert state["irregularities"][0]["law"] == "1997:12C3"


def test_the_readme_example_runs(db, append, capsys):
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adjusted scores, appeals and results", 1)[1]
    block = next(b for b in re.findall(r"```jsonl\n(.*?)```", section, flags=re.S) if "AdjustedScoreAwarded" in b)
    facts = [json.loads(line) for line in block.strip().splitlines()]
    append("paris/t4/b1", [opened("paris", 4)] + played("4S", 9))
    append("paris/t4/b1", facts)
    capsys.readouterr()
    assert main(["state", "paris/t4/b1", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["adjusted"]["kind"], state["adjusted"]["by"]) == ("weighted", "committee")
    assert state["appeals"][0]["followed_by"] == state["adjusted"]["seq"]


def test_the_appeal_case_file_renders_in_headless_chromium(db, append, capsys, tmp_path):
    import shutil
    import subprocess

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("headless Chromium not installed (Debian package chromium)")
    field(append)
    append(f"{T}/t4/b1", [{"type": "AppealLodged", "side": "EW", "text": "x"},
                          {"type": "AppealDecided", "decision": "upheld", "text": "the ruling stands"}])
    page = tmp_path / "case.html"
    assert main(["casefile", f"{T}/t4/b1", "-o", str(page)]) == 0
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync",
                          f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'id="decisions"' in dom.stdout and "id=\"traveller\"" in dom.stdout
    assert "AppealDecided" in dom.stdout and "in force" in dom.stdout and "2017:12C1b" in dom.stdout
