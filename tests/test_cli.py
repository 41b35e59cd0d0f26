"""The command line of spec section 8, as a user runs it: exit codes, messages
naming the line, the field and the value, and nothing written on refusal."""

import json
import random

import pytest
from cli_helpers import init_db, run

from ledger.simulate import random_board

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
OPEN = {"type": "BoardOpened", "tournament": "club", "board": 11, "table": "3", "deal": DEAL}
AUCTION = [{"type": "CallPlaced", "seat": s, "call": c}
           for s, c in (("S", "1NT"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass"))]


@pytest.fixture
def db(tmp_path, monkeypatch):
    return init_db(tmp_path, monkeypatch)


def write(tmp_path, lines, name="in.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return str(path)


def log_seqs(capsys, stream):
    code, out, _ = run(capsys, "log", stream, "--json")
    return [json.loads(line)["seq"] for line in out.splitlines()] if code == 0 else []


def test_append_then_state_json_shows_the_board(db, tmp_path, capsys):
    code, out, _ = run(capsys, "append", "club/t3/b11", write(tmp_path, [OPEN] + AUCTION))
    assert code == 0 and out.split()[0] == "1"
    code, out, _ = run(capsys, "state", "club/t3/b11", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["phase"] == "opening_lead" and doc["turn"] == "W"
    assert doc["contract"]["declarer"] == "S" and doc["integrity"]["verified"] is True
    assert set(doc) >= {"stream", "seq", "laws", "board", "phase", "turn", "auction", "calls_not_made",
                        "contract", "dummy", "tricks", "plays_not_made", "hands", "penalty_cards",
                        "lead_restrictions", "partner_must_pass", "caps", "pending", "irregularities",
                        "tricks_won", "transfers", "result", "adjusted", "review", "integrity"}


def test_state_at_seq_is_the_state_after_that_event(db, tmp_path, capsys):
    run(capsys, "append", "s/1", write(tmp_path, [OPEN] + AUCTION))
    code, out, _ = run(capsys, "state", "s/1", "--json", "--at", "2")
    doc = json.loads(out)
    assert doc["seq"] == 2 and doc["phase"] == "auction" and doc["turn"] == "W"
    code, _, err = run(capsys, "state", "s/1", "--at", "99")
    assert code == 2 and "99" in err


def test_a_complete_board_prints_a_readable_state(db, tmp_path, capsys):
    board = random_board(random.Random(7), board=5, tournament="club")
    run(capsys, "append", "club/b5", write(tmp_path, board.facts))
    code, out, _ = run(capsys, "state", "club/b5")
    assert code == 0
    assert "North" in out and "South" in out and "Result:" in out
    assert f"{board.score_ns:+d}".lstrip("+") in out.replace("+", "")


def test_engine_records_the_result_when_play_ends(db, tmp_path, capsys):
    board = random_board(random.Random(11), board=2)
    code, out, _ = run(capsys, "append", "b2", write(tmp_path, board.facts))
    assert code == 0
    last = out.splitlines()[-1]
    assert "ResultRecorded" in last and "2017:77" in last
    code, out, _ = run(capsys, "log", "b2", "--json")
    envelopes = [json.loads(line) for line in out.splitlines()]
    recorded = envelopes[-1]
    assert recorded["actor"] == {"role": "system", "name": "ruling-engine"}
    assert recorded["data"]["score_ns"] == board.score_ns and recorded["law"] == "2017:77"
    assert recorded["causes"] == [envelopes[-2]["seq"]]
    # The chain links every event to the previous one.
    assert all(b["prev"] == a["hash"] for a, b in zip(envelopes, envelopes[1:]))


BAD_LINES = [
    ("{not json", "line 2", "malformed JSON"),
    ({"type": "CardShown", "seat": "W", "card": "C9"}, "field 'type', value 'CardShown'", "unknown event type"),
    ({"type": "CallPlaced", "seat": "S"}, "field 'call'", "missing field"),
    ({"type": "CallPlaced", "seat": "S", "call": "1S", "colour": "red"}, "field 'colour'", "unknown field"),
    ({"type": "CallPlaced", "seat": "Q", "call": "1S"}, "field 'seat', value 'Q'", "not a seat"),
    ({"type": "CallPlaced", "seat": "S", "call": "10S"}, "field 'call', value '10S'", "not a call"),
    ({"type": "CardPlayed", "seat": "W", "card": "C1"}, "field 'card', value 'C1'", "not a card"),
    (OPEN, "field 'type', value 'BoardOpened'", "already opened"),
    ({"type": "CardPlayed", "seat": "W", "card": "SA"}, "field 'card', value 'SA'", "was not dealt SA"),
    ([1, 2], "line 2", "JSON object"),
    ({"type": "DummyCardCalled", "rank": "tall"}, "field 'rank', value 'tall'", "designation"),
    ({"type": "DummyCardCalled", "suit": "X", "rank": "low"}, "field 'suit', value 'X'", "not a suit"),
    ({"type": "OptionChosen", "seat": "E", "option": ""}, "field 'option', value ''", "expected an option id"),
]


@pytest.mark.parametrize("bad, names, reason", BAD_LINES, ids=[r for _, _, r in BAD_LINES])
def test_bad_input_is_exit_2_naming_line_field_value_and_nothing_is_written(db, tmp_path, capsys, bad, names, reason):
    run(capsys, "append", "s", write(tmp_path, [OPEN], "open.jsonl"))
    code, out, err = run(capsys, "append", "s", write(tmp_path, [AUCTION[0], bad, AUCTION[1]]))
    assert code == 2, err
    assert "line 2" in err and names in err and reason in err
    assert log_seqs(capsys, "s") == [1]


def test_a_card_already_played_is_refused(db, tmp_path, capsys):
    lead = {"type": "CardPlayed", "seat": "W", "card": "C9"}
    run(capsys, "append", "s", write(tmp_path, [OPEN] + AUCTION + [lead]))
    code, _, err = run(capsys, "append", "s", write(tmp_path, [lead]))
    assert code == 2 and "already played (seq 6)" in err and "'C9'" in err
    assert log_seqs(capsys, "s") == [1, 2, 3, 4, 5, 6]


def test_an_event_before_board_opened_is_refused(db, tmp_path, capsys):
    code, _, err = run(capsys, "append", "fresh", write(tmp_path, AUCTION[:1]))
    assert code == 2 and "line 1" in err and "must be BoardOpened" in err
    code, _, _ = run(capsys, "log", "fresh")
    assert code == 2  # no such stream: nothing was written


@pytest.mark.parametrize("deal, reason", [
    ("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ962", "14 cards"),
    ("N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ92", "dealt twice"),
])
def test_an_illegal_deal_is_refused(db, tmp_path, capsys, deal, reason):
    code, _, err = run(capsys, "append", "s", write(tmp_path, [dict(OPEN, deal=deal)]))
    assert code == 2 and "field 'deal'" in err and reason in err


def test_a_stale_expected_seq_is_exit_3_and_nothing_written(db, tmp_path, capsys):
    run(capsys, "append", "s", write(tmp_path, [OPEN]))
    code, _, _ = run(capsys, "append", "s", write(tmp_path, AUCTION[:1]), "--expected-seq", "1")
    assert code == 0
    code, _, err = run(capsys, "append", "s", write(tmp_path, AUCTION[1:2]), "--expected-seq", "1")
    assert code == 3 and "expected seq 1" in err and "seq 2" in err
    assert log_seqs(capsys, "s") == [1, 2]


@pytest.mark.parametrize("line, role", [
    (dict(AUCTION[0], actor={"role": "system"}), "system"),
    (dict(AUCTION[0], actor={"role": "committee", "name": "AC"}), "committee"),
    ({"type": "FindingMade", "about": 1, "field": "intentional", "value": False,
      "actor": {"role": "table", "name": "t3"}}, "table"),
    ({"type": "ResultRecorded", "contract": "1NT", "risk": "", "score_ns": 90,
      "actor": {"role": "director"}}, "director"),
])
def test_a_role_not_allowed_is_exit_4_naming_role_and_type(db, tmp_path, capsys, line, role):
    run(capsys, "append", "s", write(tmp_path, [OPEN]))
    code, _, err = run(capsys, "append", "s", write(tmp_path, [line]))
    assert code == 4 and f"'{role}'" in err and line["type"] in err
    assert log_seqs(capsys, "s") == [1]


def test_an_unknown_role_is_bad_input(db, tmp_path, capsys):
    run(capsys, "append", "s", write(tmp_path, [OPEN]))
    code, _, err = run(capsys, "append", "s", write(tmp_path, [dict(AUCTION[0], actor={"role": "kibitzer"})]))
    assert code == 2 and "actor.role" in err and "kibitzer" in err


def test_a_retried_event_id_answers_the_stored_seq(db, tmp_path, capsys):
    run(capsys, "append", "s", write(tmp_path, [OPEN]))
    line = dict(AUCTION[0], id="t3-call-1")
    assert run(capsys, "append", "s", write(tmp_path, [line]))[0] == 0
    code, out, _ = run(capsys, "append", "s", write(tmp_path, [line]), "--expected-seq", "1")
    assert code == 0 and "retry" in out and "seq 2" in out
    code, _, err = run(capsys, "append", "s", write(tmp_path, [dict(line, call="2S")]))
    assert code == 2 and "other content" in err
    assert log_seqs(capsys, "s") == [1, 2]


def test_verify_names_the_stream_and_exit_0_when_intact(db, tmp_path, capsys):
    run(capsys, "append", "a", write(tmp_path, [OPEN] + AUCTION))
    code, out, _ = run(capsys, "verify")
    assert code == 0 and "1 stream" in out
    code, out, _ = run(capsys, "verify", "a")
    assert code == 0


def test_log_readable_and_json(db, tmp_path, capsys):
    run(capsys, "append", "a", write(tmp_path, [OPEN] + AUCTION))
    code, out, _ = run(capsys, "log", "a", "--json")
    first = json.loads(out.splitlines()[0])
    assert first["seq"] == 1 and first["type"] == "BoardOpened" and first["prev"] == "0" * 64
    assert first["data"]["dealer"] == "S" and first["data"]["vulnerability"] == "None"
    assert list(first) == ["stream", "seq", "position", "id", "type", "v", "data", "actor", "at",
                           "causes", "law", "prev", "hash"]
    code, out, _ = run(capsys, "log", "a")
    assert code == 0 and "BoardOpened" in out and "CallPlaced" in out


def test_replay_runs_a_scenario_through_a_fresh_in_memory_ledger(tmp_path, capsys):
    board = random_board(random.Random(3), board=9)
    code, out, _ = run(capsys, "replay", write(tmp_path, board.facts), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["phase"] == "ended" and doc["result"]["score_ns"] == board.score_ns
    code, out, _ = run(capsys, "replay", write(tmp_path, board.facts), "--json", "--at", "3")
    assert json.loads(out)["seq"] == 3


def test_replay_of_a_bad_scenario_names_the_line(tmp_path, capsys):
    code, _, err = run(capsys, "replay", write(tmp_path, [OPEN, AUCTION[0], {"type": "CallPlaced", "seat": "W"}]))
    assert code == 2 and "line 3" in err and "'call'" in err


def test_rebuild_refolds_and_finds_the_snapshots_equal(db, tmp_path, capsys):
    board = random_board(random.Random(5), board=3)
    run(capsys, "append", "a", write(tmp_path, board.facts[:30]))
    run(capsys, "append", "a", write(tmp_path, board.facts[30:]))
    code, out, _ = run(capsys, "rebuild")
    assert code == 0 and "rebuilt 1 stream(s); 0 snapshot(s) differed" in out


def test_bench_prints_the_spec_figures_as_json(capsys, monkeypatch):
    monkeypatch.delenv("LEDGER_DB", raising=False)
    code, out, _ = run(capsys, "bench", "--boards", "3", "--json")
    figures = json.loads(out)
    assert code == 0
    for key in ("events", "append_per_event_eps", "append_per_board_eps", "replay_eps",
                "append_event_ms_p50", "append_event_ms_p99", "fold_board_ms_p50"):
        assert figures[key] > 0, key
    assert figures["events"] >= 3 * 60
    assert figures["claim_floor_tricks"] == 5 and figures["claim_floor_positions"] == 1000  # issue 22: G's cost
    assert 0 < figures["claim_floor_ms_p50"] <= figures["claim_floor_ms_p99"] <= figures["claim_floor_ms_max"]


def test_bench_claim_floor_alone(capsys):
    """``bench --claim-floor``: G's cost alone (issue 22 item 2), the slowest position named so it
    can be replayed, and the load beside the figures."""
    from ledger.bridge import Card, Seat, Side, Suit
    from ledger.laws.fewest import fewest_tricks

    code, out, _ = run(capsys, "bench", "--claim-floor", "--positions", "10", "--json")
    figures = json.loads(out)
    assert code == 0 and figures["claim_floor_positions"] == 20 and len(figures["claim_floor_load"]) == 3
    assert figures["claim_floor_ms_p50"] <= figures["claim_floor_ms_max"] == figures["claim_floor_worst"]["ms"]
    worst = figures["claim_floor_worst"]
    hands = [[Card.parse(c) for c in worst[seat].split()] for seat in "NESW"]
    assert all(len(hand) == 5 for hand in hands)
    trump = None if worst["strain"] == "NT" else Suit.parse(worst["strain"])
    assert fewest_tricks(hands, [], Seat.parse(worst["leader"]), trump, Side.parse(worst["side"])) == worst["floor"]


def test_claim_floor_figures_at_the_exact_limit():
    """Below the engine's exact limit, the figures at the limit are timed too (``claim_floor_at_limit``)."""
    from ledger.bench.appends import claim_floor_figures
    from ledger.laws.fewest import EXACT_LIMIT

    figures = claim_floor_figures(positions=3, tricks=EXACT_LIMIT - 1, at_limit=2)
    assert figures["claim_floor_tricks"] == EXACT_LIMIT - 1 and figures["claim_floor_positions"] == 6
    deeper = figures["claim_floor_at_limit"]
    assert deeper["tricks"] == EXACT_LIMIT and deeper["positions"] == 4
    assert len(deeper["worst"]["N"].split()) == EXACT_LIMIT
    assert claim_floor_figures(positions=1, tricks=EXACT_LIMIT, at_limit=2)["claim_floor_at_limit"] is None


def test_a_missing_file_is_bad_input(db, capsys):
    code, _, err = run(capsys, "append", "s", "no-such-file.jsonl")
    assert code == 2 and "no-such-file.jsonl" in err


def test_bench_without_db_leaves_no_ledger_file_behind(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("LEDGER_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "bench", "--boards", "1", "--json")
    assert code == 0 and json.loads(out)["store"] == "sqlite (temporary file)"
    assert list(tmp_path.iterdir()) == []


def test_the_demo_logs_the_disputed_board_prints_the_ruling_and_appends_nothing_twice(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", f"sqlite:///{tmp_path / 'demo.db'}")
    code, out, _ = run(capsys, "demo")
    assert code == 0
    assert "Tricks transferred: 1 trick to declarer — 2017:64A2" in out
    assert "4H S +2), NS +680" in out and "NS +420" in out
    assert "Appeal by EW (seq 72): upheld at seq 73" in out
    code, out, _ = run(capsys, "state", "demo/club/b5", "--json")
    doc = json.loads(out)
    assert doc["result"]["score_ns"] == 680 and doc["transfers"]
    code, out, _ = run(capsys, "demo")
    assert code == 0 and out.count("already in the ledger") == 2
    assert log_seqs(capsys, "demo/club/b5")[-1] == 73
