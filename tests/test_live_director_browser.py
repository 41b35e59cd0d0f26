"""The director's board page and a second device's conflict in real headless Chromium
(Debian's ``chromium`` through Playwright for Python; nothing is downloaded), the
leftovers of issue 23:

* the director closes a 2017 27D question with a ruling citing 27D (no adjusted score)
  and voids an entry, from the board page's forms;
* the director rules a disputed claim with a line of play entered by tapping the cards
  (ClaimRuled.line, spec 10.B): the line reaches the ledger in the order tapped;
* a player's phone (a seat device) in a quick-entry session enters the board's result by
  quick entry, the opponents confirming on it (Law 79A1);
* a tap the other device at the table already logged: the ledger refuses the stale tap
  (409) and the page says it was "already logged by another device", not "tap again";
  the ledger holds the call once.

Screenshots go to the test's folder; with ``LEDGER_SCREENSHOTS=docs`` also to docs/.
"""

from __future__ import annotations


import httpx
import pytest
from live_helpers import PASSWORD, bearer, make_site
from live_server import Server
from browser_helpers import browser, legal, needs_chromium, shot  # noqa: F401 (browser: a fixture)

from ledger.live import accounts
from ledger.live.sessions import open_session
from ledger.service import Ledger

pytestmark = needs_chromium
SEATS = ("N", "E", "S", "W")
RANKS = "23456789TJQKA"


def no_trump_line(hands: dict[str, list[str]], leader: str) -> tuple[list[str], list[str]]:
    """A legal line of play at no trumps from ``leader`` to the last card (each player his first
    card that follows suit), and each trick's winner (the highest card of the suit led)."""
    held = {s: list(h) for s, h in hands.items()}
    line, winners = [], []
    while any(held.values()):
        trick: list[tuple[str, str]] = []
        seat = leader
        for _ in range(4):
            follow = [c for c in held[seat] if trick and c[0] == trick[0][1][0]]
            card = (follow or held[seat])[0]
            held[seat].remove(card)
            trick.append((seat, card))
            line.append(card)
            seat = SEATS[(SEATS.index(seat) + 1) % 4]
        led = trick[0][1][0]
        leader = max((p for p in trick if p[1][0] == led), key=lambda p: RANKS.index(p[1][1]))[0]
        winners.append(leader)
    return line, winners


def sign_in(page, base: str, path: str) -> None:
    page.goto(f"{base}{path}")
    page.fill("#name", "alice")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_directors_forms_and_the_other_devices_conflict_in_the_browser(store_url, tmp_path, browser):
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    site = make_site(store_url, tables=3, boards_per_round=2, seed=7)
    phones = {s: accounts.issue_seat_token(site.engine, site.session.id, 3, s) for s in SEATS}  # table 3's
    site.ledger.close()
    server = Server(store_url)
    truth = Ledger.open(store_url)
    api = httpx.Client(base_url=server.base, timeout=20)

    def log(token: str, stream: str, facts: list[dict]) -> None:
        for fact in facts:
            r = api.post(f"/api/streams/{stream}/events", json=[fact], headers=bearer(token))
            assert r.status_code == 201, r.text

    def board_of(token: str) -> str:
        return api.get("/api/table", headers=bearer(token)).json()["stream"]

    try:
        director = browser.new_page(viewport={"width": 1100, "height": 900})

        # -- 2017 27D closed by a ruling, no adjusted score; an entry voided ---------------
        t1 = board_of(site.tokens[1])
        log(site.tokens[1], t1, [
            {"type": "BoardOpened"}, {"type": "CallPlaced", "seat": "N", "call": "1S"},
            {"type": "CallPlaced", "seat": "E", "call": "1H"},
            {"type": "OptionChosen", "seat": "S", "option": "refuse"},
            {"type": "CallPlaced", "seat": "E", "call": "2H", "same_denomination": True},
            {"type": "DirectorCalled", "by": "W"}])
        review = truth.state(t1)["review"]
        assert [r["law"].split(":")[1] for r in review] == ["27D"], review
        sign_in(director, server.base, f"/director/board/{t1}")
        form = director.locator(f"#form-review-ruling-{review[0]['seq']}")
        expect(form).to_contain_text("no adjusted score")
        form.locator("input[name=text]").fill("no damage: the score stands")
        shot(director, tmp_path, "board-27d-ruling")
        form.locator("button[type=submit]").click()
        expect(director.locator("#message")).to_contain_text("Ruling recorded")
        expect(director.locator('.matter[data-kind="review"]')).to_have_count(0)
        expect(director.locator("#log")).to_contain_text("no damage: the score stands")
        state = truth.state(t1)
        assert state["review"] == []
        kinds = [e.envelope()["type"] for e in truth.events(t1)]
        assert "AdjustedScoreAwarded" not in kinds and kinds.count("RulingGiven") == 1
        ruling = [e.envelope() for e in truth.events(t1) if e.envelope()["type"] == "RulingGiven"][0]
        assert ruling["data"]["laws"] == ["2017:27D"] and ruling["actor"]["role"] == "director"
        # the table's call for the director, logged for the wrong player, voided as an entry error
        called = [e.envelope() for e in truth.events(t1) if e.envelope()["type"] == "DirectorCalled"][0]
        director.locator("#form-void select[name=about]").select_option(str(called["seq"]))
        director.fill("#form-void input[name=reason]", "the table tapped West for East")
        director.locator("#form-void button[type=submit]").click()
        expect(director.locator("#message")).to_contain_text("Entry voided")
        assert [v["seq"] for v in truth.state(t1)["voided"]] == [called["seq"]]

        # -- a disputed claim ruled with a line of play entered by tapping the cards ---------
        t2 = board_of(site.tokens[2])
        log(site.tokens[2], t2, [{"type": "BoardOpened"}])
        dealer = truth.state(t2)["board"]["dealer"]
        order = [SEATS[(SEATS.index(dealer) + i) % 4] for i in range(4)]
        log(site.tokens[2], t2, [{"type": "CallPlaced", "seat": order[0], "call": "1NT"}]
            + [{"type": "CallPlaced", "seat": s, "call": "Pass"} for s in order[1:]])
        for _ in range(44):  # eleven tricks, each player his first legal card
            seat, card = legal(truth.state(t2))
            log(site.tokens[2], t2, [{"type": "CardPlayed", "seat": seat, "card": card}])
        before = truth.state(t2)
        declarer = before["contract"]["declarer"]
        line, winners = no_trump_line(before["hands"], before["turn"])
        assert len(line) == 8
        side = {declarer, SEATS[(SEATS.index(declarer) + 2) % 4]}
        won = sum(1 for w in winners if w in side)
        defender = SEATS[(SEATS.index(declarer) + 1) % 4]
        log(site.tokens[2], t2, [{"type": "ClaimMade", "seat": declarer, "tricks": 2},
                                 {"type": "ClaimDisputed", "by": defender}])
        director.goto(f"{server.base}/director/board/{t2}")
        claim = director.locator("#form-claim")
        expect(claim).to_contain_text("claimed 2 of 2")
        for card in line:
            director.locator(f'#line-cards button.line-card[data-card="{card}"]').click()
        expect(claim.locator("input[name=line]")).to_have_value(", ".join(line))
        expect(director.locator("#line-cards button.line-card:not([disabled])")).to_have_count(0)
        claim.locator("input[name=tricks]").fill(str(won))
        claim.locator("input[name=text]").fill("the line the claimer would play, normal for the class of player")
        shot(director, tmp_path, "board-claim-line")
        claim.locator("button[type=submit]").click()
        expect(director.locator("#message")).to_contain_text("Claim ruled")
        ruled = [e.envelope() for e in truth.events(t2) if e.envelope()["type"] == "ClaimRuled"]
        assert len(ruled) == 1 and ruled[0]["data"]["line"] == line and ruled[0]["data"]["tricks"] == won
        assert truth.state(t2)["phase"] == "ended"

        # -- the other device logged the same call: 409, said in words, logged once ----------
        t3 = board_of(site.tokens[3])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.route("**/api/feed**", lambda route: route.abort())  # this page does not hear the other device
        page.goto(f"{server.base}/table/{site.tokens[3]}")
        page.locator("text=Start board").first.click()
        expect(page.locator("#bidding-box")).to_be_visible()
        caller = page.locator("#caller").get_attribute("data-seat")
        assert caller == truth.state(t3)["board"]["dealer"]
        log(phones[caller], t3, [{"type": "CallPlaced", "seat": caller, "call": "1C"}])  # his own phone
        page.locator('#bidding-box [data-call="1C"]').first.click()
        expect(page.locator("#message")).to_contain_text("already logged by another device at this table")
        expect(page.locator("#message")).not_to_contain_text("409")
        shot(page, tmp_path, "table-already-logged")
        calls = [e.envelope()["data"] for e in truth.events(t3) if e.envelope()["type"] == "CallPlaced"]
        assert [(c["seat"], c["call"]) for c in calls] == [(caller, "1C")]

        # -- quick entry on a player's phone (a seat device) in a quick-entry session ------
        quick = open_session(site.engine, tournament="club", name="phones", tables=2, boards_per_round=1,
                             seed=3, entry="quick")
        north = accounts.issue_seat_token(site.engine, quick.id, 1, "N")
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{server.base}/table/{north}")
        expect(phone.locator("#live")).to_have_text("live")
        phone.locator("text=Start board").first.click()
        expect(phone.locator("#quick")).to_be_visible()
        for sel in ('[data-q=level][data-v="3"]', '[data-q=strain][data-v="NT"]', '[data-q=declarer][data-v="N"]',
                    '[data-q=lead-suit][data-v="S"]', '[data-q=lead-rank][data-v="2"]', '[data-q=tricks][data-v="9"]'):
            phone.locator(sel).first.click()
        expect(phone.locator("#quick-summary")).to_contain_text("3NT · by North · lead ♠2 · 9 tricks: made")
        phone.locator("#quick-ready").click()
        expect(phone.locator("#quick-confirm-text")).to_contain_text("East-West: please check and confirm")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        shot(phone, tmp_path, "phone-quick")
        phone.locator("#quick-confirm-yes").click()
        expect(phone.locator("#result")).to_contain_text("3NT N =")
        reported = [e.envelope() for e in truth.events(quick.stream(1, 1)) if e.envelope()["type"] == "ResultReported"]
        assert len(reported) == 1 and reported[0]["data"]["lead"] == "S2"
        assert reported[0]["actor"]["name"].endswith("-N") and "confirmed by East-West" in reported[0]["data"]["text"]
    finally:
        api.close()
        truth.close()
        server.stop()
