"""The director's console and ``cli.py open`` list the same open matters, with the same
waiting times: both are projections.waiting.open_rulings."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from live_helpers import TestClient, bearer, make_site, sign_in

from ledger.bridge import Seat, dealer_for
from ledger.cli import main
from ledger.live import views
from ledger.live.app import create_app


def post(client, stream, facts, token, expected):
    r = client.post(f"/api/streams/{stream}/events", json=facts, params={"expected_seq": expected},
                    headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()["head_seq"]


def test_the_console_and_the_open_command_agree(store_url, capsys, monkeypatch):
    site = make_site(store_url)
    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        # Table 1: a director call nobody has answered yet.
        t1 = site.stream(1, 1)
        seq = post(client, t1, [{"type": "BoardOpened"}], site.tokens[1], 0)
        post(client, t1, [{"type": "DirectorCalled", "by": "E"}], site.tokens[1], seq)
        # Table 2: 1NT passed out around; the wrong defender leads: declarer's options (Law 54).
        board = site.session.schedule(2)[0][2]
        t2 = site.stream(2, board)
        dealer = Seat(str(dealer_for(board)))
        calls = [{"type": "CallPlaced", "seat": str(dealer.next(i)), "call": c}
                 for i, c in enumerate(["1NT", "Pass", "Pass", "Pass"])]
        seq = post(client, t2, [{"type": "BoardOpened"}] + calls, site.tokens[2], 0)
        wrong = dealer.next(3)  # the declarer's LHO leads; his RHO leads out of turn
        hand = site.ledger.state(t2)["hands"][str(wrong)]  # the table device is not sent it
        post(client, t2, [{"type": "CardPlayed", "seat": str(wrong), "card": hand[0]}], site.tokens[2], seq)
        # Table 3: a director call the director has answered with a ruling.
        t3 = site.stream(3, site.session.schedule(3)[0][2])
        seq = post(client, t3, [{"type": "BoardOpened"}, {"type": "DirectorCalled", "by": "S"}], site.tokens[3], 0)
        csrf = sign_in(client, "alice")
        r = client.post(f"/api/streams/{t3}/events", headers={"X-CSRF-Token": csrf},
                        json=[{"type": "RulingGiven", "laws": ["2017:9B"], "text": "no irregularity: play on"}])
        assert r.status_code == 201, r.text

        now = datetime.now(timezone.utc) + timedelta(minutes=7)
        console = [m for row in views.console_rows(site.ledger, site.session, now) for m in row["matters"]]
        panel = client.get("/director/panel").text

    monkeypatch.setenv("LEDGER_DB", store_url)
    capsys.readouterr()  # what the server logged
    assert main(["open", "club", "--json"]) == 0
    cli = [json.loads(line) for line in capsys.readouterr().out.splitlines()]

    seen = {(m["stream"], m["kind"], m["seq"]) for m in console}
    assert seen == {(m["stream"], m["kind"], m["seq"]) for m in cli}
    assert {(s, k) for s, k, _ in seen} == {(t1, "director_call"), (t2, "option")}
    # The same waiting times: the console at `now`, the command a moment earlier.
    for m in console:
        other = next(c for c in cli if (c["stream"], c["seq"]) == (m["stream"], m["seq"]))
        assert m["since"] == other["since"]
        assert 0 <= m["waited_s"] - other["waited_s"] <= 7 * 60 + 30
    assert "E called the director" in panel and 'data-kind="director call"' in panel
    assert 'data-kind="option"' in panel
