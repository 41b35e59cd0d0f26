"""A PBN 2.1 results file (``cli.py export-results TOURNAMENT --format pbn``): what
scoring programs (the FFB's among them) export and the ledger's reader reads back.

* **Pairs** (matchpoints): one game per board, the deal, auction and play of its
  first table as ``pbn_export.game_text`` writes them (the other tables' calls and
  cards are in their own case files and ``export``), then a ``ScoreTable``: every
  table's ``Table``, ``PairId_NS``, ``PairId_EW``, ``Contract``, ``Declarer``,
  ``Result`` (tricks), ``Lead``, ``Score_NS``/``Score_EW``, ``MP_NS``/``MP_EW``,
  ``Percentage_NS``/``Percentage_EW`` and ``Adjusted`` (ours: the kind and Law of an
  adjusted score, ``-`` for none); an artificial score is written as the FFB does,
  ``A+``/``A``/``A-`` in ``Score_NS``/``Score_EW`` with no contract.
* **Teams** (IMPs): every table's game (``game_text``: Room, HomeTeam/VisitTeam), the
  board's IMPs in ``ScoreIMP``.
* The last game carries the ``TotalScoreTable``: ``Rank``, ``PairId`` (or ``TeamId``),
  ``TotalScoreMP`` and ``TotalPercentage`` (pairs) or ``TotalIMP`` (teams).

Figures have two decimals unless ``decimals`` says otherwise (the FFB writes one).
``columns`` chooses the ScoreTable's columns (a file read in is written back with its own).
"""

from __future__ import annotations

from typing import Any, Sequence

from ledger.records.formats.pbn_export import game_text
from ledger.records.formats.results_out import TournamentOut, adjusted_mark, artificial, number
from ledger.service import Ledger

PAIRS_COLUMNS = ("Table", "PairId_NS", "PairId_EW", "Contract", "Declarer", "Result", "Lead", "Score_NS",
                 "Score_EW", "MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW", "Adjusted")
_WIDTH = {"Table": "2R", "PairId_NS": "2R", "PairId_EW": "2R", "Contract": "5L", "Declarer": "1R",
          "Result": "2R", "Lead": "3L", "Score_NS": "6R", "Score_EW": "6R", "MP_NS": "5R", "MP_EW": "5R",
          "Percentage_NS": "3R", "Percentage_EW": "3R", "IMP_NS": "6R", "IMP_EW": "6R", "Adjusted": "20L"}


def _quote(value: object) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cell(value: object) -> str:
    text = "-" if value is None or value == "" else str(value)
    return _quote(text) if any(ch.isspace() for ch in text) or '"' in text else text


def _pct_ew(row: dict[str, Any], top: float | None) -> float | None:
    """East-West's percentage: from its own matchpoints on an adjusted row (an artificial
    A+/A+ does not balance, so it is not 100 less North-South's), else 100 less NS's."""
    if row.get("adjusted") and row.get("mp_ew") is not None and top:
        mp_ew: float = row["mp_ew"]
        return 100 * mp_ew / top
    return None if row.get("pct_ns") is None else 100 - row["pct_ns"]


def score_row(row: dict[str, Any], decimals: int = 2, top: float | None = None) -> dict[str, str]:
    """One table's ScoreTable cells (every column we know); ``top`` is the board's top."""
    art = artificial(row)
    score = row.get("score_ns")
    cells: dict[str, Any] = {
        "Table": row["table"], "PairId_NS": row["ns"], "PairId_EW": row["ew"],
        "Contract": None, "Declarer": None, "Result": None, "Lead": None, "Score_NS": None, "Score_EW": None,
        "MP_NS": number(row.get("mp_ns"), decimals), "MP_EW": number(row.get("mp_ew"), decimals),
        "Percentage_NS": number(row.get("pct_ns"), decimals),
        "Percentage_EW": number(_pct_ew(row, top), decimals),
        "IMP_NS": number(row.get("imp_ns"), decimals), "IMP_EW": number(row.get("imp_ew"), decimals),
        "Adjusted": adjusted_mark(row),
    }
    if art is not None:
        cells["Score_NS"], cells["Score_EW"] = art
    elif row.get("contract") == "Pass":
        cells.update(Contract="Pass", Score_NS=0, Score_EW=0)
    elif row.get("contract"):
        cells.update(Contract=f"{row['contract']}{row.get('risk') or ''}", Declarer=row["declarer"],
                     Result=row["tricks"], Lead=row.get("lead"))
        if score is not None:
            cells["Score_NS"], cells["Score_EW"] = (score, None) if score >= 0 else (None, -score)
    return {k: _cell(v) for k, v in cells.items()}


def score_table_lines(rows: Sequence[dict[str, Any]], columns: Sequence[str], decimals: int) -> list[str]:
    head = ";".join(f"{c}\\{_WIDTH.get(c, '5R')}" for c in columns)
    lines = [f'[ScoreTable "{head}"]']  # the column names' backslashes as PBN writes them
    scored = sum(1 for r in rows if r.get("mp_ns") is not None or r.get("mp_ew") is not None)
    top = 2.0 * (scored - 1) if scored > 1 else None  # 2 a table beaten (Law 78A), as the reader's check
    for row in rows:
        cells = score_row(row, decimals, top)
        lines.append(" ".join(cells.get(c, "-") for c in columns))
    return lines


def total_score_lines(out: TournamentOut, decimals: int) -> list[str]:
    if out.teams:
        lines = ['[TotalScoreTable "Rank\\2R;TeamId\\20L;TotalIMP\\6R"]']
        lines += [f"{e['rank']} {_cell(e['name'])} {number(e['score'], decimals)}" for e in out.standings]
        return lines
    lines = ['[TotalScoreTable "Rank\\2R;PairId\\20L;TotalScoreMP\\6R;TotalPercentage\\5R"]']
    lines += [f"{e['rank']} {_cell(e['name'])} {number(e['score'], decimals)} {number(e.get('pct'), decimals)}"
              for e in out.standings]
    return lines


def write_pbn_results(ledger: Ledger, out: TournamentOut, *, columns: Sequence[str] | None = None,
                      decimals: int = 2) -> str:
    """The PBN results file of a tournament (see the module)."""
    from ledger.service import fold_events

    parts = ["% PBN 2.1", "% EXPORT", "% Results exported by the bridge ruling ledger", ""]
    games: list[list[str]] = []
    for board in out.boards:
        streams = board.streams if out.teams else board.streams[:1]
        for stream in streams:
            stored = ledger.events(stream)
            state = fold_events(stored)
            assert state is not None
            lines = game_text(stored, state)
            if out.teams:
                row = next(r for r in board.rows if r["stream"] == stream)
                if row.get("imp_ns") is not None:
                    lines.append(f'[ScoreIMP "NS {number(row["imp_ns"], decimals)}"]')
            else:
                lines += score_table_lines(board.rows, columns or PAIRS_COLUMNS, decimals)
            games.append(lines)
    if games:
        games[-1] += total_score_lines(out, decimals)
    for lines in games:
        parts.extend(lines)
        parts.append("")
    return "\n".join(parts)
