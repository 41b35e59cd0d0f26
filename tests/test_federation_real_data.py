"""The federation formats on a real tournament (issue 25): the RealBridge teams file of
``shared/bridge-data`` imported, exported to USEBIO 1.2 and to a PBN results file, and
read back: the USEBIO passes its checks and every figure our scorer checks agrees (the
unplayed match has no traveller line and is named as not compared); the PBN results
file, imported by our reader, agrees with every stated result, every ScoreIMP and the
ranking."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ledger.cli import main
from ledger.records.formats.usebio import validate

BRIDGE_DATA = Path(os.environ.get("LEDGER_BRIDGE_DATA")  # where the checkout has no ../shared beside it
                   or Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data")
REALBRIDGE = BRIDGE_DATA / "realbridge-2021-online-qual-open-r2.pbn"
NAME = "2021 Online Qual: Open R2"
pytestmark = pytest.mark.skipif(not REALBRIDGE.exists(), reason=f"real PBN data not found at {REALBRIDGE}")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    where = tmp_path_factory.mktemp("realbridge")
    url = f"sqlite:///{where / 'source.db'}"
    assert main(["--db", url, "import", str(REALBRIDGE)]) == 0
    xml, pbn = where / "results.xml", where / "results.pbn"
    assert main(["--db", url, "export-results", NAME, "--format", "usebio", "-o", str(xml)]) == 0
    assert main(["--db", url, "export-results", NAME, "--format", "pbn", "-o", str(pbn)]) == 0
    return xml, pbn


def test_the_real_tournament_in_usebio_reads_back_with_no_disagreement(exported, store_url, capsys):
    xml, _ = exported
    assert validate(xml.read_text(encoding="utf-8")) == []
    capsys.readouterr()
    assert main(["--db", store_url, "import", str(xml), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["streams"]) == 279  # every played table; the unplayed match has no line
    assert report["disagreements"] == [] and report["checked"] > 300
    assert report["not_compared"] == ["ITALY", "WALES"]


def test_the_real_tournament_in_pbn_results_reads_back_through_our_reader(exported, tmp_path, capsys):
    _, pbn = exported
    capsys.readouterr()
    assert main(["--db", f"sqlite:///{tmp_path / 'back.db'}", "import", str(pbn), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["imported"] == 299 and report["agreed"] == 279
    assert report["check_mismatches"] == 0 and report["score_imp_mismatches"] == 0
