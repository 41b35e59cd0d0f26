"""A director's results (issue 15): boards found by their BoardOpened, the checks before
publication, open rulings with their waiting times, pairs rankings as directors expect."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from test_adjusted import opened, played

from ledger.cli import main
from ledger.service import Ledger
from ledger.tournament import event_times, tournament_tables
from projections.results import field_checks, results
from projections.waiting import open_rulings, waited_text, waiting


@pytest.fixture
def ledger():
    led = Ledger.open("sqlite:///:memory:", create=True)
    yield led
    led.close()


def test_a_board_is_in_the_field_by_its_board_opened_whatever_its_stream_is_called(ledger):
    ledger.append("club/t1/b1", [opened("Club Pairs", 1)] + played("4S", 10))
    ledger.append("misnamed/x", [opened("Club Pairs", 2)] + played("4S", 9))  # no slug prefix
    ledger.append("club/t9/b1", [opened("Another event", 9)] + played("4S", 10))  # the slug, not the event
    found = [stream for stream, _ in tournament_tables(ledger, "Club Pairs")]
    assert found == ["club/t1/b1", "misnamed/x"]
    assert [s for s, _ in tournament_tables(ledger, "club-pairs")] == found  # the slug finds it too
    doc = results("Club Pairs", tournament_tables(ledger, "Club Pairs"))
    assert {r["table"]: r["mp_ns"] for r in doc["boards"][0]["results"]} == {"1": 2.0, "2": 0.0}


def test_the_checks_list_a_table_claimed_twice_and_a_pair_playing_a_board_twice(ledger):
    ledger.append("a/1", [opened("T", 1)] + played("4S", 10))
    ledger.append("b/1", [opened("T", 1, ns="NS2", ew="EW2")] + played("4S", 10))  # table 1 again
    ledger.append("c/3", [opened("T", 3, ns="NS1", ew="EW3")] + played("4S", 9))  # NS1 again
    checks = field_checks(tournament_tables(ledger, "T"))
    assert [(c["kind"], c["streams"]) for c in checks] == [
        ("same_table", ["a/1", "b/1"]), ("played_twice", ["a/1", "c/3"])]
    assert checks[1]["text"] == "board 1: NS1 played it 2 times"


def test_a_board_in_progress_is_shown_as_such_not_as_not_played(ledger):
    ledger.append("t/1", [opened("T", 1)] + played("4S", 10))
    ledger.append("t/2", [opened("T", 2)] + played("4S", 10)[:3])  # the auction under way
    ledger.append("t/3", [opened("T", 3)])  # not started
    doc = results("T", tournament_tables(ledger, "T"))
    status = {r["table"]: r["status"] for r in doc["boards"][0]["results"]}
    assert status == {"1": "played", "2": "in progress", "3": "not played"}
    assert [c["kind"] for c in doc["checks"]] == ["in_progress"]


def test_open_questions_are_a_check_and_strict_refuses_to_publish(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'l.db'}"
    with Ledger.open(db, create=True) as led:
        led.append("t/1", [opened("T", 1)] + played("4S", 10))
        led.append("t/2", [opened("T", 2)] + played("4S", 10))
        led.append("t/2", [{"type": "AppealLodged", "side": "EW", "text": "the hesitation was normal"}])
    capsys.readouterr()
    assert main(["--db", db, "results", "T"]) == 0
    out = capsys.readouterr().out
    assert out.index("Before publishing (1 to check)") < out.index("T - board 1")
    assert "open director questions: appeal at seq" in out
    assert main(["--db", db, "results", "T", "--strict"]) == 1
    assert "results not published: 1 check(s) open (open_questions)" in capsys.readouterr().err


def test_open_lists_what_waits_with_how_long(ledger):
    ledger.append("t/1", [opened("T", 1)] + played("4S", 10))
    ledger.append("t/1", [{"type": "AppealLodged", "side": "EW", "text": "no damage"}])
    ledger.append("t/2", [opened("T", 2), {"type": "CallPlaced", "seat": "N", "call": "1C"},
                          {"type": "CallReplaced", "seat": "N", "call": "1S"}])  # no judgment logged
    boards = [(s, st, event_times(ledger, s)) for s, st in tournament_tables(ledger, "T")]
    appeal_at = datetime.fromisoformat(event_times(ledger, "t/1")[ledger.state("t/1")["seq"]].replace("Z", "+00:00"))
    now = appeal_at + timedelta(minutes=25)
    items = open_rulings(boards, now)
    kinds = {(w.stream, w.kind) for w in items}
    assert ("t/1", "appeal") in kinds
    assert any(stream == "t/2" for stream, _ in kinds)
    appeal = next(w for w in items if w.kind == "appeal")
    assert appeal.waited_s == pytest.approx(25 * 60, abs=1) and waited_text(appeal.waited_s) == "25 min"
    assert items == sorted(items, key=lambda w: -(w.waited_s or 0))


def test_an_answered_question_no_longer_waits(ledger):
    ledger.append("t/1", [opened("T", 1)] + played("4S", 10))
    ledger.append("t/1", [{"type": "AppealLodged", "side": "EW", "text": "no damage"}])
    ledger.append("t/1", [{"type": "AppealDecided", "decision": "upheld", "text": "no damage",
                           "actor": {"role": "committee"}}])
    state, _ = ledger.table_state("t/1")
    assert waiting("t/1", state) == []


def test_the_open_command_prints_the_list_and_json(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'l.db'}"
    with Ledger.open(db, create=True) as led:
        led.append("t/1", [opened("T", 1)] + played("4S", 10))
        led.append("t/1", [{"type": "AppealLodged", "side": "EW", "text": "no damage"}])
    capsys.readouterr()
    assert main(["--db", db, "open", "T", "--json"]) == 0
    (item,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (item["stream"], item["kind"], item["board"]) == ("t/1", "appeal", 1)
    assert item["since"] and item["waited_s"] >= 0
    assert main(["--db", db, "open"]) == 0
    assert "Waiting for the director (1)" in capsys.readouterr().out
    assert main(["--db", db, "open", "Nobody"]) == 2


def test_ties_share_a_rank_computed_from_unrounded_matchpoints(ledger):
    # Howell-like: pairs change direction, so one ranking
    ledger.append("h/1", [opened("H", 1, ns="A", ew="B")] + played("4S", 10))
    ledger.append("h/2", [opened("H", 2, ns="C", ew="D")] + played("4S", 10))
    ledger.append("h/3", [opened("H", 1, board=2, ns="B", ew="A")] + played("4S", 10))
    ledger.append("h/4", [opened("H", 2, board=2, ns="D", ew="C")] + played("4S", 10))
    doc = results("H", tournament_tables(ledger, "H"))
    assert all("direction" not in row for row in doc["standings"])
    assert {(row["name"], row["rank"], row["tied"]) for row in doc["standings"]} == {
        ("A", 1, True), ("B", 1, True), ("C", 1, True), ("D", 1, True)}


def _scenario_facts(name):
    """The facts of a scenario file (comments, expectations and refused lines left out)."""
    from pathlib import Path
    path = Path(__file__).parent / "scenarios" / name
    facts = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fact = json.loads(line)
        if "type" in fact and "expect_error" not in fact:
            facts.append({k: v for k, v in fact.items() if k != "comment"})
    return facts


@pytest.mark.parametrize("scenario, law", [("calls-27d-2017-score-stands.jsonl", "2017:27D"),
                                           ("calls-27b1b-1997-score-stands.jsonl", "1997:27B1b")])
def test_a_27d_question_closed_by_score_stands_lets_strict_publish(store_url, capsys, scenario, law):
    """2017 27D (1997 27B1(b)): the director's ruling citing the Law, the score standing, answers
    the end-of-play question without an adjusted score; before it ``results --strict`` refuses."""
    facts = _scenario_facts(scenario)
    ruling = next(i for i, f in enumerate(facts) if f["type"] == "RulingGiven" and law in f["laws"])
    assert facts[ruling]["id"] == "ruling" and "score stands" in facts[ruling]["text"]
    tournament = facts[0]["tournament"]
    facts[0] = {**facts[0], "ns": "NS1", "ew": "EW1"}  # the pairs, for the results
    with Ledger.open(store_url, create=True) as led:
        led.append("law27d/t1/b5", facts[:ruling])
        before = led.state("law27d/t1/b5")
    assert before["phase"] == "ended" and len(before["review"]) == 1
    assert law in (before["review"][0]["law"], before["review"][0]["reason"].split(" ")[0])
    capsys.readouterr()
    assert main(["--db", store_url, "open", tournament]) == 0
    assert law.split(":")[1] in capsys.readouterr().out
    assert main(["--db", store_url, "results", tournament, "--strict"]) == 1
    assert "results not published: 1 check(s) open (open_questions)" in capsys.readouterr().err
    with Ledger.open(store_url) as led:
        led.append("law27d/t1/b5", facts[ruling:])
        state = led.state("law27d/t1/b5")
    assert state["review"] == [] and state["adjusted"] is None
    assert state["result"]["text"] == {"2017:27D": "4H E =", "1997:27B1b": "4S N ="}[law]
    capsys.readouterr()
    assert main(["--db", store_url, "open", tournament]) == 0
    assert law.split(":")[1] not in capsys.readouterr().out
    assert main(["--db", store_url, "results", tournament, "--strict"]) == 0
    out = capsys.readouterr().out
    assert "open director questions" not in out
    assert {"2017:27D": "-420", "1997:27B1b": "620"}[law] in out


def test_a_ruling_citing_27b1a_does_not_answer_the_question_a_finding_answers(store_url):
    """2017 27B1a asked of the director (is 2H the lowest sufficient bid in the same denomination?):
    a finding answers it (the call is entered or not); a ruling citing 27B1a leaves it open."""
    facts = _scenario_facts("calls-27d-2017-score-stands.jsonl")[:5]
    facts[4] = {k: v for k, v in facts[4].items() if k != "same_denomination"}  # the table did not say
    with Ledger.open(store_url, create=True) as led:
        led.append("law27d/t1/b5", facts)
        asked = led.state("law27d/t1/b5")["review"]
        assert [r["reason"][:5] for r in asked] == ["27B1a"]
        led.append("law27d/t1/b5", [{"type": "RulingGiven", "laws": ["2017:27B1a"], "text": "play on"}])
        assert led.state("law27d/t1/b5")["review"] == asked
        led.append("law27d/t1/b5", [{"type": "FindingMade", "about": asked[0]["about"], "field": "same_denomination",
                                     "value": True}])
        assert [r["reason"][:3] for r in led.state("law27d/t1/b5")["review"]] == ["27D"]
