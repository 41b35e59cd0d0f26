"""The ranking (projections.results.standings), figures worked by hand: a Mitchell ranked by
direction, a tie sharing its rank, a board played at one table left out, a team's IMPs once a
match."""

from __future__ import annotations

from projections.results import TableResult, standings


def played(n: int, ns: str, ew: str, mp_ns: float | None, *, board: int = 1) -> TableResult:
    """A table with a result; top on three tables is 4, so mp_ew is 4 - mp_ns."""
    return TableResult(stream=f"t/{board}/{n}", board=board, table=str(n), room=None, match=None, ns=ns, ew=ew,
                       score_ns=100, distribution=((100, 1.0),), mp_ns=mp_ns,
                       mp_ew=None if mp_ns is None else 4 - mp_ns)


def test_a_mitchell_is_ranked_in_each_direction_with_ties_sharing_a_rank() -> None:
    # two boards, three tables each, no pair ever changes direction:
    # board 1: N1 4, N2 2, N3 0 (E1 0, E2 2, E3 4); board 2: N1 2, N2 2, N3 2 (each E 2)
    boards = {1: [played(1, "N1", "E1", 4), played(2, "N2", "E2", 2), played(3, "N3", "E3", 0)],
              2: [played(1, "N1", "E2", 2, board=2), played(2, "N2", "E3", 2, board=2),
                  played(3, "N3", "E1", 2, board=2)]}
    rows = standings(boards, "MP")
    # N1 6/8 = 75%, N2 4/8 = 50%, N3 2/8 = 25%; E1 2/8 = 25%, E2 4/8 = 50%, E3 6/8 = 75%
    assert [(r["direction"], r["name"], r["pct"], r["rank"]) for r in rows] == [
        ("NS", "N1", 75.0, 1), ("NS", "N2", 50.0, 2), ("NS", "N3", 25.0, 3),
        ("EW", "E3", 75.0, 1), ("EW", "E2", 50.0, 2), ("EW", "E1", 25.0, 3)]
    assert all(r["boards"] == 2 and r["top"] == 8.0 and not r["tied"] for r in rows)


def test_a_tie_shares_the_rank_and_the_next_rank_is_skipped() -> None:
    # N1 and N2 both 3 of 4 on board 1 and as EW on board 2 (they changed direction: no Mitchell)
    boards = {1: [played(1, "N1", "E1", 3), played(2, "N2", "E2", 3), played(3, "N3", "E3", 0)],
              2: [played(1, "E1", "N1", 1, board=2), played(2, "E2", "N2", 1, board=2),
                  played(3, "E3", "N3", 4, board=2)]}
    rows = {r["name"]: r for r in standings(boards, "MP")}
    assert "direction" not in rows["N1"]
    # N1, N2: (3 + 3) / 8 = 75%; N3: (0 + 0) / 8; E3: (4 + 4) / 8 = 100%; E1, E2: (1 + 1) / 8 = 25%
    assert (rows["E3"]["rank"], rows["E3"]["tied"]) == (1, False)
    assert [(rows[p]["pct"], rows[p]["rank"], rows[p]["tied"]) for p in ("N1", "N2")] == [(75.0, 2, True)] * 2
    assert [(rows[p]["rank"], rows[p]["tied"]) for p in ("E1", "E2", "N3")] == [(4, True), (4, True), (6, False)]


def test_a_board_played_at_one_table_counts_for_nobody() -> None:
    boards = {1: [played(1, "N1", "E1", 4), played(2, "N2", "E2", 2), played(3, "N3", "E3", 0)],
              2: [played(1, "N1", "E1", 0, board=2)]}
    rows = {r["name"]: r for r in standings(boards, "MP")}
    assert (rows["N1"]["boards"], rows["N1"]["pct"]) == (1, 100.0)


def test_a_teams_imps_count_once_a_match() -> None:
    # match A v B: A sits NS in the open room (5 IMPs to A) and EW in the closed room (the same 5)
    open_room = TableResult(stream="o", board=1, table="1", room="open", match="A v B", ns="A", ew="B",
                            imp_ns=5, imp_ew=-5)
    closed_room = TableResult(stream="c", board=1, table="1", room="closed", match="A v B", ns="B", ew="A",
                              imp_ns=-5, imp_ew=5)
    rows = {r["name"]: r for r in standings({1: [open_room, closed_room]}, "IMP")}
    assert [(rows[t]["score"], rows[t]["boards"], rows[t]["rank"]) for t in ("A", "B")] == [(5, 1, 1), (-5, 1, 2)]
    assert "pct" not in rows["A"]
