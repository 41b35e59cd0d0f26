"""The tournament's register: who plays, in which sessions, with whom (issue 24).

A tournament's people and its sessions are facts like any other: events in the log, in one
stream per tournament, ``register/<tournament slug>``, appended by the director through
:func:`append_register` (the command line's ``register``). Its events
(:data:`ledger.events.TOURNAMENT_EVENTS`): players (a name, a federation number), sessions
(kind, boards, rounds), pairs and teams made of players, late entries, withdrawals between
rounds, substitutes for named boards, the Swiss and knockout rounds as paired, a knockout tie
as the director decided it, and the tables that played a fouled board's changed form (Law 87).
The folded register itself is :mod:`ledger.register_state`.

:func:`fold_register` folds the stream into a :class:`Register` (a pure function);
:func:`check_register_fact` refuses, before anything is written, what cannot be: a player
unknown or in two entries of one session at once, a substitute for a board already ended,
a Swiss or knockout round paired before the last one has ended, a team twice in a round, a
rematch, a knockout round of teams that did not win the last one, a tie decided that is not one.
The batch is written in one transaction, hashed and chained like a board's stream; one bad
line and nothing is written.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ledger import events as ev
from ledger.errors import BadInput
from ledger.hashing import event_hash
from ledger.records.games import slugify
from ledger.store.base import StoredEvent
from projections.state import TableState
from ledger.register_state import Entry, Register, apply, fold_register, swiss_match_id

__all__ = ["Entry", "Register", "apply", "fold_register", "swiss_match_id", "register_stream", "read_register",
           "append_register", "check_register_fact"]

PREFIX = "register/"


def register_stream(tournament: str) -> str:
    """The stream of a tournament's register."""
    return PREFIX + slugify(tournament)


# -- checks -------------------------------------------------------------------------------


def _bad(message: str, field: str, value: Any, event: ev.Event) -> BadInput:
    return BadInput(message, field=field, value=value, event_type=event.TYPE)


Boards = Sequence[tuple[str, TableState]]


def check_register_fact(reg: Register, event: ev.Event, boards: Boards) -> None:
    """Raise :class:`BadInput` when ``event`` cannot be appended to the register ``reg``;
    ``boards`` are the tournament's boards (stream, head state) as they stand. Each kind of
    register event has its named check in :data:`_REGISTER_CHECKS`, looked up by its class."""
    if not isinstance(event, ev.TOURNAMENT_EVENTS):
        raise _bad("only the register's events go in a tournament's register (a board's facts go "
                   "in the board's stream)", "type", event.TYPE, event)
    for kinds, check in _REGISTER_CHECKS:
        if isinstance(event, kinds):
            check(reg, event, boards)
            return


def _check_player(reg: Register, event: ev.PlayerRegistered, boards: Boards) -> None:
    """A player number names one player: registering him again with other details is refused."""
    if event.player in reg.players and reg.players[event.player] != event:
        raise _bad(f"player {event.player} is already registered as {reg.players[event.player].name}",
                   "player", event.player, event)


def _check_scheduled(reg: Register, event: ev.SessionScheduled, boards: Boards) -> None:
    """A session is scheduled once."""
    if event.session in reg.sessions:
        raise _bad("this session is already scheduled", "session", event.session, event)


def _check_entered(reg: Register, event: ev.PairEntered | ev.TeamEntered, boards: Boards) -> None:
    """A new pair (two players) or team (four to six), each player registered, once, in no
    other entry of the kind; its session, when named, scheduled."""
    entry_id = event.pair if isinstance(event, ev.PairEntered) else event.team
    field = "pair" if isinstance(event, ev.PairEntered) else "team"
    if reg.entry(entry_id) is not None:
        raise _bad(f"{field} {entry_id} has already entered", field, entry_id, event)
    _check_entry_size(event)
    for player in event.players:
        _check_free_player(reg, event, player, field)
    if event.session is not None and event.session not in reg.sessions:
        raise _bad("no such session (SessionScheduled first)", "session", event.session, event)


def _check_entry_size(event: ev.PairEntered | ev.TeamEntered) -> None:
    """A pair is two players, a team four to six, none of them twice."""
    if isinstance(event, ev.PairEntered) and len(event.players) != 2:
        raise _bad("a pair is two players", "players", list(event.players), event)
    if isinstance(event, ev.TeamEntered) and not 4 <= len(event.players) <= 6:
        raise _bad("a team is four to six players", "players", list(event.players), event)
    if len(set(event.players)) != len(event.players):
        raise _bad("a player twice in one entry", "players", list(event.players), event)


def _check_free_player(reg: Register, event: ev.PairEntered | ev.TeamEntered, player: str, field: str) -> None:
    """``player`` is registered and plays in no other entry of the kind ``field``."""
    if player not in reg.players:
        raise _bad("no such player (PlayerRegistered first)", "players", player, event)
    other = _entry_of_player(reg, player, kind=field)
    if other is not None:
        raise _bad(f"player {player} ({reg.player_name(player)}) already plays in {field} {other}: "
                   "a player cannot sit in two seats at once", "players", player, event)


def _check_withdrawn(reg: Register, event: ev.EntryWithdrawn, boards: Boards) -> None:
    """A withdrawal takes effect between rounds: the entry has begun no board of that round or later."""
    if reg.entry(event.entry) is None:
        raise _bad("no such pair or team", "entry", event.entry, event)
    _check_session(reg, event.session, event)
    started = [s for s, st in boards if _session_of(st) == event.session and _entries(st) & {event.entry}
               and _round_of(reg, event.session, st) is not None
               and (_round_of(reg, event.session, st) or 0) >= event.from_round and st.seq > 1]
    if started:
        raise _bad(f"the entry has already begun round {event.from_round} or later ({started[0]}): a "
                   "withdrawal takes effect between rounds", "from_round", event.from_round, event)


def _check_substitute(reg: Register, event: ev.SubstituteSeated, boards: Boards) -> None:
    """A registered player, not of the entry, replaces one of its players on boards not yet
    ended, sitting for no other entry on them."""
    _check_session(reg, event.session, event)
    entry = reg.entry(event.entry)
    if entry is None:
        raise _bad("no such pair or team", "entry", event.entry, event)
    if event.replaces not in entry.players:
        raise _bad(f"player {event.replaces} is not in {event.entry}", "replaces", event.replaces, event)
    if event.player not in reg.players:
        raise _bad("no such player (PlayerRegistered first)", "player", event.player, event)
    if event.player in entry.players:
        raise _bad(f"player {event.player} already plays in {event.entry}", "player", event.player, event)
    for board in event.boards:
        _check_substitute_board(reg, event, board, boards)


def _check_substitute_board(reg: Register, event: ev.SubstituteSeated, board: int, boards: Boards) -> None:
    """The entry has not ended ``board``, and the substitute sits for no other entry on it."""
    for stream, state in boards:
        if _session_of(state) == event.session and state.board.board == board \
                and event.entry in _entries(state) and _ended(state):
            raise _bad(f"board {board} has already ended at {stream}: a substitute is seated "
                       "before the board is played", "boards", board, event)
    busy = _seated_elsewhere(reg, event.session, event.player, board, event.entry)
    if busy is not None:
        raise _bad(f"player {event.player} ({reg.player_name(event.player)}) already sits for "
                   f"{busy} on board {board}: a player cannot sit in two seats at once",
                   "player", event.player, event)


def _check_fouled_fact(reg: Register, event: ev.BoardFouled, boards: Boards) -> None:
    _check_fouled(reg, event)


def _check_swiss_round(reg: Register, event: ev.SwissRoundPaired, boards: Boards) -> None:
    """A Swiss round: the next one, well formed, once every match of the last round is over."""
    _check_session(reg, event.session, event)
    _check_round_shape(reg, event)
    if event.round > 1:
        unfinished = _unfinished_round(reg, event.session, event.round - 1, boards)
        if unfinished:
            raise _bad(f"round {event.round - 1} has not ended ({unfinished}): pair round "
                       f"{event.round} once every match of the last round is over", "round",
                       event.round, event)


def _check_round_shape(reg: Register, event: ev.SwissRoundPaired | ev.KnockoutRoundPaired) -> None:
    """The round is the next one, within the session's rounds, each team known and once."""
    rounds = reg.swiss.get(event.session, {})
    if event.round in rounds:
        raise _bad(f"round {event.round} is already paired", "round", event.round, event)
    if event.round != len(rounds) + 1:
        raise _bad(f"the next round to pair is {len(rounds) + 1}", "round", event.round, event)
    planned = reg.sessions[event.session].rounds
    if planned is not None and event.round > planned:
        raise _bad(f"session {event.session} has {planned} rounds", "round", event.round, event)
    seen: set[str] = set()
    for home, away in event.matches:
        for team in (home, away):
            if team not in reg.teams:
                raise _bad("no such team", "matches", team, event)
            if team in seen or team == event.bye:
                raise _bad(f"team {team} twice in round {event.round}", "matches", team, event)
            seen.add(team)
    if event.bye is not None and event.bye not in reg.teams:
        raise _bad("no such team", "bye", event.bye, event)


def _check_knockout_round(reg: Register, event: ev.KnockoutRoundPaired,
                          boards: Sequence[tuple[str, TableState]]) -> None:
    """A knockout round: the session is a knockout; after round 1, the last round is over and
    its winners (ties decided by the director) are exactly the teams of this round."""
    _check_session(reg, event.session, event)
    if reg.sessions[event.session].kind != "knockout":
        raise _bad("a knockout round goes in a knockout session (SessionScheduled kind knockout)", "session",
                   event.session, event)
    _check_round_shape(reg, event)
    if event.carry is not None and len(event.carry) != len(event.matches):
        raise _bad("one carry-over [home, away] per match", "carry", [list(c) for c in event.carry], event)
    if event.round == 1:
        return
    unfinished = _unfinished_round(reg, event.session, event.round - 1, boards)
    if unfinished:
        raise _bad(f"round {event.round - 1} has not ended ({unfinished}): pair round {event.round} once "
                   "every match of the last round is over", "round", event.round, event)
    from projections.event import knockout_matches

    last = [m for m in knockout_matches(reg, event.session, boards) if m["round"] == event.round - 1]
    tied = [m for m in last if m["winner"] is None]
    if tied:
        raise _bad(f"match {tied[0]['home']} v {tied[0]['away']} of round {event.round - 1} is tied: the "
                   "conditions of contest decide it (KnockoutTieDecided) before the next round",
                   "round", event.round, event)
    previous = reg.swiss[event.session][event.round - 1]
    going_on = {m["winner"] for m in last} | ({previous.bye} if previous.bye else set())
    playing = {t for match in event.matches for t in match} | ({event.bye} if event.bye else set())
    if playing != going_on:
        wrong = sorted(playing ^ going_on)[0]
        raise _bad(f"round {event.round} is played by the winners of round {event.round - 1} "
                   f"({', '.join(sorted(going_on))})", "matches", wrong, event)


def _check_tie(reg: Register, event: ev.KnockoutTieDecided, boards: Sequence[tuple[str, TableState]]) -> None:
    """The match exists, is over, is tied, and the winner is one of its teams."""
    paired = reg.swiss.get(event.session, {}).get(event.round)
    if not isinstance(paired, ev.KnockoutRoundPaired) or (event.home, event.away) not in paired.matches:
        raise _bad(f"round {event.round} of knockout session {event.session} has no match {event.home} v "
                   f"{event.away}", "home", event.home, event)
    if event.winner not in (event.home, event.away):
        raise _bad("the winner is one of the match's two teams", "winner", event.winner, event)
    from projections.event import knockout_matches

    match = next(m for m in knockout_matches(reg, event.session, boards)
                 if (m["round"], m["home"], m["away"]) == (event.round, event.home, event.away))
    if match["status"] != "tied":
        raise _bad(f"match {event.home} v {event.away} is not a tie ({match['status']}: "
                   f"{match['total_home']} - {match['total_away']} IMPs)", "winner", event.winner, event)


def _check_fouled(reg: Register, event: ev.BoardFouled) -> None:
    """Law 87: a table is in one group of a fouled board; the law cited is 87."""
    _check_session(reg, event.session, event)
    edition, article = event.law.split(":", 1)
    if edition != "FFB" and not article.startswith("87"):
        raise _bad("a fouled board is scored under Law 87 (e.g. 2017:87B)", "law", event.law, event)
    for earlier in reg.fouled.get((event.session, event.board), ()):
        twice = set(earlier.tables) & set(event.tables)
        if twice:
            raise _bad(f"table {sorted(twice)[0]} is already in form {earlier.form} of board {event.board}",
                       "tables", sorted(twice)[0], event)


def _check_session(reg: Register, session: str, event: ev.Event) -> None:
    if session not in reg.sessions:
        raise _bad("no such session (SessionScheduled first)", "session", session, event)


def _entry_of_player(reg: Register, player: str, kind: str) -> str | None:
    table = reg.pairs if kind == "pair" else reg.teams
    return next((e.id for e in table.values() if player in e.players), None)


def _seated_elsewhere(reg: Register, session: str, player: str, board: int, entry_id: str) -> str | None:
    """The entry ``player`` already sits for on ``board`` of ``session`` (his own, or as a
    substitute), other than ``entry_id``."""
    for e in list(reg.pairs.values()) + list(reg.teams.values()):
        if e.id != entry_id and player in reg.seated(session, e.id, board):
            return e.id
    return None


def _session_of(state: TableState) -> str | None:
    return state.board.session


def _entries(state: TableState) -> set[str]:
    return {x for x in (state.board.ns, state.board.ew) if x}


def _ended(state: TableState) -> bool:
    return state.result is not None or state.adjusted is not None or state.result_cancelled is not None


def _round_of(reg: Register, session: str, state: TableState) -> int | None:
    """A board's round: a Swiss match's round, else None."""
    match = state.board.match
    if match and match.startswith(f"{session}-r"):
        head = match[len(session) + 2:].split("-", 1)[0]
        return int(head) if head.isdigit() else None
    return None


def _unfinished_round(reg: Register, session: str, rnd: int, boards: Sequence[tuple[str, TableState]]) -> str:
    """'' when every match of round ``rnd`` has all its boards ended in both rooms, else what is not."""
    paired = reg.swiss.get(session, {}).get(rnd)
    if paired is None:
        return f"round {rnd} is not paired"
    per_match = reg.sessions[session].boards or 1
    for home, away in paired.matches:
        match = swiss_match_id(session, rnd, home, away)
        streams = [(s, st) for s, st in boards if st.board.match == match]
        ended = [s for s, st in streams if _ended(st)]
        if len(ended) < 2 * per_match:
            return f"match {home} v {away}: {len(ended)} of {2 * per_match} tables ended"
    return ""


_RegisterCheck = Callable[[Register, Any, Boards], None]

# The named check of each kind of register event, in the order they are looked up
# (isinstance, as the events' classes are matched); a kind absent here has nothing to check.
_REGISTER_CHECKS: tuple[tuple[type | tuple[type, ...], _RegisterCheck], ...] = (
    (ev.PlayerRegistered, _check_player),
    (ev.SessionScheduled, _check_scheduled),
    ((ev.PairEntered, ev.TeamEntered), _check_entered),
    (ev.EntryWithdrawn, _check_withdrawn),
    (ev.SubstituteSeated, _check_substitute),
    (ev.BoardFouled, _check_fouled_fact),
    (ev.KnockoutRoundPaired, _check_knockout_round),
    (ev.KnockoutTieDecided, _check_tie),
    (ev.SwissRoundPaired, _check_swiss_round),
)


# -- appending ------------------------------------------------------------------------------


def read_register(ledger: Any, tournament: str) -> Register:
    """The folded register of ``tournament`` (empty when nothing was registered)."""
    stored = ledger.store.read(register_stream(tournament))
    return fold_register(ev.parse_stored(e.type, e.v, e.data) for e in stored)


def append_register(ledger: Any, tournament: str, facts: Sequence[Mapping[str, Any]]) -> list[StoredEvent]:
    """Append register facts (JSON-like objects with ``type``, optional ``actor`` and ``id``)
    to ``tournament``'s register, atomically: every fact is checked against the register as
    folded so far and against the tournament's boards; one refused and nothing is written.
    A batch whose ids are all stored already is a retry (nothing written)."""
    from ledger.service import parse_fact, utc_now
    from ledger.tournament import tournament_tables

    parsed = [parse_fact(f, i, default_role=ev.DIRECTOR) for i, f in enumerate(facts, start=1)]
    if not parsed:
        raise BadInput("nothing to append: the input has no event", field="input", value="")
    boards = tournament_tables(ledger, tournament)
    stream = register_stream(tournament)
    with ledger.store.transaction(stream) as tx:
        head_seq, prev = tx.head()
        stored_before = tx.read() if head_seq else []
        ids = [f.id for f in parsed if f.id]
        if ids and head_seq:
            found = tx.find_ids(ids)
            if found and len(found) == len(parsed):
                return []
            if found:
                raise BadInput("this batch mixes events already stored (a retry) with new ones",
                               field="id", value=next(iter(found)))
        reg = fold_register(ev.parse_stored(e.type, e.v, e.data) for e in stored_before)
        written: list[StoredEvent] = []
        seq = head_seq
        for fact in parsed:
            try:
                check_register_fact(reg, fact.event, boards)
            except BadInput as exc:
                raise exc.at_line(fact.line) from None
            apply(reg, fact.event)
            seq += 1
            at = utc_now()
            data = fact.event.to_data()
            from ledger.service import new_event_id

            event_id = fact.id or new_event_id()
            digest = event_hash(stream, seq, event_id, fact.event.TYPE, fact.event.VERSION, data,
                                fact.actor.to_json(), at, (), None, prev)
            written.append(StoredEvent(stream=stream, seq=seq, id=event_id, type=fact.event.TYPE,
                                       v=fact.event.VERSION, data=data, actor=fact.actor, at=at, causes=(),
                                       law=None, prev=prev, hash=digest))
            prev = digest
        return tx.insert(written)
