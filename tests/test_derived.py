"""The incremental engine and the derived values (projections.derived): on every prefix of
every scenario file's log, and of random legal boards, the rules' prescriptions reused from
the state before equal the rules run afresh on the same state, and so does the revoke
reading. A derived value is reused only while every field it read is the same object."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

from ledger import engine
from ledger.laws import RULES
from ledger.scenario import replay_text
from ledger.service import Ledger, parse_fact, recorded
from ledger.simulate import random_board
from projections import derived
from projections.resolve import resolve
from ledger.laws.results import board_result
from ledger.laws.revokes import exposures, irregularities, revokes
from projections.table import evolve, rectification_key

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.jsonl"))


def _afresh(state) -> list[tuple[str, tuple[int, ...], str | None]]:
    """Every rule run on a copy of ``state`` with nothing derived yet (the full engine)."""
    fresh = attrs.evolve(state)
    assert derived.SHARED not in fresh.memo
    out, seen = [], set()
    for rule in RULES:
        for p in rule(fresh):
            key = rectification_key(p.event)
            if key not in seen:
                seen.add(key)
                out.append((key, p.causes, p.law))
    return out


def _incremental(state) -> list[tuple[str, tuple[int, ...], str | None]]:
    return [(key, p.causes, p.law) for p, key in engine.prescribe_keyed(state)]


def _check_log(stream: str, records) -> int:
    state = None
    reused = 0
    for record, in_force in resolve(records):
        state = evolve(state, stream, record, in_force)
        shared = state.memo.get(derived.SHARED, {})
        reused += sum(1 for rule in RULES if rule in shared)
        assert _incremental(state) == _afresh(state), f"seq {record.seq}"
        assert revokes(state) == revokes(attrs.evolve(state)), f"seq {record.seq}"
        fresh = attrs.evolve(state)  # the values the state shows, derived where read (no hook writes them)
        assert (irregularities(state), exposures(state), board_result(state)) == \
            (irregularities(fresh), exposures(fresh), board_result(fresh)), f"seq {record.seq}"
    return reused


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_incremental_engine_equals_full_engine_on_every_prefix(path):
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        records = [recorded(e) for e in ledger.store.read(stream)]
    assert _check_log(stream, records) > 0


def test_incremental_engine_on_random_boards(tmp_path):
    ledger = Ledger.open(f"sqlite:///{tmp_path / 'r.db'}", create=True)
    try:
        rng = random.Random(10)
        for i in range(5):
            sim = random_board(rng, tournament="derived", board=i + 1, table="1")
            stream = f"derived/{i}"
            ledger.append(stream, [parse_fact(f, n) for n, f in enumerate(sim.facts, start=1)], expected_seq=0)
            assert _check_log(stream, [recorded(e) for e in ledger.store.read(stream)]) > 0
    finally:
        ledger.close()


def _records(path: Path):
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        return stream, [recorded(e) for e in ledger.store.read(stream)]


def test_a_rule_is_run_again_only_when_a_field_it_read_changed():
    stream, records = _records(SCENARIOS[0])
    states = _states(stream, records)
    seqs: list[int] = []
    contracts: list[object] = []

    def reads_seq(state):
        seqs.append(state.seq)
        return []

    def reads_contract(state):
        contracts.append(state.contract)
        return []

    for state in states:
        engine.prescribe(state, [reads_seq, reads_contract])
    assert seqs == [s.seq for s in states]  # the seq changes at every event: run every time
    changes = 1 + sum(1 for a, b in zip(states, states[1:]) if a.contract is not b.contract)
    assert len(contracts) == changes < len(states)  # run again only when the contract changed


def _states(stream, records):
    state, out = None, []
    for record, in_force in resolve(records):
        state = evolve(state, stream, record, in_force)
        out.append(state)
    return out


def test_a_view_is_read_only_and_a_memo_read_is_never_reused():
    stream, records = _records(SCENARIOS[0])
    state = _states(stream, records)[-1]
    view = derived.Reads(state)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seq = 3  # type: ignore[misc]
    assert view.turn == state.turn and view.cite("45A") == state.cite("45A")
    assert {name for name, _ in view.reads()} >= {"board", "phase"}
    runs = []

    def reads_memo(s):
        runs.append(s.memo is not None)
        return len(runs)

    assert derived.derive(state, "memo-test", reads_memo) == 1
    assert derived.derive(state, "memo-test", reads_memo) == 2  # read the memo: never reused


def test_replace_is_evolve_with_fresh_derived_values():
    from projections.state import Phase, replace

    stream, records = _records(SCENARIOS[0])
    state = _states(stream, records)[-1]
    assert derived.SHARED in state.memo
    for changes in ({}, {"seq": 99, "head": "x"}, {"phase": "play"}, {"tricks": (), "result": None}):
        new = replace(state, **changes)
        assert new == attrs.evolve(state, **changes)
        assert new.memo == {} and new is not state
    assert replace(state, phase="ended").phase is Phase.ENDED


def test_the_revokes_off_the_suit_led_are_read_from_every_trick_only_when_more_than_a_card_changed(monkeypatch):
    """A card added to the last trick is the only one that can be a new revoke: the reading
    of the other tricks is carried over (and equals a reading from scratch, on every prefix
    above); only another change (a card withdrawn, a record) reads every trick again. The
    whole reading is carried over while the new card can change nothing in it."""
    from ledger.laws import revokes as family

    full, again = [], []
    every_trick, read = family.__dict__["_off_suit"], family.__dict__["_detect"]
    monkeypatch.setattr(family, "_off_suit", lambda state: full.append(1) or every_trick(state))
    monkeypatch.setattr(family, "_detect", lambda state: again.append(1) or read(state))
    path = next(p for p in SCENARIOS if p.stem == "revoke-trick12-2017-corrected-in-two-facts")
    stream, records = _records(path)
    states = _states(stream, records)
    full.clear()  # the readings of the append path (the engine) above
    again.clear()
    found = [revokes(s) for s in states]
    cards = sum(1 for a, b in zip(states, states[1:]) if a.tricks is not b.tricks)
    assert any(found) and cards > 8
    assert 0 < len(full) < cards / 4, (len(full), cards)
    assert 0 < len(again) < cards / 4, (len(again), cards)  # the whole reading carried over (_carried)
