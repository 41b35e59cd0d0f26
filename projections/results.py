"""The results projection: every table's result of a tournament (``cli.py results``).

A pure function of the boards' folded states (no I/O): one :class:`TableResult`
per table per board, grouped by board, in the JSON shape of LEDGER-SPEC
section 8.  Scoring across tables is a pipeline of board scorers, looked up
by the tournament's scoring (:data:`BOARD_SCORERS`); each takes one board's
results and returns them with its columns filled:

* teams (``IMP``): :func:`imps_between_rooms` (the two rooms of a match give
  each North-South pair the IMPs of its score against the other room's, Law
  78B scale), then :func:`adjusted_imps` (per match and team: artificial
  +3/0/-3, weighted and split scores component by component, caps, penalties;
  ``imp_ew`` for each room's East-West team).
* pairs (``MP``): :func:`matchpoint_field` (see :mod:`projections.matchpoints`:
  2 per score beaten, 1 per tie, Neuberg, artificial percentages with the
  session percentage by edition, weighted and split scores, caps, penalties).

What a table contributes is read from its folded state by :func:`table_result`:
the result, or the adjusted score in force (``state.adjusted``, folded by
:mod:`ledger.laws.scores`, read by name: ``projections.derived.read``), a cancelled result (``state.result_cancelled``),
caps (``state.caps``) and procedural penalties (``state.penalties``).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs

from ledger.bridge import Vulnerability, vulnerability_for
from ledger.scoring import butler_datum, imps
from projections import matchpoints as mp
from projections.derived import read
from projections.state import TableState
from projections.vocab import Edition


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
    imp_ns: int | float | None = None
    laws: str = Edition.E2017
    penalties: tuple[tuple[str, str], ...] = ()
    """Procedural penalties (Law 90): (side, amount like "10%" or "3 IMP")."""
    distribution: tuple[tuple[int, float], ...] = ()
    """The table's score(s) from NS's view as the field sees them: one result
    weight 1, or a weighted score's components; empty when the table has no
    comparable result (artificial, split, cancelled, unplayed)."""
    split: tuple[int, int] | None = None
    """A split assigned score: (NS's result, EW's result), both from NS's view."""
    caps: tuple[tuple[str, str], ...] = ()
    """Score caps on a side (1997 25B2b2 ``ScoreCapped``): (side, max like "A-")."""
    imp_ew: int | float | None = None
    """Teams: the IMPs of the East-West team of this room on the board."""
    cancelled: bool = False
    """The table's result was cancelled (Laws 13, 15, ResultCancelled) and no score replaces it yet."""
    status: str = "not played"
    """``played``, ``adjusted``, ``cancelled``, ``in progress`` (something logged, no result
    yet) or ``not played`` (nothing but BoardOpened)."""
    session: str | None = None
    """``BoardOpened.session`` when the board says it (one session otherwise)."""
    form: str | None = None
    """Law 87: the changed form of a fouled board this table played (``BoardFouled``); None for
    the board's correct form. Only tables that played the same form are compared (87B)."""

    @property
    def scored(self) -> bool:
        """The table has a score to compare (a result, or later an assigned adjusted score)."""
        return self.score_ns is not None

    def to_json(self) -> dict[str, Any]:
        out = self._json()
        if self.form is not None:
            out["fouled_form"] = self.form  # Law 87: compared within this form's group only
        return out

    def _json(self) -> dict[str, Any]:
        return {
            "stream": self.stream, "table": self.table, "room": self.room,
            "ns": self.ns, "ew": self.ew,
            "contract": self.contract, "declarer": self.declarer, "risk": self.risk,
            "tricks": self.tricks, "score_ns": self.score_ns, "adjusted": self.adjusted,
            "mp_ns": _rounded(self.mp_ns), "mp_ew": _rounded(self.mp_ew), "pct_ns": _rounded(self.pct_ns),
            "imp_ns": self.imp_ns, "imp_ew": self.imp_ew, "status": self.status,
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def table_result(stream: str, state: TableState) -> TableResult:
    """The result of one table, from its folded state (null fields while unplayed)."""
    b = state.board
    entry = TableResult(stream=stream, board=b.board, table=b.table, room=b.room, match=b.match,
                        ns=b.ns, ew=b.ew, session=getattr(b, "session", None),
                        status="in progress" if state.seq > 1 else "not played")
    entry = attrs.evolve(entry, laws=state.edition,
                         penalties=tuple((str(side), amount) for side, amount in state.penalties),
                         caps=tuple((str(c.side), c.max) for c in state.caps))
    adjusted = read(state, "adjusted for results")  # the scores family's (Law 12)
    if adjusted is not None:
        return with_adjusted(attrs.evolve(entry, status="adjusted"), adjusted, state)
    result = read(state, "board result")  # the results family's: with the tricks the revokes transfer (64A)
    if state.result_cancelled is not None:
        return attrs.evolve(entry, cancelled=True, status="cancelled")
    if result is None:
        return entry
    return attrs.evolve(entry, status="played", contract=result.contract,
                        declarer=str(result.declarer) if result.declarer else None,
                        risk=result.risk, tricks=result.tricks, score_ns=result.score_ns,
                        distribution=((result.score_ns, 1.0),))


def with_adjusted(entry: TableResult, adjusted: dict[str, Any], state: TableState) -> TableResult:
    """The table's entry under an adjusted score (Law 12): artificial scores leave
    contract, tricks and score null; an assigned score is the table's result; a
    split or weighted one is scored side by side, component by component."""
    entry = attrs.evolve(entry, adjusted=adjusted)
    kind = adjusted["kind"]
    if kind == "artificial":
        return entry
    vul = state.board.vulnerability or vulnerability_for(state.board.board)  # stored complete: the same
    scored = [(r, assigned_score(r, vul)) for r in adjusted.get("results") or ()]
    if kind == "weighted":
        return attrs.evolve(entry, distribution=tuple((score, weight_of(r["weight"])) for r, score in scored))
    both = [(r, score) for r, score in scored if r["side"] == "both"]
    if both:
        r, score = both[0]
        return attrs.evolve(entry, contract=r["contract"], declarer=r.get("declarer"), risk=r.get("risk", ""),
                            tricks=r.get("tricks"), score_ns=score, distribution=((score, 1.0),))
    by_side = {r["side"]: score for r, score in scored}
    return attrs.evolve(entry, split=(by_side.get("NS", 0), by_side.get("EW", 0)))


def weight_of(value: Any) -> float:
    """A weight as given (a number, or a fraction ``"1/3"``) as a float for the arithmetic."""
    return float(Fraction(str(value)))


def assigned_score(result: dict[str, Any], vulnerability: Vulnerability) -> int:
    """NS's score for an assigned result ``{"contract", "declarer", "risk", "tricks"}``."""
    from ledger.bridge import Seat
    from ledger.scoring import duplicate_score

    if result["contract"] == "Pass":
        return 0
    declarer = Seat.parse(result["declarer"])
    level, strain = int(result["contract"][0]), result["contract"][1:]
    score = duplicate_score(level, strain, result.get("risk", ""), vulnerability.is_vulnerable(declarer.side),
                            result["tricks"])
    return score if declarer.side.value == "NS" else -score


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
        if len(rooms) != 2 or rooms[0].form != rooms[1].form:
            continue  # 87B: rooms that played different forms of a fouled board are not compared
        a, b = rooms
        assert a.score_ns is not None and b.score_ns is not None
        imp[a.stream] = imps(a.score_ns - b.score_ns)
        imp[b.stream] = imps(b.score_ns - a.score_ns)
    return [attrs.evolve(r, imp_ns=imp.get(r.stream)) for r in results]


def matchpoint_field(results: Sequence[TableResult],
                     session: dict[str, float] | None = None, field: int | None = None) -> list[TableResult]:
    """Pairs: matchpoints of every table against the field (see projections.matchpoints).
    ``field``: the number of tables that played the board when ``results`` is one group of a
    fouled board (Law 87B): each table is compared within its group and its matchpoints
    scaled to the whole field (Neuberg), the tops and percentages being the field's."""
    session = session or {}
    tables = field if field is not None else len([r for r in results if not _absent(r)])
    if tables < 2:
        return list(results)  # a board played once has no matchpoints
    board_top = mp.top(tables)
    out = []
    for r in results:
        others = [o for o in results if o is not r and o.distribution]
        if r.adjusted is not None and r.adjusted["kind"] == "artificial":
            ns = _artificial(r.adjusted.get("ns"), session.get(r.ns or ""), r.laws)
            ew = _artificial(r.adjusted.get("ew"), session.get(r.ew or ""), r.laws)
            mp_ns = None if ns is None else ns / 100 * board_top
            mp_ew = None if ew is None else ew / 100 * board_top
        elif r.split is not None:
            mp_ns = mp.neuberg(_against(r.split[0], others), len(others), tables)
            mp_ew = mp.neuberg(2 * len(others) - _against(r.split[1], others), len(others), tables)
        elif r.distribution:
            raw = sum(w * _against(score, others) for score, w in r.distribution)
            mp_ns = mp.neuberg(raw, len(others), tables)
            mp_ew = mp.neuberg(2 * len(others) - raw, len(others), tables)
        else:
            out.append(r)
            continue
        mp_ns, mp_ew = _capped(r, mp_ns, mp_ew, board_top, session)
        mp_ns, mp_ew = _penalised(r, mp_ns, mp_ew, board_top)
        # unrounded: percentages and rankings are computed from the exact matchpoints,
        # rounded only when shown (to_json)
        out.append(attrs.evolve(r, mp_ns=mp_ns, mp_ew=mp_ew,
                                pct_ns=None if mp_ns is None else 100 * mp_ns / board_top))
    return out


def _absent(r: TableResult) -> bool:
    """A table not scored on this board at all (unplayed, or both sides 'none')."""
    if r.adjusted is not None and r.adjusted["kind"] == "artificial":
        return r.adjusted.get("ns") == "none" and r.adjusted.get("ew") == "none"
    return not r.distribution and r.split is None


def _artificial(award: str | int | float | None, session_pct: float | None, edition: str) -> float | None:
    if award is None or award == "none":
        return None
    return mp.artificial_pct(award, session_pct, edition)


def _against(score: int, others: Sequence[TableResult]) -> float:
    """Matchpoints of an NS score against the other tables' results (weighted ones by weight)."""
    return sum(w * mp.matchpoints_against(score, [other]) for o in others for other, w in o.distribution)


def _capped(r: TableResult, mp_ns: float | None, mp_ew: float | None, board_top: float,
            session: dict[str, float]) -> tuple[float | None, float | None]:
    """1997 25B2b2: the offending side scores at most average minus on the board
    (``ScoreCapped``): 40 %, or (1997 practice) the pair's lower session percentage."""
    for side, most in r.caps:
        pair = r.ns if side == "NS" else r.ew
        limit = mp.artificial_pct(most, session.get(pair or ""), r.laws) / 100 * board_top
        if side == "NS" and mp_ns is not None:
            mp_ns = min(mp_ns, limit)
        elif side == "EW" and mp_ew is not None:
            mp_ew = min(mp_ew, limit)
    return mp_ns, mp_ew


def _penalised(r: TableResult, mp_ns: float | None, mp_ew: float | None,
               board_top: float) -> tuple[float | None, float | None]:
    for side, amount in r.penalties:
        if not amount.endswith("%"):
            continue
        cut = float(amount[:-1]) / 100 * board_top
        if side == "NS" and mp_ns is not None:
            mp_ns -= cut
        elif side == "EW" and mp_ew is not None:
            mp_ew -= cut
    return mp_ns, mp_ew


def adjusted_imps(results: Sequence[TableResult]) -> list[TableResult]:
    """Teams under Law 12, per match: each team's IMPs on the board, then each room's
    ``imp_ns`` (its North-South team) and ``imp_ew`` (its East-West team).

    * An artificial score in a room (12C2b, 2017; 1997 86/88 practice): +3 / 0 / -3
      IMPs to each team as awarded (they need not balance), whatever the other room.
    * Otherwise the two rooms' scores, each a distribution (one result, the
      components of a weighted score, or each side's own result of a split score):
      a team's IMPs are the weighted sum of the IMPs of each pair of components
      (12C1c: never a weighted sum of raw points).
    * A cap (``ScoreCapped``, 1997 25B2b2) limits the offending team to -3 IMPs
      (average minus); a procedural penalty in IMPs comes off one team only.
    """
    by_match: dict[str, list[TableResult]] = defaultdict(list)
    for r in results:
        if r.match is not None:
            by_match[r.match].append(r)
    out: dict[str, TableResult] = {}
    for rooms in by_match.values():
        scored = [r for r in rooms if _artificial_room(r) or _view(r, "NS")]
        teams = _team_imps(scored) if scored else None
        for r in rooms:
            if teams is None or r.stream not in teams:
                out[r.stream] = attrs.evolve(r, imp_ns=None, imp_ew=None) if r.adjusted or r.cancelled else r
                continue
            imp_ns, imp_ew = teams[r.stream]
            out[r.stream] = attrs.evolve(r, imp_ns=_number(imp_ns), imp_ew=_number(imp_ew))
    return [out.get(r.stream, r) for r in results]


def _artificial_room(r: TableResult) -> bool:
    return r.adjusted is not None and r.adjusted["kind"] == "artificial"


def _view(r: TableResult, side: str) -> tuple[tuple[int, float], ...]:
    """The room's score(s) from NS's view as ``side`` of this room is scored."""
    if r.split is not None:
        return ((r.split[0] if side == "NS" else r.split[1], 1.0),)
    if r.distribution:
        return r.distribution
    return ((r.score_ns, 1.0),) if r.score_ns is not None else ()


def _team_imps(rooms: list[TableResult]) -> dict[str, tuple[float | None, float | None]]:
    """(imp_ns, imp_ew) per room stream for one match on one board."""
    artificial = next((r for r in rooms if _artificial_room(r)), None)
    if artificial is not None:
        a = artificial.adjusted or {}
        ns, ew = a.get("ns"), a.get("ew")
        a_ns = mp.ARTIFICIAL_IMPS.get(ns) if isinstance(ns, str) else None
        a_ew = mp.ARTIFICIAL_IMPS.get(ew) if isinstance(ew, str) else None
        # the team NS in the artificial room sits EW in the other room, and conversely
        team: dict[tuple[str, str], float | None] = {(artificial.stream, "NS"): a_ns, (artificial.stream, "EW"): a_ew}
        for other in rooms:
            if other is not artificial:
                team[(other.stream, "NS")], team[(other.stream, "EW")] = a_ew, a_ns
    elif len(rooms) == 2 and rooms[0].form == rooms[1].form:
        x, y = rooms
        # x's NS team: its NS result here against its EW result in y (same team)
        x_ns = sum(w1 * w2 * imps(s - t) for s, w1 in _view(x, "NS") for t, w2 in _view(y, "EW"))
        y_ns = sum(w1 * w2 * imps(s - t) for s, w1 in _view(y, "NS") for t, w2 in _view(x, "EW"))
        team = {(x.stream, "NS"): x_ns, (x.stream, "EW"): y_ns, (y.stream, "NS"): y_ns, (y.stream, "EW"): x_ns}
    else:
        return {}
    pairs = {r.stream: r for r in rooms}
    partner_room = {r.stream: next((o.stream for o in rooms if o is not r), None) for r in rooms}
    # Caps and penalties, one team at a time: a team is (room, side) and (other room, other side).
    for r in rooms:
        for side, most in r.caps:
            limit = mp.ARTIFICIAL_IMPS.get(most)
            for key in _same_team(r.stream, side, partner_room):
                current = team.get(key)
                if current is not None and limit is not None:
                    team[key] = min(current, limit)
        for side, amount in r.penalties:
            if amount.endswith(" IMP"):
                cut = float(amount.split()[0])
                for key in _same_team(r.stream, side, partner_room):
                    current = team.get(key)
                    if current is not None:
                        team[key] = current - cut
    return {stream: (team.get((stream, "NS")), team.get((stream, "EW"))) for stream in pairs}


def _same_team(stream: str, side: str, partner_room: dict[str, str | None]) -> list[tuple[str, str]]:
    other = partner_room.get(stream)
    keys = [(stream, side)]
    if other is not None:
        keys.append((other, "EW" if side == "NS" else "NS"))
    return keys


def _number(value: float | None) -> int | float | None:
    if value is None:
        return None
    value = round(value, 2)
    return int(value) if value == int(value) else value


# -- IMPs across a pairs field ----------------------------------------------------------------


def cross_imp_field(results: Sequence[TableResult]) -> list[TableResult]:
    """Cross-IMPs: each table's NS score against every other table's, the average of the IMPs
    (so that boards played a different number of times weigh the same)."""
    scored = [r for r in results if r.score_ns is not None]
    out = []
    for r in results:
        others = [o.score_ns for o in scored if o is not r and o.score_ns is not None]
        if r.score_ns is None or not others:
            out.append(r)
            continue
        value = sum(imps(r.score_ns - o) for o in others) / len(others)
        out.append(attrs.evolve(r, imp_ns=round(value, 2), imp_ew=round(-value, 2)))
    return out


def butler_field(results: Sequence[TableResult]) -> list[TableResult]:
    """Butler: each table's NS score against the board's datum (the mean of the scores without
    the highest and the lowest when more than four, to the nearest 10)."""
    scores = [r.score_ns for r in results if r.score_ns is not None]
    if len(scores) < 2:
        return list(results)
    datum = butler_datum(scores)
    return [attrs.evolve(r, imp_ns=imps(r.score_ns - datum), imp_ew=-imps(r.score_ns - datum))
            if r.score_ns is not None else r for r in results]




#: The board scorers of each scoring, applied in order (see the module's docstring).
BOARD_SCORERS: dict[str, tuple[BoardScorer, ...]] = {
    "IMP": (imps_between_rooms, adjusted_imps),
    "MP": (matchpoint_field,),
    "cross-IMP": (cross_imp_field,),
    "Butler": (butler_field,),
}


def tournament_scoring(states: Iterable[TableState]) -> str:
    """``IMP`` when the boards say so (teams), else ``MP`` (pairs, the spec's default)."""
    return scoring_of(s.board.scoring for s in states)


def scoring_of(kinds: Iterable[str | None]) -> str:
    """``IMP`` when every board that names its scoring says IMP (teams), else ``MP``."""
    named = {kind for kind in kinds if kind}
    return "IMP" if named == {"IMP"} else "MP"


def results(tournament: str, tables: Iterable[tuple[str, TableState]],
            scoring: str | None = None, forms: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``results --json`` document of spec section 8 for ``(stream, state)`` pairs,
    with the checks before publication and the standings (extensions: ``checks``,
    ``standings``). ``scoring``: ``cross-IMP`` or ``Butler`` scores a pairs field in IMPs
    (projections.event); by default the boards' scoring (MP or IMP). ``forms``: stream -> the
    changed form of a fouled board the table played (Law 87, the register's ``BoardFouled``)."""
    tables = list(tables)
    forms = forms or {}
    scoring = scoring or tournament_scoring(state for _, state in tables)
    boards: dict[int, list[TableResult]] = defaultdict(list)
    for stream, state in tables:
        boards[state.board.board].append(attrs.evolve(table_result(stream, state), form=forms.get(stream)))
    return scored_document(tournament, boards, scoring, field_checks(tables))


def scored_document(tournament: str, boards: Mapping[int, list[TableResult]], scoring: str,
                    checks: list[dict[str, Any]]) -> dict[str, Any]:
    """The document of :func:`results` from each board's table results, read from the folded
    states or from the boards' results summaries (``ledger.summaries``): each board scored by
    ``scoring``, the standings, the ``checks`` before publication."""
    scored = _score_boards(boards, scoring)
    if scoring == "MP" and any(r.adjusted or r.caps for entries in boards.values() for r in entries):
        # Artificial awards (12C2c) and 1997 caps may depend on the pair's percentage on its other boards.
        scored = _score_boards(boards, scoring, session_percentages(scored))
    out = [{"board": number, "results": [e.to_json() for e in scored[number]]} for number in sorted(scored)]
    return {"tournament": tournament, "scoring": scoring, "checks": checks, "boards": out,
            "standings": standings(scored, scoring)}


def field_checks(tables: Iterable[tuple[str, TableState]]) -> list[dict[str, Any]]:
    """What a director checks before the results are published (``results`` lists them
    first; ``--strict`` refuses to publish with any):

    * ``same_table``: two boards claiming the same table, board and room of a session
      (and match);
    * ``played_twice``: a pair on one board at two tables (teams: a team twice in the
      same direction);
    * ``in_progress``: a board with events but no result yet (not "not played");
    * ``open_questions``: a board with something waiting for the director
      (:mod:`projections.waiting`: a review, an option, a disputed claim, an
      unprocessed action, an appeal).
    """
    from projections.waiting import waiting

    tables = list(tables)
    checks = place_checks((stream, {"session": getattr(state.board, "session", None), "match": state.board.match,
                                    "board": state.board.board, "table": state.board.table, "room": state.board.room,
                                    "ns": state.board.ns, "ew": state.board.ew, "scoring": state.board.scoring})
                          for stream, state in tables)
    for stream, state in tables:
        b = state.board
        if state.result is None and state.result_cancelled is None and state.adjusted is None and state.seq > 1:
            checks.append({"kind": "in_progress", "board": b.board, "streams": [stream],
                           "text": f"board {b.board} at table {b.table}: in progress ({state.phase}, seq {state.seq})"})
        items = waiting(stream, state)
        if items:
            what = "; ".join(f"{w.kind} at seq {w.seq}" for w in items)
            checks.append({"kind": "open_questions", "board": b.board, "streams": [stream],
                           "text": f"board {b.board} at table {b.table}: open director questions: {what}"})
    return sorted_checks(checks)


def place_checks(places: Iterable[tuple[str, Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The field's checks of where each board was played (:func:`field_checks`): two boards
    claiming one table, board and room of a session (and match), a pair on one board at two
    tables (teams: a team twice in the same direction). ``places``: each board's stream and its
    place (``session``, ``match``, ``board``, ``table``, ``room``, ``ns``, ``ew``, ``scoring``),
    from its state or from its results summary (``ledger.summaries``)."""
    checks: list[dict[str, Any]] = []
    by_place: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    by_pair: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for stream, b in places:
        by_place[(b["session"], b["match"], b["board"], b["table"], b["room"])].append(stream)
        for pair, side in ((b["ns"], "NS"), (b["ew"], "EW")):
            if pair:
                key = (b["session"], b["board"], pair) + ((side,) if b["scoring"] == "IMP" else ())
                by_pair[key].append(stream)
    for (session, _, board, table, room), streams in by_place.items():
        if len(streams) > 1:
            where = f"table {table}" + (f" ({room} room)" if room else "") + (f", session {session}" if session else "")
            checks.append({"kind": "same_table", "board": board, "streams": streams,
                           "text": f"board {board}: {len(streams)} boards claim {where}"})
    for key, streams in by_pair.items():
        if len(streams) > 1:
            board, pair = key[1], key[2]
            direction = f" as {key[3]}" if len(key) > 3 else ""
            checks.append({"kind": "played_twice", "board": board, "streams": streams,
                           "text": f"board {board}: {pair} played it {len(streams)} times{direction}"})
    return checks


def sorted_checks(checks: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The checks in the order a director reads them: the field's, then each board's."""
    order = {"same_table": 0, "played_twice": 1, "in_progress": 2, "open_questions": 3}
    return sorted(checks, key=lambda c: (order[c["kind"]], c["board"], c["streams"]))


def fouled_groups(entries: Sequence[TableResult]) -> list[list[TableResult]]:
    """Law 87B: a fouled board's tables in groups, one per form played (the correct form
    first), in the board's order."""
    forms: dict[str | None, list[TableResult]] = {}
    for r in sorted(entries, key=lambda r: r.form is not None):
        forms.setdefault(r.form, []).append(r)
    return list(forms.values())


def _fouled_matchpoints(entries: list[TableResult], session: dict[str, float] | None) -> list[TableResult]:
    """Law 87B (both editions: "rates each group separately as provided in the regulations"):
    each group matchpointed on its own, scaled to the whole field by Neuberg's formula."""
    field = len([r for r in entries if not _absent(r)])
    scored: dict[str, TableResult] = {}
    for group in fouled_groups(entries):
        for r in matchpoint_field(group, session, field=field):
            scored[r.stream] = r
    return [scored[r.stream] for r in entries]


def _score_boards(boards: Mapping[int, list[TableResult]], scoring: str,
                  session: dict[str, float] | None = None) -> dict[int, list[TableResult]]:
    out = {}
    for number, entries in boards.items():
        if scoring == "MP" and any(r.form is not None for r in entries):
            out[number] = _fouled_matchpoints(entries, session)
            continue
        if scoring in ("cross-IMP", "Butler") and any(r.form is not None for r in entries):
            scored = {r.stream: r for group in fouled_groups(entries) for scorer in BOARD_SCORERS[scoring]
                      for r in scorer(group)}  # 87B: each group against its own scores (or datum)
            out[number] = [scored[r.stream] for r in entries]
            continue
        for scorer in BOARD_SCORERS[scoring]:
            entries = scorer(entries, session) if scorer is matchpoint_field else scorer(entries)
        out[number] = entries
    return out


def session_percentages(boards: dict[int, list[TableResult]]) -> dict[str, float]:
    """Each pair's percentage over its boards not scored artificially (nor capped)."""
    totals: dict[str, list[float]] = defaultdict(list)
    for entries in boards.values():
        for r in entries:
            if r.pct_ns is None or (r.adjusted and r.adjusted["kind"] == "artificial") or r.caps:
                continue  # the session is the pair's other boards: not those scored by award or cap
            if r.ns:
                totals[r.ns].append(r.pct_ns)
            if r.ew:
                totals[r.ew].append(100 - r.pct_ns)
    return {pair: sum(p) / len(p) for pair, p in totals.items() if p}


_Totals = dict[str, dict[str, float]]
_Directions = dict[str, set[str]]


def standings(boards: dict[int, list[TableResult]], scoring: str) -> list[dict[str, Any]]:
    """Pairs: matchpoints and percentage over the boards played, from the unrounded
    matchpoints; teams: IMPs. A Mitchell (no pair ever sat in both directions) gets
    separate NS and EW rankings (``direction``). Ties share a rank and say ``tied``."""
    rows: _Totals = defaultdict(lambda: {"score": 0.0, "top": 0.0, "boards": 0})
    directions: _Directions = defaultdict(set)
    add_board = _add_matchpoints if scoring == "MP" else _add_imps
    for entries in boards.values():
        add_board(rows, directions, entries)
    mitchell = scoring == "MP" and _is_mitchell(directions)
    table = [_standing(name, row, scoring, directions if mitchell else None) for name, row in rows.items()]
    _rank(table, scoring)
    for e in table:  # ranks from the exact figures first, rounded for showing after
        e["score"] = round(e["score"], 2)
        if e.get("pct") is not None:
            e["pct"] = round(e["pct"], 2)
    return table


def _add_imps(rows: _Totals, directions: _Directions, entries: list[TableResult]) -> None:
    """A team's IMPs on a board, once per match: the room where it sits North-South
    says imp_ns, the other room imp_ew (the same number when both rooms exist)."""
    seen: dict[tuple[str | None, str], float] = {}
    for r in entries:
        for team, value in ((r.ns, r.imp_ns), (r.ew, r.imp_ew)):
            if team and value is not None:
                seen.setdefault((r.match, team), value)
    for (_, team), value in seen.items():
        rows[team]["score"] += value
        rows[team]["boards"] += 1


def _add_matchpoints(rows: _Totals, directions: _Directions, entries: list[TableResult]) -> None:
    """A pair's matchpoints and top on a board played at more than one table; the
    directions each pair sat in."""
    tables = len([r for r in entries if not _absent(r)])
    for r in entries:
        for pair, value, side in ((r.ns, r.mp_ns, "NS"), (r.ew, r.mp_ew, "EW")):
            if pair:
                directions[pair].add(side)
            if pair and value is not None and tables > 1:
                rows[pair]["score"] += value
                rows[pair]["top"] += mp.top(tables)
                rows[pair]["boards"] += 1


def _is_mitchell(directions: _Directions) -> bool:
    """No pair ever sat in both directions, and both directions were sat in."""
    return bool(directions) and all(len(d) == 1 for d in directions.values()) \
        and {"NS", "EW"} <= set().union(*directions.values())


def _standing(name: str, row: dict[str, float], scoring: str,
              directions: _Directions | None) -> dict[str, Any]:
    """One entry's line, unranked and unrounded; its direction in a Mitchell."""
    entry: dict[str, Any] = {"name": name, "boards": int(row["boards"]), "score": row["score"]}
    if scoring == "MP":
        entry["pct"] = 100 * row["score"] / row["top"] if row["top"] else None
        entry["top"] = row["top"]
    if directions is not None:
        entry["direction"] = next(iter(directions[name]))
    return entry


def _rank(table: list[dict[str, Any]], scoring: str) -> None:
    """Sort ``table`` (NS before EW in a Mitchell, best first, then by name) and rank it
    within each direction from the exact figures; equal figures share a rank, ``tied``."""
    def value(e: dict[str, Any]) -> float:
        v = e.get("pct") if scoring == "MP" else e["score"]
        return round(v, 9) if v is not None else float("-inf")  # exact ties, not float noise

    order = {"NS": 0, "EW": 1}
    table.sort(key=lambda e: (order.get(e.get("direction", ""), 2), -value(e), e["name"]))
    for e in table:
        group = [o for o in table if o.get("direction") == e.get("direction")]
        e["rank"] = 1 + sum(1 for o in group if value(o) > value(e))
        e["tied"] = sum(1 for o in group if value(o) == value(e)) > 1


def rank_text(entry: dict[str, Any]) -> str:
    """``3`` or, for a tie, ``3=``."""
    return f"{entry['rank']}{'=' if entry.get('tied') else ''}"
