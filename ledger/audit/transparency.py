"""Published digests and their proofs (docs/reliability.md), over the Merkle
tree the store keeps (``ledger.audit.merkle``).

* :func:`current_digest`: the tree's size and root now (``cli.py digest``).
* :func:`check_digest`: the store still holds exactly what it held when the
  digest was taken: its first ``size`` events, recomputed from their content,
  hash to the digest's root, and the stored tree proves (RFC 9162 consistency
  proof) that today's tree extends it (``cli.py verify --digest D``).
* :func:`prove_stream`: the inclusion proof of a stream's events under a
  digest (``cli.py prove``, the case file's ``proof``).
* :func:`check_proof`: with no database, a case file's events against a
  published digest (``cli.py check-proof``).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import attrs

from ledger.audit import merkle
from ledger.errors import BadInput, IntegrityError
from ledger.hashing import event_hash
from ledger.audit.merkle import Digest
from ledger.store.base import GENESIS, EventStore

PROOF_FORMAT = "ledger-inclusion-proof/1"


def _subtrees(store: EventStore, proof: Any) -> merkle.Subtree:
    """The stored nodes a proof needs, fetched at once, as a ``subtree`` source."""
    keys = merkle.planned(proof)
    nodes = store.tree_nodes(sorted(keys))
    missing = keys - set(nodes)
    if missing:
        raise IntegrityError(None, None, f"the Merkle tree lacks {len(missing)} stored node(s) a proof "
                             "needs (run verify)", kind="merkle")
    return merkle.subtree_from(nodes)


def stored_root(store: EventStore, size: int) -> bytes:
    """The root of the first ``size`` leaves, from the stored tree."""
    if size == 0:
        return merkle.EMPTY_ROOT
    return _subtrees(store, lambda s: s(0, size))(0, size)


def current_digest(store: EventStore) -> Digest:
    size = store.tree_size()
    return Digest(size, stored_root(store, size).hex())


@attrs.frozen
class DigestCheck:
    digest: Digest
    size: int  # the tree's size now
    root: str  # the root now, recomputed from the events' content
    proof: tuple[str, ...]  # consistency proof from the digest to now (hex)
    problems: tuple[IntegrityError, ...]


def check_digest(store: EventStore, digest: Digest) -> DigestCheck:
    """Does the store still hold exactly what it held when ``digest`` was taken?"""
    from ledger.audit.verify import decode_row

    leaves: list[bytes] = []
    for raw in store.iter_raw():
        event, found = decode_row(raw)  # a changed row gets a leaf that matches nothing
        leaves.append(merkle.leaf_hash(raw.hash) if event is not None and not found else b"\x00" * 32)
    problems = []
    n = len(leaves)
    m = digest.size
    if m > n:
        problems.append(IntegrityError(None, None, f"the digest covers {m} events; the store now holds "
                                       f"{n}: {m - n} event(s) removed (truncated or deleted)",
                                       kind="digest"))
        return DigestCheck(digest, n, merkle.root_of(leaves).hex(), (), tuple(problems))
    old_root = merkle.root_of(leaves[:m])
    new_root = merkle.root_of(leaves)
    if not digest.matches(old_root):
        problems.append(IntegrityError(None, None, f"the first {m} events of the store do not hash to "
                                       f"the digest's root: since the digest was taken an event was "
                                       "rewritten, deleted, inserted or moved (or the digest is not "
                                       "of this store)", kind="digest"))
        return DigestCheck(digest, n, new_root.hex(), (), tuple(problems))
    proof: list[bytes] = []
    if 0 < m < n:
        if store.tree_size() != n:
            problems.append(IntegrityError(None, None, "the stored Merkle tree does not have one leaf "
                                           "per event (run verify)", kind="merkle"))
        else:
            proof = merkle.consistency_proof(m, n, _subtrees(
                store, lambda s: merkle.consistency_proof(m, n, s)))
            if not merkle.verify_consistency(m, n, old_root, new_root, proof):
                problems.append(IntegrityError(None, None, "the stored Merkle tree does not prove "
                                               "today's log extends the digest (run verify)",
                                               kind="merkle"))
    return DigestCheck(digest, n, new_root.hex(), tuple(p.hex() for p in proof), tuple(problems))


def prove_stream(store: EventStore, stream: str, digest: Digest) -> dict[str, Any]:
    """The inclusion proof of ``stream``'s events under ``digest`` (JSON data)."""
    events = store.read(stream)
    if not events:
        from ledger.errors import StreamNotFound

        raise StreamNotFound(stream)
    size = store.tree_size()
    if digest.size > size:
        raise IntegrityError(None, None, f"the digest covers {digest.size} events; the store's tree "
                             f"holds {size} (truncated?)", kind="digest")
    if not digest.matches(stored_root(store, digest.size)):
        raise IntegrityError(None, None, "the store's tree at the digest's size does not have the "
                             "digest's root: run verify --digest", kind="digest")
    indexes = store.leaf_indexes([e.position for e in events if e.position is not None])
    covered = [(e, indexes[e.position]) for e in events
               if e.position in indexes and indexes[e.position] < digest.size]
    m = digest.size

    def all_paths(subtree: merkle.Subtree) -> list[list[bytes]]:
        return [merkle.inclusion_path(i, m, subtree) for _, i in covered]

    paths = all_paths(_subtrees(store, all_paths)) if covered else []
    proof = {
        "format": PROOF_FORMAT,
        "digest": str(digest) if digest.full else f"{m}:{stored_root(store, m).hex()}",
        "stream": stream,
        "tree_size": m,
        "events": [{"seq": e.seq, "leaf_index": i, "hash": e.hash, "path": [p.hex() for p in path]}
                   for (e, i), path in zip(covered, paths, strict=True)],
        "not_covered": [e.seq for e in events if e.position not in indexes
                        or indexes[e.position] >= m],
    }
    later = [(e, indexes[e.position]) for e in events
             if e.position in indexes and indexes[e.position] >= m]
    if later:
        proof["after_digest"] = _after_digest(store, m, size, later)
    return proof


def _after_digest(store: EventStore, m: int, n: int, later: list[tuple[Any, int]]) -> dict[str, Any]:
    """What places the events appended after a digest of ``m`` events *after* it: the
    tree of ``n`` events now, the RFC 9162 consistency proof from ``m`` to ``n``, and each
    event's inclusion path in the tree of ``n`` at a leaf index of ``m`` or more. An event
    the digest covers cannot be passed off as appended later (``check_proof``)."""
    def plan(subtree: merkle.Subtree) -> list[Any]:
        out: list[Any] = [merkle.inclusion_path(i, n, subtree) for _, i in later]
        if m > 0:
            out.append(merkle.consistency_proof(m, n, subtree))
        out.append(subtree(0, n))
        return out

    computed = plan(_subtrees(store, plan))
    root = computed[-1]
    consistency = computed[-2] if m > 0 else []
    return {"tree_size": n, "root": root.hex(), "consistency": [p.hex() for p in consistency],
            "events": [{"seq": e.seq, "leaf_index": i, "path": [p.hex() for p in path]}
                       for (e, i), path in zip(later, computed[:len(later)], strict=True)]}


# --- checking a case file, with no database ------------------------------------------

@attrs.frozen
class ProofCheck:
    stream: str
    covered: tuple[int, ...]
    not_covered: tuple[int, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


_PROOF_BLOCK = re.compile(r'<pre id="proof"[^>]*>(.*?)</pre>', re.S)


def read_casefile(text: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(the event envelopes, the proof) of a case file, JSON or HTML."""
    stripped = text.lstrip()
    try:
        if stripped.startswith("{"):
            case = json.loads(stripped)
        else:
            block = _PROOF_BLOCK.search(text)
            if block is None:
                raise BadInput("the case file carries no proof: write it with "
                               "`cli.py casefile STREAM --digest D`", field="CASEFILE", value=text[:80])
            case = json.loads(html.unescape(block.group(1)))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BadInput(f"the case file is not readable JSON ({exc})", field="CASEFILE",
                       value=text[:80]) from None
    if not isinstance(case, dict) or not isinstance(case.get("proof"), dict) \
            or not isinstance(case.get("events"), list):
        raise BadInput("the case file carries no proof: write it with "
                       "`cli.py casefile STREAM --digest D`", field="CASEFILE", value=text[:80])
    _check_shape(case["events"], case["proof"])
    return case["events"], case["proof"]


def carried_block(text: str) -> dict[str, Any]:
    """What a case file embeds to be re-rendered and proved: ``events``, ``proof``,
    ``context`` (what came from other boards) and ``renderer`` (the JSON case file
    itself, or the HTML's ``<pre id="proof">`` block). Bad input when absent."""
    read_casefile(text)  # the shape checks, with their messages
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return dict(json.loads(stripped))
    block = _PROOF_BLOCK.search(text)
    assert block is not None
    return dict(json.loads(html.unescape(block.group(1))))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(events: list[Any], proof: dict[str, Any]) -> None:
    """The proof and the events have the shape ``prove`` writes (else exit 2, not a crash)."""
    def bad(what: str, value: object) -> BadInput:
        return BadInput(f"the case file's proof is not readable: {what}", field="CASEFILE", value=value)

    if not all(isinstance(e, dict) and _is_int(e.get("seq")) for e in events):
        raise bad("an event is not an object with an integer seq", events[:1])
    entries = proof.get("events")
    if not isinstance(entries, list) or not all(
            isinstance(e, dict) and _is_int(e.get("seq")) and _is_int(e.get("leaf_index"))
            and isinstance(e.get("path"), list) and all(isinstance(p, str) for p in e["path"])
            for e in entries):
        raise bad("proof.events must be [{seq, leaf_index, path: [hex]}]", entries)
    later = proof.get("not_covered", [])
    if not isinstance(later, list) or not all(_is_int(s) for s in later):
        raise bad("proof.not_covered must be a list of seqs", later)


def check_proof(events: list[dict[str, Any]], proof: dict[str, Any], digest: Digest) -> ProofCheck:
    """Are the case file's events the ones under the published digest? Each
    event's hash is recomputed from its content, the chain is followed from
    seq 1, and each covered event's inclusion path must lead to the digest's root."""
    problems: list[str] = []
    stream = str(proof.get("stream"))
    if proof.get("format") != PROOF_FORMAT:
        problems.append(f"not a proof of format {PROOF_FORMAT}")
    if proof.get("tree_size") != digest.size:
        problems.append(f"the proof is for a log of {proof.get('tree_size')} events; the digest "
                        f"covers {digest.size}: ask for a proof under this digest")
    recomputed: dict[int, str] = {}
    prev, expected = GENESIS, 1
    for env in events:
        try:
            h = event_hash(env["stream"], env["seq"], env["id"], env["type"], env["v"], env["data"],
                           env["actor"], env["at"], env["causes"], env["law"], env["prev"])
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"an event of the case file is unreadable ({exc!r})")
            continue
        seq = env["seq"]
        if env["stream"] != stream:
            problems.append(f"seq {seq}: of stream {env['stream']!r}, not {stream!r}")
        if h != env.get("hash"):
            problems.append(f"seq {seq}: its content does not match its hash (changed)")
        if seq != expected:
            problems.append(f"seq {expected}: missing from the case file")
        elif env["prev"] != prev:
            problems.append(f"seq {seq}: prev does not match the hash of seq {seq - 1}")
        recomputed[seq] = h
        prev, expected = h, seq + 1
    covered = []
    for entry in proof.get("events", []):
        seq = entry.get("seq")
        if seq not in recomputed:
            problems.append(f"seq {seq}: in the proof but not in the case file")
            continue
        try:
            leaf = merkle.leaf_hash(recomputed[seq])
            path = [bytes.fromhex(p) for p in entry["path"]]
            root = merkle.root_from_inclusion(int(entry["leaf_index"]), digest.size, leaf, path)
        except (KeyError, TypeError, ValueError):
            root = None
        if root is None or not digest.matches(root):
            problems.append(f"seq {seq}: not in the published log (its inclusion proof does not lead "
                            "to the digest's root)")
        else:
            covered.append(seq)
    later = list(proof.get("not_covered", []))
    unproved = sorted(set(recomputed) - set(covered) - set(later)
                      - {e["seq"] for e in proof.get("events", [])})
    for seq in unproved:
        problems.append(f"seq {seq}: in the case file but neither proved nor declared appended "
                        "after the digest")
    if later and covered and min(later) < max(covered):
        problems.append("an event declared appended after the digest comes before a proved one")
    problems += _check_after_digest(proof, digest, [s for s in later if s in recomputed], recomputed)
    return ProofCheck(stream, tuple(covered), tuple(sorted(later)), tuple(problems))


def _check_after_digest(proof: dict[str, Any], digest: Digest, later: list[int],
                        recomputed: dict[int, str]) -> list[str]:
    """An event declared appended after the digest must be shown to be after it: the
    proof's later tree extends the digest (RFC 9162 consistency proof) and the event sits
    in that tree at a leaf index past the digest's size. Otherwise it is an event the
    digest may cover, and such an event must match its leaf: refused."""
    if not later:
        return []
    m = digest.size
    block = proof.get("after_digest")
    first = min(later)

    def refused(why: str) -> list[str]:
        return [f"seq {', '.join(map(str, sorted(later)))}: declared appended after the digest, but "
                f"{why}; an event inside the digest's {m} events must match its leaf, whatever the "
                f"file says of it (first such event: seq {first})"]

    if not isinstance(block, dict):
        return refused("the file carries nothing that places them after it")
    try:
        n = int(block["tree_size"])
        new_root = bytes.fromhex(block["root"])
        consistency = [bytes.fromhex(p) for p in block.get("consistency", [])]
        full = str(proof.get("digest", ""))
        old_root = bytes.fromhex(full.split(":", 1)[1]) if ":" in full else b""
        entries = {e["seq"]: (int(e["leaf_index"]), [bytes.fromhex(p) for p in e["path"]])
                   for e in block["events"]}
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return refused("its after_digest block is not readable")
    if n <= m:
        return refused(f"the later tree it names ({n} events) is not larger than the digest")
    if m > 0 and not (digest.matches(old_root) and len(old_root) == 32
                      and merkle.verify_consistency(m, n, old_root, new_root, consistency)):
        return refused("the later tree it names is not proved to extend the published digest")
    out = []
    last_index = m - 1
    for seq in sorted(later):
        entry = entries.get(seq)
        if entry is None:
            out.append(f"seq {seq}: declared appended after the digest but has no place in the later "
                       "tree: it may be an event the digest covers, rewritten")
            continue
        index, path = entry
        root = merkle.root_from_inclusion(index, n, merkle.leaf_hash(recomputed[seq]), path)
        if index < m:
            out.append(f"seq {seq}: its leaf {index} is inside the digest's {m} events: it must be "
                       "proved under the digest")
        elif root != new_root:
            out.append(f"seq {seq}: declared appended after the digest, but it is not the event at "
                       f"leaf {index} of the later tree (changed?)")
        elif index <= last_index:
            out.append(f"seq {seq}: its leaf {index} does not come after the previous event's")
        last_index = max(last_index, index)
    return out
