"""What each table device may show (Laws 16, 41D, 66, 68C), on both stores: for the table's
shared device and for each seat device, in every phase of a board, no card of a hand the
device may not show is in its page (HTML), in any JSON it can fetch (state, log, events,
the board it plays, an append's answer). The rule is stated here again, independently of
``ledger.live.views``, so that a change there that shows too much fails here.

Also: a seat device logs only its own player's facts (declarer's device dummy's cards too);
the bidding box's caller while a call waits for the director; a call out of rotation from
the box; the table's undo (EntryVoided); quick entry (ResultReported by the table); the
traveller and the pairs' moves after a round; refusals in a player's words; no inline
script in any page."""

from __future__ import annotations

import re

import pytest
from live_helpers import TestClient, bearer, make_site, sign_in

from ledger.live import accounts
from ledger.live.app import create_app
from ledger.live.sessions import open_session
from ledger.live.words import player_text

T1_B1 = "club/eve/t1/b1"
SEATS = ("N", "E", "S", "W")


@pytest.fixture
def site(store_url):
    return make_site(store_url)


@pytest.fixture
def client(site):
    with TestClient(create_app(site.url, ledger=site.ledger)) as c:
        yield c


def post(client, stream, facts, token, expected=None):
    params = {} if expected is None else {"expected_seq": expected}
    return client.post(f"/api/streams/{stream}/events", json=facts, params=params, headers=bearer(token))


def may_see(truth: dict, seat: str | None) -> set[str]:
    """The hands a device may show, by the Laws: everything once the play is over (66D);
    before, a seat device its own hand, every device dummy's once the opening lead is faced
    (41D) and the claimer's while his claim is open (68C)."""
    if truth["phase"] == "ended":
        return set(SEATS)
    shown = {seat} if seat else set()
    if truth["dummy"] and truth["tricks"] and truth["tricks"][0]["cards"]:
        shown.add(truth["dummy"])
    claim = truth.get("claim") or {}
    if claim.get("status") in ("pending", "disputed"):
        shown.add(claim["seat"])
    return shown


def hidden_cards(truth: dict, seat: str | None) -> set[str]:
    out: set[str] = set()
    for s in set(SEATS) - may_see(truth, seat):
        out |= set(truth["hands"][s])
    return out


def leaks(text: str, cards: set[str], tokens: list[str]) -> list[str]:
    for token in tokens:  # a random token could hold "-SA-" by chance
        text = text.replace(token, "TOKEN")
    signs = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    found = []
    for card in cards:
        face = signs[card[0]] + ("10" if card[1] == "T" else card[1])
        if re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text) or face in text:
            found.append(card)
    return sorted(found)


def everything_a_device_reads(client, token: str, stream: str) -> dict[str, str]:
    h = bearer(token)
    return {
        "page": client.get(f"/table/{token}").text,
        "panel": client.get(f"/table/{token}/panel").text,
        "state": client.get(f"/api/streams/{stream}/state", headers=h).text,
        "log": client.get(f"/api/streams/{stream}/log", headers=h).text,
        "events": client.get("/api/events?after=0", headers=h).text,
        "table": client.get("/api/table", headers=h).text,
    }


def test_no_device_is_sent_a_hand_it_may_not_show_in_any_phase(client, site):
    shared = site.tokens[1]
    seat_tokens = {s: accounts.issue_seat_token(site.engine, site.session.id, 1, s) for s in SEATS}
    devices = {None: shared, **seat_tokens}
    all_tokens = list(site.tokens.values()) + list(seat_tokens.values())
    answers: dict[str | None, list[str]] = {d: [] for d in devices}
    seq = 0

    def log(facts, device=None):
        nonlocal seq
        r = post(client, T1_B1, facts, devices[device], seq)
        assert r.status_code == 201, r.text
        seq = r.json()["head_seq"]
        answers[device].append(r.text)

    def check(phase: str) -> None:
        truth = site.ledger.state(T1_B1)
        assert truth["phase"] == phase
        for device, token in devices.items():
            hidden = hidden_cards(truth, device)
            shown = may_see(truth, device)
            reads = everything_a_device_reads(client, token, T1_B1)
            for where, text in reads.items():
                assert leaks(text, hidden, all_tokens) == [], (phase, device, where)
            for text in answers[device]:
                assert leaks(text, hidden - set(re.findall(r'"card": "(\w\w)"', text)), all_tokens) == [], \
                    (phase, device, "append answer")
            state = client.get(f"/api/streams/{T1_B1}/state", headers=bearer(token)).json()
            for s in SEATS:  # what it may show, it shows (the test can fail both ways)
                assert (state["hands"][s] is not None) == (s in shown), (phase, device, s)
                if s in shown:
                    assert state["hands"][s] == truth["hands"][s]
                    for card in truth["hands"][s][:3] if phase != "ended" else []:  # (ended: the next board)
                        assert card in reads["panel"], (phase, device, s, card)
            assert state["board"]["deal"] is None or phase == "ended"

    log([{"type": "BoardOpened"}])
    check("auction")
    log([{"type": "CallPlaced", "seat": "N", "call": "1NT"}], "N")  # from North's own device
    log([{"type": "CallPlaced", "seat": "E", "call": "Pass"}])
    check("auction")
    log([{"type": "CallPlaced", "seat": "S", "call": "Pass"}, {"type": "CallPlaced", "seat": "W", "call": "Pass"}])
    check("opening_lead")  # nobody's cards but the seat device's own, not even dummy's (41D)
    truth = site.ledger.state(T1_B1)
    assert truth["contract"]["declarer"] == "N" and truth["dummy"] == "S"
    log([{"type": "CardPlayed", "seat": "E", "card": truth["hands"]["E"][0]}], "E")
    check("play")  # dummy (South) is faced: every device shows it
    for _ in range(6):  # declarer plays dummy's cards from his own device (45B)
        truth = site.ledger.state(T1_B1)
        seat = truth["turn"]
        trick = truth["tricks"][-1]["cards"] if len(truth["tricks"][-1]["cards"]) < 4 else []
        hand = truth["hands"][seat]
        follow = [c for c in hand if trick and c[0] == trick[0]["card"][0]]
        card = (follow or hand)[0]
        log([{"type": "CardPlayed", "seat": seat, "card": card}], "N" if seat == "S" else seat)
    check("play")  # quitted tricks: not their cards but the last trick's (66A, 66C)
    state = client.get(f"/api/streams/{T1_B1}/state", headers=bearer(shared)).json()
    assert state["tricks"][0]["cards"] == [] and state["tricks"][0]["quitted"]
    truth = site.ledger.state(T1_B1)
    left = 13 - truth["tricks_won"]["declarer"] - truth["tricks_won"]["defenders"]
    log([{"type": "ClaimMade", "seat": "N", "tricks": left}], "N")
    check("play")  # the claimer's hand is faced (68C)
    log([{"type": "ClaimAgreed", "by": "E"}], "E")
    check("ended")  # after the play, the hands may be inspected (66D)


def test_a_seat_device_logs_its_own_players_facts_and_declarer_dummys_cards(client, site):
    shared = site.tokens[1]
    tok = {s: accounts.issue_seat_token(site.engine, site.session.id, 1, s) for s in SEATS}
    assert accounts.table_grant(site.engine, tok["E"]).seat == "E"
    assert accounts.table_grant(site.engine, shared).seat is None
    forged = "W" + tok["E"][1:]  # the seat is part of the token's digest
    assert post(client, T1_B1, [{"type": "BoardOpened"}], forged, 0).status_code == 401
    assert post(client, T1_B1, [{"type": "BoardOpened"}], tok["E"], 0).status_code == 201
    before = site.count()
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1C"}], tok["E"], 1)
    assert r.status_code == 403 and "East's" in r.json()["message"] and site.count() == before
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "N", "call": "1C"}], tok["N"], 1)
    assert r.status_code == 201
    assert r.json()["events"][0]["actor"] == {"role": "table", "name": "t1-N"}
    for seat, seq in (("E", 2), ("S", 3), ("W", 4)):
        assert post(client, T1_B1, [{"type": "CallPlaced", "seat": seat, "call": "Pass"}], tok[seat], seq).status_code == 201
    truth = site.ledger.state(T1_B1)
    lead = truth["hands"]["E"][0]
    assert post(client, T1_B1, [{"type": "CardPlayed", "seat": "E", "card": lead}], tok["E"], truth["seq"]).status_code == 201
    truth = site.ledger.state(T1_B1)
    suit = [c for c in truth["hands"]["S"] if c[0] == lead[0]] or truth["hands"]["S"]
    before = site.count()
    r = post(client, T1_B1, [{"type": "CardPlayed", "seat": "S", "card": suit[0]}], tok["S"], truth["seq"])
    assert r.status_code == 403 and site.count() == before  # dummy does not play his cards
    r = post(client, T1_B1, [{"type": "CardPlayed", "seat": "S", "card": suit[0]}], tok["N"], truth["seq"])
    assert r.status_code == 201  # declarer does, from his device
    page = client.get(f"/table/{tok['N']}/panel").text
    assert 'id="hand-S"' in page and 'data-fact' in page.split('id="hand-S"')[1].split("</div>")[0]
    page = client.get(f"/table/{tok['E']}/panel").text  # a defender sees dummy, cannot tap it
    assert 'id="hand-S"' in page and 'data-fact' not in page.split('id="hand-S"')[1].split("</div>")[0]


def test_a_wrong_card_on_the_keypad_never_says_whose_card_it_is(client, site):
    shared = site.tokens[1]
    post(client, T1_B1, [{"type": "BoardOpened"}] + [
        {"type": "CallPlaced", "seat": s, "call": c} for s, c in zip("NESW", ["1NT", "Pass", "Pass", "Pass"])],
        shared, 0)
    truth = site.ledger.state(T1_B1)
    wrong = truth["hands"]["W"][0]  # East is on lead; West's card typed for East
    r = post(client, T1_B1, [{"type": "CardPlayed", "seat": "E", "card": wrong}], shared, truth["seq"])
    assert r.status_code == 400
    assert "was not dealt" in r.json()["message"] and "W's card" not in r.text and "West" not in r.text
    assert player_text(r.json()["reason"]) == f"East was not dealt {wrong_face(wrong)}"


def wrong_face(card: str) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[0]] + ("10" if card[1] == "T" else card[1])


def panel(client, token):
    return client.get(f"/table/{token}/panel").text


def caller(html: str) -> str:
    return re.search(r'data-caller="([NESW])"', html).group(1)


def test_the_bidding_box_logs_for_the_next_player_while_a_call_waits_for_the_director(client, site):
    shared = site.tokens[1]
    seq = post(client, T1_B1, [{"type": "BoardOpened"}], shared, 0).json()["head_seq"]
    assert caller(panel(client, shared)) == "N" and 'id="caller" data-seat="N">North</span> calls' in panel(client, shared)
    for fact in ({"type": "CallPlaced", "seat": "N", "call": "1H"}, {"type": "CallPlaced", "seat": "E", "call": "1D"},
                 {"type": "OptionChosen", "seat": "S", "option": "refuse"},
                 {"type": "CallPlaced", "seat": "E", "call": "2D"}):
        seq = post(client, T1_B1, [fact], shared, seq).json()["head_seq"]
    truth = site.ledger.state(T1_B1)
    assert truth["review"] and truth["turn"] == "E"  # the ledger waits for the director (27B1a)
    html = panel(client, shared)
    assert caller(html) == "S" and 'id="box-waiting"' in html  # the next player calls meanwhile
    for seat, call in (("S", "Pass"), ("W", "2S"), ("N", "Pass"), ("E", "Pass"), ("S", "3S")):
        assert caller(panel(client, shared)) == seat
        r = post(client, T1_B1, [{"type": "CallPlaced", "seat": seat, "call": call}], shared, seq)
        assert r.status_code == 201, r.text
        seq = r.json()["head_seq"]
    logged = [(e["data"]["seat"], e["data"]["call"]) for e in (x.envelope() for x in site.ledger.events(T1_B1))
              if e["type"] == "CallPlaced"]
    assert logged[-5:] == [("S", "Pass"), ("W", "2S"), ("N", "Pass"), ("E", "Pass"), ("S", "3S")]


def test_a_call_out_of_rotation_from_the_box_gets_the_29A_options(client, site):
    shared = site.tokens[1]
    post(client, T1_B1, [{"type": "BoardOpened"}], shared, 0)
    html = panel(client, shared)
    assert all(f'class="seat-choice" data-seat="{s}"' in html for s in SEATS)  # another seat may be chosen
    r = post(client, T1_B1, [{"type": "CallPlaced", "seat": "E", "call": "1S"}], shared, 1)  # North deals
    assert r.status_code == 201
    truth = site.ledger.state(T1_B1)
    assert truth["pending"] and truth["pending"][0]["law"].endswith("29A")
    assert truth["pending"][0]["to"] == "S"  # the offender's LHO
    assert 'id="options"' in panel(client, shared)


def test_the_table_undoes_its_own_last_entry_with_confirmation(client, site):
    shared = site.tokens[1]
    post(client, T1_B1, [{"type": "BoardOpened"}, {"type": "CallPlaced", "seat": "N", "call": "1H"}], shared, 0)
    html = panel(client, shared)
    assert "Undo: North&#39;s call 1♥" in html and 'id="undo-confirm"' in html and "hidden" in html.split('id="undo-confirm"')[1][:20]
    about = int(re.search(r'id="undo-yes" data-about="(\d+)"', html).group(1))
    r = post(client, T1_B1, [{"type": "EntryVoided", "about": about, "reason": "entry error at the table's device"}], shared, 2)
    assert r.status_code == 201, r.text
    truth = site.ledger.state(T1_B1)
    assert truth["auction"] == [] and truth["voided"][0]["seq"] == about
    html = panel(client, shared)
    assert "Undo:" not in html and "Undone at the table" in html
    assert caller(html) == "N"


def test_quick_entry_is_a_complete_record_the_results_use(client, site):
    quick = open_session(site.engine, tournament="club", name="quick", tables=3, boards_per_round=2,
                         seed=3, entry="quick")
    assert quick.entry == "quick"
    site.session = quick
    T1_B1 = quick.stream(1, 1)
    c = client
    if True:
        shared = accounts.issue_table_token(site.engine, quick.id, 1)
        post(c, T1_B1, [{"type": "BoardOpened"}], shared, 0)
        html = panel(c, shared)
        assert 'id="quick"' in html and 'id="bidding-box"' not in html
        assert 'id="bidding-box"' in c.get(f"/table/{shared}/panel?mode=cards").text  # card by card on request
        r = post(c, T1_B1, [{"type": "ResultReported", "contract": "4S", "declarer": "S", "tricks": 10, "lead": "HA",
                             "text": "entered at the table (quick entry); confirmed by East-West"}], shared, 1)
        assert r.status_code == 201, r.text
        truth = site.ledger.state(T1_B1)
        assert truth["phase"] == "ended" and truth["result"]["text"] == "4S S ="
        csrf = sign_in(c, "alice")
        results = c.get(f"/api/sessions/{site.session.id}/results", headers={"X-CSRF-Token": csrf}).json()
        row = [r for b in results["boards"] if b["board"] == 1 for r in b["results"]][0]
        assert row["contract"] == "4S" and row["tricks"] == 10
        # a board where a call is logged is card by card from then on (a director call, say)
        stream2 = site.stream(1, 2)
        post(c, stream2, [{"type": "BoardOpened"}, {"type": "CallPlaced", "seat": "E", "call": "1C"}], shared, 0)
        assert 'id="bidding-box"' in panel(c, shared) and 'id="quick"' not in panel(c, shared)


def test_a_seat_device_is_offered_quick_entry_in_a_quick_session(client, site):
    """A table whose players use their phones: in a quick-entry session each seat device is
    offered quick entry, and the result entered on one (the opponents confirming on it,
    Law 79A1) is the board's record; in a card-by-card session a seat device logs cards."""
    quick = open_session(site.engine, tournament="club", name="phones", tables=3, boards_per_round=2,
                         seed=3, entry="quick")
    phone = {s: accounts.issue_seat_token(site.engine, quick.id, 1, s) for s in SEATS}
    stream = quick.stream(1, 1)
    assert post(client, stream, [{"type": "BoardOpened"}], phone["N"], 0).status_code == 201
    for seat in SEATS:
        html = panel(client, phone[seat])
        assert 'id="quick"' in html and 'id="bidding-box"' not in html, seat
    assert 'id="quick"' not in client.get(f"/table/{phone['W']}/panel?mode=cards").text  # card by card on request
    r = post(client, stream, [{"type": "ResultReported", "contract": "3NT", "declarer": "N", "tricks": 9,
                              "lead": "S2", "text": "quick entry; confirmed by East-West"}], phone["N"], 1)
    assert r.status_code == 201, r.text
    truth = site.ledger.state(stream)
    assert truth["phase"] == "ended" and truth["result"]["text"] == "3NT N ="
    reported = [e.envelope() for e in site.ledger.events(stream) if e.envelope()["type"] == "ResultReported"]
    assert reported[0]["actor"]["name"].endswith("-N")  # North's phone, named in the log
    # a card-by-card session: the seat device has no quick form
    cards_phone = accounts.issue_seat_token(site.engine, site.session.id, 1, "E")
    post(client, T1_B1, [{"type": "BoardOpened"}], site.tokens[1], 0)
    html = panel(client, cards_phone)
    assert 'id="quick"' not in html


def test_after_the_round_the_traveller_and_the_pairs_moves(client, site):
    quick = {"type": "ResultReported", "contract": "3NT", "declarer": "N", "tricks": 9, "lead": "S2", "text": "q"}
    sched = {t: site.session.schedule(t) for t in (1, 2, 3)}
    # every table plays its round-1 boards; the board table 1 played last is played elsewhere later
    for t in (1, 2, 3):
        for _r, _s, board in [x for x in sched[t] if x[0] == 1]:
            assert post(client, site.stream(t, board), [{"type": "BoardOpened"}, quick], site.tokens[t], 0).status_code == 201
    html = panel(client, site.tokens[1])
    assert 'id="traveller"' in html and "3NT N =" in html
    assert 'id="moves"' in html
    r2 = site.session.movement[1]
    ew1 = site.session.movement[0][0].ew
    dest = next(s.table for s in r2 if ew1 in (s.ns, s.ew))
    assert f"Pair {ew1} (East-West): move to table {dest} for round 2" in html


def test_refusals_in_a_players_words():
    text = player_text("line 1: CardPlayed: S was not dealt SK (it is W's card) (seq 12) at club/eve/t1/b1")
    assert "W's" not in text and "CardPlayed" not in text and "seq" not in text and "club/eve" not in text
    assert "South was not dealt ♠K" in text
    assert "(the server)" in player_text("could not connect to postgresql+psycopg://u@h/db")


def test_no_page_has_inline_script_or_event_handler_attributes(client, site):
    csrf = sign_in(client, "alice")
    post(client, T1_B1, [{"type": "BoardOpened"}], site.tokens[1], 0)
    pages = [client.get(f"/table/{site.tokens[1]}").text, client.get("/director").text,
             client.get(f"/director/board/{T1_B1}").text, client.get("/committee").text]
    assert csrf
    for html in pages:
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S):
            assert script.strip() == ""
        assert re.findall(r"<script\b[^>]*>", html) == ['<script src="/static/live.js">']
        assert not re.search(r"\son[a-z]+\s*=", html)


def test_the_console_ranks_the_pairs_as_boards_finish_and_the_board_page_speaks_words(client, site):
    quick = {"type": "ResultReported", "contract": "4S", "declarer": "S", "tricks": 10, "lead": "HA", "text": "q"}
    worse = {**quick, "tricks": 8}
    for rnd in (1, 2):  # two rounds at every table: boards played at two tables are ranked
        for t in (1, 2, 3):
            for _r, _s, board in [x for x in site.session.schedule(t) if x[0] == rnd]:
                r = post(client, site.stream(t, board), [{"type": "BoardOpened"}, quick if t == 1 else worse],
                         site.tokens[t], 0)
                assert r.status_code == 201, r.text
    sign_in(client, "alice")
    html = client.get("/director/panel").text
    assert 'id="ranking"' in html and "Ranking so far" in html
    assert "Devices connected" in html and ">none<" in html  # no feed open in this test
    page = client.get(f"/director/board/{site.stream(1, site.session.schedule(1)[0][2])}").text
    assert 'id="compass"' in page and "Result entered: 4♠ by South, 10 tricks, opening lead ♥A" in page
    assert "<code>{" not in page  # no JSON in the log
