"""Real records, round three (issue 27): checks at the file's own precision and artificial
rows by what each side got; a reported lead the opening leader does not hold, flagged and
written back in a form the import reads again; every valid PBN construct; the round
trip (import, export, import) of every stream of the shared real files.  The fixtures
in tests/data are written for these tests from the PBN 2.1 standard."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.cli import main
from ledger.records.games import (TAG_ONLY, export_pbn, import_bws, import_data, import_text,
                            tournament_streams)
from ledger.service import Ledger
from projections.results import results

DATA = Path(__file__).parent / "data"
BRIDGE_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data"


@pytest.fixture
def ledger(store_url):
    opened = Ledger.open(store_url, create=True)
    yield opened
    opened.close()


def _ffb() -> bytes:
    return (DATA / "ffb-traveller.pbn").read_bytes()


# 2. Checks that are right --------------------------------------------------------------

def test_a_one_decimal_traveller_with_artificial_rows_gives_no_false_check(ledger):
    report = import_data(ledger, _ffb(), "pbn")
    assert report.ok and len(report.imported) == 8
    assert report.check_mismatches == 0
    assert report.checks == ["ScoreTable: 8 of 8 row(s) agree with the ledger's matchpoints "
                             "and percentages"]
    assert "0 traveller or ranking figure(s) differ" in report.summary()
    # the A+/A+ row: each side got 60 % of the top (Law 12C2), not 60 and 40
    doc = results(report.tournament, tournament_streams(ledger, report.tournament))
    row6 = next(r for r in doc["boards"][0]["results"] if r["table"] == "6")
    assert (row6["mp_ns"], row6["mp_ew"]) == (8.4, 8.4)


def test_a_figure_that_really_differs_is_still_flagged_once(ledger):
    text = _ffb().replace(b"140      -  1.5  5.5  21.4  78.6", b"140      -  1.7  5.5  21.4  78.6")
    report = import_data(ledger, text, "pbn")
    assert report.check_mismatches == 1
    assert "ScoreTable board 1, table 5 (record 1): mp_ns file 1.7, ledger 3 (1.5 at one per " \
        "score beaten)" in report.checks
    assert "1 traveller or ranking figure(s) differ" in report.summary()


def test_an_artificial_row_whose_east_west_figure_differs_is_flagged(ledger):
    # A+/A+ written as if East-West had got 100 less North-South's 60
    text = _ffb().replace(b"A+     A+  4.2  4.2  60.0  60.0", b"A+     A+  4.2  4.2  60.0  40.0")
    report = import_data(ledger, text, "pbn")
    assert report.check_mismatches == 1
    assert any("table 6" in c and "pct_ew file 40, ledger 60" in c for c in report.checks)


# 3. A lead the opening leader does not hold ------------------------------------------------

def _lead_of_east() -> bytes:
    # table 1: 4S by South, West leads; SA is East's card (the leader's partner)
    return _ffb().replace(b" 1  1  9 4S    S 10 HQ ", b" 1  1  9 4S    S 10 SA ")


def test_a_lead_not_held_by_the_opening_leader_is_flagged_and_kept(ledger):
    report = import_data(ledger, _lead_of_east(), "pbn")
    assert report.ok and report.lead_checks == 1 and report.check_mismatches == 0
    assert ("board 1, table 1 (record 1): the lead SA is East's card (the opening leader's "
            "partner), not West's, the opening leader's: kept only as the reported lead") \
        in report.checks
    reported = next(e for e in ledger.events("tournoi-du-lundi/t1/b1")
                    if e.type == "ResultReported")
    assert reported.data["lead"] == "SA"
    assert "1 reported lead(s) not held by the opening leader" in report.summary()


def test_the_export_of_such_a_lead_imports_again_to_the_same_result(ledger):
    report = import_data(ledger, _lead_of_east(), "pbn")
    text = export_pbn(ledger, [s for s, _ in tournament_streams(ledger, report.tournament)])
    assert '[Lead "SA"]' in text
    again = import_text(ledger, text, "pbn", tournament="again")
    assert again.failed == [] and again.lead_checks == 1
    first = next(e for e in ledger.events("again/t1/b1") if e.type == "ResultReported")
    assert first.data == {"contract": "4S", "declarer": "S", "risk": "", "tricks": 10,
                          "lead": "SA"}
    assert ledger.state("again/t1/b1")["result"]["score_ns"] == 420


def test_the_cli_prints_the_lead_check(tmp_path, capsys):
    path = tmp_path / "lead.pbn"
    path.write_bytes(_lead_of_east())
    assert main(["--db", f"sqlite:///{tmp_path / 'l.db'}", "import", str(path)]) == 0
    assert "CHECK: board 1, table 1 (record 1): the lead SA is East's card" in capsys.readouterr().out


# 4. Every valid PBN ------------------------------------------------------------------------

@pytest.fixture
def constructs(ledger):
    return import_data(ledger, (DATA / "pbn-constructs.pbn").read_bytes(), "pbn")


def test_every_construct_record_imports_and_agrees(constructs):
    assert constructs.failed == [] and constructs.agreed == 4
    assert [r.stream for r in constructs.imported] == [
        "constructs/t1/b1", "constructs/t2/b1", "constructs/t1/b2", "constructs/t1/b3"]


def test_a_signed_score_is_read(constructs, ledger):
    # [Score "EW +420"]: compared with the folded result, and it agrees
    assert ledger.state("constructs/t1/b1")["result"]["score_ns"] == -420


def test_a_plus_in_play_is_read_with_a_note(constructs, ledger):
    types = [e.type for e in ledger.events("constructs/t2/b1")]
    assert types.count("CardPlayed") == 4 and "ClaimMade" in types
    assert ledger.state("constructs/t2/b1")["result"]["tricks"] == 11
    assert any("Play holds '+'" in w.reason for w in constructs.warnings)


def test_tag_pairs_over_several_lines_are_read(constructs, ledger):
    opened = ledger.events("constructs/t1/b2")[0].data
    assert (opened["tournament"], opened["dealer"], opened["vulnerability"]) == \
        ("Constructs", "E", "NS")
    assert opened["deal"].startswith("N:52.A643.K5.K8732 AKQJ94..A962.J64 763.")
    assert ledger.state("constructs/t1/b2")["result"]["text"] == "4S E ="


def test_r_for_redoubled_is_read_as_xx_with_a_note(constructs, ledger):
    result = ledger.state("constructs/t1/b3")["result"]
    assert (result["risk"], result["score_ns"]) == ("XX", 800)
    assert any("'3NR': 'R' read as redoubled" in w.reason for w in constructs.warnings)


def test_records_of_tags_only_are_attached_to_nothing_and_said(constructs):
    loose = [w for w in constructs.warnings if w.kind == TAG_ONLY]
    assert [(w.number, w.line) for w in loose] == [(5, 67), (6, 69)]
    assert "holds only the tag(s) Scoring: attached to no game" in loose[0].reason
    assert constructs.records == 4 and constructs.ok  # not counted, not a refusal


def test_a_tag_pair_left_open_is_still_an_error_naming_its_line():
    from ledger.records.formats.pbn import read_pbn
    records, errors = read_pbn('[Event "x"]\n[Board "1"\n[Dealer "N"]\n', collect_errors=True)
    assert errors and errors[0].line == 2 and "cannot read the tag pair" in errors[0].reason


# Round trip of every stream of the shared real files -----------------------------------------

REAL = [("realbridge-2021-online-qual-open-r2.pbn", 299), ("usbf-2010-sf-segment4.lin", 30),
        ("bbo-robots-8-boards.lin", 8), ("bridgemate-lbc-2026-01-26.bws", 270)]


def _by_table(ledger: Ledger, name: str) -> dict:
    doc = results(name, tournament_streams(ledger, name))
    return {(b["board"], r["table"], r["room"]): (r["contract"], r["declarer"], r["risk"],
                                                  r["tricks"], r["score_ns"], r["status"])
            for b in doc["boards"] for r in b["results"]}


@pytest.mark.parametrize("name, streams", REAL, ids=[n for n, _ in REAL])
def test_export_then_import_gives_the_same_results_for_every_stream(ledger, name, streams):
    path = BRIDGE_DATA / name
    if not path.exists():
        pytest.skip(f"real data not found at {path}")
    if path.suffix == ".bws":
        first = import_bws(ledger, path)
    else:
        first = import_data(ledger, path.read_bytes(), path.suffix[1:])
    assert first.failed == [] and len(first.imported) == streams
    text = export_pbn(ledger, [s for s, _ in tournament_streams(ledger, first.tournament)])
    again = import_text(ledger, text, "pbn", tournament="round trip")
    assert again.failed == [] and len(again.imported) == streams
    before, after = _by_table(ledger, first.tournament), _by_table(ledger, "round trip")
    assert len(before) == streams
    assert after == before


# 5. Import speed of the real files (bench keys import_real_*) ------------------------------

def test_the_bench_reports_the_real_imports_cpu_and_wall():
    from ledger.bench.imports import REAL_FILES, real_import_figures

    skipped = real_import_figures(None, "run", skip=True)  # type: ignore[arg-type]
    assert all(v is None for v in skipped.values()) and "import_real_bws_eps_cpu" in skipped
    if not all(path.exists() for _, path in REAL_FILES):
        pytest.skip("real data not beside the repository")
    with Ledger.open("sqlite:///:memory:", create=True) as ledger:
        figures = real_import_figures(ledger, "run")
    assert (figures["import_real_pbn_records"], figures["import_real_bws_records"]) == (299, 270)
    assert figures["import_real_pbn_events"] == 14323
    for prefix in ("import_real_pbn", "import_real_bws"):
        assert figures[f"{prefix}_cpu_s"] > 0 and figures[f"{prefix}_wall_s"] > 0
        assert figures[f"{prefix}_eps_cpu"] == pytest.approx(
            figures[f"{prefix}_events"] / figures[f"{prefix}_cpu_s"], rel=0.02)


def test_r_in_a_traveller_row_is_read_as_xx_with_a_note(ledger):
    # table 3: 3NT by North redoubled, 9 tricks, none vulnerable: 800 (written 3NR)
    text = _ffb().replace(b" 3  3 11 3NT   N  9 SA     400      -", b" 3  3 11 3NR   N  9 SA     800      -")
    report = import_data(ledger, text, "pbn")
    assert report.failed == []
    assert ledger.state("tournoi-du-lundi/t3/b1")["result"]["risk"] == "XX"
    assert any("ScoreTable row 3: Contract '3NR': 'R' read as redoubled" in w.reason
               for w in report.warnings)
