"""Case files that prove what they show (issue 25, items 2 and 3), on both stores:
``check-proof`` re-renders the page from the events it embeds and names the first
difference; an edit of any visible field (result, score, a card, a ruling's Law, a
committee member) is caught in the HTML and in the JSON. And what a committee reads
without help: the Laws in words, the irregular card marked, a cancelled option with
its reason, the timeline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import run

from ledger.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "ledger" / "examples"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


@pytest.fixture
def demo(store_url, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LEDGER_DB", store_url)
    assert main(["init"]) == 0
    assert main(["append", "club/b5", str(EXAMPLES / "club-b5-revoke.jsonl")]) == 0
    code, out, _ = run(capsys, "digest")
    assert code == 0
    digest = out.strip()
    html_path, json_path = tmp_path / "case.html", tmp_path / "case.json"
    assert run(capsys, "casefile", "club/b5", "--digest", digest, "-o", str(html_path))[0] == 0
    assert run(capsys, "casefile", "club/b5", "--digest", digest, "--format", "json",
               "-o", str(json_path))[0] == 0
    return digest, html_path, json_path


def _section(page: str, opening: str, old: str, new: str) -> str:
    """``page`` with ``old`` replaced by ``new`` once, inside the element opened by ``opening``."""
    start = page.index(opening)
    at = page.index(old, start)
    return page[:at] + new + page[at + len(old):]


HTML_EDITS = {
    "result": ('<p id="result">', "4H S +2", "4H S +1", "Result"),
    "score": ('<p id="result">', "NS +680", "NS +650", "Result"),
    "card": ('<table id="tricks">', '<span class="suit-C">♣</span>7', '<span class="suit-D">♦</span>7',
             "The play"),
    "ruling law": ("<table id='appeal-form'>", "2017:64A2", "2017:64A1", "The appeal form"),
    "committee member": ("<table id='appeal-form'>", "Appeals committee (3 members)",
                         "Appeals committee (5 members)", "The appeal form"),
}


def test_the_intact_case_file_passes_the_rendering_check_and_the_proof(demo, capsys):
    digest, html_path, json_path = demo
    for path in (html_path, json_path):
        code, out, err = run(capsys, "check-proof", str(path), "--digest", digest)
        assert code == 0, err
        assert "ok: what the case file shows is the rendering of the events it embeds" in out
        assert "0 event(s) unproved" in out


@pytest.mark.parametrize("field", sorted(HTML_EDITS))
def test_an_edit_of_a_visible_field_of_the_html_is_caught(demo, capsys, tmp_path, field):
    digest, html_path, _ = demo
    opening, old, new, section = HTML_EDITS[field]
    page = html_path.read_text(encoding="utf-8")
    edited = tmp_path / "edited.html"
    edited.write_text(_section(page, opening, old, new), encoding="utf-8")
    code, out, err = run(capsys, "check-proof", str(edited), "--digest", digest)
    assert code == 1 and "ok:" not in out
    assert "the visible content differs from the rendering of its events" in err
    assert f"in section “{section}”" in err
    shown = re.sub(r"<[^>]*>", " ", new).split()[-1]  # the edited text is quoted back
    assert shown in err.split("the events give")[0]


JSON_EDITS = {
    "result": (("result", "text"), "4H S +1", "result.text"),
    "score": (("result", "score_ns"), 650, "result.score_ns"),
    "card": (("tricks", 3, "cards", 3, "card"), "D7", "tricks[3].cards[3].card"),
    "ruling law": (("appeal_form", "director_rulings", 0, "laws", 1), "2017:64A1",
                   "appeal_form.director_rulings[0].laws[1]"),
    "committee member": (("appeal_form", "committee_members", 0), "Appeals committee (5 members)",
                         "appeal_form.committee_members[0]"),
}


@pytest.mark.parametrize("field", sorted(JSON_EDITS))
def test_an_edit_of_a_visible_field_of_the_json_is_caught(demo, capsys, tmp_path, field):
    digest, _, json_path = demo
    path, value, named = JSON_EDITS[field]
    case = json.loads(json_path.read_text(encoding="utf-8"))
    target = case
    for key in path[:-1]:
        target = target[key]
    assert target[path[-1]] != value
    target[path[-1]] = value
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    code, _, err = run(capsys, "check-proof", str(edited), "--digest", digest)
    assert code == 1 and f"at {named} the file shows" in err


def test_the_committee_reads_the_laws_the_revoke_card_and_the_timeline(demo):
    _, html_path, json_path = demo
    case = json.loads(json_path.read_text(encoding="utf-8"))
    words = {w["law"]: w for w in case["laws_in_words"]}
    assert set(words) == set(case["cited"])  # every Law cited has words
    assert "one trick is transferred" in words["2017:64A2"]["text"]
    assert all(w["from"] for w in words.values())
    assert case["irregular_cards"] == {"27": "revoke (2017:63A1)"}  # East's ♣7 at trick 4
    page = html_path.read_text(encoding="utf-8")
    cell = re.search(r"<td class='irregular'[^>]*>(.*?)</td>", page).group(1)
    assert "♣" in cell and "7" in cell and "‼ revoke" in cell
    timeline = case["timeline"]
    assert timeline[0]["what"].startswith("board opened")
    assert any(t["who"] == "director TD Girard" and "4H+2, NS +680" in t["what"] for t in timeline)
    assert "<table id='timeline'>" in page and "The Laws cited, in our words" in page


def test_an_option_that_lapsed_is_shown_cancelled_with_the_reason(store_url, monkeypatch, capsys):
    monkeypatch.setenv("LEDGER_DB", store_url)
    from ledger.casefile import build_casefile, render_html
    from ledger.scenario import replay_text

    text = (SCENARIOS / "revoke-62c1-2017-option-lapses-at-the-next-trick.jsonl").read_text()
    with replay_text(text, url=store_url) as (ledger, stream):
        case = build_casefile(ledger, stream)
    status = case["option_status"]
    assert [s["status"] for s in status] == ["cancelled"]
    assert status[0]["at_seq"] == 25 and "play went on without a choice (N played C6, seq 25)" in status[0]["reason"]
    assert "[2017:62C1:" in status[0]["reason"]
    page = render_html(case)
    assert "not chosen yet" not in page and "<b>cancelled</b>" in page
