"""Bad input never escapes as a crash, on both stores: the documented limits
(line length, nesting, string length, numbers), control characters, lone
surrogates and invalid UTF-8 give exit 2 naming the line, the field and the
value (cut to a readable length), and nothing is written."""

from __future__ import annotations

import json

import pytest

from ledger import limits
from ledger.cli import main

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
OPEN = json.dumps({"type": "BoardOpened", "tournament": "club", "board": 11, "table": "3", "deal": DEAL})
CALL = '{"type": "CallPlaced", "seat": "S", "call": "1NT", "actor": {"role": "table", "name": %s}}'

BAD_LINES = {
    "nul-in-actor-name": (CALL % '"t\\u0000x"', "actor.name", "control character U+0000"),
    "bell-in-actor-name": (CALL % '"t\\u0007"', "actor.name", "control character U+0007"),
    "lone-surrogate": (CALL % '"\\ud800"', "actor.name", "lone surrogate"),
    "long-string": (CALL % json.dumps("x" * (limits.MAX_STRING + 1)), "actor.name", "characters; the limit"),
    "deep-nesting-line": ("[" * 100_000 + "]" * 100_000, "line", None),  # the line length
    "deep-nesting-field": (CALL % ('{"a":' * 30 + "1" + "}" * 30), "actor.name", "nested deeper"),
    "long-line": ('{"type": "CallPlaced", "pad": "' + "y" * limits.MAX_LINE + '"}', "line",
                  "characters long"),
    "huge-int-digits": ('{"type": "CallPlaced", "seat": "S", "call": "1NT", "n": ' + "9" * 5000 + "}",
                        "n", "at most 20 digits"),
    "int-beyond-2**53": ('{"type": "BoardOpened", "tournament": "c", "board": 9007199254740993, '
                         f'"deal": "{DEAL}"}}', "board", "an integer must be between"),
    "float-overflow": ('{"type": "CallPlaced", "seat": "S", "call": "1NT", "n": 1e400}', "n", "finite"),
    "nan": ('{"type": "CallPlaced", "seat": "S", "call": "1NT", "n": NaN}', "n", "finite"),
    "nul-in-key": ('{"type": "CallPlaced", "seat": "S", "call": "1NT", "a\\u0000": 1}', "a\x00", "control"),
}


@pytest.fixture
def db(store_url, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    return store_url


def append(capsys, tmp_path, lines, *, raw: bytes | None = None):
    path = tmp_path / "in.jsonl"
    if raw is None:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(raw)
    capsys.readouterr()
    code = main(["append", "b/1", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def stream_exists(capsys) -> bool:
    code = main(["log", "b/1", "--json"])
    capsys.readouterr()
    return code == 0


@pytest.mark.parametrize("name", list(BAD_LINES))
def test_bad_input_is_exit_2_naming_line_field_value_and_nothing_is_written(db, capsys, tmp_path, name):
    line, field, reason = BAD_LINES[name]
    code, _, err = append(capsys, tmp_path, [OPEN, line])
    assert code == 2, err
    assert "Traceback" not in err and err.startswith("error: line 2")
    assert f"field {field!r}" in err or f"field {field!r}"[:-1] + "." in err
    if reason:
        assert reason in err
    assert len(err) < 600, "the bad value is cut to a readable length"
    assert not stream_exists(capsys)


def test_a_2_mb_value_is_cut_in_the_message(db, capsys, tmp_path):
    big = "z" * 2_000_000
    code, _, err = append(capsys, tmp_path, [OPEN, CALL % json.dumps(big)])
    assert code == 2 and len(err) < 600 and "2000090 characters in all" in err
    assert "the limit is 65536" in err


def test_invalid_utf8_names_the_line_and_the_byte(db, capsys, tmp_path):
    raw = (OPEN + "\n" + CALL % '"t\xff"' + "\n").encode("utf-8").replace(b"\xc3\xbf", b"\xff")
    code, _, err = append(capsys, tmp_path, [], raw=raw)
    assert code == 2 and "line 2" in err and "not UTF-8" in err and "ff" in err
    assert not stream_exists(capsys)


def test_tab_newline_and_non_ascii_are_stored_intact_on_both_stores(db, capsys, tmp_path):
    name = "t12\tÉquipe «Nord»\nrow 2 ♠"
    code, _, err = append(capsys, tmp_path, [OPEN, CALL % json.dumps(name)])
    assert code == 0, err
    main(["log", "b/1", "--json"])
    envelopes = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert envelopes[1]["actor"]["name"] == name
    assert main(["verify"]) == 0


def test_the_limits_hold_on_the_api_path_too(db):
    from ledger.errors import BadInput
    from ledger.service import Ledger

    with Ledger.open(db) as led:
        with pytest.raises(BadInput, match="control character U\\+0000") as refused:
            led.append("b/2", [json.loads(OPEN), {"type": "CallPlaced", "seat": "S", "call": "1NT",
                                                  "actor": {"role": "table", "name": "a\x00b"}}])
        assert refused.value.line == 2 and refused.value.field == "actor.name"
        assert led.store.read("b/2") == []
