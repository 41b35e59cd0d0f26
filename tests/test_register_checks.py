"""The register's refusals, one named check each (ledger.register.check_register_fact): what a
director cannot append to a tournament's register, with the field and value at fault."""

from __future__ import annotations

import pytest

from ledger import events as ev
from ledger.errors import BadInput
from ledger.register import check_register_fact, fold_register


def _register() -> list[ev.Event]:
    players = [ev.PlayerRegistered(player=f"p{i}", name=f"Player {i}") for i in range(1, 9)]
    return [*players,
            ev.SessionScheduled(session="s1", kind="pairs", boards=2),
            ev.PairEntered(pair="A", players=("p1", "p2"), session="s1"),
            ev.TeamEntered(team="T", name="Team", players=("p1", "p2", "p3", "p4"))]


def _refused(event: ev.Event) -> BadInput:
    reg = fold_register(_register())
    with pytest.raises(BadInput) as caught:
        check_register_fact(reg, event, [])
    return caught.value


@pytest.mark.parametrize("event, field, value", [
    (ev.PlayerRegistered(player="p1", name="Someone else"), "player", "p1"),
    (ev.SessionScheduled(session="s1", kind="pairs"), "session", "s1"),
    (ev.PairEntered(pair="A", players=("p5", "p6")), "pair", "A"),
    (ev.PairEntered(pair="B", players=("p5", "p6", "p7")), "players", ["p5", "p6", "p7"]),
    (ev.PairEntered(pair="B", players=("p5", "p5")), "players", ["p5", "p5"]),
    (ev.TeamEntered(team="U", name="U", players=("p5", "p6", "p7")), "players", ["p5", "p6", "p7"]),
    (ev.PairEntered(pair="B", players=("p5", "p9")), "players", "p9"),
    (ev.PairEntered(pair="B", players=("p5", "p1")), "players", "p1"),
    (ev.PairEntered(pair="B", players=("p5", "p6"), session="s9"), "session", "s9"),
    (ev.EntryWithdrawn(entry="Z", session="s1", from_round=1, reason="ill"), "entry", "Z"),
    (ev.EntryWithdrawn(entry="A", session="s9", from_round=1, reason="ill"), "session", "s9"),
    (ev.SubstituteSeated(session="s9", entry="A", replaces="p1", player="p5", boards=(1,)), "session", "s9"),
    (ev.SubstituteSeated(session="s1", entry="Z", replaces="p1", player="p5", boards=(1,)), "entry", "Z"),
    (ev.SubstituteSeated(session="s1", entry="A", replaces="p3", player="p5", boards=(1,)), "replaces", "p3"),
    (ev.SubstituteSeated(session="s1", entry="A", replaces="p1", player="p9", boards=(1,)), "player", "p9"),
    (ev.SubstituteSeated(session="s1", entry="A", replaces="p1", player="p2", boards=(1,)), "player", "p2"),
])
def test_each_check_refuses_naming_the_field_and_value(event: ev.Event, field: str, value: object) -> None:
    error = _refused(event)
    assert (error.field, error.value, error.event_type) == (field, value, event.TYPE)


def test_what_is_well_formed_passes() -> None:
    reg = fold_register(_register())
    for event in (ev.PlayerRegistered(player="p1", name="Player 1"),  # the same registration again
                  ev.SessionScheduled(session="s2", kind="pairs"),
                  ev.PairEntered(pair="B", players=("p5", "p6"), session="s1"),
                  ev.EntryWithdrawn(entry="A", session="s1", from_round=2, reason="ill"),
                  ev.SubstituteSeated(session="s1", entry="A", replaces="p1", player="p5", boards=(1,))):
        check_register_fact(reg, event, [])


def test_a_boards_fact_is_refused_in_the_register() -> None:
    error = _refused(ev.CardPlayed(seat="N", card="SA"))
    assert (error.field, error.value) == ("type", "CardPlayed")
