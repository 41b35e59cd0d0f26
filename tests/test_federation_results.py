"""Results out in the formats federations read (issue 25, item 1), on both stores:
USEBIO 1.2 for a pairs and a teams event (structural checks: the DTD could not be
obtained, see ledger/records/formats/usebio.py), read back by ``import results.xml`` with every
disagreement named; the PBN results file read back by our reader with the same results;
an FFB ScoreTable (one decimal, an ``A+`` row) read and written back row for row; CSV."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from federation_kit import PAIRS_RESULTS, pairs_event, teams_event
from cli_helpers import run

from ledger.records.formats.pbn import read_pbn
from ledger.records.formats.pbn_tables import score_table, total_score_table
from ledger.records.formats.usebio import parse_xml, validate
from ledger.service import Ledger

FFB = Path(__file__).resolve().parent / "data" / "federation" / "ffb-scoretable.pbn"


@pytest.fixture
def events(store_url, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", store_url)
    with Ledger.open(store_url, create=True) as ledger:
        pairs_event(ledger)
        teams_event(ledger)
    return store_url


def _results(url: str, tournament: str) -> dict:
    from ledger.tournament import tournament_tables
    from projections.results import results

    with Ledger.open(url) as ledger:
        doc = results(tournament, tournament_tables(ledger, tournament))
    rows = {(b["board"], r["ns"], r["ew"]): {k: r[k] for k in ("contract", "declarer", "risk", "tricks", "score_ns",
                                                                "mp_ns", "mp_ew", "imp_ns", "imp_ew")}
            for b in doc["boards"] for r in b["results"]}
    return {"rows": rows, "standings": [(e["name"], e["rank"], e["score"], e.get("pct")) for e in doc["standings"]]}


def test_usebio_of_a_pairs_event_passes_the_checks_and_reads_back_with_no_disagreement(events, capsys, tmp_path):
    path = tmp_path / "results.xml"
    code, out, err = run(capsys, "export-results", "Lyon pairs", "--format", "usebio", "-o", str(path))
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    assert validate(text) == []
    root = parse_xml(text)
    assert root.get("Version") == "1.2" and root.find("EVENT").get("EVENT_TYPE") == "MP_PAIRS"
    lines = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    assert len(lines) == sum(len(t) for t in PAIRS_RESULTS.values())
    art = [x for x in lines if x.findtext("SCORE") == "A+/A-"]
    assert len(art) == 1 and art[0].find("CONTRACT") is None
    assert {x.findtext("PLACE") for x in root.findall("EVENT/PARTICIPANTS/PAIR")} == {"1", "2", "3", "4"}
    other = tmp_path / "other.db"
    code, out, err = run(capsys, "--db", f"sqlite:///{other}", "import", str(path))
    assert code == 0, err
    assert "8 traveller line(s) held" in out and ", 0 disagree" in out
    assert _results(f"sqlite:///{other}", "Lyon pairs") == _results(events, "Lyon pairs")


def test_usebio_of_a_teams_event_passes_the_checks_and_reads_back(events, capsys, tmp_path):
    path = tmp_path / "teams.xml"
    assert run(capsys, "export-results", "Paris teams", "-o", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    assert validate(text) == []
    root = parse_xml(text)
    assert root.find("EVENT").get("EVENT_TYPE") == "TEAMS_OF_FOUR"
    match = root.find("EVENT/MATCH")
    assert (match.findtext("TEAM_SCORE"), match.findtext("OPPOSING_TEAM_SCORE")) == ("18.00", "-18.00")
    assert [t.findtext("TEAM_NAME") for t in root.findall("EVENT/PARTICIPANTS/TEAM")] == ["Alpha", "Beta"]
    other = tmp_path / "other.db"
    code, out, _ = run(capsys, "--db", f"sqlite:///{other}", "import", str(path), "--json")
    report = json.loads(out)
    assert code == 0 and report["disagreements"] == [] and report["checked"] == 9
    mine, theirs = _results(events, "Paris teams"), _results(f"sqlite:///{other}", "Paris teams")
    assert theirs["standings"] == mine["standings"] == [("Alpha", 1, 18.0, None), ("Beta", 2, -18.0, None)]
    # a retry writes nothing
    code, out, _ = run(capsys, "--db", f"sqlite:///{other}", "import", str(path), "--json")
    assert json.loads(out)["events"] == 0 and json.loads(out)["already_stored"] == 4
    # a match total another program got wrong is named
    path.write_text(text.replace("<TEAM_SCORE>18.00</TEAM_SCORE>", "<TEAM_SCORE>20.00</TEAM_SCORE>"),
                    encoding="utf-8")
    code, out, _ = run(capsys, "--db", f"sqlite:///{tmp_path / 'third.db'}", "import", str(path))
    assert code == 0 and "DISAGREES: match Alpha v Beta: the file's TEAM_SCORE 20, the ledger's 18" in out


def test_a_file_scored_by_another_program_has_every_disagreement_named(events, capsys, tmp_path):
    path = tmp_path / "results.xml"
    run(capsys, "export-results", "Lyon pairs", "-o", str(path))
    text = path.read_text(encoding="utf-8")
    text = text.replace("<SCORE>450</SCORE>", "<SCORE>480</SCORE>", 1)  # a miscounted score
    text = re.sub(r"(<PAIR_NUMBER>5</PAIR_NUMBER>\s*<DIRECTION>\w+</DIRECTION>\s*<PLACE>)\d+", r"\g<1>1", text)
    path.write_text(text, encoding="utf-8")
    other = tmp_path / "other.db"
    code, out, _ = run(capsys, "--db", f"sqlite:///{other}", "import", str(path))
    assert code == 0
    assert "DISAGREES: board 1, N2 v E2: the file's NS score 480, the ledger's 450" in out
    assert "DISAGREES: N1: the file's PLACE 1, the ledger's 2" in out  # pair 5 is N1 (names sorted)
    assert out.count("DISAGREES") == 2


def test_a_malformed_usebio_file_is_refused_naming_the_line_and_nothing_is_written(events, capsys, tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text('<?xml version="1.0"?>\n<USEBIO Version="1.2">\n<EVENT>\n</USEBIO>\n', encoding="utf-8")
    other = tmp_path / "other.db"
    code, _, err = run(capsys, "--db", f"sqlite:///{other}", "import", str(path))
    assert code == 2 and "not well-formed XML at line 4" in err
    path.write_text('<USEBIO Version="1.1"><EVENT EVENT_TYPE="MP_PAIRS"/></USEBIO>', encoding="utf-8")
    code, _, err = run(capsys, "--db", f"sqlite:///{other}", "import", str(path))
    assert code == 2 and "USEBIO Version is '1.1'" in err
    with Ledger.open(f"sqlite:///{other}", create=True) as ledger:
        assert ledger.store.streams() == []


def test_the_pbn_results_file_read_back_by_our_reader_gives_the_same_results(events, capsys, tmp_path):
    path = tmp_path / "results.pbn"
    assert run(capsys, "export-results", "Lyon pairs", "--format", "pbn", "-o", str(path))[0] == 0
    records = read_pbn(path.read_text(encoding="utf-8"))
    tables = [score_table(r) for r in records]
    assert [len(t) for t in tables] == [4, 4]
    assert tables[0][3]["Score_NS"] == "A+" and tables[0][3]["Adjusted"] == "artificial 2017:12C2"
    assert tables[1][2]["Adjusted"] == "assigned 2017:12C1b"
    assert len(total_score_table(records[-1])) == 8
    other = tmp_path / "other.db"
    code, out, err = run(capsys, "--db", f"sqlite:///{other}", "import", str(path), "--json")
    report = json.loads(out)
    assert code == 0, err
    assert report["check_mismatches"] == 0 and report["imported"] == 8, report["checks"]
    assert _results(f"sqlite:///{other}", "Lyon pairs") == _results(events, "Lyon pairs")


def test_an_ffb_scoretable_is_read_and_written_back_with_every_row_equal(store_url, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LEDGER_DB", store_url)
    code, out, _ = run(capsys, "import", str(FFB), "--json")
    report = json.loads(out)
    assert code == 0 and report["check_mismatches"] == 0 and report["imported"] == 6
    original = read_pbn(FFB.read_text(encoding="latin-1"))[0]
    columns = [c.split("\\")[0] for c in original.tags["ScoreTable"].split(";")]
    from ledger.records.formats.pbn_results import write_pbn_results
    from ledger.records.formats.results_out import gather

    with Ledger.open(store_url) as ledger:
        text = write_pbn_results(ledger, gather(ledger, "Simultane FFB"), columns=columns, decimals=1)
    written = read_pbn(text)[0]
    assert score_table(written) == score_table(original)  # every row, every cell
    assert score_table(written)[5]["Score_NS"] == "A+" and score_table(written)[0]["MP_NS"] == "7.4"


def test_csv_travellers_have_one_line_per_table_and_board(events, capsys):
    code, out, _ = run(capsys, "export-results", "Lyon pairs", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 8
    art = next(r for r in rows if r["board"] == "1" and r["table"] == "4")
    assert art["contract"] == "A+/A-" and art["adjusted"] == "artificial 2017:12C2" and art["mp_ns"] == "6.0"
    assert next(r for r in rows if r["stream"] == "lyon/t2/b1")["score_ns"] == "450"
    code, _, err = run(capsys, "export-results", "Nowhere", "--format", "csv")
    assert code == 2 and "no board of this tournament" in err
