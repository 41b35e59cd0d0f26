"""Real records replayed through the ledger.

Every RealBridge record with a complete play (64 of the 299 in
``shared/bridge-data/realbridge-2021-online-qual-open-r2.pbn``) is turned into
facts by the PBN reader, appended to a fresh ledger, and the final state must
state what the record says: contract, declarer, risk, the tricks of its
``Result`` tag and the score of its ``Score`` tag.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.records.formats.pbn import is_complete_play, read_pbn, record_result, record_to_facts

BRIDGE_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "bridge-data"
REALBRIDGE = BRIDGE_DATA / "realbridge-2021-online-qual-open-r2.pbn"


def _complete_records():
    if not REALBRIDGE.exists():
        return []
    return [r for r in read_pbn(REALBRIDGE.read_text(encoding="utf-8")) if is_complete_play(r)]


COMPLETE = _complete_records()

pytestmark = pytest.mark.skipif(not COMPLETE, reason=f"real PBN data not found at {REALBRIDGE}")


def _text(result: dict) -> str:
    """The result as the spec writes it: ``4S S =``, ``6NT S -1``, ``3NTX N +1``."""
    level = int(result["contract"][0])
    over = result["tricks"] - (level + 6)
    return (f"{result['contract']}{result['risk']} {result['declarer']} "
            f"{'=' if over == 0 else f'{over:+d}'}")


def test_the_file_has_64_complete_plays():
    assert len(COMPLETE) == 64


@pytest.fixture(scope="module")
def real_ledger():
    from ledger.service import Ledger

    opened = Ledger.open("sqlite:///:memory:", create=True)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    "record", COMPLETE,
    ids=[f"board{r.tags['Board']}-table{r.tags['Table']}-record{r.number}" for r in COMPLETE])
def test_real_record_replays_to_its_stated_result(real_ledger, record):
    stream = f"realbridge/r2/b{record.tags['Board']}/t{record.tags['Table']}/{record.number}"
    facts = record_to_facts(record, "realbridge-2021-online-qual-open-r2")
    expected = record_result(record)

    real_ledger.append(stream, facts)
    doc = real_ledger.state(stream)

    assert doc["phase"] == "ended"
    assert doc["contract"]["declarer"] == expected["declarer"]
    assert doc["contract"]["risk"] == expected["risk"]
    assert doc["result"] == {
        "contract": expected["contract"],
        "declarer": expected["declarer"],
        "risk": expected["risk"],
        "tricks": int(record.tags["Result"]),
        "score_ns": expected["score_ns"],
        "text": _text(expected),
    }
    assert doc["tricks_won"]["declarer"] == int(record.tags["Result"])


@pytest.mark.parametrize("name, fmt, agreed, unstated", [
    ("realbridge-2021-online-qual-open-r2.pbn", "pbn", 299, 0),
    ("usbf-2010-sf-segment4.lin", "lin", 30, 0),
    ("bbo-robots-8-boards.lin", "lin", 0, 8),
])
def test_every_real_record_agrees_with_the_result_it_states(name, fmt, agreed, unstated):
    from ledger.records.games import import_data
    from ledger.service import Ledger

    with Ledger.open("sqlite:///:memory:", create=True) as ledger:
        report = import_data(ledger, (BRIDGE_DATA / name).read_bytes(), fmt)
    assert report.failed == [] and report.repaired == [] and report.inherited == []
    assert (report.agreed, report.unstated, report.charset) == (agreed, unstated, "UTF-8")
