"""A second copy of a SQLite ledger: ``cli.py backup DEST`` and ``cli.py restore SOURCE``.

``backup`` copies the live file with SQLite's online backup API (a consistent
snapshot, taken while servers keep appending), writes it beside DEST, syncs it
and renames it into place, then verifies the copy (every chain, the heads, the
Merkle tree) and prints its digest. ``restore`` verifies the copy first (and,
with ``--digest``, that it holds what a published digest covered), moves the
current file and its ``-wal``/``-shm`` aside (renamed, never deleted: a damaged
file is kept for the record) and puts the copy in its place, then verifies the
restored file. PostgreSQL has its own tools (``pg_dump``, streaming replication):
docs/reliability.md says how.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from ledger.errors import BadInput, LedgerError


def sqlite_file(url: str, what: str = "--db") -> Path:
    """The file of a ``sqlite:///FILE`` URL; BadInput (exit 2) for PostgreSQL and memory."""
    if url.startswith("postgresql"):
        raise BadInput("backup and restore copy a SQLite file; for PostgreSQL use pg_dump "
                       "(and streaming replication for a standby): see docs/reliability.md, "
                       "'A second copy'", field=what, value=url.split("@")[-1])
    if not url.startswith("sqlite:///") or url.endswith(":memory:") or "?" in url:
        raise BadInput("a SQLite file URL (sqlite:///FILE) is needed", field=what, value=url)
    return Path(url[len("sqlite:///"):])


def _copy(source: Path, dest: Path) -> int:
    """SQLite's online backup of ``source`` into a new file at ``dest`` (via a temporary
    name, synced, then renamed): the number of pages copied."""
    tmp = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    for leftover in (tmp, Path(f"{tmp}-journal")):
        leftover.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        out = sqlite3.connect(tmp)
        try:
            src.backup(out, pages=1024)
            pages = out.execute("PRAGMA page_count").fetchone()[0]
            out.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            out.close()
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, dest)
    _sync_dir(dest.parent)
    return int(pages)


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def backup(url: str, dest: str, *, force: bool = False) -> dict[str, Any]:
    source = sqlite_file(url)
    target = Path(dest)
    if not source.exists():
        raise BadInput("no ledger file to back up", field="--db", value=str(source))
    if target.exists() and not force:
        raise BadInput("the destination exists; choose a new name (a backup never overwrites "
                       "one silently) or give --force", field="DEST", value=dest)
    if target.resolve() == source.resolve():
        raise BadInput("the destination is the ledger itself", field="DEST", value=dest)
    if target.parent and not target.parent.exists():
        raise BadInput("the destination's folder does not exist", field="DEST", value=dest)
    started = time.perf_counter()
    pages = _copy(source, target)
    return {"dest": str(target), "pages": pages, "bytes": target.stat().st_size,
            "seconds": round(time.perf_counter() - started, 3)}


def check(url: str, digest: Any = None) -> tuple[Any, Any]:
    """verify (and verify --digest) on ``url``: (report, (digest check or None, the copy's
    own digest when it verified))."""
    import attrs

    from ledger.audit.verify import verify_store
    from ledger.service import Ledger
    from ledger.audit.transparency import check_digest, current_digest

    with Ledger.open(url) as ledger:
        report = verify_store(ledger.store)
        against = None
        if digest is not None:
            against = check_digest(ledger.store, digest)
            report = attrs.evolve(report, problems=report.problems + against.problems)
        head = current_digest(ledger.store) if not report.problems else None
    return report, (against, head)


def restore(url: str, source: str, *, digest: Any = None, force: bool = False) -> dict[str, Any]:
    target = sqlite_file(url)
    copy = Path(source)
    if not copy.exists():
        raise BadInput("no such backup file", field="SOURCE", value=source)
    if target.exists() and copy.resolve() == target.resolve():
        raise BadInput("the backup is the ledger itself", field="SOURCE", value=source)
    report, against = check(f"sqlite:///{copy}", digest)
    if report.problems and not force:
        first = report.problems[0]
        raise RestoreRefused(f"the backup {source} does not pass verify"
                             + (" --digest" if digest is not None else "")
                             + f" ({len(report.problems)} problem(s); first: {first.where()} "
                               f"({first.kind}): {first.reason}); the ledger was not changed. "
                               "Choose another backup, or give --force to restore it anyway.")
    aside = []
    stamp = time.strftime("%Y%m%dT%H%M%S")
    for suffix in ("", "-wal", "-shm"):
        current = Path(f"{target}{suffix}")
        if current.exists():
            kept = Path(f"{target}.before-restore-{stamp}{suffix}")
            os.replace(current, kept)
            aside.append(str(kept))
    _copy(copy, target)
    report, against = check(url, digest)
    return {"restored": str(target), "from": source, "kept_aside": aside, "report": report,
            "against": against}


class RestoreRefused(LedgerError):
    """The backup did not pass verify: nothing was changed. Exit code 1."""
