"""A session's boards and their digest (issue 24): every event of the session's boards under an
RFC 9162 Merkle tree head, recomputed here from the stored chain hashes with hashlib alone;
a change to another session leaves it, a change to one of its boards breaks it."""

from __future__ import annotations

import hashlib
import json

from ledger.service import Ledger
from ledger.tournament import board_in_session
from test_event_pairs import EXAMPLES, build, requires_data, run


def mth(leaves: list[bytes]) -> bytes:
    """RFC 9162 2.1.1: MTH of n leaves, k the largest power of two below n."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def session_json(url: str, capsys, session: str) -> dict:
    capsys.readouterr()
    assert run(url, "session-digest", "spring-pairs", session, "--json") == 0
    return json.loads(capsys.readouterr().out)


@requires_data
def test_a_session_digest_covers_its_boards_only(store_url, capsys, tmp_path):
    build(store_url)
    doc = session_json(store_url, capsys, "s1")
    ledger = Ledger.open(store_url)
    try:
        streams = sorted(s for s in ledger.store.streams() if s.startswith("spring-pairs/s1/"))
        leaves = [hashlib.sha256(b"\x00" + bytes.fromhex(e.hash)).digest()
                  for s in streams for e in ledger.store.read(s)]
        assert all(ledger.store.read(s, 1)[0].data["session"] == "s1" for s in streams)
    finally:
        ledger.close()
    assert [b["stream"] for b in doc["boards"]] == streams and len(streams) == 9  # 3 tables x 3 boards
    assert doc["size"] == len(leaves) and doc["root"] == mth(leaves).hex()
    published = doc["digest"]
    # The ranking sheet prints each session's digest under its ranking (PDF text, HTML).
    assert run(store_url, "print", "spring-pairs", "ranking", "-o", str(tmp_path / "r.pdf")) == 0
    assert run(store_url, "print", "spring-pairs", "ranking", "-o", str(tmp_path / "r.html")) == 0
    from pypdf import PdfReader

    text = " ".join(page.extract_text() for page in PdfReader(str(tmp_path / "r.pdf")).pages)
    assert f"Session digest {doc['short']}" in text
    assert f"Session digest {doc['short']}" in (tmp_path / "r.html").read_text(encoding="utf-8")
    # Session 2's board gets an adjusted score: session 1's digest stands.
    assert run(store_url, "append", "spring-pairs/s2/t1/b4", str(EXAMPLES / "pairs-adjusted.jsonl")) == 0
    assert session_json(store_url, capsys, "s1")["digest"] == published
    assert run(store_url, "session-digest", "spring-pairs", "s1", "--check", published) == 0
    # One of session 1's boards changes: the published digest no longer holds (exit 1).
    assert run(store_url, "append", "spring-pairs/s1/t1/b1", str(EXAMPLES / "pairs-adjusted.jsonl")) == 0
    capsys.readouterr()
    assert run(store_url, "session-digest", "spring-pairs", "s1", "--check", published) == 1
    assert "FAILED: session s1" in capsys.readouterr().err
    # A session with no board: a clear error, exit 2.
    assert run(store_url, "session-digest", "spring-pairs", "s9") == 2


def test_a_board_opened_for_a_session_names_it():
    fact = board_in_session({"type": "BoardOpened", "tournament": "t", "board": 1}, "s2")
    assert fact["session"] == "s2"
