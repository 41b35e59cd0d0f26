"""A PostgreSQL restart under a running server (issue 26, item 1): players and the
director see words and a reference, never "HTTP 500", an exception or the database
URL; the reference is in the server's log with the real cause; once the database
is back the same append goes through.

The shared PostgreSQL server is not restarted (other databases live on it): the
server reaches it through a small TCP relay on another port, and the "restart"
cuts every connection the relay carries and refuses new ones for a while, as a
restarting PostgreSQL does."""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import pytest
from live_helpers import bearer, make_site
from live_server import Server
from sqlalchemy.engine import make_url

T1_B1 = "club/eve/t1/b1"


class Relay:
    """TCP relay 127.0.0.1:<port> -> the database; ``down()`` cuts it, ``up()`` restores it."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.up()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def down(self) -> None:
        if self.listener is not None:
            self.listener.close()
            self.listener = None
        with self.lock:
            for s in self.conns:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self.conns.clear()


@pytest.mark.parametrize("backend", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
def test_players_see_words_not_http_500_nor_the_url_while_postgresql_restarts(store_url):
    site = make_site(store_url)
    site.ledger.close()
    url = make_url(store_url)
    relay = Relay(url.host or "127.0.0.1", url.port or 5432)
    relayed = url.set(port=relay.port).render_as_string(hide_password=False)
    server = Server(relayed)
    token = site.tokens[1]
    events = server.base + f"/api/streams/{T1_B1}/events"
    try:
        r = httpx.post(events, headers=bearer(token), json=[{"type": "BoardOpened", "id": "b1-open"}])
        assert r.status_code == 201, r.text
        relay.down()  # PostgreSQL restarts: every connection cut, new ones refused
        call = [{"type": "CallPlaced", "seat": "N", "call": "1NT", "id": "b1-call-1"}]
        answers = {
            "append": httpx.post(events, headers=bearer(token), json=call, timeout=60),
            "table page": httpx.get(server.base + f"/table/{token}", timeout=60),
            "board now": httpx.get(server.base + "/api/table", headers=bearer(token), timeout=60),
            "state": httpx.get(server.base + f"/api/streams/{T1_B1}/state", headers=bearer(token), timeout=60),
        }
        forbidden = ("postgresql", "psycopg", "127.0.0.1", str(relay.port), "Traceback", "Internal Server Error",
                     "OperationalError", "SELECT", url.database or "test")
        for what, r in answers.items():
            assert r.status_code in (503, 500), (what, r.status_code, r.text[:300])
            for word in forbidden:
                assert word not in r.text, (what, word, r.text[:500])
            rid = r.headers["x-request-id"]
            assert rid in r.text, (what, r.text[:300])
            if r.headers["content-type"].startswith("application/json"):
                assert "cannot be reached" in r.json()["message"] or "went wrong" in r.json()["message"]
            else:
                assert "Reference for the director" in r.text
        server._errors.seek(0)  # the server's structlog log (its stderr)
        logged = [json.loads(line) for line in server._errors.read().decode().splitlines()
                  if line.startswith("{")]
        rid = answers["append"].headers["x-request-id"]
        mine = [e for e in logged if e.get("request_id") == rid]
        assert mine and any(e.get("level") == "error" for e in mine), logged[-5:]
        relay.up()  # PostgreSQL is back: the same append (its id makes it safe) goes through
        deadline = time.monotonic() + 30
        while True:
            r = httpx.post(events, headers=bearer(token), json=call, timeout=60)
            if r.status_code in (200, 201) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert r.status_code in (200, 201), r.text
        assert r.json()["seqs"] == [2]
    finally:
        server.stop()
        relay.down()
