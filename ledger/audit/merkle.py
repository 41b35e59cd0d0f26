"""The Merkle tree over the store-wide log (RFC 9162, section 2.1), its
digests and proofs. Pure functions: the store keeps the nodes
(``ledger.store.sql``), this module computes them.

* **Leaves.** Leaf ``i`` is the ``i``-th event of the log in position order
  (0-based); its input is the event's 32-byte SHA-256 chain hash (which covers
  the whole canonical event, ``ledger.hashing``):
  ``leaf = SHA-256(0x00 || event_hash)``.
* **Nodes.** ``node = SHA-256(0x01 || left || right)``; the tree of ``n``
  leaves is RFC 9162's MTH: the left subtree is the largest power of two
  smaller than ``n``. The empty tree's root is ``SHA-256("")``. The two
  prefixes (domain separation) make a leaf never readable as a node.
* **Kept incrementally.** The store keeps every leaf and every *perfect*
  subtree (``level`` k, ``index`` j: the 2^k leaves from j·2^k), written in
  the append's own transaction: an append of one event adds one leaf and on
  average one node (at most log2 n), reading only the "frontier" (one node per
  set bit of the size). Any root, inclusion or consistency proof is then made
  of O(log² n) stored nodes, never a recomputation of the tree.
* **Digest** ``SIZE:ROOT`` (64 hex digits): what a director publishes. Its
  short form ``SIZE-XXXX-XXXX-XXXX-XXXX`` (the root's first 64 bits) is for
  reading out and printing; both are accepted wherever a digest is asked for
  (the short form checks 64 bits of the root).
"""

from __future__ import annotations

import hashlib
import re
from hashlib import sha256
from typing import Callable, Iterable, Sequence

import attrs

from ledger.errors import BadInput

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()

Subtree = Callable[[int, int], bytes]
"""``subtree(a, b)``: MTH of the leaves a .. b-1."""


def leaf_hash(event_hash: str) -> bytes:
    """The leaf of an event, from its hex chain hash."""
    return hashlib.sha256(LEAF_PREFIX + bytes.fromhex(event_hash)).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def largest_power_of_two_below(n: int) -> int:
    """k with k < n <= 2k (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


# --- the tree from its leaves, and from its perfect subtrees ----------------------

def root_of(leaves: Sequence[bytes]) -> bytes:
    """MTH of a list of leaf hashes (iteratively: a stack of perfect subtrees)."""
    if not leaves:
        return EMPTY_ROOT
    return fold_perfect(perfect_nodes(leaves, len(leaves)))


def perfect_ranges(a: int, b: int) -> list[tuple[int, int]]:
    """The perfect subtrees (level, index) that make up leaves a .. b-1, left to
    right, when a is aligned as in every MTH subtree (a multiple of the
    smallest power of two >= b - a, or 0)."""
    out = []
    while a < b:
        level = (b - a).bit_length() - 1
        while a % (1 << level):
            level -= 1
        out.append((level, a >> level))
        a += 1 << level
    return out


def fold_perfect(hashes: Sequence[bytes]) -> bytes:
    """MTH from the perfect subtrees of a range, left to right (the right-most
    pairs first, as RFC 9162's split puts the largest power of two on the left)."""
    root = hashes[-1]
    for h in reversed(hashes[:-1]):
        root = node_hash(h, root)
    return root


def perfect_nodes(leaves: Sequence[bytes], size: int) -> list[bytes]:
    """The frontier of the first ``size`` leaves: one perfect subtree per set bit."""
    out = []
    for level, index in perfect_ranges(0, size):
        out.append(_perfect(leaves, level, index))
    return out


def _perfect(leaves: Sequence[bytes], level: int, index: int) -> bytes:
    width = 1 << level
    row = list(leaves[index * width:(index + 1) * width])
    while len(row) > 1:
        row = [node_hash(row[i], row[i + 1]) for i in range(0, len(row), 2)]
    return row[0]


def frontier_keys(size: int) -> list[tuple[int, int]]:
    """(level, index) of the perfect subtrees a tree of ``size`` leaves ends with."""
    return perfect_ranges(0, size)


def extend(size: int, frontier: dict[tuple[int, int], bytes],
           new_leaves: Iterable[bytes]) -> list[tuple[int, int, bytes]]:
    """Append leaves to a tree of ``size`` leaves whose frontier is given; the
    new perfect subtrees to store, (level, index, hash), leaves (level 0) included."""
    nodes = dict(frontier)
    written = []
    for i, leaf in enumerate(new_leaves, start=size):
        nodes[(0, i)] = leaf
        written.append((0, i, leaf))
        level, j = 0, i
        while j & 1:
            parent = node_hash(nodes[(level, j - 1)], nodes[(level, j)])
            level, j = level + 1, j >> 1
            nodes[(level, j)] = parent
            written.append((level, j, parent))
    return written


def grow(size: int, frontier: dict[tuple[int, int], bytes], new_leaves: Iterable[bytes]
         ) -> tuple[list[tuple[int, int, bytes]], dict[tuple[int, int], bytes]]:
    """:func:`extend` and the new tree's frontier at once (the append path): each leaf takes
    the left siblings it completes out of the frontier and leaves its top node in it, so the
    frontier of ``size + len(new_leaves)`` is what remains, with no recomputation."""
    nodes = dict(frontier)
    written = []
    i = size
    for leaf in new_leaves:
        written.append((0, i, leaf))
        top, level, j = leaf, 0, i
        while j & 1:
            top = sha256(NODE_PREFIX + nodes.pop((level, j - 1)) + top).digest()
            level, j = level + 1, j >> 1
            written.append((level, j, top))
        nodes[(level, j)] = top
        i += 1
    return written, nodes


def all_perfect(leaves: Sequence[bytes]) -> dict[tuple[int, int], bytes]:
    """Every perfect subtree of the leaves (what the store should hold), leaves included."""
    out = {(0, i): h for i, h in enumerate(leaves)}
    row, level = list(leaves), 0
    while len(row) > 1:
        row = [node_hash(row[i], row[i + 1]) for i in range(0, len(row) - 1, 2)]
        level += 1
        out.update({(level, j): h for j, h in enumerate(row)})
    return out


# --- proofs (RFC 9162 2.1.3.1 and 2.1.4.1), over any source of subtrees -----------

def inclusion_path(index: int, size: int, subtree: Subtree) -> list[bytes]:
    """PATH(m, D[n]) of RFC 9162 2.1.3.1: the audit path of leaf ``index``."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    path: list[bytes] = []

    def walk(m: int, a: int, b: int) -> None:
        if b - a == 1:
            return
        k = largest_power_of_two_below(b - a)
        if m < k:
            walk(m, a, a + k)
            path.append(subtree(a + k, b))
        else:
            walk(m - k, a + k, b)
            path.append(subtree(a, a + k))

    walk(index, 0, size)
    return path


def consistency_proof(old: int, new: int, subtree: Subtree) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 2.1.4.1: the old tree is a prefix of the new."""
    if not 0 < old <= new:
        raise ValueError(f"no consistency proof from size {old} to {new}")
    proof: list[bytes] = []

    def sub(m: int, a: int, b: int, whole: bool) -> None:
        n = b - a
        if m == n:
            if not whole:
                proof.append(subtree(a, b))
            return
        k = largest_power_of_two_below(n)
        if m <= k:
            sub(m, a, a + k, whole)
            proof.append(subtree(a + k, b))
        else:
            sub(m - k, a + k, b, False)
            proof.append(subtree(a, a + k))

    sub(old, 0, new, True)
    return proof


def planned(proof: Callable[[Subtree], object]) -> set[tuple[int, int]]:
    """The perfect subtrees a proof will read (to fetch them in one query)."""
    keys: set[tuple[int, int]] = set()

    def record(a: int, b: int) -> bytes:
        keys.update(perfect_ranges(a, b))
        return b""

    proof(record)
    return keys


def subtree_from(nodes: dict[tuple[int, int], bytes]) -> Subtree:
    """``subtree(a, b)`` from stored perfect subtrees."""
    def subtree(a: int, b: int) -> bytes:
        return fold_perfect([nodes[key] for key in perfect_ranges(a, b)])
    return subtree


# --- verification (RFC 9162 2.1.3.2 and 2.1.4.2) ----------------------------------

def root_from_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes]) -> bytes | None:
    """The root that ``path`` proves ``leaf`` at ``index`` is under; None when the
    path does not fit a tree of ``size`` (RFC 9162 2.1.3.2)."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def verify_consistency(old: int, new: int, old_root: bytes, new_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: does ``proof`` show the tree of ``old`` leaves (``old_root``)
    is a prefix of the tree of ``new`` leaves (``new_root``)?"""
    if old == new:
        return not proof and old_root == new_root
    if not 0 < old < new or not proof:
        return False
    proof = list(proof)
    if old & (old - 1) == 0:  # a power of two: the old root is the first node
        proof = [old_root] + proof
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0


# --- digests ------------------------------------------------------------------------

_FULL = re.compile(r"^(\d{1,19}):([0-9a-fA-F]{64})$")
_SHORT = re.compile(r"^(\d{1,19})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})$")


@attrs.frozen
class Digest:
    """A published tree head: ``size`` leaves and the root (or, in the short
    form, the root's first 16 hex digits)."""

    size: int
    root: str  # lower-case hex: 64 digits, or 16 for the short form

    @property
    def full(self) -> bool:
        return len(self.root) == 64

    def __str__(self) -> str:
        return f"{self.size}:{self.root}" if self.full else self.short()

    def short(self) -> str:
        r = self.root.upper()
        return f"{self.size}-{r[0:4]}-{r[4:8]}-{r[8:12]}-{r[12:16]}"

    def matches(self, root: bytes) -> bool:
        """Is ``root`` this digest's root (its first 64 bits for the short form)?"""
        return root.hex().startswith(self.root)

    @classmethod
    def parse(cls, text: str) -> "Digest":
        value = text.strip()
        full = _FULL.match(value)
        if full:
            return cls(int(full.group(1)), full.group(2).lower())
        short = _SHORT.match(value)
        if short:
            return cls(int(short.group(1)), "".join(short.groups()[1:]).lower())
        raise BadInput("a digest is SIZE:ROOT (64 hex digits) as `cli.py digest` prints it, or its "
                       "short form SIZE-XXXX-XXXX-XXXX-XXXX", field="--digest", value=text)
