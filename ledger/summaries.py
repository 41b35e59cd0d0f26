"""A board's results summary, kept with its snapshot (issue 28, item 4).

What a tournament's results need of one board, computed from its folded state when the
snapshot is saved (``ledger.service``, the append's own transaction; ``rebuild``) and stored
beside it (``snapshots.summary``, revision 0007): its table, room, match, round, pairs and
session; its result as the results projection reads it (contract, declarer, risk, tricks,
score, the adjusted score in force, caps, procedural penalties, a cancelled result: the
fields of :class:`projections.results.TableResult` that come from the board); and its own
checks before publication (in progress, open director questions). ``ledger.tournament``
reads a tournament's summaries by one query, and :func:`results_of` scores them exactly as
:func:`projections.results.results` scores the folded states (``tests/test_summaries.py``
compares the two documents on both stores), so that the case file's traveller reads one row
per board instead of loading and folding each board's snapshot.

A summary says which version of this shape it is (``v``); one of another version, or none,
is ignored by the reader, which folds the board instead.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Sequence

import structlog

from projections.results import (TableResult, field_checks, place_checks,
                                 scored_document, scoring_of, sorted_checks, table_result)
from projections.state import TableState

log = structlog.get_logger("ledger.summaries")

SUMMARY_VERSION = 1
"""The shape of a summary; one stored with another is not read (the board is folded)."""

#: The board's fields a summary keeps (``BoardOpened``'s, as completed at the append).
BOARD_FIELDS = ("tournament", "board", "table", "room", "match", "ns", "ew", "session", "scoring")
#: The result's fields a summary keeps (the others of TableResult are the board's or scored
#: across the field).
RESULT_FIELDS = ("laws", "status", "contract", "declarer", "risk", "tricks", "score_ns", "adjusted",
                 "cancelled", "penalties", "caps", "distribution", "split")


def summary_of(stream: str, state: TableState) -> dict[str, Any]:
    """The board's summary at ``state`` (JSON data)."""
    entry = table_result(stream, state)
    board = state.board
    return {
        "v": SUMMARY_VERSION,
        "seq": state.seq,
        "board": {name: getattr(board, name, None) for name in BOARD_FIELDS},
        "round": swiss_round(board.match, board.session),
        "voided": any(f.type == "BoardVoided" for f in state.board_facts),
        "result": {name: _plain(getattr(entry, name)) for name in RESULT_FIELDS},
        "checks": field_checks([(stream, state)]),  # one table: in progress, open questions
    }


def swiss_round(match: str | None, session: str | None) -> int | None:
    """The round a board's Swiss match names (``{session}-r{n}-...``, as
    :func:`projections.event.round_of` reads it without the register); None otherwise (a
    movement's round is the register's, read with it)."""
    if match and session and match.startswith(f"{session}-r"):
        head = match[len(session) + 2:].split("-", 1)[0]
        if head.isdigit():
            return int(head)
    return None


def saved_summary(stream: str, state: TableState) -> dict[str, Any] | None:
    """The summary the append saves with the snapshot; None (the board is then folded when its
    tournament's results are read) if computing it fails: a cache never refuses an append."""
    try:
        return summary_of(stream, state)
    except Exception:  # noqa: BLE001 (logged with its traceback; the results fold the board instead)
        log.warning("summary_failed", stream=stream, seq=state.seq, exc_info=True)
        return None


def _plain(value: Any) -> Any:
    """Tuples as lists (what JSON gives back); the rest as it is."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def table_result_of(stream: str, summary: dict[str, Any]) -> TableResult:
    """The table's :class:`TableResult` from its summary, as ``table_result`` gives it from the state."""
    b, r = summary["board"], summary["result"]
    return TableResult(stream=stream, board=b["board"], table=b["table"], room=b["room"], match=b["match"],
                       ns=b["ns"], ew=b["ew"], session=b["session"], laws=r["laws"], status=r["status"],
                       contract=r["contract"], declarer=r["declarer"], risk=r["risk"], tricks=r["tricks"],
                       score_ns=r["score_ns"], adjusted=r["adjusted"], cancelled=r["cancelled"],
                       penalties=_pairs(r["penalties"]), caps=_pairs(r["caps"]),
                       distribution=_pairs(r["distribution"]),
                       split=None if r["split"] is None else (r["split"][0], r["split"][1]))


def _pairs(items: Sequence[Sequence[Any]]) -> tuple[Any, ...]:
    return tuple((a, b) for a, b in items)


def results_of(tournament: str, rows: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The ``results --json`` document of spec section 8 from ``(stream, summary)`` pairs in
    the field's order (``ledger.tournament.sort_summaries``): the same document as
    :func:`projections.results.results` of the same boards' folded states (the boards'
    own scoring; no fouled boards' forms)."""
    rows = list(rows)
    scoring = scoring_of(s["board"]["scoring"] for _, s in rows)
    boards: dict[int, list[TableResult]] = defaultdict(list)
    for stream, summary in rows:
        boards[summary["board"]["board"]].append(table_result_of(stream, summary))
    return scored_document(tournament, boards, scoring, checks_of(rows))


def checks_of(rows: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The checks before publication (:func:`projections.results.field_checks`): two boards
    claiming one table, a pair twice on a board, from the boards' fields; each board's own
    (in progress, open questions) as its summary holds them."""
    checks = place_checks((stream, summary["board"]) for stream, summary in rows)
    for _, summary in rows:
        checks += summary["checks"]
    return sorted_checks(checks)
