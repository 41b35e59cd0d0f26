"""Issue 10, layout points 1, 4 and 5: each family holds its words for people (what
``ledger.render`` prints) and its citations per edition as data; every member of the closed
vocabularies has words, and a citation in each edition where it exists.

A citation table names every edition for every member: ``None`` says the member cannot arise
under that edition, in the table itself (the tests below never skip an edition)."""

from __future__ import annotations

import pytest

import ledger.laws as laws
from ledger import render
from ledger.laws import calls, cards, find_law, insufficient, leads, penalty, premature, revokes, withdrawals
from ledger.laws.base import laws_of
from projections.vocab import CardRuling, Edition, IrregularityKind, OutOfTurnKind

CARD_FAMILIES = tuple(f for f in laws.FAMILIES if f.words.card_rulings)
"""The families that read card facts (cards, designations, withdrawals, exposed), each with its
``RULINGS`` keyed by ``CardRuling`` members."""
IRREGULARITY_FAMILIES = tuple(f for f in laws.FAMILIES if f.words.irregularities)


def _check_citations(table, members) -> None:
    """Every member has an entry naming every edition; each Law given is a Law."""
    assert sorted(set(members) - set(table)) == [] and sorted(set(table) - set(members)) == []
    for member, by_edition in table.items():
        assert set(by_edition) == set(Edition), f"{member}: every edition named ({sorted(by_edition)})"
        assert any(by_edition.values()), f"{member} arises under no edition"
        for edition, law in by_edition.items():
            if law is not None:
                assert find_law(f"{edition}:{law}") is not None or law == "85A", f"{member}: {edition} {law}"


def test_every_card_ruling_has_words_and_a_citation_in_each_edition_from_one_family():
    owners: dict[str, list[str]] = {}
    assert {f.name for f in CARD_FAMILIES} == {"cards played or not", "designations", "withdrawals",
                                               "cards exposed in the auction"}
    for family in CARD_FAMILIES:
        for ruling in family.words.card_rulings:
            assert isinstance(ruling, CardRuling), (family.name, ruling)
            owners.setdefault(ruling, []).append(family.name)
    assert {r: o for r, o in owners.items() if len(o) > 1} == {}
    assert sorted(set(CardRuling) - set(owners)) == [] and sorted(set(owners) - set(CardRuling)) == []
    for family in CARD_FAMILIES:
        assert all(ruled.words.strip() for ruled in family.words.card_rulings.values())
        table = laws_of(family.words.card_rulings)
        _check_citations(table, table)


def test_every_out_of_turn_kind_has_words_and_a_citation_in_each_edition():
    assert set(leads.OUT_OF_TURN) == set(OutOfTurnKind)
    assert all(isinstance(kind, OutOfTurnKind) for kind in leads.OUT_OF_TURN)
    assert all(ruled.words.strip() for ruled in leads.OUT_OF_TURN.values())
    _check_citations(laws_of(leads.OUT_OF_TURN), OutOfTurnKind)


def test_every_premature_kind_and_penalty_card_kind_has_words_and_a_citation():
    from ledger.events import PenaltyCardDesignated

    assert all(isinstance(kind, premature.PrematureKind) for kind in premature.PREMATURE)
    assert all(ruled.words.strip() for ruled in premature.PREMATURE.values())
    _check_citations(laws_of(premature.PREMATURE), premature.PrematureKind)
    assert {law for laws in premature.CITATIONS.values() for law in laws.values()} <= {
        law for laws in laws_of(premature.PREMATURE).values() for law in laws.values()}
    assert premature.PREMATURE_WORDS == {kind: ruled.words for kind, ruled in premature.PREMATURE.items()}
    assert set(penalty.PENALTY_KINDS) == set(penalty.PenaltyKind) == {"major", "minor"}
    assert all(isinstance(kind, penalty.PenaltyKind) for kind in penalty.PENALTY_KINDS)
    assert all(ruled.words.strip() for ruled in penalty.PENALTY_KINDS.values())
    _check_citations(laws_of(penalty.PENALTY_KINDS), penalty.PenaltyKind)
    assert render.PENALTY_KIND_WORDS == {k: v.words for k, v in penalty.PENALTY_KINDS.items()}
    for kind in penalty.PenaltyKind:
        PenaltyCardDesignated.from_data({"seat": "N", "card": "SA", "kind": kind})  # a kind the event allows
    with pytest.raises((TypeError, ValueError)):
        PenaltyCardDesignated.from_data({"seat": "N", "card": "SA", "kind": "other"})


def test_every_irregularity_kind_has_the_words_of_one_family():
    """``unprocessed`` has a line of its own (what was logged, for the director to rule)."""
    owners: dict[str, list[str]] = {}
    for family in IRREGULARITY_FAMILIES:
        for kind in family.words.irregularities:
            assert isinstance(kind, IrregularityKind), (family.name, kind)
            owners.setdefault(kind, []).append(family.name)
    assert {k: o for k, o in owners.items() if len(o) > 1} == {}
    shown = set(IrregularityKind) - {IrregularityKind.UNPROCESSED}
    assert sorted(shown - set(owners)) == [] and sorted(set(owners) - shown) == []


def test_a_ruling_table_keyed_by_a_string_is_refused_at_import():
    """A family's ``RULINGS`` and ``IRREGULARITIES`` are keyed by the vocabularies' members."""
    import types

    module = types.ModuleType("ledger.laws.example")
    module.LAWS = ("99",)
    module.RULINGS = {"played": laws.Ruled("played", {"1997": "45", "2017": "45"})}
    with pytest.raises(TypeError, match="not a CardRuling or CallRuling member"):
        laws.family(module, "example", ())
    module.RULINGS = {}
    module.IRREGULARITIES = {"no_such_kind": "words"}
    with pytest.raises(TypeError, match="not an IrregularityKind member"):
        laws.family(module, "example", ())


def test_every_exposure_and_every_must_pass_has_words():
    from ledger.events import PartnerMustPass

    assert penalty.DELIBERATE <= set(cards.EXPOSED_HOW)
    for until in calls.UNTIL_WORDS:
        PartnerMustPass.from_data({"seat": "N", "until": until})  # a value the event allows
    with pytest.raises(ValueError):
        PartnerMustPass.from_data({"seat": "N", "until": "end_of_play"})
    assert set(calls.UNTIL_WORDS) == {"next_turn", "end_of_auction"}


def test_render_prints_the_families_words():
    assert render.CARD_RULING_WORDS == {k: v.words for f in CARD_FAMILIES for k, v in f.words.card_rulings.items()}
    assert render.IRREGULARITY_WORDS == {k: v for f in IRREGULARITY_FAMILIES for k, v in f.words.irregularities.items()}
    assert render.OUT_OF_TURN_WORDS == {k: v.words for k, v in leads.OUT_OF_TURN.items()}
    assert render.OPTION_WORDS == {**calls.OPTION_WORDS, **leads.OPTION_WORDS, **penalty.OPTION_WORDS,
                                   **revokes.OPTION_WORDS}
    assert render.OPTION_WORDS_BY_LAW == {**insufficient.OPTION_WORDS_BY_LAW, **penalty.OPTION_WORDS_BY_LAW,
                                          **leads.OPTION_WORDS_BY_LAW, **premature.OPTION_WORDS_BY_LAW}
    assert render.option_words("play_lowest", "2017:57A") == premature.OPTION_WORDS_BY_LAW[("57A", "play_lowest")]
    assert render.option_words("accept", "1997:27A1") == insufficient.OPTION_WORDS_BY_LAW[("27A1", "accept")]
    assert render.option_words("keep_card", "2017:62C1") == revokes.OPTION_WORDS["keep_card"]


def test_the_state_printed_says_the_families_words():
    """A 2017 47F board: its card ruling and its irregularity in the withdrawals family's words."""
    import io
    from pathlib import Path

    from rich.console import Console

    from ledger.scenario import replay_text

    path = Path(__file__).parent / "scenarios" / "cards-47f-2017-defender-replaces-eight-by-queen.jsonl"
    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        doc = ledger.state(stream)
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render.render_state(doc))
    text = console.export_text()
    family = next(f for f in laws.FAMILIES if f.reads == withdrawals.__name__)
    ruling = family.words.card_rulings[CardRuling.ILLEGAL_WITHDRAWAL].words
    assert (f"Card ruling, seq 18 CardWithdrawn E: {ruling}: ♥8 was "
            "played and stands; ♥Q substituted is exposed — 2017:47F") in text
    irregularity = family.words.irregularities[IrregularityKind.ILLEGAL_WITHDRAWAL]
    assert f"Irregularity: {irregularity} by E (seq 18) — 2017:47F" in text


def _scenarios():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from golden_fold import scenario_files

    return [p for p in scenario_files() if any(w in p.stem for w in (
        "card", "lead", "withdraw", "designat", "dummy", "premature", "penalty", "fifth", "expos", "45", "46", "47",
        "49", "53", "54", "55", "57"))]


SCENARIOS = _scenarios()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_card_ruling_and_out_of_turn_kind_recorded_has_a_law_in_the_boards_edition(path):
    """What the fold records in the scenario files arises where the tables say it can: a card
    ruling or a lead out of turn seen under an edition has a citation in it, and the record's
    own Law is of that edition."""
    from ledger.scenario import replay_text

    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        state, _ = ledger.table_state(stream)
    tables = laws_of(laws.CARD_RULINGS)
    seen = [(str(r.ruling), r.law, tables) for r in state.card_records]
    seen += [(str(o.kind), o.law, laws_of(leads.OUT_OF_TURN)) for o in state.out_of_turn]
    assert sorted({e.how for e in state.exposures} - set(cards.EXPOSED_HOW)) == []
    for member, law, table in seen:
        assert table[member][state.edition], f"{member} recorded under {state.edition}, cited under none"
        assert law is None or law.startswith(f"{state.edition}:"), (member, law)



def _kind_scenarios():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from golden_fold import scenario_files

    return [p for p in scenario_files() if any(w in p.stem for w in (
        "revoke", "defective", "fifth", "dummy", "lead", "claim", "penalty"))]


KIND_SCENARIOS = _kind_scenarios()


def test_every_irregularity_kind_the_play_families_record_is_a_vocabulary_member():
    """Over the play scenarios, each kind in the document's ``irregularities`` is an
    ``IrregularityKind`` member (dummy's inquiry, 42B1, has no scenario: tests/test_revokes.py)."""
    from ledger.scenario import replay_text

    seen = set()
    for path in KIND_SCENARIOS:
        with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
            seen |= {i["kind"] for i in ledger.state(stream)["irregularities"]}
    wanted = (set(leads.IRREGULARITIES) | set(revokes.IRREGULARITIES)) - {IrregularityKind.DUMMY_INQUIRY}
    assert sorted(wanted - seen) == []
    assert IrregularityKind.DEFECTIVE_TRICK in seen
    assert sorted(seen - set(IrregularityKind)) == []
