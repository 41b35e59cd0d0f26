"""The event store's interface: what the rest of the ledger uses.

The core (``ledger.service``, ``projections``) imports only this module; the
SQLAlchemy adapter lives in ``ledger.store.sql``.

Contract (tested by ``tests/test_store_contract.py`` on every backend):

* ``transaction(stream)`` opens one database transaction for one stream and
  takes the locks the backend needs so that, until it commits or rolls back,
  no other writer can append to that stream (SQLite: ``BEGIN IMMEDIATE``;
  PostgreSQL: the stream's advisory lock, which also covers a stream that
  does not exist yet).
* ``StoreTransaction.insert(events)`` writes a batch whose ``seq``, ``prev``
  and ``hash`` the caller has computed; the store assigns ``position`` only.
  Positions are store-wide and strictly increasing in *commit* order: a reader
  that asks for ``position > last_seen`` never misses an event committed later
  (PostgreSQL: a transaction-scoped advisory lock is held from the insert to
  the commit, so positions are handed out in commit order).
* A duplicate ``(stream, seq)`` or ``(stream, id)`` from a concurrent writer
  is raised as :class:`ledger.errors.ConcurrencyError`.
* Nothing is ever updated or deleted in the event table; the database's own
  triggers refuse it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol, Sequence, TypeGuard, runtime_checkable

import attrs

if TYPE_CHECKING:  # the core imports no SQLAlchemy: only the roles of the SQL store name its types
    from sqlalchemy.engine import Connection, Engine

GENESIS = "0" * 64


@attrs.frozen
class Actor:
    """Who appended an event: a role of spec section 6 and a free name."""

    role: str
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "name": self.name}


@attrs.frozen
class StoredEvent:
    """One event as stored, with its envelope (spec section 2)."""

    stream: str
    seq: int
    id: str
    type: str
    v: int
    data: dict[str, Any]
    actor: Actor
    at: str
    causes: tuple[int, ...]
    law: str | None
    prev: str
    hash: str
    position: int | None = None  # assigned by the store on insert
    data_json: str | None = attrs.field(default=None, eq=False, repr=False)
    """The ``data`` column's text as the store read it (None for an event not read from a
    row): with ``type`` and ``v``, the key of the decoded-event cache (``ledger.service.decode``),
    which holds the typed event of that very text. Not part of the event (no comparison)."""

    def envelope(self) -> dict[str, Any]:
        """The JSON object ``log --json`` prints (key order as in the spec)."""
        return {
            "stream": self.stream, "seq": self.seq, "position": self.position,
            "id": self.id, "type": self.type, "v": self.v, "data": self.data,
            "actor": self.actor.to_json(), "at": self.at,
            "causes": list(self.causes), "law": self.law,
            "prev": self.prev, "hash": self.hash,
        }


@attrs.frozen
class Snapshot:
    """The folded state of a stream after ``seq`` (whose event has ``hash``),
    saved every N events and at the end of a board so that no state is ever
    refolded from seq 1. A cache: rebuilt from the events whenever ``version``
    is not the projection's current version. ``summary`` (revision 0007): what a
    tournament's results need of the board at ``seq`` (``ledger.summaries``), saved
    by the same statement; None when none was computed (rows written before 0007)."""

    stream: str
    seq: int
    hash: str
    version: int
    state: dict[str, Any]
    summary: dict[str, Any] | None = None


@attrs.frozen
class RawEvent:
    """One row of the event table exactly as stored, nothing decoded (``verify``
    reads these so that a row whose JSON was damaged is reported, not raised).
    Values are whatever the database holds: a tampered row may carry any type."""

    position: Any
    stream: Any
    seq: Any
    id: Any
    type: Any
    v: Any
    data: Any
    actor_role: Any
    actor_name: Any
    at: Any
    causes: Any
    law: Any
    prev: Any
    hash: Any


@attrs.frozen
class Head:
    """A row of the stream heads: the (seq, hash) recorded with the last append."""

    stream: Any
    seq: Any
    hash: Any


class StoreTransaction(Protocol):
    stream: str

    def head(self) -> tuple[int, str]:
        """(seq, hash) of the stream's last event; (0, GENESIS) when empty."""

    def find_ids(self, ids: Sequence[str]) -> dict[str, StoredEvent]:
        """The stored events of this stream whose id is in ``ids``."""

    def read(self, after_seq: int = 0) -> list[StoredEvent]:
        """The stream's events with seq > after_seq, in seq order."""

    def load_snapshot(self) -> Snapshot | None:
        """The snapshot at the head, if one was saved there."""

    def latest_snapshot(self) -> Snapshot | None:
        """The last snapshot saved for the stream, whatever its seq."""

    def insert(self, events: Sequence[StoredEvent]) -> list[StoredEvent]:
        """Write the batch; return the events with their positions."""

    def save_snapshot(self, snapshot: Snapshot) -> None:
        ...


# --- the store by role ---------------------------------------------------------------
# ``EventStore`` is what every store is: a reader, a writer and the Merkle tree's reader.
# The roles below it are capabilities a store may have (the SQL store has them all); code
# that uses one asks with ``isinstance(store, Role)`` (runtime-checkable), so that mypy
# checks the call instead of a ``getattr`` returning ``Any``.

class StoreReader(Protocol):
    """The log's reads (spec section 2): streams, events, heads, raw rows, snapshots."""

    url: str

    def read(self, stream: str, upto_seq: int | None = None) -> list[StoredEvent]:
        ...

    def iter_all(self, after_position: int = 0, batch: int = 1000) -> Iterator[StoredEvent]:
        """Every event of the store with position > after_position, in position order."""

    def streams(self, prefix: str | None = None) -> list[str]:
        ...

    def last_position(self) -> int:
        """The position of the newest event (0 when the store is empty)."""

    def iter_raw(self, after_position: int = 0, batch: int = 1000,
                 stream: str | None = None) -> Iterator[RawEvent]:
        """Every row (of ``stream`` when given) as stored, undecoded, in position order."""

    def heads(self, stream: str | None = None) -> list[Head]:
        """The stored stream heads (of ``stream`` when given)."""

    def load_snapshot(self, stream: str) -> Snapshot | None:
        """The snapshot at the stream's head, if one was saved there."""

    def latest_snapshot(self, stream: str) -> Snapshot | None:
        """The last snapshot saved for the stream, whatever its seq."""

    def read_after(self, stream: str, after_seq: int, upto_seq: int | None = None) -> list[StoredEvent]:
        """The stream's events with ``after_seq < seq <= upto_seq``, in seq order."""


class StoreWriter(Protocol):
    """The one append path's store side: a stream's transaction (the contract above)."""

    def transaction(self, stream: str) -> AbstractContextManager[StoreTransaction]:
        """Commit on normal exit, roll back on exception."""

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Outside an append (``rebuild``): replace the stream's snapshot (unless a later one is saved)."""

    def close(self) -> None:
        ...


class TreeReader(Protocol):
    """The Merkle tree's stored rows (``verify``, proofs, digests: ``ledger.audit``)."""

    def tree_size(self) -> int:
        """How many leaves the tree has."""

    def tree_nodes(self, keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        """Stored perfect subtrees by (level, index) (level 0: the leaves); those missing are absent."""

    def leaf_indexes(self, positions: Sequence[int]) -> dict[int, int]:
        """The leaf index of each event position that has one."""

    def iter_tree(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Every stored leaf (leaf_index, position, hash, stream, seq) and node (level, index, hash)."""


class EventStore(StoreReader, StoreWriter, TreeReader, Protocol):
    """A ledger's store: every role every store has."""


@runtime_checkable
class BoardIndexing(Protocol):
    """A stream transaction that records its board in the store's index (revision 0005)."""

    def index_board(self, tournament: str, slug: str) -> None:
        ...


@runtime_checkable
class BoardIndex(Protocol):
    """A store with the index of boards: (stream, tournament) by tournament slug."""

    def boards(self, slug: str | None = None) -> list[tuple[str, str]]:
        ...


@runtime_checkable
class BoardSummaries(Protocol):
    """A store that keeps a results summary with each snapshot (revision 0007)."""

    def board_summaries(self, slug: str | None, version: int) -> list[tuple[str, str, dict[str, Any] | None]]:
        """(stream, tournament, summary) of every indexed board (of the tournament
        ``slug`` when given), by stream: the summary saved with the snapshot at the
        stream's head when that snapshot has ``version``, else None (fold the board)."""


@runtime_checkable
class AppealIndex(Protocol):
    """A store that indexes the events lodging an appeal (revision 0007)."""

    def appealed_streams(self) -> list[str]:
        """The streams with an ``AppealLodged`` event, sorted: one indexed query, in the time
        of the appeals stored, not of the store."""


class StagedRows(Protocol):
    """A deferred batch's rows once written: every event's position by (stream, seq)."""

    positions: dict[tuple[str, int], int]


@runtime_checkable
class Batching(Protocol):
    """A store with batches: many stream transactions in one database transaction
    (an import, a group commit); ``deferred`` rows are written together at the end."""

    def batch(self, streams: Iterable[str] | None = None, *,
              deferred: bool = False) -> AbstractContextManager[StagedRows | None]:
        ...


@runtime_checkable
class SqlBacked(Protocol):
    """A store over a SQLAlchemy engine (its dialect: one writer on SQLite)."""

    engine: Engine


@runtime_checkable
class TreeIntegration(SqlBacked, EventStore, Protocol):
    """A store whose tree may be integrated behind the log (revision 0006,
    ``ledger.store.integrator``): its flag, and its write transaction."""

    integrate_behind: bool

    def writing(self) -> AbstractContextManager[Connection]:
        ...


@runtime_checkable
class Warming(Protocol):
    """A store that can open, ahead of the first requests, the connections they need."""

    def warm(self, readers: int = 4) -> int:
        ...


def integrated_behind(store: object) -> TypeGuard[TreeIntegration]:
    """Is ``store``'s tree integrated behind the log (issue 28)? False for a store without."""
    return isinstance(store, TreeIntegration) and store.integrate_behind
