"""The printed sheets as print-ready HTML (one page, no script, no network: CSS for A4 print,
suit symbols as text, hearts and diamonds in red, QR codes as inline SVG from segno)."""

from __future__ import annotations

from html import escape
from typing import Any, Sequence

from ledger.printing.sheets import SUITS, SYMBOLS

CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; color: #111; }
h1 { font-size: 15pt; } h2 { font-size: 11.5pt; margin: 10pt 0 4pt; }
table { border-collapse: collapse; margin-bottom: 6pt; }
td, th { border: 1px solid #999; padding: 2pt 5pt; vertical-align: top; text-align: left; }
th { background: #e8e8e8; }
.red { color: #c0142b; }
.boards { display: grid; grid-template-columns: 1fr 1fr; gap: 8pt; }
.board { border: 1px solid #999; padding: 4pt; break-inside: avoid; }
.compass { display: grid; grid-template-columns: 32% 28% 32%; align-items: center; }
.compass .table { border: 1px solid #000; text-align: center; font-size: 8pt; padding: 6pt 0; }
.card { break-after: page; }
.note { font-size: 8.5pt; }
"""


def suit(s: str) -> str:
    return f'<span class="red">{SYMBOLS[s]}</span>' if s in ("H", "D") else SYMBOLS[s]


def _hand(hand: dict[str, str]) -> str:
    return "<br>".join(f"{suit(s)} {escape(hand[s].replace('T', '10')) or '&mdash;'}" for s in SUITS)


def page(title: str, body: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1>{body}</body></html>\n")


def hand_records_html(title: str, records: Sequence[dict[str, Any]]) -> str:
    parts = []
    for r in records:
        info = f"<b>Board {r['board']}</b><br>Dealer {escape(r['dealer'])}<br>Vul. {escape(r['vulnerability'])}"
        h = r["hands"]
        compass = (f'<div class="compass"><div>{info}</div><div>{_hand(h["N"])}</div><div></div>'
                   f'<div>{_hand(h["W"])}</div><div class="table">N<br>W &nbsp; E<br>S</div><div>{_hand(h["E"])}</div>'
                   f'<div></div><div>{_hand(h["S"])}</div><div></div></div>')
        dd = ""
        if r.get("dd"):
            strains = ("C", "D", "H", "S", "NT")
            head = "".join(f"<th>{suit(s) if s != 'NT' else 'NT'}</th>" for s in strains)
            rows = "".join(f"<tr><th>{seat}</th>" + "".join(f"<td>{r['dd'][s][seat]}</td>" for s in strains) + "</tr>"
                           for seat in "NSEW")
            dd = f"<table><tr><th></th>{head}</tr>{rows}</table>"
            if r.get("par"):
                dd += f'<div class="note">Par: {escape(r["par"])}</div>'
        parts.append(f'<div class="board">{compass}{dd}</div>')
    return page(f"{title} - hand records", f'<div class="boards">{"".join(parts)}</div>')


def travellers_html(title: str, boards: Sequence[dict[str, Any]]) -> str:
    parts = []
    for board in boards:
        where = f"session {board['session']}, " if board.get("session") else ""
        head = "".join(f"<th>{c}</th>" for c in ("table", "NS", "EW", "contract", "tricks", "score NS",
                                                  *board["columns"]))
        rows = "".join(
            f"<tr><td>{escape(r['table'])}</td><td><b>{escape(r['ns'])}</b> {escape(r['ns_players'])}</td>"
            f"<td><b>{escape(r['ew'])}</b> {escape(r['ew_players'])}</td>"
            f"<td>{escape(r['contract'])}{' <b>' + r['mark'] + '</b>' if r['mark'] else ''}</td>"
            f"<td>{r['tricks']}</td><td>{r['score']}</td><td>{r['left']}</td><td>{r['right']}</td></tr>"
            for r in board["rows"])
        notes = "".join(f'<div class="note">{escape(n)}</div>' for n in board["notes"])
        parts.append(f"<h2>{where}board {board['board']}</h2><table><tr>{head}</tr>{rows}</table>{notes}")
    return page(f"{title} - travellers", "".join(parts))


def ranking_html(title: str, blocks: Sequence[dict[str, Any]]) -> str:
    parts = []
    for block in blocks:
        parts.append(f"<h2>{escape(block['title'])}</h2>")
        if block.get("note"):
            parts.append(f'<p class="note">{escape(block["note"])}</p>')
        if block.get("matches"):
            rows = "".join(f"<tr><td>{escape(m['match'])}</td><td>{m['home']}</td><td>{m['away']}</td>"
                           f"<td>{m['imps_home']} - {m['imps_away']}</td><td>{_vps(m)}</td></tr>"
                           for m in block["matches"])
            parts.append(f"<table><tr><th>match</th><th>home</th><th>away</th><th>IMPs</th><th>VPs</th></tr>{rows}</table>")
        head = "".join(f"<th>{escape(c)}</th>" for c in block["columns"])
        rows = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in block["rows"])
        parts.append(f"<table><tr>{head}</tr>{rows}</table>")
    return page(f"{title} - results", "".join(parts))


def _vps(m: dict[str, Any]) -> str:
    return "" if m["vp_home"] is None else f"{m['vp_home']:.2f} - {m['vp_away']:.2f}"


def table_cards_html(title: str, cards: Sequence[dict[str, Any]]) -> str:
    import segno

    parts = []
    for card in cards:
        rows = "".join(f"<tr><td>{r['round']}</td><td><b>{escape(r['ns'])}</b> {escape(r['ns_name'])}</td>"
                       f"<td><b>{escape(r['ew'])}</b> {escape(r['ew_name'])}</td><td>{escape(r['boards'])}</td>"
                       f"<td>{escape(r['next'])}</td></tr>"
                       for r in card["rounds"])
        qr = segno.make(card["url"], error="m").svg_inline(scale=4)
        parts.append(f'<div class="card"><h2>session {escape(card["session"])} - table {escape(card["table"])}</h2>'
                     f"<table><tr><th>round</th><th>North-South</th><th>East-West</th><th>boards</th><th>then</th></tr>{rows}</table>"
                     f'{qr}<div class="note">Scan to open the table: {escape(card["url"])}</div></div>')
    return page(f"{title} - table cards", "".join(parts))
