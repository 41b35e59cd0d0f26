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
from typing import Any

from ledger.bridge import SEATS, SUITS, Deal
from ledger.service import Ledger

DIRECTOR_TYPES = {"FindingMade", "RulingGiven", "RulingOverridden", "AdjustedScoreAwarded",
                  "ProceduralPenalty", "ClaimRuled", "DummyViolation"}
APPEAL_TYPES = {"AppealLodged", "AppealDecided"}


def build_casefile(ledger: Ledger, stream: str) -> dict[str, Any]:
    """The case file of one stream, as plain JSON data."""
    events = [e.envelope() for e in ledger.events(stream)]
    state = ledger.state(stream)
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
        "appeal_status": state["appeals"],
        "irregular_boards": state["irregular_boards"],
        "procedural_penalties": state["procedural_penalties"],
        "traveller": _traveller(ledger, state),
        "review": state["review"],
        "result": state["result"],
        "adjusted": state["adjusted"],
        "events": events,
        "integrity": {"head": state["integrity"]["head"], "verified": state["integrity"]["verified"],
                      "events": len(events), "last_seq": events[-1]["seq"],
                      "how_to_verify": f"python cli.py verify {stream}  (recomputes the SHA-256 chain: "
                                       "each hash covers the canonical JSON of the event and the "
                                       "previous hash)"},
        "cited": sorted({e["law"] for e in events if e["law"]} |
                        {a["law"] for a in state["auction"]} |
                        {c["law"] for t in state["tricks"] for c in t["cards"]}),
    }


DECISION_TYPES = ("AdjustedScoreAwarded", "ProceduralPenalty", "RulingOverridden", "RulingGiven",
                  "ResultCancelled", "AppealLodged", "AppealDecided")


def decision_history(events: list[dict[str, Any]], state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every decision on the board in order, with what became of it: in force,
    replaced by a later award, cancelled by an override, or not applied (and why).
    Nothing is ever deleted from the log: this is how the committee sees it."""
    ids = {e["id"]: e["seq"] for e in events}
    cancelled_by: dict[int, dict[str, Any]] = {}
    for e in events:
        if e["type"] == "RulingOverridden":
            about = e["data"]["about"]
            target = about if isinstance(about, int) else ids.get(about)
            if target is not None:
                cancelled_by[target] = e
    not_applied = {i["seq"]: i for i in state["irregularities"] if i["kind"] == "adjustment_not_applied"}
    in_force_award = (state["adjusted"] or {}).get("seq")
    out = []
    for e in events:
        if e["type"] not in DECISION_TYPES or e["actor"]["role"] == "system":
            continue
        status = "recorded"
        if e["seq"] in cancelled_by:
            c = cancelled_by[e["seq"]]
            status = f"cancelled by seq {c['seq']} ({c['actor']['role']})"
        elif e["seq"] in not_applied:
            status = "not applied: " + (not_applied[e["seq"]].get("detail") or "")
        elif e["type"] == "AdjustedScoreAwarded":
            status = "in force" if e["seq"] == in_force_award else f"replaced by seq {in_force_award}" \
                if in_force_award and in_force_award > e["seq"] else "superseded"
        elif e["type"] == "ProceduralPenalty":
            status = "in force"
        out.append(dict(_brief(e), status=status))
    return out


def _traveller(ledger: Ledger, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's traveller (every table of the tournament on this board), scored."""
    from ledger.tournament import tournament_tables
    from projections.results import results

    tournament = state["board"]["tournament"]
    tables = tournament_tables(ledger, tournament)  # the whole field: 12C2c reads the other boards
    if not any(s == state["stream"] for s, _ in tables):
        return []
    doc = results(tournament, tables)
    return next((b["results"] for b in doc["boards"] if b["board"] == state["board"]["number"]), [])


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
    for a in case["auction"]:
        mark = ""
        for x in a["explanations"]:
            notes.append(x)
            mark += f"<sup>{len(notes)}</sup>"
        cells.append(_call(a["call"]) + mark)
    rows = [cells[i:i + 4] for i in range(0, len(cells), 4)] or [[]]
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row + [""] * (4 - len(row))) + "</tr>"
                   for row in rows)
    legend = "".join(f"<li>{_e(x['type'])} by {_e(x['by'])} (seq {x['seq']}): {_e(x['text'])}</li>"
                     for x in notes)
    return (f'<table id="auction"><tr>{"".join(f"<th>{s}</th>" for s in order)}</tr>{body}</table>'
            + (f"<ol>{legend}</ol>" if legend else ""))


def _tricks(case: dict[str, Any]) -> str:
    if not case["tricks"]:
        return "<p>No card played.</p>"
    rows = "".join(
        f"<tr><td>{t['number']}</td><td>{_e(t['leader'])}</td>"
        + "".join(f"<td>{_e(c['seat'])} {_card(c['card'])} <span class='law small'>{_e(c['law'])}</span></td>"
                  for c in t["cards"])
        + "<td></td>" * (4 - len(t["cards"])) + f"<td>{_e(t['winner'] or '')}</td></tr>"
        for t in case["tricks"])
    return f'<table id="tricks"><tr><th>#</th><th>led by</th><th colspan="4">cards</th><th>won by</th></tr>{rows}</table>'


def _data(data: dict[str, Any]) -> str:
    return ", ".join(f"{_e(k)}={_e(v)}" for k, v in data.items())


def _events(case: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td>{e['seq']}</td><td class='small'>{_e(e['at'])}</td>"
        f"<td>{_e(e['actor']['role'])}{'/' + _e(e['actor']['name']) if e['actor']['name'] else ''}</td>"
        f"<td>{_e(e['type'])}</td><td class='small'>{_data(e['data'])}</td>"
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
        items.append(f"<li><b>{_e(i['kind'])}</b> by {_e(i['offender'])} at seq {_e(i['seq'])} "
                     f"<span class='law'>{_e(i['law'] or '')}</span>{detail}"
                     + (f"<ul>{rect}</ul>" if rect else "") + "</li>")
    return f"<ul id='irregularities'>{''.join(items)}</ul>"


def _list(entries: list[dict[str, Any]], empty: str = "None.") -> str:
    if not entries:
        return f"<p>{empty}</p>"
    return "<ul>" + "".join(
        f"<li>seq {e['seq']} {_e(e['type'])} by {_e(e['actor']['role'])}: {_data(e['data'])} "
        f"<span class='law'>{_e(e['law'] or '')}</span></li>" for e in entries) + "</ul>"


def _options(case: dict[str, Any]) -> str:
    if not case["options"]:
        return "<p>None.</p>"
    items = []
    for o in case["options"]:
        offered = o["offered"]
        chosen = o["chosen"][0] if o["chosen"] else None
        took = (f"{_e(chosen['data']['seat'])} chose <b>{_e(chosen['data']['option'])}</b> (seq {chosen['seq']})"
                if chosen else "not chosen yet")
        items.append(f"<li>seq {offered['seq']}: to {_e(offered['data']['to'])}: "
                     f"{_e(', '.join(offered['data']['options']))} <span class='law'>{_e(offered['law'])}</span>"
                     f" — {took}</li>")
    return "<ul>" + "".join(items) + "</ul>"


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
        f"<td class='small'>{_data(d['data'])}</td><td class='law'>{_e(d['data'].get('law') or d['law'] or '')}</td>"
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
        adj = ""
        if r["adjusted"]:
            adj = r["adjusted"]["kind"] + (f" NS {r['adjusted'].get('ns')} EW {r['adjusted'].get('ew')}"
                                           if r["adjusted"]["kind"] == "artificial" else "")
        mp = "" if r["mp_ns"] is None else f"{r['mp_ns']:g} / {r['mp_ew']:g}"
        imp = "" if r["imp_ns"] is None else f"{r['imp_ns']:+g}"
        rows.append(f"<tr{mine}><td>{_e(r['table'])}</td><td>{_e(r['ns'])}</td><td>{_e(r['ew'])}</td>"
                    f"<td>{_e(contract)}{_e(r['risk'] or '')}</td><td>{_e(r['declarer'] or '')}</td>"
                    f"<td>{_e('' if r['tricks'] is None else r['tricks'])}</td><td>{score}</td><td>{_e(adj)}</td>"
                    f"<td>{mp}</td><td>{imp}</td></tr>")
    if not rows:
        return "<p>No traveller (the stream is not part of a tournament's field).</p>"
    return ("<table id='traveller'><tr><th>table</th><th>NS</th><th>EW</th><th>contract</th><th>by</th>"
            "<th>tricks</th><th>score NS</th><th>adjusted</th><th>MP NS / EW</th><th>IMP NS</th></tr>"
            + "".join(rows) + "</table>")


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
<h2>Irregularities and rectifications</h2>{_irregularities(case)}
<h2>Irregular boards and information (Laws 13 to 16)</h2>{_board_facts(case)}
<h2>Options offered and chosen</h2>{_options(case)}
<h2>Findings and rulings</h2>{_list(case['director'])}
<h2>Appeals</h2>{_list(case['appeals'], 'No appeal lodged.')}
<h2>Every decision and what became of it</h2>{_decisions(case)}
<h2>Result</h2><p id="result">{result_text}</p>
<p id="adjusted">Adjusted score in force: {_e(_adjusted_text(case['adjusted']))}</p>
<h2>The traveller</h2>{_traveller_html(case)}
<h2>Every event, in order</h2>{_events(case)}
<h2>Integrity</h2><p id="integrity">Head of the chain (seq {integrity['last_seq']}):
<code>{_e(integrity['head'])}</code> — {verified}.<br>To verify: <code>{_e(integrity['how_to_verify'])}</code></p>
<p class="small">Laws cited: {_e(', '.join(case['cited']))}</p>
</body></html>
"""
