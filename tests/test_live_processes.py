"""Two server processes on one PostgreSQL database: an event appended through
one reaches a page following the live feed of the other (woken by
LISTEN/NOTIFY: the follower polls only every 60 s)."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest
from live_helpers import PASSWORD, bearer, login_csrf, make_site
from live_server import Server


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_an_append_through_one_process_reaches_the_feed_of_the_other(store_url):
    site = make_site(store_url)
    site.ledger.close()
    token = site.tokens[1]
    writer, follower = Server(store_url), Server(store_url, poll=60)
    try:
        seen: list[dict] = []
        opened_feed = threading.Event()

        console = httpx.Client(base_url=follower.base, follow_redirects=True)  # the director's console, on the follower
        r = console.post("/login", data={"name": "alice", "password": PASSWORD,
                                         "csrf": login_csrf(console)})
        assert r.status_code == 200 and 'id="tables"' in r.text

        def follow() -> None:
            with console.stream("GET", "/api/feed", params={"prefix": "club/eve/", "after": 0},
                                timeout=20) as r:
                assert r.status_code == 200
                opened_feed.set()
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        seen.append(json.loads(line[6:]))
                        if any(e["type"] == "CallPlaced" for e in seen):
                            return

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        assert opened_feed.wait(10)
        time.sleep(0.5)  # the follower is now waiting on its feed
        r = httpx.post(writer.base + "/api/streams/club/eve/t1/b1/events", headers=bearer(token),
                       json=[{"type": "BoardOpened"}], params={"expected_seq": 0})
        assert r.status_code == 201, r.text
        started = time.monotonic()
        r = httpx.post(writer.base + "/api/streams/club/eve/t1/b1/events", headers=bearer(token),
                       json=[{"type": "CallPlaced", "seat": "N", "call": "1NT"},
                             {"type": "DirectorCalled", "by": "E"}], params={"expected_seq": 1})
        assert r.status_code == 201, r.text
        reader.join(10)
        assert not reader.is_alive(), f"the follower's feed did not show the append: {seen}"
        assert time.monotonic() - started < 15  # NOTIFY, not the 60 s poll
        assert [(e["stream"], e["seq"], e["type"]) for e in seen][:2] == [
            ("club/eve/t1/b1", 1, "BoardOpened"), ("club/eve/t1/b1", 2, "CallPlaced")]
        assert seen[1]["actor"] == {"role": "table", "name": "t1"}
        panel = console.get("/director/panel").text  # the console's table row, rendered by the follower
        assert 'data-kind="director call"' in panel and "E called the director" in panel
        console.close()
        # and a state read through the follower shows it
        state = httpx.get(follower.base + "/api/streams/club/eve/t1/b1/state", headers=bearer(token)).json()
        assert [a["call"] for a in state["auction"]] == ["1NT"]
    finally:
        writer.stop()
        follower.stop()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_reconnecting_page_catches_up_from_its_last_event_id(store_url):
    site = make_site(store_url)
    site.ledger.close()
    token = site.tokens[1]
    server = Server(store_url)
    try:
        url = server.base + "/api/streams/club/eve/t1/b1/events"
        r = httpx.post(url, headers=bearer(token), json=[{"type": "BoardOpened"}])
        first = r.json()["events"][0]["position"]
        for call, seq in (("1NT", 1), ("Pass", 2), ("2C", 3)):
            r = httpx.post(url, headers=bearer(token), params={"expected_seq": seq},
                           json=[{"type": "CallPlaced", "seat": "NESW"[seq - 1], "call": call}])
            assert r.status_code == 201, r.text
        got: list[tuple[int, int]] = []
        with httpx.stream("GET", server.base + "/api/feed", params={"token": token},
                          headers={"Last-Event-ID": str(first + 1)}, timeout=10) as feed:
            ids = None
            for line in feed.iter_lines():
                if line.startswith("id: "):
                    ids = int(line[4:])
                elif line.startswith("data: "):
                    got.append((ids, json.loads(line[6:])["seq"]))
                    if len(got) == 2:
                        break
        assert got == [(first + 2, 3), (first + 3, 4)]  # nothing before the last id seen, nothing missed
        other = httpx.get(server.base + "/api/feed", params={"token": "nope"})
        assert other.status_code == 401
    finally:
        server.stop()
