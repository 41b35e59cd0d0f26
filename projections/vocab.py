"""The closed vocabularies of the fold, as ``enum.StrEnum`` (a member is its
string: the wire format and the state document are unchanged).

Each member says what it means; the words a player or director reads for it, and
the Law it rests on in each edition, are the family's that owns it (``ledger.render``
prints them):

* ``CallRuling``: ``RULINGS`` of ``ledger.laws.calls`` (with those of rotation, inadmissible
  and insufficient): one ``ledger.laws.base.Ruled`` per member, its words and its Laws;
* ``CardRuling``: ``RULINGS`` of ``ledger.laws.cards``, ``designations``, ``withdrawals`` and
  ``exposed``, each for the rulings it reads;
* ``OutOfTurnKind``: ``OUT_OF_TURN`` of ``ledger.laws.leads``;
* ``IrregularityKind``: ``IRREGULARITIES`` of the family whose rule records it.

The card, out-of-turn, premature and penalty-card tables name every edition, ``None`` where
the member cannot arise under it (tests/test_words.py); the call rulings' leave such an edition
out, as their docstring says (tests/test_structure.py).
"""

from __future__ import annotations

from enum import StrEnum


class Edition(StrEnum):
    """The edition of the Laws a board is played under (``BoardOpened.laws``)."""

    E1997 = "1997"
    """The 1997 Laws of Duplicate Bridge (with the WBF Laws Committee's minutes)."""
    E2017 = "2017"
    """The 2017 Laws of Duplicate Bridge."""


class Phase(StrEnum):
    """Where the board stands."""

    AUCTION = "auction"
    """Calls are due (Laws 17 to 40)."""
    OPENING_LEAD = "opening_lead"
    """The auction has closed; the opening lead is due (41)."""
    PLAY = "play"
    """Cards are played to tricks (44 to 66)."""
    ENDED = "ended"
    """The thirteenth trick is quitted, a claim is settled, or the board was passed out."""


class CallRuling(StrEnum):
    """How the Laws read one call fact (``CallRecord.ruling``, the document's ``call_rulings``)."""

    MADE = "made"
    """A call, entered in the auction (FFB 57.3)."""
    NOT_MADE = "not_made"
    """No call: not intentionally taken out and released (FFB 57.3, 57.4)."""
    EXPLANATION_CORRECTED = "explanation_corrected"
    """An explanation corrected: misinformation (21B1, 75)."""
    UNINTENDED_CORRECTED = "unintended_corrected"
    """An unintended call replaced without pause: the intended call stands (25A)."""
    MI_CHANGE = "mi_change"
    """A call changed after misinformation was corrected (21B1)."""
    PERMITTED_CHANGE = "permitted_change"
    """A change the Laws allow without rectification."""
    TOO_LATE = "too_late"
    """The change came after partner called: the first call stands (25A, 25B)."""
    UNDECIDED = "undecided"
    """A judgment the director has not given yet."""
    CHANGE_OF_MIND = "change_of_mind"
    """A deliberate change: LHO may accept the substitute or not (25B1)."""
    SUBSTITUTE_ACCEPTED = "substitute_accepted"
    """LHO accepted the substituted call (25B1)."""
    SUBSTITUTE_CANCELLED = "substitute_cancelled"
    """The substitute was not accepted and is cancelled (2017 25B)."""
    LHO_CALLED = "lho_called"
    """LHO had called over the substitute: it is cancelled, the first call stands."""
    SUBSTITUTE_REJECTED = "substitute_rejected"
    """The substitute was not accepted: the offender keeps his first call or calls again (1997 25B2)."""
    FIRST_CALL_KEPT = "first_call_kept"
    """The offender keeps his first call; partner passes at his next turn (1997 25B2b1)."""
    OTHER_CALL = "other_call"
    """The offender calls again, his side scoring at most average minus (1997 25B2b2)."""
    OBLIGED_TO_PASS = "obliged_to_pass"
    """A call by a player obliged to pass: cancelled, Pass substituted."""
    MADE_OVER_FIRST_CALL = "made_over_first_call"
    """A call made over the first call: it stands, the caller may withdraw it."""
    MADE_WHILE_OPTION_OPEN = "made_while_option_open"
    """A call made while an option was open: it stands."""
    WITHDRAWN = "withdrawn"
    """A call withdrawn."""
    IRREGULAR = "irregular"
    """A substitute that is itself irregular: the director's."""
    INSUFFICIENT = "insufficient"
    """An insufficient bid: LHO may accept it (2017 27A)."""
    IB_ACCEPTED = "ib_accepted"
    """The insufficient bid accepted: it stands (27A1)."""
    IB_REFUSED = "ib_refused"
    """The insufficient bid not accepted: it must be corrected (27B)."""
    IB_B3_PENDING = "ib_b3_pending"
    """A double or redouble in its place was cancelled; a legal call is due (27B3)."""
    IB_B1A = "ib_b1a"
    """Corrected by the lowest sufficient bid in the same denomination (27B1a)."""
    IB_B1B = "ib_b1b"
    """Corrected by a comparable call (27B1b)."""
    IB_B2 = "ib_b2"
    """Corrected by a call that is not comparable: partner passes throughout (27B2)."""
    IB_B3 = "ib_b3"
    """A double or redouble in its place was cancelled: partner passes throughout (27B3)."""
    IB_CORRECTION = "ib_correction"
    """The call that replaces the insufficient bid."""
    IB_CANCELLED_DOUBLE = "ib_cancelled_double"
    """A double or redouble in place of the insufficient bid, cancelled (27B3)."""
    # Calls out of rotation, Laws 28 to 32 (ledger.laws.rotation; issue 12)
    COOR = "coor"
    """A call out of rotation awaiting the offender's LHO's choice (29A)."""
    COOR_ACCEPTED = "coor_accepted"
    """Accepted (29A): it stands where it was made; the players it skipped lose that turn."""
    COOR_28B = "coor_28b"
    """The player on turn, the offender's RHO, called first: cancelled without rectification (28B)."""
    COOR_REFUSED = "coor_refused"
    """Not accepted: cancelled (29B); the auction reverts to the player on turn (30 to 32)."""
    COOR_REPEAT = "coor_repeat"
    """RHO passed: the offender must repeat his call (31A1, 2017 32A1, 1997 32B1)."""
    COOR_REPEATED = "coor_repeated"
    """The required call was repeated: no further rectification."""
    COOR_RHO_ACTED = "coor_rho_acted"
    """RHO bid, doubled or redoubled: the offender calls freely (31A2, 2017 32A2, 1997 32B2)."""
    COOR_COMPARABLE = "coor_comparable"
    """2017: the offender's next call is comparable (23A): no further rectification (23C at the end)."""
    COOR_NOT_COMPARABLE = "coor_not_comparable"
    """2017: not comparable: partner passes at his next turn, Law 26B."""
    COOR_UNDECIDED = "coor_undecided"
    """2017: comparable or not is the director's judgment, not given yet (23A)."""
    COOR_SAME_STRAIN = "coor_same_strain"
    """1997 31A2(a): the offender repeated the denomination: partner passes at his next turn."""
    COOR_SAME_CALL = "coor_same_call"
    """1997: the offender repeated the same call at his next turn (no Law 26 for it)."""
    COOR_OTHER = "coor_other"
    """1997: the offender made another call (31A2(b), Law 26)."""
    # Inadmissible calls, Laws 36 and 39 (ledger.laws.inadmissible; issue 12)
    INADMISSIBLE_DOUBLE = "inadmissible_double"
    """A double or redouble Law 19 does not allow, in rotation: cancelled (1997 36, 2017 36B)."""
    AFTER_FINAL_PASS = "after_final_pass"
    """A call after the final pass, before the opening lead is faced: cancelled (Law 39)."""
    ABOVE_SEVEN = "above_seven"
    """A bid of more than seven: cancelled, Pass substituted, both of the side pass to the end (Law 38)."""
    # The offender's LHO called before rectification (1997 35, 2017 36A, 37A, 38D, 39B; issue-auction)
    INADMISSIBLE_DOUBLE_LHO_CALLED = "inadmissible_double_lho_called"
    """The LHO called over an inadmissible double: it and the calls after it cancelled, nothing more (36A, 1997 35A)."""
    ABOVE_SEVEN_LHO_CALLED = "above_seven_lho_called"
    """The LHO called over a bid of more than seven: 38B, 38C without Law 26 (38D, 1997 35C)."""
    AFTER_FINAL_PASS_LHO_CALLED = "after_final_pass_lho_called"
    """The LHO called over a call after the final pass: cancelled, nothing more (39B, 1997 35D)."""
    OBLIGED_LHO_CALLED = "obliged_lho_called"
    """The LHO called over a call by a player obliged to pass: it stands, and the calls after it (37A, 1997 35B)."""
    LHO_CALL_CANCELLED = "lho_call_cancelled"
    """The LHO's call over an inadmissible double or a bid of more than seven: cancelled (36A, 38B)."""
    # Law 34 (issue-auction)
    PASSED_OVER_34 = "passed_over_34"
    """An accepted pass out of rotation among three closing passes that deprived a player of his turn: cancelled (34)."""
    CANCELLED_34 = "cancelled_34"
    """A pass after the missed turn of Law 34: cancelled, the auction reverts to the player who missed it."""
    # The call again of a player whose call a permitted change withdrew (issue 11 D2; issue-auction)
    REPLACES_WITHDRAWN = "replaces_withdrawn"
    """His call at his turn in place of his withdrawn one, logged as ``CallReplaced`` (1997 25B1, 2017 25A6, 21B2)."""


class CardRuling(StrEnum):
    """How the Laws read one card fact (``CardRecord.ruling``, the document's ``card_rulings``).

    Words and Laws per edition: the family that reads the fact (``ledger.laws.cards`` 45, 48,
    49; ``designations`` 46B, 45C4b; ``withdrawals`` 47; ``exposed`` 24), its ``RULINGS``."""

    PLAYED = "played"
    """The fact put the card on the trick (45A, 45B, 45C...)."""
    NOT_PLAYED = "not_played"
    """No play (45C1 to 45C3, 48A, 46B4...)."""
    EXPOSED = "exposed"
    """A defender's card exposed, not played (49)."""
    UNDECIDED = "undecided"
    """A judgment nobody has given yet."""
    CHOOSE = "choose"
    """An incomplete designation, completed by a choice (46B3b, 46B4, 46B5)."""
    CHANGE_PERMITTED = "change_permitted"
    """An inadvertent designation changed without pause (45C4b)."""
    CHANGE_REFUSED = "change_refused"
    """A change of designation the Laws do not permit (45C4b)."""
    MISPLACED = "misplaced"
    """Dummy placed a card declarer did not name (45D)."""
    MISPLACED_CORRECTED = "misplaced_corrected"
    """The misplaced card corrected in time (45D)."""
    MISPLACED_STANDS = "misplaced_stands"
    """The misplaced card stands: too late to correct (45D)."""
    WITHDRAWN = "withdrawn"
    """A legal withdrawal (47A to 47E, 45D, 41A)."""
    ILLEGAL_WITHDRAWAL = "illegal_withdrawal"
    """A played card illegally withdrawn (1997 47G, 2017 47F)."""
    NO_PLAYED_CARD = "no_played_card"
    """A withdrawal of a card that is not played."""
    LEAD_AUTHORISED = "lead_authorised"
    """An opponent told the player it was his lead (47E1)."""
    RETRACTED = "retracted"
    """The lead out of turn that followed an opponent's mistaken word, retracted (47E1)."""
    IRREGULAR = "irregular"
    """Kept for the director (see the detail)."""
    AUCTION_EXPOSED = "auction_exposed"
    """A card dropped or led during the auction (Law 24; ledger.laws.exposed)."""


class IrregularityKind(StrEnum):
    """What ``irregularities`` lists (``Irregularity.kind``; the engine's ``IrregularityRecorded``).

    Stored events may carry other kinds (the field is free text on the wire): the fold keeps
    them as they are. Words: ``IRREGULARITIES`` of the family whose rule records the kind;
    ``unprocessed`` has a line of its own."""

    UNPROCESSED = "unprocessed"
    """An action stored as logged that no Law module rules on yet."""
    ADJUSTMENT_NOT_APPLIED = "adjustment_not_applied"
    """An adjusted score stored but not in force (1997 12C3; after a committee's decision)."""
    CHANGE_OF_CALL = "change_of_call"
    """A change of call (25)."""
    MISINFORMATION = "misinformation"
    """Misinformation corrected (21B, 75)."""
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    """A lead out of turn (53 to 56)."""
    PLAY_OUT_OF_TURN = "play_out_of_turn"
    """A play out of turn (57)."""
    REVOKE = "revoke"
    """A revoke (61A)."""
    EXPOSED_CARD = "exposed_card"
    """A defender's card exposed (49)."""
    FIFTH_CARD = "fifth_card"
    """A fifth card played to a trick (45E)."""
    DUMMY_MISPLAY = "dummy_misplay"
    """Dummy placed a card declarer did not name (45D)."""
    ILLEGAL_WITHDRAWAL = "illegal_withdrawal"
    """A played card illegally withdrawn (1997 47G, 2017 47F)."""
    UNINTENDED_CALL_CORRECTED = "unintended_call_corrected"
    """An unintended call corrected (25A)."""
    INADMISSIBLE_CALL = "inadmissible_call"
    """An inadmissible call (Laws 36 to 39: a double Law 19 does not allow, a call by a player
    obliged to pass, a bid above seven, a call after the final pass)."""
    CALL_OUT_OF_ROTATION = "call_out_of_rotation"
    """A call by a player not on turn (Laws 29 to 32)."""
    INSUFFICIENT_BID = "insufficient_bid"
    """A bid that does not outrank the last bid (Law 27)."""
    DUMMY_DREW_ATTENTION = "dummy_drew_attention"
    """Dummy drew attention to an irregularity during play (43A1b)."""
    DUMMY_INQUIRY = "dummy_inquiry"
    """Dummy asked a defender about a revoke (42B1)."""
    CARDS_FROM_WRONG_BOARD = "cards_from_wrong_board"
    """A player called with cards from another board (1997 17D, 2017 15A)."""
    DEFECTIVE_TRICK = "defective_trick"
    """A trick to which a player contributed no card, as the director found it (67A, 67B)."""


class OutOfTurnKind(StrEnum):
    """A lead or card out of turn (``OutOfTurn.kind``, the document's ``leads_out_of_turn``).

    Words and Laws per edition: ``ledger.laws.leads.OUT_OF_TURN``."""

    OPENING_LEAD = "opening_lead"
    """An opening lead out of turn (54)."""
    DEFENDER_LEAD = "defender_lead"
    """A defender's lead out of turn during the play (53, 56)."""
    DECLARER_LEAD = "declarer_lead"
    """Declarer's lead out of turn, from his hand or dummy (55)."""
    FACE_DOWN = "face_down"
    """A face-down opening lead out of turn, returned (41A)."""
    FIFTH_CARD = "fifth_card"
    """A fifth card added to a trick (45E)."""


class PenaltyKind(StrEnum):
    """The kind of a penalty card (50B; ``PenaltyCardDesignated.kind``, the document's
    ``penalty_cards``): what it obliges, words and Laws in ``ledger.laws.penalty.PENALTY_KINDS``."""

    MAJOR = "major"
    """An honour, a card exposed through deliberate play, or one of two or more penalty cards (50B)."""
    MINOR = "minor"
    """A single card below honour rank exposed inadvertently (50B)."""


class PrematureKind(StrEnum):
    """A premature lead or play (``PrematurePlay.kind``, the document's ``premature_plays``): the
    family's own closed vocabulary, each kind named by its 2017 Law (a member is its string)."""

    BEFORE_PARTNER = "57A"
    """Led or played before his partner played to the trick: a major penalty card, and declarer
    chooses what the partner plays to it (57A)."""
    BOTH_HANDS = "57C1"
    """The same, declarer having played from both hands: no rectification, back to the hand (57C1;
    1997 57C)."""
    AFTER_DUMMY = "57C2"
    """The same, after dummy played a card to the trick prematurely or indicated one: back to the
    hand (57C2; 1997 57C)."""
    DECLARER = "57C3"
    """Declarer's premature play (not a lead), from his hand or dummy: a played card (2017 57C3;
    1997 no rule, read the same and asked)."""
    BEFORE_RHO = "57D"
    """Played (not led) at his RHO's turn after his partner played: his play at his proper turn if
    legal, else a major penalty card (2017 57D; 1997 no rule, read the same and asked)."""
