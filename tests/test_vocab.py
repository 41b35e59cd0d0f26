"""Issue 29 item 4: the closed vocabularies of ``projections.vocab`` are what the fold and the
engine speak. Every irregularity the scenario files' boards record is a member, worded by a
family (no word made up from the kind's spelling); the modules converted name a ruling, a kind,
a phase or an edition by its member, never by a string; the state's records hold members and
serialise as the strings they always were."""

from __future__ import annotations

import ast
import json

import pytest
from golden_fold import ROOT, scenario_files

from projections.vocab import CallRuling, CardRuling, Edition, IrregularityKind, OutOfTurnKind, Phase

SCENARIOS = scenario_files()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_irregularity_a_board_records_is_a_member_worded_by_a_family(path):
    from ledger.render import IRREGULARITY_WORDS
    from ledger.scenario import replay_text

    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        state, _ = ledger.table_state(stream)
    kinds = {i.kind for i in state.irregularities}
    assert sorted(k for k in kinds if k not in set(IrregularityKind)) == []
    assert sorted(k for k in kinds - {IrregularityKind.UNPROCESSED} if k not in IRREGULARITY_WORDS) == []
    assert type(state.phase) is Phase
    assert all(type(r.ruling) is CardRuling for r in state.card_records)
    assert all(type(r.ruling) is CallRuling for r in state.calls)
    assert all(type(o.kind) is OutOfTurnKind for o in state.out_of_turn)
    assert state.claim is None or state.claim.prior_phase is None or type(state.claim.prior_phase) is Phase


def test_an_irregularity_stored_with_a_kind_outside_the_vocabulary_is_kept_as_it_is():
    """``IrregularityRecorded.kind`` is free text on the wire: the fold keeps a stored kind the
    vocabulary does not know (a stored event never fails the fold)."""
    import ledger.laws  # noqa: F401  # the composition root registers the families' handlers
    from ledger import events as ev
    from ledger.bridge import Seat
    from projections.resolve import Recorded
    from projections.table import evolve

    opened = ev.BoardOpened.from_data({"tournament": "t", "board": 3, "table": "1", "laws": "2017",
                                       "deal": "N:KJ5.AT3.K874.Q62 82.KQ84.632.JT95 AQ9763.72.A5.K84 T4.J965.QJT9.A73"})
    state = evolve(None, "s", Recorded(1, "h1", "#1", "table", opened))
    kept = ev.IrregularityRecorded(kind="kibitzer_spoke", offender=str(Seat.N), about=1)
    state = evolve(state, "s", Recorded(2, "h2", "#2", "director", kept, "2017:74"))
    assert [(i.kind, i.seq, i.offender) for i in state.irregularities] == [("kibitzer_spoke", 1, "N")]


def test_the_records_serialise_their_members_as_the_strings_they_always_were():
    """A member is its string: the JSON of a record and of the snapshot holds the plain string, and
    the snapshot read back holds the member again (a claim's phase, 68B2)."""
    from ledger.bridge import Card, Seat
    from ledger.scenario import replay_text
    from projections import snapshot
    from projections.state import CardRecord, Claim

    rec = CardRecord(5, "CardPlayed", Seat.E, Card.parse("H8"), "illegal_withdrawal")
    assert rec.ruling is CardRuling.ILLEGAL_WITHDRAWAL
    assert json.dumps({"ruling": rec.ruling}) == '{"ruling": "illegal_withdrawal"}'
    assert Claim(9, Seat.S, 3, 5, prior_phase="opening_lead").prior_phase is Phase.OPENING_LEAD
    with pytest.raises(ValueError):
        Claim(9, Seat.S, 3, 5, prior_phase="bidding")
    path = ROOT / "tests" / "scenarios" / "claim-68b2-2017-partner-objects-at-once.jsonl"
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        state, _ = ledger.table_state(stream)
    assert state.claim is not None and state.claim.prior_phase is Phase.PLAY
    text = json.dumps(snapshot.dump(state), sort_keys=True)
    assert '"prior_phase": "play"' in text
    again = snapshot.load(json.loads(text))
    assert again == state and again.claim is not None and again.claim.prior_phase is Phase.PLAY


# -- the modules converted name members, not strings ------------------------------------------

CONVERTED = sorted({*(ROOT / "projections").glob("*.py"), *(ROOT / "ledger" / "laws").glob("*.py")}
                   - {ROOT / "projections" / "vocab.py"})
"""The core and every Law family (issue 29 item 4): none names a member by its string."""

_NAMED_BY = {
    "ruling": {m.value for m in (*CallRuling, *CardRuling)},
    "kind": {m.value for m in (*IrregularityKind, *OutOfTurnKind)},
    "phase": {m.value for m in Phase},
    "prior_phase": {m.value for m in Phase},
    "edition": {m.value for m in Edition},
}
"""What an attribute (or a local variable) of that name holds: the values that must be named by
the member. A ``kind`` of another vocabulary (a designation's ``choose``, a penalty card's
``major``) is not among them."""

_POSITIONAL = {"CardRecord": (4, "ruling"), "CallRecord": (3, "ruling"), "Irregularity": (0, "kind"),
               "OutOfTurn": (3, "kind")}
"""The records whose ruling or kind is passed by position: (index, field)."""


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def _named_by_string(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for field in filter(None, map(_name, operands)):
                values = _NAMED_BY.get(field, set())
                found += [(node.lineno, s) for o in operands for s in _strings(o) if s in values]
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in _NAMED_BY:
                    found += [(node.lineno, s) for s in _strings(kw.value) if s in _NAMED_BY[kw.arg]]
            position = _POSITIONAL.get(_name(node.func) or "")
            if position is not None and len(node.args) > position[0]:
                found += [(node.lineno, s) for s in _strings(node.args[position[0]]) if s in _NAMED_BY[position[1]]]
    return found


@pytest.mark.parametrize("path", CONVERTED, ids=[p.relative_to(ROOT).as_posix() for p in CONVERTED])
def test_a_converted_module_names_rulings_kinds_phases_and_editions_by_member(path):
    assert _named_by_string(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_check_sees_a_ruling_named_by_a_string():
    """The check above can fail: each way of naming a member by its string is caught."""
    source = '''
if rec.ruling == "played" or r.kind in ("revoke", "other") or state.phase != "auction":
    pass
x = attrs.evolve(rec, ruling="misplaced_stands")
y = CardRecord(seq, ev.TYPE, seat, card, "not_played", law)
z = Irregularity("unprocessed", seq, type_)
if ruling == "undecided" and state.edition == "1997":
    pass
'''
    assert sorted(s for _, s in _named_by_string(ast.parse(source))) == sorted([
        "played", "revoke", "auction", "misplaced_stands", "not_played", "unprocessed", "undecided", "1997"])
    other = 'if d.kind == "choose" or ev.purpose == "play" or o.status == "accepted": pass'
    assert _named_by_string(ast.parse(other)) == []
