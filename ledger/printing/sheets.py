"""What each printed sheet shows, as plain data (no layout): see :mod:`ledger.printing`."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ledger.bridge import Seat
from ledger.bridge import SUIT_LETTERS
from ledger.register import Register
from projections.state import TableState

SUITS = SUIT_LETTERS
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
VULNERABILITY_WORDS = {"None": "none", "NS": "N-S", "EW": "E-W", "All": "all", "Both": "all"}


def holdings(deal: Any, seat: Seat) -> dict[str, str]:
    """A hand as its four suits' ranks, spades first (``T`` for the ten)."""
    pbn = deal.to_pbn(seat).split(":", 1)[1].split()[0]
    return {suit: ranks for suit, ranks in zip(SUITS, pbn.split("."))}


def hand_records(tables: Iterable[tuple[str, TableState]], *, analysis: bool = True) -> list[dict[str, Any]]:
    """One record per board (per session): number, dealer, vulnerability, the four hands, and
    with the ``analysis`` extra (endplay) the double-dummy table and the par."""
    seen: dict[tuple[str | None, int], dict[str, Any]] = {}
    for _, state in tables:
        b = state.board
        key = (b.session, b.board)
        if key in seen:
            continue
        record: dict[str, Any] = {
            "session": b.session, "board": b.board, "dealer": str(b.dealer),
            "vulnerability": VULNERABILITY_WORDS.get(str(b.vulnerability), str(b.vulnerability)),
            "hands": {str(seat): holdings(b.deal, seat) for seat in (Seat.N, Seat.E, Seat.S, Seat.W)},
            "dd": None, "par": None,
        }
        if analysis:
            record["dd"], record["par"] = double_dummy(b)
        seen[key] = record
    return [seen[k] for k in sorted(seen, key=lambda k: (str(k[0] or ""), k[1]))]


def double_dummy(board: Any) -> tuple[dict[str, dict[str, int]] | None, str | None]:
    """The double-dummy table ({strain: {seat: tricks}}) and the par, or (None, None) without
    the ``analysis`` extra."""
    try:
        from ledger.analysis import AnalysisUnavailable, dd_table
    except ImportError:  # pragma: no cover - the module is ours
        return None, None
    try:
        table = dd_table(board.deal)
    except AnalysisUnavailable:
        return None, None
    return table, par_text(board)


def par_text(board: Any) -> str | None:
    """The par contract(s) and score (endplay's par), or None."""
    try:
        from endplay import dds, types
    except ImportError:
        return None
    try:
        deal = types.Deal(board.deal.to_pbn())
        vul = {"None": types.Vul.none, "NS": types.Vul.ns, "EW": types.Vul.ew,
               "All": types.Vul.both}.get(str(board.vulnerability), types.Vul.none)
        dealer = types.Player.find(str(board.dealer).lower())
        par = dds.par(deal, vul, dealer)
        contracts = ", ".join(str(c) for c in par)
        return f"{contracts} ({par.score:+d} NS)" if contracts else f"{par.score:+d} NS"
    except Exception:  # endplay's API differs between versions: no par rather than a failed print
        return None


def travellers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The travellers of the results document: per board, its rows with names and the
    adjusted scores marked and spelled out."""
    out = []
    imp = doc["scoring"] != "MP"
    for board in doc["boards"]:
        rows, notes = [], []
        for r in board["results"]:
            mark = ""
            if r.get("adjusted"):
                why = f": {r['adjusted']['text']}" if r["adjusted"].get("text") else ""
                notes.append(f"table {r['table']}: {adjusted_words(r['adjusted'])}{why}")
                mark = f"adj.{len(notes)}"
            if r.get("withdrawn"):
                contract = f"withdrawn ({r['withdrawn']['law']})"
                notes.append(f"table {r['table']}: withdrawn, {r['withdrawn']['law']}: {r['withdrawn']['reason']}")
            elif r["contract"] is None:
                contract = "" if r.get("adjusted") else f"({r.get('status') or 'not played'})"
            elif r["contract"] == "Pass":
                contract = "Pass"
            else:
                contract = f"{r['contract']}{r.get('risk') or ''} {r.get('declarer') or ''}".strip()
            rows.append({
                "table": r["table"] + (f" {r['room']}" if r.get("room") else ""),
                "ns": r.get("ns") or "", "ew": r.get("ew") or "",
                "ns_players": _players(r, "ns"), "ew_players": _players(r, "ew"),
                "contract": contract, "mark": mark,
                "tricks": "" if r.get("tricks") is None else str(r["tricks"]),
                "score": "" if r.get("score_ns") is None else f"{r['score_ns']:+d}" if r["score_ns"] else "0",
                "left": _number(r.get("imp_ns") if imp else r.get("mp_ns")),
                "right": _number(r.get("imp_ew") if imp else r.get("mp_ew")),
            })
        out.append({"session": board.get("session"), "board": board["board"], "rows": rows, "notes": notes,
                    "columns": ("IMP NS", "IMP EW") if imp else ("MP NS", "MP EW")})
    return out


def _players(r: dict[str, Any], side: str) -> str:
    players = r.get(f"{side}_players") or []
    subs = set(r.get(f"{side}_substitutes") or ())
    return " - ".join(p + (" (substitute)" if p in subs else "") for p in players)


def _number(value: Any) -> str:
    if value is None:
        return ""
    value = round(float(value), 2)
    return str(int(value)) if value == int(value) else f"{value:.2f}"


def adjusted_words(adjusted: dict[str, Any]) -> str:
    """An adjusted score in words, with its Law."""
    kind = adjusted.get("kind")
    law = adjusted.get("law") or ""
    if kind == "artificial":
        what = f"artificial: NS {adjusted.get('ns')}, EW {adjusted.get('ew')}"
    else:
        parts = []
        for res in adjusted.get("results") or ():
            bit = "Pass" if res.get("contract") == "Pass" else \
                f"{res.get('contract')}{res.get('risk') or ''} by {res.get('declarer')}, {res.get('tricks')} tricks"
            if res.get("weight") is not None:
                bit = f"{res['weight']} of {bit}"
            if res.get("side") not in (None, "both"):
                bit = f"{res['side']}: {bit}"
            parts.append(bit)
        what = f"{kind}: " + "; ".join(parts)
    return f"{what} ({law})" if law else what


def rankings(doc: dict[str, Any], digests: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Each session's ranking (split NS / EW for a Mitchell), then the event's overall; a
    session's first block carries its digest (``note``) when ``digests`` has it."""
    out = []
    sessions = doc.get("sessions") or []
    for s in sessions:
        title = f"session {s['session']}" if s.get("session") else "ranking"
        blocks = _ranking_blocks(title, s["standings"], s["scoring"], s.get("matches"))
        digest = (digests or {}).get(s.get("session") or "")
        if digest and blocks:
            blocks[0]["note"] = f"Session digest {digest} (cli.py session-digest --check)"
        out += blocks
    if len(sessions) > 1:
        out += _ranking_blocks("overall", doc["standings"], doc["scoring"], None)
    return out


def _ranking_blocks(title: str, rows: Sequence[dict[str, Any]], scoring: str,
                    matches: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    blocks = []
    names = {str(r["name"]): str(r["players"]) for r in rows if r.get("players")}
    matches = [dict(m, home=_named(m["home"], names), away=_named(m["away"], names)) for m in matches or ()]
    directions: list[str | None] = [d for d in ("NS", "EW") if any(r.get("direction") == d for r in rows)] or [None]
    for direction in directions:
        chosen = [r for r in rows if direction is None or r.get("direction") == direction]
        vp = bool(chosen) and all("vp" in r for r in chosen)
        columns = ["rank", "team" if scoring != "MP" else "pair", "name" if vp else "players"]
        columns += ["VPs"] if vp else (["boards", "IMPs"] if scoring != "MP" else ["boards", "MPs", "%"])
        body = []
        for r in chosen:
            cells = [f"{r['rank']}{'=' if r.get('tied') else ''}", r["name"], r.get("players") or ""]
            if vp:
                cells.append(f"{r['vp']:.2f}")
            else:
                cells += [str(r.get("boards", "")), _number(r.get("score"))]
                if scoring == "MP":
                    cells.append("" if r.get("pct") is None else f"{r['pct']:.2f}")
            body.append(cells)
        blocks.append({"title": title + (f" - {direction}" if direction else ""), "columns": columns, "rows": body,
                       "matches": matches if direction in (None, "NS") else []})
    return blocks


def _next_tables(movement: Sequence[dict[str, Any]], seat: dict[str, Any]) -> str:
    """Where this round's two pairs sit next round ("NS stay, EW to table 2")."""
    later = [m for m in movement if m["round"] == seat["round"] + 1]
    if not later:
        return "last round"
    where = []
    for side in ("ns", "ew"):
        nxt = next((m for m in later if seat[side] in (m["ns"], m["ew"])), None)
        if nxt is None:
            where.append(f"{side.upper()} sit out")
        elif nxt["table"] == seat["table"]:
            where.append(f"{side.upper()} stay")
        else:
            where.append(f"{side.upper()} to table {nxt['table']}")
    return ", ".join(where)


def _named(entry: str, names: dict[str, str]) -> str:
    return f"{entry} {names[entry]}" if names.get(entry) else entry


def table_cards(register: Register, session: str, *, urls: dict[str, str] | None = None,
                tournament: str = "") -> list[dict[str, Any]]:
    """One card per table of ``session``: each round's pairs (numbers and names) and boards, and
    the URL its QR code carries (the table's URL from ``session open --json``, else the
    table's identity as text)."""
    info = register.sessions.get(session)
    if info is None or not info.movement:
        return []
    tables: dict[str, list[dict[str, Any]]] = {}
    for seat in info.movement:
        tables.setdefault(seat["table"], []).append(seat)
    cards = []
    for table in sorted(tables, key=lambda t: (len(t), t)):
        rounds = [{"round": s["round"], "ns": s["ns"], "ew": s["ew"],
                   "ns_name": register.entry_name(s["ns"]) or "", "ew_name": register.entry_name(s["ew"]) or "",
                   "boards": ", ".join(str(b) for b in s["boards"]),
                   "next": _next_tables(info.movement, s)}
                  for s in sorted(tables[table], key=lambda s: s["round"])]
        url = (urls or {}).get(table)
        cards.append({"table": table, "session": session, "rounds": rounds,
                      "url": url or f"{tournament} session {session} table {table}", "link": url is not None})
    return cards
