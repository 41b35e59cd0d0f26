"""``verify`` names every broken event and never crashes, on both stores: any
column of any row changed (undecodable JSON included), a row missing in the
middle, rows swapped, a truncated tail against the stored heads, a stream
deleted; and it reports every stream, not only the first break."""

from __future__ import annotations

import random

import pytest
from tamper import column, swap_rows, tamper

from ledger.audit.verify import verify_store
from ledger.cli import main
from ledger.service import Ledger
from ledger.simulate import random_board


@pytest.fixture
def ledger(store_url):
    led = Ledger.open(store_url, create=True)
    for n, (stream, count) in enumerate((("t/a", 20), ("t/b", 15), ("t/c", 12)), start=1):
        facts = random_board(random.Random(n), board=n, pass_out=0.0).facts
        led.append(stream, facts[:count])
    assert verify_store(led.store).ok
    yield led
    led.close()


def found(ledger):
    """The breaks of the chains and around them, and the report (Merkle ones included)."""
    report = verify_store(ledger.store)
    return {(p.stream, p.seq, p.kind) for p in report.problems if p.kind != "merkle"}, report


def tree_breaks(report):
    return [p for p in report.problems if p.kind == "merkle"]


def test_an_intact_store_verifies_every_stream(ledger):
    report = verify_store(ledger.store)
    assert report.ok and report.streams == 3 and report.events == 47


def test_a_changed_byte_in_data_names_that_event_only(ledger, store_url):
    data = column(store_url, "data", "t/a", 7)
    i = data.index('"seat":"') + len('"seat":"')
    tamper(store_url, "UPDATE events SET data = :d WHERE stream = 't/a' AND seq = 7",
           d=data[:i] + ("S" if data[i] != "S" else "N") + data[i + 1:])
    problems, _ = found(ledger)
    assert problems == {("t/a", 7, "content")}


@pytest.mark.parametrize("sql", [
    "UPDATE events SET data = substr(data, 1, 9) WHERE stream = 't/a' AND seq = 4",
    "UPDATE events SET data = '[1,2]' WHERE stream = 't/a' AND seq = 4",
    "UPDATE events SET causes = '[1,' WHERE stream = 't/a' AND seq = 4",
    "UPDATE events SET causes = '[\"x\"]' WHERE stream = 't/a' AND seq = 4",
], ids=["data-cut", "data-not-object", "causes-cut", "causes-not-seqs"])
def test_undecodable_json_is_named_not_raised(ledger, store_url, sql, capsys):
    tamper(store_url, sql)
    problems, _ = found(ledger)
    assert problems == {("t/a", 4, "undecodable")}
    capsys.readouterr()
    assert main(["--db", store_url, "verify"]) == 1
    err = capsys.readouterr().err
    assert "stream 't/a' seq 4 (undecodable)" in err and "Traceback" not in err


def test_the_other_readers_name_an_unreadable_row_and_point_to_verify(ledger, store_url, capsys):
    tamper(store_url, "UPDATE events SET data = substr(data, 1, 9) WHERE stream = 't/a' AND seq = 4")
    capsys.readouterr()
    for command in (["state", "t/a"], ["log", "t/a"], ["log", "--after", "0"]):
        assert main(["--db", store_url, *command]) == 1
        err = capsys.readouterr().err
        assert "stream 't/a' seq 4: the stored row cannot be read" in err and "cli.py verify" in err


@pytest.mark.parametrize("col, value", [
    ("at", "2000-01-01T00:00:00.000000Z"), ("actor_name", "someone else"), ("law", "2017:12C1"),
    ("actor_role", "director"), ("type", "ClaimMade"), ("id", "forged-id"), ("v", 2),
])
def test_any_changed_column_is_named(ledger, store_url, col, value):
    tamper(store_url, f"UPDATE events SET {col} = :v WHERE stream = 't/b' AND seq = 9", v=value)
    problems, _ = found(ledger)
    assert problems == {("t/b", 9, "content")}


def test_data_rewritten_with_the_same_meaning_is_still_named(ledger, store_url):
    data = column(store_url, "data", "t/a", 3)
    tamper(store_url, "UPDATE events SET data = :d WHERE stream = 't/a' AND seq = 3",
           d=data.replace(",", ", "))
    problems, _ = found(ledger)
    assert problems == {("t/a", 3, "not_canonical")}


def test_a_rewritten_hash_is_named_with_the_broken_link(ledger, store_url):
    tamper(store_url, "UPDATE events SET hash = :h WHERE stream = 't/c' AND seq = 5", h="f" * 64)
    problems, report = found(ledger)
    assert problems == {("t/c", 5, "content"), ("t/c", 6, "prev")}
    assert [(p.stream, p.seq) for p in tree_breaks(report)] == [("t/c", 5)]


def test_a_missing_row_in_the_middle_is_named_as_a_range(ledger, store_url):
    tamper(store_url, "DELETE FROM events WHERE stream = 't/a' AND seq IN (8, 9, 10)")
    problems, report = found(ledger)
    assert problems == {("t/a", 8, "missing")}
    gap = next(p for p in report.problems if p.kind == "missing")
    assert gap.last_seq == 10 and "seqs 8-10" in gap.where()
    deleted = tree_breaks(report)
    assert [(p.stream, p.seq) for p in deleted] == [("t/a", 8), ("t/a", 9), ("t/a", 10)]
    assert all("no longer stored (deleted)" in p.reason for p in deleted)


def test_swapped_rows_are_named(ledger, store_url):
    swap_rows(store_url, "t/b", 4, 5)
    problems, report = found(ledger)
    assert problems == {("t/b", 5, "order")}
    assert {(p.stream, p.seq) for p in tree_breaks(report)} == {("t/b", 4), ("t/b", 5)}


def test_a_truncated_tail_is_named_by_the_stale_head(ledger, store_url):
    tamper(store_url, "DELETE FROM events WHERE stream = 't/c' AND seq > 9")
    problems, report = found(ledger)
    assert problems == {("t/c", 10, "head")}
    head = next(p for p in report.problems if p.kind == "head")
    assert "seqs 10-12 were removed (truncated)" in head.reason
    assert len(tree_breaks(report)) == 3


def test_a_truncation_with_the_head_rewritten_too_is_named_by_the_tree(ledger, store_url):
    tamper(store_url, "DELETE FROM events WHERE stream = 't/c' AND seq > 9")
    head = column(store_url, "hash", "t/c", 9)
    tamper(store_url, "UPDATE stream_heads SET seq = 9, hash = :h WHERE stream = 't/c'", h=head)
    tamper(store_url, "DELETE FROM snapshots WHERE stream = 't/c'")
    problems, report = found(ledger)
    assert problems == set()
    assert [(p.stream, p.seq) for p in tree_breaks(report)] == [("t/c", 10), ("t/c", 11), ("t/c", 12)]


def test_a_stream_deleted_with_its_head_is_named_by_the_tree(ledger, store_url):
    tamper(store_url, "DELETE FROM events WHERE stream = 't/b'")
    tamper(store_url, "DELETE FROM stream_heads WHERE stream = 't/b'")
    _, report = found(ledger)
    assert [(p.stream, p.seq) for p in tree_breaks(report)] == [("t/b", n) for n in range(1, 16)]


def test_a_deleted_stream_is_named(ledger, store_url):
    tamper(store_url, "DELETE FROM events WHERE stream = 't/b'")
    problems, report = found(ledger)
    assert problems == {("t/b", None, "deleted")}
    assert len(tree_breaks(report)) == 15


def test_every_broken_stream_is_reported_not_only_the_first(ledger, store_url, capsys):
    tamper(store_url, "UPDATE events SET at = 'x' WHERE stream = 't/a' AND seq = 2")
    tamper(store_url, "UPDATE events SET law = 'y' WHERE stream = 't/a' AND seq = 11")
    tamper(store_url, "UPDATE events SET data = '{' WHERE stream = 't/c' AND seq = 1")
    problems, _ = found(ledger)
    assert problems == {("t/a", 2, "content"), ("t/a", 11, "content"), ("t/c", 1, "undecodable")}
    capsys.readouterr()
    assert main(["--db", store_url, "verify"]) == 1
    err = capsys.readouterr().err
    assert err.count("FAILED") == 3 and "broken: t/a, t/c" in err
    assert main(["--db", store_url, "verify", "t/b"]) == 0


def test_sqlite_bytes_that_are_not_utf8_and_a_text_seq_are_named(tmp_path):
    url = f"sqlite:///{tmp_path / 'l.db'}"
    with Ledger.open(url, create=True) as led:
        led.append("t/x", random_board(random.Random(3), board=3, pass_out=0.0).facts[:6])
        tamper(url, "UPDATE events SET data = CAST(x'7b22ff227d' AS TEXT) WHERE seq = 2")
        tamper(url, "UPDATE events SET seq = 'four' WHERE seq = 4")
        report = verify_store(led.store)
    kinds = {(p.stream, p.seq, p.kind) for p in report.problems}
    assert ("t/x", 2, "undecodable") in kinds
    assert ("t/x", None, "undecodable") in kinds  # the row whose seq is not a number
    assert ("t/x", 4, "missing") in kinds


def test_the_tree_stays_whole_across_a_rollback_and_two_writers(store_url):
    from backends import make_chain

    from ledger.store.sql import open_store

    a, b = open_store(store_url, create=True), None
    try:
        b = open_store(store_url)
        with a.transaction("x") as tx:
            tx.insert(make_chain("x", 3))
        with pytest.raises(RuntimeError), a.transaction("x") as tx:
            tx.insert(make_chain("x", 2, after=tx.head()))
            raise RuntimeError("rolled back after the tree was extended")
        with b.transaction("y") as tx:  # another writer moves the tree on meanwhile
            tx.insert(make_chain("y", 2))
        with a.transaction("x") as tx:
            tx.insert(make_chain("x", 2, after=tx.head()))
        with b.transaction("y") as tx:
            tx.insert(make_chain("y", 1, after=tx.head()))
        report = verify_store(a)
        assert report.ok, report.problems
        assert a.tree_size() == report.events == 8
    finally:
        a.close()
        if b is not None:
            b.close()
