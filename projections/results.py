"""The results projection: every table's result of a tournament (``cli.py results``).

A pure function of the boards' folded states (no I/O): one :class:`TableResult`
per table per board, grouped by board, in the JSON shape of LEDGER-SPEC
section 8.  Scoring across tables is a pipeline of board scorers, looked up
by the tournament's scoring (:data:`BOARD_SCORERS`); each takes one board's
results and returns them with its columns filled:

* teams (``IMP``): :func:`imps_between_rooms` -- the two rooms of a match
  (the two tables of one board with the same ``match``) give each North-South
  pair the IMPs of its score against the other room's (Law 78B scale).
* pairs (``MP``): nothing yet.  Matchpoints across the field (``mp_ns``,
  ``mp_ew``, ``pct_ns``) and adjusted scores (``adjusted``, artificial scores
  that leave ``contract``/``tricks``/``score_ns`` null) are a later issue;
  they slot in as one more scorer in the list (adjusted scores first, since
  both IMPs and matchpoints read them) and one more field read by
  :func:`table_result`.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable, Sequence

import attrs

from ledger.scoring import imps
from projections.state import TableState


@attrs.frozen
class TableResult:
    """One table's result on one board, as the spec's ``results`` entry."""

    stream: str
    board: int
    table: str
    room: str | None
    match: str | None
    ns: str | None
    ew: str | None
    contract: str | None = None
    declarer: str | None = None
    risk: str | None = None
    tricks: int | None = None
    score_ns: int | None = None
    adjusted: dict[str, Any] | None = None
    mp_ns: float | None = None
    mp_ew: float | None = None
    pct_ns: float | None = None
    imp_ns: int | None = None

    @property
    def scored(self) -> bool:
        """The table has a score to compare (a result, or later an assigned adjusted score)."""
        return self.score_ns is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "stream": self.stream, "table": self.table, "room": self.room,
            "ns": self.ns, "ew": self.ew,
            "contract": self.contract, "declarer": self.declarer, "risk": self.risk,
            "tricks": self.tricks, "score_ns": self.score_ns, "adjusted": self.adjusted,
            "mp_ns": self.mp_ns, "mp_ew": self.mp_ew, "pct_ns": self.pct_ns,
            "imp_ns": self.imp_ns,
        }


def table_result(stream: str, state: TableState) -> TableResult:
    """The result of one table, from its folded state (null fields while unplayed)."""
    b = state.board
    entry = TableResult(stream=stream, board=b.board, table=b.table, room=b.room, match=b.match,
                        ns=b.ns, ew=b.ew)
    result = state.result
    if result is None:
        return entry
    return attrs.evolve(entry, contract=result.contract,
                        declarer=str(result.declarer) if result.declarer else None,
                        risk=result.risk, tricks=result.tricks, score_ns=result.score_ns)


BoardScorer = Callable[[Sequence[TableResult]], list[TableResult]]


def imps_between_rooms(results: Sequence[TableResult]) -> list[TableResult]:
    """Teams: each room's ``imp_ns`` against the other room of its match.

    The two tables of one match on one board hold the same two teams, in
    opposite directions, so the North-South pair of one room gains what its
    team-mates lose as East-West in the other: ``imp_ns`` is the IMPs of
    ``score_ns(this room) - score_ns(other room)``.  A match with fewer or
    more than two scored tables on the board gets no IMPs (null).
    """
    by_match: dict[str, list[TableResult]] = defaultdict(list)
    for r in results:
        if r.match is not None and r.scored:
            by_match[r.match].append(r)
    imp: dict[str, int] = {}
    for rooms in by_match.values():
        if len(rooms) != 2:
            continue
        a, b = rooms
        assert a.score_ns is not None and b.score_ns is not None
        imp[a.stream] = imps(a.score_ns - b.score_ns)
        imp[b.stream] = imps(b.score_ns - a.score_ns)
    return [attrs.evolve(r, imp_ns=imp.get(r.stream)) for r in results]


#: The board scorers of each scoring, applied in order (see the module's docstring).
BOARD_SCORERS: dict[str, tuple[BoardScorer, ...]] = {
    "IMP": (imps_between_rooms,),
    "MP": (),
}


def tournament_scoring(states: Iterable[TableState]) -> str:
    """``IMP`` when the boards say so (teams), else ``MP`` (pairs, the spec's default)."""
    kinds = {s.board.scoring for s in states if s.board.scoring}
    return "IMP" if kinds == {"IMP"} else "MP"


def results(tournament: str, tables: Iterable[tuple[str, TableState]]) -> dict[str, Any]:
    """The ``results --json`` document of spec section 8 for ``(stream, state)`` pairs."""
    tables = list(tables)
    scoring = tournament_scoring(state for _, state in tables)
    boards: dict[int, list[TableResult]] = defaultdict(list)
    for stream, state in tables:
        boards[state.board.board].append(table_result(stream, state))
    out = []
    for number in sorted(boards):
        entries = boards[number]
        for scorer in BOARD_SCORERS[scoring]:
            entries = scorer(entries)
        out.append({"board": number, "results": [e.to_json() for e in entries]})
    return {"tournament": tournament, "scoring": scoring, "boards": out}
