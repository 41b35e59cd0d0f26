"""The command line as the tests call it: ``run(capsys, "state", stream)`` runs ``cli.py``'s
``main`` in this process and returns its exit code and what it printed (only what this call
printed: what came before is read and dropped first)."""

from __future__ import annotations

import io
from typing import Any

from ledger.cli import main


def run(capsys: Any, *args: str, stdin: str | None = None, monkeypatch: Any = None) -> tuple[int, str, str]:
    """``main(args)``: (exit code, stdout, stderr); ``stdin`` is fed to it (with ``monkeypatch``)."""
    capsys.readouterr()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def init_db(tmp_path: Any, monkeypatch: Any) -> str:
    """A fresh SQLite ledger file in ``tmp_path``, its schema created by ``cli.py init``, and
    ``LEDGER_DB`` naming it for the commands the test runs: its URL."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    monkeypatch.setenv("LEDGER_DB", url)
    assert main(["init"]) == 0
    return url
