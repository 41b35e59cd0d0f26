"""The live service in real headless Chromium (Debian's ``chromium``, driven by
Playwright for Python; no browser is downloaded): a table logs a whole board
by tapping, a lead out of turn gives declarer's options as buttons, the
director's console shows a director call live, and the director's ruling
reaches the table page.

Screenshots are written to the test's folder; with ``LEDGER_SCREENSHOTS=DIR``
also to DIR (the README's pictures: ``LEDGER_SCREENSHOTS=docs``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest
from live_helpers import bearer, make_site
from live_server import Server
from browser_helpers import CHROMIUM

from ledger.service import Ledger

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium not installed (Debian package chromium)")


def shot(page, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, timeout=90_000)  # a loaded CI machine is slow
    target = os.environ.get("LEDGER_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / f"live-{name}.png")
    assert path.stat().st_size > 5000
    return path


def legal_card(state: dict) -> tuple[str, str]:
    """(seat, card) the player on turn may play: follow suit when able."""
    seat = state["turn"]
    hand = state["hands"][seat]
    trick = state["tricks"][-1]["cards"] if state["tricks"] and len(state["tricks"][-1]["cards"]) < 4 else []
    if trick:
        follow = [c for c in hand if c[0] == trick[0]["card"][0]]
        if follow:
            return seat, follow[0]
    return seat, hand[0]


def tap(page, selector: str) -> None:
    """Tap a button and wait until the panel shows the ledger moved on."""
    before = page.locator(".panel").get_attribute("data-seq")
    page.locator(selector).first.click()
    page.wait_for_function("seq => document.querySelector('.panel').dataset.seq !== seq", arg=before,
                           timeout=20_000)


def keypad_card(page, seat: str, card: str, dummy: str | None = None) -> None:
    """A card entered on the shared device: dummy's by its button, any other on the keypad
    (who played it, the suit, the rank): the device shows no other hand."""
    if seat == dummy:
        tap(page, f'#hand-{seat} button[data-card="{card}"]')
        return
    page.locator(f'.card-seat[data-seat="{seat}"]').click()
    page.locator(f'.card-suit[data-suit="{card[0]}"]').click()
    tap(page, f'.card-rank[data-rank="{card[1]}"]')


def bid(page, calls: list[str]) -> None:
    for call in calls:
        tap(page, f'#bidding-box button[aria-label="{call}"], button[aria-label="{call}"]')


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_table_logs_a_board_and_the_director_rules_live(store_url, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)  # CI machines are shared: generous, never a sleep
    site = make_site(store_url, tables=2, boards_per_round=2, seed=11)
    token = site.tokens[1]
    site.ledger.close()
    server = Server(store_url)
    api = httpx.Client(base_url=server.base, headers=bearer(token))
    truth = Ledger.open(store_url)  # the test sees every hand; the table device does not
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            table = browser.new_page(viewport={"width": 900, "height": 1000})
            table.goto(f"{server.base}/table/{token}")
            expect(table.locator("#live")).to_have_text("live", timeout=20_000)

            # Board 1: the whole board by tapping (dealer North).
            tap(table, "text=Start board 1")
            expect(table.locator("#bidding-box")).to_be_visible()
            bid(table, ["1NT"])
            # A page that has not caught up with the log (its last seq is 1, the board is at 2):
            # the ledger refuses the stale tap (409), the page says so and catches up.
            latest = api.get("/api/streams/club/eve/t1/b1/log").json()["events"][-1]["position"]
            table.wait_for_function("pos => Number(document.getElementById('panel').dataset.shown || 0) >= pos",
                                    arg=latest)  # the feed's refresh for 1NT has happened
            table.evaluate("document.querySelector('.panel').dataset.seq = '1'")
            tap(table, 'button[aria-label="2C"]')
            expect(table.locator("#message")).to_contain_text("Another device at this table logged")
            assert [a["call"] for a in api.get("/api/streams/club/eve/t1/b1/state").json()["auction"]] == ["1NT"]
            bid(table, ["Pass"])
            expect(table.locator("#turn")).to_have_text("South")
            bid(table, ["2NT"])
            table.locator("#other-facts summary").click()  # the forms are folded away
            # South meant 3NT: the change of call by its form (a slip of the hand corrected at
            # once: the new call stands, 2017 Law 25A1).
            change = table.locator("#form-change")
            change.locator("select[name=seat]").select_option("S")
            change.locator("select[name=call]").select_option("3NT")
            change.locator("select[name=unintended]").select_option("true")
            change.locator("select[name=without_pause]").select_option("true")
            tap(table, "#form-change button[type=submit]")
            expect(table.locator("#message")).to_contain_text("Logged: change of call")
            # North's 1NT explained (an explanation fact), and West draws attention.
            explain = table.locator("#form-explanation")
            explain.locator("select[name=by]").select_option("S")
            explain.locator("select[name=call_index]").select_option("1")
            explain.locator("input[name=text]").fill("15 to 17, balanced")
            tap(table, "#form-explanation button[type=submit]")
            tap(table, '#attention button:has-text("West")')
            state = api.get("/api/streams/club/eve/t1/b1/state").json()
            assert [a["call"] for a in state["auction"]] == ["1NT", "Pass", "3NT"]
            assert state["auction"][-1]["law"] == "2017:25A1" and state["turn"] == "W"
            logged = [e for e in api.get("/api/streams/club/eve/t1/b1/log").json()["events"]]
            explained = [e for e in logged if e["type"] == "ExplanationGiven"]
            assert [e["data"]["text"] for e in explained] == ["15 to 17, balanced"]
            assert explained[0]["data"]["call_index"] == 1 and explained[0]["data"]["by"] == "S"
            assert [e["data"]["by"] for e in logged if e["type"] == "AttentionDrawn"] == ["W"]
            assert [e["data"]["call"] for e in logged if e["type"] == "CallReplaced"] == ["3NT"]
            shot(table, tmp_path, "table-auction")
            bid(table, ["Pass", "Pass", "Pass"])
            for _ in range(52):
                state = truth.state("club/eve/t1/b1")
                seat, card = legal_card(state)
                keypad_card(table, seat, card, dummy=state["dummy"])
            expect(table.locator("#result")).to_contain_text("3NT")
            final = api.get("/api/streams/club/eve/t1/b1/state").json()
            assert final["phase"] == "ended" and len(final["tricks"]) == 13
            assert final["result"]["score_ns"] is not None
            log = api.get("/api/streams/club/eve/t1/b1/log").json()["events"]
            assert {e["actor"]["role"] for e in log} <= {"table", "system"}
            assert sum(e["type"] == "CardPlayed" for e in log) == 52

            # Board 2 (dealer East): 1NT by East, South on lead; North leads out of turn.
            tap(table, "text=Start board 2")
            bid(table, ["1NT", "Pass", "Pass", "Pass"])
            state = truth.state("club/eve/t1/b2")
            assert state["contract"]["declarer"] == "E" and state["turn"] == "S"
            north_card = state["hands"]["N"][0]
            keypad_card(table, "N", north_card)
            options = table.locator("#options button")
            expect(options.first).to_be_visible()
            labels = options.all_inner_texts()
            assert any("accept" in label for label in labels) and all(l.startswith("East") for l in labels)
            # Each button says what the choice means under Law 54, for players who do not know its name.
            expect(table.locator("#options button", has_text="accept declare")).to_contain_text(
                "accept the lead and declare: dummy is spread after it (54B)")
            expect(table.locator("#options button", has_text="refuse")).to_contain_text(
                "the card becomes a major penalty card")
            expect(table.locator("text=lead out of turn")).to_be_visible()
            shot(table, tmp_path, "table-options")
            table.emulate_media(color_scheme="dark")  # readable in a dark setting too
            background = table.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(18, 18, 18)"
            shot(table, tmp_path, "table-dark")
            table.emulate_media(color_scheme="light")

            # The director signs in; the console shows the call as it happens.
            director = browser.new_page(viewport={"width": 1100, "height": 800})
            director.goto(f"{server.base}/director")
            director.fill("#name", "alice")
            director.fill("#password", "correct horse battery")
            director.click("button[type=submit]")
            expect(director.locator("#table-1")).to_be_visible()
            expect(director.locator("#live")).to_have_text("live", timeout=20_000)
            expect(director.locator('#table-1 .matter[data-kind="director call"]')).to_have_count(0)
            table.locator("button", has_text="South calls").click()
            call = director.locator('#table-1 .matter[data-kind="director call"]')
            expect(call).to_be_visible(timeout=20_000)  # live: no reload
            expect(director.locator('#table-1 .matter[data-kind="option"]')).to_be_visible()
            shot(director, tmp_path, "console")

            # The director rules from the board page; the ruling reaches the table.
            director.locator("#table-1 a", has_text="2").first.click()
            director.fill("#form-ruling input[name=laws]", "2017:54A")
            director.fill("#form-ruling input[name=text]", "Lead out of turn: declarer may accept it")
            director.click("#form-ruling button[type=submit]")
            expect(table.locator("[id^=decision-]")).to_contain_text("declarer may accept it", timeout=20_000)
            # The board page reloads: the ruling answered the call (projections.waiting), the
            # option still waits for declarer.
            expect(director.locator('.matter[data-kind="director call"]')).to_have_count(0)
            expect(director.locator('.matter[data-kind="option"]')).to_be_visible()
            expect(director.locator("#message")).to_contain_text("Ruling recorded")
            shot(director, tmp_path, "board")
            shot(table, tmp_path, "table-ruling")
            ruling = [e for e in api.get("/api/streams/club/eve/t1/b2/log").json()["events"]
                      if e["type"] == "RulingGiven"]
            assert ruling[0]["actor"] == {"role": "director", "name": "alice"}

            # Declarer's option, chosen with a button.
            table.locator("#options button").first.click()
            expect(table.locator("#options")).to_have_count(0, timeout=20_000)
            after = api.get("/api/streams/club/eve/t1/b2/state").json()
            assert after["pending"] == [] and any(e["type"] == "OptionChosen" for e in
                                                  api.get("/api/streams/club/eve/t1/b2/log").json()["events"])

            # Declarer claims; a defender agrees; the board ends with the claim's result.
            state = api.get("/api/streams/club/eve/t1/b2/state").json()
            left = 13 - state["tricks_won"]["declarer"] - state["tricks_won"]["defenders"]
            table.select_option("form.claim-form select[name=seat]", "E")
            table.fill("form.claim-form input[name=tricks]", "7")
            tap(table, "form.claim-form button[type=submit]")
            expect(table.locator("#claim")).to_contain_text(f"East claims 7 of the {left}")
            tap(table, "button:has-text('South agrees')")
            expect(table.locator("#result")).to_contain_text("1NT")
            done = api.get("/api/streams/club/eve/t1/b2/state").json()
            assert done["phase"] == "ended" and done["claim"]["status"] == "agreed"
            browser.close()
    finally:
        api.close()
        truth.close()
        server.stop()
