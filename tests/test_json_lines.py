"""Input as JSON defines it (issue 26, item 3), on both stores: JSON Lines are
split on line feeds only (a carriage return before one removed), so U+2028,
U+2029 and U+0085 inside a string are characters, not line ends; the ledger's
own ``log --json`` output of every scenario file, sent back to ``append``, is a
retry (no-ops, nothing written); every value past a limit is named by its
field path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from ledger import limits
from ledger.cli import main
from ledger.scenario import SCENARIO_KEYS, scenario_lines
from ledger.service import Ledger, json_lines, parse_fact

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.jsonl"))
DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
ODD = "\u2028\u2029\u0085"


@pytest.fixture
def db(store_url, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    return store_url


def count(url):
    ledger = Ledger.open(url)
    try:
        return sum(1 for _ in ledger.store.iter_all())
    finally:
        ledger.close()


def test_split_lines_cuts_at_line_feeds_only():
    text = '{"a": "x\u2028y"}\r\n{"b": "z\u0085\u2029"}\n\n{"c": 1}'
    assert limits.split_lines(text) == ['{"a": "x\u2028y"}', '{"b": "z\u0085\u2029"}', "", '{"c": 1}']
    assert [obj for _n, obj in json_lines(text)] == [{"a": "x\u2028y"}, {"b": "z\u0085\u2029"}, {"c": 1}]
    assert [n for n, _obj in json_lines(text)] == [1, 2, 4]  # line numbers as an editor counts them


def test_u2028_inside_strings_is_stored_intact_and_log_json_sent_back_is_a_retry(db, capsys, tmp_path):
    """Text pasted from a web page: raw U+2028, U+2029 and U+0085 inside strings, CRLF line ends."""
    lines = [
        json.dumps({"type": "BoardOpened", "tournament": "club", "board": 3, "table": "1", "deal": DEAL,
                    "ns": f"Martin{ODD}Durand", "id": "b3-1"}, ensure_ascii=False),
        json.dumps({"type": "RulingGiven", "laws": ["2017:12C1"], "text": f"first line{ODD}second line",
                    "actor": {"role": "director", "name": f"TD{ODD}"}, "id": "b3-2"}, ensure_ascii=False),
    ]
    raw = tmp_path / "pasted.jsonl"
    raw.write_bytes("\r\n".join(lines).encode("utf-8") + b"\r\n")
    code, out, err = run(capsys, "append", "club/b3", str(raw))
    assert code == 0, err
    code, out, err = run(capsys, "log", "club/b3", "--json")
    assert code == 0 and ODD in out  # written raw (ensure_ascii=False), as a paste would be
    envelopes = [json.loads(line) for line in out.split("\n") if line]
    assert envelopes[0]["data"]["ns"] == f"Martin{ODD}Durand"
    assert envelopes[1]["data"]["text"] == f"first line{ODD}second line"
    assert envelopes[1]["actor"]["name"] == f"TD{ODD}"
    before = count(db)
    again = tmp_path / "again.jsonl"
    again.write_text(out, encoding="utf-8")
    code, out2, err = run(capsys, "append", "club/b3", str(again))
    assert code == 0, err
    assert out2.startswith("already stored (retry): seq 1 2")
    assert count(db) == before


def test_an_envelope_that_is_not_stored_or_differs_is_refused_naming_the_field(db, capsys, tmp_path):
    line = json.dumps({"type": "BoardOpened", "tournament": "club", "board": 3, "table": "1", "deal": DEAL,
                       "id": "b3-1"})
    (tmp_path / "a.jsonl").write_text(line + "\n")
    assert run(capsys, "append", "club/b3", str(tmp_path / "a.jsonl"))[0] == 0
    _c, out, _e = run(capsys, "log", "club/b3", "--json")
    env = json.loads(out.splitlines()[0])
    before = count(db)
    for changed, field in (({"id": "nope"}, "id"), ({"data": {**env["data"], "board": 4}}, "data"),
                           ({"stream": "club/b4"}, "stream")):
        (tmp_path / "b.jsonl").write_text(json.dumps({**env, **changed}) + "\n")
        code, _o, err = run(capsys, "append", "club/b3", str(tmp_path / "b.jsonl"))
        assert code == 2 and f"field '{field}'" in err and err.startswith("error: line 1"), err
    assert count(db) == before


def _replay_into(url: str, path: Path, stream: str) -> None:
    """The scenario's facts appended one by one (as ``replay`` does), to ``stream``."""
    ledger = Ledger.open(url)
    try:
        seq = 0
        for number, obj in scenario_lines(path.read_text(encoding="utf-8")):
            if "type" not in obj or "expect_error" in obj:
                continue
            fact = parse_fact({k: v for k, v in obj.items() if k not in SCENARIO_KEYS}, number)
            result = ledger.append(stream, [fact], expected_seq=seq)
            if result.stored:
                seq = result.stored[-1].seq
    finally:
        ledger.close()


def test_log_json_of_every_scenario_file_sent_back_is_a_no_op(db, backend, capsys, tmp_path):
    """Every scenario file on SQLite; on PostgreSQL every eighth (the same code path; the
    whole list would take minutes there)."""
    chosen = SCENARIOS if backend.name == "sqlite" else SCENARIOS[::8]
    assert len(chosen) > 30
    for i, path in enumerate(chosen):
        stream = f"retry/{i}"
        _replay_into(db, path, stream)
        code, out, err = run(capsys, "log", stream, "--json")
        assert code == 0, (path.name, err)
        before = count(db)
        (tmp_path / "back.jsonl").write_text(out, encoding="utf-8")
        code, again, err = run(capsys, "append", stream, str(tmp_path / "back.jsonl"))
        assert code == 0, (path.name, err)
        assert again.startswith("already stored (retry): seq 1 "), (path.name, again)
        assert count(db) == before, path.name


FIELD_PATHS = {
    "board-digits": ('{"type": "BoardOpened", "tournament": "c", "board": ' + "9" * 5000
                     + f', "deal": "{DEAL}"}}', "board", "at most 20 digits"),
    "board-beyond-2**53": ('{"type": "BoardOpened", "tournament": "c", "board": 9007199254740993, '
                           f'"deal": "{DEAL}"}}', "board", "an integer must be between"),
    "tricks-digits": ('{"type": "ClaimMade", "seat": "S", "tricks": ' + "1" * 30 + "}", "tricks",
                      "at most 20 digits"),
    "tricks-float-overflow": ('{"type": "ClaimMade", "seat": "S", "tricks": 1e400}', "tricks", "finite"),
    "tricks-nan": ('{"type": "ClaimMade", "seat": "S", "tricks": NaN}', "tricks", "finite"),
    "about-infinity": ('{"type": "RulingOverridden", "about": -Infinity, "text": "x"}', "about", "finite"),
    "about-huge": ('{"type": "RulingOverridden", "about": ' + "7" * 25 + ', "text": "x"}', "about",
                   "at most 20 digits"),
    "nested-path": ('{"type": "CallPlaced", "seat": "S", "call": "1NT", "extra": {"a": [1, {"b": '
                    + "2" * 40 + "}]}}", "extra.a[1].b", "at most 20 digits"),
    "deep-line": ('{"type": "CallPlaced", "x": ' + "[" * 5000 + "]" * 5000 + "}", "x" + "[0]" * 15,
                  "nested deeper than 16"),
    "deep-keys": ('{"type": "CallPlaced", "x": ' + '{"k": ' * 3000 + "1" + "}" * 3000 + "}",
                  "x" + ".k" * 15, "nested deeper than 16"),
    "long-string": ('{"type": "ClaimMade", "seat": "S", "tricks": 9, "statement": "'
                    + "s" * (limits.MAX_STRING + 1) + '"}', "statement", "the limit is 10000"),
}


@pytest.mark.parametrize("name", list(FIELD_PATHS))
def test_each_limit_names_the_field_path(db, capsys, tmp_path, name):
    line, field, reason = FIELD_PATHS[name]
    opened = json.dumps({"type": "BoardOpened", "tournament": "club", "board": 11, "table": "3", "deal": DEAL})
    (tmp_path / "in.jsonl").write_text(opened + "\n" + line + "\n", encoding="utf-8")
    code, _out, err = run(capsys, "append", "b/1", str(tmp_path / "in.jsonl"))
    assert code == 2, err
    assert err.startswith("error: line 2") and "Traceback" not in err
    assert f"field {field!r}" in err, err
    assert reason in err, err
    assert len(err) < 700
    assert run(capsys, "log", "b/1", "--json")[0] != 0  # nothing written: the stream does not exist
