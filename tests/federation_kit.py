"""Tournaments for the federation tests (issue 25): a pairs event (matchpoints, an
artificial and an assigned adjusted score), a teams match (IMPs, two rooms), and
appeals in two tournaments."""

from __future__ import annotations

from typing import Any

DEAL = "N:AKJ74.K2.Q93.A85 Q3.AQJT9.K84.962 T986.753.AJ2.KQ4 52.864.T765.JT73"
DIRECTOR = {"role": "director", "name": "TD Girard"}
COMMITTEE = {"role": "committee", "name": "Appeals committee"}


def _opened(tournament: str, board: int, table: str, **extra: Any) -> dict[str, Any]:
    return {"type": "BoardOpened", "tournament": tournament, "board": board, "table": table,
            "deal": DEAL, **extra}


def _reported(contract: str, declarer: str, tricks: int, lead: str, risk: str = "") -> dict[str, Any]:
    return {"type": "ResultReported", "contract": contract, "declarer": declarer, "tricks": tricks,
            "lead": lead, "risk": risk, "actor": DIRECTOR}


PAIRS_RESULTS = {  # board -> table -> reported result (None: artificial A+ / A-)
    1: {"1": ("4S", "N", 10, "HA"), "2": ("4S", "N", 11, "HQ"), "3": ("2S", "S", 10, "CJ"), "4": None},
    2: {"1": ("3NT", "S", 9, "CJ"), "2": ("4H", "E", 8, "S9", "X"), "3": ("3NT", "S", 8, "C3"),
        "4": ("3NT", "S", 10, "D5")},
}


def pairs_event(ledger: Any, name: str = "Lyon pairs") -> list[str]:
    """Two boards, four tables, a Mitchell movement; board 1 table 4 artificial (A+/A-),
    board 2 table 3 an assigned score."""
    streams = []
    for board, tables in PAIRS_RESULTS.items():
        for table, result in tables.items():
            t = int(table)
            ew = f"E{t if board == 1 else t % 4 + 1}"
            stream = f"{name.split()[0].lower()}/t{table}/b{board}"
            facts: list[dict[str, Any]] = [_opened(name, board, table, ns=f"N{t}", ew=ew)]
            if result is None:
                facts.append({"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A+", "ew": "A-",
                              "text": "the board could not be played: fouled", "law": "2017:12C2",
                              "actor": DIRECTOR})
            else:
                facts.append(_reported(*result))
            ledger.append(stream, facts)
            streams.append(stream)
    ledger.append(f"{name.split()[0].lower()}/t3/b2", [{
        "type": "AdjustedScoreAwarded", "kind": "assigned",
        "results": [{"side": "both", "contract": "3NT", "declarer": "S", "tricks": 9}],
        "text": "misinformation: with the right explanation West leads a club", "law": "2017:12C1b",
        "actor": DIRECTOR}])
    return streams


TEAMS_RESULTS = {1: {"open": ("4S", "N", 10, "HA"), "closed": ("2S", "N", 10, "HA")},
                 2: {"open": ("3NT", "S", 9, "CJ"), "closed": ("3NT", "S", 8, "CJ")}}


def teams_event(ledger: Any, name: str = "Paris teams") -> list[str]:
    """One match, Alpha v Beta, two boards, two rooms (IMPs)."""
    streams = []
    for board, rooms in TEAMS_RESULTS.items():
        for room, result in rooms.items():
            ns, ew = ("Alpha", "Beta") if room == "open" else ("Beta", "Alpha")
            stream = f"{name.split()[0].lower()}/{room}/b{board}"
            ledger.append(stream, [_opened(name, board, "1" if room == "open" else "2", ns=ns, ew=ew,
                                           scoring="IMP", match="Alpha v Beta", room=room),
                                   _reported(*result)])
            streams.append(stream)
    return streams


def appeal(ledger: Any, stream: str, *, law: str, decision: str, members: list[str], deposit: str,
           text: str = "the ruling", reasons: str = "reasons") -> None:
    """A director's ruling naming ``law``, an appeal and the committee's decision."""
    ledger.append(stream, [
        {"type": "RulingGiven", "text": text, "laws": [law], "actor": DIRECTOR},
        {"type": "AppealLodged", "side": "EW", "text": "we appeal", "actor": DIRECTOR},
        {"type": "AppealDecided", "decision": decision, "text": reasons, "members": members,
         "deposit": deposit, "actor": COMMITTEE},
    ])
