"""What a director prints (issue 24): each sheet of the two example events as PDF, opened and
its text extracted (pypdf) and checked (names, scores, the boards' hands), one page of each
rendered to PNG with pdftoppm (Debian's poppler-utils; skipped, visibly, when absent) and kept
for the docs with ``LEDGER_PRINTS=docs``; and as print-ready HTML."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ledger.cli import main
from test_event_pairs import HAND_RECORD, build as build_pairs
from test_event_swiss import REALBRIDGE, build_swiss

PDFTOPPM = shutil.which("pdftoppm")
pytestmark = pytest.mark.skipif(not (HAND_RECORD.exists() and REALBRIDGE.exists()),
                                reason="real hand records not found in ../shared/bridge-data")


def text_of(path: Path) -> str:
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() for page in PdfReader(str(path)).pages)
    return " ".join(text.split())  # table cells wrap names on two lines: read them as one


def render(path: Path, name: str) -> Path:
    """Page 1 of ``path`` as PNG (copied to $LEDGER_PRINTS as print-NAME.png when set)."""
    if PDFTOPPM is None:
        pytest.skip("pdftoppm not installed (Debian package poppler-utils): the page is not rendered")
    out = path.with_suffix("")
    subprocess.run([PDFTOPPM, "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(path), str(out)],
                   check=True, timeout=120)
    png = out.with_suffix(".png")
    assert png.stat().st_size > 10_000  # a page with text and lines, not a blank one
    target = os.environ.get("LEDGER_PRINTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(target) / f"print-{name}.png")
    return png


def printed(url: str, tmp_path: Path, tournament: str, what: str, suffix: str, *extra: str) -> Path:
    path = tmp_path / f"{tournament}-{what}{suffix}"
    assert main(["--db", url, "print", tournament, what, "-o", str(path), *extra]) == 0
    return path


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_pairs_event_printed(store_url, tmp_path):
    build_pairs(store_url)
    hands = printed(store_url, tmp_path, "spring-pairs", "handrecords", ".pdf", "--no-analysis")
    text = text_of(hands)
    assert [int(n) for n in re.findall(r"Board (\d+)", text)] == [1, 2, 3, 4, 5, 6]
    # board 1 of the club's hand record: N AQT94.T53.KQ8.T9, E 63.J98.J53.K8654
    assert "♠AQ1094♥1053♦KQ8♣109" in squeeze(text) and "♠63♥J98♦J53♣K8654" in squeeze(text)
    assert "Vul. none" in text and "Dealer N" in text
    render(hands, "hand-records")

    travellers = printed(store_url, tmp_path, "spring-pairs", "travellers", ".pdf")
    text = text_of(travellers)
    assert "Marie Roux - Nicolas Vincent" in text and "Odile Fournier (substitute)" in text
    assert "adj.1" in text and "assigned: 3NT by N, 9 tricks (2017:12C1b)" in text
    assert "withdrawn (2017:13A)" in text and "+630" in text and "-620" in text
    render(travellers, "travellers")

    ranking = printed(store_url, tmp_path, "spring-pairs", "ranking", ".pdf")
    text = text_of(ranking)
    for title in ("session s1 - NS", "session s1 - EW", "session s2 - NS", "overall"):
        assert title in text
    overall = text[text.index("overall"):]
    assert overall.index("Marie Roux") < overall.index("Karine David") < overall.index("Gaelle Laurent")
    assert "66.67" in overall and "59.09" in overall and "25.00" in overall
    render(ranking, "ranking")

    cards = printed(store_url, tmp_path, "spring-pairs", "tablecards", ".pdf", "--session", "s1")
    text = text_of(cards)
    assert "session s1 - table 2" in text and "NS stay, EW to table 3" in text and "Ines Michel" in text
    from pypdf import PdfReader

    assert len(PdfReader(str(cards)).pages) == 3  # one card a table
    render(cards, "table-cards")

    page = printed(store_url, tmp_path, "spring-pairs", "travellers", ".html").read_text(encoding="utf-8")
    assert "Odile Fournier (substitute)" in page and "<script" not in page and "@page" in page
    page = printed(store_url, tmp_path, "spring-pairs", "handrecords", ".html", "--no-analysis").read_text()
    assert '<span class="red">♥</span> 1053' in page
    page = printed(store_url, tmp_path, "spring-pairs", "tablecards", ".html", "--session", "s2").read_text()
    assert page.count("<svg") == 3 and "Marie Roux" in page


def test_the_swiss_ranking_printed(store_url, tmp_path):
    build_swiss(store_url)
    ranking = printed(store_url, tmp_path, "swiss-teams", "ranking", ".pdf")
    text = text_of(ranking)
    assert "1 Lille" in text and "16.46 - 3.54" in text and "65.79" in text and "31.13" in text
    assert text.index("Lille") < text.index("65.79") < text.index("31.13")
    render(ranking, "swiss-ranking")
    travellers = text_of(printed(store_url, tmp_path, "swiss-teams", "travellers", ".pdf", "--session", "sw"))
    assert "withdrawn (2017:87A)" in travellers and "Zoe Barbier (substitute)" in travellers


def test_hand_records_with_double_dummy(store_url, tmp_path):
    pytest.importorskip("endplay", reason="the analysis extra (endplay) is not installed")
    build_pairs(store_url)
    path = printed(store_url, tmp_path, "spring-pairs", "handrecords", ".pdf", "--session", "s1")
    text = text_of(path)
    assert text.count("Par:") == 3
    assert "Par: 6♠N=, 6♠S= (+980 NS)" in text  # board 1: N-S make twelve tricks in spades
    render(path, "hand-records")  # the docs show the sheet with the double-dummy tables


def test_table_cards_carry_the_live_urls(store_url, tmp_path):
    build_pairs(store_url)
    urls = tmp_path / "open.json"
    urls.write_text('{"table_urls": {"1": "http://192.168.1.20:8000/table/abc", "2": "http://192.168.1.20:8000/table/def",'
                    ' "3": "http://192.168.1.20:8000/table/ghi"}}')
    text = text_of(printed(store_url, tmp_path, "spring-pairs", "tablecards", ".pdf", "--session", "s2",
                           "--urls", str(urls)))
    assert "Scan to open the table: http://192.168.1.20:8000/table/def" in text


def test_the_console_lists_the_same_boards(tmp_path):
    """The director's console has the list ``cli.py boards`` prints (same function), with the
    same filters: a new page, /director/boards/TOURNAMENT."""
    from live_helpers import TestClient, make_site, sign_in

    from ledger.live.app import create_app

    site = make_site(f"sqlite:///{tmp_path / 'ledger.db'}")
    build_pairs_on(site.url)
    with TestClient(create_app(site.url, ledger=site.ledger)) as client:
        assert client.get("/director/boards/spring-pairs", follow_redirects=False).status_code in (303, 307)
        sign_in(client, "alice")
        page = client.get("/director/boards/spring-pairs").text
        assert page.count("<tr data-stream=") == 19 and "Marie Roux - Nicolas Vincent" in page
        ruled = client.get("/director/boards/spring-pairs", params={"rulings": "1"}).text
        assert ruled.count("<tr data-stream=") == 3 and "withdrawn (2017:13A)" in ruled
        one = client.get("/director/boards/spring-pairs", params={"pair": "fournier"}).text
        assert one.count("<tr data-stream=") == 2


def build_pairs_on(url: str) -> None:
    """The Spring Pairs on a ledger whose schema exists already (the live site's)."""
    from test_event_pairs import EXAMPLES, run

    assert run(url, "register", "spring-pairs", str(EXAMPLES / "pairs-register.jsonl")) == 0
    for session in ("s1", "s2"):
        assert run(url, "enter", "spring-pairs", session, str(EXAMPLES / f"pairs-{session}.txt"),
                   "--deals", str(HAND_RECORD)) == 0
    assert run(url, "append", "spring-pairs/s2/t2/b5", str(EXAMPLES / "pairs-adjusted.jsonl")) == 0
    assert run(url, "append", "spring-pairs/s2/t1/b3-mistake", str(EXAMPLES / "pairs-mistake.jsonl")) == 0
