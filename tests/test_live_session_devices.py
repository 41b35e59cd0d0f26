"""The command line for the table devices: a session's entry mode and round clock, its
printable table cards (URL, QR code, each pair's movement), and a table's seat-device URLs."""

from __future__ import annotations

import re

import pytest
from cli_helpers import run

from ledger.cli import main
from ledger.live import accounts
from ledger.live.db import live_engine
from ledger.live.sessions import find_session


@pytest.fixture
def db(store_url, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    return store_url


def test_session_open_entry_mode_clock_and_table_cards(db, capsys, tmp_path):
    cards = tmp_path / "cards.html"
    code, out, err = run(capsys, "session", "open", "club/q", "--tables", "3", "--entry", "cards",
                         "--round-minutes", "21", "--cards", str(cards), "--base-url", "http://10.0.0.5:8000")
    assert code == 0, err
    engine = live_engine(db)
    try:
        session = find_session(engine, "club/q")
        assert session.entry == "cards" and session.clock_minutes == 21
        html = cards.read_text(encoding="utf-8")
        urls = re.findall(r"table \d: (\S+)", out)
        assert len(urls) == 3 and all(u in html for u in urls)
        assert html.count("<svg") == 3 and html.count("class='table-card'") == 3
        first = session.movement[0][0]
        assert f"Pair {first.ew} (starts East-West)" in html
        code, out, _ = run(capsys, "session", "open", "club/d", "--tables", "2")
        assert code == 0 and find_session(engine, "club/d").entry == "quick"  # the default
        code, _, err = run(capsys, "session", "open", "club/z", "--tables", "2", "--round-minutes", "0")
        assert code == 2 and "--round-minutes" in err
    finally:
        engine.dispose()


def test_session_token_seats_issues_four_seat_devices_and_keeps_the_tables(db, capsys):
    _, out, _ = run(capsys, "session", "open", "club/s", "--tables", "2")
    table_token = re.findall(r"table 1: \S+/table/(\S+)", out)[0]
    code, out, err = run(capsys, "session", "token", "club/s", "--table", "1", "--seats")
    assert code == 0, err
    found = dict(re.findall(r"table 1, (\w+)'s own device: \S+/table/(\S+)", out))
    assert sorted(found) == ["East", "North", "South", "West"]
    engine = live_engine(db)
    try:
        for word, token in found.items():
            grant = accounts.table_grant(engine, token)
            assert grant.table == 1 and grant.seat == word[0]
        assert accounts.table_grant(engine, table_token).seat is None  # nothing revoked
    finally:
        engine.dispose()
