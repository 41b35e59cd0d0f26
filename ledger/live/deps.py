"""The credentials of the live service, and the dependencies (``Depends``) routes declare.

A table device presents its token (``Authorization: Bearer``, or the page's URL); a
person signs in and gets a cookie session, and every write made with the cookie carries
the session's CSRF token (``X-CSRF-Token``). :func:`principal` resolves either; the
``Annotated`` aliases below are what the routes ask for:

* ``LiveDep``: the process's :class:`~ledger.live.state.LiveState`;
* ``ReaderDep``: whoever reads (a table token or a signed-in person);
* ``StreamReaderDep``: the same, for the ``{stream}`` of the path, within the token's
  scope (a table reads its own table's boards only);
* ``TableDep``: a table token only;
* ``DirectorPage``, ``PeoplePage``: a signed-in person of those roles, else the
  sign-in page (:class:`~ledger.live.errors.SignInFirst`, answered 303).
"""

from __future__ import annotations

from typing import Annotated, Callable

import attrs
from fastapi import Depends, Request

from ledger.live import accounts
from ledger.live.accounts import Refused, TableGrant, User
from ledger.live.errors import SignInFirst
from ledger.live.sessions import Session, get_session
from ledger.live.state import LiveState
from ledger.service import check_stream_id

COOKIE = "ledger_session"


@attrs.frozen
class Table:
    """A table terminal's credential, resolved."""

    grant: TableGrant
    session: Session
    token_key: str = ""
    """The token's digest: the key of its rate limit."""

    @property
    def seat(self) -> str | None:
        """A seat device's seat; None for the table's shared device."""
        return self.grant.seat

    @property
    def actor(self) -> dict[str, str]:
        name = self.session.table_actor_name(self.grant.table)
        return {"role": "table", "name": f"{name}-{self.seat}" if self.seat else name}

    @property
    def prefix(self) -> str:
        return self.session.table_prefix(self.grant.table)

    @property
    def label(self) -> str:
        return self.session.table_label(self.grant.table)


@attrs.frozen
class Person:
    user: User
    csrf: str

    @property
    def actor(self) -> dict[str, str]:
        return {"role": self.user.role, "name": self.user.name}


Principal = Table | Person


async def get_live(request: Request) -> LiveState:
    """The process's state. ``async``: FastAPI runs a plain ``def`` dependency in the thread
    pool, a trip to a worker thread and back for every request only to read an attribute
    (issue 28: about a tenth of the live server's CPU per append at 300 tables)."""
    live: LiveState = request.app.state.live
    return live


LiveDep = Annotated[LiveState, Depends(get_live)]


def table_from_token(live: LiveState, token: str | None) -> Table:
    grant = accounts.table_grant(live.reads, token)
    session = live.sessions_seen.get(grant.session_id)
    if session is None:
        found = get_session(live.engine, grant.session_id)
        assert found is not None  # a token's session is never deleted
        session = live.sessions_seen[grant.session_id] = attrs.evolve(found, closed_at=None)
    if grant.session_closed_at is not None:
        raise Refused(f"session {session.tournament}/{session.name} is closed", 403)
    return Table(grant, session, accounts.digest(token or ""))


def principal(live: LiveState, request: Request, *, write: bool = False) -> Principal:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return table_from_token(live, header[7:].strip())
    token = request.query_params.get("token")
    if token and not write:  # EventSource cannot send a header
        return table_from_token(live, token)
    ws = accounts.web_session(live.reads, request.cookies.get(COOKIE))
    if ws is None:
        raise Refused("sign in (a director or committee account) or present a table token", 401)
    if write and request.headers.get("x-csrf-token") != ws.csrf:
        raise Refused("missing or wrong CSRF token (X-CSRF-Token): reload the page", 403)
    return Person(ws.user, ws.csrf)


def may_read(who: Principal, stream: str) -> None:
    if isinstance(who, Table) and not stream.startswith(who.prefix):
        raise Refused(f"{who.label}'s token may read only its own table's boards "
                      f"({who.prefix}...)", 403)


def person_page(live: LiveState, request: Request, roles: tuple[str, ...]) -> Person | None:
    ws = accounts.web_session(live.reads, request.cookies.get(COOKIE))
    if ws is None or ws.user.role not in roles:
        return None
    return Person(ws.user, ws.csrf)


def reader(request: Request, live: LiveDep) -> Principal:
    return principal(live, request)


ReaderDep = Annotated[Principal, Depends(reader)]


async def stream_reader(stream: str, who: ReaderDep) -> Principal:  # no I/O: no thread
    check_stream_id(stream)
    may_read(who, stream)
    return who


StreamReaderDep = Annotated[Principal, Depends(stream_reader)]


async def table_only(who: ReaderDep) -> Table:  # no I/O: no thread
    if not isinstance(who, Table):
        raise Refused("this is a table terminal's call: present the table token", 403)
    return who


TableDep = Annotated[Table, Depends(table_only)]


def needs(roles: tuple[str, ...]) -> Callable[..., Person]:
    """A dependency: a signed-in person of one of ``roles``, else to the sign-in page."""

    def signed_in(request: Request, live: LiveDep) -> Person:
        who = person_page(live, request, roles)
        if who is None:
            raise SignInFirst(str(request.url.path))
        return who

    return signed_in


DirectorPage = Annotated[Person, Depends(needs(("director",)))]
PeoplePage = Annotated[Person, Depends(needs(("director", "committee")))]
