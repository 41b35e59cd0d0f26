"""Issue 22 items 3 and 5 (spec 1.3 section 10; LAWS-DIGEST 15.8): defective tricks (67A, 67B, 58B4, 14B1)
and three Law 24 / 51B defects.

* The scenario files replayed on both stores (SQLite and PostgreSQL), their expectations holding.
* The stream read again after ``DefectiveTrickFound``: what the engine emitted on the earlier reading and
  no longer prescribes is cancelled by its own ``RulingOverridden`` (82C) citing the finding.
* ``DefectiveTrickFound`` for a trick not complete, or for a seat that played to it: exit 2 naming the
  line, the field and the value, nothing written (through ``cli.py append``).
* 2017 24C: a second exposed card makes the partner pass again; a Law 24 penalty card played is cleared
  (``PenaltyCardCleared``); the 50D2 offer with penalty cards of several suits is made under 51B.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import init_db
from golden_fold import assert_scenario_holds

from ledger.cli import main
from ledger.scenario import replay_text

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(p for p in SCENARIOS.glob("*.jsonl") if p.name.startswith((
    "defective-", "boards-14-1997-found-among-played", "exposed-24c-2017-second-card",
    "exposed-24e-2017-two-suits")))
DEEMED = SCENARIOS / "defective-67b-2017-holds-suit-deemed-revoke-one-trick.jsonl"
EXPOSED = SCENARIOS / "exposed-24c-2017-second-card-at-offenders-turn-partner-passes-again.jsonl"
TWO_SUITS = SCENARIOS / "exposed-24e-2017-two-suits-declarer-names-one-51b.jsonl"


def test_the_items_have_their_scenarios():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_on_both_stores(path, store_url):
    assert_scenario_holds(path, store_url)


def _events(path: Path):
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        return ledger.events(stream)


def test_the_finding_cancels_what_the_misread_stream_had_prescribed():
    events = _events(DEEMED)
    found = next(e for e in events if e.type == "DefectiveTrickFound")
    before = [e for e in events if e.seq < found.seq and e.actor.role == "system"]
    overridden = [e for e in events if e.type == "RulingOverridden" and found.seq in e.causes]
    assert before and overridden, "the misread stream had rectifications, cancelled after the finding"
    assert all(e.law == "2017:82C" for e in overridden)
    cancelled = {e.data["about"] for e in overridden}
    # every earlier lead-out-of-turn or penalty-card ruling of the misread stream is gone
    assert {e.seq for e in before if e.type in ("OptionsOffered", "PenaltyCardDesignated")} <= cancelled
    # the engine's results: the one in force after the finding is 8 tricks (67B1 transfer)
    results = [e for e in events if e.type == "ResultRecorded" and e.seq not in cancelled]
    assert results[-1].data["tricks"] == 8 and results[-1].law == "2017:77"
    transfer = [e for e in events if e.type == "TricksTransferred" and e.law == "2017:67B1"]
    assert [e.data for e in transfer] == [{"to": "defenders", "tricks": 1}]


def _append(capsys, tmp_path, stream, lines, name="in.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    code = main(["append", stream, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def _seqs(capsys, stream):
    main(["log", stream, "--json"])
    return [json.loads(x)["seq"] for x in capsys.readouterr()[0].splitlines() if x.strip()]


@pytest.fixture
def db(tmp_path, monkeypatch):
    return init_db(tmp_path, monkeypatch)


def _facts(stop: int) -> list[str]:
    lines = [x for x in DEEMED.read_text(encoding="utf-8").splitlines() if x.startswith('{"type"')]
    return lines[:stop]


@pytest.mark.parametrize("finding, value", [
    ({"type": "DefectiveTrickFound", "trick": 2, "seat": "S"}, "'trick', value 2"),  # trick 2 not begun
    ({"type": "DefectiveTrickFound", "trick": 1, "seat": "N"}, "'seat', value 'N'"),  # North played the ace
])
def test_a_finding_for_a_trick_not_complete_or_a_seat_that_played_is_refused(db, tmp_path, capsys, finding, value):
    _append(capsys, tmp_path, "t/b", _facts(10), "board.jsonl")  # the auction and W S4, N SA, E DJ
    before = _seqs(capsys, "t/b")
    code, _, err = _append(capsys, tmp_path, "t/b", [finding])
    assert code == 2 and "line 1" in err and value in err, err
    assert _seqs(capsys, "t/b") == before


def test_a_second_24c_card_makes_the_partner_pass_again():
    events = _events(EXPOSED)
    must = [e for e in events if e.type == "PartnerMustPass"]
    assert [(e.data["seat"], e.law) for e in must] == [("W", "2017:24B"), ("W", "2017:24C")]
    first_pass = next(e for e in events if e.type == "CallPlaced" and e.data["seat"] == "W")
    assert must[0].seq < first_pass.seq < must[1].seq


def test_a_law_24_penalty_card_played_is_cleared():
    cleared = [e for e in _events(EXPOSED) if e.type == "PenaltyCardCleared"]
    assert [(e.data["card"], e.law) for e in cleared] == [("HA", "2017:50D1a"), ("HK", "2017:50D1a")]


def test_the_50d2_offer_with_penalty_cards_of_several_suits_is_made_under_51b():
    offers = [e for e in _events(TWO_SUITS) if e.type == "OptionsOffered" and e.data["law"] == "2017:50D2"]
    assert offers and all(e.law == "2017:51B" for e in offers)
    one_suit = SCENARIOS / "exposed-24e-2017-partner-on-lead-declarer-forbids-the-suit.jsonl"
    offers = [e for e in _events(one_suit) if e.type == "OptionsOffered" and e.data["law"] == "2017:50D2"]
    assert offers and all(e.law == "2017:50D2" for e in offers)


@pytest.mark.parametrize("path", [DEEMED, SCENARIOS / "defective-67a-2017-supplied-before-next-trick.jsonl"],
                         ids=["67b", "67a"])
def test_the_incremental_engine_equals_the_full_engine_on_the_stream_read_again(path):
    """tests/test_derived.py folds one step at a time; here each prefix is read as the ledger reads it
    (``fold_log``: from the board's start, the defective trick known), and the rules' prescriptions reused
    from the state before equal the rules run afresh."""
    from test_derived import _afresh, _incremental

    from ledger.service import recorded
    from projections.table import fold_log

    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        records = [recorded(e) for e in ledger.store.read(stream)]
    found = next(r.seq for r in records if r.event.TYPE == "DefectiveTrickFound")
    for n in range(found, len(records) + 1):
        state = fold_log(stream, records[:n])
        assert state is not None and state.defective and state.defective[0].law is not None
        assert _incremental(state) == _afresh(state), f"seq {n}"


def test_no_trick_for_a_defective_trick_found_after_the_round_ended():
    """67B1 with 64B5 (digest 15.11, decision 4): the finding is the attention drawn; after the round
    ended the deemed revoke transfers nothing."""
    lines = [x for x in DEEMED.read_text(encoding="utf-8").splitlines()
             if x.startswith('{"type"') and "expect_error" not in x]
    at = next(i for i, x in enumerate(lines) if "DefectiveTrickFound" in x)
    text = "\n".join(lines[:at] + ['{"type": "RoundEnded"}'] + lines[at:]) + "\n"
    with replay_text(text) as (ledger, stream):
        doc = ledger.state(stream)
    assert doc["transfers"] == [] and doc["result"]["tricks"] == 9
    assert [i["law"] for i in doc["irregularities"] if i["offender"] == "S"] == ["2017:67B", "2017:67B1"]


def test_a_placed_card_is_not_read_as_a_revoke_of_law_61():
    """Dummy held spades at trick 1 and played them later; the card placed for trick 1 is his last one, a
    diamond: 67B1 deems the revoke (the director asked: dummy's); Law 61 does not read a second one."""
    path = SCENARIOS / "defective-67b1-2017-dummys-trick-director-asked.jsonl"
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        doc = ledger.state(stream)
        events = ledger.events(stream)
    assert [(i["kind"], i["law"]) for i in doc["irregularities"] if i["offender"] == "N"] == [
        ("defective_trick", "2017:67B"), ("revoke", "2017:67B1")]
    assert not [e for e in events if e.type == "RevokeEstablished" and e.data["seat"] == "N"
                and e.seq > next(x.seq for x in events if x.type == "DefectiveTrickFound")]
