"""Importing PBN files: real records (RealBridge), the PBN 2.1 irregularity
markers, and malformed input (tests/data/markers.pbn, tests/data/malformed.pbn).

Marker records are irregular; the Law modules that rule on them are other
work, so these tests assert what is logged and that the ledger flags it, not
the rulings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.cli import main
from ledger.records.games import GameRecord, import_text, read_records, slugify, stream_ids
from ledger.service import Ledger

DATA = Path(__file__).resolve().parent / "data"
BRIDGE_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data"
REALBRIDGE = BRIDGE_DATA / "realbridge-2021-online-qual-open-r2.pbn"
TOURNAMENT = "2021 Online Qual: Open R2"
PREFIX = "2021-online-qual-open-r2"

requires_realbridge = pytest.mark.skipif(not REALBRIDGE.exists(),
                                         reason=f"real PBN data not found at {REALBRIDGE}")


def _types(ledger: Ledger, stream: str) -> list[str]:
    return [e.type for e in ledger.events(stream)]


def _facts(ledger: Ledger, stream: str) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in ledger.events(stream) if e.actor.role != "system"]


# ---------------------------------------------------------------------------
# The RealBridge file

@pytest.fixture(scope="module")
def realbridge():
    if not REALBRIDGE.exists():
        pytest.skip(f"real PBN data not found at {REALBRIDGE}")
    ledger = Ledger.open("sqlite:///:memory:", create=True)
    report = import_text(ledger, REALBRIDGE.read_text(encoding="utf-8"), "pbn")
    yield ledger, report
    ledger.close()


@requires_realbridge
def test_every_realbridge_record_becomes_one_stream_named_after_the_event(realbridge):
    ledger, report = realbridge
    assert report.tournament == TOURNAMENT
    assert (report.records, len(report.imported), report.failed) == (299, 299, [])
    assert len(ledger.store.streams(prefix=f"{PREFIX}/")) == 299
    assert ledger.state(f"{PREFIX}/t26/b11")["board"]["tournament"] == TOURNAMENT


@requires_realbridge
def test_importing_the_same_file_again_is_a_retry_that_writes_nothing(realbridge):
    ledger, _ = realbridge
    before = ledger.events(f"{PREFIX}/t4/b11")[-1].position
    again = import_text(ledger, REALBRIDGE.read_text(encoding="utf-8"), "pbn")
    assert again.failed == []
    assert all(r.retried and r.events == 0 for r in again.imported)
    assert ledger.events(f"{PREFIX}/t4/b11")[-1].position == before


@requires_realbridge
def test_play_stopped_at_star_is_a_claim_by_declarer_agreed_by_his_lho(realbridge):
    # Board 11, table 4: 1NT by North; NS win six of the seven tricks played
    # (West wins the seventh with CK), West leads H3 to the eighth, then '*' with
    # Result 8: NS take 2 of the 6 remaining tricks (the eighth is one of them).
    ledger, _ = realbridge
    facts = _facts(ledger, f"{PREFIX}/t4/b11")
    assert facts[-2:] == [("ClaimMade", {"seat": "N", "tricks": 2}),
                          ("ClaimAgreed", {"by": "E"})]
    doc = ledger.state(f"{PREFIX}/t4/b11")
    assert doc["phase"] == "ended"
    assert doc["result"]["text"] == "1NT N +1" and doc["result"]["score_ns"] == 120


@requires_realbridge
def test_actors_are_the_importer_with_the_table_role_and_ids_make_retries_safe(realbridge):
    ledger, _ = realbridge
    stored = [e for e in ledger.events(f"{PREFIX}/t26/b11") if e.actor.role != "system"]
    assert {(e.actor.role, e.actor.name) for e in stored} == {("table", "import:pbn")}
    assert [e.id for e in stored[:3]] == ["pbn-001", "pbn-002", "pbn-003"]


@requires_realbridge
def test_unplayed_board_with_contract_pass_and_no_score_is_only_opened(realbridge):
    ledger, _ = realbridge
    assert _types(ledger, f"{PREFIX}/t1/b11") == ["BoardOpened"]
    assert ledger.state(f"{PREFIX}/t1/b11")["result"] is None


@requires_realbridge
def test_the_real_pass_out_is_recorded_with_a_zero_score_by_the_engine(realbridge):
    ledger, _ = realbridge
    assert _types(ledger, f"{PREFIX}/t11/b11") == ["BoardOpened"] + ["CallPlaced"] * 4 + [
        "ResultRecorded"]
    assert ledger.state(f"{PREFIX}/t11/b11")["result"]["contract"] == "Pass"


@requires_realbridge
def test_alert_notes_are_logged_as_explanations_by_the_callers_partner(realbridge):
    ledger, _ = realbridge
    facts = _facts(ledger, f"{PREFIX}/t2/b11")
    assert facts[1:3] == [("CallPlaced", {"seat": "S", "call": "1C"}),
                          ("ExplanationGiven", {"by": "N", "call_index": 1,
                                                "text": "2+♣, up to 5♦ if balanced"})]


def test_stream_ids_name_table_and_board_and_stay_unique():
    text = (DATA / "markers.pbn").read_text(encoding="utf-8")
    records, _ = read_records(text, "pbn", "Markers")
    assert stream_ids(slugify("Markers"), records[:2]) == ["markers/t1/b1", "markers/t1/b2"]
    a, b = GameRecord(3, 10, 5, "2", []), GameRecord(9, 40, 5, "2", [])
    assert stream_ids("m", [a, b]) == ["m/t2/b5-r3", "m/t2/b5-r9"]
    assert stream_ids("m", [GameRecord(1, 1, 46, "open", [])]) == ["m/open/b46"]


def test_slugify_keeps_stream_id_characters_only():
    assert slugify("2021 Online Qual: Open R2") == "2021-online-qual-open-r2"
    assert slugify("  Ça & là  ") == "a-l"
    assert slugify("???") == "tournament"


# ---------------------------------------------------------------------------
# Irregularity markers

@pytest.fixture(scope="module")
def markers():
    ledger = Ledger.open("sqlite:///:memory:", create=True)
    report = import_text(ledger, (DATA / "markers.pbn").read_text(encoding="utf-8"), "pbn")
    yield ledger, report
    ledger.close()


def _seq_of(ledger: Ledger, stream: str, type_: str, **data) -> int:
    for e in ledger.events(stream):
        if e.type == type_ and all(e.data.get(k) == v for k, v in data.items()):
            return e.seq
    raise AssertionError(f"no {type_} {data} in {stream}")


def _flagged(ledger: Ledger, stream: str, seq: int) -> bool:
    return any(i["seq"] == seq for i in ledger.state(stream)["irregularities"])


def test_every_marker_record_imports(markers):
    _, report = markers
    assert (report.records, len(report.imported), report.failed) == (7, 7, [])


def test_insufficient_bid_marked_I_is_logged_as_called_and_flagged(markers):
    ledger, _ = markers
    stream = "markers/t1/b1"
    calls = [d for t, d in _facts(ledger, stream) if t == "CallPlaced"]
    assert [(c["seat"], c["call"]) for c in calls] == [
        ("N", "1S"), ("E", "1H"), ("S", "2H"), ("W", "Pass"), ("N", "Pass"), ("E", "Pass")]
    assert _flagged(ledger, stream, _seq_of(ledger, stream, "CallPlaced", call="1H"))


def test_skipped_turn_marked_S_logs_no_call_and_the_call_out_of_rotation_is_flagged(markers):
    ledger, _ = markers
    stream = "markers/t1/b2"
    calls = [d for t, d in _facts(ledger, stream) if t == "CallPlaced"]
    assert [(c["seat"], c["call"]) for c in calls] == [
        ("E", "1H"), ("S", "Pass"), ("W", "Pass"), ("N", "Pass")]
    assert _flagged(ledger, stream, _seq_of(ledger, stream, "CallPlaced", call="1H"))


def test_revoke_marked_R_is_the_card_as_played_and_flagged(markers):
    ledger, _ = markers
    stream = "markers/t1/b3"
    seq = _seq_of(ledger, stream, "CardPlayed", seat="W", card="C6")
    assert _flagged(ledger, stream, seq)
    types = [t for t, _ in _facts(ledger, stream)]
    assert types[-2:] == ["ClaimMade", "ClaimAgreed"]


def test_lead_out_of_turn_marked_L_leads_its_trick_and_the_next_card_accepts_it(markers):
    # South (dummy) won trick 1; declarer leads C2 from hand; East plays to it (55A, 53A).
    ledger, _ = markers
    stream = "markers/t1/b4"
    facts = _facts(ledger, stream)
    lead = facts.index(("CardPlayed", {"seat": "N", "card": "C2"}))
    assert facts[lead + 1:lead + 4] == [("CardPlayed", {"seat": "E", "card": "C8"}),
                                        ("CardPlayed", {"seat": "S", "card": "C3"}),
                                        ("CardPlayed", {"seat": "W", "card": "C6"})]
    assert _flagged(ledger, stream, _seq_of(ledger, stream, "CardPlayed", card="C2"))


def test_declarer_marked_caret_means_the_auctions_declarer_accepted_and_became_dummy(markers):
    ledger, _ = markers
    stream = "markers/t1/b5"
    facts = _facts(ledger, stream)
    lead = facts.index(("CardPlayed", {"seat": "W", "card": "S3"}))
    assert facts[lead + 1] == ("DummySpreadStarted", {"seat": "N"})  # 54A: N spreads his hand
    assert ("ClaimMade", {"seat": "S", "tricks": 6}) in facts  # South plays the hand


def test_result_marked_caret_is_logged_as_the_directors_ruling(markers):
    ledger, _ = markers
    stream = "markers/t1/b6"
    (ruling,) = [e for e in ledger.events(stream) if e.type == "RulingGiven"]
    assert ruling.actor.role == "director"
    assert ruling.data["text"].startswith('PBN Result "^": 8 tricks')
    assert ledger.state(stream)["result"]["tricks"] == 8


def test_contract_pass_with_a_score_and_no_auction_is_four_passes_from_the_dealer(markers):
    ledger, _ = markers
    stream = "markers/t1/b7"
    calls = [d for t, d in _facts(ledger, stream) if t == "CallPlaced"]
    assert [c["seat"] for c in calls] == ["S", "W", "N", "E"]
    assert ledger.state(stream)["result"]["contract"] == "Pass"


# ---------------------------------------------------------------------------
# Malformed input

MALFORMED = DATA / "malformed.pbn"


def _line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


BAD_DEAL_LINE = _line_of(MALFORMED, 'KJ9"]')
SOME_LINE = _line_of(MALFORMED, '"Some"')
DEALER_LINE = _line_of(MALFORMED, '[Dealer "?"]')
PLAY_LINE = _line_of(MALFORMED, '[Play "E"]')
RESULT_LINE = _line_of(MALFORMED, '[Result "13"]')


def test_each_bad_record_is_reported_with_its_number_line_and_reason_and_the_good_import():
    ledger = Ledger.open("sqlite:///:memory:", create=True)
    report = import_text(ledger, MALFORMED.read_text(encoding="utf-8"), "pbn")
    assert [r.number for r in report.imported] == [1, 7]
    assert [str(p) for p in report.failed] == [
        f"record 2, line {BAD_DEAL_LINE}: Deal: West holds 12 cards, not 13",
        f"record 3, line {SOME_LINE}: Vulnerable must be None, NS, EW, All (or Love, -, Both), "
        "got 'Some'",
        f"record 4, line {DEALER_LINE}: the record has no Dealer",
        f"record 5, line {PLAY_LINE}: Play: trick 1: North plays SA, which the deal gives to South",
        f"record 6, line {RESULT_LINE}: Result: declarer's side has won 0 of the 1 tricks played "
        "and 12 remain: 13 tricks in all cannot be reached",
    ]
    ledger.close()


def test_question_mark_values_are_unknown_not_errors():
    ledger = Ledger.open("sqlite:///:memory:", create=True)
    import_text(ledger, MALFORMED.read_text(encoding="utf-8"), "pbn")
    doc = ledger.state("malformed/t7/b7")  # Contract "?", Result "?": the auction decides
    assert doc["contract"] == {"level": 1, "strain": "NT", "risk": "", "declarer": "S"}
    assert doc["phase"] == "opening_lead"
    ledger.close()


def test_a_record_with_result_but_no_play_is_claimed_before_the_opening_lead():
    ledger = Ledger.open("sqlite:///:memory:", create=True)
    import_text(ledger, MALFORMED.read_text(encoding="utf-8"), "pbn")
    facts = _facts(ledger, "malformed/t1/b1")
    assert facts[-2:] == [("ClaimMade", {"seat": "N", "tricks": 9}), ("ClaimAgreed", {"by": "E"})]
    assert ledger.state("malformed/t1/b1")["result"]["text"] == "3NT N ="
    ledger.close()


def test_cli_import_lists_the_failed_records_and_exits_2(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    assert main(["--db", db, "import", str(MALFORMED)]) == 2
    out, err = capsys.readouterr()
    assert "Malformed: 2 of 7 record(s) imported" in out
    assert f"FAILED: record 2, line {BAD_DEAL_LINE}: Deal: West holds 12" in err
    assert err.count("FAILED:") == 5


def test_cli_import_of_a_good_file_exits_0_and_a_second_import_writes_nothing(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    args = ["--db", db, "import", str(DATA / "markers.pbn"), "--tournament", "Club night"]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("Club night: 7 of 7 record(s) imported")
    assert main(args) == 0
    assert "7 already stored" in capsys.readouterr().out
    assert main(["--db", db, "state", "club-night/t1/b7", "--json"]) == 0
    assert '"contract": "Pass"' in capsys.readouterr().out


def test_cli_import_needs_a_known_format(tmp_path, capsys):
    path = tmp_path / "records.txt"
    path.write_text("", encoding="utf-8")
    assert main(["--db", f"sqlite:///{tmp_path / 'l.db'}", "import", str(path)]) == 2
    assert "give --format pbn or lin" in capsys.readouterr().err


def test_markers_I_and_S_rule_as_an_accepted_insufficient_bid_and_call_out_of_rotation(markers):
    """Issue 12: ``^I`` and ``^S`` are no longer left unprocessed: the insufficient bid is accepted by
    the LHO's call (2017 27A1) and the call out of rotation by the LHO's call (29A); the contract and
    declarer are the record's."""
    ledger, _ = markers
    b1, b2 = ledger.state("markers/t1/b1"), ledger.state("markers/t1/b2")
    assert [(a["seat"], a["call"], a["law"]) for a in b1["auction"]][:3] == [
        ("N", "1S", "FFB:57.3"), ("E", "1H", "2017:27A1"), ("S", "2H", "FFB:57.3")]
    assert [(i["kind"], i["offender"], i["law"]) for i in b1["irregularities"]] == [
        ("insufficient_bid", "E", "2017:27")]
    assert (b1["contract"]["level"], b1["contract"]["strain"], b1["contract"]["declarer"]) == (2, "H", "S")
    assert [(a["seat"], a["call"], a["law"]) for a in b2["auction"]][:2] == [
        ("E", "1H", "2017:29A"), ("S", "Pass", "FFB:57.3")]
    assert [(i["kind"], i["offender"], i["law"]) for i in b2["irregularities"]] == [
        ("call_out_of_rotation", "E", "2017:31")]
    assert (b2["contract"]["level"], b2["contract"]["strain"], b2["contract"]["declarer"]) == (1, "H", "E")
    for doc in (b1, b2):
        assert doc["pending"] == [] and doc["calls_not_made"] == [] and doc["phase"] == "opening_lead"
        assert not any(i["kind"] == "unprocessed" for i in doc["irregularities"])
