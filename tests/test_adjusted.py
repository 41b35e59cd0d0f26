"""Law 12 adjusted scores end to end: facts appended through the command line (the
ordinary append path), then ``results TOURNAMENT``; every number checked against
matchpoints and IMPs worked out by hand (the arithmetic is in the comments).

Board 1 (dealer N, none vulnerable), one deal for every table:
N AKJ74.K2.Q93.A85  E Q3.AQJT9.K84.962  S T986.753.AJ2.KQ4  W 52.864.T765.JT73
"""

from __future__ import annotations

import json

import pytest

from ledger.cli import main
from projections.results import TableResult, matchpoint_field

DEAL = "N:AKJ74.K2.Q93.A85 Q3.AQJT9.K84.962 T986.753.AJ2.KQ4 52.864.T765.JT73"


def opened(tournament, table, board=1, **extra):
    return {"type": "BoardOpened", "tournament": tournament, "board": board, "table": str(table),
            "deal": DEAL, "ns": f"NS{table}", "ew": f"EW{table}", **extra}


def played(contract, tricks, declarer="N"):
    """The auction (declarer opens at the contract, three passes), the opening lead and
    a claim of ``tricks`` agreed by declarer's LHO: a complete, legal board."""
    seats = "NESW"
    lho = seats[(seats.index(declarer) + 1) % 4]
    order = [seats[(seats.index("N") + i) % 4] for i in range(8)]
    calls = []
    for seat in order:
        if seat == declarer:
            calls.append({"type": "CallPlaced", "seat": seat, "call": contract})
            break
        calls.append({"type": "CallPlaced", "seat": seat, "call": "Pass"})
    after = order.index(declarer)
    calls += [{"type": "CallPlaced", "seat": order[after + i], "call": "Pass"} for i in (1, 2, 3)]
    lead = {"E": "HA", "S": "S6", "W": "C3", "N": "S4"}[lho]
    return calls + [{"type": "CardPlayed", "seat": lho, "card": lead},
                    {"type": "ClaimMade", "seat": declarer, "tricks": tricks},
                    {"type": "ClaimAgreed", "by": lho}]


@pytest.fixture
def db(backend, monkeypatch):
    """A fresh ledger on each store: a SQLite file, and a PostgreSQL schema of its own."""
    url = backend.url
    monkeypatch.setenv("LEDGER_DB", url)
    assert main(["init"]) == 0
    return url


@pytest.fixture
def append(tmp_path, capsys):
    counter = iter(range(10_000))

    def run(stream, facts, code=0):
        path = tmp_path / f"in-{next(counter)}.jsonl"
        path.write_text("\n".join(json.dumps(f) for f in facts) + "\n", encoding="utf-8")
        got = main(["append", stream, str(path)])
        out = capsys.readouterr()
        assert got == code, out.err
        return out
    return run


def results_json(capsys, tournament):
    capsys.readouterr()
    assert main(["results", tournament, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def log_length(capsys, stream):
    capsys.readouterr()
    assert main(["log", stream, "--json"]) == 0
    return len(capsys.readouterr().out.strip().splitlines())


def by_table(doc, board=1):
    entries = next(b["results"] for b in doc["boards"] if b["board"] == board)
    return {e["table"]: e for e in entries}


WEIGHTED = {"type": "AdjustedScoreAwarded", "kind": "weighted",
            "results": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": "1/2"},
                        {"contract": "4S", "declarer": "N", "tricks": 9, "weight": 0.5}],
            "text": "UI from a hesitation: 4S made or one down, equally likely", "law": "2017:12C1c"}


def pairs_field(append):
    """Eight tables on board 1 with ties, an artificial score and a weighted score."""
    t = "pairs"
    append(f"{t}/t1/b1", [opened(t, 1)] + played("4S", 10))       # +420
    append(f"{t}/t2/b1", [opened(t, 2)] + played("4S", 10))       # +420
    append(f"{t}/t3/b1", [opened(t, 3)] + played("4S", 11))       # +450
    append(f"{t}/t4/b1", [opened(t, 4)] + played("4S", 9))        # -50
    append(f"{t}/t5/b1", [opened(t, 5)] + played("2S", 9))        # +140
    append(f"{t}/t6/b1", [opened(t, 6)] + played("4S", 10))       # +420
    # Table 7 played a board N had played before: the score is cancelled (15B1), and the
    # director gives artificial scores (N's side at fault: average minus; EW average plus).
    append(f"{t}/t7/b1", [opened(t, 7)] + played("4S", 10) + [
        {"type": "WrongBoardPlayed", "played_before_by": ["N"]}])
    append(f"{t}/t7/b1", [{"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A-", "ew": "A+",
                           "text": "board played before by N", "law": "2017:15B3"}])
    # Table 8 went down two (-100); the director weights 4S= and 4S-1 half and half.
    append(f"{t}/t8/b1", [opened(t, 8)] + played("4S", 8) + [WEIGHTED])
    # EW of table 5 get a procedural penalty of 25 % of a top (Law 90).
    append(f"{t}/t5/b1", [{"type": "ProceduralPenalty", "side": "EW", "amount": "25%",
                           "text": "slow play, warned twice", "law": "2017:90"}])


def test_eight_tables_end_to_end_against_hand_computed_matchpoints(db, append, capsys):
    pairs_field(append)
    doc = results_json(capsys, "pairs")
    assert doc["scoring"] == "MP"
    r = by_table(doc)
    assert [r[str(n)]["score_ns"] for n in range(1, 9)] == [420, 420, 450, -50, 140, 420, None, None]
    # 8 tables: top 14.  Table 7 is artificial: it is no comparison for the others, so each
    # real result meets 6 others (7 results) and Neuberg brings it to 8: (MP + 1) x 8/7 - 1.
    # T1 +420: ties T2 and T6 (1 + 1), loses to T3 (0), beats T4 and T5 (2 + 2),
    #   T8 half a tie (420) and half a win (-50): 0.5 + 1 = 1.5.  Raw 7.5 -> 8.5 x 8/7 - 1
    assert (r["1"]["mp_ns"], r["1"]["mp_ew"], r["1"]["pct_ns"]) == (8.71, 5.29, 62.24)
    assert r["2"]["mp_ns"] == r["6"]["mp_ns"] == 8.71  # ties score alike
    assert (r["3"]["mp_ns"], r["3"]["mp_ew"]) == (13.86, 0.14)  # raw 12: 13 x 8/7 - 1; EW 1 x 8/7 - 1
    assert (r["4"]["mp_ns"], r["4"]["mp_ew"]) == (0.71, 13.29)  # raw 0.5 (half a tie with T8)
    # T5 +140 beats T4 (2) and half of T8 (1): raw 3 -> 3.57; EW raw 9 -> 10.43, less 25 % of 14
    assert (r["5"]["mp_ns"], r["5"]["mp_ew"]) == (3.57, 6.93)
    # T7 artificial: 40 % and 60 % of the top; no contract, no score
    assert (r["7"]["mp_ns"], r["7"]["mp_ew"], r["7"]["pct_ns"]) == (5.6, 8.4, 40.0)
    assert (r["7"]["contract"], r["7"]["tricks"], r["7"]["score_ns"]) == (None, None, None)
    assert r["7"]["adjusted"] == {"kind": "artificial", "law": "2017:15B3", "ns": "A-", "ew": "A+"}
    # T8 weighted: 420 scores 7 against the six others, -50 scores 1 (a tie with T4):
    # 0.5 x 7 + 0.5 x 1 = 4 -> 5 x 8/7 - 1 = 4.71; EW 12 - 4 = 8 -> 9.29
    assert (r["8"]["mp_ns"], r["8"]["mp_ew"]) == (4.71, 9.29)
    assert r["8"]["adjusted"]["kind"] == "weighted" and r["8"]["score_ns"] is None
    # The ranking: percentages over one board
    ranks = {s["name"]: s for s in doc["standings"]}
    # from the unrounded matchpoints: 97/7 of 14 (13.86 rounded would say 99.0)
    assert ranks["NS3"]["rank"] == 1 and ranks["NS3"]["pct"] == 98.98
    assert ranks["EW5"]["pct"] == 49.49  # (10 x 8/7 - 1 - 3.5) of 14; 6.93 rounded would say 49.5


def test_readable_results_show_a_traveller_and_the_ranking(db, append, capsys):
    pairs_field(append)
    capsys.readouterr()
    assert main(["results", "pairs"]) == 0
    out = capsys.readouterr().out
    assert "pairs - board 1" in out and "pairs - ranking" in out
    assert "adj.1: table 7: artificial: NS A-, EW A+ (2017:15B3)" in out
    assert "13.86" in out and "8.71" in out
    assert "weighted" in out
    # pairs never change direction: a Mitchell, ranked NS and EW apart, ties marked
    assert "pairs - ranking NS" in out and "pairs - ranking EW" in out
    assert out.count(" 2= ") == 3 and " 5= " in out  # NS1, NS2, NS6 tie second; EW1, EW2, EW6 fifth
    assert "{" not in out  # no dict or JSON on the traveller


def test_the_state_document_shows_the_award_in_force_with_its_law(db, append, capsys):
    pairs_field(append)
    capsys.readouterr()
    assert main(["state", "pairs/t8/b1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["adjusted"]["kind"] == "weighted" and doc["adjusted"]["law"] == "2017:12C1c"
    assert doc["adjusted"]["by"] == "director"
    assert doc["result"]["score_ns"] == -100  # the table result stays, the award replaces it in results
    assert main(["state", "pairs/t7/b1"]) == 0
    out = capsys.readouterr().out
    assert "Adjusted score (artificial): NS A-, EW A+" in out and "2017:15B3" in out


def test_a_later_award_replaces_the_earlier_and_both_stay_in_the_log(db, append, capsys):
    pairs_field(append)
    append("pairs/t8/b1", [{"type": "AdjustedScoreAwarded", "kind": "assigned",
                            "results": [{"side": "both", "contract": "4S", "declarer": "N", "tricks": 10}],
                            "text": "on reflection: 4S made", "law": "2017:12C1b"}])
    r = by_table(results_json(capsys, "pairs"))
    assert (r["8"]["contract"], r["8"]["score_ns"]) == ("4S", 420)
    # T8 now ties T1, T2, T6: 420 vs the six others (7 real results): 1+1+0+2+2+1 = 7 -> 8 x 8/7 - 1
    assert r["8"]["mp_ns"] == 8.14
    capsys.readouterr()
    assert main(["casefile", "pairs/t8/b1", "--format", "json"]) == 0
    case = json.loads(capsys.readouterr().out)
    statuses = [(d["type"], d["status"]) for d in case["decisions"]]
    assert statuses[0][0] == "AdjustedScoreAwarded" and statuses[0][1].startswith("replaced by seq")
    assert statuses[1] == ("AdjustedScoreAwarded", "in force")
    assert next(e for e in case["traveller"] if e["table"] == "8")["mp_ns"] == 8.14


def test_an_override_of_the_award_brings_back_the_table_result(db, append, capsys):
    pairs_field(append)
    capsys.readouterr()
    assert main(["log", "pairs/t8/b1", "--json"]) == 0
    award = [json.loads(line) for line in capsys.readouterr().out.splitlines()
             if json.loads(line)["type"] == "AdjustedScoreAwarded"][0]
    append("pairs/t8/b1", [{"type": "RulingOverridden", "about": award["seq"], "text": "no damage after all"}])
    r = by_table(results_json(capsys, "pairs"))
    assert (r["8"]["adjusted"], r["8"]["score_ns"]) == (None, -100)
    # -100 is below every other real result: 0 of 12 -> 1 x 8/7 - 1
    assert r["8"]["mp_ns"] == 0.14


def test_weights_not_summing_to_one_are_refused_and_nothing_is_written(db, append, capsys):
    append("pairs/t1/b1", [opened("pairs", 1)] + played("4S", 10))
    before = log_length(capsys, "pairs/t1/b1")
    bad = dict(WEIGHTED, results=[dict(WEIGHTED["results"][0], weight=0.5),
                                  dict(WEIGHTED["results"][1], weight=0.4)])
    out = append("pairs/t1/b1", [bad], code=2)
    assert "results.weight" in out.err and "[0.5, 0.4]" in out.err and "9/10" in out.err
    # floating thirds do not sum to 1 exactly; the fraction form does
    thirds = dict(WEIGHTED, results=[dict(WEIGHTED["results"][0], weight=1 / 3)] * 3)
    assert "results.weight" in append("pairs/t1/b1", [thirds], code=2).err
    assert log_length(capsys, "pairs/t1/b1") == before
    exact = dict(WEIGHTED, results=[dict(WEIGHTED["results"][0], weight="1/3")] * 3)
    append("pairs/t1/b1", [exact])
    assert log_length(capsys, "pairs/t1/b1") == before + 1


@pytest.mark.parametrize("award, field", [
    ({"kind": "artificial", "ns": "A+"}, "'ew'"),
    ({"kind": "assigned"}, "'results'"),
    ({"kind": "assigned", "results": [{"side": "NS", "contract": "4S", "declarer": "N", "tricks": 10}]},
     "'results.side'"),
    ({"kind": "weighted", "results": [{"contract": "4S", "declarer": "N", "tricks": 10}]}, "'results.weight'"),
])
def test_incomplete_awards_are_refused_naming_the_field(db, append, capsys, award, field):
    append("pairs/t1/b1", [opened("pairs", 1)] + played("4S", 10))
    before = log_length(capsys, "pairs/t1/b1")
    out = append("pairs/t1/b1", [dict({"type": "AdjustedScoreAwarded", "text": "x", "law": "2017:12C1"}, **award)],
                 code=2)
    assert field in out.err
    assert log_length(capsys, "pairs/t1/b1") == before


def test_an_adjusted_score_by_role_table_is_refused_and_nothing_is_written(db, append, capsys):
    append("pairs/t1/b1", [opened("pairs", 1)] + played("4S", 10))
    before = log_length(capsys, "pairs/t1/b1")
    award = {"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A+", "ew": "A+", "text": "x",
             "law": "2017:12C2", "actor": {"role": "table", "name": "t1"}}
    out = append("pairs/t1/b1", [award], code=4)  # spec section 8: 4 is a role not allowed
    assert "role 'table' may not append AdjustedScoreAwarded" in out.err
    assert log_length(capsys, "pairs/t1/b1") == before


def teams_match(append):
    t = "teams"
    common = {"scoring": "IMP", "match": "A v B"}
    append(f"{t}/open/b1", [opened(t, 1, ns="A", ew="B", room="open", **common)] + played("4S", 10))  # +420
    append(f"{t}/closed/b1", [opened(t, 2, ns="B", ew="A", room="closed", **common)] + played("4S", 9))  # -50


def test_a_teams_match_of_two_rooms_end_to_end(db, append, capsys):
    teams_match(append)
    doc = results_json(capsys, "teams")
    assert doc["scoring"] == "IMP"
    r = {e["room"]: e for e in doc["boards"][0]["results"]}
    # A: +420 in the open room, +50 in the closed room: 470 -> 10 IMPs
    assert (r["open"]["imp_ns"], r["open"]["imp_ew"]) == (10, -10)
    assert (r["closed"]["imp_ns"], r["closed"]["imp_ew"]) == (-10, 10)
    assert {s["name"]: s["score"] for s in doc["standings"]} == {"A": 10, "B": -10}
    # The director weights the closed room (half 4S=, half 4S-1) and fines A 3 IMPs:
    # B (NS in the closed room): 0.5 x IMPs(420 - 420) + 0.5 x IMPs(-50 - 420) = 0 - 5 = -5;
    # A: +5, less 3 = 2
    append("teams/closed/b1", [WEIGHTED])
    append("teams/open/b1", [{"type": "ProceduralPenalty", "side": "NS", "amount": "3 IMP",
                              "text": "late arrival", "law": "2017:90"}])
    doc = results_json(capsys, "teams")
    r = {e["room"]: e for e in doc["boards"][0]["results"]}
    assert (r["open"]["imp_ns"], r["open"]["imp_ew"], r["closed"]["imp_ns"], r["closed"]["imp_ew"]) == (2, -5, -5, 2)
    assert {s["name"]: s["score"] for s in doc["standings"]} == {"A": 2, "B": -5}
    capsys.readouterr()
    assert main(["results", "teams"]) == 0
    out = capsys.readouterr().out
    assert "teams - ranking" in out and "IMP EW" in out


def test_teams_artificial_scores_need_not_balance(db, append, capsys):
    teams_match(append)
    append("teams/open/b1", [{"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A+", "ew": "A+",
                              "text": "director's error: both sides not at fault", "law": "2017:12C2b"}])
    doc = results_json(capsys, "teams")
    r = {e["room"]: e for e in doc["boards"][0]["results"]}
    # +3 IMPs to each team (12C2b), in both rooms' rows
    assert (r["open"]["imp_ns"], r["open"]["imp_ew"], r["closed"]["imp_ns"], r["closed"]["imp_ew"]) == (3, 3, 3, 3)
    assert {s["name"]: s["score"] for s in doc["standings"]} == {"A": 3, "B": 3}


def entry(n, score, caps=(), laws="1997", ns=None):
    return TableResult(stream=f"t/{n}", board=1, table=str(n), room=None, match=None, ns=ns or f"NS{n}",
                       ew=f"EW{n}", score_ns=score, distribution=((score, 1.0),), caps=caps, laws=laws)


def test_a_score_cap_limits_the_offending_side_to_average_minus():
    # 1997 25B2b2: NS of table 1 are capped at A-.  Top 4 (3 tables): NS 1 beat both -> 4, capped
    # at 40 % of 4 = 1.6; EW keep their 0 (the cap is the offenders' only).
    out = {r.table: r for r in matchpoint_field([entry(1, 420, caps=(("NS", "A-"),)), entry(2, 170),
                                                 entry(3, -50)])}
    assert (out["1"].mp_ns, out["1"].mp_ew) == (1.6, 0.0)
    # 1997: average minus is the pair's session percentage when lower (digest 13)
    out = {r.table: r for r in matchpoint_field([entry(1, 420, caps=(("NS", "A-"),)), entry(2, 170),
                                                 entry(3, -50)], session={"NS1": 30.0})}
    assert out["1"].mp_ns == 1.2
    # A cap above the result changes nothing
    out = {r.table: r for r in matchpoint_field([entry(1, -50, caps=(("NS", "A-"),)), entry(2, 170),
                                                 entry(3, 420)])}
    assert out["1"].mp_ns == 0.0


IMP_SCALE = [(0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (120, 3), (130, 4), (160, 4),
             (170, 5), (210, 5), (220, 6), (260, 6), (270, 7), (310, 7), (320, 8), (360, 8), (370, 9),
             (420, 9), (430, 10), (490, 10), (500, 11), (590, 11), (600, 12), (740, 12), (750, 13),
             (890, 13), (900, 14), (1090, 14), (1100, 15), (1290, 15), (1300, 16), (1490, 16),
             (1500, 17), (1740, 17), (1750, 18), (1990, 18), (2000, 19), (2240, 19), (2250, 20),
             (2490, 20), (2500, 21), (2990, 21), (3000, 22), (3490, 22), (3500, 23), (3990, 23),
             (4000, 24), (7600, 24)]


@pytest.mark.parametrize("diff, expected", IMP_SCALE)
def test_imp_scale_cell_by_cell(diff, expected):
    from ledger.scoring import imps

    assert imps(diff) == expected and imps(-diff) == -expected


@pytest.mark.parametrize("award, pairs_pct, teams_imps", [("A+", 60.0, 3), ("A", 50.0, 0), ("A-", 40.0, -3)])
def test_artificial_scores_in_both_forms_of_scoring(award, pairs_pct, teams_imps):
    from projections import matchpoints as mp

    assert mp.artificial_pct(award, None, "2017") == pairs_pct
    assert mp.artificial_pct(award, None, "1997") == pairs_pct
    assert mp.ARTIFICIAL_IMPS[award] == teams_imps


def test_a_1997_score_cap_takes_effect_in_the_results_end_to_end(db, append, capsys):
    # Table 1 (1997): N replaces 1S by 2S (a change of mind, 25B); E rejects the substitute and
    # N chooses another call: NS's score is capped at average minus (25B2b2, ScoreCapped).
    t = "capped"
    append(f"{t}/t1/b1", [opened(t, 1, laws="1997"),
                          {"type": "CallPlaced", "seat": "N", "call": "1S"},
                          {"type": "CallReplaced", "seat": "N", "call": "2S", "unintended": False},
                          {"type": "OptionChosen", "seat": "E", "option": "reject_substitute"},
                          {"type": "OptionChosen", "seat": "N", "option": "other_call"}])
    capsys.readouterr()
    assert main(["state", f"{t}/t1/b1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["caps"] == [{"side": "NS", "max": "A-"}]
    append(f"{t}/t1/b1", played("4S", 10))                                   # +420, capped
    append(f"{t}/t2/b1", [opened(t, 2, laws="1997")] + played("4S", 9))     # -50
    append(f"{t}/t3/b1", [opened(t, 3, laws="1997")] + played("2S", 9))     # +140
    r = by_table(results_json(capsys, t))
    # top 4: +420 beats both (4) but NS are capped at 40 % of 4 = 1.6; EW of table 1 keep 0
    assert (r["1"]["score_ns"], r["1"]["mp_ns"], r["1"]["mp_ew"]) == (420, 1.6, 0.0)
    assert (r["2"]["mp_ns"], r["3"]["mp_ns"]) == (0.0, 2.0)


@pytest.mark.parametrize("laws, ns1, ew1", [("2017", 4.0, 1.6), ("1997", 4.0, 0.0)])
def test_artificial_scores_follow_the_pairs_session_percentage_by_edition(db, append, capsys, laws, ns1, ew1):
    # Board 1: NS1 top (+450 over +420 and -50): NS1 100 %, EW1 0 %.  Board 2: table 1 cannot be
    # played, NS1 not at fault (A+), EW1 at fault (A-).  Top 4 (3 tables).
    # 2017 12C2c: NS1's session (100 %) is above 60 %: 100 % of 4 = 4; EW1's A- stays 40 %: 1.6.
    # 1997 practice: A+ = max(60, 100) = 100 %; A- = min(40, 0) = 0 %.
    t = f"session{laws}"
    for board, plays in ((1, {1: ("4S", 11), 2: ("4S", 10), 3: ("4S", 9)}), (2, {2: ("4S", 10), 3: ("4S", 9)})):
        for table in (1, 2, 3):
            facts = [opened(t, table, board=board, laws=laws, dealer="N", vulnerability="None")]
            if table in plays:
                facts += played(*plays[table])
            append(f"{t}/t{table}/b{board}", facts)
    append(f"{t}/t1/b2", [{"type": "AdjustedScoreAwarded", "kind": "artificial", "ns": "A+", "ew": "A-",
                           "text": "EW's cards were from another board", "law": f"{laws}:12C2"}])
    doc = results_json(capsys, t)
    r = by_table(doc, board=2)
    assert (r["1"]["mp_ns"], r["1"]["mp_ew"]) == (ns1, ew1)
    # T2 (+420) and T3 (-50) are compared with each other only: (2 + 1) x 3/2 - 1 = 3.5 and 0.5
    assert (r["2"]["mp_ns"], r["3"]["mp_ns"]) == (3.5, 0.5)


def test_a_split_score_in_teams_gives_each_team_its_own_result():
    from projections.results import adjusted_imps

    rooms = [TableResult(stream="o", board=1, table="o", room="open", match="A v B", ns="A", ew="B",
                         score_ns=420, distribution=((420, 1.0),)),
             TableResult(stream="c", board=1, table="c", room="closed", match="A v B", ns="B", ew="A",
                         adjusted={"kind": "assigned"}, split=(-50, 420))]
    out = {r.stream: r for r in adjusted_imps(rooms)}
    # B (NS in the closed room) scores -50 there against A's +420 in the open room: -470 -> -10;
    # A (EW in the closed room) is assigned NS +420 there: 420 - 420 -> 0.  They need not balance.
    assert (out["o"].imp_ns, out["o"].imp_ew, out["c"].imp_ns, out["c"].imp_ew) == (0, -10, -10, 0)
