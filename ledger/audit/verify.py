"""``verify``: everything stored is checked, every break is named, nothing raises.

The rows are read as stored (:meth:`EventStore.iter_raw`), undecoded, so that a
row whose JSON was damaged is reported like any other break. What is checked:

* each row: its columns have the types they must have, ``data`` and
  ``causes`` are JSON in canonical form, and ``hash`` is the SHA-256 of its
  content (``undecodable``, ``not_canonical``, ``content``);
* each stream, in seq order: seqs gap-free from 1 (``missing``, a range),
  each ``prev`` the previous event's hash (``prev``), positions strictly
  increasing with the seq (``order``: rows swapped or renumbered);
* what surrounds the chains: every stored head equal to its stream's last
  event (``head``: a stale head is what a truncated stream leaves behind), a
  head without events (``deleted``), events without a head (``no_head``);
* the Merkle tree kept beside the log (``ledger.audit.merkle``): one leaf per event,
  in position order, each leaf the hash of its event's content, every stored
  node the hash of its children (``merkle``).

Every stream is reported, not only the first that breaks; each break names the
stream and the seq (or the range of seqs, or the position), and its kind.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Iterable

import attrs

from ledger import damage
from ledger.audit import merkle
from ledger.errors import IntegrityError, StreamNotFound
from ledger.hashing import canonical_json, hash_of
from ledger.store.base import GENESIS, Actor, EventStore, RawEvent, StoredEvent, TreeReader, integrated_behind

KINDS = ("damaged", "unreadable", "undecodable", "not_canonical", "content", "missing", "duplicate", "prev",
         "order", "head", "deleted", "no_head", "merkle", "digest")

_TEXT = ("stream", "id", "type", "actor_role", "at", "prev", "hash", "data", "causes")
_OPTIONAL_TEXT = ("actor_name", "law")


@attrs.frozen
class Report:
    """What ``verify`` found: the breaks, and how much it looked at."""

    problems: tuple[IntegrityError, ...]
    streams: int
    events: int

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def broken_streams(self) -> list[str]:
        return sorted({p.stream for p in self.problems if isinstance(p.stream, str)})


@attrs.frozen
class _Row:
    """A row that could be placed in its stream's chain (stream and seq readable)."""

    stream: str
    seq: int
    position: int
    prev: Any
    hash: Any
    event: StoredEvent | None  # None when its content could not be decoded


def decode_row(raw: RawEvent) -> tuple[StoredEvent | None, list[IntegrityError]]:
    """The event a row holds, and what is wrong with the row (never raises)."""
    stream = raw.stream if isinstance(raw.stream, str) else None
    seq = raw.seq if _is_int(raw.seq) else None

    def problem(kind: str, reason: str) -> IntegrityError:
        return IntegrityError(stream, seq, reason, kind=kind, position=raw.position)

    problems = []
    for name in _TEXT:
        if not isinstance(getattr(raw, name), str):
            problems.append(problem("undecodable", f"column {name} is not text "
                                    f"(found {type(getattr(raw, name)).__name__})"))
    for name in _OPTIONAL_TEXT:
        if getattr(raw, name) is not None and not isinstance(getattr(raw, name), str):
            problems.append(problem("undecodable", f"column {name} is not text or null"))
    for name in ("seq", "v"):
        if not _is_int(getattr(raw, name)):
            problems.append(problem("undecodable", f"column {name} is not an integer "
                                    f"(found {_cut(getattr(raw, name))})"))
    if problems:
        return None, problems
    data = _json_column(raw.data, "data", dict, problems, problem)
    causes = _json_column(raw.causes, "causes", list, problems, problem)
    if causes is not None and not all(_is_int(c) for c in causes):
        problems.append(problem("undecodable", "causes is not a list of seqs"))
    if problems:
        return None, problems
    event = StoredEvent(stream=raw.stream, seq=raw.seq, id=raw.id, type=raw.type, v=raw.v,
                        data=data, actor=Actor(raw.actor_role, raw.actor_name), at=raw.at,
                        causes=tuple(causes), law=raw.law, prev=raw.prev, hash=raw.hash,
                        position=raw.position)
    try:
        recomputed = hash_of(event)
    except (ValueError, TypeError) as exc:  # e.g. text that cannot be encoded as UTF-8
        return None, [problem("undecodable", f"the content cannot be hashed: {exc}")]
    if recomputed != raw.hash:
        return event, [problem("content", "hash does not match the event's content "
                               "(a column of this row was changed)")]
    return event, []


def _json_column(text: str, name: str, kind: type, problems: list[IntegrityError],
                 problem: Any) -> Any:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        problems.append(problem("undecodable", f"column {name} is not valid JSON ({_cut(str(exc))})"))
        return None
    if not isinstance(value, kind):
        problems.append(problem("undecodable", f"column {name} is not a JSON {kind.__name__}"))
        return None
    if canonical_json(value) != text:
        problems.append(problem("not_canonical", f"column {name} is not in canonical form "
                                "(its bytes were changed)"))
    return value


def verify_store(store: EventStore, stream: str | None = None) -> Report:
    """Check the whole store (or one stream); every break, sorted by stream and seq."""
    problems: list[IntegrityError] = []
    chains: dict[str, list[_Row]] = defaultdict(list)
    count = 0
    by_position: dict[Any, tuple[str | None, int | None, Any]] = {}
    gaps: list[tuple[int, int | None, str]] = []  # positions a damaged file does not give back
    raws = damage.tolerant_rows(store, stream, gaps)
    for raw in raws:
        count += 1
        event, found = decode_row(raw)
        problems.extend(found)
        by_position[raw.position] = (raw.stream if isinstance(raw.stream, str) else None,
                                     raw.seq if _is_int(raw.seq) else None, raw.hash)
        if isinstance(raw.stream, str) and _is_int(raw.seq):
            chains[raw.stream].append(_Row(raw.stream, raw.seq, raw.position, raw.prev, raw.hash, event))
        elif not found:  # pragma: no cover - decode_row reports these
            problems.append(IntegrityError(None, None, "row unreadable", kind="unreadable",
                                           position=raw.position))
    heads, unread = _read_or_say(store.heads, "the stream heads (table stream_heads)", stream)
    problems.extend(unread)
    if stream is not None and not chains and not heads and not gaps and not unread:
        raise StreamNotFound(stream)
    for name, rows in chains.items():
        problems.extend(check_chain(name, rows))
    if not unread:
        problems.extend(check_heads(chains, heads))
    if stream is None:
        tree, unread = _read_or_say(store.iter_tree, "the Merkle tree (tables merkle_leaves, merkle_nodes)")
        problems.extend(unread or check_tree(store, by_position, tree))
    if gaps:
        problems = _damaged(store, gaps, problems)
    names = set(chains) | {h.stream for h in heads if isinstance(h.stream, str)}
    return Report(tuple(sorted(problems, key=_order)), len(names), count)


def _read_or_say(read: Any, what: str, *args: Any) -> tuple[Any, list[IntegrityError]]:
    """``read(*args)``, or nothing and a ``damaged`` finding when the file cannot give it."""
    try:
        return read(*args), []
    except Exception as exc:
        found = damage.kind(exc)
        if found is None:
            raise
        return [], [IntegrityError(None, None, f"{what} cannot be read: the file is {found[1]}; "
                                   "not checked", kind="damaged")]


def _damaged(store: TreeReader, gaps: list[tuple[int, int | None, str]], problems: list[IntegrityError]
             ) -> list[IntegrityError]:
    """One ``damaged`` finding per stream (its seqs, from the Merkle leaves when they can be
    read) or per range of positions; the chain's and the tree's findings about the same
    unread rows (seqs "missing", leaves "deleted") are left out: they were not deleted."""
    def inside(position: Any) -> bool:
        return isinstance(position, int) and any(
            first <= position and (after is None or position < after) for first, after, _ in gaps)

    try:
        leaves = store.iter_tree()[0]
    except Exception as exc:
        if damage.kind(exc) is None:
            raise
        leaves = []
    lost: dict[str, list[int]] = defaultdict(list)
    for _index, position, _hash, leaf_stream, leaf_seq in leaves:
        if inside(position) and isinstance(leaf_stream, str) and _is_int(leaf_seq):
            lost[leaf_stream].append(leaf_seq)
    words = gaps[0][2]
    found = []
    for name, seqs in sorted(lost.items()):
        found.append(IntegrityError(name, min(seqs), f"{len(seqs)} event(s) cannot be read: the file "
                                    f"is {words} where they are stored", kind="damaged",
                                    last_seq=max(seqs)))
    for first, after, gap_words in gaps:
        if not any(inside(p) for _i, p, *_r in leaves):
            end = f"-{after - 1}" if after is not None and after - 1 > first else "" if after else " onwards"
            found.append(IntegrityError(None, None, f"positions {first}{end} cannot be read: the file is "
                                        f"{gap_words}", kind="damaged", position=first))

    def about_lost(p: IntegrityError) -> bool:
        seqs = lost.get(p.stream or "", [])
        if p.kind in ("missing", "head") and seqs and isinstance(p.seq, int):
            return p.seq >= min(seqs)
        if p.kind == "merkle":
            return (isinstance(p.seq, int) and p.seq in seqs) or inside(p.position)
        return False

    return [p for p in problems if not about_lost(p)] + found


def check_chain(stream: str, rows: Iterable[_Row]) -> list[IntegrityError]:
    """One stream's rows: seqs from 1 without a gap, prev links, positions rising."""
    problems = []
    expected, prev, last_position = 1, GENESIS, None
    for row in sorted(rows, key=lambda r: (r.seq, r.position)):
        if row.seq < expected:
            problems.append(IntegrityError(stream, row.seq, f"seq {row.seq} stored twice (position "
                                           f"{row.position})", kind="duplicate", position=row.position))
            continue
        if row.seq > expected:
            problems.append(IntegrityError(stream, expected, "missing (deleted)" if row.seq == expected + 1
                                           else f"{row.seq - expected} events missing (deleted)",
                                           kind="missing", last_seq=row.seq - 1))
        elif row.prev != prev:
            problems.append(IntegrityError(stream, row.seq, f"prev does not match the hash of seq "
                                           f"{row.seq - 1}" if row.seq > 1 else
                                           "prev of the first event is not 64 zeros", kind="prev"))
        if last_position is not None and _is_int(row.position) and row.position <= last_position:
            problems.append(IntegrityError(stream, row.seq, f"position {row.position} is not after "
                                           f"seq {row.seq - 1}'s position {last_position} (rows "
                                           "swapped or renumbered)", kind="order",
                                           position=row.position))
        prev, expected, last_position = row.hash, row.seq + 1, row.position
    return problems


def check_heads(chains: dict[str, list[_Row]], heads: Iterable[Any]) -> list[IntegrityError]:
    """Every stored head names its stream's last event; no stream lacks one."""
    problems = []
    seen = set()
    for head in heads:
        name = head.stream
        seen.add(name)
        rows = chains.get(name) if isinstance(name, str) else None
        if not rows:
            problems.append(IntegrityError(name if isinstance(name, str) else repr(name), None,
                                           f"the stream heads name this stream (at seq {_cut(head.seq)}) "
                                           "but it has no event (deleted)", kind="deleted"))
            continue
        last = max(rows, key=lambda r: r.seq)
        if head.seq != last.seq or head.hash != last.hash:
            if _is_int(head.seq) and head.seq > last.seq:
                reason = (f"the stored head is seq {head.seq} but the last event is seq {last.seq}: "
                          f"seqs {last.seq + 1}-{head.seq} were removed (truncated)")
                problems.append(IntegrityError(name, last.seq + 1, reason, kind="head",
                                               last_seq=head.seq))
            else:
                reason = (f"the stored head (seq {_cut(head.seq)}, hash {_cut(head.hash)[:20]}) is not "
                          f"the last event (seq {last.seq})")
                problems.append(IntegrityError(name, last.seq, reason, kind="head"))
    for name in chains:
        if name not in seen:
            problems.append(IntegrityError(name, None, "the stream has events but no stored head",
                                           kind="no_head"))
    return problems


def check_tree(store: EventStore, by_position: dict[Any, tuple[str | None, int | None, Any]],
               tree: Any = None) -> list[IntegrityError]:
    """The stored Merkle tree: one leaf per event in position order, each the
    leaf of the event's hash as stored, each node the hash of its children."""
    problems = []
    leaves, nodes = tree if tree is not None else store.iter_tree()
    rows = dict(by_position)
    leaf_hashes: list[bytes] = []
    last_position = None
    for expected, (index, position, stored, leaf_stream, leaf_seq) in enumerate(leaves):
        if index != expected:
            problems.append(IntegrityError(None, None, f"leaf {expected} is missing from the tree "
                                           f"(the next stored leaf is {index})", kind="merkle"))
            break
        row = rows.pop(position, None)
        if row is None:
            problems.append(IntegrityError(leaf_stream, leaf_seq, f"no longer stored (deleted): the "
                                           f"Merkle tree recorded it at leaf {index}, position "
                                           f"{position}", kind="merkle", position=position))
        else:
            stream, seq, event_hash = row
            try:
                recorded = merkle.leaf_hash(event_hash).hex()
            except (TypeError, ValueError):
                recorded = None
            if recorded != stored:
                problems.append(IntegrityError(stream, seq, f"not the event the Merkle tree recorded "
                                               f"at leaf {index} (its hash was rewritten, or rows "
                                               "were swapped)", kind="merkle", position=position))
        if last_position is not None and position <= last_position:
            problems.append(IntegrityError(None, None, f"leaf {index}'s position {position} is not "
                                           f"after the previous leaf's {last_position}",
                                           kind="merkle", position=position))
        last_position = position
        try:
            leaf_hashes.append(bytes.fromhex(stored))
        except (TypeError, ValueError):
            problems.append(IntegrityError(None, None, f"leaf {index} is not a hash", kind="merkle"))
            return problems
    behind = integrated_behind(store)  # the tree integrated behind the log (issue 28)
    for position, (stream, seq, _) in sorted(rows.items(), key=lambda kv: repr(kv[0])):
        if behind and isinstance(position, int) and (last_position is None or position > last_position):
            continue  # committed after the tree's last leaf: the integrator's next batch
        problems.append(IntegrityError(stream, seq, "the event has no leaf in the Merkle tree "
                                       "(written outside the append path)", kind="merkle",
                                       position=position))
    expected_nodes = {k: v.hex() for k, v in merkle.all_perfect(leaf_hashes).items() if k[0] > 0}
    stored_nodes = {(level, index): h for level, index, h in nodes}
    for key in sorted(set(expected_nodes) | set(stored_nodes)):
        if expected_nodes.get(key) != stored_nodes.get(key):
            what = "missing" if key not in stored_nodes else "not the hash of its children" \
                if key in expected_nodes else "beyond the leaves"
            problems.append(IntegrityError(None, None, f"Merkle node level {key[0]} index {key[1]} "
                                           f"is {what}", kind="merkle"))
    return problems


def _order(p: IntegrityError) -> tuple[str, int, int]:
    seq = p.seq if isinstance(p.seq, int) and _is_int(p.seq) else 0
    position = p.position if isinstance(p.position, int) and _is_int(p.position) else 0
    return (p.stream or "", seq, position)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cut(value: object, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
