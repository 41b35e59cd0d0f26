"""``replay --store`` (issue 28, item 5): every stream of the store read back, its hash chain
checked and its events folded from seq 1 to the board's state, on every core.

What a federation or a chief director does with a store received (a tournament's, a
season's): replay every board from its log, as an appeals committee would, without
trusting a snapshot or a head kept beside it. Nothing is written (``rebuild`` replaces
the snapshots). The answer, per stream in the order asked: its events, its head, the seq
of the first break of its chain (None when it verifies) and a digest of the folded
state (its snapshot form, canonical JSON); and one digest over them all, the same
however many processes replayed (``tests/test_parallel_replay.py``).

The worker processes (``ledger.parallel``) each read on their own connection; the
calling process only gathers the answers, in the order of the streams.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Callable, Iterable, Iterator, Sequence

import attrs
import structlog

from ledger.hashing import canonical_json, first_break
from ledger.parallel import in_workers
from ledger.service import Ledger, fold_events
from ledger.store.base import StoreReader
from projections import snapshot as snapshots


@attrs.frozen
class Replayed:
    """One stream replayed."""

    stream: str
    events: int
    seq: int
    head: str
    """The hash of its last event."""
    broken: int | None
    """The seq where its chain first breaks; None when every hash verifies."""
    phase: str | None
    """The board's phase once folded; None for a stream that is not a board's (a register)."""
    state: str | None
    """SHA-256 of the folded state (its snapshot form as canonical JSON)."""

    def line(self) -> str:
        return f"{self.stream} {self.events} {self.seq} {self.head} {self.broken} {self.phase} {self.state}\n"


@attrs.frozen
class ReplayReport:
    streams: int
    events: int
    boards: int
    broken: tuple[tuple[str, int], ...]
    """(stream, seq) of every chain that does not verify."""
    digest: str
    """SHA-256 over every stream's answer (:meth:`Replayed.line`), in the order replayed."""


def replay_stream(store: StoreReader, name: str) -> Replayed:
    """``name`` read from ``store``, its chain checked, its events folded from seq 1."""
    stored = store.read(name)
    problem = first_break(stored)
    state = fold_events(stored)
    digest = None if state is None else \
        hashlib.sha256(canonical_json(snapshots.dump(state)).encode()).hexdigest()
    last = stored[-1] if stored else None
    return Replayed(name, len(stored), last.seq if last else 0, last.hash if last else "",
                    None if problem is None else problem.seq or 0,
                    None if state is None else state.phase, digest)


_OPENED: dict[str, Ledger] = {}
"""A worker's ledger on each database it replays (opened at its first chunk, kept until the
process ends: a chunk does not pay for opening the store)."""


def worker_ledger(url: str) -> Ledger:
    ledger = _OPENED.get(url)
    if ledger is None:
        structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
        ledger = _OPENED[url] = Ledger.open(url)
    return ledger


def forget(url: str) -> None:
    """Close this process's ledger on ``url`` kept by :func:`worker_ledger`, if any."""
    ledger = _OPENED.pop(url, None)
    if ledger is not None:
        ledger.close()


def replay_streams(url: str, names: list[str]) -> list[Replayed]:
    """A worker's task: ``names`` replayed on the worker's own ledger."""
    ledger = worker_ledger(url)
    return [replay_stream(ledger.store, name) for name in names]


def replay(ledger: Ledger, names: Sequence[str], *, jobs: int = 1,
           url: str | None = None) -> Iterator[Replayed]:
    """Every stream of ``names`` replayed, in that order: in this process, or (``jobs`` > 1
    with the database's ``url``) in that many worker processes."""
    if jobs > 1 and url is not None and len(names) > 1:
        for done in in_workers(replay_streams, url, names, jobs):
            yield from done
        return
    for name in names:
        yield replay_stream(ledger.store, name)


def summarise(replayed: Iterable[Replayed], progress: Callable[[Replayed], None] | None = None
              ) -> ReplayReport:
    """The totals and the digest of the streams replayed."""
    digest = hashlib.sha256()
    streams = events = boards = 0
    broken = []
    for one in replayed:
        streams += 1
        events += one.events
        boards += one.state is not None
        if one.broken is not None:
            broken.append((one.stream, one.broken))
        digest.update(one.line().encode())
        if progress is not None:
            progress(one)
    return ReplayReport(streams, events, boards, tuple(broken), digest.hexdigest())
