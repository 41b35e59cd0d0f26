"""PBN 2.1 tables of a scoring program's export: ``ScoreTable`` (the traveller of a
board: every table's result) and ``TotalScoreTable`` (the ranking).

A table tag's value names its columns (``"PairId_NS\\2R;Contract\\5L;..."``: the
name, then after ``\\`` the width and alignment, which the reader ignores); the
section after it holds the rows, one value per column (``-`` for none, quoted
strings for values with spaces).

:func:`traveller_rows` turns each ``ScoreTable`` row into the facts of that
table's board: ``BoardOpened`` (the record's deal, the row's table and pairs)
then ``ResultReported`` (the result the director or the scoring program
recorded, with the lead), ``AdjustedScoreAwarded`` for an artificial row
(``A+``, ``A``, ``A-``), or nothing more for a table that did not play the
board.  The row's matchpoints and percentages are kept to be compared with the
ledger's own (:mod:`ledger.records.games`).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from ledger.records.formats.pbn_facts import board_opened
from ledger.records.formats.pbn_notation import parse_card
from ledger.records.formats.pbn_scan import PbnRecord
from projections.vocab import Edition

__all__ = ["TravellerRow", "score_table", "total_score_table", "traveller_rows"]

_ARTIFICIAL = re.compile(r"A([+=-]?)")
_MIRROR = {"A+": "A-", "A-": "A+", "A": "A"}
_CONTRACT = re.compile(r"(?i)([1-7])(nt|n|c|d|h|s)(x{0,2}|r)")


@attrs.frozen
class TravellerRow:
    """One row of a ``ScoreTable``: the facts of that table's board, what the row states
    of the result (for :func:`ledger.records.games.compare_result`) and the file's matchpoints."""

    index: int
    table: str
    facts: list[dict[str, Any]]
    stated: dict[str, Any] | None
    scored: dict[str, float]
    """``mp_ns``, ``mp_ew``, ``pct_ns``, ``pct_ew``, ``imp_ns``, ``imp_ew`` as the file gives
    them (those present)."""
    notes: tuple[str, ...] = ()
    """What the reader has to say of the row (a redouble written ``R``)."""
    decimals: dict[str, int] = attrs.field(factory=dict)
    """The decimals each of those figures is written with (``5.7``: 1): the precision the
    ledger's figure is compared at."""


def columns(value: str) -> list[str]:
    """The column names of a table tag's value."""
    return [part.split("\\")[0].strip() for part in value.split(";") if part.strip()]


def _table(record: PbnRecord, tag: str) -> list[dict[str, str]] | None:
    if tag not in record.tags:
        return None
    names = columns(record.tags[tag])
    values = record.sections.get(tag, [])
    if not names:
        raise record.error(f"{tag} names no column", tag, record.tags[tag])
    if len(values) % len(names):
        raise record.error(f"{tag}: {len(values)} values do not fill rows of {len(names)} "
                           f"columns ({', '.join(names)})", tag, record.tags[tag])
    return [dict(zip(names, values[i:i + len(names)])) for i in range(0, len(values), len(names))]


def score_table(record: PbnRecord) -> list[dict[str, str]] | None:
    """The rows of the record's ``ScoreTable`` (column name -> value), None without one."""
    return _table(record, "ScoreTable")


def total_score_table(record: PbnRecord) -> list[dict[str, str]] | None:
    """The rows of the record's ``TotalScoreTable``, None without one."""
    return _table(record, "TotalScoreTable")


def _value(row: dict[str, str], *names: str) -> str | None:
    for name in names:
        value = row.get(name, "").strip()
        if value and value not in ("-", "?"):
            return value
    return None


def decimals_cell(row: dict[str, str], name: str) -> int:
    """How many decimals the cell's number is written with (``94`` 0, ``5.67`` 2)."""
    value = (_value(row, name) or "").replace(",", ".")
    return len(value.split(".", 1)[1]) if "." in value else 0


def number_cell(row: dict[str, str], name: str) -> float | None:
    value = _value(row, name)
    if value is None:
        return None
    try:
        return float(value.replace(",", "."))
    except ValueError:
        return None


def _artificial(value: str | None) -> str | None:
    m = _ARTIFICIAL.fullmatch(value or "")
    if m is None:
        return None
    return "A" if m.group(1) in ("", "=") else "A" + m.group(1)


def _tricks(record: PbnRecord, result: str, level: int, number: int) -> int:
    """A Result cell: the declarer's tricks (``9``), or relative to the contract (``=``, ``+1``, ``-2``)."""
    value = result.strip()
    if value.isdigit() and int(value) <= 13:
        return int(value)
    if value == "=":
        return level + 6
    if re.fullmatch(r"[+-]\d+", value) and 0 <= level + 6 + int(value) <= 13:
        return level + 6 + int(value)
    raise record.error(f"ScoreTable row {number}: Result must be the declarer's tricks or "
                       f"=, +n, -n, got {result!r}", "ScoreTable", result)


def traveller_rows(record: PbnRecord, tournament: str, edition: str = Edition.E2017) -> list[TravellerRow]:
    """Each row of the record's ``ScoreTable`` as that table's facts (see the module)."""
    rows = score_table(record) or []
    base = board_opened(record, tournament)
    out = []
    for number, row in enumerate(rows, start=1):
        table = _value(row, "Table") or str(number)
        opened = {**base, "table": table}
        for side, column in (("ns", "PairId_NS"), ("ew", "PairId_EW")):
            pair = _value(row, column)
            if pair is not None:
                opened[side] = pair
            else:
                opened.pop(side, None)
        facts: list[dict[str, Any]] = [opened]
        stated: dict[str, Any] | None = None
        notes: tuple[str, ...] = ()
        contract = _value(row, "Contract")
        ns_art = _artificial(_value(row, "Score_NS")) or _artificial(contract)
        ew_art = _artificial(_value(row, "Score_EW")) or (
            _MIRROR[ns_art] if ns_art and _artificial(contract) else None)
        if ns_art or ew_art:
            facts.append({"type": "AdjustedScoreAwarded", "kind": "artificial",
                          "ns": ns_art or "A", "ew": ew_art or _MIRROR[ns_art or "A"],
                          "text": "artificial score of the scoring program's traveller",
                          "law": f"{edition}:12C2"})
        elif contract is not None and contract.upper() in ("PASS", "P", "AP"):
            facts.append({"type": "ResultReported", "contract": "Pass"})
            stated = {"contract": "Pass", "risk": "", "declarer": None, "tricks": None,
                      "score_ns": 0}
        elif contract is not None:
            m = _CONTRACT.fullmatch(contract)
            declarer = (_value(row, "Declarer") or "").upper()
            result = _value(row, "Result")
            if m is None or declarer not in ("N", "E", "S", "W") or result is None:
                raise record.error(f"ScoreTable row {number}: contract {contract!r}, declarer "
                                   f"{declarer or '-'!r}, result {result or '-'!r} cannot be "
                                   "scored", "ScoreTable", contract)
            level, strain = int(m.group(1)), m.group(2).upper()
            strain = "NT" if strain == "N" else strain
            risk = m.group(3).upper()
            if risk == "R":  # "3NR": an archive's redouble; PBN writes XX
                risk = "XX"
                notes = (f"ScoreTable row {number}: Contract {contract!r}: 'R' read as "
                         "redoubled (XX, as PBN 2.1 writes it)",)
            tricks = _tricks(record, result, level, number)
            fact: dict[str, Any] = {"type": "ResultReported", "contract": f"{level}{strain}",
                                    "declarer": declarer, "risk": risk, "tricks": tricks}
            lead = parse_card(_value(row, "Lead") or "")
            if lead is not None:
                fact["lead"] = lead
            facts.append(fact)
            ns_score, ew_score = number_cell(row, "Score_NS"), number_cell(row, "Score_EW")
            score = ns_score if ns_score is not None else (-ew_score if ew_score is not None else None)
            stated = {"contract": f"{level}{strain}", "risk": risk, "declarer": declarer,
                      "tricks": tricks, "score_ns": None if score is None else int(score)}
        figures = (("mp_ns", "MP_NS"), ("mp_ew", "MP_EW"), ("pct_ns", "Percentage_NS"),
                   ("pct_ew", "Percentage_EW"), ("imp_ns", "IMP_NS"), ("imp_ew", "IMP_EW"))
        scored = {key: value for key, column in figures
                  if (value := number_cell(row, column)) is not None}
        decimals = {key: decimals_cell(row, column) for key, column in figures if key in scored}
        out.append(TravellerRow(number, table, facts, stated, scored, notes, decimals))
    return out
