"""What each Law the ledger cites says, in a sentence or two of our own words, per
edition: the case file quotes it beside every citation so that a committee reads the
rule without the book. These are paraphrases written for this project, not the Laws'
text (which is copyrighted): the Laws themselves decide.

One table keyed by (edition, Law). :func:`paraphrase` looks a citation up, falling
back from the sub-law to the Law it belongs to (``2017:64A2`` -> ``64A`` -> ``64``),
and says which level it found. Entries common to both editions are written once
(``_BOTH``) and edition-specific ones override them.
"""

from __future__ import annotations

import re

_BOTH: dict[str, str] = {
    "9": "Any player may draw attention to an irregularity during the auction; during the play declarer or either defender may, dummy only where Laws 42 and 43 allow; the director is then called at once.",
    "10": "Only the director assesses rectification; players may not waive or apply one themselves.",
    "11": "The right to a rectification can be lost if the non-offending side acts before calling the director.",
    "12": "The director may award an adjusted score when the Laws cannot restore equity at the table.",
    "12A": "Where a rectification the Laws give does not compensate the non-offenders, or no rectification "
           "applies, the director may adjust the score.",
    "12C1": "When an infraction damaged the non-offending side, the director assigns the result that would "
            "probably have been obtained without it.",
    "12C2": "When no result can be obtained, the director awards an artificial score: average plus to a side "
            "not at fault, average minus to a side at fault, average to a side partly at fault.",
    "13": "A board with a wrong number of cards in a hand: the director corrects it and decides whether the "
          "board can be played or scored.",
    "14": "A card missing from a hand and found later belongs to that hand; the player may be treated as "
          "having held it from the start.",
    "15": "Cards from another board or a board played at the wrong table: the director decides whether the "
          "result stands or the board is replayed or scored artificially.",
    "16": "Players must not use information from partner other than the calls and plays; information from "
          "another table or from an extraneous source must be reported and may lead to an adjustment.",
    "17": "The auction starts when a player looks at his cards; the dealer calls first and turns pass clockwise.",
    "17D": "Cards from a wrong board: the call made with them can be cancelled and the board redealt or scored artificially.",
    "18": "A bid names a number of tricks above six and a denomination; a higher bid outranks a lower one.",
    "19": "A double may be made only of an opponent's last bid; a redouble only of a double of one's own side's bid.",
    "20": "Players may ask for a review of the auction and for explanations of opponents' calls, at their turn.",
    "21": "A player misled by a wrong explanation may change his call while partner has not yet called.",
    "21B1": "After a misexplanation is corrected, a player may change his last call if partner has not called since.",
    "22": "The auction ends after three passes following a call, or four passes at the start.",
    "23": "A player who, by an irregularity, forces partner to pass may see his side's score adjusted if the "
          "pass helped the offending side.",
    "24": "A card exposed during the auction: a single low card carries no further rectification; an honour, a card led prematurely or two or more cards become penalty cards if the player defends, and partner must pass at his next turn.",
    "25": "A call may be changed only when it was unintended; a deliberate change of mind is handled by 25B.",
    "25A": "An unintended call (a slip of the hand) may be replaced by the intended one, without rectification, "
           "while partner has not called.",
    "25B": "A deliberate change of call: the substitute may be accepted by the next player; otherwise the "
           "first call stands and rectifications apply.",
    "26": "When an offender's call is withdrawn, the lead may be restricted: declarer may require or forbid "
          "a suit at the offender's partner's first turn to lead.",
    "27": "An insufficient bid may be accepted by the next player; otherwise it must be corrected, and the "
          "rectification depends on how it was corrected.",
    "27A1": "The player after an insufficient bid may accept it; any call of his accepts it.",
    "28": "A call is in turn when made by the correct player; a call by the wrong player is out of rotation.",
    "29": "After a call out of rotation the next player may accept it by calling; otherwise it is cancelled "
          "and the auction goes back to the correct player.",
    "29A": "The player to the left of the offender may call and so accept the call out of rotation.",
    "30": "A pass out of rotation is cancelled; the offender must pass at his next turn in most cases.",
    "31": "A bid out of rotation is cancelled; the offender may repeat it or his partner may have to pass.",
    "31A1": "A bid out of rotation at the right-hand opponent's turn: if that opponent passes, the offender "
            "must repeat his call and there is no further rectification.",
    "32": "A double or redouble out of rotation, not accepted, is cancelled; the offender's partner may have to pass and lead restrictions may apply.",
    "33": "A call made at the same time as the correct player's is treated as made after it.",
    "34": "When a pass out of rotation would end the auction before a player had his turn, the auction goes back to that player: he keeps his right to call.",
    "35": "Inadmissible calls (a double of partner, a bid above seven, a call when required to pass) are cancelled.",
    "36": "An inadmissible double or redouble is cancelled and the offender's partner must pass at his next turn.",
    "36B": "An inadmissible double or redouble is cancelled; the offender must make a legal call and his "
           "partner must pass at his next turn.",
    "37": "A call by a player required to pass is cancelled and replaced by a pass; both members of the side "
          "must pass to the end.",
    "38": "A bid of more than seven is cancelled; the offending side must pass for the rest of the auction.",
    "38C": "A bid above seven is cancelled and the offending side must pass from then on.",
    "39": "A call after the final pass is cancelled; for a bid, double or redouble the auction does not reopen.",
    "39A": "A call after the auction has ended is cancelled.",
    "40": "Partnership agreements must be disclosed; undisclosed understandings may be rectified.",
    "41": "After the auction, the opening lead is made face down, then faced, and dummy's hand is spread.",
    "41A": "The opening lead is made face down by the defender on declarer's left.",
    "42": "Dummy may not take part in the play or comment, except to draw attention to certain irregularities "
          "after the hand ends.",
    "43": "Dummy may not start a call for the director during play, take part in the play or look at a defender's hand; if he does, he loses rights the Law lists.",
    "44": "Each trick is led and followed clockwise; a player must follow suit if he can.",
    "45": "A card is played when it is detached and held face up near the table, or named; dummy's card when "
          "declarer names or touches it.",
    "45A": "Each player plays a card by detaching it from his hand and placing it face up on the table.",
    "45B": "Declarer plays a card from dummy by naming it or touching it.",
    "45C": "A defender's card held face up so that partner could see it must be played; declarer's card is "
           "played when held face up or named.",
    "45C1": "A defender's card held so that partner could see its face must be played.",
    "45C4": "A card named by declarer is played, unless the naming was an unintended slip of the tongue.",
    "45C4b": "An unintended designation (a slip of the tongue) may be corrected: in 1997 without pause for thought, in 2017 until the next player has played.",
    "45D": "A card dummy places without declarer's designation may be withdrawn before either side plays to the next trick.",
    "46": "Declarer should name suit and rank; an incomplete designation is completed according to the Law.",
    "47": "A card once played can be withdrawn only where the Laws allow it (to correct a revoke, after a "
          "correction of an irregularity, after misinformation).",
    "47B": "A card played illegally (a revoke corrected in time, a card played out of turn) is withdrawn to correct the illegal play.",
    "48": "Declarer's exposed cards are not penalty cards.",
    "49": "A defender's card exposed other than in normal play becomes a penalty card.",
    "50": "A penalty card stays face up on the table and must be played at the first legal opportunity, under "
          "the conditions the Law sets.",
    "50B": "A single card below an honour exposed by accident is a minor penalty card; other cards are major.",
    "51": "Two or more penalty cards: declarer chooses which is played when both can be.",
    "52": "A defender who fails to play a penalty card when required may have to, and declarer may accept the card played.",
    "53": "A lead out of turn may be accepted by either opponent; accepted, it becomes a correct lead.",
    "54": "An opening lead out of turn: declarer may accept it, become dummy, or refuse it with lead restrictions.",
    "55": "Declarer's lead out of turn may be accepted or refused by the defenders.",
    "56": "A defender's lead out of turn: Laws 53 and 54 say what follows.",
    "57": "A defender who plays before his turn: declarer may require or forbid partner to play a given suit "
          "or card.",
    "57C": "A premature play by declarer, or by a defender obliged by a rectification to play, carries no "
           "rectification of its own.",
    "57A": "When a defender leads or plays before partner has played, declarer may restrict partner's play to the trick.",
    "58": "Simultaneous leads or plays: the card first chosen counts as played; the other is replaced.",
    "59": "A player who cannot play a card the Laws require plays any legal card.",
    "60": "A play after an irregularity by the opponents forfeits the right to rectification of it in some cases.",
    "61": "Failure to follow suit when able is a revoke; players may ask whether a player has no card of the suit led.",
    "61A": "Failing to follow suit when able, or to play a card the Laws require, is a revoke.",
    "62": "A revoke not yet established must be corrected; the card withdrawn may become a penalty card.",
    "62C1": "After a revoke is corrected, each non-offender may withdraw a card he played after it and before attention was drawn to it.",
    "63": "A revoke is established when the offending side plays to the next trick or makes a claim.",
    "63A": "A revoke becomes established once the offender or his partner plays to the next trick, or either claims.",
    "63A1": "A revoke becomes established when the offender or his partner plays to the following trick.",
    "64": "After an established revoke, tricks are transferred to the non-offending side after play ends.",
    "64A": "After an established revoke, one or two tricks are transferred, depending on who won the revoke "
           "trick and later tricks.",
    "65": "Tricks are arranged by each player in front of him to keep a record of the play.",
    "66": "Quitted tricks may be inspected only as the Law allows.",
    "67": "A defective trick (a card too few or too many) is corrected as the Law directs.",
    "67A": "A defective trick noticed before both sides have played to the next trick: the player who omitted "
           "a card supplies one he can legally play to it.",
    "67A1": "The player who failed to play to the trick supplies a card he can legally play to it.",
    "67B": "A defective trick noticed later: the director establishes which trick it was and who failed to "
           "play to it, and rectifies as the Law directs.",
    "67B2": "A player who played too many cards to a trick gets the extra card back in his hand; a failure "
            "to play it to a later trick may be a revoke.",
    "51B": "Penalty cards in two or more suits when partner obtains the lead: declarer may require or forbid "
           "one of their suits (the cards of that suit are picked up) or leave them.",
    "68": "A claim or concession is a statement about the number of remaining tricks; play stops.",
    "69": "A concession agreed may be withdrawn only within the time the Law gives and only for tricks the side "
          "could not lose.",
    "70": "A disputed claim: the director rules as equitably as he can, with doubtful points against the claimer.",
    "71": "A concession may be cancelled when the conceder's side could not lose the trick by any normal play.",
    "72": "Players must follow the Laws and may not waive a rectification; courtesy is required.",
    "73": "Communication between partners must be by calls and plays only; mannerisms may not mislead.",
    "74": "Players must behave properly and courteously and not disturb others.",
    "75": "Misexplanation and mistaken calls: the director decides whether there was an agreement.",
    "76": "Spectators must not disturb or interfere.",
    "77": "Each deal is scored according to the table of scores: tricks, contract, doubling, vulnerability, "
          "bonuses and undertricks.",
    "78": "Matchpoints, IMPs or total points are the methods of scoring across tables.",
    "78B": "IMP scoring converts the difference between two scores on a board into IMPs by the scale.",
    "79": "Players should agree the number of tricks won before leaving the table.",
    "80": "The tournament organiser appoints the director and sets the conditions.",
    "81": "The director has the duties and powers the Laws give, including rectification and penalties.",
    "82": "The director must rectify errors of procedure; if no rectification restores equity, he adjusts.",
    "83": "A director who thinks a review of his ruling could favour the appellants must say that they may appeal.",
    "84": "The director rules on questions of fact when the facts are agreed.",
    "85": "When the facts are disputed, the director decides on the balance of the evidence.",
    "86": "In team play the director may adjust a result of a match to restore equity.",
    "87": "A fouled board (the cards changed between tables) is scored as the Law says.",
    "88": "Award for a contestant who was not at fault for a board not played.",
    "89": "Rectification in individual events follows special rules.",
    "90": "The director may give procedural penalties for breaches that unduly delay or obstruct the game.",
    "91": "The director may suspend or disqualify for serious misconduct.",
    "92": "A contestant may appeal a ruling of the director, within the time allowed.",
    "93": "An appeal is heard by an appeals committee (or the director in charge when none is available); it "
          "may change the ruling and may keep the deposit when the appeal had no merit.",
}

_1997: dict[str, str] = {
    "16A": "1997: after partner's unmistakable hesitation, remark or mannerism, a player may not choose a call or "
           "play it suggests over a logical alternative; opponents may reserve their rights.",
    "16B": "1997: information from another source than partner (another table, a remark overheard) must be "
           "reported at once; the director may adjust.",
    "47G": "1997: apart from the cases this Law lists, a card once played may not be withdrawn.",
    "12C1": "1997: the non-offenders get the most favourable result that was likely, the offenders the most "
            "unfavourable result that was at all probable (the two need not balance).",
    "12C2": "1997: an artificial adjusted score when no result can be obtained: average plus / average / "
            "average minus by fault.",
    "12C3": "1997: an appeals committee (not the director, unless the regulations allow it) may vary an assigned "
            "score to do equity, including a weighted score.",
    "25B": "1997: a deliberate change of call without pause may be accepted by the LHO; otherwise the first call "
           "stands and the offender's side may be limited to average minus.",
    "25B1": "1997: a substitute call may be accepted by the LHO; if not accepted, the first call stands.",
    "27": "1997: an insufficient bid not accepted must be corrected; the rectification depends on whether the "
          "correction is the lowest sufficient bid in the same denomination.",
    "43B2c": "1997: dummy who looked at a defender's cards cannot draw attention to their irregularity; declarer "
             "gets no rectification for it.",
    "67B1": "1997: the player who failed to play to the trick places a card among his played cards for it, "
            "of the suit led if he has one (no penalty); with none, any card, and a revoke is deemed, "
            "one trick transferred; the card does not change who won the trick.",
    "64A1": "1997: when the revoker himself won the revoke trick, that trick is transferred, plus one more if his side won a later trick.",
    "64A2": "1997: when the revoker did not win the revoke trick himself, one trick is transferred if his side won that trick or a later one.",
}

_2017: dict[str, str] = {
    "16B": "2017: extraneous information from partner (a hesitation, a remark, a mannerism): a player may not "
           "choose from logical alternatives one it demonstrably suggests.",
    "16B1": "2017: after partner's unmistakable hesitation, remark or mannerism, a player may not choose a call or "
            "play it suggests over a logical alternative.",
    "16C": "2017: information from another source than partner (another table, a remark overheard) must be "
           "reported at once; the director may adjust.",
    "47F": "2017: apart from the cases this Law lists, a card once played may not be withdrawn.",
    "12C1": "2017: the director assigns the result likely without the infraction; he may weight several likely "
            "results to do equity.",
    "12C1b": "2017: the score assigned replaces the one obtained; it is the result likely without the infraction.",
    "12C1c": "2017: to do equity, the director may award a weighted score combining several possible results.",
    "12C2": "2017: an artificial adjusted score when no result can be obtained: 60%, 50% or 40% (or the "
            "session percentage if better) depending on fault.",
    "12C2c": "2017: a side awarded average plus gets at least 60%, or its session percentage if higher.",
    "16B2": "2017: an opponent who believes a player made such information available may reserve his rights and call the director, who decides later.",
    "21B1a": "2017: a player may change a call made after a misexplanation, if partner has not called since.",
    "25A1": "2017: an unintended call may be changed while partner has not called, however it was noticed.",
    "25B1": "2017: a deliberate change of call may be accepted by the LHO; then the substitute stands.",
    "25B2": "2017: the substitute not accepted is cancelled; the first call stands and Law 16 applies.",
    "27A1": "2017: the LHO may accept an insufficient bid; any call he makes accepts it.",
    "27B1a": "2017: an insufficient bid corrected by the lowest sufficient bid in the same denomination keeps "
             "the auction going without further rectification, unless the director finds damage.",
    "43B3": "2017: dummy who looked at a defender's cards cannot draw attention to a defender's irregularity; "
            "declarer gets no rectification.",
    "67B1": "2017: the player who failed to play to the trick places a card among his played cards for it, "
            "of the suit led if he has one; a revoke is deemed on that trick (one trick transferred as in "
            "64A2); the card does not change who won the trick.",
    "58B4": "Several cards played at once, not discovered until both sides have played to the next trick: "
            "Law 67 applies.",
    "64A1": "2017: when the revoker himself won the revoke trick, that trick is transferred, plus one more if his side won a later trick.",
    "64A2": "2017: when the revoker did not win the revoke trick himself, one trick is transferred to the other side if his side won that trick or a later one.",
}

_FFB: dict[str, str] = {
    "57.3": "FFB regulation: a bidding card counts as a call when intentionally taken from the box and released "
            "on the table.",
    "57.4": "FFB regulation: a bidding card taken out and not released is no call, but it may be unauthorized "
            "information.",
    "57.5": "FFB regulation (1997): an unintended call may be changed only without pause.",
}

PARAPHRASES: dict[tuple[str, str], str] = {
    key: text.replace("'", "’")  # typographic apostrophes: no quote marks in the page's words
    for key, text in {
        **{("1997", law): text for law, text in _BOTH.items()},
        **{("2017", law): text for law, text in _BOTH.items()},
        **{("1997", law): text for law, text in _1997.items()},
        **{("2017", law): text for law, text in _2017.items()},
        **{("FFB", law): text for law, text in _FFB.items()},
    }.items()
}
"""(edition, Law) -> our paraphrase."""

_CITATION = re.compile(r"^(1997|2017|FFB):([0-9A-Za-z.]+)$")


def paraphrase(citation: str) -> tuple[str, str] | None:
    """(the Law found, our paraphrase) for ``2017:64A2``, falling back to the Law it
    belongs to; None when no entry covers it."""
    m = _CITATION.match(citation)
    if not m:
        return None
    edition, law = m.groups()
    while law:
        text = PARAPHRASES.get((edition, law))
        if text is not None:
            return f"{edition}:{law}", text
        law = law[:-1]
    return None
