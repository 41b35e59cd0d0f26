"""The live service hardened (issue 26, item 1), through its HTTP API on both stores:
security headers on every route, the sign-in form bound to a pre-session and
to this site's origin, ``__Host-`` cookies behind TLS, the sign-in throttle that
slows a guesser and never locks the owner out, 4xx with words for malformed
requests (deep JSON, huge integers in every query parameter), no internal
detail in any answer (a request id instead, found in the server's log), and a
revoked token's live feed closed at once. The browser side (a page of another
origin framing the console, posting the sign-in form) is tests/test_live_browser_attacks.py."""

from __future__ import annotations

import json
import re
import threading
import time

import httpx
import pytest
import sqlalchemy as sa
import structlog
from live_helpers import PASSWORD, TestClient, bearer, login_csrf, make_site, sign_in
from live_server import Server

from ledger.errors import StoreUnavailable
from ledger.live import accounts
from ledger.live.app import app_routes, create_app
from ledger.live.security import CSP
from ledger.live.throttle import SigninThrottle

T1_B1 = "club/eve/t1/b1"
SECRET_URL = "postgresql+psycopg://postgres:hunter2@10.9.8.7:5432/ledger"


@pytest.fixture
def site(store_url):
    return make_site(store_url)


@pytest.fixture
def client(site):
    with TestClient(create_app(site.url, ledger=site.ledger)) as c:
        yield c


def opened(client, site):
    r = client.post(f"/api/streams/{T1_B1}/events", json=[{"type": "BoardOpened"}],
                    headers=bearer(site.tokens[1]), params={"expected_seq": 0})
    assert r.status_code == 201, r.text


def assert_secure_headers(r, where):
    h = r.headers
    assert h.get("content-security-policy"), where
    csp = h["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "base-uri 'none'" in csp and "form-action 'self'" in csp, where
    script = re.search(r"script-src ([^;]*)", csp).group(1)
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, where
    assert h.get("x-frame-options") == "DENY", where
    assert h.get("x-content-type-options") == "nosniff", where
    assert h.get("referrer-policy") == "same-origin", where
    assert re.fullmatch(r"[0-9a-f]{12}", h.get("x-request-id", "")), where


def concrete(path: str, site) -> str:
    return (path.replace("{stream:path}", T1_B1).replace("{token}", site.tokens[1])
            .replace("{session_id}", str(site.session.id)))


def test_every_route_answers_the_security_headers_signed_in_or_not(client, site):
    opened(client, site)
    routes = [r for r in app_routes(client.app) if r.path != "/api/feed"]
    assert len(routes) >= 20
    anonymous = TestClient(client.app)
    sign_in(client, "alice")
    seen = 0
    for route in routes:
        path = concrete(route.path, site)
        for method in sorted(route.methods or {"GET"}):
            if method == "HEAD":
                continue
            for who in (client, anonymous):
                r = who.request(method, path, follow_redirects=False)
                assert r.status_code < 500, (method, path, r.text)
                assert_secure_headers(r, f"{method} {path} -> {r.status_code}")
                seen += 1
    for extra in ("/no/such/page", "/api/streams/%00/state", f"/table/{site.tokens[1]}x"):
        r = client.get(extra)
        assert 400 <= r.status_code < 500 and "request_id" in r.text or "<html" in r.text
        assert_secure_headers(r, extra)
    assert seen >= 40
    # no inline script on any page the server renders (the policy allows none)
    for page in ("/login", "/director", "/committee", f"/table/{site.tokens[1]}",
                 f"/director/board/{T1_B1}"):
        text = client.get(page).text
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", text) == [], page
        assert not re.search(r"\son[a-z]+=", text), page  # no inline event handler either


def test_the_api_documentation_allows_its_one_inline_script_by_hash_only(client):
    r = client.get("/docs")
    csp = r.headers["content-security-policy"]
    assert "'sha256-" in csp and "'unsafe-inline'" not in re.search(r"script-src ([^;]*)", csp).group(1)
    assert "frame-ancestors 'none'" in csp


def test_the_feed_answers_the_headers_and_hsts_behind_tls(site):
    with TestClient(create_app(site.url, ledger=site.ledger, secure_cookies=True),
                    base_url="https://testserver") as c:
        r = c.get("/login")
        assert r.headers["strict-transport-security"].startswith("max-age=31536000")
        assert r.headers["content-security-policy"] == CSP
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-ledger_presession=") and "Secure" in cookie and "Path=/" in cookie
        assert "samesite=strict" in cookie.lower() and "HttpOnly" in cookie and "Domain" not in cookie
        r = c.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(c)},
                   follow_redirects=False)
        assert r.status_code == 303, r.text
        names = [h.split("=")[0] for h in r.headers.get_list("set-cookie")]
        assert "__Host-ledger_session" in names and "__Host-ledger_device" in names
        assert all(n.startswith("__Host-") for n in names)
        assert c.get("/director").status_code == 200
        # An unprefixed cookie (which another port or host could have set) is not read.
        session = c.cookies.get("__Host-ledger_session")
        other = TestClient(c.app, base_url="https://testserver")
        other.cookies.set("ledger_session", session)
        assert other.get("/director", follow_redirects=False).status_code == 303
    with TestClient(create_app(site.url, ledger=site.ledger)) as plain:
        assert "strict-transport-security" not in plain.get("/login").headers


# -- sign-in: login CSRF -------------------------------------------------------

def test_a_sign_in_posted_by_another_origin_is_refused_and_signs_nobody_in(client, site):
    for headers in ({"Origin": "http://127.0.0.1:9999"}, {"Origin": "null"},
                    {"Referer": "http://127.0.0.1:9999/attack.html"}):
        token = login_csrf(client)  # even with a genuine form token and its pre-session
        r = client.post("/login", data={"name": "carol", "password": PASSWORD, "csrf": token},
                        headers=headers, follow_redirects=False)
        assert r.status_code == 403 and "another site" in r.text or "no origin" in r.text, r.text
        assert client.cookies.get("ledger_session") is None
    # The same form from this site's own page is accepted.
    r = client.post("/login", data={"name": "carol", "password": PASSWORD, "csrf": login_csrf(client)},
                    headers={"Origin": "http://testserver", "Referer": "http://testserver/login"},
                    follow_redirects=False)
    assert r.status_code == 303


def test_the_sign_in_form_is_bound_to_its_pre_session(client, site):
    attacker = TestClient(client.app)
    token = login_csrf(attacker)  # a genuine token, of the attacker's pre-session
    login_csrf(client)
    r = client.post("/login", data={"name": "carol", "password": PASSWORD, "csrf": token},
                    follow_redirects=False)
    assert r.status_code == 403 and "CSRF token of the sign-in form" in r.text
    # a cookie and a token the attacker made up (the old double submit) do not match either
    forged = TestClient(client.app)
    forged.cookies.set("ledger_presession", f"{int(time.time())}.made-up-by-the-attacker")
    r = forged.post("/login", data={"name": "carol", "password": PASSWORD, "csrf": "made-up-by-the-attacker"},
                    follow_redirects=False)
    assert r.status_code == 403
    assert forged.cookies.get("ledger_session") is None and client.cookies.get("ledger_session") is None


def test_every_state_changing_request_from_another_origin_is_refused(client, site):
    csrf = sign_in(client, "alice")
    before = site.count()
    r = client.post(f"/api/streams/{T1_B1}/events", json=[{"type": "BoardOpened"}],
                    headers={"X-CSRF-Token": csrf, "Origin": "http://127.0.0.1:9999"})
    assert r.status_code == 403 and "another site" in r.json()["message"] and r.json()["request_id"]
    r = client.post("/logout", data={"csrf": csrf}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    assert site.count() == before
    assert client.get("/director").status_code == 200  # still signed in: the logout was refused


# -- sign-in: throttling ---------------------------------------------------------

def test_the_throttle_delay_grows_exponentially_up_to_its_cap():
    now = [1000.0]
    t = SigninThrottle(free=3, base=1, cap=60, clock=lambda: now[0])
    waits = []
    for _ in range(12):
        t.failed(["name:alice"])
        waits.append(t.wait(["name:alice"]))
    assert waits == [0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60, 60]
    now[0] += 60
    assert t.wait(["name:alice"]) == 0 and t.wait(["name:bob"]) == 0
    t.succeeded(["name:alice"])
    assert t.failures("name:alice") == 0


def test_a_guesser_is_slowed_and_the_owner_still_signs_in_from_her_device(client, site):
    now = [5000.0]
    throttle = client.app.state.signin_throttle
    throttle.clock = lambda: now[0]

    owner = client
    sign_in(owner, "alice")  # she signed in from this device before (it has a device cookie)
    owner.post("/logout", data={"csrf": accounts.web_session(site.engine, owner.cookies.get("ledger_session")).csrf})
    guesser = TestClient(client.app)
    codes = []
    for i in range(8):
        r = guesser.post("/login", data={"name": "alice", "password": f"guess {i}",
                                          "csrf": login_csrf(guesser)}, follow_redirects=False)
        codes.append(r.status_code)
        now[0] += 0.1
    assert codes == [401, 401, 401] + [429] * 5  # refused unread while waiting: the wait does not grow
    r = guesser.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(guesser)},
                     follow_redirects=False)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1 and "wait" in r.text
    failures = throttle.failures("name:alice")
    # The owner, at her device, with her password: in at once, while the guesser is kept waiting.
    r = owner.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(owner)},
                   follow_redirects=False)
    assert r.status_code == 303, r.text
    assert throttle.failures("name:alice") == failures  # the guesser's count stays
    # A guesser who keeps trying every 12 s never locks her out either.
    for _ in range(5):
        now[0] += 12
        guesser.post("/login", data={"name": "alice", "password": "again", "csrf": login_csrf(guesser)})
    fresh = TestClient(client.app)
    fresh.cookies.set("ledger_device", owner.cookies.get("ledger_device"))
    r = fresh.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(fresh)},
                   follow_redirects=False)
    assert r.status_code == 303
    # A new device with the right password is slowed, not locked out: after the wait it is let in.
    newcomer = TestClient(client.app)
    r = newcomer.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(newcomer)},
                      follow_redirects=False)
    assert r.status_code == 429
    now[0] += int(r.headers["Retry-After"])
    r = newcomer.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(newcomer)},
                      follow_redirects=False)
    assert r.status_code == 303
    # A device cookie of another account or a forged one counts for nothing.
    forged = TestClient(client.app)
    forged.cookies.set("ledger_device", "x" * 20 + "." + "0" * 32)
    codes = [forged.post("/login", data={"name": "alice", "password": "no", "csrf": login_csrf(forged)}
                         ).status_code for _ in range(4)]
    assert codes == [401, 401, 401, 429] and throttle.failures("name:alice") == 3


def test_attempts_from_one_address_across_many_names_are_slowed(client, site):
    now = [100.0]
    client.app.state.signin_throttle.clock = lambda: now[0]
    codes = [client.post("/login", data={"name": f"user{i}", "password": "x", "csrf": login_csrf(client)}
                         ).status_code for i in range(5)]
    assert codes[:3] == [401, 401, 401] and codes[4] == 429


# -- malformed requests: 4xx with words ------------------------------------------

HUGE = ("99999999999999999999", "-99999999999999999999", "9" * 5000, "9007199254740993")


def test_huge_integers_in_every_query_parameter_are_400_naming_it(client, site):
    opened(client, site)
    csrf = sign_in(client, "alice")
    gets = [
        (f"/api/streams/{T1_B1}/state", "at"), ("/api/events", "after"), ("/api/events", "limit"),
        ("/api/feed", "after"), ("/director", "session"), ("/director/panel", "session"),
        (f"/api/streams/{T1_B1}/log", "at"), ("/api/sessions", "page"),
    ]
    for path, name in gets:
        for value in HUGE:
            r = client.get(path, params={name: value})
            assert r.status_code == 400, (path, name, r.status_code, r.text[:200])
            body = r.json()
            assert body["field"] == name and body["error"] == "bad_input" and body["request_id"]
            assert "whole number" in body["message"] or "characters" in body["message"]
    for value in HUGE:
        r = client.get(f"/api/sessions/{value}/results")
        assert r.status_code == 400 and r.json()["field"] == "session_id", r.text
        r = client.get("/api/feed", headers={"Last-Event-ID": value})
        assert r.status_code == 400 and r.json()["field"] == "Last-Event-ID"
        before = site.count()
        r = client.post(f"/api/streams/{T1_B1}/events", params={"expected_seq": value},
                        json=[{"type": "RulingGiven", "laws": ["2017:12C1"], "text": "x"}],
                        headers={"X-CSRF-Token": csrf})
        assert r.status_code == 400 and r.json()["field"] == "expected_seq"
        assert site.count() == before
    # within range but past the log: still an answer, not a crash
    assert client.get(f"/api/streams/{T1_B1}/state", params={"at": 2 ** 53 - 1}).status_code == 400
    assert client.get("/api/events", params={"after": 2 ** 53 - 1}).status_code == 200


def test_a_json_body_nested_1000_deep_or_with_huge_numbers_is_400_naming_the_field(client, site):
    before = site.count()
    cases = [
        ("[" * 1000 + "]" * 1000, None, "nested deeper"),
        ('[{"type": "BoardOpened", "board": ' + "[" * 1000 + "]" * 1000 + "}]", "board", "nested deeper"),
        ('{"type": "BoardOpened", "board": ' + "9" * 400 + "}", "board", "at most 20 digits"),
        ('[{"type": "BoardOpened"}, {"type": "ClaimMade", "seat": "N", "tricks": 1e999}]', "tricks", "finite"),
        ('[{"type": "BoardOpened"}, {"type": "CallPlaced", "seat": "N", "call": "1H", '
         '"n": 18446744073709551617}]', "n", "between"),
    ]
    for body, field, words in cases:
        r = client.post(f"/api/streams/{T1_B1}/events", content=body,
                        headers={**bearer(site.tokens[1]), "Content-Type": "application/json"})
        assert r.status_code == 400, r.text[:300]
        answer = r.json()
        assert words in answer["message"] and answer["request_id"]
        if field:
            assert answer["field"].startswith(field), answer
        assert len(r.text) < 2000
    assert site.count() == before


# -- no internal detail; a request id ----------------------------------------------

def test_a_store_failure_answers_words_and_a_request_id_never_the_url(client, site, monkeypatch):
    opened(client, site)

    def unavailable(*_a, **_k):
        raise StoreUnavailable(f"{SECRET_URL}: connection to server failed: Connection refused")

    monkeypatch.setattr(client.app.state.ledger, "state", unavailable)
    with structlog.testing.capture_logs() as logs:
        r = client.get(f"/api/streams/{T1_B1}/state", headers=bearer(site.tokens[1]))
    assert r.status_code == 503
    body = r.json()
    assert "10.9.8.7" not in r.text and "hunter2" not in r.text and "postgresql" not in r.text
    assert "cannot be reached" in body["message"] and body["request_id"] == r.headers["x-request-id"]
    assert body["request_id"] in body["message"]
    found = [e for e in logs if e.get("request_id") == body["request_id"] or e.get("event") == "live_store_failure"]
    assert any("10.9.8.7" in e.get("detail", "") for e in found), logs


def test_an_unexpected_failure_on_a_page_or_the_api_says_words_not_the_exception(client, site, monkeypatch):
    from ledger.live import views

    def broken(*_a, **_k):
        raise sa.exc.OperationalError("SELECT * FROM events WHERE secret", {}, Exception(
            f"connection to {SECRET_URL} failed"))

    monkeypatch.setattr(views, "current_board", broken)
    with structlog.testing.capture_logs() as logs:
        page = client.get(f"/table/{site.tokens[1]}")
        api = client.get("/api/table", headers=bearer(site.tokens[1]))
    assert page.status_code == 503 and api.status_code == 503
    assert "Reference for the director" in page.text and page.headers["x-request-id"] in page.text
    for r in (page, api):
        assert "SELECT" not in r.text and "10.9.8.7" not in r.text and "OperationalError" not in r.text
        assert "Traceback" not in r.text
    rids = {e.get("request_id") for e in logs if e.get("event") == "live_internal_error"}
    assert page.headers["x-request-id"] in rids and api.json()["request_id"] in rids
    crash = [e for e in logs if e.get("event") == "live_internal_error"][0]
    assert "SELECT" in crash["detail"] and "Traceback" in crash["traceback"]  # the log has it all

    monkeypatch.setattr(views, "current_board", lambda *a, **k: 1 / 0)
    r = client.get("/api/table", headers=bearer(site.tokens[1]))
    assert r.status_code == 500 and "ZeroDivision" not in r.text and "went wrong" in r.json()["message"]


# -- a revoked token's feed ------------------------------------------------------

@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)
def test_a_revoked_tokens_open_feed_is_closed_at_once(store_url):
    site = make_site(store_url)
    site.ledger.close()
    token = site.tokens[1]
    server = Server(store_url)
    try:
        url = server.base + f"/api/streams/{T1_B1}/events"
        r = httpx.post(url, headers=bearer(token), json=[{"type": "BoardOpened"}], timeout=60)
        assert r.status_code == 201, r.text
        lines: list[str] = []
        ended = threading.Event()
        first = threading.Event()

        def follow() -> None:
            with httpx.stream("GET", server.base + "/api/feed", params={"token": token, "after": 0},
                              timeout=90) as feed:
                for line in feed.iter_lines():
                    lines.append(line)
                    if line.startswith("data: ") and '"seq": 1' in line:
                        first.set()
            ended.set()

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        assert first.wait(60), lines
        accounts.revoke_table_tokens(site.engine, site.session.id, 1)  # `session token --revoke`
        revoked_at = time.monotonic()
        # The director logs on the table's board: the revoked device must not hear of it.
        director = httpx.Client(base_url=server.base, timeout=60)  # a loaded machine is slow
        csrf_form = re.search(r'name="csrf" value="([^"]+)"', director.get("/login").text).group(1)
        director.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": csrf_form})
        ws = accounts.web_session(site.engine, director.cookies.get("ledger_session"))
        r = director.post(url, json=[{"type": "RulingGiven", "laws": ["2017:12C1"], "text": "secret ruling"}],
                          headers={"X-CSRF-Token": ws.csrf})
        assert r.status_code == 201, r.text
        assert ended.wait(60), "the feed stayed open after the revocation"
        assert time.monotonic() - revoked_at < 30  # seconds: a few on a quiet machine
        data = [json.loads(line[6:]) for line in lines if line.startswith("data: ")]
        assert [d.get("seq") for d in data if "seq" in d] == [1]  # nothing after the revocation
        assert "withdrawn" in data[-1]["message"] and "event: revoked" in lines
        again = httpx.get(server.base + "/api/feed", params={"token": token}, timeout=60)
        assert again.status_code == 403 and "revoked" in again.json()["message"]
        director.close()
    finally:
        server.stop()
