"""``check-proof`` (issue 26, item 4): an event inside the digest's size must match its
leaf whatever the case file claims about it; only events appended after the digest may
be unproved by it, each placed after it by a consistency proof, and the output counts
them. Both stores."""

from __future__ import annotations

import json

from test_digest import append_more, db, run, take_digest  # noqa: F401  (the fixture)

from ledger.hashing import event_hash


def _rehash_last(case: dict) -> None:
    """Rewrite the last event's content and give it a matching hash (a careful forger)."""
    last = case["events"][-1]
    last["at"] = "2001-01-01T00:00:00.000000Z"
    last["hash"] = event_hash(last["stream"], last["seq"], last["id"], last["type"], last["v"],
                              last["data"], last["actor"], last["at"], last["causes"], last["law"],
                              last["prev"])


def test_the_last_event_rewritten_and_declared_after_the_digest_is_refused(db, capsys, tmp_path):  # noqa: F811
    d = take_digest(capsys)
    path = tmp_path / "case.json"
    assert run(capsys, "casefile", "t/b1", "--digest", d["digest"], "--format", "json",
               "-o", str(path))[0] == 0
    case = json.loads(path.read_text())
    assert case["proof"]["not_covered"] == [] and len(case["proof"]["events"]) == 25
    ok = run(capsys, "check-proof", str(path), "--digest", d["digest"])
    assert ok[0] == 0 and "0 event(s) unproved" in ok[1]
    forged = json.loads(json.dumps(case))
    _rehash_last(forged)
    forged["proof"]["events"] = forged["proof"]["events"][:-1]  # its proof dropped ...
    forged["proof"]["not_covered"] = [25]                        # ... and declared appended later
    target = tmp_path / "forged.json"
    target.write_text(json.dumps(forged))
    code, out, err = run(capsys, "check-proof", str(target), "--digest", d["digest"])
    assert code == 1 and "seq 25: declared appended after the digest" in err
    assert "must match its leaf" in err and "ok:" not in out


def test_events_really_appended_later_are_counted_and_a_forged_later_one_refused(db, capsys, tmp_path):  # noqa: F811
    d = take_digest(capsys)
    append_more(db, "t/b2")  # seqs 26-40 after the digest
    path = tmp_path / "case.json"
    run(capsys, "casefile", "t/b2", "--digest", d["digest"], "--format", "json", "-o", str(path))
    case = json.loads(path.read_text())
    block = case["proof"]["after_digest"]
    assert block["tree_size"] == 75 + 15 and len(block["events"]) == 15
    assert all(e["leaf_index"] >= 75 for e in block["events"])
    code, out, err = run(capsys, "check-proof", str(path), "--digest", d["digest"])
    assert code == 0, err
    assert "not covered: seq 26" in out and "(15 event(s) unproved by this digest" in out
    # the last of the later events rewritten: its place in the later tree no longer fits
    forged = json.loads(json.dumps(case))
    _rehash_last(forged)
    target = tmp_path / "forged.json"
    target.write_text(json.dumps(forged))
    code, _, err = run(capsys, "check-proof", str(target), "--digest", d["digest"])
    assert code == 1 and "seq 40: declared appended after the digest, but it is not the event" in err
    # a covered event moved to the later list without a place past the digest: refused
    moved = json.loads(json.dumps(case))
    moved["proof"]["events"] = moved["proof"]["events"][:-1]
    moved["proof"]["not_covered"] = [25] + moved["proof"]["not_covered"]
    target.write_text(json.dumps(moved))
    code, _, err = run(capsys, "check-proof", str(target), "--digest", d["digest"])
    assert code == 1 and "seq 25: declared appended after the digest but has no place" in err
    # the later tree not extending the digest
    bad = json.loads(json.dumps(case))
    bad["proof"]["after_digest"]["consistency"] = bad["proof"]["after_digest"]["consistency"][:-1]
    target.write_text(json.dumps(bad))
    code, _, err = run(capsys, "check-proof", str(target), "--digest", d["digest"])
    assert code == 1 and "not proved to extend the published digest" in err
