"""The Merkle tree's rows in the event store: reading the tree, extending it by a batch.

Every event is a leaf of the tree (``ledger.audit.merkle`` computes the hashes); the
store keeps the leaves (``merkle_leaves``) and the perfect subtrees they complete
(``merkle_nodes``). An append extends the tree from its frontier in the append's
transaction (SQLite: from the last leaf, or the tip this store committed; PostgreSQL:
the size and frontier read in the insert's pipeline), or the integrator extends it
behind the log (revision 0006, ``ledger.store.integrator``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ledger.audit import merkle
from ledger.errors import IntegrityError
from ledger.store.base import StoredEvent
from ledger.store.schema import merkle_leaves, merkle_nodes

#: The rows of the leaves (leaf_index, position, stream, seq, hash) and nodes (level, index, hash).
TreeRows = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]

def _tree_size(conn: Connection) -> int:
    last = conn.execute(sa.select(sa.func.max(merkle_leaves.c.leaf_index))).scalar()
    return 0 if last is None else int(last) + 1


def stored_nodes(conn: Connection, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """Stored perfect subtrees by (level, index); level 0 are the leaves."""
    found: dict[tuple[int, int], bytes] = {}
    leaves = [i for level, i in keys if level == 0]
    uppers = [(level, i) for level, i in keys if level > 0]
    if leaves:
        rows = conn.execute(sa.select(merkle_leaves.c.leaf_index, merkle_leaves.c.hash)
                            .where(merkle_leaves.c.leaf_index.in_(leaves)))
        found.update({(0, int(i)): bytes.fromhex(h) for i, h in rows})
    if uppers:
        node_rows = conn.execute(sa.select(merkle_nodes.c.level, merkle_nodes.c.node_index, merkle_nodes.c.hash)
                                 .where(sa.tuple_(merkle_nodes.c.level, merkle_nodes.c.node_index).in_(uppers)))
        found.update({(int(level), int(i)): bytes.fromhex(h) for level, i, h in node_rows})
    return found


@attrs.frozen
class TreeTip:
    """The tree's last leaf and frontier after a committed append. The tree is
    append-only, so the committed tree whose last leaf is ``last_leaf`` at
    ``size`` has exactly this frontier: a writer that finds it unchanged reads
    no node (one query per append instead of three)."""

    size: int
    last_leaf: str
    frontier: dict[tuple[int, int], bytes]


def tree_rows(batch: Sequence[StoredEvent], positions: Sequence[int], known: TreeTip | None,
               nodes_of: Callable[[Sequence[tuple[int, int]]], dict[tuple[int, int], bytes]],
               row: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], TreeTip]:
    """The batch's leaves and the perfect subtrees they complete, as rows, and the
    new tip (the caller holds the store-wide write order: SQLite's write lock,
    PostgreSQL's position lock). ``row``: the tree's last leaf (index, hash) or
    None; ``nodes_of(keys)`` reads stored nodes (only when the tree moved since
    ``known``)."""
    size, last = (0, "") if row is None else (int(row[0]) + 1, row[1])
    if known is not None and (known.size, known.last_leaf) == (size, last):
        frontier = known.frontier
    else:
        frontier = nodes_of(merkle.frontier_keys(size))
    return grown_tree(batch, positions, size, frontier)


def frontier_of(rows: Sequence[Sequence[Any]]) -> tuple[int, dict[tuple[int, int], bytes]]:
    """PostgreSQL: the size and frontier read by :attr:`ledger.store.statements.Statements.frontier`."""
    if not rows:
        return 0, {}
    size = int(rows[0][0])
    frontier = {(int(level), int(i)): bytes.fromhex(h) for _n, level, i, h in rows if h is not None}
    if len(frontier) != len(merkle.frontier_keys(size)):
        missing = sorted(set(merkle.frontier_keys(size)) - set(frontier))
        raise IntegrityError(None, None, f"the Merkle tree of {size} leaves lacks the nodes {missing}; "
                             "run `python cli.py verify`", kind="merkle")
    return size, frontier


def grown_tree(batch: Sequence[StoredEvent], positions: Sequence[int], size: int,
                frontier: dict[tuple[int, int], bytes]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], TreeTip]:
    """The batch's leaves and nodes as rows, and the new tip, from the tree's size and frontier."""
    leaf_hash = merkle.leaf_hash
    written, grown = merkle.grow(size, frontier, [leaf_hash(ev.hash) for ev in batch])
    leaves = []
    nodes = []
    for level, i, h in written:
        if level == 0:
            ev = batch[i - size]
            leaves.append((i, positions[i - size], ev.stream, ev.seq, h.hex()))
        else:
            nodes.append((level, i, h.hex()))
    return leaves, nodes, TreeTip(size + len(batch), leaves[-1][4], grown)


class TreeReads:
    """The store's reads of the tree (``verify``, ``prove``, the transparency log): each
    in a read transaction of the store (:meth:`ledger.store.sql.SqlEventStore._begin`)."""

    if TYPE_CHECKING:
        def _begin(self, *, write: bool = False) -> AbstractContextManager[Connection]: ...

    def tree_size(self) -> int:
        """How many leaves the Merkle tree has (one per event)."""
        with self._begin() as conn:
            return _tree_size(conn)

    def tree_nodes(self, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        """Stored perfect subtrees by (level, index) (level 0: the leaves); those missing are absent."""
        with self._begin() as conn:
            return stored_nodes(conn, list(keys))

    def leaf_indexes(self, positions: Sequence[int]) -> dict[int, int]:
        """The leaf index of each event position that has one."""
        with self._begin() as conn:
            rows = conn.execute(sa.select(merkle_leaves.c.position, merkle_leaves.c.leaf_index)
                                .where(merkle_leaves.c.position.in_(list(positions))))
            return {int(p): int(i) for p, i in rows}

    def iter_tree(self) -> TreeRows:
        """Every stored leaf (leaf_index, position, hash, stream, seq) and node (level, index,
        hash), as stored, in order (``verify`` checks them)."""
        with self._begin() as conn:
            leaves = [tuple(r) for r in conn.execute(
                sa.select(merkle_leaves.c.leaf_index, merkle_leaves.c.position, merkle_leaves.c.hash,
                          merkle_leaves.c.stream, merkle_leaves.c.seq)
                .order_by(merkle_leaves.c.leaf_index))]
            nodes = [tuple(r) for r in conn.execute(
                sa.select(merkle_nodes.c.level, merkle_nodes.c.node_index, merkle_nodes.c.hash)
                .order_by(merkle_nodes.c.level, merkle_nodes.c.node_index))]
        return leaves, nodes
