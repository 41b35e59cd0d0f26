"""A tournament's results as the federation formats need them (``usebio``,
``pbn_results``, CSV travellers): per board its deal and each table's row from the
ledger's own ``results`` (contract, declarer, tricks, score, matchpoints or IMPs,
adjusted scores), with the opening lead; the ranking; numbers for the pairs or teams.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import attrs

from ledger.service import Ledger


@attrs.frozen
class BoardOut:
    number: int
    deal: str  # PBN
    dealer: str
    vulnerability: str
    rows: tuple[dict[str, Any], ...]
    streams: tuple[str, ...]


@attrs.frozen
class TournamentOut:
    name: str
    scoring: str  # MP or IMP
    boards: tuple[BoardOut, ...]
    standings: tuple[dict[str, Any], ...]
    numbers: dict[str, int]  # pair or team name -> its number in the file

    @property
    def teams(self) -> bool:
        return self.scoring == "IMP"


def gather(ledger: Ledger, tournament: str) -> TournamentOut:
    """What the writers write, from the ledger's results of ``tournament``."""
    from ledger.errors import BadInput
    from ledger.tournament import tournament_tables
    from projections.results import results

    tables = tournament_tables(ledger, tournament)
    if not tables:
        raise BadInput("no board of this tournament in the store", field="TOURNAMENT", value=tournament)
    doc = results(tournament, tables)
    states = dict(tables)
    boards = []
    names: set[str] = set()
    for board in doc["boards"]:
        rows = []
        for r in board["results"]:
            row = dict(r)
            row["lead"] = _lead(ledger, r["stream"])
            rows.append(row)
            names.update(n for n in (r["ns"], r["ew"]) if n)
        first = states[board["results"][0]["stream"]]
        boards.append(BoardOut(board["board"], first.board.deal.to_pbn(), str(first.board.dealer),
                               str(first.board.vulnerability), tuple(rows),
                               tuple(r["stream"] for r in board["results"])))
    numbers = {name: i for i, name in enumerate(sorted(names), start=1)}
    return TournamentOut(tables[0][1].board.tournament, doc["scoring"], tuple(boards),
                         tuple(doc["standings"]), numbers)


def _lead(ledger: Ledger, stream: str) -> str | None:
    """The opening lead: the first card counted in a trick, or a reported result's lead."""
    state = ledger.state(stream)
    if state["tricks"] and state["tricks"][0]["cards"]:
        return str(state["tricks"][0]["cards"][0]["card"])
    for e in ledger.events(stream):
        if e.type == "ResultReported" and e.data.get("lead"):
            return str(e.data["lead"])
    return None


def artificial(row: dict[str, Any]) -> tuple[str, str] | None:
    """(NS's, EW's) artificial score (``A+``, ``A``, ``A-``) of an artificial award, else None."""
    adjusted = row.get("adjusted")
    if adjusted and adjusted.get("kind") == "artificial":
        return str(adjusted.get("ns")), str(adjusted.get("ew"))
    return None


def adjusted_mark(row: dict[str, Any]) -> str:
    """How a row's score was adjusted, in a cell: ``assigned 2017:12C1b``, or ``-``."""
    adjusted = row.get("adjusted")
    if not adjusted:
        return "-"
    return f"{adjusted.get('kind')} {adjusted.get('law') or ''}".strip()


def number(value: float | None, decimals: int = 2) -> str:
    """A figure with ``decimals`` places (``-`` for none)."""
    if value is None:
        return "-"
    return f"{value:.{decimals}f}"


CSV_COLUMNS = ("board", "table", "room", "ns", "ew", "contract", "declarer", "tricks", "lead", "score_ns",
               "adjusted", "mp_ns", "mp_ew", "pct_ns", "imp_ns", "imp_ew", "stream")


def write_csv(out: TournamentOut) -> str:
    """The travellers as CSV: one line per table per board (``CSV_COLUMNS``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for board in out.boards:
        for r in board.rows:
            art = artificial(r)
            contract = f"{r['contract']}{r['risk'] or ''}" if r["contract"] else (f"{art[0]}/{art[1]}" if art else "")
            writer.writerow([board.number, r["table"], r.get("room") or "", r["ns"] or "", r["ew"] or "",
                             contract, r["declarer"] or "", "" if r["tricks"] is None else r["tricks"],
                             r["lead"] or "", "" if r["score_ns"] is None else r["score_ns"],
                             "" if not r["adjusted"] else adjusted_mark(r),
                             *("" if r.get(k) is None else r[k] for k in ("mp_ns", "mp_ew", "pct_ns", "imp_ns",
                                                                         "imp_ew")),
                             r["stream"]])
    return buffer.getvalue()
