"""Teams: victory points on the WBF continuous scale (2013), matches, Swiss pairing.

**Victory points.** The WBF's 2013 continuous scale (Technical Report of the WBF Scoring
Panel: Bavin, Bethe, Bramley, Buchen) converts a match's IMP margin ``I`` over ``N`` boards
into VPs to two decimals, 20 between the two teams, 10-10 a draw:

* the blitz margin ``X = 15 * sqrt(N)`` (20-0 from the first whole margin at or above it);
* below it, the winner's ``V = 10 + 10 * (1 - tau ** (3 * I / X)) / (1 - tau ** 3)``, ``tau`` the
  golden section ``(sqrt(5) - 1) / 2``, rounded to hundredths;
* the report's correction: each further IMP is worth no more than the one before (where
  rounding breaks that, the hundredth is added to the earlier margin).

:data:`VP_TABLES` holds the scale, in hundredths, for the usual match lengths (8, 12, 16,
20 and 24 boards) as data; :func:`vp_table` computes any other length by the same algorithm
(and ``tests/test_teams.py`` checks that it gives the tables below and the WBF's published
figures).

**Swiss pairing** (:func:`swiss_pairing`): round 1 by the teams' order of entry (the seeding:
the first half meets the second half, 1 v n/2+1, ...); each later round by the current
score (carry-over + VPs + byes), the top team against the highest team it has not met,
backtracking so that no two teams meet twice; with an odd number of teams the lowest team
that has not had a bye sits out and gets :data:`BYE_VP` (a regulation's usual figure; the
director may say another).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final, Iterable, Mapping, Sequence

TAU: Final = (math.sqrt(5) - 1) / 2
BYE_VP: Final = 12.0
"""The VPs a team gets for a bye unless the director says otherwise (SwissRoundPaired.bye_vp)."""

#: The WBF continuous scale (2013), the winner's VPs in hundredths for an IMP margin of
#: 0, 1, 2, ... up to the blitz margin (20.00), per number of boards in the match.
VP_TABLES: Final[dict[int, tuple[int, ...]]] = {
    8: (1000, 1044, 1086, 1127, 1167, 1205, 1242, 1277, 1312, 1345, 1378, 1409, 1439, 1468,
         1496, 1523, 1550, 1575, 1600, 1623, 1646, 1668, 1690, 1711, 1731, 1750, 1769, 1787,
         1804, 1821, 1837, 1853, 1868, 1883, 1897, 1911, 1924, 1937, 1950, 1962, 1974, 1985,
         1995, 2000),
    12: (1000, 1036, 1071, 1105, 1138, 1170, 1201, 1231, 1261, 1290, 1318, 1345, 1371, 1397,
         1422, 1446, 1470, 1493, 1515, 1537, 1558, 1579, 1599, 1618, 1637, 1655, 1673, 1691,
         1708, 1724, 1740, 1756, 1771, 1786, 1800, 1814, 1828, 1841, 1854, 1866, 1878, 1890,
         1902, 1913, 1924, 1934, 1944, 1954, 1964, 1974, 1983, 1992, 2000),
    16: (1000, 1031, 1061, 1091, 1120, 1148, 1176, 1203, 1229, 1255, 1280, 1304, 1328, 1352,
         1375, 1397, 1418, 1439, 1460, 1480, 1500, 1519, 1538, 1556, 1574, 1592, 1609, 1626,
         1642, 1658, 1673, 1688, 1703, 1717, 1731, 1745, 1759, 1772, 1785, 1797, 1809, 1821,
         1833, 1844, 1855, 1866, 1877, 1887, 1897, 1907, 1916, 1925, 1934, 1943, 1952, 1961,
         1969, 1977, 1985, 1993, 2000),
    20: (1000, 1028, 1055, 1082, 1108, 1134, 1159, 1183, 1207, 1230, 1253, 1276, 1298, 1320,
         1341, 1361, 1381, 1401, 1420, 1439, 1458, 1476, 1494, 1511, 1528, 1545, 1561, 1577,
         1593, 1608, 1623, 1638, 1652, 1666, 1680, 1693, 1706, 1719, 1732, 1744, 1756, 1768,
         1779, 1790, 1801, 1812, 1823, 1833, 1843, 1853, 1863, 1873, 1882, 1891, 1900, 1909,
         1917, 1925, 1933, 1941, 1949, 1957, 1965, 1972, 1979, 1986, 1993, 1999, 2000),
    24: (1000, 1025, 1050, 1075, 1099, 1123, 1146, 1168, 1190, 1212, 1233, 1254, 1275, 1295,
         1315, 1334, 1353, 1372, 1390, 1408, 1426, 1443, 1460, 1476, 1492, 1508, 1524, 1539,
         1554, 1569, 1583, 1597, 1611, 1625, 1638, 1651, 1664, 1677, 1689, 1701, 1713, 1725,
         1736, 1747, 1758, 1769, 1779, 1789, 1799, 1809, 1819, 1829, 1838, 1847, 1856, 1865,
         1874, 1882, 1890, 1898, 1906, 1914, 1922, 1930, 1937, 1944, 1951, 1958, 1965, 1972,
         1979, 1985, 1991, 1997, 2000),
}


def blitz(boards: int) -> float:
    """The WBF blitz margin: ``15 * sqrt(boards)`` IMPs."""
    return 15 * math.sqrt(boards)


@lru_cache(maxsize=128)
def vp_table(boards: int) -> tuple[int, ...]:
    """The winner's VPs in hundredths for margins 0 .. ceil(blitz): the WBF 2013 algorithm."""
    if isinstance(boards, bool) or not isinstance(boards, int) or not 1 <= boards <= 200:
        raise ValueError(f"boards must be an integer from 1 to 200, got {boards!r}")
    x = blitz(boards)
    values = [min(2000, round(1000 + 1000 * (1 - TAU ** (3 * i / x)) / (1 - TAU ** 3)))
              for i in range(math.ceil(x) + 1)]
    changed = True
    while changed:  # concavity: no IMP worth more than the one before it
        changed = False
        for i in range(1, len(values) - 1):
            if values[i + 1] - values[i] > values[i] - values[i - 1]:
                values[i] += 1
                changed = True
    return tuple(values)


def victory_points(imps_for: float, imps_against: float, boards: int) -> tuple[float, float]:
    """Both teams' VPs for a match of ``boards`` boards (WBF continuous scale): the margin is
    rounded to a whole IMP first (half away from zero), as the scale is given per IMP."""
    margin = imps_for - imps_against
    whole = int(abs(margin) + 0.5)
    table = VP_TABLES.get(boards) or vp_table(boards)
    winner = table[min(whole, len(table) - 1)] / 100
    return (winner, round(20 - winner, 2)) if margin >= 0 else (round(20 - winner, 2), winner)


# -- Swiss ------------------------------------------------------------------------------------


def swiss_pairing(teams: Sequence[str], scores: Mapping[str, float], met: Iterable[tuple[str, str]],
                  byes: Iterable[str] = (), first_round: bool = False) -> tuple[list[tuple[str, str]], str | None]:
    """The next Swiss round: ``(matches, bye)``. ``teams`` in order of entry (the seeding);
    ``scores`` the current totals; ``met`` the matches already played (no rematch);
    ``byes`` the teams that have had a bye. Raises ValueError when no pairing without a
    rematch exists."""
    teams = list(teams)
    had_bye = set(byes)
    bye = None
    if len(teams) % 2:
        order = sorted(teams, key=lambda t: (scores.get(t, 0.0), -teams.index(t)))  # lowest first
        bye = next((t for t in order if t not in had_bye), order[0])
        teams = [t for t in teams if t != bye]
    if first_round:
        half = len(teams) // 2
        return [(teams[i], teams[i + half]) for i in range(half)], bye
    played = {frozenset(m) for m in met}
    ranked = sorted(teams, key=lambda t: (-scores.get(t, 0.0), teams.index(t)))
    found = _pair(ranked, played)
    if found is None:
        raise ValueError("no pairing without a rematch: every remaining order meets a team twice")
    return found, bye


def _pair(ranked: list[str], played: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    if not ranked:
        return []
    top, rest = ranked[0], ranked[1:]
    for i, other in enumerate(rest):
        if frozenset((top, other)) in played:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], played)
        if tail is not None:
            return [(top, other)] + tail
    return None


# -- knockout ---------------------------------------------------------------------------------


def knockout_winner(home: str, away: str, total_home: float, total_away: float,
                    decided: str | None = None) -> str | None:
    """The team that goes on from a knockout match: the one with more IMPs, carry-over included.
    A tie is decided as the conditions of contest say (extra boards, a segment, a draw): the
    director's ``decided`` (KnockoutTieDecided); None while it is not recorded (never guessed)."""
    if round(total_home, 2) > round(total_away, 2):
        return home
    if round(total_away, 2) > round(total_home, 2):
        return away
    return decided


def knockout_next_round(winners: Sequence[str | None], bye: str | None = None) -> list[tuple[str, str]]:
    """The next round of a bracket: the winners of matches 1 and 2 meet (the first at home), then
    3 and 4, ...; a team with a bye takes the last place. Raises ValueError when a winner is not
    known (a match not over, or a tie not decided) or the teams do not pair up."""
    teams = list(winners) + ([bye] if bye else [])
    if any(t is None for t in teams):
        raise ValueError("a match of the last round has no winner yet (not over, or tied: "
                         "KnockoutTieDecided as the conditions of contest say)")
    if len(teams) < 2 or len(teams) % 2:
        raise ValueError(f"{len(teams)} team(s) go on: the bracket does not pair up (a bye is named by the director)")
    return [(str(teams[i]), str(teams[i + 1])) for i in range(0, len(teams), 2)]
