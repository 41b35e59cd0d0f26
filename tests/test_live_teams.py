"""A teams session in two rooms (open and closed) of the same boards: the stream of each
room, the BoardOpened's match and room, the tokens' scopes, and the IMPs between the rooms
(Law 78B) on the director's console."""

from __future__ import annotations

import random

import pytest
from live_helpers import TestClient, bearer, make_site, sign_in

from ledger.errors import BadInput
from ledger.live import accounts
from ledger.live.app import create_app
from ledger.live.bench import board_facts
from ledger.live.sessions import open_session


@pytest.fixture
def teams(store_url):
    site = make_site(store_url, tables=2)
    session = open_session(site.engine, tournament="club", name="cup", tables=2, boards_per_round=2,
                           scoring="IMP", two_rooms=True, seed=3)
    tokens = {t: accounts.issue_table_token(site.engine, session.id, t) for t in range(1, 5)}
    return site, session, tokens


def test_two_rooms_name_their_streams_and_seat_the_teams_both_ways(teams):
    _site, session, _tokens = teams
    assert session.rooms and session.tables == 4 and session.matches == 2 and session.rounds == 1
    assert [session.table_label(t) for t in range(1, 5)] == [
        "open room, table 1", "open room, table 2", "closed room, table 1", "closed room, table 2"]
    assert session.stream(1, 2) == "club/cup/open/t1/b2"
    assert session.stream(3, 2) == "club/cup/closed/t1/b2"
    assert session.parse_stream("club/cup/closed/t2/b1") == (4, 1)
    assert session.parse_stream("club/cup/t1/b1") is None and session.parse_stream("club/cup/open/t3/b1") is None
    open1, closed1 = session.movement[0][0], session.movement[0][2]
    assert (open1.ns, open1.ew) == (closed1.ew, closed1.ns) == ("1", "3")
    assert [b for _r, _s, b in session.schedule(1)] == [b for _r, _s, b in session.schedule(3)] == [1, 2]


def test_two_rooms_need_teams_scoring(store_url):
    site = make_site(store_url, tables=2)
    with pytest.raises(BadInput) as caught:
        open_session(site.engine, tournament="club", name="cup", tables=2, boards_per_round=2,
                     two_rooms=True)
    assert caught.value.field == "--scoring"


def play(client, token, stream, deal, board, seed):
    facts = [{"type": "BoardOpened"}] + board_facts(deal, board, random.Random(seed))
    r = client.post(f"/api/streams/{stream}/events", json=facts, params={"expected_seq": 0},
                    headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()


def test_each_room_logs_the_board_and_the_console_shows_imps_between_rooms(teams):
    site, session, tokens = teams
    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        opened = play(client, tokens[1], "club/cup/open/t1/b1", session.deals[1], 1, seed=1)
        first = opened["events"][0]
        assert first["actor"] == {"role": "table", "name": "open-t1"}
        assert {k: first["data"][k] for k in ("match", "room", "table", "ns", "ew", "scoring")} == {
            "match": "cup-m1", "room": "open", "table": "1", "ns": "1", "ew": "3", "scoring": "IMP"}
        # The closed room's token may not write to the open room's board, nor the other way.
        r = client.post("/api/streams/club/cup/open/t1/b1/events", json=[{"type": "DirectorCalled", "by": "N"}],
                        headers=bearer(tokens[3]))
        assert r.status_code == 403 and "closed room, table 1's token" in r.json()["message"]
        closed = play(client, tokens[3], "club/cup/closed/t1/b1", session.deals[1], 1, seed=2)
        assert closed["events"][0]["data"]["room"] == "closed" and closed["events"][0]["data"]["ns"] == "3"
        sign_in(client, "alice")
        results = client.get(f"/api/sessions/{session.id}/results").json()
        assert results["scoring"] == "IMP"
        rows = {r["room"]: r for r in results["boards"][0]["results"]}
        assert set(rows) == {"open", "closed"}
        o, c = rows["open"], rows["closed"]
        assert o["imp_ns"] is not None and o["imp_ns"] == -c["imp_ns"]
        # Team 1 is NS in the open room and EW in the closed room: its IMPs from both rooms.
        assert o["imp_ns"] == c["imp_ew"]
        panel = client.get("/director/panel", params={"session": session.id}).text
        assert "IMP NS" in panel and "open room, table 1" in panel and 'data-room="closed"' in panel
        assert f"<td>{o['imp_ns']}</td>" in panel


def test_session_open_two_rooms_on_the_command_line(store_url, capsys, monkeypatch):
    import json

    from ledger.cli import main

    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    code = main(["session", "open", "club/cup", "--tables", "2", "--boards-per-round", "3",
                 "--scoring", "IMP", "--two-rooms", "--rounds", "2", "--base-url", "http://h:8000"])
    out, err = capsys.readouterr()
    assert code == 0, err
    labels = [line.split(":")[0] for line in out.splitlines() if "http://h:8000/table/" in line]
    assert labels == ["open room, table 1", "open room, table 2", "closed room, table 1", "closed room, table 2"]
    assert main(["session", "show", "club/cup", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rooms"] is True and doc["movement"] == "teams" and doc["rounds"] == 2
    assert [row["stream"] for row in doc["now"]] == ["club/cup/open/t1/b1", "club/cup/open/t2/b1",
                                                      "club/cup/closed/t1/b1", "club/cup/closed/t2/b1"]
    code = main(["session", "open", "club/cup2", "--tables", "2", "--two-rooms"])
    assert code == 2 and "--scoring" in capsys.readouterr().err
