"""A reader for PBN 2.1 (Portable Bridge Notation) game records.

This is the reusable parser: it turns the text of a PBN file into
:class:`PbnRecord` objects (tags, section data, notes, commentary), and reads
from a record what the ledger needs: the calls, the tricks in the order they
were played, the result, and the record as ledger facts (LEDGER-SPEC sections
3 and 8).  The ``import`` command is built on it.

What the reader follows of PBN 2.1:

* A game ends at an empty line; it starts at its first tag.  Lines starting
  with ``%`` are escape lines (skipped); ``;`` to the end of the line and
  ``{...}`` (possibly over several lines) are commentary, kept in
  ``PbnRecord.commentary``.
* Tag pairs ``[Name "Value"]`` with the escapes ``\\"`` and ``\\\\``; the
  tokens after a tag, up to the next tag, are that tag's section data
  (``Auction``, ``Play``, ``OptimumResultTable``...).  ``[Note "n:text"]``
  tags belong to the section before them (see :func:`notes`).
* Tag value inheritance (4.8): ``"#"`` takes the value of the previous game;
  ``"##text"`` sets ``text`` for this game and every later game that does not
  give the tag (until the tag is given again).  Both are refused for the tags
  PBN forbids them on (Dealer, Vulnerable, Deal, Declarer, Contract, Auction,
  Play, Note).
* In the Auction section: calls (``Pass``/``P``, ``X``, ``XX``, ``1C``..``7NT``,
  ``1N``), suffix annotations (``!``, ``?``...), NAGs (``$n``), note references
  ``=n=`` and irregularities ``^x``, all attached to the call before them;
  ``AP`` (all pass); ``-`` and ``*`` end the calls; ``+`` is ignored; ``- ^S``
  is a seat's turn skipped (see :data:`SKIPPED`).
* In the Play section, each line (group of four tokens) is a trick whose
  cards are listed in the fixed column order of the seats starting from the
  ``Play`` tag's seat (the opening leader), not in play order.  ``-`` is no
  card, ``*`` ends the play; a card marked ``^L`` (a lead out of turn,
  accepted) leads its trick.
* Irregularity marks (PBN 2.1): ``^I`` ``^S`` after a call, ``^R`` ``^L`` after a
  card, ``^`` before the Declarer or the Result; :func:`record_to_facts` logs
  each as the facts it describes.

The reader is three modules, re-exported here: :mod:`ledger.records.formats.pbn_scan`
(the text: tokens, games, records, tag inheritance),
:mod:`ledger.records.formats.pbn_notation` (what the tags and sections say: deal,
calls, contract, result, play) and :mod:`ledger.records.formats.pbn_facts` (a record
as ledger facts).

A record that cannot be read raises :class:`PbnError` (a ``ValueError``)
naming the record number, the line and the reason; ``read_pbn(text,
collect_errors=True)`` returns the good records and the errors instead.
"""

from __future__ import annotations

from typing import Literal, overload

from ledger.records.formats.pbn_facts import (RESULT_RULING_PREFIX, claim_facts,  # noqa: F401
                                      declarer_marked, is_complete_play, record_to_facts,
                                      reported_result, result_marked)
from ledger.records.formats.pbn_notation import (  # noqa: F401
    INSUFFICIENT, LEAD_OUT_OF_TURN, RANKS, REVOKE, ROOMS, SCORING, SEAT_NAMES, SEATS, SKIPPED,
    STRAINS, SUIT_SYMBOLS, SUITS, VULNERABILITY, PbnCall, auction, auction_calls,
    auction_irregularities, auction_contract, auction_shift, contract_of_calls, deal_hands,
    deal_string, effective_contract, effective_declarer, leading_passes, next_seat, NOT_COUNTED,
    notes, parse_card, partner_of, play_sequence, play_irregularities, play_tricks,
    record_contract, record_result, record_vulnerability, score_imp_ns, seat_tag, side_of,
    trick_winner_seat, trick_winners)
from ledger.records.formats.pbn_scan import (BOARD_TAGS, NO_INHERITANCE, PbnError, PbnNote, PbnRecord,  # noqa: F401
                                     build_record, scan_games)

__all__ = [
    "PbnCall", "PbnError", "PbnNote", "PbnRecord",
    "auction", "auction_calls", "auction_contract", "auction_irregularities", "auction_shift",
    "claim_facts", "deal_hands", "deal_string", "leading_passes", "next_seat",
    "record_vulnerability", "seat_tag",
    "declarer_marked", "is_complete_play", "notes", "play_irregularities", "play_tricks",
    "read_pbn", "record_result", "record_to_facts", "result_marked", "score_imp_ns",
    "trick_winners",
]


def _check(record: PbnRecord) -> None:
    """Read every part the ledger uses, so that a bad record fails on reading."""
    deal_hands(record)
    for tag in ("Dealer", "Auction", "Play", "Declarer"):
        seat_tag(record, tag)
    record_vulnerability(record)
    auction(record)
    play_tricks(record)
    record_result(record)


@overload
def read_pbn(text: str, *, collect_errors: Literal[False] = False) -> list[PbnRecord]: ...
@overload
def read_pbn(text: str, *,
             collect_errors: Literal[True]) -> tuple[list[PbnRecord], list[PbnError]]: ...


def read_pbn(text: str, *, collect_errors: bool = False
             ) -> list[PbnRecord] | tuple[list[PbnRecord], list[PbnError]]:
    """Read the games of a PBN file.

    Raises :class:`PbnError` at the first record that cannot be read; with
    ``collect_errors=True``, returns ``(records, errors)``: the records read
    and one error per record that could not be (the others are still read).
    """
    records: list[PbnRecord] = []
    errors: list[PbnError] = []
    previous: dict[str, str] = {}
    previous_sections: dict[str, list[str]] = {}
    sticky: dict[str, str] = {}
    for number, game in enumerate(scan_games(text), start=1):
        try:
            record = build_record(number, game, previous, sticky, previous_sections)
            previous, previous_sections = dict(record.tags), dict(record.sections)
            _check(record)
        except PbnError as exc:
            if not collect_errors:
                raise
            errors.append(exc)
        else:
            records.append(record)
    if collect_errors:
        return records, errors
    return records

