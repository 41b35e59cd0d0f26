"""The live service's pages as a person reaches them (server-rendered HTML):
sign-in, the console, a board, the committee's view with the case file."""

from __future__ import annotations

import pytest
from live_helpers import TestClient, bearer, make_site, sign_in

from ledger.live.app import create_app

T1_B1 = "club/eve/t1/b1"


@pytest.fixture
def setup(tmp_path):
    site = make_site(f"sqlite:///{tmp_path / 'ledger.db'}")
    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        yield client, site


def test_pages_need_the_right_person(setup):
    client, site = setup
    assert client.get("/director", follow_redirects=False).headers["location"].startswith("/login")
    sign_in(client, "carol")  # committee
    assert client.get("/director", follow_redirects=False).status_code == 303
    assert client.get("/committee").status_code == 200


def test_the_committee_reads_the_case_file_and_decides(setup):
    client, site = setup
    t1 = bearer(site.tokens[1])
    assert client.post(f"/api/streams/{T1_B1}/events", json=[{"type": "BoardOpened"}], headers=t1).status_code == 201
    csrf = sign_in(client, "alice")
    r = client.post(f"/api/streams/{T1_B1}/events", headers={"X-CSRF-Token": csrf},
                    json=[{"type": "AppealLodged", "side": "EW", "text": "the hesitation was normal"}])
    assert r.status_code == 201
    console = client.get("/director").text
    assert 'data-kind="appeal"' in console and "the hesitation was normal" in console
    board = client.get(f"/director/board/{T1_B1}").text
    assert 'id="state-text"' in board and "AppealLodged" in board  # the CLI's state text and the log
    client.cookies.clear()
    csrf = sign_in(client, "carol")
    page = client.get("/committee").text
    assert "the hesitation was normal" in page and 'data-type="AppealDecided"' in page
    assert "<html" in client.get(f"/committee/casefile/{T1_B1}").text
    r = client.post(f"/api/streams/{T1_B1}/events", headers={"X-CSRF-Token": csrf},
                    json=[{"type": "AppealDecided", "decision": "upheld", "text": "ruling stands"}])
    assert r.status_code == 201
    assert "Decided (upheld): ruling stands" in client.get("/committee").text


def test_the_table_page_of_a_revoked_or_unknown_token_says_why(setup):
    client, site = setup
    r = client.get("/table/nonsense")
    assert r.status_code == 401 and "unknown table token" in r.text
    page = client.get(f"/table/{site.tokens[2]}").text
    assert "Start board 3" in page and "Call the director" not in page


def test_sign_out_needs_the_csrf_token(setup):
    client, site = setup
    csrf = sign_in(client, "alice")
    assert client.post("/logout", data={"csrf": "forged"}).status_code == 403
    assert client.get("/director", follow_redirects=False).status_code == 200
    assert client.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_the_table_page_logs_a_card_dropped_or_held_with_its_form(setup):
    from ledger.bridge import Deal, Seat

    client, site = setup
    t1 = bearer(site.tokens[1])
    assert client.post(f"/api/streams/{T1_B1}/events", json=[{"type": "BoardOpened"}], headers=t1).status_code == 201
    panel = client.get(f"/table/{site.tokens[1]}/panel").text
    assert 'id="form-card"' in panel
    assert '<option value="CardDropped">' in panel and '<option value="CardHeld">' in panel
    assert 'name="partner_could_see" data-bool="1"' in panel and 'name="face_up_near_table" data-bool="1"' in panel
    # what the form sends (live.js formFact): a card dropped in the auction is a Law 24 exposure
    card = str(min(Deal.parse(site.session.deals[1]).hand(Seat.parse("E")), key=str))
    r = client.post(f"/api/streams/{T1_B1}/events", json=[{"type": "CardDropped", "seat": "E", "card": card}],
                    headers=t1)
    assert r.status_code == 201, r.text
    kinds = [e["data"].get("kind") for e in r.json()["events"] if e["type"] == "IrregularityRecorded"]
    assert kinds == ["exposed_card"]


def test_the_table_page_words_an_irregularity_as_its_family_does(setup):
    """The table page prints an irregularity in the words of the family that records it
    (the same words as the terminal's ``state``), not the kind's identifier."""
    from ledger.render import IRREGULARITY_WORDS

    client, site = setup
    t1 = bearer(site.tokens[1])
    facts = [{"type": "BoardOpened"}, {"type": "CallPlaced", "seat": "N", "call": "1C"},
             {"type": "CallPlaced", "seat": "E", "call": "Pass"},
             {"type": "CallPlaced", "seat": "S", "call": "X"}]  # a double of partner's bid: Law 36
    r = client.post(f"/api/streams/{T1_B1}/events", json=facts, headers=t1)
    assert r.status_code == 201, r.text
    kinds = [e["data"].get("kind") for e in r.json()["events"] if e["type"] == "IrregularityRecorded"]
    assert kinds == ["inadmissible_call"]
    panel = client.get(f"/table/{site.tokens[1]}/panel").text
    words = IRREGULARITY_WORDS["inadmissible_call"]
    assert words != "inadmissible call"  # the family's words say more than the identifier
    assert f"Irregularity: {words} by S" in panel


def test_the_committee_reads_the_appeals_register_with_filters(setup):
    """Issue 25: the register page for the committee role (every appeal of the store)."""
    client, site = setup
    t1 = bearer(site.tokens[1])
    assert client.post(f"/api/streams/{T1_B1}/events", json=[{"type": "BoardOpened"}], headers=t1).status_code == 201
    csrf = sign_in(client, "alice")
    r = client.post(f"/api/streams/{T1_B1}/events", headers={"X-CSRF-Token": csrf},
                    json=[{"type": "RulingGiven", "text": "score stands", "laws": ["2017:16B1"]},
                          {"type": "AppealLodged", "side": "EW", "text": "the hesitation was normal"}])
    assert r.status_code == 201
    client.cookies.clear()
    csrf = sign_in(client, "carol")
    r = client.post(f"/api/streams/{T1_B1}/events", headers={"X-CSRF-Token": csrf},
                    json=[{"type": "AppealDecided", "decision": "upheld", "text": "ruling stands",
                           "members": ["Carol", "Dan"], "deposit": "kept"}])
    assert r.status_code == 201
    page = client.get("/committee/register").text
    assert "1 appeal." in page and "score stands" in page and "Carol, Dan · deposit kept" in page
    assert "2017:16B1" in page and f"/committee/casefile/{T1_B1}" in page
    assert "0 appeals." in client.get("/committee/register?law=64").text
    assert "1 appeal." in client.get("/committee/register?law=16&outcome=upheld").text
    bad = client.get("/committee/register?since=yesterday")
    assert bad.status_code == 400 and "as year-month-day" in bad.text
    client.cookies.clear()
    assert client.get("/committee/register", follow_redirects=False).status_code in (303, 401)


def test_the_director_closes_a_27d_question_with_a_ruling_from_the_board_page(store_url):
    """2017 27D: after an insufficient bid corrected by the lowest sufficient bid in the same
    denomination (27B1a) the engine asks the director; the board page offers to close the
    question with a ruling citing 27D (no adjusted score), and what that form sends closes it."""
    site = make_site(store_url)
    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        t1 = bearer(site.tokens[1])
        facts = [{"type": "BoardOpened"}, {"type": "CallPlaced", "seat": "N", "call": "1S"},
                 {"type": "CallPlaced", "seat": "E", "call": "1H"},
                 {"type": "OptionChosen", "seat": "S", "option": "refuse"},
                 {"type": "CallPlaced", "seat": "E", "call": "2H", "same_denomination": True}]
        for fact in facts:
            r = client.post(f"/api/streams/{T1_B1}/events", json=[fact], headers=t1)
            assert r.status_code == 201, r.text
        csrf = sign_in(client, "alice")
        page = client.get(f"/director/board/{T1_B1}").text
        assert 'data-kind="review"' in page and "27D" in page
        form = page[page.index('data-type="RulingGiven" data-done="Ruling recorded" id="form-review-ruling-'):]
        form = form[:form.index("</form>")]
        assert 'name="laws" data-list="1" value="2017:27D"' in form and "Close with this ruling" in form
        # what live.js sends for that form: the Law from its hidden field, the text typed
        r = client.post(f"/api/streams/{T1_B1}/events", headers={"X-CSRF-Token": csrf},
                        json=[{"type": "RulingGiven", "laws": ["2017:27D"], "text": "no damage: the score stands"}])
        assert r.status_code == 201, r.text
        page = client.get(f"/director/board/{T1_B1}").text
        assert 'id="form-review-ruling-' not in page and 'data-kind="review"' not in page
        assert "no damage: the score stands" in page  # in the log, in sentences
        assert site.ledger.state(T1_B1)["review"] == []
