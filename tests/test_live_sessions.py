"""Sessions, movements, users and table tokens of the live service (both stores)."""

from __future__ import annotations

import json
import re

import pytest
import sqlalchemy as sa
from cli_helpers import run

from ledger.cli import main
from ledger.live import accounts
from ledger.live.schema import live_table_tokens, live_users
from ledger.live.sessions import howell, mitchell
from ledger.store.sql import make_engine


def _movement_ok(rounds, pairs_meet_once: bool) -> None:
    played: dict[str, list[int]] = {}
    met: set[frozenset[str]] = set()
    for row in rounds:
        assert sorted(s.table for s in row) == list(range(1, len(row) + 1))
        seated = [p for s in row for p in (s.ns, s.ew)]
        assert len(seated) == len(set(seated)), "a pair sits twice in one round"
        for s in row:
            played.setdefault(s.ns, []).append(s.set)
            played.setdefault(s.ew, []).append(s.set)
            pair = frozenset((s.ns, s.ew))
            assert pair not in met, f"{sorted(pair)} meet twice"
            met.add(pair)
    for pair, sets in played.items():
        assert len(sets) == len(set(sets)), f"pair {pair} plays a set twice: {sets}"
    if pairs_meet_once:
        n_pairs = len(played)
        assert len(met) == n_pairs * (n_pairs - 1) // 2


@pytest.mark.parametrize("tables", range(2, 16))
def test_mitchell_no_pair_plays_a_set_twice_or_meets_a_pair_twice(tables):
    rounds = mitchell(tables)
    assert len(rounds) == (tables - 1 if tables % 2 == 0 else tables)
    _movement_ok(rounds, pairs_meet_once=False)
    for row in rounds:  # boards are shared: one set at one table a round
        assert len({s.set for s in row}) == tables


@pytest.mark.parametrize("tables", range(2, 11))
def test_howell_every_pair_meets_every_other_once(tables):
    rounds = howell(tables)
    assert len(rounds) == 2 * tables - 1
    _movement_ok(rounds, pairs_meet_once=True)


@pytest.fixture
def db(store_url, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    return store_url


def test_user_add_stores_an_argon2id_hash_and_authenticates(db, capsys, monkeypatch):
    code, out, _ = run(capsys, "user", "add", "alice", "--role", "director", "--password-stdin",
                       stdin="correct horse\n", monkeypatch=monkeypatch)
    assert code == 0 and "alice added, role director" in out
    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            stored = conn.execute(sa.select(live_users.c.password_hash)).scalar_one()
        assert stored.startswith("$argon2id$") and "correct horse" not in stored
        assert accounts.authenticate(engine, "alice", "correct horse").role == "director"
        with pytest.raises(accounts.Refused, match="wrong password"):
            accounts.authenticate(engine, "alice", "wrong horse!")
        with pytest.raises(accounts.Refused, match="wrong password"):
            accounts.authenticate(engine, "bob", "correct horse")
    finally:
        engine.dispose()


@pytest.mark.parametrize("args,field", [
    (("user", "add", "alice", "--role", "director"), "NAME"),  # taken (added first)
    (("user", "add", "bad name", "--role", "director"), "NAME"),
    (("user", "add", "carol", "--role", "committee"), "password"),  # too short
])
def test_user_add_refusals_name_the_field(db, capsys, monkeypatch, args, field):
    run(capsys, "user", "add", "alice", "--role", "director", "--password-stdin",
        stdin="long enough\n", monkeypatch=monkeypatch)
    code, _, err = run(capsys, *args, "--password-stdin", stdin="short\n" if field == "password"
                       else "long enough\n", monkeypatch=monkeypatch)
    assert code == 2 and f"field '{field}'" in err


def test_user_role_must_be_a_person_role(db, capsys, monkeypatch):
    code, _, err = run(capsys, "user", "add", "t1", "--role", "table", "--password-stdin",
                       stdin="long enough\n", monkeypatch=monkeypatch)
    assert code == 2 and "table" in err


def test_session_open_prints_a_url_per_table_show_and_close(db, capsys):
    code, out, err = run(capsys, "session", "open", "club/evening", "--tables", "3",
                         "--boards-per-round", "2", "--seed", "7", "--base-url", "http://host:8000")
    assert code == 0, err
    urls = re.findall(r"table (\d): (http://host:8000/table/\S+)", out)
    assert [t for t, _ in urls] == ["1", "2", "3"]
    engine = make_engine(db)
    try:
        token = urls[1][1].rsplit("/", 1)[1]
        grant = accounts.table_grant(engine, token)
        assert grant.table == 2
        with engine.connect() as conn:  # only digests are stored
            stored = set(conn.execute(sa.select(live_table_tokens.c.token_hash)).scalars())
        assert token not in stored and accounts.digest(token) in stored
    finally:
        engine.dispose()

    code, out, _ = run(capsys, "session", "show", "club/evening", "--json")
    doc = json.loads(out)
    assert doc["rounds"] == 3 and doc["movement"] == "mitchell"
    assert [row["board"] for row in doc["now"]] == [1, 3, 5]
    assert doc["now"][0]["stream"] == "club/evening/t1/b1" and doc["now"][0]["phase"] == "not started"

    code, _, err = run(capsys, "session", "open", "club/evening", "--tables", "3")
    assert code == 2 and "already open" in err

    code, out, _ = run(capsys, "session", "close", "club/evening")
    assert code == 0 and "3 table token(s) revoked" in out
    engine = make_engine(db)
    try:
        with pytest.raises(accounts.Refused, match="revoked"):
            accounts.table_grant(engine, token)
    finally:
        engine.dispose()


def test_session_token_revokes_the_lost_tablet_and_issues_a_new_one(db, capsys):
    _, out, _ = run(capsys, "session", "open", "club/e2", "--tables", "2", "--qr")
    old = re.findall(r"table 1: \S+/table/(\S+)", out)[0]
    code, out, _ = run(capsys, "session", "token", "club/e2", "--table", "1")
    assert code == 0 and "1 token(s) revoked" in out
    new = re.findall(r"table 1: \S+/table/(\S+)", out)[0]
    engine = make_engine(db)
    try:
        with pytest.raises(accounts.Refused, match="revoked"):
            accounts.table_grant(engine, old)
        assert accounts.table_grant(engine, new).table == 1
    finally:
        engine.dispose()
    code, _, err = run(capsys, "session", "token", "club/e2", "--table", "9")
    assert code == 2 and "--table" in err


@pytest.mark.parametrize("args,field", [
    (("--tables", "0"), "--tables"),
    (("--tables", "2", "--boards-per-round", "0"), "--boards-per-round"),
    (("--tables", "1"), "--tables"),  # a Mitchell needs two
])
def test_session_open_refusals(db, capsys, args, field):
    code, _, err = run(capsys, "session", "open", "club/x", *args)
    assert code == 2 and f"field '{field}'" in err


def test_a_movement_file_and_a_pbn_deal_file(db, capsys, tmp_path):
    from ledger.live.sessions import random_deals

    movement = tmp_path / "mv.txt"
    movement.write_text("# round table ns ew set\n1 1 A B 1\n1 2 C D 2\n\n2 1 A D 2\n2 2 C B 1\n")
    deals = random_deals(4, seed=3)
    pbn = tmp_path / "deals.pbn"
    pbn.write_text("".join(f'[Board "{b}"]\n[Deal "{d}"]\n\n' for b, d in deals.items()))
    code, out, err = run(capsys, "session", "open", "club/file", "--tables", "2", "--boards-per-round", "2",
                         "--movement-file", str(movement), "--deals", str(pbn), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["movement"] == "file" and doc["rounds"] == 2
    assert doc["seating"][1][0] == {"table": 1, "ns": "A", "ew": "D", "set": 2}
    engine = make_engine(db)
    try:
        from ledger.live.sessions import find_session

        assert find_session(engine, "club/file").deals == deals
    finally:
        engine.dispose()


@pytest.mark.parametrize("text,line,field", [
    ("1 1 A B 1\n1 1 C D 2\n", 2, "table"),
    ("1 1 A B 1\n1 2 C D x\n", 2, "set"),
    ("1 1 A B\n", 1, "line"),
    ("1 1 A B 1\n1 3 C D 2\n", 2, "table"),
    ("1 1 A B 1\n", None, "round"),  # table 2 never seated
])
def test_movement_file_errors_name_the_line_and_field(db, capsys, tmp_path, text, line, field):
    movement = tmp_path / "mv.txt"
    movement.write_text(text)
    code, _, err = run(capsys, "session", "open", "club/bad", "--tables", "2", "--movement-file", str(movement))
    assert code == 2 and f"field '{field}'" in err
    if line:
        assert f"line {line}" in err


def test_a_deal_file_missing_a_board_is_refused(db, capsys, tmp_path):
    pbn = tmp_path / "deals.pbn"
    pbn.write_text('[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n')
    code, _, err = run(capsys, "session", "open", "club/d", "--tables", "2", "--boards-per-round", "1",
                       "--deals", str(pbn))
    assert code == 2 and "no deal for board(s) [2]" in err
