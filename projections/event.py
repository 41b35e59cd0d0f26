"""A whole event's results (issue 24): several sessions, names, Swiss teams.

A pure function of the boards' folded states and the tournament's register
(:class:`ledger.register.Register`), no I/O:

* :func:`seat_pairs`: a board that does not name its pairs (a hand record imported for every
  table) takes them from its session's movement in the register (``SessionScheduled.movement``:
  round, table, ns, ew, boards).
* :func:`event_results`: each session scored on its own (:func:`projections.results.results`:
  matchpoints, or IMPs across the field, cross-IMPs or Butler, as the session says; teams by
  rooms), a ranking after each session and an overall one: pairs by their total matchpoints
  over the total of their tops (the percentages carried over from session to session, each
  board weighing the same), IMP pairs by their IMPs; Swiss teams by carry-over + VPs + byes.
  Names come from the register (``Martin - Durand``; a team's name), with the players who
  actually sat on each board (substitutes).
* checks before publication beyond :func:`projections.results.field_checks`:
  ``unknown_pairs`` (a board whose pairs are not known, or not entries of the register:
  never left out of the ranking silently), ``withdrawn`` boards are listed with their Law
  (not a check: the director's decision).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Sequence

import attrs

from ledger.register_state import Register, swiss_match_id
from ledger.teams import BYE_VP, victory_points
from projections import results as res
from projections.state import TableState
from projections.vocab import Edition, IrregularityKind

Tables = list[tuple[str, TableState]]


def session_of(state: TableState, register: Register | None) -> str | None:
    """The board's session: ``BoardOpened.session``, else the register's only session."""
    if state.board.session:
        return state.board.session
    if register is not None and len(register.sessions) == 1:
        return next(iter(register.sessions))
    return None


def seat_pairs(tables: Iterable[tuple[str, TableState]], register: Register | None) -> Tables:
    """The boards with ``ns`` / ``ew`` (and ``session``) filled from the register's movement
    where the board did not say them (its own ``BoardOpened`` always wins)."""
    out: Tables = []
    for stream, state in tables:
        b = state.board
        session = session_of(state, register)
        ns, ew = b.ns, b.ew
        if register is not None and session in register.sessions and (ns is None or ew is None):
            movement = register.sessions[session].movement or ()
            seat = next((m for m in movement if m["table"] == b.table and b.board in m["boards"]), None)
            if seat is not None:
                ns, ew = ns or seat["ns"], ew or seat["ew"]
        if (ns, ew, session) != (b.ns, b.ew, b.session):
            state = attrs.evolve(state, board=attrs.evolve(b, ns=ns, ew=ew, session=session))
        out.append((stream, state))
    return out


def pair_checks(tables: Sequence[tuple[str, TableState]], register: Register | None) -> list[dict[str, Any]]:
    """``unknown_pairs``: a board in the field whose NS or EW pair is not known (the board does
    not say it and no movement does), or, when the register has entries, is not one of them."""
    from ledger.tournament import withdrawal

    known = set(register.pairs) | set(register.teams) if register is not None else set()
    checks = []
    for stream, state in tables:
        if withdrawal(state) is not None:
            continue
        b = state.board
        missing = [side for side, pair in (("NS", b.ns), ("EW", b.ew)) if not pair or (known and pair not in known)]
        if missing:
            what = ", ".join(f"{side} {getattr(b, side.lower()) or '(none)'}" for side in missing)
            checks.append({"kind": "unknown_pairs", "board": b.board, "streams": [stream],
                           "text": f"board {b.board} at table {b.table}: pairs not known ({what}): "
                                   "its result cannot be ranked (name them in the register's movement "
                                   "or the entries)"})
    return checks


def _names(register: Register | None) -> dict[str, str]:
    if register is None:
        return {}
    out = {}
    for entry_id in list(register.pairs) + list(register.teams):
        name = register.entry_name(entry_id)
        if name:
            out[entry_id] = name
    return out


def _named(doc: dict[str, Any], tables: Tables, register: Register | None) -> None:
    """Names on the travellers (who actually sat: substitutes) and the rankings."""
    names = _names(register)
    by_stream = {stream: state for stream, state in tables}
    for board in doc["boards"]:
        for r in board["results"]:
            state = by_stream.get(r["stream"])
            session = state.board.session if state is not None else None
            for side in ("ns", "ew"):
                entry = r.get(side)
                if register is not None and entry and register.entry(entry) is not None:
                    seated = register.seated(session, entry, board["board"])
                    r[f"{side}_players"] = [register.player_name(p) for p in seated]
                    r[f"{side}_name"] = names.get(entry)
                    subs = [register.player_name(p) for p in seated if p not in register.entry(entry).players]  # type: ignore[union-attr]  # entry is one of the register's
                    if subs:
                        r[f"{side}_substitutes"] = subs
    for row in doc.get("standings") or []:
        if row["name"] in names:
            row["players"] = names[row["name"]]


def _withdrawn_notes(doc: dict[str, Any], tables: Tables) -> None:
    from ledger.tournament import withdrawal

    by_stream = {stream: state for stream, state in tables}
    for board in doc["boards"]:
        for r in board["results"]:
            state = by_stream.get(r["stream"])
            w = withdrawal(state) if state is not None else None
            if w is not None:
                r["status"] = "withdrawn"
                r["withdrawn"] = {"law": w["law"], "reason": w["reason"]}


# -- irregular boards across tables: Laws 86 and 87 ----------------------------------------------


def fouled_forms(tables: Tables, register: Register | None, session: str | None) -> dict[str, str]:
    """stream -> the changed form of a fouled board the table played (the register's
    ``BoardFouled``, Law 87A); tables not named played the correct form."""
    if register is None or not register.fouled:
        return {}
    out = {}
    for stream, state in tables:
        form = register.form_of(session, state.board.board, state.board.table, stream)
        if form is not None:
            out[stream] = form
    return out


def _law(state: TableState | None, article: str, law_1997: str | None = None) -> str:
    edition = state.edition if state is not None else Edition.E2017
    return f"{edition}:{law_1997 if edition == Edition.E1997 and law_1997 else article}"


def law_87_checks(doc: dict[str, Any], tables: Tables) -> list[dict[str, Any]]:
    """``fouled_alone``: a pairs table alone in its group of a fouled board. Law 87B (both
    editions) rates each group separately "as provided in the regulations"; a group of one
    table has no score to compare, and whether it gets Neuberg's average or an artificial
    score by fault (12C2) is the director's decision, not the ledger's: asked until the
    director awards an adjusted score at that table."""
    if doc["scoring"] != "MP":
        return []
    states = dict(tables)
    checks = []
    for board in doc["boards"]:
        entries = board["results"]
        if not any(r.get("fouled_form") for r in entries):
            continue
        groups: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
        for r in entries:
            if r["status"] in ("played", "adjusted"):
                groups[r.get("fouled_form")].append(r)
        for form, group in groups.items():
            if len(group) == 1 and group[0]["adjusted"] is None:
                r = group[0]
                law = _law(states.get(r["stream"]), "87B")
                checks.append({"kind": "fouled_alone", "board": board["board"], "streams": [r["stream"]], "law": law,
                               "text": f"board {board['board']} at table {r['table']}: the only table that played "
                                       f"{'form ' + form if form else 'the correct form'} of the fouled board "
                                       f"({law}: each group rated separately): nothing to compare; the director "
                                       "awards an adjusted score (Law 12C2)"})
    return checks


def law_86_checks(doc: dict[str, Any], tables: Tables) -> list[dict[str, Any]]:
    """``not_compared``: a teams board whose two rooms cannot be compared: not played (withdrawn,
    a result cancelled) in one room while the other has a result, or played in two forms of a
    fouled board (87B). Automatic under Law 86: nothing (no IMPs are invented); an artificial
    score the director awards counts +3 / 0 / -3 IMPs (86A). What the board is worth is the
    director's judgment (2017 86D: an adjusted score that may take the other room's result into
    account; 86B: in a knockout, a non-balancing adjustment averaged): asked, never guessed,
    until an adjusted score is in force in a room or the board is withdrawn in both rooms."""
    states = dict(tables)
    checks = []
    for board in doc["boards"]:
        by_match: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in board["results"]:
            state = states.get(r["stream"])
            if state is not None and state.board.match:
                by_match[state.board.match].append(r)
        for match, rooms in sorted(by_match.items()):
            if len(rooms) != 2 or any(r["adjusted"] is not None for r in rooms):
                continue
            played = [r for r in rooms if r["status"] == "played"]
            lost = [r for r in rooms if r["status"] in ("withdrawn", "cancelled")]
            forms = {r.get("fouled_form") for r in rooms}
            if len(played) == 1 and len(lost) == 1:
                why = f"not played in the {lost[0]['room']} room ({lost[0].get('withdrawn', {}).get('law', 'cancelled')})"
            elif len(played) == 2 and len(forms) == 2:
                why = "played in two forms of a fouled board (Law 87B: not compared)"
            else:
                continue
            law = _law(states.get(rooms[0]["stream"]), "86D", "86")
            checks.append({"kind": "not_compared", "board": board["board"], "streams": [r["stream"] for r in rooms],
                           "law": law,
                           "text": f"board {board['board']} of match {match}: {why}; {law}: the director awards an "
                                   "adjusted score (artificial: +3 / 0 / -3 IMPs, 86A; or assigned, taking the "
                                   "other room's result into account) or withdraws the board in both rooms"})
    return checks


# -- teams -----------------------------------------------------------------------------------


def match_results(doc: dict[str, Any], tables: Tables, boards_per_match: int | None = None,
                  knockout: bool = False) -> list[dict[str, Any]]:
    """Each match of a teams session: the two teams, the IMPs each won over the boards both
    rooms scored (a board's IMPs go to the team that gained them; artificial scores, +3 / 0 /
    -3, to each team as awarded), and the VPs on the WBF continuous scale for the match's
    scheduled length (``boards_per_match``; else the boards scored). ``knockout``: Law 86B
    (both editions): a non-balancing adjusted score that is not an artificial average plus or
    minus is averaged, each team's score calculated separately and the average given to each."""
    match_of = {stream: state.board.match for stream, state in tables}
    artificial = {(match_of.get(r["stream"]), board["board"]) for board in doc["boards"] for r in board["results"]
                  if r["adjusted"] is not None and r["adjusted"]["kind"] == "artificial"}
    teams_of: dict[str, tuple[str, str]] = {}
    for _, state in tables:
        b = state.board
        if b.match and b.room == "open" and b.ns and b.ew:
            teams_of[b.match] = (b.ns, b.ew)
    won: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    boards_of: dict[str, set[int]] = defaultdict(set)
    for board in doc["boards"]:
        for r in board["results"]:
            match = match_of.get(r["stream"])
            if match is None or r["room"] != "open" or r["imp_ns"] is None:
                continue
            home, away = r["imp_ns"], r.get("imp_ew")
            away = -home if away is None else away
            if home == -away:
                won[match][0] += max(home, 0)
                won[match][1] += max(away, 0)
            elif knockout and (match, board["board"]) not in artificial:  # 86B: averaged
                net = (home - away) / 2
                won[match][0] += max(net, 0)
                won[match][1] += max(-net, 0)
            else:  # artificial scores (86A), or a split score outside a knockout: each team as awarded
                won[match][0] += home
                won[match][1] += away
            boards_of[match].add(board["board"])
    out = []
    for match, (home, away) in sorted(teams_of.items(), key=lambda item: _natural(item[0])):
        imps_home, imps_away = won[match]
        n = boards_per_match or len(boards_of[match])
        vp: tuple[float | None, float | None] = victory_points(imps_home, imps_away, n) if n else (None, None)
        out.append({"match": match, "home": home, "away": away, "imps_home": round(imps_home, 2),
                    "imps_away": round(imps_away, 2),
                    "boards": len(boards_of[match]), "vp_home": vp[0], "vp_away": vp[1]})
    return out


def session_matches(register: Register, session: str, tables: Iterable[tuple[str, TableState]],
                    knockout: bool = False) -> list[dict[str, Any]]:
    """The matches of one teams session as they stand (``match_results`` over its boards)."""
    part = [(s, st) for s, st in seat_pairs(tables, register) if st.board.session == session]
    if not part:
        return []
    info = register.sessions.get(session)
    doc = res.results("", part, forms=fouled_forms(part, register, session))
    return match_results(doc, part, info.boards if info is not None else None, knockout=knockout)


def knockout_matches(register: Register, session: str, tables: Iterable[tuple[str, TableState]],
                     matches: Sequence[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Each knockout match as paired, round by round: the IMPs won on the boards, the carry-over,
    the totals, ``status`` (``not over``: a board of it not ended in both rooms; ``tied``;
    ``won``) and ``winner`` (None while not over or tied and not decided: the director records
    the conditions of contest's decision, KnockoutTieDecided)."""
    from ledger import events as ev
    from ledger.teams import knockout_winner

    tables = list(tables)
    if matches is None:
        matches = session_matches(register, session, tables, knockout=True)
    by_id = {m["match"]: m for m in matches}
    per_match = (register.sessions[session].boards or 1) if session in register.sessions else 1
    out = []
    for rnd, paired in sorted(register.swiss.get(session, {}).items()):
        if not isinstance(paired, ev.KnockoutRoundPaired):
            continue
        for i, (home, away) in enumerate(paired.matches):
            match = swiss_match_id(session, rnd, home, away)
            m = by_id.get(match, {})
            carry = paired.carry[i] if paired.carry else (0, 0)
            ended = sum(1 for _, st in tables if st.board.match == match and _ended(st))
            total_home = round(carry[0] + (m.get("imps_home") or 0), 2)
            total_away = round(carry[1] + (m.get("imps_away") or 0), 2)
            tie = register.ties.get((session, rnd, home, away))
            over = ended >= 2 * per_match
            winner = knockout_winner(home, away, total_home, total_away, tie.winner if tie else None) if over else None
            status = "not over" if not over else "tied" if total_home == total_away else "won"
            out.append({"round": rnd, "match": match, "home": home, "away": away, "carry_home": carry[0],
                        "carry_away": carry[1], "imps_home": m.get("imps_home", 0), "imps_away": m.get("imps_away", 0),
                        "total_home": total_home, "total_away": total_away, "status": status, "winner": winner,
                        "decided": tie.reason if tie else None})
        if paired.bye:
            out.append({"round": rnd, "match": None, "home": paired.bye, "away": None, "status": "bye",
                        "winner": paired.bye, "decided": None})
    return out


def knockout_checks(knockout: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``knockout_tied``: a match over and tied with no recorded decision (the conditions of
    contest decide; the ledger asks, never guesses)."""
    return [{"kind": "knockout_tied", "board": 0, "streams": [],
             "text": f"round {m['round']}, {m['home']} v {m['away']}: tied {m['total_home']} - {m['total_away']} "
                     "IMPs; the conditions of contest decide who goes on (KnockoutTieDecided)"}
            for m in knockout if m["status"] == "tied" and m["winner"] is None]


def _ended(state: TableState) -> bool:
    return state.result is not None or state.adjusted is not None or state.result_cancelled is not None


def swiss_totals(register: Register, session: str, matches: Sequence[dict[str, Any]],
                 upto_round: int | None = None) -> dict[str, float]:
    """Each team's score in a Swiss session: carry-over + VPs of its matches + byes."""
    totals = {t: e.carry for t, e in register.teams.items()}
    rounds = register.swiss.get(session, {})
    by_match = {m["match"]: m for m in matches}
    for rnd, paired in sorted(rounds.items()):
        if upto_round is not None and rnd > upto_round:
            break
        for home, away in paired.matches:
            m = by_match.get(swiss_match_id(session, rnd, home, away))
            if m is None or m["vp_home"] is None:
                continue
            totals[home] = totals.get(home, 0.0) + m["vp_home"]
            totals[away] = totals.get(away, 0.0) + m["vp_away"]
        if paired.bye is not None:
            bye_vp = getattr(paired, "bye_vp", None)
            totals[paired.bye] = totals.get(paired.bye, 0.0) + (bye_vp if bye_vp is not None else BYE_VP)
    return totals


def swiss_ranked(totals: dict[str, float], names: dict[str, str], matches: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Swiss ranking with the usual tie-breaks (WBF and EBL Swiss conditions; the ledger's
    choice, written in the README): teams level on VPs are ordered (1) by the VPs of the matches
    they played against one another, when every team of the tie has met every other, then
    (2) by their IMP quotient, IMPs won over IMPs lost in all their matches (carry-over and byes
    are not IMPs); still level, they share the rank (``tied``). Each row has ``quotient`` and,
    for a tie broken, ``tiebreak`` (what broke it)."""
    won: dict[str, float] = defaultdict(float)
    lost: dict[str, float] = defaultdict(float)
    head: dict[tuple[str, str], float] = {}
    for m in matches:
        if m["vp_home"] is None:
            continue
        won[m["home"]] += m["imps_home"]
        lost[m["home"]] += m["imps_away"]
        won[m["away"]] += m["imps_away"]
        lost[m["away"]] += m["imps_home"]
        head[(m["home"], m["away"])] = head.get((m["home"], m["away"]), 0.0) + m["vp_home"]
        head[(m["away"], m["home"])] = head.get((m["away"], m["home"]), 0.0) + m["vp_away"]

    def quotient(team: str) -> float:
        return won[team] / lost[team] if lost[team] else (float("inf") if won[team] else 1.0)

    rows = ranked(totals, names, "vp")
    groups: dict[float, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        q = quotient(r["name"])
        r["quotient"] = None if q == float("inf") else round(q, 3)
        groups[r["vp"]].append(r)
    out: list[dict[str, Any]] = []
    for vp in sorted(groups, reverse=True):
        group = groups[vp]
        if len(group) == 1:
            out += group
            continue
        teams = [r["name"] for r in group]
        all_met = all((a, b) in head for a in teams for b in teams if a != b)

        def key(r: dict[str, Any]) -> tuple[float, float]:
            h2h = sum(head[(r["name"], o)] for o in teams if o != r["name"]) if all_met else 0.0
            return (round(h2h, 2), round(quotient(r["name"]), 9))

        group.sort(key=lambda r: (tuple(-k for k in key(r)), _natural(r["name"])))
        first = len(out) + 1
        for r in group:
            better = sum(1 for o in group if key(o) > key(r))
            r["rank"] = first + better
            r["tied"] = sum(1 for o in group if key(o) == key(r)) > 1
            if not r["tied"]:
                by_head = all_met and all(key(o)[0] != key(r)[0] for o in group if o is not r)
                r["tiebreak"] = f"head to head {key(r)[0]:g} VPs" if by_head else f"IMP quotient {r['quotient']}"
        out += group
    return out


def match_totals(register: Register, matches: Sequence[dict[str, Any]]) -> dict[str, float]:
    """A round robin (or any teams session of matches): carry-over + the VPs of every match.
    (A knockout reads its matches: the winner of each is the team with more IMPs.)"""
    totals = {t: e.carry for t, e in register.teams.items()}
    for m in matches:
        if m["vp_home"] is None:
            continue
        totals[m["home"]] = totals.get(m["home"], 0.0) + m["vp_home"]
        totals[m["away"]] = totals.get(m["away"], 0.0) + m["vp_away"]
    return totals


def ranked(totals: dict[str, float], names: dict[str, str], key: str = "score") -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"name": t, "players": names.get(t), key: round(v, 2)} for t, v in totals.items()]
    rows.sort(key=lambda r: (-r[key], _natural(r["name"])))
    for r in rows:
        r["rank"] = 1 + sum(1 for o in rows if o[key] > r[key])
        r["tied"] = sum(1 for o in rows if o[key] == r[key]) > 1
    return rows


def _natural(text: str) -> list[Any]:
    import re

    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


# -- the event ---------------------------------------------------------------------------------


def event_results(tournament: str, tables: Iterable[tuple[str, TableState]],
                  register: Register | None = None) -> dict[str, Any]:
    """The results document of a whole event: ``results --json``'s shape (boards, checks,
    standings: the overall ranking), with ``sessions`` (each session's ranking) and, for
    teams, ``matches``; names from the register."""
    tables = seat_pairs(tables, register)
    by_session: dict[str | None, Tables] = defaultdict(list)
    for stream, state in tables:
        by_session[state.board.session].append((stream, state))
    order = (register.session_order if register is not None else [])
    keys = sorted(by_session, key=lambda s: (order.index(s) if s in order else len(order), str(s)))
    sessions = []
    checks: list[dict[str, Any]] = []
    boards: list[dict[str, Any]] = []
    overall: dict[str, dict[str, float]] = defaultdict(lambda: {"score": 0.0, "top": 0.0, "boards": 0})
    directions: dict[str, set[str]] = defaultdict(set)
    scoring_all = set()
    names = _names(register)
    for key in keys:
        part = by_session[key]
        info = register.sessions.get(key) if register is not None and key is not None else None
        scoring = None
        if info is not None and info.scoring in ("cross-IMP", "Butler"):
            scoring = info.scoring
        forms = fouled_forms(part, register, key)
        doc = res.results(tournament, part, scoring=scoring, forms=forms)
        _withdrawn_notes(doc, part)
        checks += law_87_checks(doc, part) + law_86_checks(doc, part)
        _named(doc, part, register)
        scoring_all.add(doc["scoring"])
        checks += doc["checks"] + pair_checks(part, register)
        for board in doc["boards"]:
            board["session"] = key
        boards += doc["boards"]
        entry: dict[str, Any] = {"session": key, "scoring": doc["scoring"], "standings": doc["standings"],
                                 "kind": info.kind if info is not None else None}
        if doc["scoring"] == "IMP" and any(st.board.match for _, st in part):
            knockout = info is not None and info.kind == "knockout"
            entry["matches"] = match_results(doc, part, info.boards if info is not None else None, knockout=knockout)
            if knockout and register is not None and key is not None:
                entry["knockout"] = knockout_matches(register, key, part, entry["matches"])
                checks += knockout_checks(entry["knockout"])
            elif info is not None and info.kind == "swiss" and register is not None and key is not None:
                totals = swiss_totals(register, key, entry["matches"])
                entry["standings"] = swiss_ranked(totals, names, entry["matches"])
            elif info is not None and info.kind == "teams" and register is not None:
                entry["standings"] = ranked(match_totals(register, entry["matches"]), names, "vp")
        sessions.append(entry)
        for row in entry["standings"]:
            target = overall[row["name"]]
            if "vp" in row:
                target["score"] = target["score"] + row["vp"]
            else:
                target["score"] += row["score"]
                target["top"] += row.get("top") or 0.0
            target["boards"] += row.get("boards", 0)
            if row.get("direction"):
                directions[row["name"]].add(row["direction"])
    scoring = scoring_all.pop() if len(scoring_all) == 1 else "mixed"
    standings = _overall(overall, names, scoring, sessions)
    return {"tournament": tournament, "scoring": scoring, "checks": checks, "boards": boards,
            "standings": standings, "sessions": sessions}


def _overall(overall: dict[str, dict[str, float]], names: dict[str, str], scoring: str,
             sessions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(sessions) == 1:
        standings: list[dict[str, Any]] = sessions[0]["standings"]
        return standings
    rows = []
    for name, row in overall.items():
        entry: dict[str, Any] = {"name": name, "boards": int(row["boards"]), "score": round(row["score"], 2)}
        if names.get(name):
            entry["players"] = names[name]
        if scoring == "MP":
            entry["pct"] = round(100 * row["score"] / row["top"], 2) if row["top"] else None
        rows.append(entry)

    def value(e: dict[str, Any]) -> float:
        v = e.get("pct") if scoring == "MP" else e["score"]
        return float("-inf") if v is None else v

    rows.sort(key=lambda e: (-value(e), _natural(e["name"])))
    for e in rows:
        e["rank"] = 1 + sum(1 for o in rows if value(o) > value(e))
        e["tied"] = sum(1 for o in rows if value(o) == value(e)) > 1
    return rows


# -- the boards of a tournament (cli.py boards, the console's list) --------------------------------


def round_of(state: TableState, register: Register | None) -> int | None:
    """A board's round: its Swiss match's round, else the movement's round for its table."""
    b = state.board
    if b.match and b.session and b.match.startswith(f"{b.session}-r"):
        head = b.match[len(b.session) + 2:].split("-", 1)[0]
        if head.isdigit():
            return int(head)
    if register is not None and b.session in register.sessions:
        movement = register.sessions[b.session].movement or ()
        seat = next((m for m in movement if m["table"] == b.table and b.board in m["boards"]), None)
        if seat is not None:
            return int(seat["round"])
    return None


def rulings_of(state: TableState) -> list[str]:
    """What the director or the engine ruled on the board, each with its Law: irregularities,
    adjusted scores, procedural penalties, irregular boards, a withdrawal."""
    out = [f"{i.kind}" + (f" ({i.law})" if i.law else "") for i in state.irregularities
           if i.kind != IrregularityKind.UNPROCESSED]
    if state.adjusted is not None:
        adjusted = state.adjusted
        out.append(f"adjusted score ({getattr(adjusted, 'law', None) or 'Law 12'})")
    out += [f"procedural penalty {side} {amount}" for side, amount in state.penalties]
    out += [f"{f.ruling}" + (f" ({f.law})" if f.law else "") for f in state.board_facts]
    return out


def board_rows(tables: Iterable[tuple[str, TableState]], register: Register | None, *,
               session: str | None = None, table: str | None = None, pair: str | None = None,
               has_rulings: bool = False) -> list[dict[str, Any]]:
    """One row per board of the tournament: session, round, table, board, pairs (with names),
    contract, result, rulings and open matters; filtered by session, table, pair (number or
    a player's name, any part, any case) and "has rulings"."""
    from ledger.tournament import is_voided, withdrawal
    from projections.waiting import waiting

    names = _names(register)
    rows = []
    for stream, state in seat_pairs(tables, register):
        b = state.board
        if session is not None and b.session != session:
            continue
        if table is not None and b.table != table:
            continue
        seated = {side: [register.player_name(p) for p in register.seated(b.session, entry, b.board)]
                  for side, entry in (("ns", b.ns), ("ew", b.ew)) if entry and register is not None}
        if pair is not None:
            wanted = pair.lower()
            hay = [x for x in (b.ns, b.ew) if x] + [n for players in seated.values() for n in players]
            if not any(wanted == h.lower() or (len(wanted) > 2 and wanted in h.lower()) for h in hay):
                continue
        rulings = rulings_of(state)
        if has_rulings and not rulings:
            continue
        result = res.table_result(stream, state)
        w = withdrawal(state)
        if is_voided(state):
            status = "voided"
        elif w is not None:
            status = f"withdrawn, {w['law']}"
        else:
            status = result.status
        contract = None
        if result.contract is not None:
            contract = "Pass" if result.contract == "Pass" else \
                f"{result.contract}{result.risk or ''} {result.declarer or ''}".strip()
        rows.append({"stream": stream, "session": b.session, "round": round_of(state, register),
                     "table": b.table, "room": b.room, "board": b.board, "ns": b.ns, "ew": b.ew,
                     "ns_name": " - ".join(seated["ns"]) if seated.get("ns") else names.get(b.ns or ""),
                     "ew_name": " - ".join(seated["ew"]) if seated.get("ew") else names.get(b.ew or ""),
                     "contract": contract, "tricks": result.tricks, "score_ns": result.score_ns,
                     "adjusted": result.adjusted is not None, "status": status,
                     "rulings": rulings, "open": [f"{i.kind} at seq {i.seq}" for i in waiting(stream, state)]})
    rows.sort(key=lambda r: (str(r["session"] or ""), r["round"] or 0, _natural(str(r["table"])),
                             str(r["room"] or ""), r["board"]))
    return rows
