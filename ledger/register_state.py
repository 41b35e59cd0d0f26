"""The folded register of a tournament (issue 24): who plays, in which sessions, with whom.

A pure fold of the register's events (:mod:`ledger.register` appends and checks them), kept
apart so that the results projections read it without importing the checks (which read the
results of a knockout's last round).
"""

from __future__ import annotations

from typing import Iterable, Sequence

import attrs

from ledger import events as ev


@attrs.define
class Entry:
    """A pair or a team: its id, its players (in order), its name, when it plays."""

    id: str
    players: tuple[str, ...]
    name: str | None = None
    session: str | None = None
    from_round: int | None = None
    carry: float = 0.0
    withdrawn: dict[str, int] = attrs.field(factory=dict)
    """session -> the first round it no longer plays."""

    def plays(self, session: str | None, rnd: int | None, order: Sequence[str]) -> bool:
        """Does the entry play round ``rnd`` of ``session`` (late entry, withdrawal)?"""
        if session is not None and self.session is not None and session in order and self.session in order \
                and order.index(session) < order.index(self.session):
            return False
        if rnd is not None and self.from_round is not None and session == self.session and rnd < self.from_round:
            return False
        stop = self.withdrawn.get(session or "")
        if stop is not None and rnd is not None and rnd >= stop:
            return False
        return True


@attrs.define
class Register:
    """The folded register of one tournament."""

    players: dict[str, ev.PlayerRegistered] = attrs.field(factory=dict)
    sessions: dict[str, ev.SessionScheduled] = attrs.field(factory=dict)
    pairs: dict[str, Entry] = attrs.field(factory=dict)
    teams: dict[str, Entry] = attrs.field(factory=dict)
    substitutes: list[ev.SubstituteSeated] = attrs.field(factory=list)
    swiss: dict[str, dict[int, ev.SwissRoundPaired | ev.KnockoutRoundPaired]] = attrs.field(factory=dict)
    """session -> round -> its matches as paired (a Swiss or a knockout)."""
    ties: dict[tuple[str, int, str, str], ev.KnockoutTieDecided] = attrs.field(factory=dict)
    """(session, round, home, away) -> the director's decision of a tied knockout match."""
    fouled: dict[tuple[str, int], list[ev.BoardFouled]] = attrs.field(factory=dict)
    """(session, board) -> the Law 87 groups of changed forms (BoardFouled)."""
    seq: int = 0

    def form_of(self, session: str | None, board: int, table: str, stream: str) -> str | None:
        """The changed form a table played of a fouled board (Law 87), None for the correct form."""
        for fact in self.fouled.get((session or "", board), ()):
            if table in fact.tables or stream in fact.tables:
                return fact.form
        return None

    @property
    def session_order(self) -> list[str]:
        return list(self.sessions)

    def entry(self, entry_id: str) -> Entry | None:
        return self.pairs.get(entry_id) or self.teams.get(entry_id)

    def player_name(self, player: str) -> str:
        p = self.players.get(player)
        return p.name if p else player

    def entry_name(self, entry_id: str | None) -> str | None:
        """A pair's names ("Martin - Durand") or a team's name; None for an unknown entry."""
        if entry_id is None:
            return None
        e = self.entry(entry_id)
        if e is None:
            return None
        if e.name:
            return e.name
        return " - ".join(self.player_name(p) for p in e.players)

    def seated(self, session: str | None, entry_id: str, board: int) -> tuple[str, ...]:
        """The players who actually sat for ``entry_id`` on ``board`` of ``session``: its
        players, with any substitute for that board in place of the player he replaced."""
        e = self.entry(entry_id)
        if e is None:
            return ()
        players = list(e.players)
        for sub in self.substitutes:
            if sub.entry == entry_id and (session is None or sub.session == session) and board in sub.boards:
                players = [sub.player if p == sub.replaces else p for p in players]
        return tuple(players)


def fold_register(events: Iterable[ev.Event]) -> Register:
    reg = Register()
    for event in events:
        apply(reg, event)
    return reg


def apply(reg: Register, event: ev.Event) -> None:
    """One register event folded in place (what :func:`check_register_fact` accepted)."""
    reg.seq += 1
    if isinstance(event, ev.PlayerRegistered):
        reg.players[event.player] = event
    elif isinstance(event, ev.SessionScheduled):
        reg.sessions[event.session] = event
    elif isinstance(event, ev.PairEntered):
        reg.pairs[event.pair] = Entry(event.pair, event.players, None, event.session, event.from_round)
    elif isinstance(event, ev.TeamEntered):
        reg.teams[event.team] = Entry(event.team, event.players, event.name, event.session, event.from_round,
                                      float(event.carry or 0))
    elif isinstance(event, ev.EntryWithdrawn):
        entry = reg.entry(event.entry)
        if entry is not None:
            entry.withdrawn[event.session] = event.from_round
    elif isinstance(event, ev.SubstituteSeated):
        reg.substitutes.append(event)
    elif isinstance(event, (ev.SwissRoundPaired, ev.KnockoutRoundPaired)):
        reg.swiss.setdefault(event.session, {})[event.round] = event
    elif isinstance(event, ev.KnockoutTieDecided):
        reg.ties[(event.session, event.round, event.home, event.away)] = event
    elif isinstance(event, ev.BoardFouled):
        reg.fouled.setdefault((event.session, event.board), []).append(event)


def swiss_match_id(session: str, rnd: int, home: str, away: str) -> str:
    """``BoardOpened.match`` of a Swiss match: ``<session>-r<round>-<home>v<away>``."""
    return f"{session}-r{rnd}-{home}v{away}"
