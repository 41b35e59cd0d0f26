"""What a director prints (issue 24): hand records, travellers, ranking sheets, table cards.

:mod:`ledger.printing.sheets` gathers what each sheet shows (a pure function of the boards,
the event's results document and the register); :mod:`ledger.printing.pdf` lays it out as
PDF with reportlab, :mod:`ledger.printing.html` as print-ready HTML. Suit symbols in the PDF
are the ZapfDingbats glyphs (one of the fourteen fonts every PDF reader has: nothing to
embed, and a text extractor reads them back as ♠ ♥ ♦ ♣).
"""

KINDS = ("handrecords", "travellers", "ranking", "tablecards")
"""The sheets ``cli.py print`` makes."""
