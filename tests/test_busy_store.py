"""A busy store is a condition, not a failure: when other writers hold the
store for the whole busy timeout the writer gets exit 5 and a message telling
it to retry, nothing is written, and the same append succeeds once the store
is free. Both stores."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from ledger.cli import main
from ledger.errors import StoreBusy
from ledger.service import Ledger

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
OPEN = {"type": "BoardOpened", "tournament": "club", "board": 11, "table": "3", "deal": DEAL,
        "id": "b1-open"}


@contextmanager
def another_writer_holds_the_store(url: str):
    """A second connection that took the write lock and keeps it."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.begin()
                conn.exec_driver_sql("LOCK TABLE events IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                conn.rollback()
    finally:
        engine.dispose()


def test_a_busy_store_is_exit_5_with_retry_advice_and_the_retry_succeeds(store_url, tmp_path, capsys):
    assert main(["--db", store_url, "init"]) == 0
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(OPEN) + "\n")
    capsys.readouterr()
    with another_writer_holds_the_store(store_url):
        started = time.monotonic()
        code = main(["--db", store_url, "--busy-timeout", "0.3", "append", "b/1", str(path)])
        waited = time.monotonic() - started
        err = capsys.readouterr().err
    assert code == 5, err
    assert "busy" in err and "retry" in err and "Traceback" not in err
    assert waited < 20, "the busy timeout given was not the one used (the default is 30 s)"
    assert main(["--db", store_url, "log", "b/1"]) == 2  # nothing written
    capsys.readouterr()
    assert main(["--db", store_url, "append", "b/1", str(path)]) == 0
    assert main(["--db", store_url, "--busy-timeout", "0", "append", "b/1", str(path)]) == 0
    assert "already stored (retry)" in capsys.readouterr().out


def test_the_busy_timeout_comes_from_the_environment_too(store_url, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("LEDGER_BUSY_TIMEOUT", "0.2")
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(OPEN) + "\n")
    assert main(["--db", store_url, "init"]) == 0
    with another_writer_holds_the_store(store_url):
        started = time.monotonic()
        assert main(["--db", store_url, "append", "b/2", str(path)]) == 5
        assert time.monotonic() - started < 20


def test_the_api_raises_store_busy_and_writes_nothing(store_url):
    led = Ledger.open(store_url, create=True, busy_timeout=0.2)
    try:
        with another_writer_holds_the_store(store_url), pytest.raises(StoreBusy) as busy:
            led.append("b/2", [OPEN])
        assert busy.value.exit_code == 5
        assert led.store.read("b/2") == []
    finally:
        led.close()


def test_a_negative_busy_timeout_is_bad_input(capsys):
    assert main(["--busy-timeout", "-1", "verify"]) == 2
