"""USEBIO 1.2 structural checks (``ledger.records.formats.usebio.validate``): a small pairs file
written by hand from the module's layout fits; each departure from the layout is named."""

from __future__ import annotations

import pytest

from ledger.records.formats.usebio import validate

HANDS = """
    <HAND><DIRECTION>N</DIRECTION><SPADES>KT8</SPADES><HEARTS>A96</HEARTS><DIAMONDS>A95</DIAMONDS><CLUBS>7542</CLUBS></HAND>
    <HAND><DIRECTION>E</DIRECTION><SPADES>Q5</SPADES><HEARTS>KJ52</HEARTS><DIAMONDS>KQ874</DIAMONDS><CLUBS>T8</CLUBS></HAND>
    <HAND><DIRECTION>S</DIRECTION><SPADES>AJ92</SPADES><HEARTS>874</HEARTS><DIAMONDS>JT6</DIAMONDS><CLUBS>AQ3</CLUBS></HAND>
    <HAND><DIRECTION>W</DIRECTION><SPADES>7643</SPADES><HEARTS>QT3</HEARTS><DIAMONDS>32</DIAMONDS><CLUBS>KJ96</CLUBS></HAND>"""

PAIRS = f"""<?xml version="1.0" encoding="UTF-8"?>
<USEBIO Version="1.2">
  <EVENT EVENT_TYPE="MP_PAIRS">
    <EVENT_DESCRIPTION>Club pairs</EVENT_DESCRIPTION>
    <PARTICIPANTS>
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLACE>1</PLACE><TOTAL_SCORE>2.00</TOTAL_SCORE>
        <PLAYER><PLAYER_NAME>Ann</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Bob</PLAYER_NAME></PLAYER></PAIR>
      <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><PLACE>2</PLACE><TOTAL_SCORE>0.00</TOTAL_SCORE>
        <PLAYER><PLAYER_NAME>Cy</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Di</PLAYER_NAME></PLAYER></PAIR>
    </PARTICIPANTS>
    <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
      <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
        <CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><LEAD>HK</LEAD><TRICKS>10</TRICKS>
        <SCORE>420</SCORE><NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
    </BOARD>
  </EVENT>
  <HANDSET><BOARD><BOARD_NUMBER>1</BOARD_NUMBER><DEALER>N</DEALER><VULNERABILITY>None</VULNERABILITY>{HANDS}
  </BOARD></HANDSET>
</USEBIO>
"""


def test_a_pairs_file_laid_out_as_the_module_describes_fits():
    assert validate(PAIRS) == []


@pytest.mark.parametrize(("old", "new", "problem"), [
    ('<USEBIO Version="1.2">', '<USEBIO Version="1.1">', "USEBIO Version is '1.1', not '1.2'"),
    ('EVENT_TYPE="MP_PAIRS"', 'EVENT_TYPE="IMP_PAIRS"', "EVENT_TYPE 'IMP_PAIRS' is not one of MP_PAIRS, TEAMS_OF_FOUR"),
    ("<EVENT_DESCRIPTION>Club pairs</EVENT_DESCRIPTION>", "", "EVENT has no EVENT_DESCRIPTION"),
    ("<PAIR_NUMBER>2</PAIR_NUMBER>", "<PAIR_NUMBER>1</PAIR_NUMBER>", "PAIR 2: PAIR_NUMBER 1 twice"),
    ("<PAIR_NUMBER>2</PAIR_NUMBER>", "<PAIR_NUMBER>0</PAIR_NUMBER>", "PAIR 2: PAIR_NUMBER '0' is not a positive integer"),
    ("<PLACE>2</PLACE>", "<PLACE>second</PLACE>", "PAIR 2: PLACE 'second' is not a positive integer"),
    ("<TOTAL_SCORE>0.00</TOTAL_SCORE>", "<TOTAL_SCORE>nil</TOTAL_SCORE>", "PAIR 2: TOTAL_SCORE 'nil' is not a number"),
    ("<PLAYER_NAME>Cy</PLAYER_NAME>", "<PLAYER_NAME></PLAYER_NAME>", None),  # one name is enough
    ("<BOARD_NUMBER>1</BOARD_NUMBER>\n", "<BOARD_NUMBER>x</BOARD_NUMBER>\n", "BOARD_NUMBER 'x' is not a positive integer"),
    ("<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>", "<EW_PAIR_NUMBER>9</EW_PAIR_NUMBER>",
     "board 1, TRAVELLER_LINE 1: EW_PAIR_NUMBER '9' names no participant"),
    ("<LEAD>HK</LEAD>", "<LEAD>K</LEAD>", "board 1, TRAVELLER_LINE 1: LEAD 'K' is not a card"),
    ("<TRICKS>10</TRICKS>", "<TRICKS>14</TRICKS>", "board 1, TRAVELLER_LINE 1: TRICKS '14' is not 0 to 13"),
    ("<NS_MATCH_POINTS>2</NS_MATCH_POINTS>", "<NS_MATCH_POINTS>two</NS_MATCH_POINTS>",
     "board 1, TRAVELLER_LINE 1: NS_MATCH_POINTS 'two' is not a number"),
    ("<DIRECTION>W</DIRECTION>", "<DIRECTION>N</DIRECTION>", "HANDSET board 1: HANDs are not N, E, S and W"),
    ("<CLUBS>KJ96</CLUBS>", "<CLUBS>KJ9</CLUBS>", "HANDSET board 1: 51 distinct cards, not 52"),
])
def test_each_departure_from_the_layout_is_named(old, new, problem):
    assert old in PAIRS
    problems = validate(PAIRS.replace(old, new, 1))
    if problem is None:
        assert problems == []
    else:  # named first (a pair renumbered also leaves the traveller line's number unknown)
        assert problems[0] == problem
        assert problems[1:] in ([], ["board 1, TRAVELLER_LINE 1: EW_PAIR_NUMBER '2' names no participant"])


def test_a_file_with_the_wrong_root_or_no_single_event_says_so_first():
    assert validate("<RESULTS/>") == ["the root element is <RESULTS>, not <USEBIO>"]
    assert validate('<USEBIO Version="1.2"/>') == ["0 EVENT elements (one expected)"]
    assert validate('<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>x</EVENT_DESCRIPTION>'
                    "</EVENT></USEBIO>") == ["EVENT has no PARTICIPANTS"]
    assert validate('<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>x</EVENT_DESCRIPTION>'
                    "<PARTICIPANTS/></EVENT></USEBIO>") == ["PARTICIPANTS holds no PAIR",
                                                            "no BOARD with TRAVELLER_LINEs"]


def test_a_teams_file_reads_teams_and_the_boards_of_its_matches():
    teams = PAIRS.replace('EVENT_TYPE="MP_PAIRS"', 'EVENT_TYPE="TEAMS_OF_FOUR"')
    # the PAIRs are not TEAMs, and a teams board sits in a MATCH
    assert validate(teams) == ["PARTICIPANTS holds no TEAM", "no BOARD with TRAVELLER_LINEs"]
    teams = teams.replace("<PAIR><PAIR_NUMBER>1</PAIR_NUMBER>", "<TEAM><TEAM_NUMBER>1</TEAM_NUMBER>", 1)
    teams = teams.replace("<PLAYER_NAME>Bob</PLAYER_NAME></PLAYER></PAIR>", "<PLAYER_NAME>Bob</PLAYER_NAME></PLAYER></TEAM>")
    teams = teams.replace("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n",
                          "<MATCH><TEAM_NUMBER>1</TEAM_NUMBER><OPPOSING_TEAM_NUMBER>3</OPPOSING_TEAM_NUMBER>"
                          "<TEAM_SCORE>4</TEAM_SCORE><OPPOSING_TEAM_SCORE>-x</OPPOSING_TEAM_SCORE>"
                          "<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n", 1)
    teams = teams.replace("</BOARD>\n  </EVENT>", "</BOARD></MATCH>\n  </EVENT>")
    assert validate(teams) == [
        "TEAM 1: no TEAM_NAME",
        "MATCH: OPPOSING_TEAM_NUMBER '3' names no TEAM",
        "MATCH: OPPOSING_TEAM_SCORE '-x' is not a number",
        "board 1, TRAVELLER_LINE 1: EW_PAIR_NUMBER '2' names no participant"]
