"""Playing sessions: the movement, the boards of each round, the stream names.

A session has ``tables`` tables, ``rounds`` rounds and ``boards_per_round``
boards in each round's set. The movement says which pairs sit where and which
set each table plays in each round:

* **Mitchell** (pairs 1..N sit North-South and stay; pairs N+1..2N sit
  East-West and move up one table a round; the sets move down one table). With
  an odd number of tables, N rounds; with an even number, the skip Mitchell:
  N-1 rounds, the East-West pairs skip a table after N/2 rounds, so no pair
  plays a set twice.
* **Howell** (2N pairs, 2N-1 rounds, every pair meets every other once, the
  round-robin's circle method): the set of a table in a round is chosen so that
  no pair plays a set twice and no two tables play the same set in a round
  (found by a small search, checked by the tests); where no such choice
  exists (2 tables) every table plays the round's set from duplicated boards.

* **Teams, two rooms** (``--two-rooms``, teams scoring IMP): N matches, each
  played at two tables, one in the open room and one in the closed room, on the
  same boards. Match m is team m against team N+m: in the open room team m sits
  North-South, in the closed room East-West. Every match plays set r in round
  r (duplicated boards). The session's tables are numbered 1..2N: 1..N are the
  open room's tables 1..N, N+1..2N the closed room's tables 1..N (one token
  each).

Each board is a stream ``<tournament>/<session>/t<table>/b<board>``; with two
rooms ``<tournament>/<session>/<room>/t<table>/b<board>`` (``room`` is
``open`` or ``closed``, ``table`` the match's number in its room), and its
``BoardOpened`` carries ``match`` (``<session>-m<match>``) and ``room`` (spec
section 3: the two streams of one board with the same ``match`` are its two
rooms). The board
a table plays now is the first board of its schedule whose stream has not
ended (no ``ResultRecorded`` yet, or not opened): the log decides, nothing is
kept beside it.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ledger.bridge import DECK, SEATS
from ledger.errors import BadInput
from ledger.live.accounts import stamp
from ledger.live.schema import live_sessions
from ledger.tournament import board_in_session

NAME = re.compile(r"^[A-Za-z0-9._-]{1,60}$")
MAX_TABLES = 400


@attrs.frozen
class Seating:
    table: int
    ns: str
    ew: str
    set: int


@attrs.frozen
class Session:
    id: int
    tournament: str
    name: str
    tables: int
    rounds: int
    boards_per_round: int
    kind: str
    movement: tuple[tuple[Seating, ...], ...]  # rounds, then tables
    laws: str
    scoring: str
    deals: dict[int, str]
    opened_at: str
    opened_by: str | None
    closed_at: str | None
    entry: str = "quick"
    """How the tables log a board: ``quick`` (contract, declarer, opening lead, tricks, the
    opponents confirming: a traveller row) or ``cards`` (every call and card as it happens)."""
    clock_minutes: int | None = None
    """The round's time the director set (the tables' round clock), or None."""

    @property
    def prefix(self) -> str:
        return f"{self.tournament}/{self.name}/"

    @property
    def rooms(self) -> bool:
        """Teams in two rooms: tables 1..N are the open room's, N+1..2N the closed room's."""
        return self.kind == "teams"

    @property
    def matches(self) -> int:
        return self.tables // 2 if self.rooms else self.tables

    def room_of(self, table: int) -> str | None:
        if not self.rooms:
            return None
        return "open" if table <= self.matches else "closed"

    def match_table(self, table: int) -> int:
        """The table's number in its room (its match's number): the table itself without rooms."""
        return table - self.matches if self.rooms and table > self.matches else table

    def match_of(self, table: int) -> str | None:
        return f"{self.name}-m{self.match_table(table)}" if self.rooms else None

    def table_label(self, table: int) -> str:
        room = self.room_of(table)
        return f"{room} room, table {self.match_table(table)}" if room else f"table {table}"

    def table_prefix(self, table: int) -> str:
        """The streams of one table start with this."""
        room = self.room_of(table)
        where = f"{room}/" if room else ""
        return f"{self.prefix}{where}t{self.match_table(table)}/"

    def table_actor_name(self, table: int) -> str:
        room = self.room_of(table)
        return f"{room}-t{self.match_table(table)}" if room else f"t{table}"

    def boards_of_set(self, number: int) -> list[int]:
        b = self.boards_per_round
        return list(range((number - 1) * b + 1, number * b + 1))

    def stream(self, table: int, board: int) -> str:
        return f"{self.table_prefix(table)}b{board}"

    def schedule(self, table: int) -> list[tuple[int, Seating, int]]:
        """(round, seating, board) in playing order for ``table``."""
        out = []
        for rnd, seatings in enumerate(self.movement, start=1):
            seat = seatings[table - 1]
            for board in self.boards_of_set(seat.set):
                out.append((rnd, seat, board))
        return out

    def parse_stream(self, stream: str) -> tuple[int, int] | None:
        """(table, board) of a stream of this session, or None."""
        if self.rooms:
            m = re.fullmatch(re.escape(self.prefix) + r"(open|closed)/t(\d+)/b(\d+)", stream)
            if not m or not 1 <= int(m.group(2)) <= self.matches:
                return None
            offset = 0 if m.group(1) == "open" else self.matches
            return int(m.group(2)) + offset, int(m.group(3))
        m = re.fullmatch(re.escape(self.prefix) + r"t(\d+)/b(\d+)", stream)
        return (int(m.group(1)), int(m.group(2))) if m else None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "tournament": self.tournament, "name": self.name, "tables": self.tables,
            "rounds": self.rounds, "boards_per_round": self.boards_per_round, "movement": self.kind,
            "laws": self.laws, "scoring": self.scoring, "rooms": self.rooms,
            "table_labels": {str(t): self.table_label(t) for t in range(1, self.tables + 1)},
            "opened_at": self.opened_at,
            "opened_by": self.opened_by, "closed_at": self.closed_at, "entry": self.entry,
            "clock_minutes": self.clock_minutes,
            "seating": [[attrs.asdict(s) for s in rnd] for rnd in self.movement],
        }


def mitchell(tables: int) -> list[list[Seating]]:
    n = tables
    skip = n % 2 == 0
    rounds = n - 1 if skip else n
    out = []
    for r in range(rounds):
        shift = r + (1 if skip and r >= n // 2 else 0)
        row = []
        for t in range(n):
            ew_start = (t - shift) % n
            row.append(Seating(t + 1, str(t + 1), str(n + ew_start + 1), (t + r) % n + 1))
        out.append(row)
    return out


def teams(matches: int, rounds: int) -> list[list[Seating]]:
    """Two rooms: match m (team m v team N+m) at open-room table m (team m North-South)
    and closed-room table m, physical table N+m (team m East-West); set r in round r."""
    n = matches
    out = []
    for r in range(rounds):
        row = [Seating(m, str(m), str(n + m), r + 1) for m in range(1, n + 1)]
        row += [Seating(n + m, str(n + m), str(m), r + 1) for m in range(1, n + 1)]
        out.append(row)
    return out


def howell(tables: int) -> list[list[Seating]]:
    n = tables
    m = 2 * n - 1  # rounds, and board sets
    offsets = _howell_offsets(n)
    out = []
    for r in range(m):
        row = [Seating(1, str(2 * n), str(r + 1), (r + offsets[0]) % m + 1)]
        for i in range(1, n):
            row.append(Seating(i + 1, str((r + i) % m + 1), str((r - i) % m + 1),
                               (r + offsets[i]) % m + 1))
        out.append(row)
    return out


def _howell_offsets(n: int) -> list[int]:
    """Set offsets c_i (table i plays set r + c_i in round r): distinct, and no
    pair meets a set twice. Backtracking; N up to 15 answers at once."""
    m = 2 * n - 1

    def pair_sets_ok(c: list[int]) -> bool:
        # pair p in round r sits at table i(d) with d = p - r; its set is p - d + c_i(d)
        seen: set[int] = set()
        for d in range(m):
            i = 0 if d == 0 else (d if d <= n - 1 else m - d)
            if i >= len(c):
                continue
            v = (c[i] - d) % m
            if v in seen:
                return False
            seen.add(v)
        return True

    def search(c: list[int]) -> list[int] | None:
        if len(c) == n:
            return c
        for v in range(m):
            if v in c:
                continue
            if pair_sets_ok(c + [v]):
                found = search(c + [v])
                if found:
                    return found
        return None

    # None for some sizes (2 tables): then every table plays the round's set,
    # from duplicated boards (a dealing machine's copies).
    return search([0]) or [0] * n


def read_movement(text: str, tables: int) -> list[list[Seating]]:
    """A movement file: one line per table and round, ``ROUND TABLE NS EW SET``
    (whole numbers for round, table and set; pair names for NS and EW);
    blank lines and ``#`` lines skipped. Every round must seat every table
    once, rounds numbered from 1."""
    rows: dict[int, dict[int, Seating]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 5:
            raise BadInput("a movement line is ROUND TABLE NS EW SET", field="line", value=line,
                           line=number)
        values = {}
        for field, value in zip(("round", "table", "set"), (parts[0], parts[1], parts[4])):
            if not value.isdigit() or int(value) < 1:
                raise BadInput("a whole number from 1", field=field, value=value, line=number)
            values[field] = int(value)
        if not 1 <= values["table"] <= tables:
            raise BadInput(f"the session has tables 1 to {tables}", field="table",
                           value=values["table"], line=number)
        seats = rows.setdefault(values["round"], {})
        if values["table"] in seats:
            raise BadInput("this table is seated twice in the round", field="table",
                           value=values["table"], line=number)
        seats[values["table"]] = Seating(values["table"], parts[2], parts[3], values["set"])
    if not rows:
        raise BadInput("the movement file has no line", field="--movement-file", value="")
    out = []
    for rnd in range(1, max(rows) + 1):
        seats = rows.get(rnd, {})
        if sorted(seats) != list(range(1, tables + 1)):
            missing = sorted(set(range(1, tables + 1)) - set(seats))
            raise BadInput(f"round {rnd} does not seat every table (missing {missing})",
                           field="round", value=rnd)
        out.append([seats[t] for t in range(1, tables + 1)])
    return out


def read_deals(text: str, boards: int) -> dict[int, str]:
    """The deals of a PBN file (a dealing machine's): ``[Board]`` and ``[Deal]``
    of each game; every board 1..``boards`` must be there."""
    from ledger.bridge import Deal
    from ledger.records.formats.pbn import read_pbn

    deals: dict[int, str] = {}
    for record in read_pbn(text):
        board, deal = record.tags.get("Board", ""), record.tags.get("Deal")
        if not board.isdigit() or not deal:
            raise BadInput("each game needs [Board] and [Deal]", field="Board", value=board,
                           line=record.line)
        Deal.parse(deal)
        deals[int(board)] = deal
    missing = [b for b in range(1, boards + 1) if b not in deals]
    if missing:
        raise BadInput(f"the file has no deal for board(s) {missing[:10]}", field="--deals",
                       value=sorted(deals)[:10])
    return {b: deals[b] for b in range(1, boards + 1)}


def random_deals(boards: int, seed: int | None) -> dict[int, str]:
    rng = random.Random(seed)
    deals = {}
    for board in range(1, boards + 1):
        cards = [str(c) for c in DECK]
        rng.shuffle(cards)
        hands = []
        for i in range(4):
            hand = cards[i * 13:(i + 1) * 13]
            hands.append(".".join("".join(sorted((c[1] for c in hand if c[0] == s),
                                                 key="AKQJT98765432".index)) for s in "SHDC"))
        deals[board] = "N:" + " ".join(hands)
    return deals


def _check_shape(tournament: str, name: str, tables: int, boards_per_round: int, movement: str,
                 movement_text: str | None, two_rooms: bool) -> str:
    """The session's names, tables, boards a round and movement, checked; the movement's kind."""
    for field, value in (("TOURNAMENT", tournament), ("NAME", name)):
        if not NAME.match(value or ""):
            raise BadInput("1 to 60 characters of A-Z a-z 0-9 . _ -", field=field, value=value)
    if not 1 <= tables <= MAX_TABLES:
        raise BadInput(f"1 to {MAX_TABLES} tables", field="--tables", value=tables)
    if movement == "mitchell" and tables < 2 and not two_rooms:
        raise BadInput("a Mitchell needs at least 2 tables", field="--tables", value=tables)
    if not 1 <= boards_per_round <= 8:
        raise BadInput("1 to 8 boards a round", field="--boards-per-round", value=boards_per_round)
    if movement_text is not None:
        movement = "file"
    if movement not in ("mitchell", "howell", "file"):
        raise BadInput("mitchell or howell", field="--movement", value=movement)
    if movement == "howell" and tables > 15:
        raise BadInput("a Howell for at most 15 tables", field="--tables", value=tables)
    return movement


def _check_rules(entry: str, clock_minutes: int | None, laws: str, scoring: str) -> None:
    """The session's entry mode, round clock, Laws' edition and scoring, checked."""
    if entry not in ENTRY_MODES:
        raise BadInput("quick (contract, declarer, lead, tricks) or cards (card by card)",
                       field="--entry", value=entry)
    if clock_minutes is not None and not 1 <= clock_minutes <= 120:
        raise BadInput("1 to 120 minutes a round", field="--round-minutes", value=clock_minutes)
    if laws not in ("2017", "1997"):
        raise BadInput("2017 or 1997", field="--laws", value=laws)
    if scoring not in ("MP", "IMP"):
        raise BadInput("MP (pairs) or IMP (teams)", field="--scoring", value=scoring)


def _two_rooms(tables: int, movement_text: str | None, rounds: int | None,
               scoring: str) -> tuple[str, list[Any], int]:
    """A teams session's movement: ``tables`` matches in two rooms, ``rounds`` sets."""
    if scoring != "IMP":
        raise BadInput("two rooms are a teams match: --scoring IMP", field="--scoring", value=scoring)
    if movement_text is not None:
        raise BadInput("two rooms have their own movement", field="--movement-file", value="(given)")
    if not 1 <= tables <= MAX_TABLES // 2:
        raise BadInput(f"1 to {MAX_TABLES // 2} matches (tables in each room)", field="--tables",
                       value=tables)
    if rounds is not None and not 1 <= rounds <= 16:
        raise BadInput("1 to 16 rounds (sets of boards)", field="--rounds", value=rounds)
    return "teams", teams(tables, rounds or 1), 2 * tables


def _seatings(tables: int, movement: str, movement_text: str | None, rounds: int | None, scoring: str,
              two_rooms: bool) -> tuple[str, list[Any], int]:
    """The movement's kind, its rounds (only the first ``rounds``) and the number of tables."""
    if two_rooms:
        return _two_rooms(tables, movement_text, rounds, scoring)
    if movement == "file":
        rounds_list = read_movement(movement_text or "", tables)
    else:
        rounds_list = mitchell(tables) if movement == "mitchell" else howell(tables)
    if rounds is not None:
        if not 1 <= rounds <= len(rounds_list):
            raise BadInput(f"this movement has 1 to {len(rounds_list)} rounds", field="--rounds",
                           value=rounds)
        rounds_list = rounds_list[:rounds]
    return movement, list(rounds_list), tables


def open_session(engine: Engine, *, tournament: str, name: str, tables: int, boards_per_round: int,
                 movement: str = "mitchell", laws: str = "2017", scoring: str = "MP",
                 seed: int | None = None, opened_by: str | None = None,
                 rounds: int | None = None, movement_text: str | None = None,
                 deals_text: str | None = None, two_rooms: bool = False,
                 entry: str = "quick", clock_minutes: int | None = None) -> Session:
    """Open a session; ``rounds`` plays only the movement's first rounds (a
    30-table Mitchell is rarely played to the end). ``two_rooms``: a teams
    session (IMP) of ``tables`` matches, each at two tables (open and closed
    room): 2 x ``tables`` tables, ``rounds`` sets (1 by default)."""
    movement = _check_shape(tournament, name, tables, boards_per_round, movement, movement_text, two_rooms)
    _check_rules(entry, clock_minutes, laws, scoring)
    movement, rounds_list, tables = _seatings(tables, movement, movement_text, rounds, scoring, two_rooms)
    sets = max(s.set for rnd in rounds_list for s in rnd)
    if deals_text is not None:
        deals = read_deals(deals_text, sets * boards_per_round)
    else:
        deals = random_deals(sets * boards_per_round, seed)
    doc = [[attrs.asdict(s) for s in rnd] for rnd in rounds_list]
    with engine.begin() as conn:
        if conn.execute(sa.select(live_sessions.c.id).where(
                live_sessions.c.tournament == tournament, live_sessions.c.name == name)).first():
            raise BadInput("a session of that name is already open in this tournament",
                           field="NAME", value=name)
        key = conn.execute(live_sessions.insert().values(
            tournament=tournament, name=name, tables=tables, rounds=len(rounds_list),
            boards_per_round=boards_per_round, movement=json.dumps({"kind": movement, "rounds": doc, "entry": entry,
                                                       "clock_minutes": clock_minutes}),
            laws=laws, scoring=scoring, deals=json.dumps({str(k): v for k, v in deals.items()}),
            opened_at=stamp(), opened_by=opened_by)).inserted_primary_key
        assert key is not None  # an INSERT of one row always has its key
        new_id = key[0]
    session = get_session(engine, int(new_id))
    assert session is not None
    return session


def _from_row(row: Any) -> Session:
    mv = json.loads(row.movement)
    movement = tuple(tuple(Seating(**s) for s in rnd) for rnd in mv["rounds"])
    return Session(row.id, row.tournament, row.name, row.tables, row.rounds, row.boards_per_round,
                   mv["kind"], movement, row.laws, row.scoring,
                   {int(k): v for k, v in json.loads(row.deals).items()}, row.opened_at,
                   row.opened_by, row.closed_at, mv.get("entry", "cards"), mv.get("clock_minutes"))


ENTRY_MODES = ("quick", "cards")


def get_session(engine: Engine, session_id: int) -> Session | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(live_sessions).where(live_sessions.c.id == session_id)).first()
    return _from_row(row) if row else None


def find_session(engine: Engine, ref: str) -> Session:
    """A session by ``TOURNAMENT/NAME`` or by id."""
    with engine.connect() as conn:
        if ref.isdigit():
            row = conn.execute(sa.select(live_sessions).where(live_sessions.c.id == int(ref))).first()
        elif "/" in ref:
            tournament, name = ref.split("/", 1)
            row = conn.execute(sa.select(live_sessions).where(
                live_sessions.c.tournament == tournament, live_sessions.c.name == name)).first()
        else:
            row = None
    if row is None:
        raise BadInput("no such session (give TOURNAMENT/NAME or its id)", field="SESSION", value=ref)
    return _from_row(row)


def list_sessions(engine: Engine, *, open_only: bool = False) -> list[Session]:
    query = sa.select(live_sessions).order_by(live_sessions.c.id)
    if open_only:
        query = query.where(live_sessions.c.closed_at.is_(None))
    with engine.connect() as conn:
        return [_from_row(r) for r in conn.execute(query).all()]


def close_session(engine: Engine, session: Session) -> None:
    if session.closed_at is not None:
        raise BadInput("the session is already closed", field="SESSION",
                       value=f"{session.tournament}/{session.name}")
    with engine.begin() as conn:
        conn.execute(live_sessions.update().where(live_sessions.c.id == session.id)
                     .values(closed_at=stamp()))


def board_opened_fact(session: Session, table: int, board: int, seating: Seating) -> dict[str, Any]:
    """The ``BoardOpened`` a table terminal appends when it starts a board."""
    fact = {
        "type": "BoardOpened", "tournament": session.tournament, "board": board,
        "table": str(session.match_table(table)), "deal": session.deals[board], "laws": session.laws,
        "scoring": session.scoring, "ns": seating.ns, "ew": seating.ew,
        "id": f"open-{session.id}-t{table}-b{board}",
    }
    if session.rooms:
        fact["match"] = session.match_of(table)
        fact["room"] = session.room_of(table)
    return board_in_session(fact, session.name)  # the board belongs to its session (EXTENSIONS)


assert len(SEATS) == 4


def table_cards_html(session: Session, urls: dict[int, str]) -> str:
    """Printable table cards: per table its URL and QR code (segno, SVG), and the movement of
    the pairs that start there (round, table, direction, boards); one page a table."""
    from html import escape

    import segno

    pages = []
    for table in range(1, session.tables + 1):
        url = urls[table]
        qr = segno.make(url, error="m").svg_inline(scale=5)
        first = session.movement[0][table - 1]
        routes = []
        for pair, side in ((first.ns, "North-South"), (first.ew, "East-West")):
            rows = []
            for rnd, seatings in enumerate(session.movement, start=1):
                for s in seatings:
                    if pair in (s.ns, s.ew):
                        boards = session.boards_of_set(s.set)
                        rows.append(f"<tr><td>{rnd}</td><td>{escape(session.table_label(s.table))}</td>"
                                    f"<td>{'North-South' if pair == s.ns else 'East-West'}</td>"
                                    f"<td>{boards[0]}–{boards[-1]}</td></tr>")
            routes.append(f"<h3>Pair {escape(str(pair))} (starts {side})</h3><table><tr><th>Round</th>"
                          f"<th>Table</th><th>Sits</th><th>Boards</th></tr>{''.join(rows)}</table>")
        pages.append(f"<section class='table-card'><h1>{escape(session.tournament)}/{escape(session.name)}: "
                     f"{escape(session.table_label(table))}</h1><p>Scan the code, or open:</p>"
                     f"<p class='url'>{escape(url)}</p>{qr}{''.join(routes)}</section>")
    style = ("body{font:14px sans-serif} .table-card{page-break-after:always;margin:1cm}"
             " table{border-collapse:collapse} td,th{border:1px solid #999;padding:2px 6px} .url{font-family:monospace}")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Table cards</title>"
            f"<style>{style}</style></head><body>{''.join(pages)}</body></html>")
