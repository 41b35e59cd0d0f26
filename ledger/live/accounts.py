"""Who may write: directors' and committee members' accounts, their cookie
sessions (with a CSRF token each), and table tokens scoped to one table.

Passwords are hashed with Argon2id (argon2-cffi's ``PasswordHasher``, the
RFC 9106 parameters); web-session cookies and table tokens are random
(``secrets.token_urlsafe``) and only their SHA-256 is stored, so a copy of the
database lets nobody sign in or log for a table. A revoked token (a lost
tablet) is refused from then on, with that reason.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime, timedelta, timezone
from typing import Any

import attrs
import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.engine import Engine

from ledger.errors import BadInput, LedgerError
from ledger.live.schema import live_sessions, live_table_tokens, live_users, live_web_sessions

PEOPLE_ROLES = ("director", "committee")
USER_NAME = re.compile(r"^[A-Za-z0-9._@-]{1,100}$")
SESSION_HOURS = 12
MIN_PASSWORD = 8

_hasher = PasswordHasher()


class Refused(LedgerError):
    """A credential the server does not accept (HTTP 401/403); the reason is shown."""

    exit_code = 4

    def __init__(self, reason: str, status: int = 403) -> None:
        self.reason = reason
        self.status = status
        super().__init__(reason)


def now() -> datetime:
    return datetime.now(timezone.utc)


def stamp(moment: datetime | None = None) -> str:
    return (moment or now()).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.frozen
class User:
    id: int
    name: str
    role: str


@attrs.frozen
class WebSession:
    user: User
    csrf: str


@attrs.frozen
class TableGrant:
    """What a table token allows: one table of one session."""

    session_id: int
    table: int
    session_closed_at: str | None = None
    seat: str | None = None
    """A seat device's seat (N, E, S, W); None for the table's shared device."""


def add_user(engine: Engine, name: str, role: str, password: str) -> User:
    if not USER_NAME.match(name or ""):
        raise BadInput("a user name is 1 to 100 characters of A-Z a-z 0-9 . _ @ -", field="NAME",
                       value=name)
    if role not in PEOPLE_ROLES:
        raise BadInput("the role of a person is director or committee", field="--role", value=role)
    if len(password) < MIN_PASSWORD:
        raise BadInput(f"a password has at least {MIN_PASSWORD} characters", field="password",
                       value="(hidden)")
    with engine.begin() as conn:
        if conn.execute(sa.select(live_users.c.id).where(live_users.c.name == name)).first():
            raise BadInput("a user with that name exists", field="NAME", value=name)
        key = conn.execute(live_users.insert().values(
            name=name, role=role, password_hash=_hasher.hash(password), created_at=stamp(),
        )).inserted_primary_key
        assert key is not None  # an INSERT of one row always has its key
        new_id = key[0]
    return User(int(new_id), name, role)


def list_users(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(live_users.c.name, live_users.c.role, live_users.c.created_at,
                                      live_users.c.disabled_at).order_by(live_users.c.name)).all()
    return [dict(r._mapping) for r in rows]


def authenticate(engine: Engine, name: str, password: str) -> User:
    with engine.connect() as conn:
        row = conn.execute(sa.select(live_users).where(live_users.c.name == name)).first()
    if row is None or row.disabled_at is not None:
        _hasher_dummy_verify(password)
        raise Refused("unknown user or wrong password", 401)
    try:
        _hasher.verify(row.password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        raise Refused("unknown user or wrong password", 401) from None
    return User(row.id, row.name, row.role)


def _hasher_dummy_verify(password: str) -> None:
    """Spend the same time for an unknown user as for a wrong password."""
    try:
        _hasher.verify(_DUMMY_HASH, password)
    except VerificationError:
        pass


_DUMMY_HASH = _hasher.hash("not a password of anyone")


def open_web_session(engine: Engine, user: User) -> tuple[str, str]:
    """A new cookie session for ``user``: (cookie value, CSRF token)."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    with engine.begin() as conn:
        conn.execute(live_web_sessions.insert().values(
            token_hash=digest(token), user_id=user.id, csrf=csrf, created_at=stamp(),
            expires_at=stamp(now() + timedelta(hours=SESSION_HOURS))))
    return token, csrf


def web_session(engine: Engine, cookie: str | None) -> WebSession | None:
    if not cookie:
        return None
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(live_web_sessions.c.csrf, live_web_sessions.c.expires_at, live_users.c.id,
                      live_users.c.name, live_users.c.role, live_users.c.disabled_at)
            .join(live_users, live_users.c.id == live_web_sessions.c.user_id)
            .where(live_web_sessions.c.token_hash == digest(cookie))).first()
    if row is None or row.disabled_at is not None or row.expires_at < stamp():
        return None
    return WebSession(User(row.id, row.name, row.role), row.csrf)


def close_web_session(engine: Engine, cookie: str | None) -> None:
    """Sign out: the session row expires now (the cookie is then worthless)."""
    if cookie:
        with engine.begin() as conn:
            conn.execute(live_web_sessions.update()
                         .where(live_web_sessions.c.token_hash == digest(cookie))
                         .values(expires_at=stamp()))


def issue_table_token(engine: Engine, session_id: int, table: int) -> str:
    token = secrets.token_urlsafe(24)
    with engine.begin() as conn:
        conn.execute(live_table_tokens.insert().values(
            token_hash=digest(token), session_id=session_id, table_no=table, created_at=stamp()))
    return token


SEAT_MARK = "."
"""A seat token is ``<seat>.<random>``: the seat is part of the token, so part of its stored
digest (a holder who changes the seat has a token nobody issued). ``.`` never occurs in a
table token (URL-safe base64)."""


def issue_seat_token(engine: Engine, session_id: int, table: int, seat: str) -> str:
    """A player's own device at one seat of one table (his hand, dummy's after the lead)."""
    if seat not in ("N", "E", "S", "W"):
        raise ValueError(f"a seat is N, E, S or W, not {seat!r}")
    token = f"{seat}{SEAT_MARK}{secrets.token_urlsafe(24)}"
    with engine.begin() as conn:
        conn.execute(live_table_tokens.insert().values(
            token_hash=digest(token), session_id=session_id, table_no=table, created_at=stamp()))
    return token


def seat_of(token: str) -> str | None:
    return token[0] if len(token) > 2 and token[1] == SEAT_MARK and token[0] in "NESW" else None


def revoke_table_tokens(engine: Engine, session_id: int, table: int) -> int:
    """Revoke every live token of the table (a lost tablet); the count revoked."""
    with engine.begin() as conn:
        result = conn.execute(live_table_tokens.update()
                              .where(live_table_tokens.c.session_id == session_id,
                                     live_table_tokens.c.table_no == table,
                                     live_table_tokens.c.revoked_at.is_(None))
                              .values(revoked_at=stamp()))
    return result.rowcount or 0


_GRANT = (sa.select(live_table_tokens, live_sessions.c.closed_at)
          .join(live_sessions, live_sessions.c.id == live_table_tokens.c.session_id)
          .where(live_table_tokens.c.token_hash == sa.bindparam("token_hash")))
"""The token look-up of every table request, built once: its compiled form's cache key
is computed once (memoized on the statement), not at each request."""


def table_grant(engine: Engine, token: str | None) -> TableGrant:
    if not token:
        raise Refused("no table token: open the URL the director gave for this table", 401)
    with engine.connect() as conn:  # one query: the token and whether its session is closed
        row = conn.execute(_GRANT, {"token_hash": digest(token)}).first()
    if row is None:
        raise Refused("unknown table token", 401)
    if row.revoked_at is not None:
        raise Refused(f"this table token was revoked at {row.revoked_at}; ask the director for a "
                      "new one", 403)
    return TableGrant(row.session_id, row.table_no, row.closed_at, seat_of(token))
