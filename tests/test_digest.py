"""Published digests with proofs, on both stores: ``digest``, ``verify --digest``
(truncation, deletion and rewriting caught even when everything inside the
store was made to agree again), ``prove`` and the case file's proof, and
``check-proof``, which needs no database."""

from __future__ import annotations

import json
import random

import pytest
from tamper import column, rewrite_history, tamper
from cli_helpers import run

from ledger.cli import main
from ledger.service import Ledger
from ledger.simulate import random_board


@pytest.fixture
def db(store_url, monkeypatch):
    monkeypatch.setenv("LEDGER_DB", store_url)
    with Ledger.open(store_url, create=True) as led:
        for n in range(1, 4):
            facts = random_board(random.Random(n), board=n, pass_out=0.0).facts
            led.append(f"t/b{n}", facts[:25])
    return store_url


def take_digest(capsys):
    code, out, _ = run(capsys, "digest", "--json")
    assert code == 0
    return json.loads(out)


def append_more(url, stream="t/b1", cut=(25, 40)):
    facts = random_board(random.Random(int(stream[-1])), board=int(stream[-1]), pass_out=0.0).facts
    with Ledger.open(url) as led:
        led.append(stream, facts[cut[0]:cut[1]])


def test_digest_prints_size_root_and_the_read_out_form(db, capsys):
    d = take_digest(capsys)
    assert d["size"] == 75 and len(d["root"]) == 64 and d["digest"] == f"75:{d['root']}"
    assert d["short"] == f"75-{d['root'][:4].upper()}-{d['root'][4:8].upper()}-" \
                         f"{d['root'][8:12].upper()}-{d['root'][12:16].upper()}"
    code, out, err = run(capsys, "digest")
    assert code == 0 and out.splitlines() == [d["digest"]]
    assert err.splitlines() == [f"75 events; read out: {d['short']}"]


def test_the_log_grows_and_stays_consistent_with_an_old_digest(db, capsys):
    old = take_digest(capsys)
    append_more(db)
    new = take_digest(capsys)
    assert new["size"] > old["size"] and new["root"] != old["root"]
    for form in (old["digest"], old["short"]):
        code, out, err = run(capsys, "verify", "--digest", form)
        assert code == 0, err
        assert f"exactly the {old['size']} event(s)" in out and "consistency proof of" in out
        assert "consistency proof of 0 " not in out


def test_a_truncated_tail_is_caught_against_the_digest_even_when_the_store_agrees_again(db, capsys):
    d = take_digest(capsys)
    rewrite_history(db, "t/b2", 0, truncate_after=22)  # 3 events cut, heads and tree redone
    code, out, err = run(capsys, "verify")
    assert code == 0, "inside the store everything agrees: only the digest can see the cut"
    code, _, err = run(capsys, "verify", "--digest", d["digest"])
    assert code == 1 and "(digest)" in err and "3 event(s) removed" in err


def test_a_rewritten_event_is_caught_against_the_digest_even_when_the_store_agrees_again(db, capsys):
    d = take_digest(capsys)
    data = json.loads(column(db, "data", "t/b1", 3))
    data["call"] = "7NT" if data.get("call") != "7NT" else "Pass"
    rewrite_history(db, "t/b1", 3, data)
    assert run(capsys, "verify")[0] == 0
    code, _, err = run(capsys, "verify", "--digest", d["digest"])
    assert code == 1 and "do not hash to the digest's root" in err
    code, _, err = run(capsys, "verify", "--digest", d["short"])
    assert code == 1


def test_a_deleted_row_is_caught_by_verify_and_by_the_digest(db, capsys):
    d = take_digest(capsys)
    tamper(db, "DELETE FROM events WHERE stream = 't/b3' AND seq = 25")
    code, _, err = run(capsys, "verify", "--digest", d["digest"])
    assert code == 1 and "1 event(s) removed" in err and "stream 't/b3' seq 25 (head)" in err


def test_a_bad_digest_is_exit_2(db, capsys):
    code, _, err = run(capsys, "verify", "--digest", "12:abc")
    assert code == 2 and "a digest is SIZE:ROOT" in err


def test_the_case_file_carries_the_proof_and_check_proof_needs_no_database(db, capsys, tmp_path,
                                                                           monkeypatch):
    d = take_digest(capsys)
    append_more(db, "t/b2")  # events after the digest: in the case file, not covered
    html_path, json_path = tmp_path / "case.html", tmp_path / "case.json"
    assert run(capsys, "casefile", "t/b2", "--digest", d["digest"], "-o", str(html_path))[0] == 0
    assert run(capsys, "casefile", "t/b2", "--digest", d["digest"], "--format", "json",
               "-o", str(json_path))[0] == 0
    monkeypatch.setenv("LEDGER_DB", f"sqlite:///{tmp_path / 'no-such.db'}")
    for path in (html_path, json_path):
        code, out, err = run(capsys, "check-proof", str(path), "--digest", d["digest"])
        assert code == 0, err
        assert "seq 1-25 are in the log published" in out and "not covered: seq 26" in out
    code, out, _ = run(capsys, "check-proof", str(json_path), "--digest", d["short"])
    assert code == 0
    assert not (tmp_path / "no-such.db").exists()


def test_check_proof_names_a_changed_event_and_refuses_another_digest(db, capsys, tmp_path):
    d = take_digest(capsys)
    path = tmp_path / "case.json"
    run(capsys, "casefile", "t/b1", "--digest", d["digest"], "--format", "json", "-o", str(path))
    case = json.loads(path.read_text())
    case["events"][6]["at"] = "2001-01-01T00:00:00.000000Z"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(case))
    code, _, err = run(capsys, "check-proof", str(edited), "--digest", d["digest"])
    assert code == 1 and "seq 7: its content does not match its hash" in err
    assert "seq 7: not in the published log" in err
    append_more(db)
    other = take_digest(capsys)
    code, _, err = run(capsys, "check-proof", str(path), "--digest", other["digest"])
    assert code == 1 and "the proof is for a log of 75 events" in err
    code, _, err = run(capsys, "check-proof", str(path), "--digest", f"75:{'0' * 64}")
    assert code == 1 and "not in the published log" in err
    plain = tmp_path / "plain.json"
    run(capsys, "casefile", "t/b1", "--format", "json", "-o", str(plain))
    code, _, err = run(capsys, "check-proof", str(plain), "--digest", d["digest"])
    assert code == 2 and "carries no proof" in err


def test_prove_writes_one_path_per_event_under_the_digest(db, capsys):
    d = take_digest(capsys)
    append_more(db, "t/b3")
    code, out, _ = run(capsys, "prove", "t/b3", "--digest", d["digest"])
    proof = json.loads(out)
    assert code == 0 and proof["tree_size"] == 75 and proof["digest"] == d["digest"]
    assert [e["seq"] for e in proof["events"]] == list(range(1, 26))
    assert proof["not_covered"] and proof["not_covered"][0] == 26
    assert len({e["leaf_index"] for e in proof["events"]}) == 25


def test_the_worked_example_of_docs_reliability_runs(tmp_path):
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "reliability.md").read_text(encoding="utf-8")
    block = re.findall(r"```sh\n(.*?)```", doc, flags=re.S)[0]
    script = block.replace("python cli.py", f'"{sys.executable}" "{root / "cli.py"}"')
    env = dict(os.environ, LEDGER_DB=f"sqlite:///{tmp_path / 'ledger.db'}")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"141:[0-9a-f]{64}", lines[0])
    assert "ok: the store holds exactly the 141 event(s)" in done.stdout
    assert "ok: stream 'demo/club/b5' seq 1-73 are in the log published as 141-" in done.stdout


def test_check_proof_of_a_damaged_case_file_never_crashes_and_passes_only_intact_events(db, capsys, tmp_path):
    from hypothesis import given, settings, strategies as st

    d = take_digest(capsys)
    path = tmp_path / "case.json"
    run(capsys, "casefile", "t/b2", "--digest", d["digest"], "--format", "json", "-o", str(path))
    case = json.loads(path.read_text())
    junk = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
                        max_leaves=6)

    @settings(max_examples=80, deadline=None)
    @given(where=st.sampled_from(["events", "proof", "proof.events", "proof.not_covered", "event",
                                  "entry", "entry.path"]), value=junk)
    def damaged(where, value):
        broken = json.loads(json.dumps(case))
        if where == "events" or where == "proof":
            broken[where] = value
        elif where == "event":
            broken["events"][3] = value
        elif where == "entry":
            broken["proof"]["events"][2] = value
        elif where == "entry.path":
            broken["proof"]["events"][2]["path"] = value
        else:
            broken["proof"][where.split(".")[1]] = value
        target = tmp_path / "broken.json"
        target.write_text(json.dumps(broken))
        capsys.readouterr()
        code = main(["check-proof", str(target), "--digest", d["digest"]])
        err = capsys.readouterr().err
        assert code in (0, 1, 2) and "Traceback" not in err
        if code == 0:  # accepted only when the events themselves are untouched
            assert broken["events"] == case["events"]

    damaged()
