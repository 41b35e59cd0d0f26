"""Bridgemate sessions (issue 27): ``cli.py import SESSION.bws``.

The real session is ``../shared/bridge-data/bridgemate-lbc-2026-01-26.bws`` (a club's
Mitchell, 10 tables, 27 boards; SOURCES.md).  Its expectations below are computed by
hand from its ReceivedData rows (board 1) or by a scorer written here, independent of
the ledger's (the rankings); the erased, unknown-pair and bidding/play rows are added to
the real file's rows (its BiddingData and PlayData are empty)."""

from __future__ import annotations

import copy
import re
from collections import defaultdict
from pathlib import Path

import pytest

from ledger.cli import main
from ledger.records.formats import bws
from ledger.records.games import UNREADABLE, export_pbn, import_bws, import_text, tournament_streams
from ledger.service import Ledger
from projections.results import results

BRIDGE_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data"
SESSION = BRIDGE_DATA / "bridgemate-lbc-2026-01-26.bws"
HANDS = BRIDGE_DATA / "bridgemate-lbc-2026-01-26-handrecord.pbn"
NAME = "bridgemate-lbc-2026-01-26"

pytestmark = pytest.mark.skipif(not SESSION.exists(), reason=f"real Bridgemate file not at {SESSION}")


@pytest.fixture(scope="module")
def rows():
    return bws.read_tables(SESSION)


@pytest.fixture
def ledger(store_url):
    opened = Ledger.open(store_url, create=True)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def session_doc():
    """The real session imported once (an in-memory store) and its results: what the
    scoring tests read; the import itself is tested on both stores below."""
    with Ledger.open("sqlite:///:memory:", create=True) as opened:
        import_bws(opened, SESSION)
        yield _doc(opened)


def _doc(ledger: Ledger, name: str = NAME) -> dict:
    return results(name, tournament_streams(ledger, name))


def _entry(doc: dict, board: int, table: str) -> dict:
    found = next(b for b in doc["boards"] if b["board"] == board)
    return next(r for r in found["results"] if r["table"] == table)


# The real session ---------------------------------------------------------------

def test_the_real_session_imports_every_row(ledger):
    report = import_bws(ledger, SESSION)
    # 270 ReceivedData rows: 264 results, 6 "Not played" (tables 6 and 7, rounds 8 and 9)
    assert (report.records, len(report.imported), report.failed) == (270, 270, [])
    assert (report.agreed, report.unstated, len(report.not_played)) == (264, 6, 6)
    assert "table 6, round 8, board 16" in report.not_played
    assert report.players["1 NS"] == ["North: Lynn Gast (8502978)",
                                      "South: Rosema LaFrancesca (7351194)"]
    assert report.players["1 EW"] == ["East: Jo Streich (5753988)", "West: Norman Bregman (5415322)"]
    # the same file again: a retry that writes nothing
    again = import_bws(ledger, SESSION)
    assert again.failed == [] and again.events == 0 and all(r.retried for r in again.imported)


def test_board_1_scored_as_computed_by_hand(session_doc):
    """Board 1, nobody vulnerable, ten tables (ReceivedData IDs 1, 8, 38, 73, 92, 157, 191,
    220, 248, 254): 4S+2 by N six times (NS +480), 4S= by N at table 3 (+420), 4D+2 by S
    at tables 2 and 10 (+170), 5D-1 by S at table 8 (-50).  Matchpoints (2 per score
    beaten, 1 per tie, top 18): +480 beats 4 and ties 5 = 13; +420 beats 3 = 6; +170
    beats 1 and ties 1 = 3; -50 = 0.  EW get 18 less."""
    doc = session_doc
    expected = {"1": (480, 13), "9": (480, 13), "7": (480, 13), "6": (480, 13), "5": (480, 13),
                "4": (480, 13), "3": (420, 6), "2": (170, 3), "10": (170, 3), "8": (-50, 0)}
    for table, (score, mp) in expected.items():
        entry = _entry(doc, 1, table)
        assert (entry["score_ns"], entry["mp_ns"], entry["mp_ew"]) == (score, mp, 18 - mp), table
    assert _entry(doc, 1, "8")["ns"] == "8 NS" and _entry(doc, 1, "8")["ew"] == "7 EW"
    assert (_entry(doc, 1, "8")["contract"], _entry(doc, 1, "8")["declarer"]) == ("5D", "S")


# An independent scorer: Law 77's table, written here -------------------------------

def _duplicate_score(level: int, strain: str, risk: str, tricks: int, vul: bool) -> int:
    need = level + 6
    mult = {"": 1, "X": 2, "XX": 4}[risk]
    if tricks < need:
        down = need - tricks
        if not risk:
            return -down * (100 if vul else 50)
        steps = [200, 300] if vul else [100, 200, 200, 300]
        total = sum(steps[min(i, len(steps) - 1)] for i in range(down))
        return -total * (2 if risk == "XX" else 1)
    per = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[strain]
    points = (per * level + (10 if strain == "NT" else 0)) * mult
    score = points + ((500 if vul else 300) if points >= 100 else 50)
    score += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    over = tricks - need
    score += over * (per if not risk else (200 if vul else 100) * (mult // 2))
    score += {"": 0, "X": 50, "XX": 100}[risk]
    return score


def test_the_independent_scorer_knows_a_few_scores():
    assert _duplicate_score(4, "S", "", 12, False) == 480
    assert _duplicate_score(4, "D", "", 12, False) == 170
    assert _duplicate_score(3, "NT", "", 10, True) == 630
    assert _duplicate_score(4, "S", "X", 8, False) == -300
    assert _duplicate_score(6, "H", "", 12, True) == 1430


def _vulnerable(board_side: str, side: str) -> bool:
    return board_side in ("All", "Both") or board_side == side


def _hand_computed_ranking(tables) -> dict[str, float]:
    """Each pair's percentage: its matchpoints over the boards it played, each board's top
    2 x (tables that played it - 1), from the rows and the hand record's vulnerability."""
    vul = {}
    for game in HANDS.read_text(encoding="latin-1").split("\n\n"):
        board = re.search(r'\[Board "(\d+)"\]', game)
        side = re.search(r'\[Vulnerable "(\w+)"\]', game)
        if board and side:
            vul[board.group(1)] = side.group(1)
    boards: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for row in tables["ReceivedData"]:
        if row["Erased"] or not (row["Contract"] or "").strip():
            continue
        m = re.fullmatch(r"([1-7]) (NT|[SHDC])( x{1,2})?", row["Contract"].strip())
        assert m, row
        level, strain, risk = int(m.group(1)), m.group(2), (m.group(3) or "").strip().upper()
        seat = row["NS/EW"]
        side = "NS" if seat in "NS" else "EW"
        result = row["Result"]
        tricks = level + 6 + (0 if result == "=" else int(result))
        score = _duplicate_score(level, strain, risk, tricks,
                                 _vulnerable(vul[str(row["Board"])], side))
        boards[row["Board"]].append((f"{row['PairNS']} NS", f"{row['PairEW']} EW",
                                     score if side == "NS" else -score))
    got: dict[str, float] = defaultdict(float)
    top: dict[str, float] = defaultdict(float)
    for scores in boards.values():
        for ns, ew, score in scores:
            mp = sum(2 if score > o else 1 if score == o else 0 for _, _, o in scores) - 1
            board_top = 2 * (len(scores) - 1)
            got[ns] += mp
            got[ew] += board_top - mp
            top[ns] += board_top
            top[ew] += board_top
    return {pair: round(100 * got[pair] / top[pair], 2) for pair in got}


def test_the_rankings_agree_with_a_scorer_written_here(session_doc, rows):
    standings = {s["name"]: s for s in session_doc["standings"]}
    mine = _hand_computed_ranking(rows)
    assert set(standings) == set(mine) and len(mine) == 20
    for pair, pct in mine.items():
        assert standings[pair]["pct"] == pct, pair
    # A few pairs, as that scorer gives them: the winners of each direction, and the
    # pair that missed two rounds (9 EW, 21 boards).
    assert (standings["6 NS"]["rank"], standings["6 NS"]["pct"], standings["6 NS"]["boards"]) == \
        (1, 55.63, 24)
    assert (standings["2 EW"]["rank"], standings["2 EW"]["score"]) == (1, 277)
    assert standings["9 EW"]["boards"] == 21
    assert standings["3 NS"]["tied"] and standings["5 NS"]["tied"]


# Rows added to the real file's --------------------------------------------------------

def _with_rows(rows, **changes):
    tables = copy.deepcopy(rows)
    for table, edit in changes.items():
        edit(tables[table])
    return tables


def test_an_erased_row_is_voided_and_the_next_row_is_the_result(ledger, rows):
    def edit(received):
        first = next(r for r in received if r["ID"] == 1)  # table 1, round 1, board 1: 4S+2 N
        first["Erased"] = True
        received.append({**first, "ID": 1001, "Result": "+1", "Erased": False})
    tables = _with_rows(rows, ReceivedData=edit)
    report = import_bws(ledger, SESSION, tables=tables)
    assert report.failed == []
    types = [e.type for e in ledger.events(f"{NAME}/t1/b1")]
    # the engine's record of the erased result is overridden when its entry is voided
    assert types == ["BoardOpened", "ResultReported", "ResultRecorded", "EntryVoided",
                     "RulingOverridden", "ResultReported", "ResultRecorded"]
    voided = next(e for e in ledger.events(f"{NAME}/t1/b1") if e.type == "EntryVoided")
    assert voided.data["about"] == "bws-r1" and "ReceivedData ID 1" in voided.data["reason"]
    assert _entry(_doc(ledger), 1, "1")["score_ns"] == 450
    # and the export writes the result in force, which imports again to the same
    text = export_pbn(ledger, [f"{NAME}/t1/b1"])
    assert '[Result "11"]' in text and '[Contract "4S"]' in text
    with Ledger.open("sqlite:///:memory:", create=True) as other:
        again = import_text(other, text, "pbn", tournament="again")
        assert again.failed == [] and again.agreed == 1


def test_a_row_with_an_unknown_pair_is_named_and_the_others_import(ledger, rows):
    def edit(received):
        row = next(r for r in received if r["ID"] == 8)  # table 9, round 1, board 1
        row["PairEW"] = 42
    report = import_bws(ledger, SESSION, tables=_with_rows(rows, ReceivedData=edit))
    assert len(report.imported) == 269 and len(report.failed) == 1
    problem = report.failed[0]
    assert problem.kind == UNREADABLE
    assert str(problem) == ("table 9, round 1, board 1: ReceivedData ID 8: East-West pair 42 "
                            "unknown to the movement (RoundData)")


def test_an_unreadable_contract_is_named_with_its_table_round_and_board(ledger, rows):
    def edit(received):
        next(r for r in received if r["ID"] == 73)["Contract"] = "4 Q"
    report = import_bws(ledger, SESSION, tables=_with_rows(rows, ReceivedData=edit))
    assert [str(p) for p in report.failed] == [
        "table 7, round 3, board 1: ReceivedData ID 73: Contract '4 Q' is not a contract "
        "(like '4 S', '3 NT x', 'PASS')"]


def test_a_lead_the_opening_leader_does_not_hold_is_flagged_and_kept(ledger, rows):
    def edit(received):
        # 4S by N at table 1: East leads; SK is South's (dummy's) card, HJ East's own.
        next(r for r in received if r["ID"] == 1)["LeadCard"] = "SK"
        next(r for r in received if r["ID"] == 8)["LeadCard"] = "HJ"
    report = import_bws(ledger, SESSION, tables=_with_rows(rows, ReceivedData=edit))
    assert report.failed == [] and report.lead_checks == 1
    assert report.checks == ["table 1, round 1, board 1: the lead SK is South's card (dummy), not "
                             "East's, the opening leader's: kept only as the reported lead"]
    reported = next(e for e in ledger.events(f"{NAME}/t1/b1") if e.type == "ResultReported")
    assert reported.data["lead"] == "SK"


BIDS = [  # BiddingData of table 1, round 1, board 1 (dealer N): 1H erased, then 1S ... 4S
    (1, 1, "N", "1H", True), (2, 1, "N", "1S", False), (3, 2, "E", "Pass", False),
    (4, 3, "S", "3S", False), (5, 4, "W", "Pass", False), (6, 5, "N", "4S", False),
    (7, 6, "E", "Pass", False), (8, 7, "S", "Pass", False), (9, 8, "W", "Pass", False)]
CARDS = [  # PlayData: trick 1 (East leads H8, West wins with the ace); 4S+2 claimed after it
    (1, 1, "E", "H8", False), (2, 2, "S", "H6", False), (3, 3, "W", "HA", False),
    (4, 4, "N", "H3", False)]


def _bidding_rows(received):
    return [{"ID": i, "Section": 1, "Table": 1, "Round": 1, "Board": 1, "Counter": c,
             "Direction": d, "Bid": b, "Erased": e} for i, c, d, b, e in received]


def _play_rows(cards):
    return [{"ID": i, "Section": 1, "Table": 1, "Round": 1, "Board": 1, "Counter": c,
             "Direction": d, "Card": card, "Erased": e} for i, c, d, card, e in cards]


def test_calls_and_cards_from_bidding_and_play_data(ledger, rows):
    tables = copy.deepcopy(rows)
    tables["BiddingData"] = _bidding_rows(BIDS)
    tables["PlayData"] = _play_rows(CARDS)
    report = import_bws(ledger, SESSION, tables=tables)
    assert report.failed == [] and report.agreed == 264
    events = ledger.events(f"{NAME}/t1/b1")
    assert [e.type for e in events[:4]] == ["BoardOpened", "CallPlaced", "EntryVoided", "CallPlaced"]
    assert [e.data["card"] for e in events if e.type == "CardPlayed"] == ["H8", "H6", "HA", "H3"]
    assert ledger.state(f"{NAME}/t1/b1")["result"]["text"] == "4S N +2"
    assert "ResultReported" not in [e.type for e in events]


def test_bidding_data_that_disagrees_with_the_row_is_refused(ledger, rows):
    tables = copy.deepcopy(rows)
    bids = [b if b[0] != 6 else (6, 5, "N", "3NT", False) for b in BIDS]
    tables["BiddingData"] = _bidding_rows(bids)
    report = import_bws(ledger, SESSION, tables=tables)
    assert [p.where for p in report.failed] == ["table 1, round 1, board 1"]
    assert report.failed[0].kind == "result differs"


def test_the_cli_imports_a_bws_and_names_the_pairs(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    assert main(["--db", db, "import", str(SESSION)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{NAME}: 270 of 270 record(s) imported")
    assert "PAIR 1 NS: North: Lynn Gast (8502978); South: Rosema LaFrancesca (7351194)" in out
    assert main(["--db", db, "import", str(tmp_path / "missing.bws")]) == 2
    (tmp_path / "bad.bws").write_bytes(b"not an access file")
    assert main(["--db", db, "import", str(tmp_path / "bad.bws")]) == 2
    assert "cannot read the Bridgemate database" in capsys.readouterr().err


def test_a_player_without_a_name_is_looked_up_in_player_names(rows):
    tables = copy.deepcopy(rows)
    first = tables["PlayerNumbers"][0]  # table 1, North: 8502978
    first["Name"] = ""
    tables["PlayerNames"] = [{"ID": 8502978, "Name": "L. Gast (register)", "strID": "8502978"}]
    session = bws.session_records(tables, bws.deals_from_hand_record(tables), "t")
    assert session.pairs["1 NS"][0] == "North: L. Gast (register) (8502978)"
    assert "PlayerNames" not in rows  # the register is read only when a name is missing


def test_the_hand_record_table_gives_the_same_deals_as_the_pbn_beside(rows):
    from ledger.records.games import hand_record_deals

    stored = bws.deals_from_hand_record(rows)
    beside = hand_record_deals(HANDS, [1])
    assert len(stored) == 36 and all(beside[k]["deal"] == v["deal"] for k, v in stored.items()
                                     if k in beside)
    assert beside[(1, 1)] == {"deal": stored[(1, 1)]["deal"], "dealer": "N",
                              "vulnerability": "None"}
