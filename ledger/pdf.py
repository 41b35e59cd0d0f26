"""PDF alongside the HTML (issue 25): the case file and the casebook, with reportlab
(a pure-Python wheel: no system library, no browser).

Suit symbols are drawn in the PDF standard font ZapfDingbats (every PDF reader has
it: ♠ ♥ ♦ ♣ are its codes 0xAB, 0xAA, 0xA9, 0xA8), hearts and diamonds in red; the
text is Helvetica (Latin-1). What the PDF shows is the same case dict the HTML renders;
``check-proof`` checks the HTML or JSON (the PDF carries no proof block).
"""

from __future__ import annotations

import html
import io
import re
from typing import AbstractSet, Any

_SUIT = {"S": ("\u2660", "#000000"), "H": ("\u2665", "#bb0000"), "D": ("\u2666", "#bb0000"),
         "C": ("\u2663", "#000000")}


def _x(value: Any) -> str:
    """Text for a reportlab paragraph: escaped, and outside Latin-1 replaced (Helvetica)."""
    text = html.escape("" if value is None else str(value))
    text = text.replace("’", "'").replace("“", '"').replace("”", '"').replace("—", "-").replace("–", "-")
    text = text.replace("‼", "!!").replace("‡", "(rr)").replace("×", "x")
    return text.encode("latin-1", "replace").decode("latin-1")


def suit(letter: str) -> str:
    symbol, colour = _SUIT[letter]
    return f'<font name="ZapfDingbats" color="{colour}">{symbol}</font>'


def card(text: str) -> str:
    """``H7`` as ♥7 (the suit in ZapfDingbats)."""
    return suit(text[0]) + _x("10" if text[1:] == "T" else text[1:]) if text[:1] in _SUIT else _x(text)


def call(text: str) -> str:
    m = re.fullmatch(r"([1-7])([SHDC])(X{0,2})", text)
    return f"{m.group(1)}{suit(m.group(2))}{m.group(3)}" if m else _x(text)


def _styles() -> Any:
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet

    base = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("t", parent=base["Title"], fontSize=15, spaceAfter=4),
        "h2": ParagraphStyle("h", parent=base["Heading2"], fontSize=11.5, spaceBefore=8, spaceAfter=3),
        "body": ParagraphStyle("b", parent=base["BodyText"], fontSize=9, leading=11.5),
        "small": ParagraphStyle("s", parent=base["BodyText"], fontSize=7.5, leading=9.5,
                                textColor="#444444"),
    }


def _table(rows: list[list[str]], st: Any, widths: list[float] | None = None, marked: AbstractSet[tuple[int, int]] = frozenset()) -> Any:
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    data = [[Paragraph(cell, st["small"]) for cell in row] for row in rows]
    table = Table(data, colWidths=widths, repeatRows=1)
    style = [("GRID", (0, 0), (-1, -1), 0.4, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke),
             ("VALIGN", (0, 0), (-1, -1), "TOP")]
    style += [("BACKGROUND", (c, r), (c, r), colors.HexColor("#fde2e2")) for r, c in marked]
    style += [("BOX", (c, r), (c, r), 1.5, colors.HexColor("#bb0000")) for r, c in marked]
    table.setStyle(TableStyle(style))
    return table


def _hand(deal: Any, seat: Any) -> str:
    from ledger.bridge import SUITS

    lines = []
    for s in SUITS:
        ranks = [c.rank for c in sorted(deal.hand(seat), key=lambda c: -c.strength) if c.suit is s]
        lines.append(suit(s.value) + " " + _x(" ".join("10" if r == "T" else r for r in ranks) or "-"))
    return "<br/>".join(lines)


def casefile_flowables(case: dict[str, Any], st: Any) -> list[Any]:
    """The case file's sections as reportlab flowables."""
    from reportlab.platypus import Paragraph

    from ledger.bridge import SEATS, Deal

    b = case["board"]
    out: list[Any] = [Paragraph(_x(f"Case file: {b['tournament']}, board {b['number']}, table {b['table']}"), st["title"]),
                      Paragraph(_x(f"Stream {case['stream']} · Laws {case['laws']} · NS {b.get('ns') or '-'} · "
                                   f"EW {b.get('ew') or '-'} · scoring {b.get('scoring')}"), st["small"])]
    deal = Deal.parse(b["deal"])
    n, e, s, w = (_hand(deal, seat) for seat in SEATS)
    centre = _x(f"Board {b['number']}, dealer {b['dealer']}, vul {b['vulnerability']}")
    out += [Paragraph("The deal", st["h2"]),
            _table([["", "North<br/>" + n, ""], ["West<br/>" + w, centre, "East<br/>" + e], ["", "South<br/>" + s, ""]],
                   st, [120, 120, 120])]
    order = ["W", "N", "E", "S"]
    cells = [""] * order.index(b["dealer"]) + [call(a["call"]) for a in case["auction"]]
    rows = [cells[i:i + 4] + [""] * (4 - len(cells[i:i + 4])) for i in range(0, len(cells), 4)]
    contract = case["contract"]
    out += [Paragraph("The auction", st["h2"]), _table([order] + rows, st, [60] * 4),
            Paragraph("Contract: " + (call(f"{contract['level']}{contract['strain']}") + _x(
                f"{contract['risk']} by {contract['declarer']}") if contract else "none"), st["body"])]
    marks = case.get("irregular_cards") or {}
    trick_rows, marked = [["#", "led by", "cards", "", "", "", "won by"]], set()
    for t in case["tricks"]:
        row = [str(t["number"]), _x(t["leader"])]
        for i, c in enumerate(t["cards"]):
            text = f"{_x(c['seat'])} {card(c['card'])}"
            if str(c.get("seq")) in marks:
                text += f" <b>!! {_x(marks[str(c['seq'])])}</b>"
                marked.add((len(trick_rows), 2 + i))
            row.append(text)
        row += [""] * (4 - len(t["cards"])) + [_x(t["winner"] or "")]
        trick_rows.append(row)
    out += [Paragraph("The play", st["h2"]),
            _table(trick_rows, st, [22, 40, 90, 90, 90, 90, 40], marked) if case["tricks"]
            else Paragraph("No card played.", st["body"])]
    result = case["result"]
    out += [Paragraph("Result", st["h2"]),
            Paragraph(_x(f"{result['text']}, NS {result['score_ns']:+d}" if result else "no result yet"), st["body"])]
    form = case.get("appeal_form")
    out.append(Paragraph("The director's ruling and the appeal", st["h2"]))
    if form:
        for r in form["director_rulings"]:
            out.append(Paragraph(_x(f"Ruling (seq {r['seq']}, {r['by']}): {r['text']} [{', '.join(r['laws'])}]"), st["body"]))
        for f in form["facts_found"]:
            out.append(Paragraph(_x(f"Fact found (seq {f['seq']}): {f['text']}"), st["body"]))
        for a in form["appellants"]:
            out.append(Paragraph(_x(f"Appeal by {a['side']} (seq {a['seq']}): {a['statement']}"), st["body"]))
        out.append(Paragraph(_x("Committee: " + (", ".join(form["committee_members"]) or "not recorded")), st["body"]))
        for d in form["decision"]:
            out.append(Paragraph(f"<b>{_x(d['decision'])}</b> " + _x(f"(seq {d['seq']}): {d['reasons']}"), st["body"]))
    else:
        out.append(Paragraph("No appeal lodged.", st["body"]))
    for o in case.get("option_status") or []:
        if o["status"] == "cancelled":
            out.append(Paragraph(_x(f"Option offered at seq {o['seq']}: cancelled: {o['reason']}"), st["body"]))
    out.append(Paragraph("The Laws cited, in our words", st["h2"]))
    out += [Paragraph(f"<b>{_x(w['law'])}</b> " + _x(w["text"]), st["small"]) for w in case.get("laws_in_words") or []]
    if case.get("earlier"):
        out.append(Paragraph("Earlier decisions on these Laws", st["h2"]))
        out += [Paragraph(_x(f"{x['decided_at'][:10]} {x['tournament']}, board {x['board']}: {x['decision']}: "
                             f"{x['reasons']} [{', '.join(x['laws'])}]"), st["small"]) for x in case["earlier"]]
    out.append(Paragraph("Timeline of the board", st["h2"]))
    out.append(_table([["time (UTC)", "seq", "who", "what", "Law"]] + [
        [_x(t["at"][11:19]), _x(f"{t['seq']}" + (f"-{t['to_seq']}" if t["to_seq"] != t["seq"] else "")),
         _x(t["who"]), _x(t["what"]), _x(t["law"] or "")] for t in case.get("timeline") or []],
        st, [48, 40, 90, 250, 55]))
    integrity = case["integrity"]
    out += [Paragraph("Integrity", st["h2"]),
            Paragraph(_x(f"Head of the chain (seq {integrity['last_seq']}): {integrity['head']} - "
                         f"{'verified' if integrity['verified'] else 'NOT VERIFIED'}. The HTML or JSON case file "
                         "carries the proof: check-proof checks those, not this PDF."), st["small"])]
    return out


def _build(flowables: list[Any], title: str) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, title=title, leftMargin=40, rightMargin=40,
                            topMargin=40, bottomMargin=40, invariant=True)
    doc.build(flowables)
    return buffer.getvalue()


def casefile_pdf(case: dict[str, Any]) -> bytes:
    """The case file as a PDF."""
    return _build(casefile_flowables(case, _styles()), f"Case file {case['stream']}")


def casebook_pdf(entries: list[dict[str, Any]], title: str) -> bytes:
    """The casebook: each appeal with its facts, ruling, decision and the federation's comment."""
    from reportlab.platypus import PageBreak, Paragraph

    st = _styles()
    out: list[Any] = [Paragraph(_x(title), st["title"]),
                      Paragraph(_x(f"{len(entries)} appeal(s)."), st["small"])]
    for i, e in enumerate(entries, start=1):
        if i > 1:
            out.append(PageBreak())
        out.append(Paragraph(_x(f"Case {i}: {e['tournament']}, board {e['board']}, table {e['table']}"), st["h2"]))
        out.append(Paragraph(_x(f"Laws {', '.join(e['laws'])} · lodged {e['lodged_at'][:10]} · "
                                f"decided {e['decided_at'][:10] or 'not yet'}"), st["small"]))
        out.append(Paragraph("<b>Facts.</b> " + _x("; ".join(e["facts"]) or "none recorded"), st["body"]))
        out.append(Paragraph("<b>The director's ruling.</b> " + _x(e["ruling"]), st["body"]))
        for a in e["appellants"]:
            out.append(Paragraph(f"<b>Appeal by {_x(a['side'])}.</b> " + _x(a["statement"]), st["body"]))
        out.append(Paragraph(f"<b>Decision: {_x(e['decision'])}.</b> " + _x(e["reasons"]), st["body"]))
        out.append(Paragraph(_x(f"Committee: {', '.join(e['members']) or 'not recorded'} · deposit {e['deposit']}"),
                             st["small"]))
        out.append(Paragraph("<b>Comment.</b> " + _x(e.get("comment") or "(no comment yet)"), st["body"]))
    return _build(out, title)
