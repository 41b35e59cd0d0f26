"""The appeals register of a store, across tournaments (``cli.py appeals``), the
"earlier decisions on this Law" of a case file, and the casebook a federation
publishes (``cli.py casebook``, HTML and PDF).

Every board with an ``AppealLodged`` is an entry: its tournament, board and table,
the Laws of the director's ruling and of the committee's decision, the facts the
director found, the ruling, the appellants, the decision and its reasons, the
committee's members, and what became of the deposit (``AppealDecided.deposit``).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from ledger.service import Ledger

OUTCOMES = ("upheld", "changed", "pending")


def _law_number(citation: str) -> str:
    m = re.match(r"^(?:[A-Za-z0-9]+:)?(\d+)", citation)
    return m.group(1) if m else citation


def law_matches(citation: str, asked: str) -> bool:
    """``asked`` as given to ``--law``: ``64`` (any edition, any sub-law), ``64A2``,
    ``2017:64A2`` or ``2017:64``."""
    edition, _, law = asked.rpartition(":")
    ed, _, cited = citation.rpartition(":")
    if edition and ed != edition:
        return False
    if law.isdigit():
        return _law_number(cited) == law
    return cited.upper().startswith(law.upper())


def entry_of(ledger: Ledger, stream: str, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The register's entry for a board (None when no appeal was lodged)."""
    from ledger.casefile import appeal_form

    if not any(e["type"] == "AppealLodged" for e in events):
        return None
    state = ledger.state(stream)
    form = appeal_form(events, state)
    assert form is not None
    decided = [e for e in events if e["type"] == "AppealDecided"]
    last = decided[-1] if decided else None
    ruling_laws = sorted({law for r in form["director_rulings"] for law in r["laws"]})
    committee_laws = sorted({law for c in form["committee_scores"] for law in c["laws"]}
                            | ({last["law"]} if last and last["law"] else set()))
    facts = [f"{i['kind'].replace('_', ' ')}" + (f" by {i['offender']}" if i.get("offender") else "")
             + (f": {i['detail']}" if i.get("detail") else "") for i in state["irregularities"]]
    facts += [f["text"] for f in form["facts_found"]]
    board = state["board"]
    result = state["result"]
    return {
        "stream": stream,
        "tournament": board["tournament"],
        "board": board["number"],
        "table": board["table"],
        "laws_edition": state["laws"],
        "laws": sorted(set(ruling_laws) | set(committee_laws)),
        "ruling_laws": ruling_laws,
        "facts": facts,
        "ruling": "; ".join(r["text"] for r in form["director_rulings"]) or "no ruling logged before the appeal",
        "director": sorted({r["by"] for r in form["director_rulings"]}),
        "appellants": [{"side": a["side"], "statement": a["statement"]} for a in form["appellants"]],
        "decision": last["data"]["decision"] if last else "pending",
        "reasons": last["data"]["text"] if last else "",
        "members": form["committee_members"],
        "deposit": (last["data"].get("deposit") or "not recorded") if last else "not decided",
        "lodged_at": form["appellants"][0]["at"],
        "decided_at": last["at"] if last else "",
        "result": (f"{result['text']}, NS {result['score_ns']:+d}" if result else "no result"),
        "adjusted": state["adjusted"],
    }


def _streams_with_appeals(ledger: Ledger) -> Iterable[tuple[str, list[dict[str, Any]]]]:
    for stream in ledger.store.streams():
        stored = ledger.store.read(stream)
        if any(e.type == "AppealLodged" for e in stored):
            yield stream, [e.envelope() for e in stored]


def register(ledger: Ledger, *, law: str | None = None, tournament: str | None = None,
             since: str | None = None, until: str | None = None,
             outcome: str | None = None) -> list[dict[str, Any]]:
    """Every appeal of every tournament in the store, oldest first, filtered: by Law
    (``law_matches``), tournament (name or slug), date (``YYYY-MM-DD``, the day it was
    lodged, inclusive) and outcome (``upheld``, ``changed``, ``pending``)."""
    from ledger.tournament import same_tournament

    out = []
    for stream, events in _streams_with_appeals(ledger):
        entry = entry_of(ledger, stream, events)
        if entry is None:
            continue
        if law and not any(law_matches(c, law) for c in entry["laws"]):
            continue
        if tournament and not same_tournament(entry["tournament"], tournament):
            continue
        day = entry["lodged_at"][:10]
        if (since and day < since) or (until and day > until):
            continue
        if outcome and entry["decision"] != outcome:
            continue
        out.append(entry)
    return sorted(out, key=lambda e: (e["lodged_at"], e["stream"]))


def earlier_decisions(ledger: Ledger, stream: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Appeals on other boards, decided before this board's appeal was lodged (or before
    now, with none), whose Laws share a Law number with this board's ruling or decision."""
    from ledger.casefile import cited_laws

    mine = {e["law"] for e in events if e["actor"]["role"] in ("director", "committee") and e["law"]}
    for e in events:
        if e["actor"]["role"] in ("director", "committee"):
            mine |= set(e["data"].get("laws") or []) | ({e["data"]["law"]} if e["data"].get("law") else set())
    if not mine:  # no ruling names its Laws: the Laws the board's irregularities were rectified under
        mine = set(cited_laws(events, {}))
    numbers = {_law_number(c) for c in mine}
    lodged = next((e["at"] for e in events if e["type"] == "AppealLodged"), None)
    out = []
    for entry in register(ledger):
        if entry["stream"] == stream or entry["decision"] == "pending":
            continue
        if lodged is not None and entry["decided_at"] >= lodged:
            continue
        shared = sorted(c for c in entry["laws"] if _law_number(c) in numbers)
        if shared:
            out.append({"stream": entry["stream"], "tournament": entry["tournament"], "board": entry["board"],
                        "decision": entry["decision"], "reasons": entry["reasons"], "laws": shared,
                        "decided_at": entry["decided_at"]})
    return out
