"""A damaged SQLite file or a full disk, said in words (issue 26, item 2).

SQLite reports media damage (``database disk image is malformed``, ``file is not
a database``), a full disk (``database or disk is full``) and I/O failures as
driver exceptions; they would reach the terminal as a traceback. The command
line (:func:`ledger.cli.main`) and ``verify``'s reading turn them into a
sentence naming the file, what was being read or written (the table, from the
statement) and what to do. Nothing here writes.
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
from typing import Any

from ledger.store.base import StoreReader

#: SQLite's messages for a damaged file, with what they mean.
DAMAGE = {
    "database disk image is malformed": "damaged (database disk image is malformed)",
    "file is not a database": "not a SQLite database, or its first page is damaged",
    "file is encrypted or is not a database": "not a SQLite database, or its first page is damaged",
    "malformed database schema": "damaged: its schema page cannot be read",
    "disk i/o error": "unreadable: the disk reported an I/O error",
    "database corruption": "damaged (database corruption)",
}
#: SQLite's messages for a full disk or a file that may not grow.
FULL = ("database or disk is full", "file too large", "no space left on device")

#: SQLite's extended codes of a write that failed: a full disk, a file that may not grow
#: (RLIMIT_FSIZE, quotas), or its lock file (``-shm``) that cannot be made.
WRITE_FAILURES = ("SQLITE_IOERR_WRITE", "SQLITE_IOERR_SHMSIZE", "SQLITE_IOERR_SHMOPEN",
                  "SQLITE_IOERR_SHMMAP", "SQLITE_IOERR_FSYNC", "SQLITE_IOERR_TRUNCATE",
                  "SQLITE_IOERR_DIR_FSYNC", "SQLITE_IOERR_FSTAT")
#: ... and of a read that failed: the medium.
READ_FAILURES = ("SQLITE_IOERR_READ", "SQLITE_IOERR_SHORT_READ")

_TABLE = re.compile(r'\b(?:FROM|INTO|UPDATE|JOIN)\s+"?([A-Za-z_][A-Za-z0-9_]*)', re.I)


def _messages(exc: BaseException) -> list[str]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 6:
        seen.append(current)
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else (current.__cause__ or current.__context__)
    return [str(e).lower() for e in seen]


def _oserror(exc: BaseException) -> OSError | None:
    current: BaseException | None = exc
    for _ in range(6):
        if current is None:
            return None
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EFBIG, errno.EIO,
                                                               errno.EDQUOT):
            return current
        current = current.__cause__ or current.__context__
    return None


def table_of(exc: BaseException) -> str | None:
    """The table the failing statement read or wrote, when the exception carries it."""
    statement = getattr(exc, "statement", None)
    if not statement:
        cause = exc.__cause__ or exc.__context__
        statement = getattr(cause, "statement", None) if cause is not None else None
    found = _TABLE.search(statement or "")
    return found.group(1) if found else None


def kind(exc: BaseException) -> tuple[str, str] | None:
    """``("damaged", what)`` or ``("full", what)`` for a store failure of that kind, else None."""
    oserr = _oserror(exc)
    if oserr is not None:
        if oserr.errno == errno.EIO:
            return "damaged", DAMAGE["disk i/o error"]
        return "full", oserr.strerror or "no space left"
    for link in _chain(exc):
        name = getattr(link, "sqlite_errorname", None) or ""
        if name == "SQLITE_FULL" or name in WRITE_FAILURES:
            return "full", f"{name}: SQLite could not write"
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or name in READ_FAILURES:
            text = str(link).strip().lower()
            said = next((words for needle, words in DAMAGE.items() if needle in text), None)
            return "damaged", said or f"damaged ({name}: {text[:80]})"
    texts = _messages(exc)
    for text in texts:
        for needle, words in DAMAGE.items():
            if needle in text:
                return "damaged", words
        for needle in FULL:
            if needle in text:
                return "full", needle
    if any(isinstance(e, sqlite3.DatabaseError) and not isinstance(e, (sqlite3.IntegrityError,
                                                                       sqlite3.ProgrammingError))
           for e in _chain(exc)) and any("malformed" in t or "corrupt" in t for t in texts):
        return "damaged", "damaged"
    return None


def _chain(exc: BaseException) -> list[Any]:
    """The exception, what it wraps (``orig``) and what caused it, a few links deep."""
    out: list[Any] = []
    todo: list[Any] = [exc]
    while todo and len(out) < 12:
        link = todo.pop(0)
        if link is None or any(link is e for e in out):
            continue
        out.append(link)
        todo += [getattr(link, "orig", None), link.__cause__, link.__context__]
    return out


def file_of(url: str | None) -> str:
    """The file of a ``sqlite:///`` URL (else the URL's host part, without a password)."""
    if not url:
        return "the store"
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[-1] if ":///" in url else url
        return path or "the store"
    rest = url.split("://", 1)[-1]
    return "the database at " + rest.rsplit("@", 1)[-1]


def damaged_tables(path: str) -> list[str]:
    """The tables of a SQLite file that cannot be read through (each scanned whole, read
    only): what a message names when the failing statement did not say."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    found = []
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            try:
                cur = conn.execute(f'SELECT * FROM "{name}"')
                while cur.fetchmany(1000):
                    pass
            except sqlite3.DatabaseError:
                found.append(name)
    except sqlite3.DatabaseError:
        return ["sqlite_master"]
    finally:
        conn.close()
    return found


def describe(exc: BaseException, url: str | None) -> str | None:
    """A sentence for a damaged file or a full disk (None: the failure is another kind)."""
    found = kind(exc)
    if found is None:
        return None
    what, words = found
    table = table_of(exc)
    if table is None and what == "damaged" and url and url.startswith("sqlite"):
        tables = damaged_tables(file_of(url))
        table = ", ".join(tables) if tables else None
    where = f" in table `{table}`" if table else ""
    name = file_of(url)
    if what == "damaged" and url and url.startswith("sqlite") and disk_full(name):
        what, words = "full", "the disk reported an I/O error and has no space left"
        where = ""
    if what == "full":
        return (f"the disk holding {name} is full or the file may not grow ({words}{where}); "
                "nothing was written. Free some space (or move the file) and run the same "
                "command again.")
    return (f"the SQLite file {name} is {words}{where}. Nothing was written. Run "
            "`python cli.py verify` to see what can still be read, and restore the last "
            "backup (`python cli.py restore BACKUP`; see `python cli.py backup`).")


# -- verify's reading: around what cannot be read ---------------------------------

def is_damage(exc: BaseException) -> bool:
    return kind(exc) is not None


def _first_after(store: StoreReader, stream: str | None, q: int) -> tuple[bool, int | None]:
    """(readable, the first position > q) by one one-row read; (False, None) when that
    read hits the damage."""
    try:
        for raw in store.iter_raw(after_position=q, batch=1, stream=stream):
            return True, raw.position if isinstance(raw.position, int) else q + 1
        return True, None
    except Exception as exc:
        if not is_damage(exc):
            raise
        return False, None


def next_readable(store: StoreReader, stream: str | None, last: int, limit: int = 2 ** 53) -> int | None:
    """The first position after ``last`` from which the rows can be read again (a
    doubling then a bisection of one-row reads); None when nothing after it can be."""
    step, bad = 1, last
    while True:
        probe = last + step
        if probe >= limit:
            return None
        readable, first = _first_after(store, stream, probe)
        if readable:
            break
        bad, step = probe, step * 2
    good, good_first = probe, first
    while good - bad > 1:  # the smallest probe past the damage
        mid = (good + bad) // 2
        readable, first = _first_after(store, stream, mid)
        if readable:
            good, good_first = mid, first
        else:
            bad = mid
    return good_first if good_first is not None else None


def tolerant_rows(store: StoreReader, stream: str | None, gaps: list[tuple[int, int | None, str]]) -> Any:
    """Every row ``store.iter_raw`` can read, in position order; each range of positions
    that cannot be read is appended to ``gaps`` as (first, next readable or None, words)."""
    last = 0
    batch = 1000
    while True:
        try:
            for raw in store.iter_raw(after_position=last, batch=batch, stream=stream):
                if isinstance(raw.position, int):
                    last = raw.position
                yield raw
                if batch == 1:
                    break
            else:
                return
            continue
        except Exception as exc:
            found = kind(exc)
            if found is None:
                raise
            if batch > 1:  # the rows before the damage, one at a time
                batch = 1
                continue
            batch = 1000
            after = next_readable(store, stream, last)
            gaps.append((last + 1, after, found[1]))
            if after is None:
                return
            last = after - 1


# -- a full disk: reading without the lock files ------------------------------------

def disk_full(path: str, margin: int = 256 * 1024) -> bool:
    """The file system holding ``path`` has (almost) no space left."""
    try:
        stats = os.statvfs(os.path.dirname(os.path.abspath(path)) or ".")
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < margin


def readonly_url(exc: BaseException, url: str | None) -> tuple[str, str] | None:
    """When a SQLite file cannot be opened for reading because its disk is full (SQLite
    must create the ``-shm`` lock file of the WAL and cannot), a URL that reads it
    without lock files (``immutable``), and a note saying so, if that is safe: only when
    its WAL is absent or empty (every commit is then in the file itself). Else None."""
    if not url or not url.startswith("sqlite:///") or "?" in url or kind(exc) is None:
        return None
    path = file_of(url)
    if not os.path.exists(path) or (kind(exc) or ("",))[0] != "full" and not disk_full(path):
        return None
    wal = path + "-wal"
    if os.path.exists(wal) and os.path.getsize(wal) > 0:
        return None
    note = (f"the disk holding {path} is full (or the file may not grow): SQLite cannot make "
            "its lock file, so the file "
            "is read without locks (its WAL is empty: every commit is in the file); nothing "
            "may write to it meanwhile")
    return f"sqlite:///file:{os.path.abspath(path)}?mode=ro&immutable=1&uri=true", note
