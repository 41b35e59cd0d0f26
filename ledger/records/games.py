"""Game records in and out of the ledger (``cli.py import`` / ``export`` / ``results``).

Import: a PBN or LIN file -> records (:mod:`ledger.records.formats.pbn`,
:mod:`ledger.records.formats.lin`) -> one stream per record, appended through the
ordinary append path (:meth:`ledger.service.Ledger.append`: roles, checks,
hash chain, ruling engine), one atomic batch per record.  A record that
cannot be read, or that the ledger refuses, is reported as ``record N, line
L: reason`` and the others still import.  Every fact carries an id
(``pbn-001``...), so importing the same file again is a retry that writes
nothing; a stream that already holds other content is refused and reported.

Stream ids: ``<tournament slug>/t<table>/b<board>`` (``-r<record>`` is added
when two records of a file would share one).  The tournament's real name is
kept in ``BoardOpened.tournament``.

Export: the streams of a tournament (or one stream) as PBN 2.1
(:mod:`ledger.records.formats.pbn_export`) or as the JSON Lines log.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import attrs

from ledger import events as ev
from ledger.errors import BadInput, LedgerError, NotAllowed
from ledger.records.formats import lin as lin_format
from ledger.records.formats import pbn as pbn_format
from ledger.records.formats import pbn_notation, pbn_scan, pbn_tables
from ledger.service import Ledger, check_stream_id, fold_events
from ledger.store.base import StoredEvent
from ledger.laws.results import board_result
from projections.state import TableState

FORMATS = ("pbn", "lin", "bws", "usebio")
_SUFFIXES = {".pbn": "pbn", ".lin": "lin", ".bws": "bws", ".xml": "usebio"}  # usebio: ledger/records/formats/usebio.py


@attrs.frozen
class GameRecord:
    """One record of a file, read and turned into facts."""

    number: int
    line: int
    board: int
    table: str
    facts: list[dict[str, Any]]
    stated: dict[str, Any] | None = None
    """What the record itself says of its result: ``contract``, ``declarer``,
    ``risk``, ``tricks``, ``score_ns`` (PBN Score), ``imp_ns`` (PBN ScoreIMP)."""
    repaired: str | None = None
    """How the record was read to agree with its own tags (the auction's start
    shifted), when it was."""
    inherited: tuple[str, ...] = ()
    """Tags the record left out and took from the previous record of the board."""
    traveller: dict[str, float] | None = None
    """A ``ScoreTable`` row: the file's matchpoints, percentages and IMPs (``mp_ns``...)."""
    imp_ns: float | None = None
    """The record's ``ScoreIMP`` from North-South's side (compared after the import with
    the ledger's IMPs between the rooms of the match)."""
    notes: tuple[str, ...] = ()
    """What the reader has to say of a record it still imports (a ScoreIMP it cannot read)."""
    where: str | None = None
    """Where the record is when it has no line (a Bridgemate row: section, table, round, board)."""
    decimals: dict[str, int] | None = None
    """The decimals of each ``traveller`` figure as the file writes it (compared at that
    precision)."""


@attrs.frozen
class RecordProblem:
    """A record that was not imported, and why (``kind``: the summary's reason)."""

    number: int | None
    line: int | None
    reason: str
    kind: str = "unreadable"
    where: str | None = None
    """A Bridgemate row's table, round and board (instead of the record and line)."""

    def __str__(self) -> str:
        if self.where is not None:
            return f"{self.where}: {self.reason}"
        where = [f"record {self.number}" if self.number is not None else None,
                 f"line {self.line}" if self.line is not None else None]
        prefix = ", ".join(w for w in where if w)
        return f"{prefix}: {self.reason}" if prefix else self.reason


@attrs.frozen
class ImportedRecord:
    number: int
    stream: str
    events: int
    """Events written (facts and the engine's); 0 when the record was already stored."""
    retried: bool = False


#: Summary reasons (``RecordProblem.kind``) of a record not imported.
UNREADABLE = "unreadable"          # the reader could not read it (names the tag and value)
REFUSED = "refused by the ledger"  # the append path refused a fact
DIFFERS = "result differs"         # folded, it does not give the result the record states
OTHER_CONTENT = "stream holds other content"
TAG_ONLY = "attached to nothing"   # a record of tags only (Scoring...): no game; a note


@attrs.define
class ImportReport:
    format: str
    tournament: str
    records: int = 0
    imported: list[ImportedRecord] = attrs.field(factory=list)
    failed: list[RecordProblem] = attrs.field(factory=list)
    charset: str | None = None
    """The character set the file was read in (PBN ``%`` charset line, else UTF-8, else cp1252)."""
    agreed: int = 0
    """Records whose folded result is the one they state."""
    unstated: int = 0
    """Records that state no result to compare with (an unplayed board, an unfinished play)."""
    repaired: list[tuple[int, str]] = attrs.field(factory=list)
    """(record, how it was read): imported with the auction's start shifted to agree."""
    inherited: list[tuple[int, tuple[str, ...]]] = attrs.field(factory=list)
    """(record, tags) taken from the previous record of the same board."""
    unfinished: list[int] = attrs.field(factory=list)
    """Records imported with calls or cards but no result (the play stops, no claim)."""
    warnings: list[RecordProblem] = attrs.field(factory=list)
    """Imported records with something to say (an LIN ``rs`` the play does not reach...)."""
    checks: list[str] = attrs.field(factory=list)
    """Comparisons of the ledger's results with the file's own tables (ScoreTable...)."""
    check_mismatches: int = 0
    """Rows of those tables (and ScoreIMP tags) whose figures differ from the ledger's."""
    tables_checked: bool = False
    """ScoreTable rows or a TotalScoreTable were compared."""
    imp_rows: int = 0
    """Records whose ScoreIMP was compared with the ledger's IMPs (or could not be)."""
    imp_mismatches: int = 0
    """Of ``check_mismatches``: the ScoreIMP tags that differ from the ledger's IMPs."""
    lead_checks: int = 0
    """Reported leads (traveller rows, Bridgemate rows) that the opening leader does not
    hold (each a ``checks`` line naming the card and its holder)."""
    players: dict[str, list[str]] = attrs.field(factory=dict)
    """A Bridgemate session: pair id (``BoardOpened.ns``/``ew``) -> its players as logged."""
    not_played: list[str] = attrs.field(factory=list)
    """A Bridgemate session: the tables' boards a row says were not played."""

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def events(self) -> int:
        return sum(r.events for r in self.imported)

    def refused_by_reason(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for p in self.failed:
            counts[p.kind] = counts.get(p.kind, 0) + 1
        return counts

    def summary(self) -> str:
        """One line: records imported of those read, agreeing, repaired, refused by reason."""
        retried = sum(r.retried for r in self.imported)
        parts = [f"{self.tournament}: {len(self.imported)} of {self.records} record(s) imported "
                 f"({self.events} events" + (f"; {retried} already stored" if retried else "")
                 + ")",
                 f"{self.agreed} agree with their stated result",
                 f"{len(self.repaired)} repaired"]
        if self.unstated:
            parts.append(f"{self.unstated} state no result")
        if self.unfinished:
            parts.append(f"{len(self.unfinished)} unfinished")
        refused = self.refused_by_reason()
        parts.append(f"{len(self.failed)} refused"
                     + (" (" + ", ".join(f"{n} {k}" for k, n in sorted(refused.items())) + ")"
                        if refused else ""))
        if self.inherited:
            parts.append(f"{len(self.inherited)} took Board/Dealer/Vulnerable/Deal from the "
                         "record before")
        if self.tables_checked:
            parts.append(f"{self.check_mismatches - self.imp_mismatches} traveller or ranking "
                         "figure(s) differ")
        if self.imp_rows:
            parts.append(f"{self.imp_mismatches} ScoreIMP figure(s) differ")
        if self.lead_checks:
            parts.append(f"{self.lead_checks} reported lead(s) not held by the opening leader")
        if self.not_played:
            parts.append(f"{len(self.not_played)} table board(s) not played")
        if self.charset:
            parts.append(f"read as {self.charset}")
        return "; ".join(parts)


# ---------------------------------------------------------------------------
# Names

from ledger.slugs import slugify  # noqa: E402  (here since issue 28: the store's board index uses it too)


def detect_format(path: str, given: str | None = None) -> str:
    if given is not None:
        if given not in FORMATS:
            raise BadInput(f"unknown format (expected {' or '.join(FORMATS)})", field="--format",
                           value=given)
        return given
    fmt = _SUFFIXES.get(Path(path).suffix.lower())
    if fmt is None:
        raise BadInput("cannot tell the format from the file name; give --format pbn or lin",
                       field="--format", value=None)
    return fmt


def _file_tournament(fmt: str, text: str) -> str | None:
    if fmt == "pbn":
        m = re.search(r'^\s*\[Event\s+"((?:[^"\\]|\\.)*)"\s*\]', text, re.M)
        value = m.group(1).strip() if m else ""
        return value if value and value not in ("?", "#") else None
    m = re.search(r"(?i)\bvg\|([^|]*)\|", text)
    if m:
        fields = [f.strip() for f in m.group(1).split(",")]
        return ", ".join(f for f in fields[:2] if f) or None
    return None


# ---------------------------------------------------------------------------
# Reading

def _pbn_stated(record: pbn_format.PbnRecord, imp_ns: float | None) -> dict[str, Any] | None:
    result = pbn_format.record_result(record)
    if result is None:
        return None
    stated = dict(result)
    if pbn_format.declarer_marked(record):
        # [Declarer "^S"]: S played the hand after 54A; the side is what the fold and the
        # tag share, so the seat is left out of the comparison.
        stated["declarer"] = None
    stated["imp_ns"] = imp_ns
    return stated


def _pbn_imp(record: pbn_format.PbnRecord) -> tuple[float | None, tuple[str, ...]]:
    """The record's ScoreIMP (NS side), or a note saying why it is not read: a figure
    derived from the other room, it does not refuse the record."""
    try:
        return pbn_format.score_imp_ns(record), ()
    except pbn_format.PbnError as exc:
        return None, (f"ScoreIMP not compared: {exc.reason}",)


def _with_match(record: pbn_format.PbnRecord, opened: dict[str, Any]) -> dict[str, Any]:
    """Teams: the two rooms of a match hold the same two teams (HomeTeam, VisitTeam) in
    opposite directions; ``match`` names the pair of teams so that the results
    projection can set the rooms side by side.  PBN has no tag for it."""
    if opened.get("scoring") != "IMP" or "match" in opened:
        return opened
    teams = [record.tags.get(t, "").strip() for t in ("HomeTeam", "VisitTeam")]
    if not all(teams) or "?" in teams:
        return opened
    return {**opened, "match": " v ".join(sorted(teams))}


def parse_tables(spec: str) -> list[str]:
    """``"1-6,8"`` -> ``["1", ..., "6", "8"]`` (the tables that play a session's boards)."""
    tables: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
        if m and int(m.group(1)) <= int(m.group(2)):
            tables += [str(n) for n in range(int(m.group(1)), int(m.group(2)) + 1)]
        elif part.isdigit():
            tables.append(str(int(part)))
        else:
            raise BadInput("tables are numbers and ranges, like 1-6,8", field="--tables",
                           value=spec)
    if not tables or len(set(tables)) != len(tables):
        raise BadInput("tables are numbers and ranges, each table once, like 1-6,8",
                       field="--tables", value=spec)
    return tables


#: Tags of a record that say what happened at a table (a hand record has none).
PLAYED_TAGS = ("Auction", "Play", "Contract", "Result", "Declarer", "Score", "ScoreTable")


def _hand_records(records: list[GameRecord], pbn_records: Sequence[pbn_format.PbnRecord],
                  tables: Sequence[str]) -> list[GameRecord]:
    """A hand-record file (deals only): each board's deal to every table of ``tables``."""
    for record in pbn_records:
        played = next((t for t in PLAYED_TAGS if record.tags.get(t, "").strip() not in ("", "?")
                       or record.sections.get(t)), None)
        if played is not None:
            raise BadInput(f"--tables gives a hand record's deals to the session's tables; "
                           f"record {record.number} is a table's record (it has {played})",
                           field="--tables", value=",".join(tables), line=record.line)
    out = []
    for game in records:
        for table in tables:
            opened = {**game.facts[0], "table": table}
            out.append(attrs.evolve(game, table=table, facts=[opened]))
    return out


def read_records(text: str, fmt: str, tournament: str, *,
                 totals: list[dict[str, str]] | None = None,
                 tables: Sequence[str] | None = None
                 ) -> tuple[list[GameRecord], list[RecordProblem]]:
    """Every record of the file as facts; and the records that could not be read.

    PBN: a record whose calls end in another contract or declarer than its own
    Contract and Declarer tags is read with the auction's start shifted when
    one shift makes them agree (``GameRecord.repaired`` says how), and refused
    otherwise.
    """
    if fmt == "pbn":
        return _read_pbn_records(text, tournament, totals if totals is not None else [], tables)
    if tables is not None:
        raise BadInput("--tables is read for PBN hand records only", field="--tables",
                       value=",".join(tables))
    records: list[GameRecord] = []
    lin_records, errors = lin_format.read_lin(text, collect_errors=True)
    problems = [RecordProblem(e.record, e.line, e.reason) for e in errors]
    for record in lin_records:
        try:
            facts = lin_format.record_to_facts(record, tournament)
        except pbn_format.PbnError as exc:
            problems.append(RecordProblem(exc.record, exc.line, exc.reason))
            continue
        stated = lin_format.lin_result(record.result) if record.result else None
        opened = facts[0]
        records.append(GameRecord(record.number, record.line, opened["board"], opened["table"],
                                  facts, stated))
    problems.sort(key=lambda p: (p.number or 0, p.line or 0))
    return records, problems


def _has_score(record: pbn_format.PbnRecord) -> bool:
    return record.tags.get("Score", "").strip() not in ("", "?")


def _played(record: pbn_format.PbnRecord) -> bool:
    """The record states a played contract (a Contract other than Pass, and a Result)."""
    contract = record.tags.get("Contract", "").strip().upper()
    return contract not in ("", "?", "PASS", "P") and \
        record.tags.get("Result", "").strip() not in ("", "?")


def _passes_out_without_score(records: Sequence[pbn_format.PbnRecord]) -> set[str]:
    """Boards on which a ``Contract "Pass"`` with no Auction and no Score is a passed-out
    board: the file states a played result for the board at another table and writes
    no Score for any of the board's records (so a missing Score says nothing)."""
    played: set[str] = set()
    scored: set[str] = set()
    for r in records:
        board = r.tags.get("Board", "").strip()
        if _played(r):
            played.add(board)
        if _has_score(r):
            scored.add(board)
    return played - scored


def _describe(contract: Any) -> str:
    if contract is None:
        return "no contract"
    if contract == "Pass":
        return "a pass-out"
    level, strain, risk, declarer = contract
    return f"{level}{strain}{risk} by {declarer}"


def _read_pbn_records(text: str, tournament: str, totals: list[dict[str, str]],
                      tables: Sequence[str] | None = None
                      ) -> tuple[list[GameRecord], list[RecordProblem]]:
    records: list[GameRecord] = []
    pbn_records, errors = pbn_format.read_pbn(text, collect_errors=True)
    if tables is not None:
        found, problems = _read_pbn_records(text, tournament, totals)
        return _hand_records(found, pbn_records, tables), problems
    problems = [RecordProblem(e.record, e.line, e.reason) for e in errors]
    passes_out = _passes_out_without_score(pbn_records)
    for record in pbn_records:
        if pbn_scan.tag_only(record):
            tags = ", ".join(record.tag_lines) or "none"
            problems.append(RecordProblem(
                record.number, record.line,
                f"holds only the tag(s) {tags}: attached to no game (PBN 2.1 inherits a tag "
                "only with '#' or '##'); not imported", TAG_ONLY))
            continue
        try:
            totals.extend(pbn_tables.total_score_table(record) or [])
            if "ScoreTable" in record.tags:
                for row in pbn_tables.traveller_rows(record, tournament):
                    opened = row.facts[0]
                    records.append(GameRecord(record.number, record.line_of("ScoreTable"),
                                              opened["board"], row.table, row.facts,
                                              row.stated, None, record.inherited, row.scored,
                                              notes=row.notes, decimals=row.decimals))
                continue
            if "TotalScoreTable" in record.tags and not any(
                    t in record.tags for t in ("Auction", "Contract", "Play", "Result")):
                continue  # the ranking only: no table's record
        except pbn_format.PbnError as exc:
            problems.append(RecordProblem(exc.record, exc.line, exc.reason))
            continue
        try:
            shift = pbn_format.auction_shift(record)
            if shift is None:
                got = pbn_format.auction_contract(record)
                problems.append(RecordProblem(
                    record.number, record.line_of("Auction"),
                    f"the calls give {_describe(got)}, the record states "
                    f"{record.tags.get('Contract')} by {record.tags.get('Declarer')} "
                    "(Contract, Declarer), and no shift of the auction's start agrees", DIFFERS))
                continue
            facts = pbn_format.record_to_facts(
                record, tournament, shift=shift,
                scores_written=record.tags.get("Board", "").strip() not in passes_out)
        except pbn_format.PbnError as exc:
            problems.append(RecordProblem(exc.record, exc.line, exc.reason))
            continue
        repaired = None
        if shift:
            first = record.tags.get("Auction", "").strip().upper()
            start = pbn_format.next_seat(first, shift)
            passes = len(pbn_format.leading_passes(record, shift))
            repaired = (f"the calls are read from {start}, not from the Auction tag's {first} "
                        f"({passes} pass(es) from the dealer before them): the auction then "
                        f"gives {_describe(pbn_format.auction_contract(record, shift))}, as the "
                        "Contract and Declarer tags state")
        opened = _with_match(record, facts[0])
        facts[0] = opened
        imp_ns, notes = _pbn_imp(record)
        if pbn_notation.contract_redoubled_r(record):
            notes += (f"Contract {record.tags['Contract']!r}: 'R' read as redoubled (XX, as PBN "
                      "2.1 writes it)",)
        if pbn_notation.play_continues(record) and not pbn_format.is_complete_play(record):
            notes += ("Play holds '+' (the play continues beyond the record): the tricks not "
                      "written are logged as declarer's claim of the Result, agreed",)
        records.append(GameRecord(record.number, record.line, opened["board"], opened["table"],
                                  facts, _pbn_stated(record, imp_ns), repaired, record.inherited,
                                  imp_ns=imp_ns, notes=notes))
    problems.sort(key=lambda p: (p.number or 0, p.line or 0))
    return records, problems


# ---------------------------------------------------------------------------
# Character sets

_CHARSET = re.compile(rb"^%[^\n]*?charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.I | re.M)


def decode_text(data: bytes) -> tuple[str, str]:
    """The text of a file and the character set it was read in.

    A ``%`` line naming a charset (``%Content-type: text/x-pbn;
    charset=ISO-8859-1``, as BridgeComposer and Magic Contest write) decides;
    else UTF-8 (with or without a byte order mark), else cp1252 (the Windows
    superset of ISO-8859-1, PBN 2.1's default).  A declared charset the file
    does not decode in is bad input naming the charset and the byte.
    """
    m = _CHARSET.search(data)
    if m is not None:
        name = m.group(1).decode("ascii")
        try:
            codecs.lookup(name)
        except LookupError:
            raise BadInput("the file's % charset line names an unknown character set",
                           field="charset", value=name) from None
        try:
            return data.decode(name).lstrip("\ufeff"), name
        except UnicodeDecodeError as exc:
            raise BadInput(f"the file is not {name} text as its % charset line says: byte "
                           f"{data[exc.start]:#04x} at offset {exc.start}", field="charset",
                           value=name) from None
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252 (not UTF-8)"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1 (not UTF-8)"


# ---------------------------------------------------------------------------
# Comparing the folded result with the stated one

class ResultDiffers(BadInput):
    """The record's facts, folded, do not give the result the record states."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, field="result", value=None)


def _result_text(contract: str | None, risk: str | None, declarer: str | None,
                 tricks: int | None, score_ns: int | None) -> str:
    if contract is None:
        return "no result"
    if contract == "Pass":
        text = "passed out"
    else:
        text = f"{contract}{risk or ''} by {declarer}, {tricks} trick(s)"
    return text + (f", NS {score_ns:+d}" if score_ns is not None else "")


def compare_result(state: TableState, stated: dict[str, Any] | None) -> str:
    """How the folded result compares with the stated one: ``"agree"``, ``"unstated"``
    (nothing to compare), ``"unfinished"`` (calls or cards but no result, and the
    record states tricks the play does not reach); raises :class:`ResultDiffers`."""
    result = board_result(state)  # with the tricks the revokes transfer (64A)
    if stated is None:
        return "unfinished" if result is None and (state.auction or state.tricks) else "unstated"
    if result is None:
        if stated.get("contract") == "Pass" and stated.get("score_ns") is None \
                and not state.auction:
            return "agree"  # an unplayed board, as the record says
        if stated.get("tricks") is None:
            return "unfinished" if state.auction or state.tricks else "unstated"
        if state.auction or state.tricks:
            return "unfinished"
        raise ResultDiffers("the ledger has no result; the record states "
                            + _result_text(stated.get("contract"), stated.get("risk"),
                                           stated.get("declarer"), stated.get("tricks"),
                                           stated.get("score_ns")))
    got: dict[str, Any] = {"contract": result.contract, "risk": result.risk,
                           "declarer": str(result.declarer) if result.declarer else None,
                           "tricks": result.tricks, "score_ns": result.score_ns}
    differs = [key for key in ("contract", "risk", "declarer", "tricks", "score_ns")
               if stated.get(key) is not None and got[key] != stated[key]
               and not (key == "risk" and got["contract"] == "Pass")]
    if stated.get("contract") == "Pass" and result.contract == "Pass":
        differs = [k for k in differs if k == "score_ns"]
    if not differs:
        return "agree"
    raise ResultDiffers(
        f"folded, the record gives {_result_text(**got)}; it states "
        + _result_text(stated.get("contract"), stated.get("risk"), stated.get("declarer"),
                       stated.get("tricks"), stated.get("score_ns"))
        + f" ({', '.join(differs)} differ)")


def _table_part(table: str) -> str:
    """``t12`` for a table number, the name itself otherwise (``open``, ``closed``)."""
    part = slugify(table)
    return f"t{part}" if part[:1].isdigit() else part


def stream_ids(prefix: str, records: Sequence[GameRecord]) -> list[str]:
    """``<prefix>/t<table>/b<board>`` (``<prefix>/<room>/b<board>`` for a vugraph room)
    for each record, made unique with ``-r<number>``."""
    ids = [f"{prefix}/{_table_part(r.table)}/b{r.board}" for r in records]
    seen: dict[str, int] = {}
    for stream in ids:
        seen[stream] = seen.get(stream, 0) + 1
    return [f"{stream}-r{r.number}" if seen[stream] > 1 else stream
            for stream, r in zip(ids, records)]


def _with_ids(fmt: str, facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each fact with an id (a re-import is a retry) and the importer as actor."""
    out = []
    for i, fact in enumerate(facts, start=1):
        cls = ev.event_class(fact["type"])
        # a reported result (a traveller row) is the scorer's record, though a table may
        # also enter its own (live quick entry); a void on import is the director's
        role = (ev.TABLE if ev.TABLE in cls.ROLES and cls not in (ev.EntryVoided, ev.ResultReported)
                else ev.DIRECTOR)
        out.append({**fact, "id": fact.get("id") or f"{fmt}-{i:03d}",
                    "actor": {"role": role, "name": f"import:{fmt}"}})
    return out


#: Records appended in one store transaction (each record stays its own atomic append).
BATCH_RECORDS = 250


def import_data(ledger: Ledger, data: bytes, fmt: str, **options: Any) -> ImportReport:
    """:func:`import_text` of a file's bytes, decoded by :func:`decode_text`."""
    text, charset = decode_text(data)
    return import_text(ledger, text, fmt, charset=charset, **options)


def import_text(ledger: Ledger, text: str, fmt: str, *, tournament: str | None = None,
                default_name: str = "import",
                progress: Callable[[int, int], None] | None = None,
                charset: str | None = None,
                tables: Sequence[str] | None = None, jobs: int | None = 1) -> ImportReport:
    """Import the records of ``text`` (format ``fmt``): one stream and one atomic append per record.

    ``tournament`` defaults to the file's own name for the event (PBN
    ``Event``, LIN ``vg``), else ``default_name``.  ``progress(done, total)``
    is called after each record.  Each record's facts are folded and compared
    with the result the record states (:func:`compare_result`) before anything
    is written: a record that does not agree is refused with the reason.  The
    appends go :data:`BATCH_RECORDS` records to a store transaction
    (:meth:`Ledger.batch`).  ``tables``: a hand-record file (deals only) gives
    each board's deal to every one of these tables (:func:`parse_tables`). ``jobs``: worker
    processes preparing the appends (1: none; None: the cores for a large file); the result
    is the serial run's (:mod:`ledger.records.jobs`).
    """
    if fmt not in FORMATS:
        raise BadInput(f"unknown format (expected {' or '.join(FORMATS)})", field="format", value=fmt)
    if fmt == "bws":
        raise BadInput("a Bridgemate database is read from its file (import_bws), not as text",
                       field="format", value=fmt)
    name = tournament or _file_tournament(fmt, text) or default_name
    prefix = slugify(name)
    totals: list[dict[str, str]] = []
    records, problems = read_records(text, fmt, name, totals=totals, tables=tables)
    loose = [p for p in problems if p.kind == TAG_ONLY]
    problems = [p for p in problems if p.kind != TAG_ONLY]
    report = ImportReport(fmt, name, records=len(records) + len(problems), failed=list(problems),
                          charset=charset, warnings=loose)
    _append_records(ledger, fmt, prefix, records, report, progress, totals, jobs)
    return report


def _append_records(ledger: Ledger, fmt: str, prefix: str, records: Sequence[GameRecord],
                    report: ImportReport, progress: Callable[[int, int], None] | None,
                    totals: list[dict[str, str]], jobs: int | None = 1) -> None:
    """Each record one atomic append, :data:`BATCH_RECORDS` to a store transaction; then
    the file's own figures against the ledger's (:func:`_check_tables`). ``jobs`` > 1 (None:
    the cores, for a large file): the appends are prepared in worker processes
    (:mod:`ledger.records.jobs`), with the serial run's result."""
    from ledger.parallel import choose_jobs

    pairs = list(zip(records, stream_ids(prefix, records)))
    states: dict[str, TableState] = {}
    checked = bool(any(r.traveller for r in records) or totals
                   or any(r.imp_ns is not None for r in records))
    workers = choose_jobs(jobs, len(pairs))
    parallel = False
    if workers > 1 and len(pairs) > 1:
        from ledger.records.jobs import import_in_workers

        parallel = import_in_workers(ledger, fmt, pairs, report, states if checked else None,
                                     progress, workers, import_record)
    if not parallel:
        done = 0
        for start in range(0, len(pairs), BATCH_RECORDS):
            with ledger.batch(stream for _, stream in pairs[start:start + BATCH_RECORDS]):
                for record, stream in pairs[start:start + BATCH_RECORDS]:
                    import_record(ledger, fmt, record, stream, report, states)
                    done += 1
                    if progress is not None:
                        progress(done, len(records))
    report.failed.sort(key=lambda p: (p.number or 0, p.line or 0))
    if checked:
        _check_tables(ledger, report, records, totals, states)


def _lead_problem(record: GameRecord, state: TableState) -> str | None:
    """The words of a reported lead (the result in force) that the deal does not give to
    the opening leader, the declarer's left-hand opponent; None when he holds it."""
    from ledger.bridge import Card
    from ledger.records.formats.bws import lead_check

    voided = {f.get("about") for f in record.facts if f["type"] == "EntryVoided"}
    reported = [f for f in record.facts if f["type"] == "ResultReported" and f.get("id") not in voided]
    if not reported or not reported[-1].get("lead") or not reported[-1].get("declarer"):
        return None
    fact = reported[-1]
    holder = state.board.deal.holder(Card.parse(fact["lead"]))
    return lead_check((fact["lead"], fact["declarer"]), str(holder))


# ---------------------------------------------------------------------------
# Bridgemate sessions

def hand_record_beside(path: Path) -> Path | None:
    """The session's hand-record PBN beside the database: ``<name>-handrecord.pbn``,
    ``<name>.pbn`` (the first that exists)."""
    for candidate in (f"{path.stem}-handrecord.pbn", f"{path.stem}.pbn", f"{path.stem}.PBN"):
        found = path.with_name(candidate)
        if found.exists():
            return found
    return None


def hand_record_deals(path: Path, sections: Iterable[int]) -> dict[tuple[int, int], dict[str, Any]]:
    """(section, board) -> the deal, dealer and vulnerability of a hand-record PBN (the
    same boards in every section).  Bad input naming the record when one cannot be read."""
    text, _ = decode_text(path.read_bytes())
    records, errors = pbn_format.read_pbn(text, collect_errors=True)
    if errors:
        raise BadInput(f"the hand record {path.name} cannot be read: {errors[0]}", field="--hands",
                       value=path.name, line=errors[0].line)
    deals: dict[tuple[int, int], dict[str, Any]] = {}
    for record in records:
        board = record.tags.get("Board", "").strip()
        hands = pbn_format.deal_hands(record)
        if not board.isdigit() or hands is None:
            continue
        deal = {"deal": pbn_format.deal_string(hands)}
        dealer = pbn_format.seat_tag(record, "Dealer")
        vulnerability = pbn_format.record_vulnerability(record)
        if dealer is not None:
            deal["dealer"] = dealer
        if vulnerability is not None:
            deal["vulnerability"] = vulnerability
        for section in sections:
            deals[(section, int(board))] = deal
    return deals


def import_bws(ledger: Ledger, path: str | Path, *, tournament: str | None = None,
               hands: str | Path | None = None,
               progress: Callable[[int, int], None] | None = None,
               tables: dict[str, list[dict[str, Any]]] | None = None,
               jobs: int | None = 1) -> ImportReport:
    """Import a Bridgemate Control Software database (see :mod:`ledger.records.formats.bws`):
    one stream per table and board, one atomic append each, as for PBN and LIN.

    The deals are the hand-record PBN ``hands`` (default: the one beside the file,
    :func:`hand_record_beside`), else the database's ``HandRecord`` table; where both
    exist and a board's deal differs, the PBN's is used and the report says so.
    ``tables``: the database's rows already read (:func:`ledger.records.formats.bws.read_tables`),
    for a caller that changes them (the tests' fixtures of erased and unknown rows). ``jobs``:
    worker processes preparing the appends, as for :func:`import_text`."""
    from ledger.records.formats import bws

    path = Path(path)
    try:
        tables = tables if tables is not None else bws.read_tables(path)
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot read the Bridgemate database: {exc}", field="FILE",
                       value=path.name) from None
    if "ReceivedData" not in tables:
        raise BadInput("the database has no ReceivedData table (not a Bridgemate result file)",
                       field="FILE", value=path.name)
    sections = [int(r["ID"]) for r in tables.get("Section", []) if r.get("ID") is not None] or [1]
    stored = bws.deals_from_hand_record(tables)
    beside: Path | None
    if hands is not None:
        beside = Path(hands)
        if not beside.exists():
            raise BadInput("no such hand-record file", field="--hands", value=str(hands))
    else:
        beside = hand_record_beside(path)
    deals = hand_record_deals(beside, sections) if beside is not None else {}
    notes = []
    for key, deal in stored.items():
        if key not in deals:
            deals[key] = deal
        elif beside is not None and deals[key]["deal"] != deal["deal"]:  # deals is empty without a hand record
            notes.append(f"board {key[1]}: the hand record {beside.name} and the HandRecord "
                         "table give different deals; the hand record's is used")
    name = tournament or path.stem
    session = bws.session_records(tables, deals, name)
    records = [GameRecord(r.number, 0, r.board, r.table, r.facts, r.stated, notes=r.notes,
                          where=r.where) for r in session.records]
    problems = [RecordProblem(p.number, None, p.reason, UNREADABLE, p.where) for p in session.problems]
    report = ImportReport("bws", name, records=len(records) + len(problems), failed=problems,
                          players=session.pairs, not_played=session.not_played)
    report.charset = None
    report.warnings += [RecordProblem(None, None, n, "note") for n in notes]
    report.warnings += [RecordProblem(None, None, f"{where}: not played (the row has no contract)",
                                      "note") for where in session.not_played]
    _append_records(ledger, "bws", slugify(name), records, report, progress, [], jobs)
    return report


def _close(file_value: float, ledger_value: float | None, tolerance: float) -> bool:
    return ledger_value is not None and abs(file_value - ledger_value) <= tolerance


#: IMP figures agree within this (files write averages to two decimals).
IMP_TOLERANCE = 0.01


def _check_tables(ledger: Ledger, report: ImportReport, records: Sequence[GameRecord],
                  totals: list[dict[str, str]], states: dict[str, TableState]) -> None:
    """Compare the file's own scoring with the ledger's ``results`` of the tournament
    (the states the import folded, the tournament's other streams read back): each
    ``ScoreTable`` row (:func:`_check_travellers`), each ``ScoreIMP``
    (:func:`_check_score_imps`) and the ``TotalScoreTable`` (:func:`_check_totals`).
    Each difference is a line of ``report.checks`` (``report.check_mismatches``
    counts them)."""
    from projections.results import results

    doc = results(report.tournament, tournament_streams(ledger, report.tournament, known=states))
    imported = {r.number: r.stream for r in report.imported}
    _check_travellers(doc, report, records, imported)
    _check_score_imps(doc, report, records, imported)
    if totals:
        report.tables_checked = True
        by_readings = _pairs_imp_totals(doc) if doc.get("scoring") == "IMP" else {}
        _check_totals(doc, report, totals, by_readings)


def _pairs_imp_totals(doc: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Pairs scored in IMPs (Butler, cross-IMPs: the ledger's own ranking scores teams
    only): each pair's IMP total over its boards, for each reading of
    :func:`_imp_readings` (``{"cross": {"1": 23, ...}, "butler": {...}}``)."""
    totals: dict[str, dict[str, float]] = {}
    for board in doc["boards"]:
        for entry in board["results"]:
            if entry.get("imp_ns") is not None:
                continue
            for kind, value in _imp_readings(entry, board["results"]).items():
                per_pair = totals.setdefault(kind, {})
                for pair, signed in ((entry.get("ns"), value), (entry.get("ew"), -value)):
                    if pair:
                        per_pair[pair] = per_pair.get(pair, 0.0) + signed
    return totals


def _imp_readings(entry: dict[str, Any], board: list[dict[str, Any]]) -> dict[str, float]:
    """The ledger's IMP figures for a traveller row: its IMPs between rooms when it has
    them (teams), else every usual pairs reading of its score against the other tables'
    (:func:`ledger.scoring.pairs_imp_readings`: cross-IMPs, Butler)."""
    from ledger.scoring import pairs_imp_readings

    if entry.get("imp_ns") is not None:
        return {"rooms": entry["imp_ns"]}
    if entry.get("score_ns") is None or entry.get("adjusted"):
        return {}
    others = [e["score_ns"] for e in board if e is not entry and e.get("score_ns") is not None
              and not e.get("adjusted")]
    return pairs_imp_readings(entry["score_ns"], others)


def _check_travellers(doc: dict[str, Any], report: ImportReport, records: Sequence[GameRecord],
                      imported: dict[int, str]) -> None:
    """The ledger's matchpoints, percentages and IMPs against the file's ``ScoreTable`` rows.

    Every figure is compared at the precision the file writes it (``5.7`` agrees with
    anything from 5.65 to 5.75: :func:`_precision`).  Matchpoints agree when equal on the
    ledger's scale (2 per score beaten, 1 per tie) or on half of it (1 and 1/2), as
    scoring programs write either; East-West's percentage is East-West's own matchpoints
    over the top (an artificial row such as A+/A+ gives both sides more than half);
    IMPs (``IMP_NS``, ``IMP_EW``) when equal, at the file's precision or within
    :data:`IMP_TOLERANCE`, to the ledger's IMPs between
    rooms or to one reading of the pairs IMPs (cross-IMPs summed or averaged,
    Butler against a datum with or without the extreme scores)."""
    by_key = {(b["board"], r["table"]): (r, b["results"]) for b in doc["boards"]
              for r in b["results"]}
    rows = agreed = 0
    for record in records:
        if not record.traveller or record.number not in imported:
            continue
        found = by_key.get((record.board, record.table))
        if found is None:
            continue
        got, board = found
        rows += 1
        ledger_values = dict(got)
        top = _board_top(board)
        if got.get("adjusted") and got.get("mp_ew") is not None and top:
            # what East-West got, from its own matchpoints: an artificial row (A+/A+) does
            # not balance, so 100 less North-South's percentage is not East-West's
            ledger_values["pct_ew"] = 100 * got["mp_ew"] / top
        elif got.get("pct_ns") is not None:
            ledger_values["pct_ew"] = 100 - got["pct_ns"]
        readings = _imp_readings(got, board) if any(k.startswith("imp") for k in record.traveller) \
            else {}
        decimals = record.decimals or {}
        diffs = []
        for key, value in record.traveller.items():
            tolerance = _precision(decimals.get(key))
            if key.startswith("imp"):
                sign = 1 if key == "imp_ns" else -1
                if got.get("imp_ns") is not None and key == "imp_ew" and got.get("imp_ew") is not None:
                    mine_all = {"rooms": got["imp_ew"]}
                else:
                    mine_all = {name: sign * v for name, v in readings.items()}
                if not any(_close(value, v, max(tolerance, IMP_TOLERANCE))
                           for v in mine_all.values()):
                    shown = ", ".join(f"{name} {round(v, 2):g}" for name, v in mine_all.items()) or "-"
                    diffs.append(f"{key} file {value:g}, ledger {shown}")
                continue
            mine = ledger_values.get(key)
            ok = _close(value, mine, tolerance) if key.startswith("pct") else (
                _close(value, mine, tolerance) or (mine is not None and _close(value, mine / 2, tolerance)))
            if not ok:
                shown = "-" if mine is None else f"{round(mine, 2):g}"
                if mine is not None and key.startswith("mp"):
                    shown += f" ({round(mine / 2, 2):g} at one per score beaten)"
                diffs.append(f"{key} file {value:g}, ledger {shown}")
        if diffs:
            report.check_mismatches += 1
            report.checks.append(f"ScoreTable board {record.board}, table {record.table} "
                                 f"(record {record.number}): " + "; ".join(diffs))
        else:
            agreed += 1
    if rows:
        report.tables_checked = True
        present = {k.split("_")[0] for r in records if r.traveller for k in r.traveller}
        names = [n for k, n in (("mp", "matchpoints"), ("pct", "percentages"), ("imp", "IMPs"))
                 if k in present] or ["figures"]
        what = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        report.checks.insert(0, f"ScoreTable: {agreed} of {rows} row(s) agree with the ledger's "
                                f"{what}")


def _precision(decimals: int | None) -> float:
    """How far a figure written with ``decimals`` decimals may be from the exact one: half
    its last digit (``5.7`` stands for 5.65 to 5.75), and a hair for binary fractions."""
    return 0.5 * 10.0 ** -(2 if decimals is None else decimals) + LEDGER_ROUNDING + 1e-9


#: The ledger's ``results`` show matchpoints and percentages to two decimals: half of it.
LEDGER_ROUNDING = 0.005


def _board_top(board: list[dict[str, Any]]) -> float | None:
    """The board's top on the ledger's scale: 2 per other table scored on it (Law 78A)."""
    scored = sum(1 for e in board if e.get("mp_ns") is not None or e.get("mp_ew") is not None)
    return 2.0 * (scored - 1) if scored > 1 else None


def _check_score_imps(doc: dict[str, Any], report: ImportReport, records: Sequence[GameRecord],
                      imported: dict[int, str]) -> None:
    """Each imported record's ``ScoreIMP`` against the ledger's IMPs for its room
    (``imp_ns``: the IMPs between the two rooms of its match).  A record for which the
    ledger has no IMPs (the other room unplayed, or not in the file) is listed as not
    compared; one whose IMPs differ is a mismatch naming both figures."""
    by_stream = {r["stream"]: r for b in doc["boards"] for r in b["results"]}
    rows = agreed = 0
    uncompared: list[int] = []
    first = len(report.checks)
    for record in records:
        stream = imported.get(record.number)
        if record.imp_ns is None or stream is None or stream not in by_stream:
            continue
        rows += 1
        mine = by_stream[stream].get("imp_ns")
        if mine is None:
            uncompared.append(record.number)
        elif _close(record.imp_ns, mine, IMP_TOLERANCE):
            agreed += 1
        else:
            report.check_mismatches += 1
            report.imp_mismatches += 1
            report.checks.append(f"ScoreIMP board {record.board}, table {record.table} (record "
                                 f"{record.number}): file NS {record.imp_ns:+g}, ledger NS "
                                 f"{mine:+g}")
    report.imp_rows = rows
    if rows:
        line = f"ScoreIMP: {agreed} of {rows} record(s) agree with the ledger's IMPs between rooms"
        if uncompared:
            line += (f"; {len(uncompared)} not compared, the ledger has no IMPs for them (a room "
                     f"unplayed or not in the file): record(s) {_numbers(uncompared)}")
        report.checks.insert(first, line)


def _numbers(numbers: list[int], shown: int = 20) -> str:
    text = ", ".join(str(n) for n in numbers[:shown])
    return text + (f" and {len(numbers) - shown} more" if len(numbers) > shown else "")


#: TotalScoreTable columns: the competitor, and its IMP total in an IMP file.
_COMPETITOR_COLUMNS = ("PairId", "TeamId", "TeamName", "Team")
_TOTAL_IMP_COLUMNS = ("TotalIMP", "TotalScoreIMP", "TotalIMPs", "IMP")


#: IMP totals of a ranking agree within this (a sum of figures rounded board by board).
TOTAL_IMP_TOLERANCE = 0.05


def _total_imps(row: dict[str, str]) -> float | None:
    return next((v for c in _TOTAL_IMP_COLUMNS if (v := pbn_tables.number_cell(row, c)) is not None),
                None)


def _check_totals(doc: dict[str, Any], report: ImportReport, totals: list[dict[str, str]],
                  by_readings: dict[str, dict[str, float]] | None = None) -> None:
    """The ledger's ranking against the file's ``TotalScoreTable``: the rank (ties share
    the best rank, or the ledger's own), the percentage within half a point (pairs,
    matchpoints) and the IMP total within :data:`TOTAL_IMP_TOLERANCE` (an IMP file:
    teams; pairs scored in IMPs are compared with the ledger's totals of one reading of
    their IMPs, ``by_readings``, the one that gives the file's total)."""
    by_imps = doc.get("scoring") == "IMP"
    standings = {row["name"]: row for row in doc.get("standings") or []}

    def value(row: dict[str, Any]) -> float:
        return (row.get("score") if by_imps else row.get("pct")) or 0

    values = [value(row) for row in standings.values()]
    same = 0
    for row in totals:
        pair = next((row[c].strip() for c in _COMPETITOR_COLUMNS
                     if (row.get(c) or "").strip() not in ("", "-")), "")
        mine = standings.get(pair)
        diffs = []
        rank = row.get("Rank", "").strip()
        if mine is None and by_imps and by_readings and any(pair in t for t in by_readings.values()):
            diffs = _pairs_total_diffs(pair, rank, _total_imps(row), by_readings)
        elif mine is None:
            diffs.append("not in the ledger's ranking")
        else:
            # Ties share the best rank (1, 1, 3...), as rankings print them.
            shared = 1 + sum(1 for v in values if round(v, 9) > round(value(mine), 9))
            if rank.isdigit() and int(rank) not in (shared, mine["rank"]):
                diffs.append(f"rank file {rank}, ledger {shared}")
            pct = pbn_tables.number_cell(row, "TotalPercentage")
            if pct is not None and not _close(pct, mine.get("pct"), 0.5):
                diffs.append(f"percentage file {pct:g}, ledger {mine.get('pct')}")
            if by_imps:
                total = _total_imps(row)
                if total is not None and not _close(total, mine.get("score"), TOTAL_IMP_TOLERANCE):
                    diffs.append(f"IMPs file {total:g}, ledger {mine.get('score'):g}")
        if diffs:
            report.check_mismatches += 1
            who = "team" if by_imps and mine is not None else "pair"
            report.checks.append(f"TotalScoreTable {who} {pair}: " + "; ".join(diffs))
        else:
            same += 1
    report.checks.append(f"TotalScoreTable: {same} of {len(totals)} "
                         f"{'competitor' if by_imps else 'pair'}(s) agree with the ledger's ranking")


def _pairs_total_diffs(pair: str, rank: str, total: float | None,
                       by_readings: dict[str, dict[str, float]]) -> list[str]:
    """A pair's IMP total and rank against the ledger's totals of the reading that gives
    the file's total (no reading does: the difference, naming each reading's total)."""
    if total is None:
        return ["no IMP total in the file's row to compare"]
    kinds = [k for k, t in by_readings.items() if _close(total, t.get(pair), TOTAL_IMP_TOLERANCE)]
    if not kinds:
        shown = ", ".join(f"{k} {t[pair]:.2f}" for k, t in by_readings.items() if pair in t)
        return [f"IMPs file {total:g}, ledger {shown}"]
    if rank.isdigit():
        ranks = {1 + sum(1 for v in by_readings[k].values()
                         if round(v, 9) > round(by_readings[k][pair], 9)) for k in kinds}
        if int(rank) not in ranks:
            return [f"rank file {rank}, ledger {min(ranks)}"]
    return []


def import_record(ledger: Ledger, fmt: str, record: GameRecord, stream: str,
                  report: ImportReport, states: dict[str, TableState] | None = None) -> None:
    """One record's append (one atomic batch on ``stream``), what it says in ``report``, its
    head state in ``states``; a refused record is a ``report.failed`` entry."""
    outcome: list[str] = []
    folded: list[TableState] = []

    def check(state: TableState) -> None:
        outcome.append(compare_result(state, record.stated))
        folded.append(state)

    try:
        check_stream_id(stream)
        result = ledger.append(stream, _with_ids(fmt, record.facts), check=check)
    except ResultDiffers as exc:
        report.failed.append(RecordProblem(record.number, record.line, exc.reason, DIFFERS,
                                           record.where))
        return
    except (BadInput, NotAllowed) as exc:
        kind = OTHER_CONTENT if "mixes events already stored" in str(exc) \
            or "already stored at seq" in str(exc) else REFUSED
        report.failed.append(RecordProblem(record.number, record.line, _reason(exc, record), kind,
                                           record.where))
        return
    except LedgerError as exc:
        report.failed.append(RecordProblem(record.number, record.line, str(exc), REFUSED,
                                           record.where))
        return
    report.imported.append(ImportedRecord(record.number, stream, len(result.stored),
                                          result.replayed))
    if states is not None and folded:
        states[stream] = folded[-1]  # the append's own fold: the stream's head state
    for note in record.notes:
        report.warnings.append(RecordProblem(record.number, record.line, note, "note"))
    if folded:
        lead = _lead_problem(record, folded[-1])
        if lead is not None:
            report.lead_checks += 1
            place = record.where or (f"board {record.board}, table {record.table} "
                                     f"(record {record.number})")
            report.checks.append(f"{place}: {lead}")
    if record.repaired:
        report.repaired.append((record.number, record.repaired))
    if record.inherited:
        report.inherited.append((record.number, record.inherited))
    state = outcome[0] if outcome else None
    if state == "agree":
        report.agreed += 1
    elif state == "unstated":
        report.unstated += 1
    elif state == "unfinished":
        report.unfinished.append(record.number)
        if record.stated and record.stated.get("tricks") is not None:
            report.warnings.append(RecordProblem(
                record.number, record.line,
                "the play stops without a result (no claim); the record states "
                + _result_text(record.stated.get("contract"), record.stated.get("risk"),
                               record.stated.get("declarer"), record.stated.get("tricks"),
                               record.stated.get("score_ns")), "unfinished"))


def _reason(exc: BadInput | NotAllowed, record: GameRecord) -> str:
    """The ledger's refusal, naming the fact (its position in the record's facts) and field."""
    if isinstance(exc, NotAllowed):
        return exc.reason
    parts = []
    if exc.line is not None and 1 <= exc.line <= len(record.facts):
        parts.append(f"fact {exc.line} ({record.facts[exc.line - 1]['type']})")
    elif exc.event_type:
        parts.append(exc.event_type)
    if exc.field is not None:
        parts.append(f"field {exc.field!r} value {exc.value!r}")
    where = ", ".join(parts)
    return f"the ledger refuses {where}: {exc.reason}" if where else f"the ledger refuses it: {exc.reason}"


# ---------------------------------------------------------------------------
# Reading back

def head_state(ledger: Ledger, stream: str) -> TableState:
    """The folded state at the stream's head: the ledger's cached head, or its last
    snapshot plus the events after it (never a refold from seq 1 when a snapshot
    exists). Raises StreamNotFound."""
    return ledger.head_state(stream)


def _natural(text: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def tournament_streams(ledger: Ledger, tournament: str, *,
                       known: dict[str, TableState] | None = None) -> list[tuple[str, TableState]]:
    """The streams of a tournament (named as imported, or by its slug), with their head states,
    ordered by board then table.  ``known``: head states already folded (an import's),
    not read again."""
    slug = slugify(tournament)
    found = []
    for stream in ledger.store.streams(prefix=f"{slug}/"):
        state = known.get(stream) if known else None
        if state is None:
            state = head_state(ledger, stream)
        if state.board.tournament == tournament or slugify(state.board.tournament) == slug:
            found.append((stream, state))
    rooms = {"open": 0, "closed": 1}
    found.sort(key=lambda item: (item[1].board.board, rooms.get(item[1].board.room or "", 2),
                                 _natural(item[1].board.table), item[0]))
    return found


def export_jsonl(ledger: Ledger, streams: Iterable[str]) -> str:
    """The JSON Lines log of the streams: one envelope per line (spec section 2)."""
    lines = []
    for stream in streams:
        for stored in ledger.events(stream):
            lines.append(json.dumps(stored.envelope(), ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")


def export_pbn(ledger: Ledger, streams: Iterable[str], *, event: str | None = None) -> str:
    """PBN 2.1 of the streams (see :mod:`ledger.records.formats.pbn_export`)."""
    from ledger.records.formats.pbn_export import write_pbn

    games: list[tuple[list[StoredEvent], TableState]] = []
    for stream in streams:
        stored = ledger.events(stream)
        state = fold_events(stored)
        assert state is not None
        games.append((stored, state))
    return write_pbn(games)


__all__ = [
    "FORMATS", "GameRecord", "ImportReport", "ImportedRecord", "RecordProblem",
    "compare_result", "decode_text", "detect_format", "export_jsonl", "export_pbn", "head_state",
    "hand_record_beside", "import_bws", "import_data", "import_text", "parse_tables", "read_records",
    "slugify", "stream_ids", "tournament_streams",
]
