"""Game records in and out of the ledger (``cli.py import`` / ``export`` / ``results``).

Import: a PBN or LIN file -> records (:mod:`ledger.formats.pbn`,
:mod:`ledger.formats.lin`) -> one stream per record, appended through the
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
(:mod:`ledger.formats.pbn_export`) or as the JSON Lines log.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import attrs

from ledger import events as ev
from ledger.errors import BadInput, LedgerError, NotAllowed
from ledger.formats import lin as lin_format
from ledger.formats import pbn as pbn_format
from ledger.service import Ledger, check_stream_id, fold_events
from ledger.store.base import StoredEvent
from projections import snapshot as snapshots
from projections.state import TableState

FORMATS = ("pbn", "lin")
_SUFFIXES = {".pbn": "pbn", ".lin": "lin"}


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


@attrs.frozen
class RecordProblem:
    """A record that was not imported, and why."""

    number: int | None
    line: int | None
    reason: str

    def __str__(self) -> str:
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


@attrs.define
class ImportReport:
    format: str
    tournament: str
    records: int = 0
    imported: list[ImportedRecord] = attrs.field(factory=list)
    failed: list[RecordProblem] = attrs.field(factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def events(self) -> int:
        return sum(r.events for r in self.imported)


# ---------------------------------------------------------------------------
# Names

def slugify(name: str) -> str:
    """A tournament name as a stream id part: lower case, ``a-z 0-9 . _ -``."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-.")
    slug = re.sub(r"-{2,}", "-", slug)[:120].strip("-.")
    return slug or "tournament"


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

def _pbn_stated(record: pbn_format.PbnRecord) -> dict[str, Any] | None:
    result = pbn_format.record_result(record)
    if result is None:
        return None
    stated = dict(result)
    m = re.fullmatch(r"\s*NS\s+(-?\d+).*", record.tags.get("ScoreIMP", ""))
    stated["imp_ns"] = int(m.group(1)) if m else None
    return stated


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


def read_records(text: str, fmt: str, tournament: str) -> tuple[list[GameRecord], list[RecordProblem]]:
    """Every record of the file as facts; and the records that could not be read."""
    records: list[GameRecord] = []
    problems: list[RecordProblem] = []
    if fmt == "pbn":
        pbn_records, errors = pbn_format.read_pbn(text, collect_errors=True)
        read: Iterable[Any] = pbn_records
        to_facts: Callable[[Any, str], list[dict[str, Any]]] = pbn_format.record_to_facts
    else:
        lin_records, errors = lin_format.read_lin(text, collect_errors=True)
        read, to_facts = lin_records, lin_format.record_to_facts
    problems.extend(RecordProblem(e.record, e.line, e.reason) for e in errors)
    for record in read:
        try:
            facts = to_facts(record, tournament)
        except pbn_format.PbnError as exc:
            problems.append(RecordProblem(exc.record, exc.line, exc.reason))
            continue
        if fmt == "pbn":
            stated = _pbn_stated(record)
            facts[0] = _with_match(record, facts[0])
        else:
            stated = lin_format.lin_result(record.result) if record.result else None
        opened = facts[0]
        records.append(GameRecord(record.number, record.line, opened["board"], opened["table"],
                                  facts, stated))
    problems.sort(key=lambda p: (p.number or 0, p.line or 0))
    return records, problems


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
        role = ev.TABLE if ev.TABLE in cls.ROLES else ev.DIRECTOR
        out.append({**fact, "id": f"{fmt}-{i:03d}", "actor": {"role": role, "name": f"import:{fmt}"}})
    return out


def import_text(ledger: Ledger, text: str, fmt: str, *, tournament: str | None = None,
                default_name: str = "import",
                progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Import the records of ``text`` (format ``fmt``): one stream and one atomic append per record.

    ``tournament`` defaults to the file's own name for the event (PBN
    ``Event``, LIN ``vg``), else ``default_name``.  ``progress(done, total)``
    is called after each record.
    """
    if fmt not in FORMATS:
        raise BadInput(f"unknown format (expected {' or '.join(FORMATS)})", field="format", value=fmt)
    name = tournament or _file_tournament(fmt, text) or default_name
    prefix = slugify(name)
    records, problems = read_records(text, fmt, name)
    report = ImportReport(fmt, name, records=len(records) + len(problems), failed=list(problems))
    for done, (record, stream) in enumerate(zip(records, stream_ids(prefix, records)), start=1):
        try:
            check_stream_id(stream)
            result = ledger.append(stream, _with_ids(fmt, record.facts))
        except (BadInput, NotAllowed) as exc:
            report.failed.append(RecordProblem(record.number, record.line, _reason(exc, record)))
        except LedgerError as exc:
            report.failed.append(RecordProblem(record.number, record.line, str(exc)))
        else:
            report.imported.append(ImportedRecord(record.number, stream, len(result.stored),
                                                  result.replayed))
        if progress is not None:
            progress(done, len(records))
    report.failed.sort(key=lambda p: (p.number or 0, p.line or 0))
    return report


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
    """The folded state at the stream's head: the head snapshot when current, else a refold."""
    snap = ledger.store.load_snapshot(stream)
    if snap is not None and snap.version == snapshots.VERSION:
        return snapshots.load(snap.state)
    state = fold_events(ledger.store.read(stream))
    if state is None:
        from ledger.errors import StreamNotFound
        raise StreamNotFound(stream)
    return state


def _natural(text: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def tournament_streams(ledger: Ledger, tournament: str) -> list[tuple[str, TableState]]:
    """The streams of a tournament (named as imported, or by its slug), with their head states,
    ordered by board then table."""
    slug = slugify(tournament)
    found = []
    for stream in ledger.store.streams(prefix=f"{slug}/"):
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
    """PBN 2.1 of the streams (see :mod:`ledger.formats.pbn_export`)."""
    from ledger.formats.pbn_export import write_pbn

    games: list[tuple[list[StoredEvent], TableState]] = []
    for stream in streams:
        stored = ledger.events(stream)
        state = fold_events(stored)
        assert state is not None
        games.append((stored, state))
    return write_pbn(games)


__all__ = [
    "FORMATS", "GameRecord", "ImportReport", "ImportedRecord", "RecordProblem",
    "detect_format", "export_jsonl", "export_pbn", "head_state", "import_text", "read_records",
    "slugify", "stream_ids", "tournament_streams",
]
