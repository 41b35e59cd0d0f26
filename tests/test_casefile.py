"""The appeal case file: JSON for tools, self-contained HTML for the committee."""

import json
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser_helpers import CHROMIUM

from ledger.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "ledger" / "examples"


@pytest.fixture
def db(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    monkeypatch.setenv("LEDGER_DB", url)
    assert main(["init"]) == 0
    assert main(["append", "demo/b14", str(EXAMPLES / "realbridge-b14.jsonl")]) == 0
    assert main(["append", "demo/b5", str(EXAMPLES / "club-b5-revoke.jsonl")]) == 0
    return url


class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.text, self.tags, self._stack = {}, [], set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        attrs = dict(attrs)
        self._stack.append(attrs.get("id"))

    def handle_endtag(self, tag):
        if self._stack:
            self._stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        for ident in filter(None, self._stack):
            self.ids[ident] = self.ids.get(ident, "") + data


def test_json_casefile_has_every_event_and_the_result(db, capsys):
    capsys.readouterr()
    assert main(["casefile", "demo/b14", "--format", "json"]) == 0
    case = json.loads(capsys.readouterr().out)
    assert [e["seq"] for e in case["events"]] == list(range(1, 69))
    assert case["result"]["score_ns"] == 420 and case["result"]["text"] == "4H N ="
    assert case["integrity"]["verified"] is True and case["integrity"]["last_seq"] == 68
    assert "2017:77" in case["cited"] and "FFB:57.3" in case["cited"]
    assert len(case["tricks"]) == 13


def test_html_casefile_is_self_contained_and_shows_the_key_facts(db, tmp_path, capsys):
    out = tmp_path / "case.html"
    assert main(["casefile", "demo/b14", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page and "http://" not in page and "https://" not in page
    parsed = Text()
    parsed.feed(page)
    assert "♥A K J 10 9 7 4" in parsed.ids["hand-N"].replace("♥ ", "♥")
    assert parsed.ids["contract"] == "4H by N"
    assert "4H N =, NS +420" in parsed.ids["result"]
    assert "verified" in parsed.ids["integrity"] and "cli.py verify demo/b14" in parsed.ids["integrity"]
    assert parsed.ids["events"].count("CardPlayed") == 52


def test_html_casefile_lists_an_irregularity_for_the_committee(db, capsys):
    capsys.readouterr()
    assert main(["casefile", "demo/b5"]) == 0
    parsed = Text()
    parsed.feed(capsys.readouterr().out)
    irregularities = parsed.ids["irregularities"]
    assert "revoke by E at seq 27" in irregularities
    assert "RevokeEstablished (seat: E; trick: 4) 2017:63A1" in irregularities
    assert "TricksTransferred (to: declarer; tricks: 1) 2017:64A2" in irregularities
    assert "4H S +2, NS +680" in parsed.ids["result"]
    assert "AttentionDrawn" in parsed.ids["events"] and "DirectorCalled" in parsed.ids["events"]
    decisions = parsed.ids["decisions"]
    assert "director/TD Girard" in decisions and "AppealLodged" in decisions
    assert "committee/Appeals committee (3 members)" in decisions and "upheld: Law 64A2 applies" in decisions


def test_a_tampered_chain_is_flagged_in_the_casefile(db, capsys):
    import sqlalchemy as sa
    from backends import drop_append_only_triggers

    engine = sa.create_engine(db)
    with engine.begin() as conn:
        drop_append_only_triggers(conn)
        conn.execute(sa.text("UPDATE events SET at = '2000-01-01T00:00:00.000000Z' WHERE stream = 'demo/b5' AND seq = 2"))
    engine.dispose()
    capsys.readouterr()
    assert main(["casefile", "demo/b5"]) == 0
    assert "NOT VERIFIED" in capsys.readouterr().out


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium not installed (Debian package chromium)")
def test_the_casefile_renders_in_headless_chromium(db, tmp_path):
    page = tmp_path / "case.html"
    assert main(["casefile", "demo/b14", "-o", str(page)]) == 0
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                          "--no-first-run", "--disable-background-networking", "--disable-component-update",
                          "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                          page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "4H N =, NS +420" in dom.stdout and 'id="events"' in dom.stdout
