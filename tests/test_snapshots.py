"""Snapshots off the per-append path and heads in memory (issue 10, lever 1), on both
stores: a snapshot every SNAPSHOT_EVERY events and at the end of a board, never a head
another writer moved, states folded from the last snapshot plus the events after it."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

import ledger.service as service
from ledger.service import SNAPSHOT_EVERY, Ledger, fold_events
from ledger.simulate import random_board
from projections import snapshot
from projections.document import to_document


def facts_of(seed: int = 3, n: int = 3) -> list[dict]:
    facts = random_board(random.Random(seed), board=n, pass_out=0.0).facts
    assert len(facts) > SNAPSHOT_EVERY + 5
    return facts


def one_by_one(led: Ledger, stream: str, facts: list[dict], seq: int = 0) -> int:
    for fact in facts:
        seq = led.append(stream, [fact], expected_seq=seq).stored[-1].seq
    return seq


def test_a_snapshot_every_n_events_and_at_the_end_of_the_board_not_with_every_append(store_url):
    with Ledger.open(store_url, create=True) as led:
        facts = facts_of()
        saved = []
        seq = 0
        for fact in facts:
            seq = led.append("s/n", [fact], expected_seq=seq).stored[-1].seq
            snap = led.store.latest_snapshot("s/n")
            if snap is not None and (not saved or saved[-1] != snap.seq):
                saved.append(snap.seq)
            assert seq - (saved[-1] if saved else 0) < SNAPSHOT_EVERY + 3  # never far behind
        assert len(saved) <= seq // SNAPSHOT_EVERY + 1 < len(facts) // 4
        assert saved[-1] == seq and led.store.load_snapshot("s/n").seq == seq  # the board ended
        assert led.state("s/n")["phase"] == "ended"
        assert snapshot.load(led.store.load_snapshot("s/n").state) == fold_events(led.store.read("s/n"))


def test_a_head_moved_by_another_writer_is_never_taken_from_memory(store_url):
    facts = facts_of(seed=5, n=5)
    with Ledger.open(store_url, create=True) as a, Ledger.open(store_url) as b:
        seq = one_by_one(a, "s/two", facts[:10])
        seq = one_by_one(b, "s/two", facts[10:20], seq)  # a's memory now holds an older head
        seq = one_by_one(a, "s/two", facts[20:], seq)
        stored = a.store.read("s/two")
        assert a.table_state("s/two")[0] == fold_events(stored)
        assert b.table_state("s/two")[0] == fold_events(stored)
        assert a.state("s/two")["phase"] == "ended" and a.verify() == []


def test_state_is_the_last_snapshot_plus_the_events_after_it_never_a_refold_from_seq_1(
        store_url, monkeypatch):
    facts = facts_of(seed=7, n=7)
    cut = SNAPSHOT_EVERY + 4
    with Ledger.open(store_url, create=True) as led:
        one_by_one(led, "s/tail", facts[:cut])
        stored = led.store.read("s/tail")
        snap = led.store.latest_snapshot("s/tail")
        assert 0 < snap.seq < stored[-1].seq  # a tail to fold
        expected = to_document(fold_events(stored))

        def no_refold(_stored):
            raise AssertionError("refolded from seq 1")

        monkeypatch.setattr(service, "fold_events", no_refold)
        with Ledger.open(store_url) as fresh:  # nothing in memory
            doc = fresh.state("s/tail")
            assert {k: v for k, v in doc.items() if k != "integrity"} == \
                {k: v for k, v in expected.items() if k != "integrity"}
            assert doc["integrity"]["verified"] is True
            assert fresh.head_state("s/tail") == fresh.table_state("s/tail")[0]
            # the next append starts from the snapshot and the tail too
            fresh.append("s/tail", [facts[cut]], expected_seq=stored[-1].seq)
        monkeypatch.undo()
        assert led.table_state("s/tail")[0] == fold_events(led.store.read("s/tail"))


def test_a_state_before_the_snapshot_is_folded_up_to_there(store_url):
    facts = facts_of(seed=8, n=8)
    with Ledger.open(store_url, create=True) as led:
        one_by_one(led, "s/at", facts)
        stored = led.store.read("s/at")
        at = 12
        assert led.store.latest_snapshot("s/at").seq > at
        assert led.table_state("s/at", at)[0] == fold_events(stored[:at])


def test_a_snapshot_that_does_not_follow_the_chain_is_not_used(store_url):
    facts = facts_of(seed=9, n=9)
    cut = SNAPSHOT_EVERY + 4
    with Ledger.open(store_url, create=True) as led:
        seq = one_by_one(led, "s/bad", facts[:cut])
        engine = sa.create_engine(store_url)
        try:
            with engine.begin() as conn:
                conn.execute(sa.text("UPDATE snapshots SET hash = :h WHERE stream = 's/bad'"), {"h": "0" * 64})
        finally:
            engine.dispose()
        with Ledger.open(store_url) as fresh:
            assert fresh.table_state("s/bad")[0] == fold_events(fresh.store.read("s/bad"))
            fresh.append("s/bad", facts[cut:], expected_seq=seq)
            assert fresh.state("s/bad")["phase"] == "ended"
            assert fresh.table_state("s/bad")[0] == fold_events(fresh.store.read("s/bad"))


@pytest.mark.parametrize("size", [0, 1])
def test_the_memory_of_heads_is_bounded(size, monkeypatch):
    monkeypatch.setattr(service, "HEAD_CACHE_SIZE", size)
    facts = facts_of(seed=4, n=4)
    with Ledger.open("sqlite:///:memory:", create=True) as led:
        heads = {stream: one_by_one(led, stream, facts[:8]) for stream in ("m/1", "m/2")}
        assert len(led._cache) == size
        one_by_one(led, "m/1", facts[8:], heads["m/1"])  # from the store when forgotten
        assert led.table_state("m/1")[0] == fold_events(led.store.read("m/1"))
