"""The printed sheets as PDF, with reportlab (the ``print`` extra): A4, platypus flowables.

Suit symbols are set in ZapfDingbats (a standard PDF font: nothing embedded, read back as
♠ ♥ ♦ ♣ by text extractors), hearts and diamonds in red; names in Helvetica (Latin-1).
"""

from __future__ import annotations

from io import BytesIO
from typing import Any, Sequence
from xml.sax.saxutils import escape

from ledger.printing.sheets import SUITS, SYMBOLS

RED = "#c0142b"


def _lib():
    try:
        from reportlab.lib import colors
        from reportlab.lib.pagesizes import A4
        from reportlab.lib.styles import getSampleStyleSheet
        from reportlab.lib.units import mm
        from reportlab import platypus
    except ImportError as exc:  # pragma: no cover - the extra is in the test install
        from ledger.errors import LedgerError

        raise LedgerError("printing PDF needs reportlab: pip install 'bridge-ruling-ledger[print]'") from exc
    return colors, A4, getSampleStyleSheet, mm, platypus


def suit_markup(suit: str) -> str:
    colour = f' color="{RED}"' if suit in ("H", "D") else ""
    return f'<font name="ZapfDingbats"{colour}>{SYMBOLS[suit]}</font>'


def _holding(ranks: str) -> str:
    return escape(ranks.replace("T", "10")) if ranks else "\u2014"


def _hand_markup(hand: dict[str, str]) -> str:
    return "<br/>".join(f"{suit_markup(s)} {_holding(hand[s])}" for s in SUITS)


class _Builder:
    def __init__(self, title: str) -> None:
        colors, a4, styles, mm, platypus = _lib()
        self.colors, self.mm, self.pl = colors, mm, platypus
        self.styles = styles()
        self.title = title
        self.story: list[Any] = []
        self.buffer = BytesIO()
        self.doc = platypus.SimpleDocTemplate(self.buffer, pagesize=a4, title=title, author="bridge ruling ledger",
                                              leftMargin=14 * mm, rightMargin=14 * mm, topMargin=14 * mm,
                                              bottomMargin=14 * mm)
        self.small = self.styles["BodyText"].clone("small", fontSize=8.5, leading=10.5)
        self.hand = self.styles["BodyText"].clone("hand", fontSize=10, leading=12.5)

    def p(self, text: str, style: str = "BodyText") -> Any:
        return self.pl.Paragraph(text, self.styles[style] if isinstance(style, str) else style)

    def heading(self, text: str, level: int = 1) -> None:
        self.story.append(self.p(escape(text), "Heading1" if level == 1 else "Heading3"))

    def table(self, rows: Sequence[Sequence[Any]], widths: Sequence[float] | None = None, header: bool = True) -> Any:
        t = self.pl.Table([list(r) for r in rows], colWidths=widths, repeatRows=1 if header else 0)
        style = [("FONT", (0, 0), (-1, -1), "Helvetica", 8.5), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                 ("GRID", (0, 0), (-1, -1), 0.4, self.colors.grey)]
        if header:
            style += [("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8.5),
                      ("BACKGROUND", (0, 0), (-1, 0), self.colors.HexColor("#e8e8e8"))]
        t.setStyle(self.pl.TableStyle(style))
        return t

    def build(self) -> bytes:
        def footer(canvas, doc):
            canvas.saveState()
            canvas.setFont("Helvetica", 7.5)
            canvas.drawString(14 * self.mm, 8 * self.mm, f"{self.title} - page {doc.page}")
            canvas.restoreState()

        self.doc.build(self.story or [self.p("(nothing to print)")], onFirstPage=footer, onLaterPages=footer)
        return self.buffer.getvalue()


def _compass(b: _Builder, record: dict[str, Any]) -> Any:
    """A board's diagram: North above, West and East at the sides, South below, the board's
    number, dealer and vulnerability in the corner; the double-dummy table under it."""
    mm = b.mm
    hands = {seat: b.p(_hand_markup(record["hands"][seat]), b.hand) for seat in "NESW"}
    info = b.p(f"<b>Board {record['board']}</b><br/>Dealer {record['dealer']}<br/>Vul. {record['vulnerability']}",
               b.small)
    centre = b.pl.Table([["N"], ["W      E"], ["S"]], colWidths=[18 * mm], rowHeights=[5 * mm] * 3)
    centre.setStyle(b.pl.TableStyle([("ALIGN", (0, 0), (-1, -1), "CENTER"), ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
                                     ("BOX", (0, 0), (-1, -1), 0.6, b.colors.black)]))
    grid = b.pl.Table([[info, hands["N"], ""], [hands["W"], centre, hands["E"]], ["", hands["S"], ""]],
                      colWidths=[28 * mm, 26 * mm, 28 * mm])
    grid.setStyle(b.pl.TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (-1, -1), 2)]))
    parts: list[Any] = [grid]
    if record.get("dd"):
        dd = record["dd"]
        head = [""] + [b.p(suit_markup(s), b.small) if s != "NT" else "NT" for s in ("C", "D", "H", "S", "NT")]
        rows = [head] + [[seat] + [str(dd[s][seat]) for s in ("C", "D", "H", "S", "NT")] for seat in "NSEW"]
        parts.append(b.table(rows, [8 * mm] * 6))
        if record.get("par"):
            parts.append(b.p(f"Par: {escape(record['par'])}", b.small))
    box = b.pl.Table([[p] for p in parts], colWidths=[86 * mm])
    box.setStyle(b.pl.TableStyle([("BOX", (0, 0), (-1, -1), 0.6, b.colors.grey)]))
    return box


def hand_records_pdf(title: str, records: Sequence[dict[str, Any]]) -> bytes:
    b = _Builder(title)
    b.heading(f"{title} - hand records")
    cells = [_compass(b, r) for r in records]
    rows = [cells[i:i + 2] + [""] * (2 - len(cells[i:i + 2])) for i in range(0, len(cells), 2)]
    if rows:
        grid = b.pl.Table(rows, colWidths=[91 * b.mm, 91 * b.mm])
        grid.setStyle(b.pl.TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]))
        b.story.append(grid)
    return b.build()


def travellers_pdf(title: str, boards: Sequence[dict[str, Any]]) -> bytes:
    b = _Builder(title)
    b.heading(f"{title} - travellers")
    mm = b.mm
    for board in boards:
        where = f"session {board['session']}, " if board.get("session") else ""
        start = len(b.story)
        b.heading(f"{where}board {board['board']}", 2)
        rows: list[list[Any]] = [["table", "NS", "EW", "contract", "tricks", "score NS", *board["columns"]]]
        for r in board["rows"]:
            ns = b.p(f"<b>{escape(r['ns'])}</b> {escape(r['ns_players'])}", b.small)
            ew = b.p(f"<b>{escape(r['ew'])}</b> {escape(r['ew_players'])}", b.small)
            contract = escape(r["contract"]) + (f" <b>{r['mark']}</b>" if r["mark"] else "")
            rows.append([r["table"], ns, ew, b.p(contract, b.small), r["tricks"], r["score"], r["left"], r["right"]])
        b.story.append(b.table(rows, [13 * mm, 42 * mm, 42 * mm, 26 * mm, 12 * mm, 16 * mm, 13 * mm, 13 * mm]))
        for i, note in enumerate(board["notes"], start=1):
            b.story.append(b.p(f"<b>{'adj.' if 'withdrawn' not in note else ''}{i if 'withdrawn' not in note else ''}"
                               f"</b> {escape(note)}", b.small))
        b.story[start:] = [b.pl.KeepTogether(b.story[start:])]  # a board's heading, table and notes on one page
    return b.build()


def ranking_pdf(title: str, blocks: Sequence[dict[str, Any]]) -> bytes:
    b = _Builder(title)
    b.heading(f"{title} - results")
    mm = b.mm
    for block in blocks:
        b.heading(block["title"], 2)
        if block.get("note"):
            b.story.append(b.p(escape(block["note"]), b.small))
        if block.get("matches"):
            rows = [["match", "home", "away", "IMPs", "VPs"]]
            rows += [[m["match"], m["home"], m["away"], f"{_n(m['imps_home'])} - {_n(m['imps_away'])}",
                      "" if m["vp_home"] is None else f"{m['vp_home']:.2f} - {m['vp_away']:.2f}"]
                     for m in block["matches"]]
            b.story.append(b.table(rows, [40 * mm, 18 * mm, 18 * mm, 30 * mm, 30 * mm]))
            b.story.append(b.pl.Spacer(1, 4 * mm))
        widths = [12 * mm, 14 * mm, 90 * mm] + [20 * mm] * (len(block["columns"]) - 3)
        rows = [block["columns"]] + [[c if i != 2 else b.p(escape(c), b.small) for i, c in enumerate(r)]
                                     for r in block["rows"]]
        b.story.append(b.table(rows, widths))
    return b.build()


def _n(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.2f}"


class _QR:
    """A QR code drawn as vector squares from segno's matrix (sharp at any size)."""

    def __init__(self, url: str, size: float) -> None:
        import segno

        self.matrix = [list(row) for row in segno.make(url, error="m").matrix]
        self.size = size

    def flowable(self, platypus: Any) -> Any:
        matrix, size = self.matrix, self.size

        class QR(platypus.Flowable):
            def wrap(self, *_: Any) -> tuple[float, float]:
                return size, size

            def draw(self) -> None:
                n = len(matrix)
                cell = size / (n + 8)
                c = self.canv
                c.setFillColorRGB(0, 0, 0)
                for y, row in enumerate(matrix):
                    for x, dark in enumerate(row):
                        if dark:
                            c.rect((x + 4) * cell, size - (y + 5) * cell, cell, cell, stroke=0, fill=1)

        return QR()


def table_cards_pdf(title: str, cards: Sequence[dict[str, Any]]) -> bytes:
    b = _Builder(title)
    mm = b.mm
    for i, card in enumerate(cards):
        if i:
            b.story.append(b.pl.PageBreak())
        b.heading(f"{title} - session {card['session']} - table {card['table']}")
        rows = [["round", "North-South", "East-West", "boards", "then"]]
        rows += [[str(r["round"]), b.p(f"<b>{escape(r['ns'])}</b> {escape(r['ns_name'])}", b.small),
                  b.p(f"<b>{escape(r['ew'])}</b> {escape(r['ew_name'])}", b.small), r["boards"],
                  b.p(escape(r["next"]), b.small)]
                 for r in card["rounds"]]
        b.story.append(b.table(rows, [14 * mm, 56 * mm, 56 * mm, 18 * mm, 38 * mm]))
        b.story.append(b.pl.Spacer(1, 8 * mm))
        b.story.append(_QR(card["url"], 45 * mm).flowable(b.pl))
        words = "Scan to open the table" if card["link"] else "The table (no live URL given)"
        b.story.append(b.p(f"{words}: {escape(card['url'])}", b.small))
    return b.build()
