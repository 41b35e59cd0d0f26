"""PBN 2.1, the text layer: tokens, games and records (tag inheritance applied).

:func:`read_games` splits a file's text into :class:`PbnRecord` objects (tags,
section data, notes, commentary) without reading what the tags mean; that is
:mod:`ledger.records.formats.pbn_notation`.  :func:`ledger.records.formats.pbn.read_pbn` is
the public reader built on both.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Literal, NamedTuple

import attrs

from ledger.errors import BadInput

#: Tags on which PBN 2.1 (4.8) forbids "#" and "##".
NO_INHERITANCE = frozenset(
    {"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"})


class PbnError(BadInput):
    """A PBN record that cannot be read.

    ``record`` is the 1-based number of the game in the file, ``line`` the
    1-based line at fault (where known), ``reason`` what is wrong.
    """

    def __init__(self, reason: str, *, record: int | None = None, line: int | None = None,
                 field: str | None = None, value: object = None) -> None:
        self.reason = reason
        self.record = record
        self.line = line
        self.field = field
        self.value = value
        self.event_type = None
        Exception.__init__(self, self._render())

    def _render(self) -> str:
        where = []
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def at_line(self, line: int) -> PbnError:
        if self.line is not None:
            return self
        return PbnError(self.reason, record=self.record, line=line, field=self.field,
                        value=self.value)

    def __reduce__(self) -> tuple[Callable[..., PbnError], tuple[Any, ...]]:  # picklable although __init__ takes keywords
        return (_rebuild_error, (self.reason, self.record, self.line, self.field, self.value))


def _rebuild_error(reason: str, record: int | None, line: int | None, field: str | None,
                   value: object) -> PbnError:
    return PbnError(reason, record=record, line=line, field=field, value=value)


@attrs.frozen
class PbnNote:
    """A ``[Note "n:text"]`` tag; ``section`` is the tag it follows (``Auction``, ``Play``)."""

    section: str
    number: int
    text: str
    line: int


@attrs.frozen
class PbnRecord:
    """One game of a PBN file, tag values resolved (``#`` inheritance applied)."""

    number: int
    line: int
    tags: dict[str, str]
    sections: dict[str, list[str]]
    commentary: list[str]
    notes: list[PbnNote] = attrs.field(factory=list)
    tag_lines: dict[str, int] = attrs.field(factory=dict)
    inherited: tuple[str, ...] = ()
    """Tags this record left out and took from the previous record of the same board
    (:data:`BOARD_TAGS`)."""
    readings: dict[Any, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """What :mod:`ledger.records.formats.pbn_notation` has read of the record (a cache: the
    record's tags and sections never change)."""

    def line_of(self, tag: str) -> int:
        """The line of ``tag`` in the file (the record's first line if absent)."""
        return self.tag_lines.get(tag, self.line)

    def error(self, reason: str, tag: str | None = None, value: object = None) -> PbnError:
        line = self.line_of(tag) if tag else self.line
        return PbnError(reason, record=self.number, line=line, field=tag, value=value)



# ---------------------------------------------------------------------------
# Reading the text: tokens, games, records

class _Token(NamedTuple):
    kind: Literal["tag", "data", "comment"]
    value: Any
    line: int


_ESCAPE = re.compile(r'\\(["\\])')
#: One step of the scanner outside commentary: white space, or a token (a ``;``
#: comment, a ``{``, a tag pair, a string, a bare token); the group that matched says
#: which.  A ``[`` or ``"`` that does not start a whole tag pair or string, and a stray
#: ``]`` or ``}``, match nothing (the scanner reports them).
_LEX = re.compile(r'\s+|;(?P<comment>.*)|(?P<brace>\{)'
                  r'|\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<tag>(?:[^"\\]|\\.)*)"\s*\]'
                  r'|"(?P<string>(?:[^"\\]|\\.)*)"|(?P<bare>[^\s\[\]{};"]+)')


def _unescape(value: str) -> str:
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


@attrs.define
class _RawGame:
    tokens: list[_Token] = attrs.field(factory=list)
    error: PbnError | None = None

    @property
    def has_tag(self) -> bool:
        return any(t.kind == "tag" for t in self.tokens)

    @property
    def first_line(self) -> int:
        for t in self.tokens:
            if t.kind == "tag":
                return t.line
        return self.tokens[0].line if self.tokens else 0


def scan_games(text: str) -> Iterator[_RawGame]:
    """Split the text into games of tokens (tags, data, commentary).

    A game is yielded at the empty line after it once it holds a tag (or an
    error); what comes before its first tag stays with it.  A tag pair written over
    several lines (``[Event`` then ``"Name"]``, PBN 2.1 3.2: tokens are separated by
    white space, a line end included) is read as one.
    """
    return _scan_lines(_join_tag_lines(text.lstrip("\ufeff").splitlines()), 0)


_TAG_START = re.compile(r"\s*\[\s*[A-Za-z0-9_]*")
_TAG_PAIR = re.compile(r'\[\s*[A-Za-z0-9_]+\s*"(?:[^"\\]|\\.)*"\s*\]', re.S)
#: Lines a tag pair may span.
TAG_LINES = 8


def _join_tag_lines(lines: list[str]) -> list[str]:
    """Each tag pair begun on a line and closed on a later one, joined on its first line
    (the line ends read as spaces); the lines it took become ``%`` lines (skipped), so
    that every other line keeps its number."""
    out = list(lines)
    j = 0
    while j < len(out):
        line = out[j]
        start = line.find("[")
        if start < 0 or not _TAG_START.match(line, start) or line.startswith("%") \
                or _TAG_PAIR.match(line, start) or "]" in line[start:]:
            j += 1
            continue
        joined = line
        for k in range(j + 1, min(j + TAG_LINES, len(out))):
            if not out[k].strip():
                break
            joined += " " + out[k].strip()
            if _TAG_PAIR.match(joined, start):
                out[j] = joined
                for m in range(j + 1, k + 1):
                    out[m] = "%"
                j = k
                break
        j += 1
    return out


@attrs.define
class _Scan:
    """Where the scanner stands: the game being read, and the commentary open in ``{ }``."""

    game: _RawGame = attrs.field(factory=_RawGame)
    brace: list[str] | None = None
    """The lines of the commentary being read, if inside ``{ }``."""
    brace_line: int = 0


def _ends_game(game: _RawGame) -> bool:
    """An empty line ends a game once it holds a tag or an error."""
    return game.has_tag or game.error is not None


def _scan_lines(lines: list[str], start: int) -> Iterator[_RawGame]:
    scan = _Scan()
    for lineno in range(start + 1, len(lines) + 1):
        raw = lines[lineno - 1]
        if scan.brace is None:
            if raw.startswith("%"):
                continue
            if not raw.strip():
                if _ends_game(scan.game):
                    yield scan.game
                    scan.game = _RawGame()
                continue
        elif not raw:
            scan.brace.append("")
        _scan_line(scan, raw, lineno)
    if scan.brace is not None:
        # Unclosed commentary: this game is lost; read on after the first empty
        # line that follows the '{', so that the later games are still read.
        if scan.game.error is None:
            scan.game.error = PbnError("commentary opened with '{' is never closed",
                                       line=scan.brace_line)
        yield scan.game
        resume = next((i for i in range(scan.brace_line, len(lines)) if not lines[i].strip()),
                      None)
        if resume is not None:
            yield from _scan_lines(lines, resume + 1)
        return
    if _ends_game(scan.game):
        yield scan.game


def _scan_line(scan: _Scan, raw: str, lineno: int) -> None:
    """The tokens of one line, the commentary open in ``{ }`` read on first."""
    i = 0
    while i < len(raw):
        if scan.brace is not None:
            i = _scan_commentary(scan, raw, i)
        else:
            i = _scan_token(scan, raw, i, lineno)


def _scan_commentary(scan: _Scan, raw: str, i: int) -> int:
    """Commentary in ``{ }`` from ``raw[i]``: where reading goes on (the line's end if the
    ``}`` is not on it)."""
    assert scan.brace is not None
    end = raw.find("}", i)
    if end < 0:
        scan.brace.append(raw[i:])
        return len(raw)
    scan.brace.append(raw[i:end])
    scan.game.tokens.append(_Token("comment", "\n".join(scan.brace).strip(), scan.brace_line))
    scan.brace = None
    return end + 1


def _scan_token(scan: _Scan, raw: str, i: int, lineno: int) -> int:
    """One step of :data:`_LEX` from ``raw[i]``: where reading goes on (the line's end after
    a ``;`` comment or what cannot be read as a tag pair or a string)."""
    m = _LEX.match(raw, i)
    if m is None:
        return _scan_unreadable(scan, raw, i, lineno)
    kind = m.lastgroup
    if kind is None:
        return m.end()  # white space
    if kind == "brace":
        scan.brace, scan.brace_line = [], lineno
        return m.end()
    scan.game.tokens.append(_TOKEN_OF[kind](m, lineno))
    return len(raw) if kind == "comment" else m.end()


def _scan_unreadable(scan: _Scan, raw: str, i: int, lineno: int) -> int:
    """``raw[i]`` starts no token: the game's first error; a ``[`` or ``"`` loses the rest
    of the line, a stray ``]`` or ``}`` only itself."""
    ch = raw[i]
    if scan.game.error is None:
        scan.game.error = PbnError(
            f"cannot read the tag pair {raw[i:].strip()!r}" if ch == "[" else
            "unterminated string" if ch == '"' else f"unexpected {ch!r}", line=lineno)
    return len(raw) if ch in '["' else i + 1


#: The token each group of :data:`_LEX` reads (white space and ``{`` make none).
_TOKEN_OF: dict[str, Callable[[re.Match[str], int], _Token]] = {
    "bare": lambda m, line: _Token("data", m.group("bare"), line),
    "tag": lambda m, line: _Token("tag", (m.group("name"), _unescape(m.group("tag"))), line),
    "string": lambda m, line: _Token("data", _unescape(m.group("string")), line),
    "comment": lambda m, line: _Token("comment", m.group("comment").strip(), line),
}


_NOTE = re.compile(r"\s*(\d+)\s*:(.*)", re.S)


def build_record(number: int, game: _RawGame, previous: dict[str, str],
                  sticky: dict[str, str], previous_sections: dict[str, list[str]]) -> PbnRecord:
    """One game's tokens -> a record, with tag inheritance resolved.

    Commentary before the game's first tag (after the previous game) is the
    game's own, as is anything else up to the empty line that ends it.
    """
    if game.error is not None:
        raise PbnError(game.error.reason, record=number, line=game.error.line)
    reading = _GameReading(number)
    for tok in game.tokens:
        _TOKEN_READERS[tok.kind](reading, tok)
    tags, sections = reading.tags, reading.sections
    _resolve_inheritance(number, tags, reading.tag_lines, sections, previous, sticky,
                         previous_sections)
    inherited = _inherit_board_tags(tags, previous)
    return PbnRecord(number=number, line=game.first_line, tags=tags, sections=sections,
                     commentary=reading.commentary, notes=reading.notes,
                     tag_lines=reading.tag_lines, inherited=inherited)


@attrs.define
class _GameReading:
    """What a game's tokens have given so far (each kind's reader in :data:`_TOKEN_READERS`)."""

    number: int
    tags: dict[str, str] = attrs.field(factory=dict)
    tag_lines: dict[str, int] = attrs.field(factory=dict)
    sections: dict[str, list[str]] = attrs.field(factory=dict)
    notes: list[PbnNote] = attrs.field(factory=list)
    commentary: list[str] = attrs.field(factory=list)
    current: str | None = None
    """The last tag read (section data and notes belong to it)."""


def _read_comment(reading: _GameReading, tok: _Token) -> None:
    reading.commentary.append(tok.value)


def _read_tag(reading: _GameReading, tok: _Token) -> None:
    name, value = tok.value
    if name == "Note":
        _read_note(reading, tok)
        return
    if name in reading.tags:
        raise PbnError(f"tag {name} appears twice in the game", record=reading.number,
                       line=tok.line, field=name, value=value)
    reading.tags[name], reading.tag_lines[name], reading.current = value, tok.line, name
    if name in ("Auction", "Play"):
        reading.sections[name] = []


def _read_note(reading: _GameReading, tok: _Token) -> None:
    value = tok.value[1]
    m = _NOTE.fullmatch(value)
    if m is None:
        raise PbnError(f'a Note must read "n:text", got {value!r}', record=reading.number,
                       line=tok.line, field="Note", value=value)
    reading.notes.append(PbnNote(reading.current or "", int(m.group(1)), m.group(2).strip(),
                                 tok.line))


def _read_data(reading: _GameReading, tok: _Token) -> None:
    if reading.current is None:
        raise PbnError(f"section data {tok.value!r} before any tag", record=reading.number,
                       line=tok.line)
    reading.sections.setdefault(reading.current, []).append(tok.value)


#: The reader of each kind of token.
_TOKEN_READERS: dict[str, Callable[[_GameReading, _Token], None]] = {
    "comment": _read_comment, "tag": _read_tag, "data": _read_data}


def _resolve_inheritance(number: int, tags: dict[str, str], tag_lines: dict[str, int],
                         sections: dict[str, list[str]], previous: dict[str, str],
                         sticky: dict[str, str],
                         previous_sections: dict[str, list[str]]) -> None:
    """PBN 2.1 (4.8) in place: ``#`` takes the previous record's value (and section),
    ``##`` sets a value every later record takes unless it gives its own."""
    for name, value in list(tags.items()):
        if value.startswith("#") and name in NO_INHERITANCE:
            raise PbnError(f'tag {name} may not inherit with "#"', record=number,
                           line=tag_lines[name], field=name, value=value)
        if value == "#":
            tags[name] = previous.get(name, "")
            if name not in sections and name in previous_sections:
                sections[name] = list(previous_sections[name])
        elif value.startswith("##"):
            tags[name] = sticky[name] = value[2:]
        elif name in sticky:
            sticky[name] = value
    for name, value in sticky.items():
        tags.setdefault(name, value)


#: The tags of the board itself, which some archives leave out on the board's second
#: table, relying on the record before (PBN 2.1 asks for "#" there).
BOARD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")


#: Tags that make a record a game of its own (a table's, a board's or a traveller's); a
#: record with none of them (only ``Scoring``, ``Vulnerable``, ``Event``...) is attached to
#: nothing: PBN 2.1 (4.8) inherits a tag only with ``#`` or ``##``.
GAME_TAGS = frozenset({"Board", "Deal", "Auction", "Play", "Contract", "Declarer", "Result",
                       "Score", "ScoreIMP", "ScoreTable", "TotalScoreTable"})


def tag_only(record: "PbnRecord") -> bool:
    """The record holds no tag of :data:`GAME_TAGS`: it describes no game."""
    return not any(t in record.tag_lines for t in GAME_TAGS)


def _inherit_board_tags(tags: dict[str, str], previous: dict[str, str]) -> tuple[str, ...]:
    """Fill the :data:`BOARD_TAGS` a record leaves out from the previous record when it is
    the same board: the same Board tag, or no Board tag and no other Deal.  Returns the
    tags taken (in place).  A record with nothing to inherit is left as it is (and
    refused later for the missing tag); a record with no game tag at all
    (:data:`GAME_TAGS`) takes nothing: it is no table of the board before."""
    missing = [t for t in BOARD_TAGS if t not in tags]
    if not missing or not previous or not any(t in tags for t in GAME_TAGS):
        return ()
    board, deal = tags.get("Board"), tags.get("Deal")
    same = (board.strip() == previous.get("Board", "").strip()) if board is not None else (
        deal is None or deal.strip() == previous.get("Deal", "").strip())
    if not same:
        return ()
    taken = tuple(t for t in missing if previous.get(t, "").strip() not in ("", "?"))
    for t in taken:
        tags[t] = previous[t]
    return taken

