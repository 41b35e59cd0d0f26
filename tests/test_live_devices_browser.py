"""The table devices in real headless Chromium (Debian's ``chromium`` through Playwright for
Python; nothing is downloaded), on a 390x844 phone and a 1024x768 tablet, light and dark:

* a board by quick entry in at most 20 taps, the opponents confirming (the taps are counted
  and printed);
* a board card by card on the shared device (keypad), with the calls made while a call waits
  for the director logged each for its own player, a call out of rotation from the box (29A
  options), and the taps counted and printed;
* a board from four seat devices (each player taps his own cards, declarer dummy's; a claim
  that each opponent answers from his own device);
* for every device and phase, no card of a hand it may not show in any response it received
  (HTML and JSON, read from the network traffic) nor in its live feed;
* offline: taps kept on the device with their ids, sent once when the network returns;
* keyboard: a call and a card without a pointer; no horizontal scroll at 390 px.

Screenshots go to the test's folder; with ``LEDGER_SCREENSHOTS=docs`` also to docs/.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
from live_helpers import make_site
from live_server import Server
from browser_helpers import browser, legal, needs_chromium, shot  # noqa: F401 (browser: a fixture)

from ledger.live import accounts
from ledger.service import Ledger

pytestmark = needs_chromium
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
SEATS = ("N", "E", "S", "W")


class Taps:
    """Every tap a person makes on a device, counted."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str, *, wait: bool = False) -> None:
        before = self.page.locator(".panel").get_attribute("data-seq")
        self.page.locator(selector).first.click()
        self.count += 1
        if wait:  # the panel shows the ledger moved on
            self.page.wait_for_function("seq => document.querySelector('.panel').dataset.seq !== seq",
                                        arg=before, timeout=20_000)


class Traffic:
    """What a page received from the server: every HTML and JSON body (the network, not the screen)."""

    def __init__(self, page, tokens: list[str]) -> None:
        self.bodies: list[tuple[str, str]] = []
        self.tokens = tokens
        page.on("response", self._keep)

    def _keep(self, response) -> None:
        kind = response.headers.get("content-type", "")
        if "event-stream" in kind or not ("json" in kind or "html" in kind):
            return
        try:
            self.bodies.append((response.url, response.text()))
        except Exception:  # a response the page navigated away from
            pass

    def drain(self) -> list[tuple[str, str]]:
        out, self.bodies = self.bodies, []
        return out


def no_leak(bodies: list[tuple[str, str]], hidden: set[str], tokens: list[str], where: str) -> None:
    signs = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for url, text in bodies:
        for token in tokens:
            text = text.replace(token, "TOKEN")
            url = url.replace(token, "TOKEN")
        for card in hidden:
            face = signs[card[0]] + ("10" if card[1] == "T" else card[1])
            assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text) and face not in text, \
                (where, url, card)


def hidden_for(truth: dict, seat: str | None) -> set[str]:
    """The cards of the hands a device may not show now (the rule of tests/test_live_devices.py)."""
    if truth["phase"] == "ended":
        return set()
    shown = {seat} if seat else set()
    if truth["dummy"] and truth["tricks"] and truth["tricks"][0]["cards"]:
        shown.add(truth["dummy"])
    claim = truth.get("claim") or {}
    if claim.get("status") in ("pending", "disputed"):
        shown.add(claim["seat"])
    return {c for s in SEATS if s not in shown for c in truth["hands"][s]}


def feed_text(base: str, token: str, events: int) -> str:
    """The live feed as the device receives it (server-sent events), until ``events`` arrived."""
    seen, lines = 0, []
    with httpx.stream("GET", f"{base}/api/feed", params={"token": token, "after": 0}, timeout=20) as r:
        for line in r.iter_lines():
            lines.append(line)
            if line.startswith("data:"):
                seen += 1
                if seen >= events:
                    break
    return "\n".join(lines)


def tab_to(page, selector: str) -> None:
    """Move the focus with the Tab key alone until ``selector`` has it (no pointer)."""
    for _ in range(150):
        page.keyboard.press("Tab")
        if page.evaluate("sel => !!document.activeElement && document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"{selector} not reached with the Tab key")


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_quick_entry_card_by_card_and_offline_on_the_shared_device(store_url, tmp_path, browser, capsys):
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    site = make_site(store_url, tables=3, boards_per_round=2, seed=11, entry="quick", clock_minutes=20)
    tokens = list(site.tokens.values())
    site.ledger.close()
    server = Server(store_url)
    truth = Ledger.open(store_url)
    try:
        # -- a board by quick entry on a phone, light ------------------------------------
        ctx = browser.new_context(viewport=PHONE, color_scheme="light")
        page = ctx.new_page()
        traffic = Traffic(page, tokens)
        page.goto(f"{server.base}/table/{site.tokens[1]}")
        expect(page.locator("#live")).to_have_text("live")
        taps = Taps(page)
        taps.tap("text=Start board 1", wait=True)
        expect(page.locator("#quick")).to_be_visible()
        no_horizontal_scroll(page)
        for sel in ('[data-q=level][data-v="4"]', '[data-q=strain][data-v="S"]', '[data-q=declarer][data-v="S"]',
                    '[data-q=lead-suit][data-v="H"]', '[data-q=lead-rank][data-v="K"]', '[data-q=tricks][data-v="10"]'):
            taps.tap(sel)
        expect(page.locator("#quick-summary")).to_contain_text("4♠ · by South · lead ♥K · 10 tricks: made")
        taps.tap("#quick-ready")
        expect(page.locator("#quick-confirm-text")).to_contain_text("East-West: please check and confirm")
        shot(page, tmp_path, "table-quick")
        taps.tap("#quick-confirm-yes", wait=True)
        expect(page.locator("#result")).to_contain_text("4S S =")
        quick_taps = taps.count
        assert quick_taps <= 20
        board1 = truth.state(site.stream(1, 1))
        assert board1["phase"] == "ended" and board1["result"]["tricks"] == 10
        reported = [e.envelope() for e in truth.events(site.stream(1, 1)) if e.envelope()["type"] == "ResultReported"]
        assert reported[0]["data"]["lead"] == "HK" and "confirmed by East-West" in reported[0]["data"]["text"]
        no_leak(traffic.drain(), set(board1["board"]["deal"].replace("N:", "").split()) and set(), tokens, "quick")
        with capsys.disabled():
            print(f"\nquick entry: {quick_taps} taps for board 1 (start, contract, strain, declarer, "
                  f"lead suit and rank, tricks, show, confirm)")

        # -- board 2: card by card on the tablet (the director asked this table to log) --
        ctx.close()
        ctx = browser.new_context(viewport=TABLET, color_scheme="light")
        page = ctx.new_page()
        traffic = Traffic(page, tokens)
        page.goto(f"{server.base}/table/{site.tokens[1]}")
        expect(page.locator("#live")).to_have_text("live")
        taps = Taps(page)
        taps.tap("text=Start board 2", wait=True)
        taps.tap("#switch-cards")
        expect(page.locator("#bidding-box")).to_be_visible()
        stream = site.stream(1, 2)
        dealer = truth.state(stream)["board"]["dealer"]
        order = [SEATS[(SEATS.index(dealer) + i) % 4] for i in range(8)]
        # an insufficient bid refused and replaced: the replacement waits for the director
        expect(page.locator("#caller")).to_have_text({"N": "North", "E": "East", "S": "South", "W": "West"}[order[0]])
        taps.tap('#bidding-box [data-call="1H"]', wait=True)
        taps.tap('#bidding-box [data-call="1D"]', wait=True)
        taps.tap("#options button:has-text('refuse')", wait=True)
        taps.tap('#bidding-box [data-call="2D"]', wait=True)
        expect(page.locator("#box-waiting")).to_be_visible()
        no_leak(traffic.drain(), hidden_for(truth.state(stream), None), tokens, "auction")
        calls = ["Pass", "Pass", "2H", "Pass", "Pass", "Pass"]
        for i, call in enumerate(calls):
            expect(page.locator("#caller")).to_have_attribute("data-seat", order[2 + i])
            taps.tap(f'[data-call="{call}"]', wait=True)
        logged = [(e.envelope()["data"]["seat"], e.envelope()["data"]["call"]) for e in truth.events(stream)
                  if e.envelope()["type"] == "CallPlaced"]
        assert logged == list(zip(order[:2], ["1H", "1D"])) + [(order[1], "2D")] + list(zip(order[2:8], calls))
        # the calls wait for the director's answer to 27B1a; he finds 2D the lowest sufficient
        # bid in the same denomination (from his console: here straight into the ledger)
        review = truth.state(stream)["review"][0]
        page.locator("button.director", has_text="North calls").click()  # the table calls the director
        director = browser.new_page(viewport={"width": 1100, "height": 900})
        director.goto(f"{server.base}/director/board/{stream}")
        director.fill("#name", "alice")
        director.fill("#password", "correct horse battery")
        director.click("button[type=submit]")
        expect(director.locator("#compass")).to_contain_text("North")
        expect(director.locator("#log")).to_contain_text("calls 1♥")
        expect(director.locator("#log")).to_contain_text("Question for the director: 27B1a is 2D the lowest")
        # the call attended, in a director's words
        director.locator("[id^=form-attended-] button").click()
        expect(director.locator('.matter[data-kind="director call"]')).to_have_count(0)
        expect(director.locator("#message")).to_contain_text("Call marked attended")
        # the question asked as the Law does, answered with a button: yes
        finding = director.locator(f"#form-finding-{review['about']}")
        expect(finding).to_contain_text("is 2D the lowest sufficient bid")
        finding.locator("select[name=value]").select_option("true")
        shot(director, tmp_path, "board-finding")
        finding.locator("button[type=submit]").click()
        expect(director.locator("#message")).to_contain_text("Finding recorded")
        expect(page.locator("#phase")).to_have_attribute("data-phase", "opening_lead")
        expect(director.locator(f"#form-finding-{review['about']}")).to_have_count(0)
        director.goto(f"{server.base}/director/board/{stream}")  # the page as it is now (no reload pending)
        # the director voids an entry (the table's call for him, logged for the wrong player)
        called = [e.envelope() for e in truth.events(stream) if e.envelope()["type"] == "DirectorCalled"][0]
        director.locator("#form-void select[name=about]").select_option(str(called["seq"]))
        director.fill("#form-void input[name=reason]", "the table tapped North for South")
        director.locator("#form-void button[type=submit]").click()
        expect(director.locator("#message")).to_contain_text("Entry voided")
        assert [v["seq"] for v in truth.state(stream)["voided"]] == [called["seq"]]
        director.close()
        state = truth.state(stream)
        assert state["phase"] == "opening_lead", state["phase"]
        no_leak(traffic.drain(), hidden_for(state, None), tokens, "before the lead")
        shot(page, tmp_path, "table-keypad")
        while truth.state(stream)["phase"] != "ended":
            state = truth.state(stream)
            seat, card = legal(state)
            if seat == state["dummy"]:
                taps.tap(f'#hand-{seat} button[data-card="{card}"]', wait=True)
            else:
                if page.locator(f'.card-seat[data-seat="{seat}"]').get_attribute("aria-pressed") != "true":
                    taps.tap(f'.card-seat[data-seat="{seat}"]')
                taps.tap(f'.card-suit[data-suit="{card[0]}"]')
                taps.tap(f'.card-rank[data-rank="{card[1]}"]', wait=True)
            no_leak(traffic.drain(), hidden_for(truth.state(stream), None), tokens, f"play {card}")
        expect(page.locator("#result")).to_be_visible()
        cards_taps = taps.count
        with capsys.disabled():
            print(f"card by card on the shared device: {cards_taps} taps for board 2 "
                  f"(auction of 10 calls with an option, 52 cards by keypad or dummy's button)")

        # -- after the round: the traveller and the moves ----------------------------------
        expect(page.locator("#moves")).to_contain_text("for round 2")
        expect(page.locator("#traveller")).to_be_visible()
        expect(page.locator("#clock")).to_have_count(0)  # the next round has not started here

        # -- offline: taps kept with their ids, sent once -------------------------------
        taps.tap("text=Start board", wait=True)
        stream3 = page.locator(".panel").get_attribute("data-stream")
        taps.tap("#switch-cards")
        expect(page.locator("#bidding-box")).to_be_visible()
        expect(page.locator("#clock")).to_contain_text("min left")
        ctx.set_offline(True)
        first = page.locator("#caller").get_attribute("data-seat")
        taps.tap('[data-call="1C"]')
        expect(page.locator("#live")).to_contain_text("1 tap kept on this device")
        taps.tap('[data-call="Pass"]')
        expect(page.locator("#live")).to_contain_text("2 taps kept on this device")
        kept = json.loads(page.evaluate("Object.entries(localStorage).find(([k]) => k.startsWith('ledger-queue'))[1]"))
        ids = [item["facts"][0]["id"] for item in kept]
        assert len(set(ids)) == 2 and all(i.startswith("dev-") for i in ids)
        shot(page, tmp_path, "table-offline")
        assert [e for e in truth.events(stream3) if e.envelope()["type"] == "CallPlaced"] == []
        ctx.set_offline(False)
        expect(page.locator("#live")).to_have_text("live", timeout=30_000)
        got = [e.envelope() for e in truth.events(stream3) if e.envelope()["type"] == "CallPlaced"]
        assert [(e["data"]["seat"], e["data"]["call"], e["id"]) for e in got] == \
            [(first, "1C", ids[0]), ({"N": "E", "E": "S", "S": "W", "W": "N"}[first], "Pass", ids[1])]
        page.reload()  # nothing is sent twice: the queue is empty and the log unchanged
        expect(page.locator("#live")).to_have_text("live")
        assert len([e for e in truth.events(stream3) if e.envelope()["type"] == "CallPlaced"]) == 2

        # -- keyboard: a call and, later, a card without a pointer ---------------------------
        before = page.locator(".panel").get_attribute("data-seq")
        page.locator("h1").click()  # start from the top of the page
        tab_to(page, '#bidding-box [data-call="1NT"]')
        page.keyboard.press("Enter")
        page.wait_for_function("seq => document.querySelector('.panel').dataset.seq !== seq", arg=before)
        last = [e.envelope() for e in truth.events(stream3) if e.envelope()["type"] == "CallPlaced"][-1]
        assert last["data"]["call"] == "1NT"
        # the table's own last entry undone, after a confirmation
        taps.tap("#undo-ask")
        expect(page.locator("#undo-confirm")).to_contain_text("Undo")
        expect(page.locator("#undo-confirm")).to_contain_text("1NT")
        taps.tap("#undo-yes", wait=True)
        assert [v["seq"] for v in truth.state(stream3)["voided"]] == [last["seq"]]
        expect(page.locator(".voided")).to_be_visible()

        # -- the same page in the dark ------------------------------------------------------
        page.emulate_media(color_scheme="dark")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 18)"
        shot(page, tmp_path, "table-keypad-dark")
        ctx.close()

        # the live feed of the shared device: briefs, no card of any hand
        count = sum(1 for _ in truth.store.iter_all())
        feed = feed_text(server.base, site.tokens[1], min(count, 40))
        assert "data:" in feed and '"deal"' not in feed and '"hands"' not in feed
        no_leak([("feed", feed)], set(truth.state(stream3)["hands"]["N"]), tokens, "feed")
    finally:
        truth.close()
        server.stop()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_board_from_four_seat_devices(store_url, tmp_path, browser, capsys):
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    site = make_site(store_url, tables=2, boards_per_round=1, seed=7, entry="cards")
    seat_tokens = {s: accounts.issue_seat_token(site.engine, site.session.id, 1, s) for s in SEATS}
    tokens = list(site.tokens.values()) + list(seat_tokens.values())
    site.ledger.close()
    server = Server(store_url)
    truth = Ledger.open(store_url)
    stream = site.stream(1, 1)
    pages, traffic, ctxs = {}, {}, []
    try:
        for i, s in enumerate(SEATS):
            ctx = browser.new_context(viewport=PHONE, color_scheme="dark" if s in "EW" else "light")
            ctxs.append(ctx)
            pages[s] = ctx.new_page()
            traffic[s] = Traffic(pages[s], tokens)
            pages[s].goto(f"{server.base}/table/{seat_tokens[s]}")
            expect(pages[s].locator("#live")).to_have_text("live")
        taps = {s: Taps(pages[s]) for s in SEATS}
        taps["N"].tap("text=Start board 1", wait=True)
        for s in SEATS:
            expect(pages[s].locator("#device")).to_contain_text(f"This device is {dict(N='North', E='East', S='South', W='West')[s]}")
            expect(pages[s].locator(f"#hand-{s}")).to_be_visible()
            no_horizontal_scroll(pages[s])
        dealer = truth.state(stream)["board"]["dealer"]
        order = [SEATS[(SEATS.index(dealer) + i) % 4] for i in range(4)]
        for seat, call in zip(order, ["1NT", "Pass", "Pass", "Pass"]):
            # every device shows the ledger's last entry first, so that the tap's wait below
            # waits for this call and not for a feed refresh of the one before (on a loaded machine)
            for s in SEATS:
                expect(pages[s].locator(".panel")).to_have_attribute("data-seq", str(truth.state(stream)["seq"]))
            expect(pages[seat].locator("#caller")).to_have_text(dict(N="North", E="East", S="South", W="West")[seat])
            taps[seat].tap(f'[data-call="{call}"]', wait=True)
        for s in SEATS:
            expect(pages[s].locator(".panel")).to_have_attribute("data-seq", str(truth.state(stream)["seq"]))
        state = truth.state(stream)
        declarer, dummy = state["contract"]["declarer"], state["dummy"]
        for s in SEATS:
            expect(pages[s].locator("#phase")).to_have_attribute("data-phase", "opening_lead")
            no_leak(traffic[s].drain(), hidden_for(state, s), tokens, f"{s} before the lead")
        shot(pages[order[1]], tmp_path, "seat-device")
        for n in range(12):  # three tricks: each player taps his own card, declarer dummy's
            state = truth.state(stream)
            seat, card = legal(state)
            device = declarer if seat == dummy else seat
            target = f'#hand-{seat} button[data-card="{card}"]'
            expect(pages[device].locator(target)).to_be_visible()
            if n == 0:  # the opening lead by keyboard alone
                before = pages[device].locator(".panel").get_attribute("data-seq")
                pages[device].locator("h1").click()
                tab_to(pages[device], target)
                pages[device].keyboard.press("Enter")
                pages[device].wait_for_function("seq => document.querySelector('.panel').dataset.seq !== seq",
                                                arg=before)
                continue
            taps[device].tap(target, wait=True)
            for s in SEATS:
                expect(pages[s].locator(".panel")).to_have_attribute("data-seq", str(truth.state(stream)["seq"]))
                no_leak(traffic[s].drain(), hidden_for(truth.state(stream), s), tokens, f"{s} after {card}")
        assert pages[dummy].locator(f"#hand-{dummy} button").count() == 0  # dummy does not play his cards
        shot(pages[declarer], tmp_path, "seat-declarer")
        # declarer claims the rest; each opponent answers from his own device
        left = 13 - len(truth.state(stream)["tricks"]) + (1 if len(truth.state(stream)["tricks"][-1]["cards"]) < 4 else 0)
        pages[declarer].fill("form.claim-form input[name=tricks]", str(left))
        taps[declarer].tap("form.claim-form button[type=submit]", wait=True)
        state = truth.state(stream)
        for s in SEATS:
            no_leak(traffic[s].drain(), hidden_for(state, s), tokens, f"{s} at the claim")
        defenders = [s for s in SEATS if s not in (declarer, dummy)]
        expect(pages[defenders[0]].locator("#claim-answers button")).to_have_count(2)
        assert pages[declarer].locator("#claim-answers button").count() == 0
        taps[defenders[0]].tap(f"button:has-text('{dict(N='North', E='East', S='South', W='West')[defenders[0]]} agrees')", wait=True)
        expect(pages[defenders[1]].locator("#claim-answers button")).to_have_count(2)
        expect(pages[defenders[1]].locator(f"#answer-{defenders[0]}")).to_contain_text("agrees")
        taps[defenders[1]].tap(f"button:has-text('{dict(N='North', E='East', S='South', W='West')[defenders[1]]} agrees')")
        expect(pages[defenders[1]].locator(f"#answer-{defenders[1]}")).to_contain_text("agrees")
        answers = [(e.envelope()["type"], e.envelope()["data"]["by"], e.envelope()["actor"]["name"])
                   for e in truth.events(stream) if e.envelope()["type"] in ("ClaimAgreed", "ClaimDisputed")]
        assert [(t, b) for t, b, _ in answers] == [("ClaimAgreed", defenders[0]), ("ClaimAgreed", defenders[1])]
        assert [n for _, _, n in answers] == [f"t1-{defenders[0]}", f"t1-{defenders[1]}"]
        with capsys.disabled():
            print(f"\nfour seat devices: taps per device {dict((s, taps[s].count) for s in SEATS)} "
                  f"(auction, three tricks, a claim answered by each opponent)")
    finally:
        for ctx in ctxs:
            ctx.close()
        truth.close()
        server.stop()
