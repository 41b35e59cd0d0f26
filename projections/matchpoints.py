"""Matchpoints across a pairs field (Law 78A) with adjusted scores (Law 12).

* Each score earns 2 matchpoints for every score it beats and 1 for every tie
  on the same board; the top is 2 x (tables - 1); the percentage is
  matchpoints / top.
* Results are compared only with the results actually obtained; when fewer
  tables than the board's full count have a result (artificial scores, a
  cancelled result), the matchpoints are brought to the full count with the
  Neuberg formula: ``MP' = (MP + 1) x N / n - 1`` (n results compared, N tables).
* An artificial score is a percentage of the top (``A+`` 60 %, ``A`` 50 %,
  ``A-`` 40 %, or the percentage given), and the two sides need not balance.
* A weighted score (2017 12C1c) scores each component result separately
  against the field, then takes the weighted sum of the matchpoints (never a
  weighted sum of raw points).
* A split assigned score gives each side its own result, each scored against
  the field from that side's point of view.
"""

from __future__ import annotations

from typing import Sequence

from projections.vocab import Edition

ARTIFICIAL = {"A+": 60.0, "A": 50.0, "A-": 40.0}
ARTIFICIAL_IMPS = {"A+": 3, "A": 0, "A-": -3}


def matchpoints_against(score: int, field: Sequence[int]) -> float:
    """Matchpoints of ``score`` (from one side's view) against the other scores
    of the field (same view): 2 per score beaten, 1 per tie."""
    return float(sum(2 if score > other else 1 if score == other else 0 for other in field))


def neuberg(mp: float, compared: int, tables: int) -> float:
    """Matchpoints won against ``compared`` results (``compared`` + 1 results on the
    board, this one included) brought to a board played ``tables`` times."""
    n = compared + 1
    if n == tables:
        return mp
    return (mp + 1) * tables / n - 1


def artificial_pct(award: str | int | float, session_pct: float | None, edition: str) -> float:
    """The percentage an artificial award gives (Law 12C; digest 9.2 and 13).

    2017 12C2c: a non-offending contestant above 60 % on its other boards gets
    that percentage for ``A+``. 1997 practice: ``A+`` = max(60, session),
    ``A-`` = min(40, session)."""
    if isinstance(award, (int, float)):
        return float(award)
    pct = ARTIFICIAL[award]
    if session_pct is None:
        return pct
    if award == "A+":
        return max(pct, session_pct)
    if award == "A-" and edition == Edition.E1997:
        return min(pct, session_pct)
    return pct


def top(tables: int) -> float:
    return 2.0 * (tables - 1)
