"""Entry errors corrected (``EntryVoided``, docs/EXTENSIONS.md "Voiding an entry"): a wrong
seat or card typed at a terminal is voided, stays in the log, is shown as voided with who
voided it and when, and the fold proceeds as if it had not been made."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ledger.errors import BadInput, NotAllowed
from ledger.render import render_state
from ledger.service import Ledger

STREAM = "club/t3/b1"
EX1 = "N:K75.Q9.AQJ73.KJ5 T84.JT65432..AQ3 AQ63.AK7.KT8.642 J92.8.96542.T987"
OPENED = {"type": "BoardOpened", "tournament": "club", "board": 1, "table": "3", "dealer": "S",
          "vulnerability": "None", "laws": "2017", "deal": EX1}
AUCTION = [{"type": "CallPlaced", "seat": s, "call": c}
           for s, c in zip("SWNESW", ["1NT", "Pass", "6NT", "Pass", "Pass", "Pass"])]
TABLE = {"role": "table", "name": "t3"}


def card(seat: str, card_: str, **extra) -> dict:
    return {"type": "CardPlayed", "seat": seat, "card": card_, "actor": TABLE, **extra}


@pytest.fixture
def ledger():
    led = Ledger.open("sqlite:///:memory:", create=True)
    led.append(STREAM, [OPENED] + AUCTION)
    # West leads the ♣10, North plays the ♣5; East's terminal logs the ♥2 (East holds clubs).
    led.append(STREAM, [card("W", "CT"), card("N", "C5")])
    led.append(STREAM, [card("E", "H2", id="typo")])
    yield led
    led.close()


def void(by: dict, about, reason: str = "typed the wrong card") -> dict:
    return {"type": "EntryVoided", "about": about, "reason": reason, "actor": by}


def test_the_wrong_card_typed_is_first_read_as_a_revoke(ledger):
    doc = ledger.state(STREAM)
    assert [i["kind"] for i in doc["irregularities"]] == ["revoke"]
    assert "H2" not in doc["hands"]["E"]


def test_the_table_voids_its_own_last_entry_and_the_fold_skips_it(ledger):
    typo_seq = ledger.state(STREAM)["seq"] - 1  # the revoke's IrregularityRecorded follows the card
    result = ledger.append(STREAM, [void(TABLE, "typo")])
    types = [e.type for e in result.stored]
    assert types[0] == "EntryVoided" and "RulingOverridden" in types  # the engine cancels the revoke
    doc = ledger.state(STREAM)
    assert doc["irregularities"] == []
    assert "H2" in doc["hands"]["E"] and doc["turn"] == "E"
    (entry,) = doc["voided"]
    assert entry["seq"] == typo_seq and entry["type"] == "CardPlayed"
    assert entry["by"] == TABLE and entry["at"] and entry["reason"] == "typed the wrong card"
    # the entry stays in the log, unchanged
    assert any(e.id == "typo" and e.data["card"] == "H2" for e in ledger.events(STREAM))
    # and East now plays the card he meant
    ledger.append(STREAM, [card("E", "CQ")])
    assert [c["card"] for c in ledger.state(STREAM)["tricks"][0]["cards"]] == ["CT", "C5", "CQ"]


def test_the_table_may_not_void_an_entry_with_another_entry_after_it(ledger):
    ledger.append(STREAM, [card("S", "C2")])
    with pytest.raises(NotAllowed, match="only its own last entry") as caught:
        ledger.append(STREAM, [void(TABLE, "typo")])
    assert caught.value.exit_code == 4
    assert ledger.events(STREAM)[-1].type == "CardPlayed"  # nothing written


def test_the_director_voids_an_earlier_entry_and_the_later_ones_are_read_without_it(ledger):
    ledger.append(STREAM, [card("S", "C2")])
    ledger.append(STREAM, [void({"role": "director", "name": "Ms Roy"}, "typo")])
    doc = ledger.state(STREAM)
    assert doc["voided"][0]["by"] == {"role": "director", "name": "Ms Roy"}
    assert "revoke" not in [i["kind"] for i in doc["irregularities"]]
    # without the ♥2, South's ♣2 is declarer's card before East's turn: a premature play
    # (2017 57C3), on the trick in South's place, East still to play
    assert [(c["card"], c["law"]) for c in doc["tricks"][0]["cards"]] == [
        ("CT", "2017:45A"), ("C5", "2017:45B"), ("C2", "2017:57C3")]
    assert doc["turn"] == "E"
    assert [(i["kind"], i["offender"]) for i in doc["irregularities"]] == [("play_out_of_turn", "S")]


def test_a_state_before_the_void_still_shows_the_entry(ledger):
    seq_before = ledger.state(STREAM)["seq"]
    ledger.append(STREAM, [void(TABLE, "typo")])
    assert ledger.state(STREAM, seq_before)["voided"] == []
    assert [i["kind"] for i in ledger.state(STREAM, seq_before)["irregularities"]] == ["revoke"]


@pytest.mark.parametrize("about, message", [
    (1, "BoardOpened, which cannot be voided"),
    (99, "no event at seq 99"),
    ("nope", "no event with that id"),
])
def test_entries_that_cannot_be_voided_are_refused(ledger, about, message):
    with pytest.raises(BadInput, match=message):
        ledger.append(STREAM, [void({"role": "director"}, about)])


def test_the_engines_events_are_overridden_not_voided(ledger):
    engine_seq = ledger.state(STREAM)["seq"]
    with pytest.raises(BadInput, match="RulingOverridden"):
        ledger.append(STREAM, [void({"role": "director"}, engine_seq)])


def test_an_entry_is_voided_once(ledger):
    ledger.append(STREAM, [void(TABLE, "typo")])
    with pytest.raises(BadInput, match="already voided"):
        ledger.append(STREAM, [void({"role": "director"}, "typo")])


def test_a_void_needs_a_reason(ledger):
    with pytest.raises(BadInput, match="reason"):
        ledger.append(STREAM, [void(TABLE, "typo", reason="")])


def test_the_readable_state_shows_the_voided_entry(ledger):
    ledger.append(STREAM, [void(TABLE, "typo")])
    console = Console(record=True, width=100, color_system=None, file=io.StringIO())
    console.print(render_state(ledger.state(STREAM)))
    text = console.export_text()
    assert "Voided: seq 10 CardPlayed" in text and "by table/t3" in text and "typed the wrong card" in text


def test_the_engines_cancellation_says_the_entry_was_voided(ledger):
    result = ledger.append(STREAM, [void(TABLE, "typo")])
    (override,) = [e for e in result.stored if e.type == "RulingOverridden"]
    assert "voided as an entry error" in override.data["text"] and override.actor.role == "system"


def test_on_the_command_line_the_tables_late_void_exits_4_naming_the_line(tmp_path, capsys):
    import json

    from ledger.cli import main

    db = f"sqlite:///{tmp_path / 'l.db'}"
    with Ledger.open(db, create=True) as led:
        led.append(STREAM, [OPENED] + AUCTION)
        led.append(STREAM, [card("W", "CT"), card("N", "C5"), card("E", "CQ"), card("S", "C2")])
    path = tmp_path / "void.jsonl"
    path.write_text(json.dumps(void(TABLE, 9)) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--db", db, "append", STREAM, str(path)]) == 4
    err = capsys.readouterr().err
    assert "line 1" in err and "only its own last entry" in err and "ask the director" in err
