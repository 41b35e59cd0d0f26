"""A damaged SQLite file and a full disk (issue 26, item 2): every command exits
with a sentence naming the file and what is damaged (the table), never a
traceback; ``verify`` reports the damage it can localise (the stream and seqs
that cannot be read) and goes on with the rest; a full disk (a file that may
not grow, by RLIMIT_FSIZE; a 1 MiB tmpfs where the machine lets the tests mount
one) refuses appends in words, writes nothing, and ``verify`` still reads the
file. Then ``backup`` and ``restore`` with ``verify --digest`` on the restored
copy. PostgreSQL: ``backup`` says to use pg_dump (docs/reliability.md)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from ledger.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = 4096
COMMANDS = [["verify"], ["verify", "demo/club/b5"], ["state", "demo/club/b5"], ["state", "demo/realbridge/b14"],
            ["log", "demo/realbridge/b14"], ["log", "--after", "0"], ["digest"], ["rebuild"],
            ["casefile", "demo/realbridge/b14", "--format", "json"], ["open", "club-2026-11-22"],
            ["append", "demo/club/b5", "{ONE}"]]


def run(*args: str, db: str, limit: int | None = None) -> subprocess.CompletedProcess:
    """``cli.py --db DB ARGS``: in this process, or, with ``limit``, in its own process
    unable to write past ``limit`` bytes (RLIMIT_FSIZE)."""
    if limit is None:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--db", db, *args])
        return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())

    def preexec() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "--db", db, *args], capture_output=True,
                          text=True, timeout=300, preexec_fn=preexec, cwd=ROOT)


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    path = folder / "ledger.db"
    assert main(["--db", f"sqlite:///{path}", "demo"]) == 0
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


def one_line(tmp_path: Path) -> Path:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"type": "RulingGiven", "laws": ["2017:12C1"], "text": "noted",
                                "actor": {"role": "director", "name": "td"}, "id": str(uuid.uuid4())}) + "\n")
    return path


def pages_of(path: Path, table: str) -> list[int]:
    con = sqlite3.connect(path)
    try:
        return [r[0] for r in con.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' "
                                          "ORDER BY pageno", (table,))]
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat table: the pages of a table cannot be found")
    finally:
        con.close()


def garble(path: Path, page: int, start: int = 100) -> None:
    """One page of garbage (media damage): its cells overwritten."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE + start:page * PAGE] = b"\xff" * (PAGE - start)
    path.write_bytes(bytes(data))


def copy_of(demo_file: Path, tmp_path: Path) -> Path:
    target = tmp_path / "ledger.db"
    shutil.copy(demo_file, target)
    return target


def assert_words(r: subprocess.CompletedProcess, name: str) -> None:
    assert "Traceback" not in r.stderr and "sqlalchemy" not in r.stderr.lower(), r.stderr
    assert r.stderr.startswith("error: ") or r.stderr.startswith("FAILED") or r.stderr.startswith("note"), r.stderr
    assert name in r.stderr, r.stderr


def test_a_garbage_page_of_events_every_command_says_so_and_verify_localises_it(demo_file, tmp_path):
    db_path = copy_of(demo_file, tmp_path)
    garble(db_path, pages_of(db_path, "events")[3])
    db = f"sqlite:///{db_path}"
    one = one_line(tmp_path)
    failed = 0
    for command in COMMANDS:
        args = [str(one) if a == "{ONE}" else a for a in command]
        r = run(*args, db=db)
        assert "Traceback" not in r.stderr, (command, r.stderr)
        if r.returncode != 0 and command[0] != "verify":
            failed += 1
            assert_words(r, str(db_path))
            assert "damaged" in r.stderr and "table `events`" in r.stderr, (command, r.stderr)
    assert failed >= 3  # the damaged page is read by several of them
    r = run("verify", db=db)
    assert r.returncode == 1
    lines = [line for line in r.stderr.splitlines() if line.startswith("FAILED")]
    assert lines and all("(damaged)" in line for line in lines), r.stderr
    assert "stream 'demo/realbridge/b14' seqs" in r.stderr and "cannot be read" in r.stderr
    checked = int(r.stderr.split(" event(s) checked")[0].rsplit(" ", 1)[-1])
    assert 100 < checked < 141  # it went on with every row it could read
    assert "broken: demo/realbridge/b14" in r.stderr and "missing" not in r.stderr
    assert run("verify", "demo/club/b5", db=db).returncode == 0  # the other board is intact


def test_a_garbage_page_of_the_merkle_tree_verify_says_so_and_checks_every_chain(demo_file, tmp_path):
    db_path = copy_of(demo_file, tmp_path)
    garble(db_path, pages_of(db_path, "merkle_leaves")[0])
    r = run("verify", db=f"sqlite:///{db_path}")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "the Merkle tree (tables merkle_leaves, merkle_nodes) cannot be read" in r.stderr
    assert "141 event(s) checked" in r.stderr
    published = run("digest", db=f"sqlite:///{demo_file}").stdout.strip()
    r = run("verify", "--digest", published, db=f"sqlite:///{db_path}")  # needs the leaves
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "merkle_leaves" in r.stderr and str(db_path) in r.stderr or "cannot be read" in r.stderr, r.stderr


def test_a_damaged_first_page_is_not_a_database_in_words(demo_file, tmp_path):
    db_path = copy_of(demo_file, tmp_path)
    data = bytearray(db_path.read_bytes())
    data[0:100] = b"\x00" * 100
    db_path.write_bytes(bytes(data))
    for command in (["verify"], ["state", "demo/club/b5"], ["append", "demo/club/b5", str(one_line(tmp_path))]):
        r = run(*command, db=f"sqlite:///{db_path}")
        assert r.returncode == 1, r.stderr
        assert_words(r, str(db_path))
        assert "not a SQLite database" in r.stderr


def events(db_path: Path) -> int:
    con = sqlite3.connect(db_path)
    try:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        con.close()


def test_a_file_that_may_not_grow_refuses_the_append_in_words_and_verify_still_reads(demo_file, tmp_path):
    """RLIMIT_FSIZE, as a full disk: first too small for SQLite's lock file (32 KiB), then
    large enough for it but not for the WAL the append needs."""
    db_path = copy_of(demo_file, tmp_path)
    db = f"sqlite:///{db_path}"
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps({"type": "RulingGiven", "laws": ["2017:12C1"], "text": "t" * 5000,
                                         "actor": {"role": "director", "name": "td"}}) + "\n" for _ in range(20)))
    for limit in (8192, 40_000):
        before = events(db_path)
        r = run("append", "demo/club/b5", str(batch), db=db, limit=limit)
        assert r.returncode == 1, (limit, r.stdout, r.stderr)
        assert_words(r, str(db_path))
        assert "full or the file may not grow" in r.stderr and "nothing was written" in r.stderr
        for leftover in ("-wal", "-shm"):  # what the refused writer left
            Path(f"{db_path}{leftover}").unlink(missing_ok=True) if limit == 8192 else None
        assert events(db_path) == before
        r = run("verify", db=db, limit=limit)
        assert r.returncode == 0, (limit, r.stderr)
        assert "ok: 2 stream(s) verified, 141 event(s)" in r.stdout
    r = run("append", "demo/club/b5", str(batch), db=db)  # space again: the same append goes through
    assert r.returncode == 0, r.stderr
    assert run("verify", db=db).returncode == 0


@pytest.fixture
def small_fs(tmp_path):
    """A 1 MiB tmpfs (needs the right to mount: root on Linux); skipped where not allowed."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip() or 'not permitted'}); "
                    "the RLIMIT_FSIZE test covers a file that may not grow")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_full_disk_refuses_appends_in_words_and_verify_goes_on(demo_file, small_fs, tmp_path):
    db_path = small_fs / "ledger.db"
    shutil.copy(demo_file, db_path)
    db = f"sqlite:///{db_path}"
    filler = small_fs / "filler"
    with open(filler, "wb", buffering=0) as fh:  # fill the disk
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError:
            pass
    os.sync()
    r = run("append", "demo/club/b5", str(one_line(tmp_path)), db=db)
    assert r.returncode == 1 and "full" in r.stderr, r.stderr
    assert_words(r, str(db_path))
    r = run("verify", db=db)
    assert r.returncode == 0, r.stderr
    assert "ok: 2 stream(s) verified, 141 event(s)" in r.stdout and "disk holding" in r.stderr
    for leftover in ("-wal", "-shm"):
        Path(f"{db_path}{leftover}").unlink(missing_ok=True)
    filler.unlink()
    r = run("append", "demo/club/b5", str(one_line(tmp_path)), db=db)
    assert r.returncode == 0, r.stderr
    assert run("verify", db=db).returncode == 0


# -- backup and restore ----------------------------------------------------------

def test_backup_then_restore_with_verify_digest_on_the_restored_copy(demo_file, tmp_path):
    db_path = copy_of(demo_file, tmp_path)
    db = f"sqlite:///{db_path}"
    published = run("digest", db=db).stdout.strip()  # the director publishes it
    copy = tmp_path / "second" / "ledger-round1.db"
    copy.parent.mkdir()
    r = run("backup", str(copy), db=db)
    assert r.returncode == 0, r.stderr
    assert f"digest {published}" in r.stdout and "verified" in r.stdout
    assert run("verify", "--digest", published, db=f"sqlite:///{copy}").returncode == 0
    assert run("backup", str(copy), db=db).returncode == 2  # never overwritten silently
    # The live file is damaged (media damage): the director restores the second copy.
    garble(db_path, pages_of(db_path, "events")[2])
    assert run("verify", db=db).returncode == 1
    r = run("restore", str(copy), "--digest", published, db=db)
    assert r.returncode == 0, r.stderr
    assert "kept aside" in r.stdout and f"exactly the 141 event(s) digest" in r.stdout
    kept = [p for p in tmp_path.iterdir() if ".before-restore-" in p.name]
    assert kept, "the damaged file is kept, renamed"
    r = run("verify", "--digest", published, db=db)
    assert r.returncode == 0 and "ok: the store holds exactly the 141 event(s)" in r.stdout
    assert run("append", "demo/club/b5", str(one_line(tmp_path)), db=db).returncode == 0


def test_restore_refuses_a_backup_that_does_not_verify_and_changes_nothing(demo_file, tmp_path):
    db_path = copy_of(demo_file, tmp_path)
    db = f"sqlite:///{db_path}"
    published = run("digest", db=db).stdout.strip()
    bad = tmp_path / "bad.db"
    shutil.copy(db_path, bad)
    garble(bad, pages_of(bad, "events")[1])
    before = db_path.read_bytes()
    r = run("restore", str(bad), db=db)
    assert r.returncode == 1 and "does not pass verify" in r.stderr and "Traceback" not in r.stderr
    assert db_path.read_bytes() == before
    # a backup older than the published digest does not hold what it covered: refused too
    old = tmp_path / "old.db"
    assert run("backup", str(old), db=db).returncode == 0
    assert run("append", "demo/club/b5", str(one_line(tmp_path)), db=db).returncode == 0
    later = run("digest", db=db).stdout.strip()
    r = run("restore", str(old), "--digest", later, db=db)
    assert r.returncode == 1 and "digest" in r.stderr and published != later
    assert run("verify", "--digest", later, db=db).returncode == 0


def test_backup_on_postgresql_says_to_use_pg_dump(store_url, capsys, tmp_path):
    code = main(["--db", store_url, "backup", str(tmp_path / "x.db")])
    err = capsys.readouterr().err
    if store_url.startswith("postgresql"):
        assert code == 2 and "pg_dump" in err and "reliability.md" in err
    else:
        assert code == 2 and "no ledger file" in err  # nothing there yet
