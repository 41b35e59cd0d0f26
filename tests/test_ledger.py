"""The ledger's append path on both stores: atomic batches with the engine's
events in the same transaction, one fold step per append (the head snapshot
equals a refold), concurrency, idempotent retries, verify naming a tampered
seq. Each test runs on SQLite and on PostgreSQL (fixture ``store_url``)."""

import random
import threading

import pytest
import sqlalchemy as sa
from backends import drop_append_only_triggers

from ledger.errors import BadInput, ConcurrencyError, NotAllowed
from ledger.service import Ledger, fold_events
from ledger.simulate import random_board
from projections import snapshot
from projections.document import to_document


@pytest.fixture
def ledger(store_url):
    led = Ledger.open(store_url, create=True)
    yield led
    led.close()


def board(seed=1, n=1):
    return random_board(random.Random(seed), board=n, pass_out=0.0)


def test_a_board_appended_event_by_event_folds_like_a_refold(ledger):
    sim = board(seed=4, n=6)
    seq = 0
    for fact in sim.facts:
        seq = ledger.append("t/b6", [fact], expected_seq=seq).stored[-1].seq
    doc = ledger.state("t/b6")
    assert doc["result"]["score_ns"] == sim.score_ns and doc["integrity"]["verified"] is True
    head = ledger.store.load_snapshot("t/b6")
    assert head.seq == doc["seq"] and head.hash == doc["integrity"]["head"]
    assert snapshot.load(head.state) == fold_events(ledger.store.read("t/b6"))


def test_the_engine_appends_in_the_same_batch_after_the_fact_that_caused_it(ledger):
    sim = board(seed=9, n=3)
    result = ledger.append("t/b3", sim.facts)
    types = [e.type for e in result.stored]
    assert types[-1] == "ResultRecorded" and len(result.fact_seqs) == len(sim.facts)
    recorded = result.stored[-1]
    assert recorded.actor.role == "system" and recorded.causes == (result.fact_seqs[-1],)
    assert recorded.law == "2017:77"
    # The same log always yields the same rectifications, with the same ids.
    other = Ledger.open("sqlite:///:memory:", create=True)
    again = other.append("t/b3", sim.facts).stored[-1]
    other.close()
    assert (again.seq, again.id, again.data) == (recorded.seq, recorded.id, recorded.data)


def test_one_bad_line_refuses_the_whole_batch(ledger):
    sim = board(seed=2)
    lead = next(i for i, f in enumerate(sim.facts) if f["type"] == "CardPlayed")
    facts = sim.facts[:lead + 1] + [dict(sim.facts[lead])] + sim.facts[lead + 1:lead + 5]
    with pytest.raises(BadInput) as err:  # the opening lead played twice
        ledger.append("t/x", facts)
    assert err.value.line == lead + 2 and err.value.field == "card"
    assert ledger.store.read("t/x") == []


def test_a_stale_expected_seq_is_a_concurrency_error_and_writes_nothing(ledger):
    sim = board(seed=3)
    ledger.append("t/y", sim.facts[:5], expected_seq=0)
    with pytest.raises(ConcurrencyError) as err:
        ledger.append("t/y", sim.facts[5:6], expected_seq=4)
    assert (err.value.expected, err.value.actual) == (4, 5)
    assert [e.seq for e in ledger.store.read("t/y")] == [1, 2, 3, 4, 5]


def test_two_writers_race_on_one_stream_exactly_one_wins(store_url):
    sim = board(seed=5)
    setup = Ledger.open(store_url, create=True)
    setup.append("race", sim.facts[:5])
    setup.close()
    barrier = threading.Barrier(2)
    outcomes = []

    def writer(fact):
        led = Ledger.open(store_url)
        try:
            barrier.wait()
            led.append("race", [fact], expected_seq=5)
            outcomes.append("won")
        except ConcurrencyError:
            outcomes.append("conflict")
        finally:
            led.close()

    threads = [threading.Thread(target=writer, args=(sim.facts[5],)),
               threading.Thread(target=writer, args=(sim.facts[5],))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["conflict", "won"]
    check = Ledger.open(store_url)
    assert [e.seq for e in check.store.read("race")] == [1, 2, 3, 4, 5, 6]
    assert check.verify() == []
    check.close()


def test_a_retry_with_the_same_ids_is_a_no_op(ledger):
    sim = board(seed=6)
    facts = [dict(f, id=f"e{i}") for i, f in enumerate(sim.facts[:8])]
    first = ledger.append("t/r", facts)
    again = ledger.append("t/r", facts, expected_seq=0)
    assert again.replayed and again.fact_seqs == first.fact_seqs and again.stored == ()
    assert len(ledger.store.read("t/r")) == 8


def test_the_first_append_of_a_stream_looks_up_no_id_but_still_refuses_one_twice(ledger, monkeypatch):
    """A stream with nothing stored holds no id: its first batch skips the id look-up
    (one round trip less per board opened); a later batch looks them up (retries), and an
    id twice in one batch is refused either way, nothing written."""
    from ledger.store.sql import SqlTransaction

    looked: list[list[str]] = []
    find_ids = SqlTransaction.find_ids
    monkeypatch.setattr(SqlTransaction, "find_ids",
                        lambda self, ids: looked.append(list(ids)) or find_ids(self, ids))
    sim = board(seed=9)
    facts = [dict(f, id=f"f{i}") for i, f in enumerate(sim.facts[:4])]
    with pytest.raises(BadInput, match="the same id twice"):
        ledger.append("t/first", [facts[0], dict(facts[1], id="f0")])
    assert ledger.store.read("t/first") == [] and looked == []
    ledger.append("t/first", facts[:2])
    assert looked == []
    again = ledger.append("t/first", facts[:2])
    assert again.replayed and looked == [["f0", "f1"]]
    ledger.append("t/first", facts[2:])
    assert looked[-1] == ["f2", "f3"] and len(ledger.store.read("t/first")) == 4


def test_a_role_not_allowed_writes_nothing(ledger):
    sim = board(seed=7)
    ledger.append("t/z", sim.facts[:1])
    with pytest.raises(NotAllowed):
        ledger.append("t/z", [{"type": "AppealDecided", "decision": "upheld", "text": "",
                               "actor": {"role": "director"}}])
    assert len(ledger.store.read("t/z")) == 1


def test_verify_names_the_tampered_seq(store_url, ledger):
    sim = board(seed=8)
    ledger.append("t/tamper", sim.facts[:12])
    ledger.append("t/other", sim.facts[:3])
    assert ledger.verify() == []
    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        drop_append_only_triggers(conn)
        data = conn.execute(sa.text("SELECT data FROM events WHERE stream = 't/tamper' AND seq = 7")).scalar()
        seat = data.index('"seat":"') + len('"seat":"')
        other = "S" if data[seat] != "S" else "N"  # one byte changed: another seat
        conn.execute(sa.text("UPDATE events SET data = :d WHERE stream = 't/tamper' AND seq = 7"),
                     {"d": data[:seat] + other + data[seat + 1:]})
    engine.dispose()
    problems = ledger.verify()
    assert [(p.stream, p.seq) for p in problems] == [("t/tamper", 7)]
    assert ledger.state("t/tamper")["integrity"]["verified"] is False
    assert ledger.verify("t/other") == []


def test_a_stale_snapshot_version_is_refolded(ledger, monkeypatch):
    sim = board(seed=10)
    ledger.append("t/v", sim.facts[:20])
    monkeypatch.setattr(snapshot, "VERSION", snapshot.VERSION + 1)
    ledger._cache.clear()
    ledger.append("t/v", sim.facts[20:])
    assert ledger.state("t/v")["phase"] == "ended"
    assert ledger.store.load_snapshot("t/v").version == snapshot.VERSION


def test_rebuild_gives_the_same_state_as_the_incremental_folds(ledger):
    for i in range(3):
        sim = board(seed=20 + i, n=i + 1)
        for cut in (0, 17, 40):
            ledger.append(f"t/rb{i}", sim.facts[cut:cut + (17 if cut == 0 else 23 if cut == 17 else 99)])
    before = {s: ledger.store.load_snapshot(s).state for s in ledger.store.streams("t/rb")}
    counts = ledger.rebuild()
    assert counts["differed"] == 0 and counts["streams"] == 3
    assert {s: ledger.store.load_snapshot(s).state for s in before} == before
    assert all(to_document(fold_events(ledger.store.read(s)))["phase"] == "ended" for s in before)


def test_a_disputed_claim_makes_the_engine_ask_the_director_once(ledger):
    sim = board(seed=12, n=4)
    lead = next(i for i, f in enumerate(sim.facts) if f["type"] == "CardPlayed")
    declarer = sim.declarer
    facts = sim.facts[:lead] + [{"type": "ClaimMade", "seat": declarer, "tricks": 13},
                                {"type": "ClaimDisputed", "by": "NESW"["NESW".index(declarer) - 1]}]
    result = ledger.append("t/claim", facts)
    review = result.stored[-1]
    assert review.type == "DirectorReviewRequired" and review.actor.role == "system"
    assert review.data == {"reason": "70 disputed claim", "about": result.fact_seqs[-2]}
    assert review.law == "2017:70" and review.causes == (result.fact_seqs[-2], result.fact_seqs[-1])
    doc = ledger.state("t/claim")
    assert doc["review"] == [{"reason": "70 disputed claim", "seq": review.seq, "about": result.fact_seqs[-2],
                             "law": "2017:70"}]  # the reason's Law with its edition
    ruled = ledger.append("t/claim", [{"type": "ClaimRuled", "tricks": 12, "text": "one trump loser"}])
    assert [e.type for e in ruled.stored] == ["ClaimRuled", "ResultRecorded"]
    doc = ledger.state("t/claim")
    assert doc["review"] == [] and doc["result"]["tricks"] == 12


def test_a_pre_parsed_fact_with_a_forged_role_is_refused_in_append(ledger):
    from ledger.service import Fact
    from ledger.store.base import Actor
    from ledger import events as ev

    sim = board(seed=13)
    ledger.append("t/forged", sim.facts[:1])
    forged = Fact(ev.ResultRecorded(contract="Pass", risk="", score_ns=0), Actor("system", "me"), None, 1)
    with pytest.raises(NotAllowed):
        ledger.append("t/forged", [forged])
    assert len(ledger.store.read("t/forged")) == 1
