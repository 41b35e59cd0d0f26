"""A third party's verifier, written from docs/federation.md ("Verifying a case file
without the project's code") with hashlib, json, re and html only: it imports nothing
of the ledger. Run on a real case file (both stores), it accepts it; on edited ones it
refuses."""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "ledger" / "examples"


def carried(text: str) -> dict:
    if text.lstrip().startswith("{"):
        return json.loads(text)
    block = re.search(r'<pre id="proof"[^>]*>(.*?)</pre>', text, re.S).group(1)
    return json.loads(html.unescape(block))


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(e: dict) -> str:
    keys = ("actor", "at", "causes", "data", "id", "law", "prev", "seq", "stream", "type", "v")
    return hashlib.sha256(canonical({k: e[k] for k in keys}).encode("utf-8")).hexdigest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_path(index: int, size: int, leaf: bytes, path: list[bytes]) -> bytes | None:
    """RFC 9162 2.1.3.2."""
    if index >= size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return r if sn == 0 else None


def consistent(m: int, n: int, old: bytes, new: bytes, proof: list[bytes]) -> bool:
    """RFC 9162 2.1.4.2."""
    if m == n:
        return not proof and old == new
    if not proof:
        return False
    if m & (m - 1) == 0:
        proof = [old] + proof
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == old and sr == new and sn == 0


def verify(text: str, digest: str) -> list[str]:
    size_text, root_hex = digest.split(":")
    size = int(size_text)
    block = carried(text)
    events, proof = block["events"], block["proof"]
    problems = []
    prev = "0" * 64
    hashes = {}
    for expected, e in enumerate(events, start=1):
        h = event_hash(e)
        if h != e["hash"] or e["seq"] != expected or e["prev"] != prev:
            problems.append(f"seq {e['seq']}: hash or chain")
        hashes[e["seq"]] = h
        prev = h
    if proof["tree_size"] != size:
        problems.append("tree size")
    proved = set()
    for entry in proof["events"]:
        leaf = hashlib.sha256(b"\x00" + bytes.fromhex(hashes[entry["seq"]])).digest()
        r = root_from_path(entry["leaf_index"], size, leaf, [bytes.fromhex(p) for p in entry["path"]])
        if r is None or r.hex() != root_hex:
            problems.append(f"seq {entry['seq']}: not under the digest")
        proved.add(entry["seq"])
    later = [s for s in hashes if s not in proved]
    if later:
        if sorted(later) != sorted(proof["not_covered"]) or min(later) < max(proved or {0}):
            problems.append("unproved events not declared after the digest")
        after = proof.get("after_digest") or {}
        n, new_root = after.get("tree_size", 0), bytes.fromhex(after.get("root", ""))
        if not consistent(size, n, bytes.fromhex(root_hex), new_root,
                          [bytes.fromhex(p) for p in after.get("consistency", [])]):
            problems.append("the later tree does not extend the digest")
        places = {e["seq"]: e for e in after.get("events", [])}
        for s in later:
            e = places.get(s)
            leaf = hashlib.sha256(b"\x00" + bytes.fromhex(hashes[s])).digest()
            if e is None or e["leaf_index"] < size or root_from_path(
                    e["leaf_index"], n, leaf, [bytes.fromhex(p) for p in e["path"]]) != new_root:
                problems.append(f"seq {s}: not placed after the digest")
    # step 6, in part: the result the page shows is the engine's last ResultRecorded
    recorded = [e for e in events if e["type"] == "ResultRecorded"]
    if recorded and not text.lstrip().startswith("{"):
        score = recorded[-1]["data"]["score_ns"]
        shown = re.search(r'<p id="result">[^<]*NS ([+-]\d+)', text)
        if shown is None or int(shown.group(1)) != score:
            problems.append("the result shown is not the events'")
    return problems


@pytest.fixture
def case(store_url, monkeypatch, tmp_path):
    from ledger.cli import main

    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    assert main(["append", "club/b5", str(EXAMPLES / "club-b5-revoke.jsonl")]) == 0
    from ledger.service import Ledger
    from ledger.audit.transparency import current_digest

    with Ledger.open(store_url) as ledger:
        digest = str(current_digest(ledger.store))
        ledger.append("club/b5", [{"type": "RightsReserved", "by": "N", "about": 5, "reason": "late note"}])
    path = tmp_path / "case.html"
    assert main(["casefile", "club/b5", "--digest", digest, "-o", str(path)]) == 0
    return path.read_text(encoding="utf-8"), digest


def test_the_documented_procedure_accepts_a_real_case_file(case):
    text, digest = case
    assert verify(text, digest) == []
    assert carried(text)["proof"]["not_covered"] == [74, 75, 76]  # after the digest, placed after it


def test_the_documented_procedure_refuses_edits(case):
    text, digest = case
    edited = re.sub(r'(<p id="result">[^<]*NS )\+680', r"\g<1>+710", text)
    assert edited != text and verify(edited, digest) == ["the result shown is not the events'"]
    block = carried(text)
    block["events"][5]["data"]["call"] = "2H"
    forged = text.replace(re.search(r'<pre id="proof"[^>]*>(.*?)</pre>', text, re.S).group(1),
                          html.escape(json.dumps(block, ensure_ascii=False)))
    assert "seq 6: hash or chain" in verify(forged, digest)
    assert verify(text, digest.split(":")[0] + ":" + "0" * 64)
