"""Duplicate scoring (Law 77) and the IMP scale (Law 78B), as data.

Every number of the Law 77 scoring table and of the WBF IMP scale is a
module-level constant below; the two functions only look them up and add.
The tables are tested cell by cell in ``tests/test_scoring.py`` against the
published tables (LAWS-DIGEST section 11).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

STRAINS: Final = ("C", "D", "H", "S", "NT")
RISKS: Final = ("", "X", "XX")

#: Points for each odd trick bid and made, undoubled (Law 77, trick score).
TRICK_VALUE: Final = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}

#: Added once to the first odd trick: no trump's first trick scores 40.
FIRST_TRICK_EXTRA: Final = {"C": 0, "D": 0, "H": 0, "S": 0, "NT": 10}

#: The trick score of the contract is multiplied by this when doubled or redoubled.
RISK_MULTIPLIER: Final = {"": 1, "X": 2, "XX": 4}

#: Each overtrick, doubled or redoubled, by vulnerability.
#: Undoubled overtricks score the trick value of the strain (``TRICK_VALUE``).
DOUBLED_OVERTRICK: Final = {
    ("X", False): 100, ("X", True): 200,
    ("XX", False): 200, ("XX", True): 400,
}

#: Bonus for making a doubled ("insult") or redoubled contract.
INSULT_BONUS: Final = {"": 0, "X": 50, "XX": 100}

#: A contract whose trick score (after doubling) reaches this is a game.
GAME_TRICK_SCORE: Final = 100

#: Game bonus by vulnerability; a contract below game earns the part-score bonus.
GAME_BONUS: Final = {False: 300, True: 500}
PART_SCORE_BONUS: Final = 50

#: Slam bonuses by contract level and vulnerability (added to the game bonus).
SLAM_BONUS: Final = {
    6: {False: 500, True: 750},
    7: {False: 1000, True: 1500},
}

#: Undertrick penalties by risk and vulnerability:
#: (the 1st undertrick, each of the 2nd and 3rd, each from the 4th on).
UNDERTRICK_PENALTY: Final = {
    ("", False): (50, 50, 50),
    ("", True): (100, 100, 100),
    ("X", False): (100, 200, 300),
    ("X", True): (200, 300, 300),
    ("XX", False): (200, 400, 600),
    ("XX", True): (400, 600, 600),
}

#: The WBF IMP scale (Law 78B): the smallest point difference that earns
#: 1, 2, ... 24 IMPs.  ``imps(d)`` is the number of thresholds <= |d|.
IMP_THRESHOLDS: Final = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)

BOOK: Final = 6


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def _check_args(level: object, strain: object, risk: object, vulnerable: object,
                tricks: object) -> None:
    _check_int("level", level, 1, 7)
    _check_choice("strain", strain, STRAINS)
    _check_choice("risk", risk, RISKS)
    if not isinstance(vulnerable, bool):
        raise ValueError(f"vulnerable must be True or False, got {vulnerable!r}")
    _check_int("tricks", tricks, 0, 13)


def contract_trick_score(level: int, strain: str, risk: str) -> int:
    """Trick score of the odd tricks bid, after doubling (decides game or part score)."""
    undoubled = TRICK_VALUE[strain] * level + FIRST_TRICK_EXTRA[strain]
    return undoubled * RISK_MULTIPLIER[risk]


def overtrick_value(strain: str, risk: str, vulnerable: bool) -> int:
    """Points for each overtrick."""
    return DOUBLED_OVERTRICK[risk, vulnerable] if risk else TRICK_VALUE[strain]


def undertrick_penalty(down: int, risk: str, vulnerable: bool) -> int:
    """Total penalty (a positive number) for going ``down`` tricks."""
    first, second_third, fourth_on = UNDERTRICK_PENALTY[risk, vulnerable]
    in_second_third = min(max(down - 1, 0), 2)
    from_fourth = max(down - 3, 0)
    return first * min(down, 1) + second_third * in_second_third + fourth_on * from_fourth


def duplicate_score(level: int, strain: str, risk: str, vulnerable: bool, tricks: int) -> int:
    """Law 77 duplicate score for the declaring side: positive made, negative down.

    ``strain`` is one of ``C D H S NT``, ``risk`` one of ``"" "X" "XX"``,
    ``tricks`` the tricks taken by declarer (0 to 13).  Bad input raises
    ``ValueError`` naming the argument and its value.
    """
    _check_args(level, strain, risk, vulnerable, tricks)
    needed = level + BOOK
    if tricks < needed:
        return -undertrick_penalty(needed - tricks, risk, vulnerable)
    trick_score = contract_trick_score(level, strain, risk)
    made_game = trick_score >= GAME_TRICK_SCORE
    level_bonus = GAME_BONUS[vulnerable] if made_game else PART_SCORE_BONUS
    return (trick_score
            + (tricks - needed) * overtrick_value(strain, risk, vulnerable)
            + INSULT_BONUS[risk]
            + level_bonus
            + SLAM_BONUS.get(level, {}).get(vulnerable, 0))


def imps(difference: int) -> int:
    """IMPs for a point difference on the WBF scale; the sign of ``difference`` is kept."""
    if isinstance(difference, bool) or not isinstance(difference, int):
        raise ValueError(f"difference must be an integer, got {difference!r}")
    magnitude = bisect_right(IMP_THRESHOLDS, abs(difference))
    return -magnitude if difference < 0 else magnitude


# ---------------------------------------------------------------------------
# IMPs of a pairs traveller (for comparing a scoring program's figures only: the
# ledger's own results score teams by rooms, projections.results)

#: A Butler datum leaves out the highest and the lowest score when the board has more
#: than this many scores (the common practice; some programs never trim).
BUTLER_TRIM_ABOVE: Final = 4


def cross_imps(score: int, others: list[int]) -> tuple[int, float | None]:
    """Cross-IMPs (Law 78B scale) of one table's NS score against each other table's:
    the sum, and the average (None when there is no other table)."""
    values = [imps(score - other) for other in others]
    return sum(values), (sum(values) / len(values) if values else None)


def butler_datum(scores: list[int], trim: bool = True) -> int:
    """The datum of a Butler comparison: the mean of the board's NS scores (without the
    highest and the lowest when ``trim`` and there are more than
    :data:`BUTLER_TRIM_ABOVE`), rounded to the nearest 10 (a half away from zero)."""
    if not scores:
        raise ValueError("a datum needs at least one score")
    kept = sorted(scores)
    if trim and len(kept) > BUTLER_TRIM_ABOVE:
        kept = kept[1:-1]
    mean = sum(kept) / len(kept)
    tens = int(abs(mean) / 10 + 0.5) * 10
    return tens if mean >= 0 else -tens


def pairs_imp_readings(score: int, others: list[int]) -> dict[str, float]:
    """Every usual reading of a pairs IMP figure for one table's NS score against the
    other tables' (``others``): ``cross`` (the sum), ``cross_average``, ``butler``
    (against the trimmed datum) and ``butler_untrimmed``.  A scoring program's
    ``IMP_NS`` agrees with the ledger when it is one of them."""
    total, average = cross_imps(score, others)
    readings: dict[str, float] = {"cross": total}
    if average is not None:
        readings["cross_average"] = average
    field = [score] + others
    readings["butler"] = imps(score - butler_datum(field))
    readings["butler_untrimmed"] = imps(score - butler_datum(field, trim=False))
    return readings
