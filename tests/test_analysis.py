"""Double-dummy analysis (the optional ``analysis`` extra, endplay's DDS solver).

Checked against DDS's own regression file (``dds-hands-list100.txt``: the
double-dummy table of each of 100 deals) and the RealBridge file's
``DoubleDummyTricks`` tags.  Skipped, with the reason, when endplay is not
installed (CI installs only ``.[test]``); the error without it is tested always.
"""

from __future__ import annotations

import builtins
import re
from pathlib import Path

import pytest

from ledger.bridge import Deal
from ledger.cli import main

BRIDGE_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data"
DDS_LIST = BRIDGE_DATA / "dds-hands-list100.txt"
REALBRIDGE = BRIDGE_DATA / "realbridge-2021-online-qual-open-r2.pbn"
DATA = Path(__file__).resolve().parent / "data"

try:
    import endplay.dds  # noqa: F401
    HAS_ENDPLAY = True
except ImportError:
    HAS_ENDPLAY = False
requires_endplay = pytest.mark.skipif(
    not HAS_ENDPLAY, reason="endplay not installed: pip install '.[analysis]' to run these")


def _dds_deals() -> list[tuple[str, list[int]]]:
    """(PBN deal, TABLE) of each deal of the DDS list (TABLE: S,H,D,C,NT x N,E,S,W)."""
    if not DDS_LIST.exists():
        return []
    deals, deal = [], None
    for line in DDS_LIST.read_text(encoding="utf-8").splitlines():
        if line.startswith("PBN "):
            deal = re.search(r'"([^"]+)"', line).group(1)
        elif line.startswith("TABLE ") and deal is not None:
            deals.append((deal, [int(x) for x in line.split()[1:]]))
            deal = None
    return deals


DDS_DEALS = _dds_deals()


@requires_endplay
@pytest.mark.skipif(not DDS_DEALS, reason=f"DDS data not found at {DDS_LIST}")
def test_dd_tables_of_the_first_twenty_dds_regression_deals_match_the_file():
    # Twenty of the hundred keep the suite fast (about 0.1 s a table).
    from ledger.analysis import dd_table

    assert len(DDS_DEALS) == 100
    for pbn, cells in DDS_DEALS[:20]:
        table = dd_table(Deal.parse(pbn))
        expected = {strain: dict(zip("NESW", cells[4 * i:4 * i + 4]))
                    for i, strain in enumerate(("S", "H", "D", "C", "NT"))}
        assert table == expected, pbn


@requires_endplay
@pytest.mark.skipif(not REALBRIDGE.exists(), reason=f"real PBN data not found at {REALBRIDGE}")
def test_dd_tables_of_the_realbridge_boards_match_their_double_dummy_tricks_tag():
    from ledger.analysis import dd_table
    from ledger.records.formats.pbn import read_pbn

    boards = {r.tags["Board"]: r for r in read_pbn(REALBRIDGE.read_text(encoding="utf-8"))}
    assert len(boards) == 10
    for record in boards.values():
        # DoubleDummyTricks: N, S, E, W, each NT S H D C, in hexadecimal.
        digits = [int(c, 16) for c in record.tags["DoubleDummyTricks"]]
        table = dd_table(Deal.parse(record.tags["Deal"]))
        for i, seat in enumerate("NSEW"):
            got = [table[strain][seat] for strain in ("NT", "S", "H", "D", "C")]
            assert got == digits[5 * i:5 * i + 5], (record.tags["Board"], seat)


@pytest.fixture
def imported(tmp_path):
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    assert main(["--db", db, "import", str(DATA / "markers.pbn")]) == 0
    return db


@requires_endplay
def test_at_the_opening_lead_the_best_card_gives_the_defence_what_the_dd_table_leaves(imported):
    from ledger.analysis import analyse
    from ledger.service import Ledger

    with Ledger.open(imported) as ledger:
        state, _ = ledger.table_state("markers/t1/b6", at=7)  # the auction is over: 1NT by N
    doc = analyse(state)
    play = doc["play"]
    assert (play["turn"], play["side"], play["remaining_tricks"]) == ("E", "EW", 13)
    assert {c["card"] for c in play["cards"]} == {"SQ", "S5", "HK", "HJ", "H5", "H2", "DK",
                                                  "DQ", "D8", "D7", "D4", "CT", "C8"}
    best = max(c["tricks"] for c in play["cards"])
    assert best == 13 - doc["dd_table"]["NT"]["N"]


@requires_endplay
def test_in_the_middle_of_a_trick_the_cards_are_those_that_follow_suit(imported, capsys):
    # Board 6: East leads D4 and South (dummy) plays D6: West must follow with D3 or D2.
    assert main(["--db", imported, "analyse", "markers/t1/b6", "--at", "9", "--json"]) == 0
    import json

    doc = json.loads(capsys.readouterr().out)
    assert doc["play"]["turn"] == "W"
    assert sorted(c["card"] for c in doc["play"]["cards"]) == ["D2", "D3"]
    assert main(["--db", imported, "analyse", "markers/t1/b6", "--at", "9"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "after seq 9: W to play" in out and "double-dummy table of the deal" in out


def test_without_endplay_analysis_names_the_extra_to_install(monkeypatch):
    from ledger import analysis

    real_import = builtins.__import__

    def no_endplay(name, *args, **kwargs):
        if name.startswith("endplay"):
            raise ImportError("No module named 'endplay'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_endplay)
    with pytest.raises(analysis.AnalysisUnavailable, match=r"pip install 'bridge-ruling-ledger\[analysis\]'"):
        analysis.dd_table(Deal.parse(
            "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"))


def test_no_card_to_analyse_during_the_auction_names_the_phase_as_the_document_does(imported, monkeypatch):
    """The phase is a ``Phase`` member: the message says its value (``'auction'``), not the member's repr."""
    from ledger import analysis
    from ledger.service import Ledger

    monkeypatch.setattr(analysis, "_endplay", lambda: (None, None))  # the phase is checked before the solver runs
    with Ledger.open(imported) as ledger:
        state, _ = ledger.table_state("markers/t1/b6", at=2)  # a call made, the auction goes on
    with pytest.raises(analysis.AnalysisUnavailable, match=r"no card to analyse: the board is in phase 'auction'$"):
        analysis.card_tricks(state)
