"""The Merkle tree of ``ledger.audit.merkle`` against RFC 9162 (section 2.1): the
reference algorithms below are the RFC's recursive definitions, written
directly over lists of leaves; Hypothesis compares them with the ledger's
incremental tree and its proofs over logs of many sizes."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

from ledger.audit import merkle
from ledger.errors import BadInput


# --- RFC 9162 2.1.1, 2.1.3.1, 2.1.4.1, as written there -------------------------------

def rfc_mth(d: list[bytes]) -> bytes:
    """MTH(D[n]) over the *entries* (not yet hashed)."""
    n = len(d)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + d[0]).digest()
    k = 1
    while k * 2 < n:
        k *= 2
    return hashlib.sha256(b"\x01" + rfc_mth(d[:k]) + rfc_mth(d[k:])).digest()


def rfc_path(m: int, d: list[bytes]) -> list[bytes]:
    n = len(d)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return rfc_path(m, d[:k]) + [rfc_mth(d[k:])]
    return rfc_path(m - k, d[k:]) + [rfc_mth(d[:k])]


def rfc_subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    n = len(d)
    if m == n:
        return [] if b else [rfc_mth(d)]
    k = 1
    while k * 2 < n:
        k *= 2
    if m <= k:
        return rfc_subproof(m, d[:k], b) + [rfc_mth(d[k:])]
    return rfc_subproof(m - k, d[k:], False) + [rfc_mth(d[:k])]


def rfc_proof(m: int, d: list[bytes]) -> list[bytes]:
    return rfc_subproof(m, d, True)


# --- the ledger's tree, built incrementally as the store builds it --------------------

def entries(n: int, salt: int = 0) -> list[bytes]:
    """n event hashes (32 bytes each)."""
    return [hashlib.sha256(f"{salt}/{i}".encode()).digest() for i in range(n)]


def incremental(d: list[bytes], batches: list[int]) -> dict[tuple[int, int], bytes]:
    """Stored nodes after appending ``d`` in batches of the given sizes."""
    stored: dict[tuple[int, int], bytes] = {}
    size = 0
    cuts = []
    for b in batches:
        if size + b > len(d):
            break
        cuts.append(b)
        size += b
    cuts.append(len(d) - size)
    size = 0
    for b in cuts:
        frontier = {k: stored[k] for k in merkle.frontier_keys(size)}
        for level, index, h in merkle.extend(size, frontier, [merkle.leaf_hash(x.hex()) for x in d[size:size + b]]):
            assert (level, index) not in stored, "a stored node is never written twice"
            stored[(level, index)] = h
        size += b
    return stored


sizes = st.integers(min_value=1, max_value=300)


@settings(max_examples=150, deadline=None)
@given(n=sizes, batches=st.lists(st.integers(min_value=1, max_value=40), max_size=20), data=st.data())
def test_incremental_tree_roots_and_proofs_equal_the_rfc_over_many_sizes(n, batches, data):
    d = entries(n)
    stored = incremental(d, batches)
    leaves = [merkle.leaf_hash(x.hex()) for x in d]
    assert stored == merkle.all_perfect(leaves)
    subtree = merkle.subtree_from(stored)
    m = data.draw(st.integers(min_value=1, max_value=n), label="old size")
    index = data.draw(st.integers(min_value=0, max_value=n - 1), label="leaf")
    # roots of every prefix the proofs use
    assert subtree(0, n) == rfc_mth(d) == merkle.root_of(leaves)
    assert subtree(0, m) == rfc_mth(d[:m])
    # inclusion (2.1.3.1), verified as 2.1.3.2 says
    path = merkle.inclusion_path(index, n, subtree)
    assert path == rfc_path(index, d)
    assert merkle.root_from_inclusion(index, n, leaves[index], path) == rfc_mth(d)
    # consistency (2.1.4.1), verified as 2.1.4.2 says
    proof = merkle.consistency_proof(m, n, subtree)
    assert proof == rfc_proof(m, d)
    assert merkle.verify_consistency(m, n, rfc_mth(d[:m]), rfc_mth(d), proof)
    # the proof reads only the nodes planned for it
    assert merkle.planned(lambda s: merkle.consistency_proof(m, n, s)) <= set(stored)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(min_value=2, max_value=200), data=st.data())
def test_a_changed_leaf_a_truncation_or_a_forged_proof_fails_verification(n, data):
    d = entries(n)
    m = data.draw(st.integers(min_value=1, max_value=n - 1))
    old_root = rfc_mth(d[:m])
    # a log that rewrote one of the first m entries is not consistent with the old root
    changed = data.draw(st.integers(min_value=0, max_value=m - 1))
    rewritten = list(d)
    rewritten[changed] = hashlib.sha256(b"forged").digest()
    forged_tree = merkle.subtree_from(merkle.all_perfect([merkle.leaf_hash(x.hex()) for x in rewritten]))
    proof = merkle.consistency_proof(m, n, forged_tree)
    assert not merkle.verify_consistency(m, n, old_root, rfc_mth(rewritten), proof)
    # an honest proof does not verify against another new root, nor a flipped bit
    honest = rfc_proof(m, d)
    assert not merkle.verify_consistency(m, n, old_root, rfc_mth(d[:-1] + [b"x"]), honest)
    if honest:
        i = data.draw(st.integers(min_value=0, max_value=len(honest) - 1))
        flipped = list(honest)
        flipped[i] = bytes([flipped[i][0] ^ 1]) + flipped[i][1:]
        assert not merkle.verify_consistency(m, n, old_root, rfc_mth(d), flipped)
    # an inclusion proof for another leaf or another index does not give the root
    index = data.draw(st.integers(min_value=0, max_value=n - 1))
    path = rfc_path(index, d)
    leaf = merkle.leaf_hash(d[index].hex())
    assert merkle.root_from_inclusion(index, n, leaf, path) == rfc_mth(d)
    assert merkle.root_from_inclusion(index, n, merkle.leaf_hash(b'\x01'.hex() * 32), path) != rfc_mth(d)
    other = (index + 1) % n
    assert merkle.root_from_inclusion(other, n, leaf, path) != rfc_mth(d)


def test_domain_separation_a_leaf_is_never_a_node():
    a, b = entries(2)
    node = merkle.node_hash(merkle.leaf_hash(a.hex()), merkle.leaf_hash(b.hex()))
    assert merkle.leaf_hash(a.hex()) != hashlib.sha256(a).digest()
    assert node != hashlib.sha256(merkle.leaf_hash(a.hex()) + merkle.leaf_hash(b.hex())).digest()
    assert merkle.root_of([]) == hashlib.sha256(b"").digest()


def test_digest_full_and_short_forms_parse_and_match():
    root = hashlib.sha256(b"r").digest()
    full = merkle.Digest(12, root.hex())
    assert merkle.Digest.parse(str(full)) == full
    short = merkle.Digest.parse(full.short())
    assert short.size == 12 and not short.full and short.matches(root)
    assert not short.matches(hashlib.sha256(b"s").digest())
    for bad in ("12", "x:" + root.hex(), "12:" + root.hex()[:-1], "12-ABCD-EF"):
        with pytest.raises(BadInput, match="a digest is SIZE:ROOT"):
            merkle.Digest.parse(bad)
