"""The appeal case file (``cli.py casefile``): what an appeals committee needs
on one page, as JSON for other tools and as a self-contained printable HTML
page (no script, no network: styles inline).

It holds the deal, the auction with its explanations, the play trick by
trick, every event in order with its time, actor and seq, each irregularity
with the rectifications that followed and their Laws, the options offered and
who chose what, findings, rulings, adjusted scores and appeals, the result,
and the integrity head with how to verify it.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ledger.bridge import SEATS, SUITS, Deal
from ledger.render import option_words, play_ruling_words
from ledger.service import Ledger

DIRECTOR_TYPES = {"FindingMade", "RulingGiven", "RulingOverridden", "AdjustedScoreAwarded",
                  "ProceduralPenalty", "ClaimRuled", "DummyViolation", "EntryVoided"}
APPEAL_TYPES = {"AppealLodged", "AppealDecided"}


def build_casefile(ledger: Ledger, stream: str, digest: Any = None, earlier: Any = None) -> dict[str, Any]:
    """The case file of one stream, as plain JSON data; with a published
    ``digest`` (``ledger.audit.merkle.Digest``) it carries the inclusion proof of the
    board's events (``proof``, checked by ``cli.py check-proof``). ``earlier``
    (``ledger.appeals.earlier_decisions``) adds the earlier decisions on the same Laws."""
    case = _build_casefile(ledger, stream, earlier)
    if digest is not None:
        from ledger.audit.transparency import prove_stream

        case["proof"] = prove_stream(ledger.store, stream, digest)
    return case


def _build_casefile(ledger: Ledger, stream: str, earlier: Any = None) -> dict[str, Any]:
    events = [e.envelope() for e in ledger.events(stream)]
    state = document_of(events)  # the fold check-proof repeats from the file's events (issue 25)
    context = {"traveller": _traveller(ledger, state),
               "earlier": earlier(ledger, stream, events) if earlier is not None else []}
    return case_of(events, state, context)


def case_of(events: list[dict[str, Any]], state: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """The case file from the board's events, their folded state document and what comes
    from other boards (``context``: the traveller, earlier decisions on the same Laws).
    A pure function: ``check-proof`` calls it again on the events a case file embeds."""
    case = _case_body(events, state, context)
    case.update(readable_sections(events, state, context))
    return case


def _case_body(events: list[dict[str, Any]], state: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    stream = state["stream"]
    explanations = [e for e in events if e["type"] in ("ExplanationGiven", "ExplanationCorrected")]
    rectifications = [e for e in events if e["actor"]["role"] == "system"]
    return {
        "stream": stream,
        "laws": state["laws"],
        "board": state["board"],
        "contract": state["contract"],
        "auction": [dict(a, explanations=[{"seq": x["seq"], "type": x["type"], "by": x["data"]["by"],
                                           "text": x["data"]["text"]}
                                          for x in explanations if x["data"].get("call_index") == i])
                    for i, a in enumerate(state["auction"], start=1)],
        "calls_not_made": state["calls_not_made"],
        "tricks": state["tricks"],
        "plays_not_made": state["plays_not_made"],
        "play_rulings": play_ruling_words(state),
        "irregularities": [dict(i, rectifications=[_brief(r) for r in rectifications
                                                  if i["seq"] in r["causes"]])
                           for i in state["irregularities"]],
        "options": [{"offered": _brief(e), "chosen": [_brief(c) for c in events
                                                     if c["type"] == "OptionChosen" and c["seq"] > e["seq"]
                                                     and c["data"]["option"] in e["data"]["options"]][:1]}
                    for e in events if e["type"] == "OptionsOffered"],
        "director": [_brief(e) for e in events if e["type"] in DIRECTOR_TYPES],
        "appeals": [_brief(e) for e in events if e["type"] in APPEAL_TYPES],
        "decisions": decision_history(events, state),
        "claim": state["claim"],
        "voided": state.get("voided") or [],
        "tempo": tempo_and_explanations(events, state),
        "appeal_form": appeal_form(events, state),
        "appeal_status": state["appeals"],
        "irregular_boards": state["irregular_boards"],
        "procedural_penalties": state["procedural_penalties"],
        "traveller": context.get("traveller") or [],
        "review": state["review"],
        "result": state["result"],
        "adjusted": state["adjusted"],
        "events": events,
        "integrity": {"head": state["integrity"]["head"], "verified": state["integrity"]["verified"],
                      "events": len(events), "last_seq": events[-1]["seq"],
                      "how_to_verify": f"python cli.py verify {stream}  (recomputes the SHA-256 chain: "
                                       "each hash covers the canonical JSON of the event and the "
                                       "previous hash)"},
        "cited": cited_laws(events, state),
    }


_CITATION = re.compile(r"^(1997|2017|FFB):[A-Za-z0-9.]+$")


def cited_laws(events: list[dict[str, Any]], state: dict[str, Any]) -> list[str]:
    """Every Law applied on the board: the engine's citations, the director's and the
    committee's (``law``, ``laws`` in their data: Law 12 of an award, the Laws of a
    ruling), and every ``law`` the state document names (auction, play, rulings)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "law" and isinstance(item, str) and _CITATION.match(item):
                    found.add(item)
                elif key == "laws" and isinstance(item, list):
                    found.update(x for x in item if isinstance(x, str) and _CITATION.match(x))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(state)
    for e in events:
        if e["law"]:
            found.add(e["law"])
        walk(e["data"])
    return sorted(found)


def tempo_and_explanations(events: list[dict[str, Any]], state: dict[str, Any]) -> list[dict[str, Any]]:
    """What the committee reads about the auction's tempo and the explanations: every
    explanation given or corrected, and every right reserved (16B: a break in tempo or
    other unauthorized information), with the call or card it is about when logged."""
    by_seq = {e["seq"]: e for e in events}
    ids = {e["id"]: e["seq"] for e in events}
    out = []
    for e in events:
        if e["type"] not in ("ExplanationGiven", "ExplanationCorrected", "RightsReserved"):
            continue
        d = e["data"]
        about = d.get("about")
        target = by_seq.get(about if isinstance(about, int) else ids.get(about))
        subject = None
        if e["type"] == "RightsReserved" and target is not None:
            subject = f"{target['type']} {_fact_words(target['data'])} (seq {target['seq']})"
        elif d.get("call_index"):
            call = state["auction"][d["call_index"] - 1] if d["call_index"] <= len(state["auction"]) else None
            subject = f"call {d['call_index']}" + (f", {call['seat']} {call['call']}" if call else "")
        elif d.get("play"):
            subject = f"card {d['play']}"
        out.append({"seq": e["seq"], "type": e["type"], "by": d.get("by"), "about": subject,
                    "text": d.get("text") or d.get("reason") or "", "actor": e["actor"], "at": e["at"],
                    "call_seq": target["seq"] if target is not None and target["type"].startswith("Call") else None})
    return out


def appeal_form(events: list[dict[str, Any]], state: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of an appeals form: the facts the director found, the director's ruling
    and the Laws used, the appellants' statement, the committee's members, the decision
    and its reasons. None when no appeal was lodged."""
    lodged = [e for e in events if e["type"] == "AppealLodged"]
    if not lodged:
        return None
    first = lodged[0]["seq"]
    director = [e for e in events if e["actor"]["role"] == "director" and e["seq"] < first]
    findings = [{"seq": e["seq"], "text": _finding_words(e, events)} for e in director if e["type"] == "FindingMade"]
    rulings = [{"seq": e["seq"], "type": e["type"], "laws": _laws_of(e), "text": _decision_words(e),
                "by": _actor(e["actor"])}
               for e in director if e["type"] in ("RulingGiven", "AdjustedScoreAwarded", "ClaimRuled",
                                                  "ProceduralPenalty", "RulingOverridden", "ResultCancelled")]
    decided = [e for e in events if e["type"] == "AppealDecided"]
    committee = [e for e in events if e["actor"]["role"] == "committee" and e["type"] != "AppealDecided"]
    members: list[str] = []
    for e in decided:
        members += e["data"].get("members") or ([e["actor"]["name"]] if e["actor"].get("name") else [])
    return {
        "facts_found": findings,
        "director_rulings": rulings,
        "appellants": [{"seq": e["seq"], "side": e["data"]["side"], "statement": e["data"]["text"],
                        "logged_by": _actor(e["actor"]), "at": e["at"]} for e in lodged],
        "committee_members": members,
        "decision": [{"seq": e["seq"], "decision": e["data"]["decision"], "reasons": e["data"]["text"],
                      "at": e["at"]} for e in decided],
        "committee_scores": [{"seq": e["seq"], "type": e["type"], "text": _decision_words(e),
                              "laws": _laws_of(e)} for e in committee],
    }


def _laws_of(e: dict[str, Any]) -> list[str]:
    d = e["data"]
    laws = list(d.get("laws") or []) + ([d["law"]] if d.get("law") else []) + ([e["law"]] if e["law"] else [])
    return sorted(set(laws))


def _actor(actor: dict[str, Any]) -> str:
    return actor["role"] + (f" {actor['name']}" if actor.get("name") else "")


def _finding_words(e: dict[str, Any], events: list[dict[str, Any]]) -> str:
    d = e["data"]
    about = d["about"]
    target = next((x for x in events if x["seq"] == about or x["id"] == about), None)
    what = f"{target['type']} at seq {target['seq']}" if target else f"event {about}"
    value = "yes" if d["value"] is True else "no" if d["value"] is False else _value_words(d["value"])
    note = f" ({d['note']})" if d.get("note") else ""
    return f"{d['field'].replace('_', ' ')} on {what}: {value}{note}"


DECISION_TYPES = ("AdjustedScoreAwarded", "ProceduralPenalty", "RulingOverridden", "RulingGiven",
                  "ClaimRuled", "ResultCancelled", "AppealLodged", "AppealDecided", "EntryVoided")


def decision_history(events: list[dict[str, Any]], state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every decision on the board in order, with what became of it: in force,
    replaced by a later award, cancelled by an override, or not applied (and why).
    Nothing is ever deleted from the log: this is how the committee sees it."""
    ids = {e["id"]: e["seq"] for e in events}
    cancelled_by: dict[int, dict[str, Any]] = {}
    for e in events:
        if e["type"] in ("RulingOverridden", "EntryVoided"):
            about = e["data"]["about"]
            target = about if isinstance(about, int) else ids.get(about)
            if target is not None:
                cancelled_by[target] = e
    not_applied = {i["seq"]: i for i in state["irregularities"] if i["kind"] == "adjustment_not_applied"}
    in_force_award = (state["adjusted"] or {}).get("seq")
    valid_awards = [e["seq"] for e in events if e["type"] == "AdjustedScoreAwarded"
                    and e["seq"] not in cancelled_by and e["seq"] not in not_applied]
    out = []
    for e in events:
        if e["type"] not in DECISION_TYPES or e["actor"]["role"] == "system":
            continue
        status = "recorded"
        if e["seq"] in cancelled_by:
            c = cancelled_by[e["seq"]]
            verb = "voided" if c["type"] == "EntryVoided" else "cancelled"
            status = f"{verb} by seq {c['seq']} ({_actor(c['actor'])})"
        elif e["seq"] in not_applied:
            status = "not applied: " + (not_applied[e["seq"]].get("detail") or "")
        elif e["type"] == "AdjustedScoreAwarded":
            later = [seq for seq in valid_awards if seq > e["seq"]]
            status = ("in force" if e["seq"] == in_force_award else
                      f"replaced by seq {later[0]}" if later else "no longer in force")
        elif e["type"] == "ProceduralPenalty":
            status = "in force"
        elif e["type"] == "ClaimRuled":
            claim = state.get("claim") or {}
            status = "in force" if claim.get("settled_seq") == e["seq"] else "recorded"
        out.append(dict(_brief(e), status=status, words=_decision_words(e)))
    return out


def _traveller(ledger: Ledger, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's traveller (every table of the tournament on this board), scored from the
    boards' results summaries (``ledger.summaries``: one query, no other board folded)."""
    from ledger.summaries import results_of
    from ledger.tournament import tournament_summaries

    tournament = state["board"]["tournament"]
    tables = tournament_summaries(ledger, tournament)  # the whole field: 12C2c reads the other boards
    if not any(s == state["stream"] for s, _ in tables):
        return []
    doc = results_of(tournament, tables)
    return next((b["results"] for b in doc["boards"] if b["board"] == state["board"]["number"]), [])


def _result_words(r: dict[str, Any]) -> str:
    """An assigned or weighted result in words: ``1/2 × NS: 4S by N, 10 tricks``."""
    text = "Passed out" if r.get("contract") == "Pass" else (
        f"{r.get('contract')}{r.get('risk') or ''} by {r.get('declarer')}, {r.get('tricks')} tricks")
    if r.get("side", "both") != "both":
        text = f"{r['side']}: {text}"
    if "weight" in r:
        text = f"{r['weight']} × {text}"
    return text


def _value_words(value: Any) -> str:
    """A data value as a committee reads it: no Python or JSON notation."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, list):
        if value and all(isinstance(v, dict) and "contract" in v for v in value):
            return "; ".join(_result_words(v) for v in value)
        return ", ".join(_value_words(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_value_words(v)}" for k, v in value.items())
    return str(value)


def _fact_words(data: dict[str, Any]) -> str:
    return "; ".join(f"{k.replace('_', ' ')}: {_value_words(v)}" for k, v in data.items() if v not in (None, ""))


def _decision_words(e: dict[str, Any]) -> str:
    """A decision event in one sentence."""
    d, t = e["data"], e["type"]
    if t == "AdjustedScoreAwarded":
        body = (f"NS {d.get('ns')}, EW {d.get('ew')}" if d["kind"] == "artificial"
                else _value_words(d.get("results") or []))
        return f"{d['kind']} adjusted score: {body}" + (f" ({d['text']})" if d.get("text") else "")
    if t == "RulingGiven":
        return d["text"]  # its Laws are cited beside it
    if t == "AppealLodged":
        return f"appeal by {d['side']}: {d['text']}"
    if t == "AppealDecided":
        members = f" (members: {', '.join(d['members'])})" if d.get("members") else ""
        return f"{d['decision']}: {d['text']}{members}"
    if t == "ClaimRuled":
        return f"{d['tricks']} of the remaining tricks to the claimer's side" + (f": {d['text']}" if d.get("text") else "")
    if t == "RulingOverridden":
        return f"cancels seq {d['about']}" + (f": {d['text']}" if d.get("text") else "")
    if t == "EntryVoided":
        return f"voids seq {d['about']} as an entry error: {d['reason']}"
    if t == "ProceduralPenalty":
        return f"{d['side']} {d['amount']}: {d['text']}"
    if t == "ResultCancelled":
        return f"result cancelled: {d['text']}"
    return _fact_words(d)


def _brief(e: dict[str, Any]) -> dict[str, Any]:
    return {"seq": e["seq"], "type": e["type"], "data": e["data"], "actor": e["actor"], "at": e["at"],
            "law": e["law"], "causes": e["causes"]}


# -- HTML ---------------------------------------------------------------------

_CSS = """
body{font-family:Georgia,serif;margin:2em;color:#111;max-width:60em}
h1{font-size:1.4em;margin-bottom:.2em} h2{font-size:1.1em;border-bottom:1px solid #999;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #bbb;padding:.15em .5em;vertical-align:top;
font-size:.9em} th{background:#eee} .suit-H,.suit-D{color:#b00} .compass td{border:none}
.hand{font-family:monospace;white-space:pre} .law{font-family:monospace;color:#333}
.small{font-size:.8em;color:#444} .ok{color:#060} .bad{color:#b00;font-weight:bold}
@media print{body{margin:1cm} h2{page-break-after:avoid} table{page-break-inside:avoid}}
"""

_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _card(text: str) -> str:
    suit, rank = text[0], text[1:]
    rank = "10" if rank == "T" else rank
    return f'<span class="suit-{suit}">{_SYMBOL[suit]}</span>{_e(rank)}'


def _call(text: str) -> str:
    if text[:1].isdigit() and text[1:] in _SYMBOL:
        return f'{text[0]}<span class="suit-{text[1]}">{_SYMBOL[text[1]]}</span>'
    return _e(text)


def _hand(deal: Deal, seat) -> str:
    lines = []
    for suit in SUITS:
        ranks = [c.rank for c in sorted(deal.hand(seat), key=lambda c: -c.strength) if c.suit is suit]
        text = " ".join("10" if r == "T" else r for r in ranks) or "—"
        lines.append(f'<span class="suit-{suit.value}">{suit.symbol}</span> {_e(text)}')
    return "<br>".join(lines)


def _compass(case: dict[str, Any]) -> str:
    deal = Deal.parse(case["board"]["deal"])
    n, e, s, w = (_hand(deal, seat) for seat in SEATS)
    b = case["board"]
    centre = f"Board {_e(b['number'])}<br>Dealer {_e(b['dealer'])}<br>Vul {_e(b['vulnerability'])}"
    return (f'<table class="compass"><tr><td></td><td class="hand" id="hand-N"><b>North</b><br>{n}</td><td></td></tr>'
            f'<tr><td class="hand" id="hand-W"><b>West</b><br>{w}</td><td style="border:1px solid #999;'
            f'text-align:center">{centre}</td><td class="hand" id="hand-E"><b>East</b><br>{e}</td></tr>'
            f'<tr><td></td><td class="hand" id="hand-S"><b>South</b><br>{s}</td><td></td></tr></table>')


def _auction(case: dict[str, Any]) -> str:
    order = ["W", "N", "E", "S"]
    cells = [""] * order.index(case["board"]["dealer"])
    notes = []
    tempo = {t["call_seq"]: t for t in case.get("tempo") or [] if t.get("call_seq")}
    for a in case["auction"]:
        mark = ""
        for x in a["explanations"]:
            notes.append(x)
            mark += f"<sup>{len(notes)}</sup>"
        if a["seq"] in tempo:
            t = tempo[a["seq"]]
            notes.append({"type": "RightsReserved", "by": t["by"], "seq": t["seq"], "text": t["text"]})
            mark += f"<sup title='rights reserved'>{len(notes)}‡</sup>"
        cells.append(_call(a["call"]) + mark)
    rows = [cells[i:i + 4] for i in range(0, len(cells), 4)] or [[]]
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row + [""] * (4 - len(row))) + "</tr>"
                   for row in rows)
    words = {"ExplanationGiven": "explanation given", "ExplanationCorrected": "explanation corrected",
             "RightsReserved": "‡ rights reserved (break in tempo or other information)"}
    legend = "".join(f"<li>{_e(words.get(x['type'], x['type']))} by {_e(x['by'])} (seq {x['seq']}): "
                     f"{_e(x['text'])}</li>" for x in notes)
    not_made = "".join(  # issue 12: what the Laws made of calls that are not in the auction, in words
        f"<li>seq {n['seq']} {_e(n['seat'])} {_call(n['call'])}: {_e(n['reason'])} "
        f"<span class='law'>{_e(n['law'])}</span></li>" for n in case.get("calls_not_made") or [])
    return (f'<table id="auction"><tr>{"".join(f"<th>{s}</th>" for s in order)}</tr>{body}</table>'
            + (f"<ol>{legend}</ol>" if legend else "")
            + (f"<p>Calls that do not count</p><ul id='calls-not-made'>{not_made}</ul>" if not_made else ""))


def _tricks(case: dict[str, Any]) -> str:
    if not case["tricks"]:
        return "<p>No card played.</p>"
    marks = case.get("irregular_cards") or {}

    def cell(c: dict[str, Any]) -> str:
        mark = marks.get(str(c.get("seq")))
        if mark:  # issue 25: the irregular card marked in the grid, in words
            return (f"<td class='irregular' style='background:#fde2e2;border:2px solid #b00'>"
                    f"{_e(c['seat'])} {_card(c['card'])} <b>‼ {_e(mark)}</b> "
                    f"<span class='law small'>{_e(c['law'])}</span></td>")
        return f"<td>{_e(c['seat'])} {_card(c['card'])} <span class='law small'>{_e(c['law'])}</span></td>"

    rows = "".join(
        f"<tr><td>{t['number']}</td><td>{_e(t['leader'])}</td>"
        + "".join(cell(c) for c in t["cards"])
        + "<td></td>" * (4 - len(t["cards"])) + f"<td>{_e(t['winner'] or '')}</td></tr>"
        for t in case["tricks"])
    return f'<table id="tricks"><tr><th>#</th><th>led by</th><th colspan="4">cards</th><th>won by</th></tr>{rows}</table>'


def _data(data: dict[str, Any]) -> str:
    return _e(_fact_words(data))


def _events(case: dict[str, Any]) -> str:
    voided = {v["seq"]: v for v in case.get("voided") or []}
    rows = "".join(
        f"<tr><td>{e['seq']}</td><td class='small'>{_e(e['at'])}</td>"
        f"<td>{_e(e['actor']['role'])}{'/' + _e(e['actor']['name']) if e['actor']['name'] else ''}</td>"
        f"<td>{_e(e['type'])}"
        + (f" <b>(voided by seq {voided[e['seq']]['by_seq']})</b>" if e["seq"] in voided else "")
        + f"</td><td class='small'>{_data(e['data'])}</td>"
        f"<td class='law'>{_e(e['law'] or '')}</td><td>{_e(', '.join(map(str, e['causes'])))}</td></tr>"
        for e in case["events"])
    return ('<table id="events"><tr><th>seq</th><th>time (UTC)</th><th>actor</th><th>event</th><th>data</th>'
            f'<th>Law</th><th>causes</th></tr>{rows}</table>')


def _irregularities(case: dict[str, Any]) -> str:
    if not case["irregularities"]:
        return "<p>None.</p>"
    items = []
    for i in case["irregularities"]:
        rect = "".join(f"<li>seq {r['seq']} {_e(r['type'])} ({_data(r['data'])}) "
                       f"<span class='law'>{_e(r['law'])}</span></li>" for r in i["rectifications"])
        detail = f": {_e(i['detail'])}" if i.get("detail") else ""
        by = f" by {_e(i['offender'])}" if i.get("offender") else ""
        items.append(f"<li><b>{_e(i['kind'].replace('_', ' '))}</b>{by} at seq {_e(i['seq'])} "
                     f"<span class='law'>{_e(i['law'] or '')}</span>{detail}"
                     + (f"<ul>{rect}</ul>" if rect else "") + "</li>")
    return f"<ul id='irregularities'>{''.join(items)}</ul>"


def _by(e: dict[str, Any]) -> str:
    """Who: ``lodged by EW (logged by director TD Girard)`` for an appeal, else the actor."""
    if e["type"] == "AppealLodged":
        return f"lodged by {_e(e['data']['side'])} (logged by {_e(_actor(e['actor']))})"
    return f"by {_e(_actor(e['actor']))}"


def _list(entries: list[dict[str, Any]], empty: str = "None.") -> str:
    if not entries:
        return f"<p>{empty}</p>"
    return "<ul>" + "".join(
        f"<li>seq {e['seq']} {_e(e['type'])} {_by(e)}: {_e(_decision_words(e))} "
        f"<span class='law'>{_e(', '.join(_laws_of(e)))}</span></li>" for e in entries) + "</ul>"


def _options(case: dict[str, Any]) -> str:
    if not case["options"]:
        return "<p>None.</p>"
    items = []
    status = {st["seq"]: st for st in case.get("option_status") or []}
    for o in case["options"]:
        offered = o["offered"]
        chosen = o["chosen"][0] if o["chosen"] else None
        st = status.get(offered["seq"])
        if chosen is None and st and st["status"] == "cancelled":  # issue 25: cancelled, with why
            items.append(f"<li class='cancelled'>seq {offered['seq']}: to {_e(offered['data']['to'])}: "
                         f"<s>{_e(', '.join(offered['data']['options']))}</s> "
                         f"<span class='law'>{_e(offered['law'])}</span> — <b>cancelled</b>: "
                         f"{_e(st['reason'])}</li>")
            continue
        words = option_words(chosen["data"]["option"], offered["law"]) if chosen else None
        suit = f" {chosen['data']['suit']}" if chosen and chosen["data"].get("suit") else ""
        took = (f"{_e(chosen['data']['seat'])} chose <b>{_e(chosen['data']['option'])}{_e(suit)}</b>"
                + (f" ({_e(words)})" if words else "") + f" (seq {chosen['seq']})" if chosen else "not chosen yet")
        items.append(f"<li>seq {offered['seq']}: to {_e(offered['data']['to'])}: "
                     f"{_e(', '.join(offered['data']['options']))} <span class='law'>{_e(offered['law'])}</span>"
                     f" — {took}</li>")
    return "<ul>" + "".join(items) + "</ul>"


def _play_rulings(case: dict[str, Any]) -> str:
    lines = case.get("play_rulings") or []
    if not lines:
        return "<p>None.</p>"
    return "<ul id='play-rulings'>" + "".join(f"<li>{_e(line)}</li>" for line in lines) + "</ul>"


def _board_facts(case: dict[str, Any]) -> str:
    facts = case.get("irregular_boards") or []
    if not facts:
        return "<p>None.</p>"
    return "<ul id='irregular-boards'>" + "".join(
        f"<li>seq {f['seq']} {_e(f['type'])}{' (' + _e(f['seat']) + ')' if f.get('seat') else ''}: "
        f"<b>{_e(f['ruling'].replace('_', ' '))}</b>: {_e(f['detail'])} <span class='law'>{_e(f['law'] or '')}</span></li>"
        for f in facts) + "</ul>"


def _decisions(case: dict[str, Any]) -> str:
    if not case.get("decisions"):
        return "<p>No ruling, adjusted score or appeal.</p>"
    rows = "".join(
        f"<tr><td>{d['seq']}</td><td class='small'>{_e(d['at'])}</td><td>{_e(d['actor']['role'])}"
        f"{'/' + _e(d['actor']['name']) if d['actor'].get('name') else ''}</td><td>{_e(d['type'])}</td>"
        f"<td class='small'>{_e(d['words'])}</td><td class='law'>{_e(', '.join(_laws_of(d)))}</td>"
        f"<td>{_e(d['status'])}</td></tr>" for d in case["decisions"])
    return ('<table id="decisions"><tr><th>seq</th><th>time (UTC)</th><th>by</th><th>decision</th><th>data</th>'
            f'<th>Law</th><th>status</th></tr>{rows}</table>')


def _adjusted_text(adjusted: dict[str, Any] | None) -> str:
    if not adjusted:
        return "none"
    if adjusted["kind"] == "artificial":
        body = f"NS {adjusted['ns']}, EW {adjusted['ew']}"
    else:
        body = "; ".join(
            (f"{r['weight']} × " if "weight" in r else "") + (f"{r['side']}: " if r.get("side", "both") != "both" else "")
            + ("Pass" if r["contract"] == "Pass" else f"{r['contract']}{r.get('risk', '')} by {r['declarer']}, "
               f"{r['tricks']} tricks") for r in adjusted["results"])
    return f"{adjusted['kind']}: {body} ({adjusted['law']}, by the {adjusted['by']}, seq {adjusted['seq']})"


def _traveller_html(case: dict[str, Any]) -> str:
    rows = []
    for r in case.get("traveller") or []:
        mine = " style='font-weight:bold'" if r["stream"] == case["stream"] else ""
        contract = r["contract"] or ("adjusted" if r["adjusted"] else "—")
        score = "" if r["score_ns"] is None else f"{r['score_ns']:+d}"
        if r["contract"] is None and not r["adjusted"]:
            contract = {"in progress": "(in progress)", "cancelled": "(cancelled)"}.get(r.get("status") or "", "—")
        adj = ""
        if r["adjusted"]:
            a = r["adjusted"]
            adj = a["kind"] + ": " + (f"NS {a.get('ns')}, EW {a.get('ew')}" if a["kind"] == "artificial"
                                      else _value_words(a.get("results") or [])) + f" ({a.get('law')})"
        mp = "" if r["mp_ns"] is None else f"{r['mp_ns']:g} / {'' if r['mp_ew'] is None else format(r['mp_ew'], 'g')}"
        imp = "" if r["imp_ns"] is None else f"{r['imp_ns']:+g}" + (
            "" if r.get("imp_ew") is None else f" / {r['imp_ew']:+g}")
        rows.append(f"<tr{mine}><td>{_e(r['table'])}</td><td>{_e(r['ns'])}</td><td>{_e(r['ew'])}</td>"
                    f"<td>{_e(contract)}{_e(r['risk'] or '')}</td><td>{_e(r['declarer'] or '')}</td>"
                    f"<td>{_e('' if r['tricks'] is None else r['tricks'])}</td><td>{score}</td><td>{_e(adj)}</td>"
                    f"<td>{mp}</td><td>{imp}</td></tr>")
    if not rows:
        return "<p>No traveller (the stream is not part of a tournament's field).</p>"
    return ("<table id='traveller'><tr><th>table</th><th>NS</th><th>EW</th><th>contract</th><th>by</th>"
            "<th>tricks</th><th>score NS</th><th>adjusted</th><th>MP NS / EW</th><th>IMP NS / EW</th></tr>"
            + "".join(rows) + "</table>")


def _claim_html(case: dict[str, Any]) -> str:
    c = case.get("claim")
    if not c:
        return "<p>No claim.</p>"
    parts = [f"{_e(c['seat'])} claimed {_e(c['tricks'])} of the {_e(c['remaining'])} remaining tricks (seq {c['seq']})"]
    if c.get("statement"):
        parts.append(f"statement: “{_e(c['statement'])}”")
    if c.get("disputed_seq") is not None:
        parts.append(f"disputed by {_e(c.get('disputed_by'))} (seq {c['disputed_seq']})")
    if c["status"] == "agreed":
        parts.append(f"agreed (seq {c.get('settled_seq')})")
    elif c["status"] == "ruled":
        parts.append(f"the director ruled {_e(c['settled_tricks'])} tricks to the claimer's side "
                     f"(seq {c.get('settled_seq')})" + (f": {_e(c['ruling_text'])}" if c.get("ruling_text") else ""))
    else:
        parts.append(_e(c["status"]))
    from ledger.laws.claims import claim_history  # issue 22: the claim's history, the director's line
    history = "".join(f"<li>{_e(line)}</li>" for line in claim_history(c))
    history = f"<ul id='claim-history'>{history}</ul>" if history else ""
    return f"<p id='claim'>{'; '.join(parts)} <span class='law'>{_e(c.get('law') or '')}</span></p>{history}"


def _voided_html(case: dict[str, Any]) -> str:
    if not case.get("voided"):
        return "<p>None.</p>"
    return "<ul id='voided'>" + "".join(
        f"<li>seq {v['seq']} {_e(v.get('type'))} voided by {_e(_actor(v['by']) if v.get('by') else '?')} "
        f"at {_e(v.get('at'))} (seq {v['by_seq']}): {_e(v['reason'])}. The entry stays in the log; "
        "the board is read as if it had not been made.</li>" for v in case["voided"]) + "</ul>"


def _tempo_html(case: dict[str, Any]) -> str:
    items = case.get("tempo") or []
    if not items:
        return "<p>No explanation or reserved right logged.</p>"
    names = {"ExplanationGiven": "Explanation given", "ExplanationCorrected": "Explanation corrected",
             "RightsReserved": "Rights reserved (break in tempo or other information)"}
    return "<ul id='tempo'>" + "".join(
        f"<li>seq {t['seq']} {_e(names.get(t['type'], t['type']))} by {_e(t['by'])}"
        + (f", about {_e(t['about'])}" if t.get("about") else "") + f": {_e(t['text'])}</li>"
        for t in items) + "</ul>"


def _appeal_form_html(case: dict[str, Any]) -> str:
    form = case.get("appeal_form")
    if not form:
        return "<p>No appeal lodged.</p>"

    def rows(items: list[str], empty: str) -> str:
        return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>" if items else f"<p>{empty}</p>"

    facts = [f"seq {i['seq']}: {_e(i['kind'].replace('_', ' '))}" + (f" by {_e(i['offender'])}" if i.get("offender") else "")
             + (f": {_e(i['detail'])}" if i.get("detail") else "") + f" <span class='law'>{_e(i.get('law') or '')}</span>"
             for i in case["irregularities"]]
    facts += [f"seq {f['seq']}: finding: {_e(f['text'])}" for f in form["facts_found"]]
    facts += [f"seq {b['seq']} {_e(b['type'])}: {_e(b['detail'])}" for b in case.get("irregular_boards") or []
              if b["type"] != "RightsReserved"]  # reserved rights are under "Explanations and breaks in tempo"
    rulings = [f"seq {r['seq']} {_e(r['type'])} by {_e(r['by'])}: {_e(r['text'])} "
               f"<span class='law'>{_e(', '.join(r['laws']))}</span>" for r in form["director_rulings"]]
    appellants = [f"{_e(a['side'])} (seq {a['seq']}, logged by {_e(a['logged_by'])}): “{_e(a['statement'])}”"
                  for a in form["appellants"]]
    decision = [f"<b>{_e(d['decision'])}</b> (seq {d['seq']}): {_e(d['reasons'])}" for d in form["decision"]]
    decision += [f"seq {c['seq']} {_e(c['type'])}: {_e(c['text'])} <span class='law'>{_e(', '.join(c['laws']))}</span>"
                 for c in form["committee_scores"]]
    members = ", ".join(_e(m) for m in form["committee_members"]) or "not recorded"
    return (f"<table id='appeal-form'>"
            f"<tr><th>Facts found by the director</th><td>{rows(facts, 'No finding logged.')}</td></tr>"
            f"<tr><th>The director's ruling and the Laws used</th><td>{rows(rulings, 'No ruling logged before the appeal.')}</td></tr>"
            f"<tr><th>The appellants' statement</th><td>{rows(appellants, '')}</td></tr>"
            f"<tr><th>The committee</th><td>{members}</td></tr>"
            f"<tr><th>The decision and its reasons</th><td>{rows(decision, 'Not decided yet.')}</td></tr>"
            "</table>")


def render_html(case: dict[str, Any]) -> str:
    b = case["board"]
    result = case["result"]
    result_text = (f"{_e(result['text'])}, NS {result['score_ns']:+d}" if result else "no result yet")
    integrity = case["integrity"]
    verified = ('<span class="ok">verified</span>' if integrity["verified"]
                else '<span class="bad">NOT VERIFIED: the hash chain does not match</span>')
    contract = case["contract"]
    contract_text = (f"{contract['level']}{contract['strain']}{contract['risk']} by {contract['declarer']}"
                     if contract else "none")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Case file {_e(case['stream'])}</title>
<style>{_CSS}</style></head><body>
<h1>Case file: {_e(b['tournament'])}, board {_e(b['number'])}, table {_e(b['table'])}</h1>
<p class="small">Stream <code>{_e(case['stream'])}</code> · Laws {_e(case['laws'])} ·
NS {_e(b.get('ns') or '—')} · EW {_e(b.get('ew') or '—')} · scoring {_e(b.get('scoring'))}</p>
<h2>The deal</h2>{_compass(case)}
<h2>The auction</h2>{_auction(case)}<p>Contract: <b id="contract">{_e(contract_text)}</b></p>
<h2>The play</h2>{_tricks(case)}
<h2>Timeline of the board</h2>{_timeline_html(case)}
<h2>Irregularities and rectifications</h2>{_irregularities(case)}
<h2>Play rulings in words</h2>{_play_rulings(case)}
<h2>Irregular boards and information (Laws 13 to 16)</h2>{_board_facts(case)}
<h2>Explanations and breaks in tempo</h2>{_tempo_html(case)}
<h2>Options offered and chosen</h2>{_options(case)}
<h2>The claim</h2>{_claim_html(case)}
<h2>Entries voided (entry errors)</h2>{_voided_html(case)}
<h2>Findings and rulings</h2>{_list(case['director'])}
<h2>Appeals</h2>{_list(case['appeals'], 'No appeal lodged.')}
<h2>The appeal form</h2>{_appeal_form_html(case)}
<h2>The Laws cited, in our words</h2>{_laws_in_words_html(case)}
<h2>Earlier decisions on these Laws</h2>{_earlier_html(case)}
<h2>Every decision and what became of it</h2>{_decisions(case)}
<h2>Result</h2><p id="result">{result_text}</p>
<p id="adjusted">Adjusted score in force: {_e(_adjusted_text(case['adjusted']))}</p>
<h2>The traveller</h2>{_traveller_html(case)}
<h2>Every event, in order</h2>{_events(case)}
<h2>Integrity</h2><p id="integrity">Head of the chain (seq {integrity['last_seq']}):
<code>{_e(integrity['head'])}</code> — {verified}.<br>To verify: <code>{_e(integrity['how_to_verify'])}</code></p>
<p class="small">Laws cited: {_e(', '.join(case['cited']))}</p>{_proof_html(case)}
</body></html>
"""


def _proof_html(case: dict[str, Any]) -> str:
    """The inclusion proof, with the events it covers, as JSON in the page:
    ``cli.py check-proof case.html --digest D`` reads it (docs/reliability.md)."""
    proof = case.get("proof")
    if not proof:
        return ""
    import json

    carried = json.dumps({"proof": proof, "events": case["events"], "context": case.get("context"),
                          "renderer": case.get("renderer")}, ensure_ascii=False)
    return (f'\n<h2>Proof of publication</h2><p id="proof-summary">The events of this board are in '
            f'the log the tournament published as digest <code>{_e(proof["digest"])}</code> '
            f'({len(proof["events"])} event(s) proved). To check, with no database: '
            f'<code>python cli.py check-proof THIS-FILE --digest {_e(proof["digest"])}</code> '
            'It re-renders this page from those events and names the first difference. The '
            'traveller and the earlier decisions come from other boards: carried, not proved here.</p>'
            f'\n<pre id="proof" class="small" style="white-space:pre-wrap;word-break:break-all">{_e(carried)}</pre>')


# -- issue 25: what a committee reads without help, and the rendering check -----------------

RENDERER = "ledger-casefile/2"
"""The version of the rendering ``check-proof`` re-runs: a case file written by another
version is re-rendered only by that version (the check says so)."""


def readable_sections(events: list[dict[str, Any]], state: dict[str, Any],
                      context: dict[str, Any]) -> dict[str, Any]:
    """The fields a committee reads without help: every Law cited in our words, the
    board's timeline, what became of each option offered, the irregular cards of the
    play, the earlier decisions on the same Laws, and what came from other boards."""
    from ledger.laws.paraphrases import paraphrase

    words = []
    for law in cited_laws(events, state):
        found = paraphrase(law)
        words.append({"law": law, "from": found[0] if found else None,
                      "text": found[1] if found else "no paraphrase kept for this Law"})
    return {
        "renderer": RENDERER,
        "context": context,
        "laws_in_words": words,
        "timeline": board_timeline(events),
        "option_status": option_status(events, state),
        "irregular_cards": irregular_cards(events, state),
        "earlier": context.get("earlier") or [],
    }


def irregular_cards(events: list[dict[str, Any]], state: dict[str, Any]) -> dict[str, str]:
    """{seq of a card: what was irregular about it}: the irregularities the state lists
    and the engine recorded (a revoke, a card led out of turn...), by the card's seq."""
    cards = {c["seq"] for t in state["tricks"] for c in t["cards"]}
    out: dict[str, str] = {}
    for i in state["irregularities"]:
        if i.get("seq") in cards:
            out[str(i["seq"])] = i["kind"].replace("_", " ") + (f" ({i['law']})" if i.get("law") else "")
    for e in events:
        if e["type"] == "IrregularityRecorded" and e["data"].get("about") in cards:
            out.setdefault(str(e["data"]["about"]), e["data"]["kind"].replace("_", " ")
                           + (f" ({e['law']})" if e["law"] else ""))
    return out


def option_status(events: list[dict[str, Any]], state: dict[str, Any]) -> list[dict[str, Any]]:
    """For each option offered (in order): chosen, still waiting, or cancelled, and why.
    An option the Laws let lapse leaves no event of its own: the seq where it stopped
    being pending is found by folding the board up to each later event."""
    from ledger.laws.paraphrases import paraphrase
    from ledger.service import fold_events

    stored = [stored_event(e) for e in events]
    ids = {e["id"]: e["seq"] for e in events}
    pending_now = {p["seq"] for p in state.get("pending") or []}
    out = []
    for offer in (e for e in events if e["type"] == "OptionsOffered"):
        seq = offer["seq"]
        chosen = next((c for c in events if c["type"] == "OptionChosen" and c["seq"] > seq
                       and c["data"]["option"] in offer["data"]["options"]), None)
        cancel = next((c for c in events if c["type"] in ("RulingOverridden", "EntryVoided")
                       and (c["data"]["about"] if isinstance(c["data"]["about"], int)
                            else ids.get(c["data"]["about"])) == seq), None)
        if chosen is not None:
            out.append({"seq": seq, "status": "chosen", "at_seq": chosen["seq"], "reason": ""})
        elif cancel is not None:
            out.append({"seq": seq, "status": "cancelled", "at_seq": cancel["seq"],
                        "reason": f"cancelled by the {_actor(cancel['actor'])} (seq {cancel['seq']}): "
                                  + _decision_words(cancel)})
        elif seq in pending_now:
            out.append({"seq": seq, "status": "waiting", "at_seq": None,
                        "reason": f"waiting for {offer['data']['to']}’s choice"})
        else:
            lapse = None
            for k in range(seq + 1, len(stored) + 1):
                folded = fold_events(stored[:k])
                if folded is not None and seq not in {p.seq for p in folded.pending}:
                    lapse = events[k - 1]
                    break
            rule = paraphrase(offer["law"] or "")
            if lapse is None:
                reason = "no longer offered"
            elif lapse["type"] == "OptionChosen":
                reason = f"another option was chosen instead (seq {lapse['seq']})"
            elif lapse["actor"]["role"] == "table":
                reason = (f"cancelled: play went on without a choice ({_timeline_words(lapse)}, seq "
                          f"{lapse['seq']}), so the option lapsed")
            else:
                reason = (f"cancelled by the {_actor(lapse['actor'])}: {lapse['type']} "
                          f"(seq {lapse['seq']}{', ' + lapse['law'] if lapse['law'] else ''})")
            if rule:
                reason += f" [{rule[0]}: {rule[1]}]"
            out.append({"seq": seq, "status": "cancelled", "at_seq": lapse["seq"] if lapse else None,
                        "reason": reason})
    return out


_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _timeline_words(e: dict[str, Any]) -> str:
    d, t = e["data"], e["type"]
    if t == "CallPlaced":
        return f"{d.get('seat')} called {d.get('call')}"
    if t == "CardPlayed":
        return f"{d.get('seat')} played {d.get('card')}"
    if t in DECISION_TYPES:
        return _decision_words(e)
    return _CAMEL.sub(" ", t).lower() + (f": {_fact_words(d)}" if d else "")


def board_timeline(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The board in order, who did what, in words: a run of calls or of cards by the
    table is one line; every other event is a line of its own."""
    out: list[dict[str, Any]] = []
    for e in events:
        who = "the ruling engine" if e["actor"]["role"] == "system" else _actor(e["actor"])
        kind = e["type"] if e["type"] in ("CallPlaced", "CardPlayed") and e["actor"]["role"] == "table" else None
        last = out[-1] if out else None
        if kind and last and last["kind"] == kind and last["who"] == who:
            last["what"] += ", " + _timeline_words(e)
            last["to_seq"], last["until"] = e["seq"], e["at"]
            continue
        out.append({"kind": kind, "seq": e["seq"], "to_seq": e["seq"], "at": e["at"], "until": e["at"],
                    "who": who, "law": e["law"], "what": _timeline_words(e)})
    return out


def stored_event(env: dict[str, Any]) -> Any:
    """A case file's event envelope as the store's event (to fold it)."""
    from ledger.store.base import Actor, StoredEvent

    return StoredEvent(stream=env["stream"], seq=env["seq"], id=env["id"], type=env["type"], v=env["v"],
                       data=env["data"], actor=Actor(env["actor"]["role"], env["actor"].get("name")),
                       at=env["at"], causes=tuple(env["causes"]), law=env["law"], prev=env["prev"],
                       hash=env["hash"], position=env.get("position"))


def document_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The state document of a board from its events alone (as ``Ledger.state`` gives it)."""
    from ledger.service import chain_ok, fold_events
    from projections.document import to_document

    stored = [stored_event(e) for e in events]
    folded = fold_events(stored)
    if folded is None:
        raise ValueError("no event")
    doc = to_document(folded, verified=chain_ok(stored))
    by_seq = {e.seq: e for e in stored}
    for entry in doc.get("voided") or []:
        target, void = by_seq.get(entry["seq"]), by_seq.get(entry["by_seq"])
        entry["type"] = target.type if target else None
        entry["by"] = void.actor.to_json() if void else None
        entry["at"] = void.at if void else None
    return doc


def rerender(carried: dict[str, Any]) -> dict[str, Any]:
    """The case file the embedded events give: ``carried`` holds ``events``, ``context``
    and ``proof`` (as the HTML's proof block and the JSON carry them)."""
    import json

    events = carried["events"]
    case = case_of(events, document_of(events), carried.get("context") or {})
    if carried.get("proof") is not None:
        case["proof"] = carried["proof"]
    return json.loads(json.dumps(case, ensure_ascii=False))


def check_rendering(text: str) -> list[str]:
    """Is what the case file shows the rendering of the events it embeds? Re-renders
    it (HTML or JSON) and names the first difference; [] when identical."""
    import json

    from ledger.audit.transparency import carried_block

    carried = carried_block(text)
    renderer = carried.get("renderer")
    if renderer != RENDERER:
        return [f"the case file was written by renderer {renderer!r}; this check re-renders "
                f"{RENDERER!r} only: use that version of the ledger to re-render it"]
    try:
        rebuilt = rerender(carried)
    except Exception as exc:  # any failure to fold the file's events is a finding, not a crash
        return [f"the events the case file embeds do not fold into a board ({type(exc).__name__}: "
                f"{str(exc)[:120]})"]
    if text.lstrip().startswith("{"):
        shown = json.loads(text)
        where = _first_difference(shown, rebuilt, "")
        if where is None:
            return []
        path, found, expected = where
        return [f"the visible content differs from the rendering of its events: at {path} the file "
                f"shows {_cut(found)}, the events give {_cut(expected)}"]
    expected = render_html(rebuilt)
    if text == expected:
        return []
    at = next((i for i, (x, y) in enumerate(zip(text, expected)) if x != y), min(len(text), len(expected)))
    line = text.count("\n", 0, at) + 1
    titles = re.findall(r"<h2>(.*?)</h2>", expected[:at])
    section = f" in section “{html.unescape(titles[-1])}”" if titles else ""
    return [f"the visible content differs from the rendering of its events at line {line}{section}: "
            f"the file shows {_cut(_visible(text, at))}, the events give {_cut(_visible(expected, at))}"]


def _visible(page: str, at: int) -> str:
    """The text of ``page`` around character ``at``, tags removed."""
    window = page[max(0, at - 60):at + 60]
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", window)).split())


def _cut(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _first_difference(a: Any, b: Any, path: str) -> tuple[str, Any, Any] | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(b) + [k for k in a if k not in b]:
            if key not in a or key not in b:
                return (f"{path}.{key}".lstrip("."), a.get(key, "(nothing)"), b.get(key, "(nothing)"))
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return (f"{path} (length)".lstrip("."), len(a), len(b))
        return None
    return None if a == b and type(a) is type(b) else (path.lstrip("."), a, b)



def _laws_in_words_html(case: dict[str, Any]) -> str:
    items = case.get("laws_in_words") or []
    if not items:
        return "<p>No Law cited.</p>"
    return ("<p class='small'>Short paraphrases written for this ledger, not the Laws’ text; the Laws "
            "decide.</p><dl id='laws-in-words'>" + "".join(
                f"<dt class='law'>{_e(w['law'])}"
                + (f" <span class='small'>(from {_e(w['from'])})</span>" if w.get("from") and w["from"] != w["law"]
                   else "") + f"</dt><dd>{_e(w['text'])}</dd>" for w in items) + "</dl>")


def _earlier_html(case: dict[str, Any]) -> str:
    items = case.get("earlier") or []
    if not items:
        return "<p id='earlier'>No earlier appeal in this store was decided on these Laws.</p>"
    return "<ul id='earlier'>" + "".join(
        f"<li>{_e(x['decided_at'][:10])} · {_e(x['tournament'])}, board {_e(x['board'])} "
        f"(<code>{_e(x['stream'])}</code>): <b>{_e(x['decision'])}</b> — {_e(x['reasons'])} "
        f"<span class='law'>{_e(', '.join(x['laws']))}</span></li>" for x in items) + "</ul>"


def _timeline_html(case: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td class='small'>{_e(t['at'][11:19])}</td><td>{t['seq']}"
        + (f"–{t['to_seq']}" if t["to_seq"] != t["seq"] else "") + f"</td><td>{_e(t['who'])}</td>"
        f"<td>{_e(t['what'])}</td><td class='law'>{_e(t['law'] or '')}</td></tr>"
        for t in case.get("timeline") or [])
    return ("<table id='timeline'><tr><th>time (UTC)</th><th>seq</th><th>who</th><th>what</th>"
            f"<th>Law</th></tr>{rows}</table>")
