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
    from ledger.store.base import AppealIndex

    store = ledger.store  # the appealed streams by the store's index (revision 0007) when it has one
    for stream in store.appealed_streams() if isinstance(store, AppealIndex) else store.streams():
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


def laws_words(laws: list[str]) -> str:
    """The Laws of an appeal in our words (ledger/laws/paraphrases.py), as an HTML list."""
    import html

    from ledger.laws.paraphrases import paraphrase

    items = [(law, paraphrase(law)) for law in laws]
    return "<dl class='laws'>" + "".join(
        f"<dt class='law'>{html.escape(law)}</dt><dd>{html.escape(found[1])}</dd>"
        for law, found in items if found) + "</dl>"


def casebook_html(entries: list[dict[str, Any]], title: str) -> str:
    """The casebook as a self-contained printable page: each appeal with its facts, the
    director's ruling, the appeal, the committee's decision and the federation's comment."""
    import html

    def e(value: Any) -> str:
        return html.escape("" if value is None else str(value))

    cases = []
    for i, x in enumerate(entries, start=1):
        appellants = "".join(f"<p><b>Appeal by {e(a['side'])}.</b> {e(a['statement'])}</p>" for a in x["appellants"])
        facts = "".join(f"<li>{e(f)}</li>" for f in x["facts"]) or "<li>none recorded</li>"
        cases.append(
            f"<section class='case' id='case-{i}'><h2>Case {i}: {e(x['tournament'])}, board {e(x['board'])}, "
            f"table {e(x['table'])}</h2>"
            f"<p class='small'>Laws <span class='law'>{e(', '.join(x['laws']))}</span> · lodged "
            f"{e(x['lodged_at'][:10])} · decided {e(x['decided_at'][:10] or 'not yet')} · "
            f"<code>{e(x['stream'])}</code></p>"
            f"{laws_words(x['laws'])}<h3>Facts</h3><ul>{facts}</ul><p>Result at the table: {e(x['result'])}</p>"
            f"<h3>The director's ruling</h3><p>{e(x['ruling'])}</p>{appellants}"
            f"<h3>Decision: <span class='decision'>{e(x['decision'])}</span></h3><p>{e(x['reasons'])}</p>"
            f"<p class='small'>Committee: {e(', '.join(x['members']) or 'not recorded')} · deposit "
            f"{e(x['deposit'])}</p>"
            f"<h3>Comment</h3><p class='comment'>{e(x.get('comment') or '(no comment yet)')}</p></section>")
    body = "".join(cases) or "<p>No appeal in this period.</p>"
    index = "".join(f"<li><a href='#case-{i}'>{e(x['tournament'])}, board {e(x['board'])}</a>: "
                    f"{e(x['decision'])} ({e(', '.join(x['laws']))})</li>" for i, x in enumerate(entries, start=1))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body{{font-family:Georgia,serif;margin:2em auto;color:#111;max-width:46em;line-height:1.45}}
h1{{font-size:1.5em}} h2{{font-size:1.15em;border-bottom:1px solid #999;margin-top:2em}} h3{{font-size:1em;margin:.8em 0 .2em}}
.law{{font-family:monospace}} .small{{font-size:.85em;color:#444}} .decision{{text-transform:uppercase}}
.comment{{border-left:3px solid #bbb;padding-left:.6em;color:#333}}
dl.laws{{font-size:.9em;color:#333}} dl.laws dd{{margin-left:1.5em}}
@media print{{.case{{page-break-before:always}} body{{margin:1cm}}}}
</style></head><body>
<h1>{e(title)}</h1><p class="small">{len(entries)} appeal(s), from the ledger's register (every event of
each board is in its case file).</p><ol id="index">{index}</ol>
{body}
</body></html>
"""


RECEIVED_PREFIX = "received/"
"""Case files received from tournaments run elsewhere are stored under this prefix
(their board keeps its tournament's name: the register lists it with the others)."""


def receive_casefile(ledger: Ledger, text: str, digest: Any) -> tuple[str, int]:
    """Store a case file from another tournament's store once it is verified against that
    tournament's published ``digest``: what it shows is the rendering of its events, every
    event is under the digest (none unproved), and this ledger, replaying the table's,
    director's and committee's facts in memory, reaches the same board (contract, result,
    adjusted score, appeals). Then the facts are appended in one atomic batch under
    ``received/<stream>`` (ids kept: receiving it again writes nothing). Anything else is
    refused (``IntegrityError`` or ``BadInput``) with the reason, before a write."""
    from ledger.casefile import check_rendering, document_of
    from ledger.errors import IntegrityError
    from ledger.service import parse_fact
    from ledger.audit.transparency import check_proof, read_casefile

    events, proof = read_casefile(text)
    problems = check_rendering(text)
    check = check_proof(events, proof, digest)
    problems += list(check.problems)
    if not problems and check.not_covered:
        problems.append(f"{len(check.not_covered)} event(s) (seq {', '.join(map(str, check.not_covered))}) are "
                        "not under the published digest: ask the tournament for a later digest")
    if problems:
        raise IntegrityError(None, None, "case file refused, nothing stored: " + problems[0]
                             + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""), kind="digest")
    stream = RECEIVED_PREFIX + str(proof["stream"])
    facts = []
    for number, e in enumerate((e for e in events if e["actor"]["role"] != "system"), start=1):
        facts.append(parse_fact({"type": e["type"], **e["data"], "id": e["id"], "actor": e["actor"]}, number))
    shown = document_of(events)
    with Ledger.open("sqlite:///:memory:", create=True) as replay:
        replay.append(stream, facts)
        mine = replay.state(stream)
    for key in ("contract", "result", "adjusted", "appeals"):
        if mine.get(key) != shown.get(key):
            raise IntegrityError(None, None, f"case file refused, nothing stored: replayed by this ledger the "
                                 f"board's {key} is {mine.get(key)!r}, the case file's {shown.get(key)!r}",
                                 kind="digest")
    result = ledger.append(stream, facts)
    return stream, len(result.stored)
