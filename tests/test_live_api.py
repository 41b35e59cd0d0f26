"""The live service's HTTP API against the ASGI app (httpx), on both stores:
enrolment, every role and scope refusal, retries, conflicts, bad input, and
nothing written on any refusal."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_helpers import PASSWORD, TestClient, bearer, login_csrf, make_site, sign_in

from ledger.live.app import MAX_BODY, app_routes, create_app
from ledger.live.bench import server_timing

T1_B1 = "club/eve/t1/b1"


@pytest.fixture
def site(store_url):
    s = make_site(store_url)
    yield s


@pytest.fixture
def client(site):
    with TestClient(create_app(site.url, ledger=site.ledger)) as c:
        yield c


def post(client, stream, facts, token=None, expected=None, **kw):
    params = {} if expected is None else {"expected_seq": expected}
    headers = kw.pop("headers", {})
    if token:
        headers.update(bearer(token))
    return client.post(f"/api/streams/{stream}/events", json=facts, params=params, headers=headers, **kw)


def opened(client, site, table=1):
    r = post(client, site.stream(table, site.session.schedule(table)[0][2]), [{"type": "BoardOpened"}],
             site.tokens[table], expected=0)
    assert r.status_code == 201, r.text
    return r.json()


def test_a_table_token_opens_its_board_with_the_sessions_deal_and_the_server_sets_the_actor(client, site):
    body = opened(client, site)
    event = body["events"][0]
    assert event["type"] == "BoardOpened" and event["actor"] == {"role": "table", "name": "t1"}
    # the session's deal is stored; the table device is not sent it (Law 16: docs/live.md)
    assert event["data"]["deal"] is None and event["data"]["board"] == 1
    stored = site.ledger.events(T1_B1)[0].envelope()
    assert stored["data"]["deal"] == site.session.deals[1]
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H"}], site.tokens[1], expected=1)
    assert r.status_code == 201 and r.json()["seqs"] == [2]
    assert r.json()["events"][0]["actor"] == {"role": "table", "name": "t1"}
    state = client.get(f"/api/streams/{T1_B1}/state", headers=bearer(site.tokens[1])).json()
    assert [a["call"] for a in state["auction"]] == ["1H"]


def test_an_append_says_where_the_servers_time_went(client, site):
    """Server-Timing: waiting for a thread, the credential and body, the ledger's append,
    the whole (ms); the bench reads it to tell the server's time from the network's."""
    board = opened(client, site)
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H"}], site.tokens[1],
             expected=board["head_seq"])
    assert r.status_code == 201
    parts = server_timing(r.headers["server-timing"])
    assert set(parts) == {"queue", "credential", "append", "total"}
    assert all(v >= 0 for v in parts.values())
    assert parts["append"] > 0 and parts["total"] >= parts["append"] + parts["credential"] - 0.02


@pytest.mark.parametrize("claimed", [
    {"role": "director"}, {"role": "director", "name": "alice"}, {"role": "table", "name": "t2"},
    {"role": "committee"}, {"role": "system"}, "director",
])
def test_a_line_claiming_another_actor_is_refused_403_and_nothing_is_written(client, site, claimed):
    opened(client, site)
    before = site.count()
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H"},
                             {"type": "CallPlaced", "seat": "E", "call": "Pass", "actor": claimed}],
             site.tokens[1])
    assert r.status_code == 403
    assert r.json()["line"] == 2 and "the server sets the actor" in r.json()["message"]
    assert site.count() == before


def test_claiming_your_own_actor_is_accepted(client, site):
    opened(client, site)
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H",
                              "actor": {"role": "table", "name": "t1"}}], site.tokens[1])
    assert r.status_code == 201


def test_a_table_may_not_append_director_events(client, site):
    opened(client, site)
    before = site.count()
    r = post(client, T1_B1, [{"type": "RulingGiven", "laws": ["2017:64A2"], "text": "x"}], site.tokens[1])
    assert r.status_code == 403 and r.json()["role"] == "table"
    assert "may not append RulingGiven" in r.json()["message"]
    assert site.count() == before


@pytest.mark.parametrize("stream,why", [
    ("club/eve/t2/b3", "only to its current board"),    # another table's board
    ("club/eve/t1/b2", "only to its current board"),    # its own next board, not yet
    ("club/other/t1/b1", "only to its current board"),  # another session
])
def test_a_table_token_is_scoped_to_its_tables_current_board(client, site, stream, why):
    before = site.count()
    r = post(client, stream, [{"type": "BoardOpened"}], site.tokens[1], expected=0)
    assert r.status_code == 403 and why in r.json()["message"]
    assert site.count() == before


def test_a_tables_board_opened_must_be_the_sessions_board(client, site):
    r = post(client, T1_B1, [{"type": "BoardOpened", "deal": site.session.deals[2]}], site.tokens[1])
    assert r.status_code == 400 and r.json()["field"] == "deal"
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H"}], site.tokens[1])
    assert r.status_code == 400 and "first event is BoardOpened" in r.json()["message"]
    assert site.count() == 0


def test_tokens_unknown_missing_and_revoked(client, site):
    from ledger.live.accounts import revoke_table_tokens

    r = post(client, T1_B1, [{"type": "BoardOpened"}], "no-such-token")
    assert r.status_code == 401 and "unknown table token" in r.json()["message"]
    r = post(client, T1_B1, [{"type": "BoardOpened"}])
    assert r.status_code == 401 and "sign in" in r.json()["message"]
    revoke_table_tokens(site.engine, site.session.id, 1)
    r = post(client, T1_B1, [{"type": "BoardOpened"}], site.tokens[1])
    assert r.status_code == 403 and "revoked" in r.json()["message"]
    assert client.get(f"/table/{site.tokens[1]}").status_code == 403
    assert site.count() == 0


def test_a_retry_with_the_same_ids_answers_the_stored_seqs_and_writes_nothing(client, site):
    opened(client, site)
    facts = [{"type": "CallPlaced", "seat": "N", "call": "1H", "id": "t1-b1-c1"},
             {"type": "CallPlaced", "seat": "E", "call": "Pass", "id": "t1-b1-c2"}]
    first = post(client, T1_B1, facts, site.tokens[1], expected=1)
    assert first.status_code == 201 and first.json()["seqs"] == [2, 3]
    count = site.count()
    again = post(client, T1_B1, facts, site.tokens[1], expected=1)  # lost answer, same expected_seq
    assert again.status_code == 200 and again.json() == {**again.json(), "seqs": [2, 3], "replayed": True}
    assert site.count() == count
    other = post(client, T1_B1, [{**facts[0], "call": "2H"}], site.tokens[1])
    assert other.status_code == 400 and other.json()["field"] == "id"


def test_a_stale_expected_seq_is_409_and_nothing_is_written(client, site):
    opened(client, site)
    before = site.count()
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H"}], site.tokens[1], expected=0)
    assert r.status_code == 409 and r.json()["expected_seq"] == 0 and r.json()["head_seq"] == 1
    assert site.count() == before


@pytest.mark.parametrize("facts,line,field", [
    ([{"type": "CallPlaced", "seat": "N", "call": "1H"}, {"type": "Nonsense"}], 2, "type"),
    ([{"type": "CallPlaced", "seat": "N", "call": "10H"}], 1, "call"),  # 8H is a bid of more than seven (38)
    ([{"type": "CallPlaced", "seat": "Q", "call": "1H"}], 1, "seat"),
    ([{"type": "CallPlaced", "seat": "N", "call": "1H", "id": "has space"}], 1, "id"),
    ([{"type": "BoardOpened"}], 1, None),  # a second BoardOpened
    ([["not", "an", "object"]], 1, "line"),
])
def test_bad_input_is_400_naming_line_field_and_value(client, site, facts, line, field):
    opened(client, site)
    before = site.count()
    r = post(client, T1_B1, facts, site.tokens[1])
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad_input" and body["line"] == line
    if field:
        assert body["field"] == field and f"line {line}" in body["message"]
    assert site.count() == before


def test_json_lines_bodies_and_their_errors_name_the_line(client, site):
    opened(client, site)
    lines = '{"type": "CallPlaced", "seat": "N", "call": "1H"}\n\n{"type": "CallPlaced", "seat": "E", "call": "Pass"}\n'
    r = client.post(f"/api/streams/{T1_B1}/events", content=lines,
                    headers={**bearer(site.tokens[1]), "Content-Type": "application/x-ndjson"})
    assert r.status_code == 201 and r.json()["seqs"] == [2, 3]
    before = site.count()
    r = client.post(f"/api/streams/{T1_B1}/events", content='{"type": "CallPlaced"\n',
                    headers={**bearer(site.tokens[1]), "Content-Type": "application/x-ndjson"})
    assert r.status_code == 400 and r.json()["line"] == 1 and "malformed JSON" in r.json()["message"]
    assert site.count() == before


@pytest.mark.parametrize("content,ctype,status", [
    (b"x" * (MAX_BODY + 1), "application/json", 413),
    (b'[{"type": "DirectorCalled", "by": "N"}]', "text/html", 415),
    (b'[{"type": "DirectorCalled", "by": "N"}]', "", 415),
    (b"", "application/json", 400),
    (b"[]", "application/json", 400),
    (b"\xff\xfe", "application/json", 400),
    (b'{"type": ', "application/json", 400),
])
def test_bodies_the_api_refuses(client, site, content, ctype, status):
    opened(client, site)
    before = site.count()
    headers = bearer(site.tokens[1])
    if ctype:
        headers["Content-Type"] = ctype
    r = client.post(f"/api/streams/{T1_B1}/events", content=content, headers=headers)
    assert r.status_code == status, r.text
    assert r.json()["message"]
    assert site.count() == before


def test_expected_seq_that_is_not_a_number(client, site):
    r = client.post(f"/api/streams/{T1_B1}/events?expected_seq=abc", json=[{"type": "BoardOpened"}],
                    headers=bearer(site.tokens[1]))
    assert r.status_code == 400 and r.json()["field"] == "expected_seq" and r.json()["value"] == "abc"
    assert site.count() == 0


def test_unknown_routes_and_streams_are_404(client, site):
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["message"] == "Not Found"
    csrf = sign_in(client, "alice")
    r = post(client, "nowhere/b1", [{"type": "RulingGiven", "laws": ["2017:82A"], "text": "x"}],
             headers={"X-CSRF-Token": csrf})
    assert r.status_code == 404 and r.json()["stream"] == "nowhere/b1"
    r = client.get("/api/streams/nowhere/b1/state")
    assert r.status_code == 404


def test_people_need_the_csrf_token_to_write_with_their_cookie(client, site):
    opened(client, site)
    csrf = sign_in(client, "alice")
    ruling = [{"type": "RulingGiven", "laws": ["2017:82A"], "text": "play on"}]
    before = site.count()
    r = post(client, T1_B1, ruling)
    assert r.status_code == 403 and "CSRF" in r.json()["message"]
    r = post(client, T1_B1, ruling, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    assert site.count() == before
    r = post(client, T1_B1, ruling, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201
    assert r.json()["events"][0]["actor"] == {"role": "director", "name": "alice"}


def test_roles_of_people_director_and_committee(client, site):
    opened(client, site)
    csrf = sign_in(client, "alice")
    appeal = post(client, T1_B1, [{"type": "AppealLodged", "side": "EW", "text": "x"}],
                  headers={"X-CSRF-Token": csrf})
    assert appeal.status_code == 201
    before = site.count()
    decided = [{"type": "AppealDecided", "decision": "upheld", "text": "y"}]
    r = post(client, T1_B1, decided, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 403 and "may not append AppealDecided" in r.json()["message"]
    assert site.count() == before
    client.cookies.clear()
    csrf = sign_in(client, "carol")
    r = post(client, T1_B1, decided, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201 and r.json()["events"][0]["actor"] == {"role": "committee", "name": "carol"}


def test_a_wrong_password_signs_nobody_in(client, site):
    r = client.post("/login", data={"name": "alice", "password": "wrong password",
                                     "csrf": login_csrf(client)}, follow_redirects=False)
    assert r.status_code == 401 and "wrong password" in r.text
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_reads_state_log_casefile_events_results_and_their_scopes(client, site):
    opened(client, site)
    opened(client, site, table=2)
    t1 = bearer(site.tokens[1])
    log = client.get(f"/api/streams/{T1_B1}/log", headers=t1).json()["events"]
    assert [e["type"] for e in log] == ["BoardOpened"]
    r = client.get("/api/streams/club/eve/t2/b3/state", headers=t1)
    assert r.status_code == 403 and "its own table" in r.json()["message"]
    assert client.get(f"/api/streams/{T1_B1}/casefile", headers=t1).status_code == 403
    seen = client.get("/api/events", params={"after": 0}, headers=t1).json()
    assert {e["stream"] for e in seen["events"]} == {T1_B1}
    sign_in(client, "alice")
    every = client.get("/api/events", params={"after": 0}).json()["events"]
    assert [e["position"] for e in every] == sorted(e["position"] for e in every) and len(every) == 2
    later = client.get("/api/events", params={"after": every[0]["position"]}).json()["events"]
    assert later == every[1:]
    assert client.get(f"/api/streams/{T1_B1}/casefile").json()["stream"] == T1_B1
    assert "<html" in client.get(f"/api/streams/{T1_B1}/casefile", params={"format": "html"}).text
    results = client.get(f"/api/sessions/{site.session.id}/results").json()
    assert {b["board"] for b in results["boards"]} == {1, 3}
    assert client.get("/api/sessions").json()["sessions"][0]["name"] == "eve"
    now = client.get("/api/table", headers=t1).json()
    assert now["board"] == 1 and now["stream"] == T1_B1


def test_query_parameters_that_are_not_numbers_are_400_naming_them(client, site):
    r = client.get(f"/api/streams/{T1_B1}/state", params={"at": "x"}, headers=bearer(site.tokens[1]))
    assert r.status_code == 400 and r.json()["field"] == "at" and r.json()["value"] == "x"
    r = client.get("/api/events", params={"after": "-1"}, headers=bearer(site.tokens[1]))
    assert r.status_code == 400 and r.json()["field"] == "after"


def test_the_openapi_document_is_published(client):
    doc = client.get("/openapi.json").json()
    path = doc["paths"]["/api/streams/{stream}/events"]["post"]
    assert {"400", "403", "404", "409", "413", "415"} <= set(path["responses"])
    assert "application/x-ndjson" in path["requestBody"]["content"]
    assert "/api/feed" in doc["paths"] and "/api/events" in doc["paths"]


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6)
    | st.sampled_from(["N", "E", "S", "W", "1H", "Pass", "SA", "H7", "XX", "EW", "2017:12C1b"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)
_facts = st.fixed_dictionaries(
    {"type": st.sampled_from(["CallPlaced", "CardPlayed", "DirectorCalled", "OptionChosen",
                              "RulingGiven", "BoardOpened", "AppealDecided", "Nope"])},
    optional={"seat": _json_values, "call": _json_values, "card": _json_values, "by": _json_values,
              "actor": _json_values, "id": _json_values, "option": _json_values, "laws": _json_values,
              "text": _json_values})


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.one_of(st.lists(_facts, max_size=4).map(json.dumps), st.text(max_size=40)),
       expected=st.one_of(st.none(), st.integers(-2, 4).map(str), st.text(max_size=3)),
       ctype=st.sampled_from(["application/json", "application/x-ndjson", "text/plain"]))
def test_fuzz_the_append_endpoint_never_fails_and_writes_nothing_when_it_refuses(
        fuzz_client, body, expected, ctype):
    client, site = fuzz_client
    before = site.count()
    params = {} if expected is None else {"expected_seq": expected}
    r = client.post(f"/api/streams/{T1_B1}/events", content=body.encode(), params=params,
                    headers={**bearer(site.tokens[1]), "Content-Type": ctype})
    assert r.status_code in (200, 201, 400, 403, 409, 415, 429), r.text  # 429: the token's rate limit (nothing written)
    assert isinstance(r.json()["message" if r.status_code >= 400 else "seqs"], (str, list))
    if r.status_code >= 400:
        assert site.count() == before


@pytest.fixture
def fuzz_client(site):
    with TestClient(create_app(site.url, ledger=site.ledger)) as c:
        opened(c, site)
        yield c, site


def test_after_the_last_trick_the_table_may_still_call_the_director_about_that_board(client, site):
    import random

    from ledger.live.bench import board_facts

    opened(client, site)
    facts = board_facts(site.session.deals[1], 1, random.Random(3))
    r = post(client, T1_B1, facts, site.tokens[1], expected=1)
    assert r.status_code == 201
    assert client.get("/api/table", headers=bearer(site.tokens[1])).json()["board"] == 2  # moved on
    r = post(client, T1_B1, [{"type": "DirectorCalled", "by": "W"}], site.tokens[1])
    assert r.status_code == 201  # the board just played
    r = post(client, "club/eve/t1/b2", [{"type": "BoardOpened"}], site.tokens[1], expected=0)
    assert r.status_code == 201
    before = site.count()
    r = post(client, "club/eve/t2/b3", [{"type": "DirectorCalled", "by": "W"}], site.tokens[1])
    assert r.status_code == 403 and "or the board it just played, club/eve/t1/b1" in r.json()["message"]
    assert site.count() == before


def test_a_busy_store_is_503_with_retry_after_and_the_same_append_then_goes_through(site, store_url):
    """Issue 16: a writer that finds the store locked past its busy timeout gets 503 and
    Retry-After (the CLI's exit 5), nothing written; the same append sent again is stored."""
    if not store_url.startswith("sqlite"):
        pytest.skip("the store is locked from outside with SQLite's BEGIN IMMEDIATE")
    import sqlite3

    from ledger.service import Ledger

    opened_seqs = None
    busy_ledger = Ledger.open(store_url, busy_timeout=0.2)
    with TestClient(create_app(store_url, ledger=busy_ledger)) as c:
        opened_seqs = opened(c, site)["seqs"]
        count = site.count()
        locker = sqlite3.connect(store_url.removeprefix("sqlite:///"), isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")
        try:
            r = post(c, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H", "id": "busy-1"}],
                     site.tokens[1], expected=1)
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        assert r.status_code == 503, r.text
        assert r.headers["Retry-After"] == "1" and r.json()["error"] == "store_busy"
        assert site.count() == count
        again = post(c, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H", "id": "busy-1"}],
                     site.tokens[1], expected=1)
        assert again.status_code == 201 and again.json()["seqs"] == [2]
    assert opened_seqs == [1]


def test_the_sign_in_form_needs_its_csrf_token(client, site):
    # No token, or a token that is not the form's cookie: 403, nobody signed in.
    r = client.post("/login", data={"name": "alice", "password": PASSWORD}, follow_redirects=False)
    assert r.status_code == 403 and "CSRF" in r.text
    login_csrf(client)
    r = client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": "forged"},
                    follow_redirects=False)
    assert r.status_code == 403 and "CSRF" in r.text
    assert client.get("/director", follow_redirects=False).status_code == 303
    # The form's own token signs in.
    r = client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": login_csrf(client)},
                    follow_redirects=False)
    assert r.status_code == 303 and client.get("/director").status_code == 200


def test_every_cookie_authenticated_post_needs_a_csrf_token(client, site):
    """Each POST route of the app is listed here with how it is protected: a new POST route
    fails this test until it is added."""
    posts = sorted(r.path for r in app_routes(client.app) if "POST" in (r.methods or ()))
    assert posts == ["/api/streams/{stream:path}/events", "/login", "/logout"]
    sign_in(client, "alice")
    facts = [{"type": "DirectorCalled", "by": "N"}]
    assert post(client, T1_B1, facts).status_code == 403  # the cookie alone
    assert client.post("/logout", data={}, follow_redirects=False).status_code == 403
    assert client.get("/director", follow_redirects=False).status_code == 200  # still signed in


def limited_client(site, **limits):
    import attrs

    from ledger.live.limits import Limits

    default = Limits()
    chosen = attrs.evolve(default, **{k: attrs.evolve(getattr(default, k), burst=b, rate=r)
                                      for k, (b, r) in limits.items()})
    return TestClient(create_app(site.url, ledger=site.ledger, limits=chosen))


def test_table_token_appends_are_rate_limited_429_and_nothing_is_written(site):
    with limited_client(site, table_appends=(2, 0.01)) as client:
        opened(client, site)
        r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1C"}], site.tokens[1], expected=1)
        assert r.status_code == 201
        before = site.count()
        r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "E", "call": "Pass"}], site.tokens[1], expected=2)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert "appends with one table token" in r.json()["message"]
        assert int(r.headers["Retry-After"]) >= 1 and r.json()["retry_after"] >= 1
        assert site.count() == before
        # Another table's token has its own bucket.
        opened(client, site, table=2)


def test_a_table_logs_an_explanation_a_change_of_call_and_attention_drawn(client, site):
    """What the table page's forms send (ExplanationGiven/Corrected, CallReplaced, AttentionDrawn):
    table facts the token may log, ruled by the engine (an unintended call corrected without
    pause stands, 2017 Law 25A1)."""
    opened(client, site)
    t1 = site.tokens[1]
    calls = [{"type": "CallPlaced", "seat": s, "call": c} for s, c in (("N", "1NT"), ("E", "Pass"), ("S", "2NT"))]
    assert post(client, T1_B1, calls, t1, expected=1).status_code == 201
    r = post(client, T1_B1, [{"type": "ExplanationGiven", "by": "S", "call_index": 1, "text": "15-17"}], t1, expected=4)
    assert r.status_code == 201 and r.json()["events"][0]["actor"] == {"role": "table", "name": "t1"}
    r = post(client, T1_B1, [{"type": "CallReplaced", "seat": "S", "call": "3NT", "unintended": True,
                              "without_pause": True}], t1, expected=5)
    assert r.status_code == 201 and [e["type"] for e in r.json()["events"]] == ["CallReplaced", "IrregularityRecorded"]
    r = post(client, T1_B1, [{"type": "ExplanationCorrected", "by": "S", "call_index": 1, "text": "14-16"}],
             t1, expected=r.json()["head_seq"])
    assert r.status_code == 201
    r = post(client, T1_B1, [{"type": "AttentionDrawn", "by": "W"}], t1, expected=r.json()["head_seq"])
    assert r.status_code == 201
    state = client.get(f"/api/streams/{T1_B1}/state", headers=bearer(t1)).json()
    assert [a["call"] for a in state["auction"]] == ["1NT", "Pass", "3NT"]
    assert state["auction"][-1]["law"] == "2017:25A1"
    assert any(p["type"] == "AttentionDrawn" and p["by"] == "W" for p in state["procedure"])
    # The page offers each as a form or a button.
    panel = client.get(f"/table/{t1}/panel").text
    for marker in ('id="form-explanation"', 'value="ExplanationCorrected"', 'id="form-change"',
                   'data-type="CallReplaced"', '"type": "AttentionDrawn"'):
        assert marker in panel, marker


def test_healthz_gives_the_newest_position_while_no_page_follows_the_feed(client, site):
    opened(client, site)
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1H"}], site.tokens[1], expected=1)
    last = r.json()["events"][-1]["position"]
    assert client.get("/healthz").json() == {"ok": True, "position": last}
    # written by another process (here: the ledger itself, not through this server)
    site.ledger.append(T1_B1, [{"type": "CallPlaced", "seat": "E", "call": "Pass",
                                "actor": {"role": "table", "name": "t1"}}])
    assert client.get("/healthz").json()["position"] == site.ledger.store.last_position() > last


@pytest.mark.parametrize("body", ["Infinity", "NaN", '[{"type": "CallPlaced", "seat": "N", "call": -Infinity}]'])
def test_non_finite_json_constants_are_refused_400_with_a_strict_json_answer(client, site, body):
    opened(client, site)
    before = site.count()
    r = client.post(f"/api/streams/{T1_B1}/events", content=body.encode(),
                    headers={**bearer(site.tokens[1]), "Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_input"
    assert site.count() == before
