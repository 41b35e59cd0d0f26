"""Consistency proofs between two published tree heads (issue 28, item 3; RFC 9162
section 2.1.4): the tree of the older head is a prefix of the tree of the newer one,
so nothing the older head covered was changed, removed or reordered since.

* :func:`prove_consistency` (``cli.py consistency OLD NEW``): from the stored tree
  (O(log² n) stored nodes), after checking that both heads are heads of this store.
* :func:`check_consistency` (``cli.py check-consistency OLD NEW PROOF``): with no
  database, RFC 9162 2.1.4.2 over the proof's hashes and the two roots.

The proof is one JSON object (:data:`PROOF_FORMAT`):
``{format, old: {size, root}, new: {size, root}, proof: [hex, ...]}``.
"""

from __future__ import annotations

from typing import Any

from ledger.audit import merkle
from ledger.errors import BadInput, IntegrityError
from ledger.audit.merkle import Digest
from ledger.store.base import EventStore
from ledger.audit.transparency import stored_root

PROOF_FORMAT = "ledger-consistency-proof/1"


def _stored_subtrees(store: EventStore, m: int, n: int) -> merkle.Subtree:
    """The stored nodes the proof from ``m`` to ``n`` reads, fetched in one query."""
    keys = merkle.planned(lambda s: merkle.consistency_proof(m, n, s))
    nodes = store.tree_nodes(sorted(keys))
    if keys - set(nodes):
        raise IntegrityError(None, None, f"the Merkle tree lacks {len(keys - set(nodes))} stored node(s) "
                             "the proof needs (run verify)", kind="merkle")
    return merkle.subtree_from(nodes)


def prove_consistency(store: EventStore, old: Digest, new: Digest, tree_size: int | None = None) -> dict[str, Any]:
    """The RFC 9162 consistency proof from ``old`` to ``new``, both heads of this store's
    tree (``tree_size``: the size that may be published, default the stored tree's)."""
    if old.size > new.size:
        raise BadInput(f"OLD covers {old.size} events, NEW {new.size}: give the older head first",
                       field="OLD", value=str(old))
    size = store.tree_size() if tree_size is None else tree_size
    if new.size > size:
        raise IntegrityError(None, None, f"NEW covers {new.size} events; this store's tree holds {size} "
                             "(truncated, or NEW is not of this store)", kind="digest")
    roots = {}
    for name, head in (("OLD", old), ("NEW", new)):
        root = stored_root(store, head.size)
        if not head.matches(root):
            raise IntegrityError(None, None, f"{name} ({head.short()}) is not a head of this store's "
                                 f"tree: its first {head.size} leaves have another root (run verify "
                                 f"--digest)", kind="digest")
        roots[name] = root
    proof: list[bytes] = []
    if 0 < old.size < new.size:
        m, n = old.size, new.size
        proof = merkle.consistency_proof(m, n, _stored_subtrees(store, m, n))
    return {"format": PROOF_FORMAT,
            "old": {"size": old.size, "root": roots["OLD"].hex()},
            "new": {"size": new.size, "root": roots["NEW"].hex()},
            "proof": [p.hex() for p in proof]}


def _hex32(value: object, field: str) -> bytes:
    if isinstance(value, str) and len(value) == 64:
        try:
            return bytes.fromhex(value)
        except ValueError:
            pass
    raise BadInput("not a hash (64 hex digits)", field=field, value=value)


def read_proof(doc: object) -> tuple[Digest, Digest, list[bytes]]:
    """(old, new, proof hashes) of a proof document; BadInput naming the field when misshapen."""
    if not isinstance(doc, dict) or doc.get("format") != PROOF_FORMAT:
        raise BadInput(f"not a consistency proof of format {PROOF_FORMAT} (`cli.py consistency` writes one)",
                       field="PROOF.format", value=doc.get("format") if isinstance(doc, dict) else doc)
    heads = []
    for name in ("old", "new"):
        head = doc.get(name)
        if not isinstance(head, dict) or not isinstance(head.get("size"), int) \
                or isinstance(head.get("size"), bool) or head["size"] < 0:
            raise BadInput("must be {size, root}", field=f"PROOF.{name}", value=head)
        heads.append(Digest(head["size"], _hex32(head.get("root"), f"PROOF.{name}.root").hex()))
    hashes = doc.get("proof")
    if not isinstance(hashes, list):
        raise BadInput("must be a list of hashes", field="PROOF.proof", value=hashes)
    return heads[0], heads[1], [_hex32(h, f"PROOF.proof[{i}]") for i, h in enumerate(hashes)]


def check_consistency(old: Digest, new: Digest, doc: object) -> list[str]:
    """What is wrong (nothing: the proof shows the tree of ``old`` is a prefix of the tree of
    ``new``). ``old`` and ``new`` are the heads as published (a short form checks 64 bits
    of its root against the proof's full root)."""
    p_old, p_new, proof = read_proof(doc)
    problems = []
    for name, given, carried in (("OLD", old, p_old), ("NEW", new, p_new)):
        if given.size != carried.size or not given.matches(bytes.fromhex(carried.root)):
            problems.append(f"the proof is between other heads: its {name.lower()} head is "
                            f"{carried.short()}, {name} is {given.short()}")
    if problems:
        return problems
    m, n = p_old.size, p_new.size
    old_root, new_root = bytes.fromhex(p_old.root), bytes.fromhex(p_new.root)
    if m > n:
        ok = False
    elif m == 0:  # the empty tree is a prefix of every tree: nothing to prove
        ok = old_root == merkle.EMPTY_ROOT and not proof
    else:
        ok = merkle.verify_consistency(m, n, old_root, new_root, proof)
    if not ok:
        problems.append(f"the proof does not show that the log of {m} events ({p_old.short()}) is a "
                        f"prefix of the log of {n} events ({p_new.short()}): an event the older head "
                        "covered was changed, removed or moved, or the proof was altered")
    return problems
