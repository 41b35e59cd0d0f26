"""The live service's tables (migration ``0003``), on the ledger's metadata.

Nothing here is an event: who may write (users, table tokens, web sessions)
and what a session is (its tables, movement, boards). The audit trail stays in
the event log, where every event's actor is the one the server established.

* ``live_users``: directors and committee members; ``password_hash`` is an
  Argon2id string (argon2-cffi), never the password.
* ``live_web_sessions``: a signed-in person's cookie session; the cookie value
  is never stored, only its SHA-256 (``token_hash``); ``csrf`` is the
  session's CSRF token, sent back in a header or form field on every write.
* ``live_sessions``: a playing session: tournament, name, tables, rounds,
  boards per round, movement (JSON), laws edition, scoring, deals (JSON).
* ``live_table_tokens``: a terminal's credential, scoped to one table of one
  session (SHA-256 of the token stored); ``revoked_at`` set when revoked.
"""

from __future__ import annotations

import sqlalchemy as sa

from ledger.store.schema import metadata

live_users = sa.Table(
    "live_users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("disabled_at", sa.String(32), nullable=True),
    sa.UniqueConstraint("name"),
)

live_web_sessions = sa.Table(
    "live_web_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("live_users.id"), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("expires_at", sa.String(32), nullable=False),
)

live_sessions = sa.Table(
    "live_sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tournament", sa.String(60), nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("tables", sa.Integer, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("boards_per_round", sa.Integer, nullable=False),
    sa.Column("movement", sa.Text, nullable=False),
    sa.Column("laws", sa.String(8), nullable=False),
    sa.Column("scoring", sa.String(8), nullable=False),
    sa.Column("deals", sa.Text, nullable=False),
    sa.Column("opened_at", sa.String(32), nullable=False),
    sa.Column("opened_by", sa.String(100), nullable=True),
    sa.Column("closed_at", sa.String(32), nullable=True),
    sa.UniqueConstraint("tournament", "name"),
)

live_table_tokens = sa.Table(
    "live_table_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("live_sessions.id"), nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("revoked_at", sa.String(32), nullable=True),
)
