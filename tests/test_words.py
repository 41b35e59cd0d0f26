"""Issue 10, layout points 1, 4 and 5: each family holds its words for people (what
``ledger.render`` prints) and its citations per edition as data; every member of the closed
vocabularies has words, and a citation in each edition where it exists.

A citation table names every edition for every member: ``None`` says the member cannot arise
under that edition, in the table itself (the tests below never skip an edition)."""

from __future__ import annotations

import pytest

from ledger import render
from ledger.laws import (boards, calls, cards, designations, exposed, find_law, inadmissible, insufficient, leads,
                         penalty, premature, revokes, rotation, scores, withdrawals)
from projections.vocab import CardRuling, Edition, IrregularityKind, OutOfTurnKind

CARD_FAMILIES = (cards, designations, withdrawals, exposed)
"""The families that read card facts, each with its ``RULING_WORDS`` and ``RULING_LAWS``."""
IRREGULARITY_FAMILIES = (calls, rotation, inadmissible, insufficient, cards, withdrawals, leads, premature, revokes,
                         boards, scores)


def _check_citations(table, members) -> None:
    """Every member has an entry naming every edition; each Law given is a Law."""
    assert sorted(set(members) - set(table)) == [] and sorted(set(table) - set(members)) == []
    for member, laws in table.items():
        assert set(laws) == set(Edition), f"{member}: every edition named ({sorted(laws)})"
        assert any(laws.values()), f"{member} arises under no edition"
        for edition, law in laws.items():
            if law is not None:
                assert find_law(f"{edition}:{law}") is not None or law == "85A", f"{member}: {edition} {law}"


def test_every_card_ruling_has_words_and_a_citation_in_each_edition_from_one_family():
    owners: dict[str, list[str]] = {}
    for family in CARD_FAMILIES:
        assert set(family.RULING_WORDS) == set(family.RULING_LAWS), family.__name__
        for ruling in family.RULING_WORDS:
            owners.setdefault(ruling, []).append(family.__name__)
    assert {r: o for r, o in owners.items() if len(o) > 1} == {}
    assert sorted(set(CardRuling) - set(owners)) == [] and sorted(set(owners) - set(CardRuling)) == []
    for family in CARD_FAMILIES:
        assert all(words.strip() for words in family.RULING_WORDS.values())
        _check_citations(family.RULING_LAWS, family.RULING_LAWS)


def test_every_out_of_turn_kind_has_words_and_a_citation_in_each_edition():
    assert set(leads.OUT_OF_TURN_WORDS) == set(OutOfTurnKind)
    assert all(words.strip() for words in leads.OUT_OF_TURN_WORDS.values())
    _check_citations(leads.OUT_OF_TURN_LAWS, OutOfTurnKind)


def test_every_premature_kind_and_penalty_card_kind_has_words_and_a_citation():
    from ledger.events import PenaltyCardDesignated

    _check_citations(premature.PREMATURE_LAWS, premature.PREMATURE_WORDS)
    assert {law for laws in premature.CITATIONS.values() for law in laws.values()} <= {
        law for laws in premature.PREMATURE_LAWS.values() for law in laws.values()}
    _check_citations(penalty.PENALTY_KIND_LAWS, {"major", "minor"})
    assert set(penalty.PENALTY_KIND_WORDS) == {"major", "minor"}
    for kind in penalty.PENALTY_KIND_WORDS:
        PenaltyCardDesignated.from_data({"seat": "N", "card": "SA", "kind": kind})  # a kind the event allows
    with pytest.raises((TypeError, ValueError)):
        PenaltyCardDesignated.from_data({"seat": "N", "card": "SA", "kind": "other"})


def test_every_irregularity_kind_has_the_words_of_one_family():
    """``unprocessed`` has a line of its own (what was logged, for the director to rule)."""
    owners: dict[str, list[str]] = {}
    for family in IRREGULARITY_FAMILIES:
        for kind in family.IRREGULARITY_WORDS:
            owners.setdefault(kind, []).append(family.__name__)
    assert {k: o for k, o in owners.items() if len(o) > 1} == {}
    shown = set(IrregularityKind) - {IrregularityKind.UNPROCESSED}
    assert sorted(shown - set(owners)) == [] and sorted(set(owners) - shown) == []


def test_every_exposure_and_every_must_pass_has_words():
    from ledger.events import PartnerMustPass

    assert penalty.DELIBERATE <= set(cards.EXPOSED_HOW)
    for until in calls.UNTIL_WORDS:
        PartnerMustPass.from_data({"seat": "N", "until": until})  # a value the event allows
    with pytest.raises(ValueError):
        PartnerMustPass.from_data({"seat": "N", "until": "end_of_play"})
    assert set(calls.UNTIL_WORDS) == {"next_turn", "end_of_auction"}


def test_render_prints_the_families_words():
    assert render.CARD_RULING_WORDS == {k: v for f in CARD_FAMILIES for k, v in f.RULING_WORDS.items()}
    assert render.IRREGULARITY_WORDS == {k: v for f in IRREGULARITY_FAMILIES for k, v in f.IRREGULARITY_WORDS.items()}
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
    assert (f"Card ruling, seq 18 CardWithdrawn E: {withdrawals.RULING_WORDS['illegal_withdrawal']}: ♥8 was "
            "played and stands; ♥Q substituted is exposed — 2017:47F") in text
    assert f"Irregularity: {withdrawals.IRREGULARITY_WORDS['illegal_withdrawal']} by E (seq 18) — 2017:47F" in text


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
    tables = {k: v for f in CARD_FAMILIES for k, v in f.RULING_LAWS.items()}
    seen = [(str(r.ruling), r.law, tables) for r in state.card_records]
    seen += [(str(o.kind), o.law, leads.OUT_OF_TURN_LAWS) for o in state.out_of_turn]
    assert sorted({e.how for e in state.exposures} - set(cards.EXPOSED_HOW)) == []
    for member, law, table in seen:
        assert table[member][state.edition], f"{member} recorded under {state.edition}, cited under none"
        assert law is None or law.startswith(f"{state.edition}:"), (member, law)
