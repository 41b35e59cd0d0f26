"""What a committee reads in the case file (issue 15): words, not reprs; who did what; what
replaced what; every Law cited; the claim, the voided entries, the explanations and
reserved rights; the fields of an appeals form."""

from __future__ import annotations

import re
import subprocess

import pytest
from test_adjusted import opened, played
from test_casefile import Text
from browser_helpers import CHROMIUM

from ledger.casefile import build_casefile, render_html
from ledger.service import Ledger

DIRECTOR = {"role": "director", "name": "TD Roy"}
ASSIGNED = {"type": "AdjustedScoreAwarded", "kind": "assigned", "law": "2017:12C1b", "actor": DIRECTOR,
            "results": [{"side": "both", "contract": "4S", "declarer": "N", "tricks": 9}],
            "text": "UI from the hesitation: 4S goes one down without it"}
WEIGHTED = {"type": "AdjustedScoreAwarded", "kind": "weighted", "law": "2017:12C1c", "actor": DIRECTOR,
            "results": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": "1/2"},
                        {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "1/2"}],
            "text": "half and half"}


@pytest.fixture
def ledger():
    led = Ledger.open("sqlite:///:memory:", create=True)
    yield led
    led.close()


def page(ledger, stream):
    case = build_casefile(ledger, stream)
    parsed = Text()
    parsed.feed(render_html(case).split("</style>", 1)[1])  # the page's text, not its styles
    return case, parsed, " ".join("".join(parsed.text).split())


def test_an_adjusted_score_reads_in_words_and_replaced_by_names_the_award_that_replaced_it(ledger):
    ledger.append("c/1", [opened("C", 1)] + played("4S", 10))
    ledger.append("c/1", [ASSIGNED])
    ledger.append("c/1", [WEIGHTED])
    ledger.append("c/1", [dict(ASSIGNED, text="third thoughts")])
    ledger.append("c/1", [{"type": "RulingOverridden", "about": ledger.state("c/1")["seq"],
                           "text": "back to the weighted score", "actor": DIRECTOR}])
    case, parsed, text = page(ledger, "c/1")
    first, second, third, _ = [d for d in case["decisions"]]
    assert first["status"] == f"replaced by seq {second['seq']}"  # the award that replaced it
    assert second["status"] == "in force"
    assert third["status"].startswith(f"cancelled by seq {third['seq'] + 1} (director TD Roy)")
    assert "{" not in text and "[" not in text and "'" not in text.replace("director's", "")
    assert "assigned adjusted score: 4S by N, 9 tricks" in parsed.ids["decisions"]
    assert "weighted adjusted score: 1/2 × 4S by N, 10 tricks; 1/2 × 4S by N, 9 tricks" in parsed.ids["decisions"]
    assert {"2017:12C1b", "2017:12C1c"} <= set(case["cited"])  # Law 12 is among the Laws cited
    assert "2017:12C1b" in text.split("Laws cited:")[1]


def test_no_empty_actor_or_offender(ledger):
    ledger.append("c/2", [opened("C", 2)] + played("4S", 10))
    ledger.append("c/2", [{"type": "ResultCancelled", "text": "board fouled", "actor": DIRECTOR}])
    _, _, text = page(ledger, "c/2")
    assert not re.search(r"by\s+(at|\(|:|,)", text), re.search(r".{40}by\s+(at|\(|:|,).{40}", text)


def test_a_disputed_claim_and_its_ruling_are_in_the_case_file_and_the_decisions(ledger):
    facts = [opened("C", 3)] + played("4S", 10)[:-2] + [
        {"type": "ClaimMade", "seat": "N", "tricks": 10, "statement": "drawing trumps, the rest are high"},
        {"type": "ClaimDisputed", "by": "E"}]
    ledger.append("c/3", facts)
    ledger.append("c/3", [{"type": "ClaimRuled", "tricks": 9, "text": "a normal line loses a trump trick",
                           "actor": DIRECTOR}])
    case, parsed, _ = page(ledger, "c/3")
    claim = parsed.ids["claim"]
    assert "drawing trumps, the rest are high" in claim and "disputed by E" in claim
    assert "the director ruled 9 tricks" in claim and "a normal line loses a trump trick" in claim
    assert "2017:70" in claim and "2017:70" in case["cited"]
    (ruled,) = [d for d in case["decisions"] if d["type"] == "ClaimRuled"]
    assert ruled["status"] == "in force" and "ClaimRuled" in parsed.ids["decisions"]


def test_the_appeal_form_holds_what_a_committee_fills_in(ledger):
    auction = [{"type": "CallPlaced", "seat": seat, "call": call} for seat, call in
               zip("SWNESWNE", ["3S", "Pass", "4S", "Pass", "Pass", "Pass"])]
    ledger.append("c/4", [opened("C", 4), {"type": "CallPlaced", "seat": "N", "call": "1S"},
                          {"type": "ExplanationGiven", "by": "S", "call_index": 1, "text": "five or more spades"},
                          {"type": "CallPlaced", "seat": "E", "call": "Pass", "id": "slow-pass"},
                          {"type": "RightsReserved", "by": "N", "about": "slow-pass",
                           "reason": "East took twenty seconds before passing"}]
                  + auction + played("4S", 10)[4:])
    ledger.append("c/4", [{"type": "RulingGiven", "laws": ["2017:16B1", "2017:12C1b"], "actor": DIRECTOR,
                           "text": "the pause suggested action; 4S one down"}, ASSIGNED])
    ledger.append("c/4", [{"type": "AppealLodged", "side": "EW", "text": "the pause was normal tempo",
                           "actor": DIRECTOR}])
    ledger.append("c/4", [{"type": "AppealDecided", "decision": "upheld", "text": "the pause was clear",
                           "members": ["A. Chair", "B. Member", "C. Member"], "actor": {"role": "committee"}}])
    case, parsed, text = page(ledger, "c/4")
    form = parsed.ids["appeal-form"]
    assert "the pause suggested action; 4S one down" in form and "2017:16B1" in form
    assert "EW" in form and "the pause was normal tempo" in form
    assert "A. Chair, B. Member, C. Member" in form
    assert "upheld" in form and "the pause was clear" in form
    lodged = next(e["seq"] for e in case["events"] if e["type"] == "AppealLodged")
    assert f"seq {lodged} AppealLodged lodged by EW (logged by director TD Roy)" in text  # not "by director"
    tempo = parsed.ids["tempo"]
    assert "Explanation given by S, about call 1, N 1S: five or more spades" in tempo
    assert "Rights reserved (break in tempo or other information) by N, about CallPlaced" in tempo
    assert "East took twenty seconds" in tempo
    assert "‡" in parsed.ids["auction"]  # the call marked in the auction


def test_a_voided_entry_is_listed_with_who_and_when(ledger):
    ledger.append("c/5", [opened("C", 5), {"type": "CallPlaced", "seat": "N", "call": "1S"}])
    ledger.append("c/5", [{"type": "CallPlaced", "seat": "E", "call": "2H", "id": "typo",
                           "actor": {"role": "table", "name": "t5"}}])
    ledger.append("c/5", [{"type": "EntryVoided", "about": "typo", "reason": "East pressed 2H, meant Pass",
                           "actor": {"role": "table", "name": "t5"}}])
    case, parsed, _ = page(ledger, "c/5")
    voided = parsed.ids["voided"]
    assert "seq 3 CallPlaced voided by table t5 at" in voided and "East pressed 2H, meant Pass" in voided
    assert [a["call"] for a in case["auction"]] == ["1S"]
    assert "CallPlaced (voided by seq 4)" in parsed.ids["events"]


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium not installed (Debian package chromium)")
def test_the_demo_appeal_renders_in_headless_chromium_with_its_appeal_form(tmp_path):
    from ledger.cli import main

    db = f"sqlite:///{tmp_path / 'l.db'}"
    assert main(["--db", db, "demo"]) == 0
    page = tmp_path / "case.html"
    assert main(["--db", db, "casefile", "demo/club/b5", "-o", str(page)]) == 0
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                          "--no-first-run", "--disable-background-networking", "--disable-component-update",
                          "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                          page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'id="appeal-form"' in dom.stdout and "lodged by EW (logged by director TD Girard)" in dom.stdout
    assert "Appeals committee (3 members)" in dom.stdout and "2017:64A2" in dom.stdout
