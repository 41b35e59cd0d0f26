"""Idempotent retries are idempotent under races: the same batch of ids sent
by several writers at once, to a new stream or an existing one, is written
once; every other sender gets the no-op answer with the stored seqs, never a
concurrency error (no ``--expected-seq`` was given). Both stores; each writer
has its own Ledger (its own connections and cache), as separate terminals do."""

from __future__ import annotations

import random
import threading

import pytest

from ledger.errors import ConcurrencyError
from ledger.service import Ledger
from ledger.simulate import random_board

SENDERS = 4


def with_ids(facts, prefix):
    return [dict(f, id=f"{prefix}-{i}") for i, f in enumerate(facts)]


def race(url, stream, batch, expected_seq=None):
    """Each sender appends ``batch`` at the same moment; their outcomes."""
    ledgers = [Ledger.open(url) for _ in range(SENDERS)]
    start = threading.Barrier(SENDERS)
    outcomes: list[object] = [None] * SENDERS

    def send(n):
        start.wait()
        try:
            outcomes[n] = ledgers[n].append(stream, batch, expected_seq=expected_seq)
        except Exception as exc:  # kept, asserted below
            outcomes[n] = exc

    threads = [threading.Thread(target=send, args=(n,)) for n in range(SENDERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
        assert not t.is_alive()
    for led in ledgers:
        led.close()
    return outcomes


@pytest.mark.parametrize("existing", [False, True], ids=["new-stream", "existing-stream"])
def test_the_same_ids_sent_at_once_give_one_write_and_no_ops(store_url, existing):
    Ledger.open(store_url, create=True).close()
    for round_ in range(4):
        stream = f"race/{round_}"
        facts = with_ids(random_board(random.Random(round_), board=round_ + 1, pass_out=0.0).facts,
                         f"r{round_}")
        sent = []
        if existing:
            with Ledger.open(store_url) as led:
                led.append(stream, facts[:5])
            sent, facts = facts[:5], facts[5:]
        batch = facts[:40]
        outcomes = race(store_url, stream, batch, expected_seq=None)
        errors = [o for o in outcomes if isinstance(o, Exception)]
        assert errors == [], errors
        written = [o for o in outcomes if not o.replayed]
        replayed = [o for o in outcomes if o.replayed]
        assert len(written) == 1 and len(replayed) == SENDERS - 1
        assert all(r.fact_seqs == written[0].fact_seqs for r in replayed)
        with Ledger.open(store_url) as led:
            stored = led.store.read(stream)
            assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
            ids = [e.id for e in stored if e.id.startswith(f"r{round_}-")]
            assert ids == [f["id"] for f in sent + batch]  # each fact once, in order
            assert len({e.id for e in stored}) == len(stored)
            assert led.verify(stream) == []


def test_a_stale_expected_seq_is_still_a_conflict_for_new_ids(store_url):
    with Ledger.open(store_url, create=True) as led:
        facts = with_ids(random_board(random.Random(9), board=9, pass_out=0.0).facts, "s")
        led.append("race/s", facts[:3])
        led.append("race/s", facts[3:4])
        with pytest.raises(ConcurrencyError):
            led.append("race/s", facts[4:6], expected_seq=3)
        # the retry of a stored batch answers its seqs whatever the expected seq
        assert led.append("race/s", facts[3:4], expected_seq=1).replayed


def test_without_the_stream_lock_a_raced_retry_is_still_answered_from_the_unique_key(
        store_url, monkeypatch):
    """The second line of defence: when the store's insert finds the ids taken
    by a writer that committed first, the append answers as a retry."""
    from ledger.store import sql

    monkeypatch.setattr(sql.SqlTransaction, "_lock_stream", lambda self: None)
    Ledger.open(store_url, create=True).close()
    facts = with_ids(random_board(random.Random(5), board=5, pass_out=0.0).facts, "u")[:30]
    outcomes = race(store_url, "race/unlocked", facts)
    assert [o for o in outcomes if isinstance(o, Exception)] == []
    assert sum(not o.replayed for o in outcomes) == 1
    with Ledger.open(store_url) as led:
        assert len([e for e in led.store.read("race/unlocked") if e.id.startswith("u-")]) == 30
