"""The appeals register across tournaments, earlier decisions on the same Law, the
casebook (HTML rendered in Chromium, and PDF), case files as PDF, and case files
received from another store verified against its published digest (issue 25, item 4);
the federation's store is each backend in turn."""

from __future__ import annotations

import os
import json
import re
import zlib
from pathlib import Path

import pytest
from federation_kit import appeal, pairs_event, teams_event
from cli_helpers import run
from browser_helpers import CHROMIUM

from ledger.service import Ledger

EXAMPLES = Path(__file__).resolve().parents[1] / "ledger" / "examples"
SHOTS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture
def federation(store_url, monkeypatch):
    """Appeals in two tournaments: Lyon (16B1 upheld, deposit kept; 64A2 changed) and Paris (16B1 changed)."""
    monkeypatch.setenv("LEDGER_DB", store_url)
    with Ledger.open(store_url, create=True) as ledger:
        pairs_event(ledger)
        teams_event(ledger)
        appeal(ledger, "lyon/t1/b1", law="2017:16B1", decision="upheld", deposit="kept",
               members=["A. Martin", "B. Roy", "C. Petit"], text="the slow double suggested bidding on: 3S by N",
               reasons="pass was a logical alternative")
        appeal(ledger, "lyon/t2/b2", law="2017:64A2", decision="changed", deposit="returned",
               members=["A. Martin"], text="one trick transferred", reasons="the revoke was not established")
        appeal(ledger, "paris/open/b2", law="2017:16B2", decision="changed", deposit="returned",
               members=["D. Leroy", "E. Faure"], text="rights reserved: 3NT made", reasons="no logical alternative")
    return store_url


def test_the_register_lists_every_appeal_of_every_tournament_and_filters(federation, capsys):
    code, out, _ = run(capsys, "appeals", "--json")
    entries = json.loads(out)
    assert code == 0 and [e["stream"] for e in entries] == ["lyon/t1/b1", "lyon/t2/b2", "paris/open/b2"]
    first = entries[0]
    assert first["tournament"] == "Lyon pairs" and first["board"] == 1 and first["laws"] == ["2017:16B1"]
    assert first["members"] == ["A. Martin", "B. Roy", "C. Petit"] and first["deposit"] == "kept"
    assert first["ruling"] == "the slow double suggested bidding on: 3S by N" and first["decision"] == "upheld"

    def streams(*args):
        code, out, _ = run(capsys, "appeals", "--json", *args)
        assert code == 0
        return [e["stream"] for e in json.loads(out)]

    assert streams("--law", "16") == ["lyon/t1/b1", "paris/open/b2"]
    assert streams("--law", "2017:64A2") == ["lyon/t2/b2"]
    assert streams("--law", "64A1") == []
    assert streams("--tournament", "paris-teams") == ["paris/open/b2"]
    assert streams("--outcome", "changed") == ["lyon/t2/b2", "paris/open/b2"]
    assert streams("--since", "2000-01-01", "--until", "2000-12-31") == []
    assert len(streams("--since", "2000-01-01")) == 3
    code, _, err = run(capsys, "appeals", "--since", "yesterday")
    assert code == 2 and "--since" in err and "YYYY-MM-DD" in err
    code, out, _ = run(capsys, "appeals", "--law", "16")
    assert "2 appeal(s)" in out and "Committee: A. Martin, B. Roy, C. Petit; deposit kept" in out


def test_a_case_file_shows_earlier_decisions_on_its_law(federation, capsys, tmp_path):
    path = tmp_path / "case.json"
    assert run(capsys, "casefile", "paris/open/b2", "--format", "json", "-o", str(path))[0] == 0
    case = json.loads(path.read_text(encoding="utf-8"))
    assert [(x["stream"], x["decision"], x["laws"]) for x in case["earlier"]] == [
        ("lyon/t1/b1", "upheld", ["2017:16B1"])]  # Law 16, decided before; not the 64A2 appeal
    html = tmp_path / "case.html"
    run(capsys, "casefile", "lyon/t1/b1", "-o", str(html))
    assert "No earlier appeal in this store was decided on these Laws." in html.read_text(encoding="utf-8")


def _pdf_text_streams(data: bytes) -> bytes:
    """The page content streams of a reportlab PDF (ASCII85 then Flate), decoded."""
    import base64

    out = b""
    for m in re.finditer(rb"/Filter \[ /ASCII85Decode /FlateDecode \].*?stream\r?\n(.*?)endstream", data, re.S):
        out += zlib.decompress(base64.a85decode(m.group(1).strip().rstrip(b"~>"), adobe=False))
    return out


def test_the_casebook_renders_in_chromium_and_as_pdf(federation, capsys, tmp_path):
    comments = tmp_path / "comments.json"
    comments.write_text(json.dumps({"lyon/t1/b1": "A textbook 16B case: the pause made bidding on more attractive."}))
    html, pdf = tmp_path / "casebook.html", tmp_path / "casebook.pdf"
    code, out, err = run(capsys, "casebook", "--title", "Casebook, November", "--comments", str(comments),
                         "-o", str(html), "--pdf", str(pdf))
    assert code == 0, err
    page = html.read_text(encoding="utf-8")
    assert page.count("<section class='case'") == 3
    assert "A textbook 16B case" in page and "Lyon pairs" in page and "Paris teams" in page
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") == 3  # one page a case
    if CHROMIUM is None:
        pytest.skip("headless Chromium not installed (Debian package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            tab = browser.new_page(viewport={"width": 900, "height": 1200})
            tab.goto(html.as_uri())
            assert tab.locator("section.case").count() == 3
            assert tab.locator("#case-1 .decision").inner_text() == "UPHELD"  # uppercase by the style
            assert "deposit kept" in tab.locator("#case-1").inner_text()
            tab.screenshot(path=str(tmp_path / "casebook.png"), full_page=True)
            if SHOTS.is_dir():
                tab.screenshot(path=str(SHOTS / "casebook.png"), full_page=False)
        finally:
            browser.close()


def test_a_case_file_as_pdf_draws_the_suits(federation, capsys, tmp_path):
    with Ledger.open(federation) as ledger:
        ledger.append("club/b5", __import__("ledger.service", fromlist=["parse_jsonl"]).parse_jsonl(
            (EXAMPLES / "club-b5-revoke.jsonl").read_text(encoding="utf-8")))
    pdf = tmp_path / "case.pdf"
    assert run(capsys, "casefile-pdf", "club/b5", "-o", str(pdf))[0] == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"/BaseFont /ZapfDingbats" in data
    text = _pdf_text_streams(data)
    # ZapfDingbats codes of the four suits: 0xAB spade, 0xAA heart, 0xA9 diamond, 0xA8 club
    for code in (rb"(\253)", rb"(\252)", rb"(\251)", rb"(\250)"):
        assert code in text
    assert b"!! revoke" in text and b"64A2" in text
    if CHROMIUM is None:
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:  # Chromium's own PDF viewer (PDFium) draws the pages: look at them
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=False,
                                    args=["--no-sandbox", "--headless=new"])
        try:
            tab = browser.new_page(viewport={"width": 900, "height": 1100})
            tab.goto(pdf.as_uri())
            shot = tmp_path / "casefile-pdf.png"
            for _ in range(60):  # the viewer draws the pages when it can (a loaded machine is slow)
                tab.wait_for_timeout(1000)
                tab.screenshot(path=str(shot))
                if shot.stat().st_size > 20_000:
                    break
            assert shot.stat().st_size > 20_000  # a page drawn, not an empty frame
            if SHOTS.is_dir() and os.environ.get("LEDGER_SCREENSHOTS") == "docs":  # as the live tests
                tab.screenshot(path=str(SHOTS / "casefile-pdf.png"))
        finally:
            browser.close()


@pytest.fixture
def elsewhere(tmp_path, capsys):
    """A tournament run elsewhere: its own store, its published digest, a case file with the proof."""
    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    assert run(capsys, "--db", url, "init")[0] == 0
    assert run(capsys, "--db", url, "append", "club/b5", str(EXAMPLES / "club-b5-revoke.jsonl"))[0] == 0
    digest = run(capsys, "--db", url, "digest")[1].strip()
    case = tmp_path / "case.html"
    assert run(capsys, "--db", url, "casefile", "club/b5", "--digest", digest, "-o", str(case))[0] == 0
    return digest, case


def _nothing_stored(url: str) -> bool:
    with Ledger.open(url, create=True) as ledger:
        return ledger.store.streams() == [] and ledger.store.last_position() == 0


def test_a_case_file_with_a_wrong_digest_is_refused_and_nothing_is_written(store_url, monkeypatch, capsys,
                                                                           elsewhere, tmp_path):
    monkeypatch.setenv("LEDGER_DB", store_url)
    digest, case = elsewhere
    size, root = digest.split(":")
    wrong = f"{size}:{'0' * 64}"
    code, out, err = run(capsys, "casefile-import", str(case), "--digest", wrong)
    assert code == 1 and "case file refused, nothing stored" in err and "not in the published log" in err
    assert _nothing_stored(store_url)
    edited = tmp_path / "edited.html"
    edited.write_text(case.read_text(encoding="utf-8").replace("NS +680", "NS +710", 1), encoding="utf-8")
    code, _, err = run(capsys, "casefile-import", str(edited), "--digest", digest)
    assert code == 1 and "the visible content differs" in err
    assert _nothing_stored(store_url)
    code, out, err = run(capsys, "casefile-import", str(case), "--digest", digest)
    assert code == 0, err
    assert "ok: received as received/club/b5" in out
    code, out, _ = run(capsys, "appeals", "--json")
    received = json.loads(out)
    assert [(e["stream"], e["decision"], e["members"]) for e in received] == [
        ("received/club/b5", "upheld", ["Appeals committee (3 members)"])]
    code, out, _ = run(capsys, "casefile-import", str(case), "--digest", digest)
    assert code == 0 and "(0 event(s) written" in out  # received again: a retry
