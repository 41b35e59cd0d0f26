"""Helpers for the live service's tests: a ledger with a director, a committee
member, an open session and a token per table, and the app over it."""

from __future__ import annotations

import re
import warnings
from typing import Any

import attrs

from ledger.live import accounts
from ledger.live.db import live_engine
from ledger.live.sessions import Session, open_session
from ledger.service import Ledger
from ledger.store.migrate import upgrade

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # httpx under the hood

PASSWORD = "correct horse battery"

# Argon2id still, with small costs so that each test's accounts take
# milliseconds (tests/test_live_sessions.py checks the real parameters).
from argon2 import PasswordHasher  # noqa: E402

accounts._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@attrs.define
class Site:
    url: str
    ledger: Ledger
    session: Session
    tokens: dict[int, str]
    engine: Any
    """The live tables' engine (ledger.live.db), as the server has its own."""

    def count(self) -> int:
        return sum(1 for _ in self.ledger.store.iter_all())

    def stream(self, table: int, board: int) -> str:
        return self.session.stream(table, board)


def make_site(url: str, *, tables: int = 3, boards_per_round: int = 2, seed: int = 5,
              entry: str = "cards", clock_minutes: int | None = None) -> Site:
    upgrade(url)
    ledger = Ledger.open(url)
    engine = live_engine(url)
    accounts.add_user(engine, "alice", "director", PASSWORD)
    accounts.add_user(engine, "carol", "committee", PASSWORD)
    session = open_session(engine, tournament="club", name="eve", tables=tables,
                           boards_per_round=boards_per_round, seed=seed, entry=entry,
                           clock_minutes=clock_minutes)
    tokens = {t: accounts.issue_table_token(engine, session.id, t) for t in range(1, tables + 1)}
    return Site(url, ledger, session, tokens, engine)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def login_csrf(client: Any) -> str:
    """Open the sign-in form (which sets its CSRF cookie); return the form's CSRF token."""
    r = client.get("/login")
    assert r.status_code == 200, r.text
    found = re.search(r'name="csrf" value="([^"]+)"', r.text)
    assert found, r.text
    return found.group(1)


def sign_in(client: TestClient, name: str) -> str:
    """Sign in on ``client`` through the form; return the session's CSRF token."""
    form_csrf = login_csrf(client)
    r = client.post("/login", data={"name": name, "password": PASSWORD, "csrf": form_csrf},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    cookie = client.cookies.get("ledger_session")
    ws = accounts.web_session(client.app.state.live_engine, cookie)
    assert ws is not None
    return ws.csrf
