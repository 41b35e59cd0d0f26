"""The terminal rendering of the table state and of the log (ledger/render.py).

Each test builds a state document (LEDGER-SPEC section 5, with the ledger's extension
keys ``board.deal``, ``board.ns``, ``board.ew``, ``board.scoring``) by hand, renders it on a
100-column console without colours and reads the exported text.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.cells import cell_len
from rich.console import Console

from ledger.render import call_text, card_text, print_renderable, render_log, render_state

WIDTH = 100
STRIKE = "\u0336"
RANKS = "AKQJT98765432"
SEATS = ("N", "E", "S", "W")

# N: ♠AKQ2 ♥K53 ♦1098 ♣A42   E: ♠J109 ♥AQJ ♦765 ♣KQJ3
# S: ♠876 ♥1098 ♦AKQJ ♣1098  W: ♠543 ♥7642 ♦432 ♣765
DEAL = "N:AKQ2.K53.T98.A42 JT9.AQJ.765.KQJ3 876.T98.AKQJ.T98 543.7642.432.765"


def deal_hands(deal: str) -> dict[str, list[str]]:
    first, _, rest = deal.partition(":")
    start = SEATS.index(first)
    hands = {}
    for offset, text in enumerate(rest.split()):
        cards = [suit + rank for suit, ranks in zip("SHDC", text.split(".")) for rank in ranks]
        hands[SEATS[(start + offset) % 4]] = cards
    return hands


def test_the_test_deal_is_a_legal_deal():
    hands = deal_hands(DEAL)
    cards = [card for hand in hands.values() for card in hand]
    assert all(len(hand) == 13 for hand in hands.values())
    assert len(set(cards)) == 52


def play_out(hands: dict[str, list[str]], leader: str) -> list[dict]:
    """A deterministic no-trump play: everyone plays his highest card of the suit led."""
    hands = {seat: list(cards) for seat, cards in hands.items()}
    tricks, seq = [], 20
    for number in range(1, 14):
        order = [SEATS[(SEATS.index(leader) + i) % 4] for i in range(4)]
        cards = []
        for seat in order:
            led = cards[0]["card"][0] if cards else None
            follow = [card for card in hands[seat] if card[0] == led] or hands[seat]
            card = follow[0]
            hands[seat].remove(card)
            seq += 1
            cards.append({"seat": seat, "card": card, "seq": seq, "law": "2017:45A"})
        led = cards[0]["card"][0]
        winner = min((c for c in cards if c["card"][0] == led),
                     key=lambda c: RANKS.index(c["card"][1]))
        tricks.append({"number": number, "leader": leader, "cards": cards,
                       "winner": winner["seat"]})
        leader = winner["seat"]
    return tricks


def base_doc(**changes) -> dict:
    doc = {
        "stream": "paris-open/s1/t12/b07", "seq": 6, "laws": "2017",
        "board": {"tournament": "paris-open", "number": 7, "table": "12", "dealer": "E",
                  "vulnerability": "NS", "deal": DEAL, "ns": "Martin – Durand",
                  "ew": "Lebel – Chemla", "scoring": "MP"},
        "phase": "auction", "turn": "E",
        "auction": [], "calls_not_made": [], "contract": None, "dummy": None,
        "tricks": [], "plays_not_made": [], "hands": deal_hands(DEAL),
        "penalty_cards": [], "lead_restrictions": [], "partner_must_pass": [], "caps": [],
        "pending": [], "irregularities": [], "tricks_won": {"declarer": 0, "defenders": 0},
        "transfers": [], "result": None, "adjusted": None, "review": [],
        "integrity": {"head": "0123456789abcdef" + "f" * 48, "verified": True},
    }
    doc.update(changes)
    return doc


def auction_doc() -> dict:
    """Dealer E; E 1♣, S Pass, W 1♥, N 1♠, and it is E's turn again."""
    calls = [("E", "1C"), ("S", "Pass"), ("W", "1H"), ("N", "1S")]
    auction = [{"seq": 2 + i, "seat": seat, "call": call} for i, (seat, call) in enumerate(calls)]
    return base_doc(auction=auction)


def finished_doc() -> dict:
    tricks = play_out(deal_hands(DEAL), "W")
    declarer_tricks = sum(trick["winner"] in ("N", "S") for trick in tricks)
    assert declarer_tricks == 11  # the helper's play: a fixed fact of this deal
    auction = [{"seq": 2 + i, "seat": seat, "call": call} for i, (seat, call) in
               enumerate([("E", "Pass"), ("S", "1NT"), ("W", "Pass"), ("N", "3NT"),
                          ("E", "Pass"), ("S", "Pass"), ("W", "Pass")])]
    return base_doc(
        seq=75, phase="ended", turn=None, auction=auction,
        contract={"level": 3, "strain": "NT", "risk": "", "declarer": "S"}, dummy="N",
        tricks=tricks, hands={seat: [] for seat in SEATS},
        tricks_won={"declarer": 11, "defenders": 2},
        result={"contract": "3NT", "declarer": "S", "risk": "", "tricks": 11, "score_ns": 660,
                "text": "3NT S +2"})


def ruling_doc() -> dict:
    hands = deal_hands(DEAL)
    hands["W"].remove("S5")
    return base_doc(
        seq=31, phase="play", turn="N",
        auction=[{"seq": 2, "seat": "E", "call": "Pass"}, {"seq": 3, "seat": "S", "call": "4S"},
                 {"seq": 6, "seat": "W", "call": "X"}, {"seq": 7, "seat": "N", "call": "Pass"},
                 {"seq": 8, "seat": "E", "call": "Pass"}, {"seq": 9, "seat": "S", "call": "Pass"}],
        calls_not_made=[{"seq": 5, "seat": "W", "call": "1S", "reason": "accidental",
                         "law": "FFB:57.3"}],
        plays_not_made=[{"seq": 29, "seat": "E", "card": "SK", "reason": "not visible to partner",
                         "law": "2017:45C1"}],
        contract={"level": 4, "strain": "S", "risk": "X", "declarer": "S"}, dummy="N",
        tricks=[{"number": 1, "leader": "W", "winner": None,
                 "cards": [{"seat": "W", "card": "S5", "seq": 20, "law": "2017:45A"}]}],
        hands=hands,
        penalty_cards=[{"seat": "E", "card": "SK", "kind": "major"},
                       {"seat": "W", "card": "C7", "kind": "minor"}],
        lead_restrictions=[{"seat": "W", "suit": "S", "mode": "must_not",
                            "lasts": "while_on_lead"}],
        partner_must_pass=[{"seat": "N", "until": "end_of_auction"}],
        caps=[{"side": "EW", "max": "A-"}],
        pending=[{"to": "S", "options": ["accept_declare", "accept_become_dummy", "refuse"],
                  "law": "2017:54A"}],
        irregularities=[
            {"kind": "revoke", "offender": "E", "trick": 3, "established": True, "seq": 44,
             "law": "2017:63A1"},
            {"kind": "lead_out_of_turn", "offender": "E", "trick": None, "established": None,
             "seq": 18, "law": "2017:54"},
            {"kind": "unprocessed", "seq": 12, "type": "CallPlaced", "offender": "W",
             "detail": "insufficient bid 1H after 1S", "law": None}],
        transfers=[{"to": "declarer", "tricks": 2, "law": "1997:64A1"}],
        review=[{"reason": "64C equity", "seq": 80}],
        adjusted={"kind": "artificial", "ns": 60, "ew": "A-", "law": "2017:12C2"},
        integrity={"head": "abcdef0123456789" * 4, "verified": False})


def render(renderable, styles: bool = False) -> str:
    """The text a 100-column console prints; with ``styles``, a colour console's ANSI codes."""
    console = Console(record=True, width=WIDTH, color_system="standard" if styles else None,
                      file=io.StringIO())
    console.print(renderable)
    return console.export_text(styles=styles)


def find(lines: list[str], needle: str) -> tuple[int, int]:
    """(row, column) of the only line containing ``needle``."""
    hits = [(row, line.index(needle)) for row, line in enumerate(lines) if needle in line]
    assert len(hits) == 1, f"{needle!r} found {len(hits)} times"
    return hits[0]


def assert_fits(text: str) -> None:
    widest = max(cell_len(line) for line in text.splitlines())
    assert widest <= WIDTH, f"a line is {widest} columns wide"


def grid_columns(lines: list[str]) -> tuple[int, dict[str, int]]:
    """The auction grid's header row and the column of each seat."""
    for row, line in enumerate(lines):
        if line.split() == ["W", "N", "E", "S"]:
            return row, {seat: line.index(seat) for seat in "WNES"}
    raise AssertionError("no W N E S header row")


# --- notation -----------------------------------------------------------------------


@pytest.mark.parametrize(("card", "shown"),
                         [("SK", "♠K"), ("HT", "♥10"), ("d2", "♦2"), ("C10", "♣10")])
def test_cards_are_shown_with_suit_symbols_and_10(card, shown):
    assert card_text(card) == shown


@pytest.mark.parametrize(("call", "shown"),
                         [("1S", "1♠"), ("3NT", "3NT"), ("7H", "7♥"), ("Pass", "Pass"),
                          ("P", "Pass"), ("X", "X"), ("XX", "XX")])
def test_calls_are_shown_with_suit_symbols(call, shown):
    assert call_text(call) == shown


# --- header and compass -------------------------------------------------------------


def test_header_names_board_table_dealer_vulnerability_laws_phase_turn_and_seq():
    first, second = render(render_state(auction_doc())).splitlines()[:2]
    assert first == ("paris-open · Board 7 · Table 12 · Dealer E · Vul NS · Laws 2017 · "
                     "Phase auction · Turn E · seq 6")
    assert second == "NS Martin – Durand · EW Lebel – Chemla · scoring pairs (MP)"


def test_compass_puts_north_above_west_left_east_right_south_below():
    lines = render(render_state(auction_doc())).splitlines()
    n_row, n_col = find(lines, "♠ A K Q 2")
    e_row, e_col = find(lines, "♠ J 10 9")
    s_row, s_col = find(lines, "♠ 8 7 6")
    w_row, w_col = find(lines, "♠ 5 4 3")
    board_row, board_col = find(lines, "│ Board 7")
    box_row, box_col = find(lines, "┌")
    assert n_row < box_row < board_row == w_row == e_row < s_row
    assert w_col == 0
    assert box_col == board_col == n_col == s_col > w_col + len("♠ 5 4 3")
    assert e_col > board_col + len("│ Board 7 │")
    # one line per suit, in order, under each hand's name
    assert find(lines, "North") == (n_row - 1, n_col)
    assert find(lines, "♥ K 5 3") == (n_row + 1, n_col)
    assert find(lines, "♦ 10 9 8") == (n_row + 2, n_col)
    assert find(lines, "♣ A 4 2") == (n_row + 3, n_col)
    assert find(lines, "♣ K Q J 3") == (e_row + 3, e_col)
    assert find(lines, "♥ 7 6 4 2") == (w_row + 1, 0)
    assert find(lines, "♦ A K Q J") == (s_row + 2, s_col)


def test_compass_centre_shows_board_dealer_and_vulnerability():
    lines = render(render_state(auction_doc())).splitlines()
    board_row, _ = find(lines, "│ Board 7")
    assert "Dealer E" in lines[board_row + 1]
    assert "Vul NS" in lines[board_row + 2]


def test_compass_marks_declarer_and_dummy_once_known():
    before = render(render_state(auction_doc()))
    assert "(declarer)" not in before and "(dummy)" not in before
    lines = render(render_state(finished_doc())).splitlines()
    assert find(lines, "South (declarer)")[0] > find(lines, "North (dummy)")[0]


def test_compass_shows_a_void_as_a_dash_and_long_suits_fit():
    deal = ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    doc = base_doc(board={**base_doc()["board"], "deal": deal}, hands=deal_hands(deal))
    text = render(render_state(doc))
    lines = text.splitlines()
    n_row, n_col = find(lines, "♠ A K Q J 10 9 8 7 6 5 4 3 2")
    assert lines[n_row + 1][n_col:].rstrip() == "♥ —"
    assert_fits(text)


def test_played_cards_are_struck_and_remaining_ones_stand_out():
    doc = ruling_doc()  # West has led ♠5
    lines = render(render_state(doc)).splitlines()
    w_row, w_col = find(lines, "♠ (5) 4 3")  # piped: plain text, the played card in brackets
    assert w_col == 0
    assert STRIKE not in "\n".join(lines)
    styled = render(render_state(doc), styles=True)
    assert "\x1b[2;9m5\x1b[0m" in styled  # dim + strike on a colour terminal
    assert STRIKE not in styled


def test_after_the_play_every_card_of_the_compass_is_struck():
    text = render(render_state(finished_doc()))
    assert "♠ A K Q 2" not in text
    assert "♠ (A) (K) (Q) (2)" in text
    assert "♦ (10) (9) (8)" in text


def test_compass_rebuilds_the_original_hands_without_a_deal():
    doc = ruling_doc()
    doc["board"] = {**doc["board"], "deal": None}
    lines = render(render_state(doc)).splitlines()
    assert find(lines, "♠ (5) 4 3")[1] == 0
    find(lines, "♠ A K Q 2")


# --- auction ------------------------------------------------------------------------


def test_auction_grid_puts_the_first_call_in_the_dealers_column():
    lines = render(render_state(auction_doc())).splitlines()
    header, columns = grid_columns(lines)
    first_round, second_round = lines[header + 2], lines[header + 3]
    assert first_round[:columns["E"]].strip() == ""
    assert first_round[columns["E"]:].split() == ["1♣", "Pass"]
    assert first_round.index("1♣") == columns["E"]
    assert first_round.index("Pass") == columns["S"]
    assert second_round.index("1♥") == columns["W"]
    assert second_round.index("1♠") == columns["N"]
    assert second_round.index("?") == columns["E"]  # whose turn it is


def test_auction_grid_with_dealer_west_starts_in_the_first_column():
    doc = auction_doc()
    doc["board"]["dealer"] = "W"
    doc["auction"] = [{"seq": 2, "seat": "W", "call": "3NT"}, {"seq": 3, "seat": "N", "call": "X"},
                      {"seq": 4, "seat": "E", "call": "XX"}]
    doc["turn"] = "S"
    lines = render(render_state(doc)).splitlines()
    header, columns = grid_columns(lines)
    assert lines[header + 2].split() == ["3NT", "X", "XX", "?"]
    assert lines[header + 2].index("XX") == columns["E"]


def test_calls_and_plays_not_made_are_said_in_plain_words():
    text = render(render_state(ruling_doc()))
    assert "seq 5 W 1♠: not a call (accidental) — FFB:57.3" in text
    assert "seq 29 E ♠K: not played (not visible to partner) — 2017:45C1" in text


def test_contract_line():
    assert "Contract: 4♠X by S, dummy N" in render(render_state(ruling_doc()))
    assert "Contract:" not in render(render_state(auction_doc()))


def test_a_passed_out_board_says_so():
    auction = [{"seq": 2 + i, "seat": seat, "call": "Pass"} for i, seat in enumerate("ESWN")]
    doc = base_doc(phase="ended", turn=None, auction=auction,
                   result={"contract": "Pass", "declarer": None, "risk": "", "tricks": None,
                           "score_ns": 0, "text": "Pass"})
    lines = render(render_state(doc)).splitlines()
    assert "Contract: Passed out" in lines
    assert "Result: Passed out, NS 0" in lines
    header, columns = grid_columns(lines)
    assert lines[header + 2].index("Pass") == columns["E"]


# --- play and result ----------------------------------------------------------------


def test_each_trick_is_a_row_with_cards_in_play_order_and_the_winner():
    text = render(render_state(finished_doc()))
    rows = {line.split()[0]: line.split() for line in text.splitlines()
            if re.match(r"^\s*\d+\s+[NESW]\s", line)}
    assert sorted(rows, key=int) == [str(n) for n in range(1, 14)]
    assert rows["1"] == ["1", "W", "W", "♠5", "N", "♠A", "E", "♠J", "S", "♠8", "N", "1–0"]
    assert rows["13"][-1] == "11–2"  # the running tally ends at tricks_won
    assert "Tricks won: declarer 11, defenders 2" in text


def test_the_winning_card_is_bold():
    styled = render(render_state(finished_doc()), styles=True)
    assert "\x1b[1mN ♠A\x1b[0m" in styled
    assert "\x1b[1mW ♠5\x1b[0m" not in styled


def test_a_trick_in_progress_has_no_winner_yet():
    lines = render(render_state(ruling_doc())).splitlines()
    row = next(line for line in lines if re.match(r"^\s*1\s+W\s+W ♠5", line))
    assert row.split()[-2:] == ["♠5", "…"]


def test_a_card_played_by_law_other_than_45A_is_marked():
    doc = finished_doc()
    doc["tricks"][1]["cards"][2]["law"] = "2017:45C1"
    played = doc["tricks"][1]["cards"][2]
    text = render(render_state(doc))
    assert f"{played['seat']} {card_text(played['card'])}*" in text
    assert f"trick 2 {played['seat']} {card_text(played['card'])} (2017:45C1)" in text


def test_result_line():
    text = render(render_state(finished_doc()))
    assert "Result: 3NT by S, 11 tricks (3NT S +2), NS +660" in text.splitlines()


def test_a_positive_score_has_a_plus_sign():
    doc = finished_doc()
    doc["result"] = {"contract": "4S", "declarer": "S", "risk": "X", "tricks": 10,
                     "score_ns": 790, "text": "4SX S ="}
    assert "Result: 4♠X by S, 10 tricks (4SX S =), NS +790" in render(render_state(doc))


def test_integrity_shows_the_head_hash_and_whether_it_was_verified():
    assert "Integrity: head 0123456789abcdef…, verified yes" in render(render_state(auction_doc()))
    assert "Integrity: head abcdef0123456789…, verified no" in render(render_state(ruling_doc()))


# --- rulings ------------------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "Major penalty card: E ♠K",
    "Minor penalty card: W ♣7",
    "Lead restriction: W must not lead ♠ for as long as W retains the lead",
    "Must pass: N must pass for the rest of the auction",
    "Score capped: EW can score at most average minus (A-)",
    "Pending: S to choose (2017:54A): accept_declare (accept the lead and declare: dummy is spread after it "
    "(54B)), accept_become_dummy (accept the lead and spread his own hand: partner declares (54A)), refuse "
    "(do not accept it: the card becomes a major penalty card, the right defender leads)",
    "Irregularity: revoke by E (seq 44, trick 3, established) — 2017:63A1",
    "Irregularity: lead out of turn by E (seq 18) — 2017:54",
    "Unprocessed (director to rule): CallPlaced at seq 12, offender W: "
    "insufficient bid 1H after 1S",
    "Tricks transferred: 2 tricks to declarer — 1997:64A1",
    "Director review required: 64C equity (seq 80)",
    "Adjusted score (artificial): NS 60%, EW A- — 2017:12C2",
])
def test_rulings_are_said_in_plain_words(line):
    text = render(render_state(ruling_doc()))
    if len(line) <= WIDTH:
        assert line in text.splitlines()
    else:  # a long line wraps at the console's width
        assert " ".join(line.split()) in " ".join(text.split())


def test_no_rulings_section_when_there_is_nothing_to_rule():
    text = render(render_state(finished_doc()))
    assert "Rulings" not in text and "do not count" not in text and "Pending" not in text


def test_assigned_and_weighted_adjusted_scores():
    doc = finished_doc()
    doc["adjusted"] = {"kind": "weighted", "law": "2017:12C1c", "results": [
        {"side": "both", "contract": "4S", "declarer": "S", "risk": "", "tricks": 10,
         "weight": 0.6},
        {"side": "both", "contract": "4S", "declarer": "S", "risk": "X", "tricks": 9,
         "weight": 0.4}]}
    assert ("Adjusted score (weighted): 60% of 4♠ by S, 10 tricks; 40% of 4♠X by S, 9 tricks"
            " — 2017:12C1c") in render(render_state(doc))
    doc["adjusted"] = {"kind": "assigned", "law": "2017:12C1", "results": [
        {"side": "NS", "contract": "3NT", "declarer": "N", "risk": "", "tricks": 9},
        {"side": "EW", "contract": "3NT", "declarer": "N", "risk": "", "tricks": 8}]}
    assert ("Adjusted score (assigned): NS: 3NT by N, 9 tricks; EW: 3NT by N, 8 tricks"
            " — 2017:12C1") in render(render_state(doc))


# --- robustness and width -----------------------------------------------------------


def test_a_document_with_every_list_empty_or_null_renders():
    doc = {key: None for key in base_doc()}
    doc["board"] = {"tournament": "t", "number": 1, "table": "1", "dealer": "N",
                    "vulnerability": "None"}
    lines = render(render_state(doc)).splitlines()
    assert lines[0].startswith("t · Board 1 · Table 1 · Dealer N · Vul None")
    grid_columns(lines)
    assert find(lines, "North")[0] < find(lines, "West")[0] < find(lines, "South")[0]


@pytest.mark.parametrize("make", [auction_doc, finished_doc, ruling_doc])
def test_nothing_is_wider_than_100_columns(make):
    assert_fits(render(render_state(make())))


# --- log ----------------------------------------------------------------------------


EVENTS = [
    {"stream": "t/b7", "seq": 14, "position": 90211, "id": "6f1c", "type": "CardPlayed", "v": 1,
     "data": {"seat": "E", "card": "H7"}, "actor": {"role": "table", "name": "t12"},
     "at": "2026-11-21T14:03:11.123456Z", "causes": [], "law": None, "prev": "0" * 64,
     "hash": "1" * 64},
    {"stream": "t/b7", "seq": 15, "position": 90212, "id": "7a2d",
     "type": "DirectorReviewRequired",
     "v": 1, "data": {"reason": "64C equity", "about": 14, "extra": {"a": [1, 2]}},
     "actor": {"role": "system", "name": None}, "at": "2026-11-21T14:03:12.5Z",
     "causes": [3, 14], "law": "2017:64C", "prev": "1" * 64, "hash": "2" * 64},
]


def test_log_shows_one_line_per_envelope():
    lines = render(render_log(EVENTS)).splitlines()
    assert lines[0].split() == ["14", "14:03:11", "table/t12", "CardPlayed", "E", "H7"]
    assert lines[1].split()[:3] == ["15", "14:03:12", "system"]
    second = " ".join(" ".join(lines[1:]).split())  # its free text may wrap
    assert "2017:64C" in second and "<-3,14" in second
    assert 'reason="64C equity"' in second and 'extra={"a":[1,2]}' in second


def test_at_80_columns_an_event_is_one_line_and_only_free_text_wraps():
    console = Console(record=True, width=80, color_system=None, file=io.StringIO())
    ruling = {"seq": 71, "type": "RulingGiven", "actor": {"role": "director", "name": "TD Girard"},
              "at": "2026-11-21T14:05:00Z", "causes": [], "law": None,
              "data": {"laws": ["2017:63A1", "2017:64A2"], "text": "Established revoke by East; the "
                       "revoke trick was won by dummy and the defenders won a later trick: one trick "
                       "to declarer."}}
    engine = {"seq": 28, "type": "IrregularityRecorded", "actor": {"role": "system", "name": "ruling-engine"},
              "at": "2026-11-21T14:03:11Z", "causes": [27], "law": "2017:61A",
              "data": {"about": 27, "kind": "revoke", "offender": "E"}}
    console.print(render_log(EVENTS + [engine, ruling]))
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    at = next(i for i, line in enumerate(lines) if line.startswith(" 28 "))
    assert lines[at] == " 28 14:03:11 engine IrregularityRecorded revoke about=27 offender=E 2017:61A"
    assert lines[at + 1].startswith(" 71 14:05:00 director/TD Girard RulingGiven laws=2017:63A1,2017:64A2")
    assert all(line.startswith("        ") for line in lines[at + 2:]) and len(lines) == at + 4  # text wraps


def test_print_renderable_prints_on_the_given_console():
    console = Console(record=True, width=WIDTH, color_system=None, file=io.StringIO())
    print_renderable(render_state(auction_doc()), console)
    assert "Board 7" in console.export_text()
