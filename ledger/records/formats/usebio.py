"""USEBIO 1.2 (the EBU's results interchange, usebio.org): a tournament's results
written (``cli.py export-results T --format usebio``) and read back
(``cli.py import results.xml``), checked by the ledger's own scorer.

The DTD (``usebio_v1_2.dtd``) could not be obtained here, so what is written is
checked by :func:`validate`, structural checks written from the element names and
nesting that published USEBIO 1.2 files and their readers use (``USEBIO Version``,
``EVENT EVENT_TYPE``, ``PARTICIPANTS/PAIR|TEAM``, ``BOARD/TRAVELLER_LINE``,
``MATCH``, ``HANDSET/BOARD/HAND``), not against the DTD itself
(docs/federation.md says which elements are our reading).

Layout written::

    USEBIO Version="1.2"
      EVENT EVENT_TYPE="MP_PAIRS" | "TEAMS_OF_FOUR"
        EVENT_DESCRIPTION, PROGRAM_NAME, WINNER_TYPE (1 one field, 2 NS and EW), BOARD_SCORING_METHOD
        PARTICIPANTS
          PAIR: PAIR_NUMBER, DIRECTION (two fields), PLACE, TOTAL_SCORE, PERCENTAGE, PLAYER/PLAYER_NAME...
          TEAM: TEAM_NUMBER, TEAM_NAME, PLACE, TOTAL_SCORE (IMPs)
        BOARD (pairs): BOARD_NUMBER, TRAVELLER_LINE*:
          NS_PAIR_NUMBER, EW_PAIR_NUMBER, CONTRACT, PLAYED_BY, LEAD, TRICKS, SCORE (NS, or
          ``A+/A-`` for an artificial score), NS_MATCH_POINTS, EW_MATCH_POINTS
        MATCH (teams): TEAM_NUMBER, OPPOSING_TEAM_NUMBER, TEAM_SCORE, OPPOSING_TEAM_SCORE,
          BOARD: BOARD_NUMBER, TRAVELLER_LINE* (the open room first; NS_PAIR_NUMBER and
          EW_PAIR_NUMBER are the teams' numbers)
      HANDSET: BOARD: BOARD_NUMBER, DEALER, VULNERABILITY, HAND*: DIRECTION, SPADES, HEARTS,
        DIAMONDS, CLUBS
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import attrs

from ledger.bridge import SEATS, SUITS, Deal
from ledger.errors import BadInput
from ledger.records.formats.results_out import TournamentOut, artificial

VERSION = "1.2"
DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">'
EVENT_TYPES = ("MP_PAIRS", "TEAMS_OF_FOUR")
_CONTRACT = re.compile(r"^(?:PASS|[1-7](?:NT|[SHDC])X{0,2})$")
_ARTIFICIAL = re.compile(r"^(A[+-]?)/(A[+-]?)$")
_SUIT_TAGS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")


def _sub(parent: ET.Element, tag: str, text: Any = None, **attrib: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrib)
    if text is not None:
        el.text = str(text)
    return el


def _fig(value: float | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def _played(row: dict[str, Any]) -> bool:
    """A row with a result to write: a contract (or a pass-out) or an artificial score. A
    table that has not played the board (or is still playing it) has no traveller line."""
    return bool(row.get("contract")) or artificial(row) is not None


def _line(parent: ET.Element, row: dict[str, Any], ns: int, ew: int, pairs: bool) -> None:
    line = _sub(parent, "TRAVELLER_LINE")
    _sub(line, "NS_PAIR_NUMBER", ns)
    _sub(line, "EW_PAIR_NUMBER", ew)
    art = artificial(row)
    if art is not None:
        _sub(line, "SCORE", f"{art[0]}/{art[1]}")
    elif row.get("contract") == "Pass":
        _sub(line, "CONTRACT", "PASS")
        _sub(line, "SCORE", 0)
    elif row.get("contract"):
        _sub(line, "CONTRACT", f"{row['contract']}{row.get('risk') or ''}")
        _sub(line, "PLAYED_BY", row["declarer"])
        if row.get("lead"):
            _sub(line, "LEAD", row["lead"])
        _sub(line, "TRICKS", row["tricks"])
        _sub(line, "SCORE", row["score_ns"])
    if pairs:
        for tag, key in (("NS_MATCH_POINTS", "mp_ns"), ("EW_MATCH_POINTS", "mp_ew")):
            if row.get(key) is not None:
                _sub(line, tag, _fig(row[key]))


def write_usebio(out: TournamentOut) -> str:
    """The USEBIO 1.2 file of a tournament (see the module)."""
    root = ET.Element("USEBIO", {"Version": VERSION})
    event = _sub(root, "EVENT", EVENT_TYPE=EVENT_TYPES[1] if out.teams else EVENT_TYPES[0])
    _sub(event, "EVENT_DESCRIPTION", out.name)
    _sub(event, "PROGRAM_NAME", "bridge ruling ledger")
    two_fields = any("direction" in e for e in out.standings)
    _sub(event, "WINNER_TYPE", 2 if two_fields else 1)
    _sub(event, "BOARD_SCORING_METHOD", "IMPS" if out.teams else "MATCH_POINTS")
    _write_participants(_sub(event, "PARTICIPANTS"), out)
    if out.teams:
        _write_matches(event, out)
    else:
        _write_pair_boards(event, out)
    _write_handset(_sub(root, "HANDSET"), out)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + "\n" + ET.tostring(root, encoding="unicode") + "\n"


def _write_participants(participants: ET.Element, out: TournamentOut) -> None:
    """One TEAM or PAIR per participant, by number, with its place when it has one."""
    ranked = {e["name"]: e for e in out.standings}
    write = _write_team if out.teams else _write_pair
    for name, num in sorted(out.numbers.items(), key=lambda kv: kv[1]):
        write(participants, name, num, ranked.get(name, {}))


def _write_team(participants: ET.Element, name: str, num: int, e: dict[str, Any]) -> None:
    team = _sub(participants, "TEAM")
    _sub(team, "TEAM_NUMBER", num)
    _sub(team, "TEAM_NAME", name)
    if e:
        _sub(team, "PLACE", e["rank"])
        _sub(team, "TOTAL_SCORE", _fig(e["score"]))


def _write_pair(participants: ET.Element, name: str, num: int, e: dict[str, Any]) -> None:
    pair = _sub(participants, "PAIR")
    _sub(pair, "PAIR_NUMBER", num)
    if e.get("direction"):
        _sub(pair, "DIRECTION", e["direction"])
    if e:
        _sub(pair, "PLACE", e["rank"])
        _sub(pair, "TOTAL_SCORE", _fig(e["score"]))
        if e.get("pct") is not None:
            _sub(pair, "PERCENTAGE", _fig(e["pct"]))
    for player in name.split(" - "):
        _sub(_sub(pair, "PLAYER"), "PLAYER_NAME", player.strip())


def _write_matches(event: ET.Element, out: TournamentOut) -> None:
    """Teams: one MATCH per pair of teams that met, its boards' lines the open room first."""
    matches: dict[tuple[str, str], list[tuple[int, dict[str, Any]]]] = {}
    for board in out.boards:
        for row in (r for r in board.rows if _played(r)):
            first, second = sorted((row["ns"] or "", row["ew"] or ""))
            matches.setdefault((first, second), []).append((board.number, row))
    for (home, visit), rows in sorted(matches.items()):
        match = _sub(event, "MATCH")
        _sub(match, "TEAM_NUMBER", out.numbers.get(home, 0))
        _sub(match, "OPPOSING_TEAM_NUMBER", out.numbers.get(visit, 0))
        home_imps = sum(r["imp_ns"] if r["ns"] == home else r["imp_ew"] for _, r in rows
                        if r.get("imp_ns") is not None) / 2
        _sub(match, "TEAM_SCORE", _fig(home_imps))
        _sub(match, "OPPOSING_TEAM_SCORE", _fig(-home_imps))
        for number in sorted({n for n, _ in rows}):
            board_el = _sub(match, "BOARD")
            _sub(board_el, "BOARD_NUMBER", number)
            for _, r in sorted((x for x in rows if x[0] == number), key=lambda x: x[1].get("room") != "open"):
                _line(board_el, r, out.numbers.get(r["ns"], 0), out.numbers.get(r["ew"], 0), pairs=False)


def _write_pair_boards(event: ET.Element, out: TournamentOut) -> None:
    """Pairs: one BOARD per board, a TRAVELLER_LINE per table that played it."""
    for board in out.boards:
        board_el = _sub(event, "BOARD")
        _sub(board_el, "BOARD_NUMBER", board.number)
        for r in (r for r in board.rows if _played(r)):
            _line(board_el, r, out.numbers.get(r["ns"], 0), out.numbers.get(r["ew"], 0), pairs=True)


def _write_handset(handset: ET.Element, out: TournamentOut) -> None:
    """The deals: each board's dealer, vulnerability and four hands."""
    for board in out.boards:
        b = _sub(handset, "BOARD")
        _sub(b, "BOARD_NUMBER", board.number)
        _sub(b, "DEALER", board.dealer)
        _sub(b, "VULNERABILITY", board.vulnerability)
        deal = Deal.parse(board.deal)
        for seat in SEATS:
            hand = _sub(b, "HAND")
            _sub(hand, "DIRECTION", str(seat))
            for tag, suit in zip(_SUIT_TAGS, SUITS, strict=True):
                ranks = [c.rank for c in sorted(deal.hand(seat), key=lambda c: -c.strength) if c.suit is suit]
                _sub(hand, tag, "".join(ranks))


# -- structural checks -----------------------------------------------------------------

def _text(el: ET.Element | None) -> str | None:
    return None if el is None or el.text is None else el.text.strip()


def _is_int(text: str | None, low: int | None = None, high: int | None = None) -> bool:
    if text is None or not re.fullmatch(r"-?\d+", text):
        return False
    value = int(text)
    return (low is None or value >= low) and (high is None or value <= high)


def _is_number(text: str | None) -> bool:
    return text is not None and re.fullmatch(r"-?\d+(?:\.\d+)?", text) is not None


def parse_xml(text: str) -> ET.Element:
    """The document's root; bad input naming the line and column when it is not XML."""
    if "<!ENTITY" in text:
        raise BadInput("the file declares XML entities, which a results file never needs: refused",
                       field="FILE", value="<!ENTITY")
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise BadInput(f"not well-formed XML at line {line}, column {column}", field="FILE",
                       value=(text.splitlines() or [""])[max(0, line - 1)][:120], line=line) from None


def validate(text: str) -> list[str]:
    """What does not fit USEBIO 1.2 as the module describes it; [] when it fits."""
    problems: list[str] = []
    root = parse_xml(text)
    if root.tag != "USEBIO":
        return [f"the root element is <{root.tag}>, not <USEBIO>"]
    if root.get("Version") != VERSION:
        problems.append(f"USEBIO Version is {root.get('Version')!r}, not {VERSION!r}")
    events = root.findall("EVENT")
    if len(events) != 1:
        return problems + [f"{len(events)} EVENT elements (one expected)"]
    event = events[0]
    kind = event.get("EVENT_TYPE")
    if kind not in EVENT_TYPES:
        problems.append(f"EVENT_TYPE {kind!r} is not one of {', '.join(EVENT_TYPES)}")
    if not _text(event.find("EVENT_DESCRIPTION")):
        problems.append("EVENT has no EVENT_DESCRIPTION")
    participants = event.find("PARTICIPANTS")
    if participants is None:
        return problems + ["EVENT has no PARTICIPANTS"]
    teams = kind == "TEAMS_OF_FOUR"
    numbers = _check_participants(participants, teams, problems)
    if teams:
        problems += _check_matches(event, numbers)
    problems += _check_boards(event, numbers, teams)
    problems += _check_handset(root)
    return problems


def _check_participants(participants: ET.Element, teams: bool, problems: list[str]) -> set[str]:
    """Each TEAM or PAIR checked (its problems appended); the participants' numbers."""
    unit, number_tag = ("TEAM", "TEAM_NUMBER") if teams else ("PAIR", "PAIR_NUMBER")
    numbers: set[str] = set()
    for i, p in enumerate(participants.findall(unit), start=1):
        num = _text(p.find(number_tag))
        if num is None or not _is_int(num, 1):
            problems.append(f"{unit} {i}: {number_tag} {num!r} is not a positive integer")
        elif num in numbers:
            problems.append(f"{unit} {i}: {number_tag} {num} twice")
        else:
            numbers.add(num)
        problems += _check_participant(p, unit, num, teams)
    if not numbers:
        problems.append(f"PARTICIPANTS holds no {unit}")
    return numbers


def _check_participant(p: ET.Element, unit: str, num: str | None, teams: bool) -> list[str]:
    """A participant's PLACE, scores and names."""
    problems = []
    place = _text(p.find("PLACE"))
    if place is not None and not _is_int(place, 1):
        problems.append(f"{unit} {num}: PLACE {place!r} is not a positive integer")
    for tag in ("TOTAL_SCORE", "PERCENTAGE"):
        value = _text(p.find(tag))
        if value is not None and not _is_number(value):
            problems.append(f"{unit} {num}: {tag} {value!r} is not a number")
    if not teams and not [x for x in p.findall("PLAYER") if _text(x.find("PLAYER_NAME"))]:
        problems.append(f"PAIR {num}: no PLAYER with a PLAYER_NAME")
    if teams and not _text(p.find("TEAM_NAME")):
        problems.append(f"TEAM {num}: no TEAM_NAME")
    return problems


def _check_matches(event: ET.Element, numbers: set[str]) -> list[str]:
    """Teams: each MATCH names two teams and gives two scores."""
    problems = []
    for m in event.findall("MATCH"):
        for tag in ("TEAM_NUMBER", "OPPOSING_TEAM_NUMBER"):
            if _text(m.find(tag)) not in numbers:
                problems.append(f"MATCH: {tag} {_text(m.find(tag))!r} names no TEAM")
        for tag in ("TEAM_SCORE", "OPPOSING_TEAM_SCORE"):
            if not _is_number(_text(m.find(tag))):
                problems.append(f"MATCH: {tag} {_text(m.find(tag))!r} is not a number")
    return problems


def _check_boards(event: ET.Element, numbers: set[str], teams: bool) -> list[str]:
    """The boards (a match's for teams) and their TRAVELLER_LINEs."""
    problems = []
    boards = event.findall("MATCH/BOARD") if teams else event.findall("BOARD")
    if not boards:
        problems.append("no BOARD with TRAVELLER_LINEs")
    for b in boards:
        bn = _text(b.find("BOARD_NUMBER"))
        if not _is_int(bn, 1):
            problems.append(f"BOARD_NUMBER {bn!r} is not a positive integer")
        for i, line in enumerate(b.findall("TRAVELLER_LINE"), start=1):
            where = f"board {bn}, TRAVELLER_LINE {i}"
            problems += _check_line(line, where, numbers, pairs=not teams)
    return problems


def _check_handset(root: ET.Element) -> list[str]:
    """Each HANDSET board: four hands N, E, S, W holding the 52 cards."""
    problems = []
    handset = root.find("HANDSET")
    for hb in (handset.findall("BOARD") if handset is not None else []):
        problems += _check_hands(hb)
    return problems


def _check_hands(hb: ET.Element) -> list[str]:
    problems = []
    bn = _text(hb.find("BOARD_NUMBER"))
    cards: list[str] = []
    hands = hb.findall("HAND")
    if sorted(_text(h.find("DIRECTION")) or "" for h in hands) != ["E", "N", "S", "W"]:
        problems.append(f"HANDSET board {bn}: HANDs are not N, E, S and W")
    for h in hands:
        for tag, suit in zip(_SUIT_TAGS, "SHDC", strict=True):
            ranks = _text(h.find(tag)) or ""
            if not re.fullmatch(r"[AKQJT98765432]*", ranks):
                problems.append(f"HANDSET board {bn}, {_text(h.find('DIRECTION'))}: {tag} {ranks!r}")
            cards += [suit + r for r in ranks]
    if len(cards) != 52 or len(set(cards)) != 52:
        problems.append(f"HANDSET board {bn}: {len(set(cards))} distinct cards, not 52")
    return problems


def _check_line(line: ET.Element, where: str, numbers: set[str], pairs: bool) -> list[str]:
    problems = []
    for tag in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
        if _text(line.find(tag)) not in numbers:
            problems.append(f"{where}: {tag} {_text(line.find(tag))!r} names no participant")
    contract, score = _text(line.find("CONTRACT")), _text(line.find("SCORE"))
    if contract is None:
        if score is None or not _ARTIFICIAL.match(score):
            problems.append(f"{where}: no CONTRACT and SCORE {score!r} is not an artificial score (A+/A-)")
        return problems
    if not _CONTRACT.match(contract):
        problems.append(f"{where}: CONTRACT {contract!r} is not a contract (4S, 3NTX, PASS)")
    if contract != "PASS":
        if _text(line.find("PLAYED_BY")) not in ("N", "E", "S", "W"):
            problems.append(f"{where}: PLAYED_BY {_text(line.find('PLAYED_BY'))!r} is not N, E, S or W")
        if not _is_int(_text(line.find("TRICKS")), 0, 13):
            problems.append(f"{where}: TRICKS {_text(line.find('TRICKS'))!r} is not 0 to 13")
        lead = _text(line.find("LEAD"))
        if lead is not None and not re.fullmatch(r"[SHDC][AKQJT98765432]", lead):
            problems.append(f"{where}: LEAD {lead!r} is not a card")
    if not _is_int(score):
        problems.append(f"{where}: SCORE {score!r} is not an integer")
    if pairs:
        for tag in ("NS_MATCH_POINTS", "EW_MATCH_POINTS"):
            value = _text(line.find(tag))
            if value is not None and not _is_number(value):
                problems.append(f"{where}: {tag} {value!r} is not a number")
    return problems


# -- reading back ----------------------------------------------------------------------

@attrs.frozen
class Line:
    board: int
    index: int
    ns: str
    ew: str
    facts: list[dict[str, Any]]
    stated: dict[str, Any]  # score, mp_ns, mp_ew as the file gives them


@attrs.frozen
class UsebioFile:
    name: str
    teams: bool
    lines: tuple[Line, ...]
    places: dict[str, dict[str, Any]]  # participant name -> PLACE, TOTAL_SCORE, PERCENTAGE
    matches: tuple[tuple[str, str, str | None], ...] = ()  # (team, opposing team, TEAM_SCORE)


def read_usebio(text: str, tournament: str | None = None) -> UsebioFile:
    """The file's travellers as facts, one table per TRAVELLER_LINE (bad input, naming the
    element and the value, when it does not fit :func:`validate`)."""
    problems = validate(text)
    if problems:
        raise BadInput(f"not a USEBIO {VERSION} results file as read here: {problems[0]}"
                       + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                       field="FILE", value=problems[0][:120])
    root = parse_xml(text)
    event = root.find("EVENT")
    assert event is not None
    teams = event.get("EVENT_TYPE") == "TEAMS_OF_FOUR"
    name = tournament or _text(event.find("EVENT_DESCRIPTION")) or "usebio"
    unit, number_tag = ("TEAM", "TEAM_NUMBER") if teams else ("PAIR", "PAIR_NUMBER")
    names: dict[str, str] = {}
    places: dict[str, dict[str, Any]] = {}
    for p in event.findall(f"PARTICIPANTS/{unit}"):
        num = _text(p.find(number_tag)) or ""
        label = (_text(p.find("TEAM_NAME")) if teams else
                 " - ".join(_text(x.find("PLAYER_NAME")) or "" for x in p.findall("PLAYER")))
        names[num] = label or num
        places[names[num]] = {k: _text(p.find(k)) for k in ("PLACE", "TOTAL_SCORE", "PERCENTAGE", "DIRECTION")}
    deals: dict[int, tuple[str, str | None, str | None]] = {}
    for hb in root.findall("HANDSET/BOARD"):
        hands = {(_text(h.find("DIRECTION")) or ""): ".".join(_text(h.find(t)) or "" for t in _SUIT_TAGS)
                 for h in hb.findall("HAND")}
        deals[int(_text(hb.find("BOARD_NUMBER")) or 0)] = (
            "N:" + " ".join(hands[s] for s in ("N", "E", "S", "W")),
            _text(hb.find("DEALER")), _text(hb.find("VULNERABILITY")))
    lines: list[Line] = []
    boards = ([(m, b) for m in event.findall("MATCH") for b in m.findall("BOARD")] if teams
              else [(None, b) for b in event.findall("BOARD")])
    for match, b in boards:
        number = int(_text(b.find("BOARD_NUMBER")) or 0)
        if number not in deals:
            raise BadInput(f"board {number} has no hand in the HANDSET: the ledger needs every deal",
                           field="HANDSET", value=number)
        deal, dealer, vul = deals[number]
        for i, line in enumerate(b.findall("TRAVELLER_LINE"), start=1):
            ns, ew = names[_text(line.find("NS_PAIR_NUMBER")) or ""], names[_text(line.find("EW_PAIR_NUMBER")) or ""]
            opened: dict[str, Any] = {"type": "BoardOpened", "tournament": name, "board": number, "deal": deal,
                                      "ns": ns, "ew": ew, "scoring": "IMP" if teams else "MP"}
            if dealer:
                opened["dealer"] = dealer
            if vul:
                opened["vulnerability"] = vul
            if teams:
                opened.update(table=str(i), room="open" if i == 1 else "closed",
                              match=" v ".join(sorted((ns, ew))))
            else:
                opened["table"] = str(len([x for x in lines if x.board == number]) + 1)
            facts = [opened]
            contract, score = _text(line.find("CONTRACT")), _text(line.find("SCORE")) or ""
            art = _ARTIFICIAL.match(score)
            if contract is None and art:
                facts.append({"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": art.group(1),
                              "ew": art.group(2), "text": "artificial score of the USEBIO traveller",
                              "law": "2017:12C2"})
            elif contract == "PASS":
                facts.append({"type": "ResultReported", "contract": "Pass"})
            elif contract:
                m = re.match(r"^([1-7])(NT|[SHDC])(X{0,2})$", contract)
                assert m is not None
                fact: dict[str, Any] = {"type": "ResultReported", "contract": m.group(1) + m.group(2),
                                        "risk": m.group(3), "declarer": _text(line.find("PLAYED_BY")),
                                        "tricks": int(_text(line.find("TRICKS")) or 0)}
                if _text(line.find("LEAD")):
                    fact["lead"] = _text(line.find("LEAD"))
                facts.append(fact)
            stated = {"score": None if art or not _is_int(score) else int(score),
                      "mp_ns": _text(line.find("NS_MATCH_POINTS")), "mp_ew": _text(line.find("EW_MATCH_POINTS"))}
            for n, f in enumerate(facts, start=1):
                f["id"] = f"usebio-{number}-{i}-{n}" + (f"-{_text(match.find('TEAM_NUMBER'))}" if match is not None else "")
                f["actor"] = {"role": "director", "name": "import:usebio"}
            lines.append(Line(number, i, ns, ew, facts, stated))
    matches = tuple((names.get(_text(m.find("TEAM_NUMBER")) or "", ""),
                     names.get(_text(m.find("OPPOSING_TEAM_NUMBER")) or "", ""), _text(m.find("TEAM_SCORE")))
                    for m in event.findall("MATCH"))
    return UsebioFile(name, teams, tuple(lines), places, matches)


@attrs.frozen
class UsebioImport:
    tournament: str
    streams: tuple[str, ...]
    events: int
    already_stored: int
    checked: int  # figures compared
    disagreements: tuple[str, ...]
    not_compared: tuple[str, ...] = ()  # participants with no traveller line in the file


def _figure(text: str | None) -> float | None:
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


def import_usebio(ledger: Any, parsed: UsebioFile) -> UsebioImport:
    """Store the file's travellers (each line one table: ``BoardOpened`` and its result, in
    one atomic append, idempotent by id), then score the tournament with the ledger's own
    scorer and name every figure of the file it does not reproduce: a line's score or
    matchpoints, a participant's place, total or percentage, a match's IMPs."""
    from ledger.tournament import tournament_tables
    from projections.results import results

    streams, events, retried = _store_lines(ledger, parsed)
    doc = results(parsed.name, tournament_tables(ledger, parsed.name))
    line_checks, line_disagreements = _compare_lines(parsed, doc)
    match_checks, match_disagreements = _compare_matches(parsed, doc)
    place_checks, place_disagreements, not_compared = _compare_places(parsed, doc)
    disagreements = line_disagreements + match_disagreements + place_disagreements
    return UsebioImport(parsed.name, tuple(streams), events, retried,
                        line_checks + match_checks + place_checks, tuple(disagreements),
                        tuple(not_compared))


def _store_lines(ledger: Any, parsed: UsebioFile) -> tuple[list[str], int, int]:
    """Each traveller line appended as its table's stream: (streams, events stored, replayed)."""
    from ledger.records.games import slugify

    slug = slugify(parsed.name)
    events, retried = 0, 0
    streams = [re.sub(r"[^A-Za-z0-9._/-]", "_",
                      f"{slug}/{'m' + line.facts[0]['match'].replace(' ', '') + '/' if parsed.teams else ''}"
                      f"t{line.facts[0]['table']}/b{line.board}") for line in parsed.lines]
    with ledger.batch(streams):  # every stream's lock first, in one order (no deadlock)
        for line, stream in zip(parsed.lines, streams):
            result = ledger.append(stream, line.facts)
            events += len(result.stored)
            retried += result.replayed
    return streams, events, retried


def _compare_lines(parsed: UsebioFile, doc: dict[str, Any]) -> tuple[int, list[str]]:
    """Each line's NS score and matchpoints against the ledger's: (figures checked, disagreements)."""
    rows = {(b["board"], r["ns"], r["ew"]): r for b in doc["boards"] for r in b["results"]}
    disagreements: list[str] = []
    checked = 0
    for line in parsed.lines:
        r = rows.get((line.board, line.ns, line.ew))
        who = f"board {line.board}, {line.ns} v {line.ew}"
        if r is None:
            disagreements.append(f"{who}: not in the ledger's results")
            continue
        if line.stated["score"] is not None:
            checked += 1
            if r["score_ns"] != line.stated["score"]:
                disagreements.append(f"{who}: the file's NS score {line.stated['score']}, the ledger's "
                                     f"{r['score_ns']}")
        for key in ("mp_ns", "mp_ew"):
            stated = _figure(line.stated[key])
            if stated is None:
                continue
            checked += 1
            mine = r.get(key)
            if mine is None or abs(mine - stated) > 0.01:
                disagreements.append(f"{who}: the file's {key.replace('_', ' ').upper()} {stated:g}, the "
                                     f"ledger's {'none' if mine is None else format(mine, 'g')}")
    return checked, disagreements


def _compare_matches(parsed: UsebioFile, doc: dict[str, Any]) -> tuple[int, list[str]]:
    """Each match's TEAM_SCORE against the ledger's IMPs: (figures checked, disagreements)."""
    disagreements: list[str] = []
    checked = 0
    for team, opponent, stated_text in parsed.matches:
        stated = _figure(stated_text)
        if stated is None:
            continue
        checked += 1
        match = " v ".join(sorted((team, opponent)))
        rooms = [r for b in doc["boards"] for r in b["results"] if r.get("match") == match
                 or {r["ns"], r["ew"]} == {team, opponent}]
        values = [v for v in (r["imp_ns"] if r["ns"] == team else r["imp_ew"] for r in rooms) if v is not None]
        mine = sum(values) / 2 if values else None  # a board with one room scored has no IMPs (as written)
        if mine is None or abs(mine - stated) > 0.05:
            disagreements.append(f"match {team} v {opponent}: the file's TEAM_SCORE {stated:g}, the ledger's "
                                 f"{'none' if mine is None else format(mine, 'g')}")
    return checked, disagreements


def _compare_places(parsed: UsebioFile,
                    doc: dict[str, Any]) -> tuple[int, list[str], list[str]]:
    """Each participant's PLACE, TOTAL_SCORE and PERCENTAGE against the ledger's standings:
    (figures checked, disagreements, participants not compared)."""
    ranked = {e["name"]: e for e in doc["standings"]}
    in_lines = {n for line in parsed.lines for n in (line.ns, line.ew)}
    disagreements: list[str] = []
    checked = 0
    not_compared = []
    for name, place in parsed.places.items():
        if name not in in_lines:  # no traveller line in the file: nothing for the ledger to rank it on
            not_compared.append(name)
            continue
        e = ranked.get(name)
        if e is None:
            disagreements.append(f"{name}: ranked by the file, not by the ledger")
            continue
        for tag, mine, tolerance in (("PLACE", e["rank"], 0.0), ("TOTAL_SCORE", e["score"], 0.05),
                                     ("PERCENTAGE", e.get("pct"), 0.05)):
            stated = _figure(place.get(tag))
            if stated is None:
                continue
            checked += 1
            if mine is None or abs(mine - stated) > tolerance:
                disagreements.append(f"{name}: the file's {tag} {stated:g}, the ledger's "
                                     f"{'none' if mine is None else format(mine, 'g')}")
    return checked, disagreements, not_compared


def report_text(report: UsebioImport, as_json: bool = False) -> str:
    """What ``import results.xml`` prints: a summary, then a DISAGREES line per figure."""
    import json

    if as_json:
        return json.dumps({"tournament": report.tournament, "format": "usebio", "streams": list(report.streams),
                           "events": report.events, "already_stored": report.already_stored,
                           "checked": report.checked, "disagreements": list(report.disagreements),
                           "not_compared": list(report.not_compared)},
                          ensure_ascii=False)
    lines = [f"{report.tournament}: {len(report.streams)} traveller line(s) held ({report.events} events, "
             f"{report.already_stored} already stored); {report.checked} figure(s) of the file checked by the "
             f"ledger's scorer, {len(report.disagreements)} disagree"]
    lines += [f"DISAGREES: {d}" for d in report.disagreements]
    if report.not_compared:
        lines.append(f"NOTE: not compared, no traveller line in the file: {', '.join(report.not_compared)}")
    return "\n".join(lines)
