"""The folded state of one board at one table: frozen attrs classes, changed
only with ``attrs.evolve`` by the fold (``projections.table.evolve``)."""

from __future__ import annotations

from typing import Any

import attrs

from ledger.bridge import Call, Card, Risk, Seat, Side, Strain, Suit, sort_cards
from ledger.events import BoardOpened
from projections.vocab import CallRuling, CardRuling, IrregularityKind, OutOfTurnKind, PenaltyKind, Phase, PrematureKind

AUCTION, OPENING_LEAD, PLAY, ENDED = Phase.AUCTION, Phase.OPENING_LEAD, Phase.PLAY, Phase.ENDED


def cite(edition: str, law: str) -> str:
    """A law citation of spec section 1: ``"2017:45A"``."""
    return f"{edition}:{law}"


@attrs.frozen
class AuctionCall:
    seq: int
    seat: Seat
    call: Call
    law: str


@attrs.frozen
class PlayedCard:
    seat: Seat
    card: Card
    seq: int
    law: str


@attrs.frozen
class Trick:
    number: int
    leader: Seat
    cards: tuple[PlayedCard, ...] = ()
    winner: Seat | None = None
    absent: Seat | None = None
    """Spec 1.3 (67): the seat the director found did not play to this trick (``DefectiveTrickFound``):
    the trick is complete with the other three cards (``ledger.laws.defective``)."""

    @property
    def complete(self) -> bool:
        return len(self.cards) == 4 or (self.absent is not None and len(self.cards) == 3)

    @property
    def suit_led(self) -> Suit | None:
        return self.cards[0].card.suit if self.cards else None

    @property
    def next_seat(self) -> Seat:
        """The first seat, from the leader round, with no card on the trick
        (a card legally withdrawn leaves its seat's place open, Law 47)."""
        present = [p.seat for p in self.cards]  # a list: seats compare by identity, no hashing
        leader = self.leader
        for i in range(4):
            seat = leader.next(i)
            if seat not in present and seat is not self.absent:
                return seat
        raise StopIteration  # a complete trick has no next seat (as before: next() of nothing)

    def card_of(self, seat: Seat) -> "PlayedCard | None":
        return next((p for p in self.cards if p.seat is seat), None)


@attrs.frozen
class Contract:
    level: int
    strain: Strain
    risk: Risk
    declarer: Seat

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def side(self) -> Side:
        return self.declarer.side

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{self.risk}"


@attrs.frozen
class Irregularity:
    """An irregularity seen by the projection. ``kind``: an ``IrregularityKind`` member
    (``unprocessed`` marks an action stored as logged that no Law module rules on yet), or
    the text a stored ``IrregularityRecorded`` carries (free text on the wire: kept as it is)."""

    kind: str
    seq: int
    type: str
    offender: str | None = None
    detail: str = ""
    law: str | None = None
    trick: int | None = None
    established: bool | None = None
    """For a revoke (ledger.laws.revokes): established (63) or not yet."""


@attrs.frozen
class Claim:
    """A claim or concession (Law 68): ``tricks`` of the remaining tricks go
    to the claimer's side. ``status``: pending, agreed, disputed or ruled."""

    seq: int
    seat: Seat
    tricks: int
    remaining: int
    status: str = "pending"
    settled_tricks: int | None = None
    """Tricks of the remaining ones awarded to the claimer's side once settled."""
    disputed_seq: int | None = None
    statement: str | None = None
    """The claim statement (68C), as logged with ClaimMade."""
    disputed_by: Seat | None = None
    settled_seq: int | None = None
    """Seq of the ClaimAgreed or ClaimRuled that settled it."""
    ruling_text: str | None = None
    """The director's reasons (ClaimRuled.text)."""
    law: str | None = None
    """What settled it (spec 1.3, 10.D): 69A agreed, 70 ruled, 69B / 71 rescored, 68B2 void."""
    agreements: tuple[tuple[int, Seat], ...] = ()
    """Every ClaimAgreed (seq, by): the second defender's agreement is recorded too (69A)."""
    objections: tuple["Objection", ...] = ()
    """Every ClaimDisputed with its reading by moment and author (spec 1.3, 10.B)."""
    position: tuple[tuple[tuple[Card, ...], ...], tuple[PlayedCard, ...], Seat | None] | None = None
    """The position when the claim was made: the hands (N E S W), the trick in progress, the seat to
    play; the floor ``G`` (69B, 71) and the director's line (70) start from it."""
    line: tuple[Trick, ...] = ()
    """The director's line of play as tricks (ClaimRuled.line), not among the tricks played."""
    prior_phase: Phase | None = attrs.field(default=None, converter=attrs.converters.optional(Phase))
    """The phase when the claim was made: play resumes in it after 68B2."""
    ruled_tricks: int | None = None
    """The tricks the director awarded (ClaimRuled), before any later rescoring."""


@attrs.frozen
class Objection:
    """A ClaimDisputed and its reading (spec 1.3): ``law`` 68B2, 70, 69B, 71 or 79C."""

    seq: int
    by: Seat
    law: str
    immediate: bool | None = None


@attrs.frozen
class Review:
    """A question the engine put to the director (DirectorReviewRequired)."""

    seq: int
    reason: str
    about: int | None = None
    resolved: bool = False


@attrs.frozen
class Offer:
    """Options the Laws give a player (OptionsOffered), until chosen."""

    seq: int
    to: Seat
    options: tuple[str, ...]
    law: str


@attrs.frozen
class Choice:
    """An option taken (OptionChosen) from the offer at ``offer``."""

    seq: int
    offer: int
    seat: Seat
    option: str
    law: str
    suit: Suit | None = None


@attrs.frozen
class NotMade:
    """A call or a card that did not amount to a call or a play, and why."""

    seq: int
    seat: Seat
    what: str  # the call or the card, canonical
    reason: str
    law: str


@attrs.frozen
class MustPass:
    seq: int
    seat: Seat
    until: str  # next_turn | end_of_auction


@attrs.frozen
class Cap:
    seq: int
    side: Side
    max: str


@attrs.frozen
class Restriction:
    seq: int
    seat: Seat
    suit: Suit
    mode: str  # must | must_not
    lasts: str  # next_lead | while_on_lead


@attrs.frozen
class Finding:
    seq: int
    about: int
    field: str
    value: object


@attrs.frozen
class FaceDownLead:
    seat: Seat
    card: Card
    seq: int


@attrs.frozen
class Result:
    contract: str  # "4S" or "Pass"
    declarer: Seat | None
    risk: str
    tricks: int | None
    score_ns: int
    law: str

    @property
    def text(self) -> str:
        if self.contract == "Pass":
            return "Pass"
        assert self.tricks is not None
        level = int(self.contract[0])
        diff = self.tricks - (level + 6)
        rel = "=" if diff == 0 else f"{diff:+d}"
        return f"{self.contract}{self.risk} {self.declarer} {rel}"


@attrs.frozen
class TableState:
    stream: str
    seq: int
    head: str
    board: BoardOpened
    hands: tuple[tuple[Card, ...], ...]
    """Cards not yet played, per seat in N E S W order, display-sorted."""
    phase: Phase = attrs.field(default=Phase.AUCTION, converter=Phase)
    auction: tuple[AuctionCall, ...] = ()
    contract: Contract | None = None
    tricks: tuple[Trick, ...] = ()
    face_down_lead: FaceDownLead | None = None
    irregularities: tuple[Irregularity, ...] = ()
    claim: Claim | None = None
    review: tuple[Review, ...] = ()
    calls_not_made: tuple[NotMade, ...] = ()
    plays_not_made: tuple[NotMade, ...] = ()
    pending: tuple[Offer, ...] = ()
    choices: tuple[Choice, ...] = ()
    partner_must_pass: tuple[MustPass, ...] = ()
    caps: tuple[Cap, ...] = ()
    lead_restrictions: tuple[Restriction, ...] = ()
    findings: tuple[Finding, ...] = ()
    rectifications: tuple[tuple[str, int], ...] = ()
    """(key, seq) of the engine's rectifications in force (not overridden)."""
    cancelled: tuple[str, ...] = ()
    """Keys of rectifications a director or committee cancelled: never emitted again."""
    breaches: tuple["Breach", ...] = ()
    lead_hand: tuple[int, Seat] | None = None
    """43B2a: (trick, seat): the hand the defenders chose for declarer's lead to that trick."""
    """Leads or plays against a restriction or a penalty card when able to comply (61A)."""
    calls: tuple["CallRecord", ...] = ()
    """Every call-related fact with how the Laws classified it (ledger.laws.calls)."""
    card_records: tuple["CardRecord", ...] = ()
    """Every card-related fact with how the Laws classified it (ledger.laws.cards and the card families)."""
    exposures: tuple["Exposure", ...] = ()
    """Defenders' cards exposed without being played (49): the penalty cards' source."""
    result: Result | None = None
    result_recorded: int | None = None
    """Seq of the engine's ResultRecorded for the current result, if any."""
    adjusted: "Adjusted | None" = None
    """The adjusted score in force (Law 12): the latest valid award (ledger.laws.scores)."""
    penalties: tuple[tuple[str, str], ...] = ()
    """Procedural penalties in force (Law 90): (side, amount like "10%" or "3 IMP")."""
    decisions: tuple["Decision", ...] = ()
    """Every adjusted score, penalty, override and appeal event in force, in order."""
    appeals: tuple["Appeal", ...] = ()
    """Appeals lodged (AppealLodged) and how the committee decided (AppealDecided)."""
    board_facts: tuple["BoardFact", ...] = ()
    """Irregular boards and information (Laws 13 to 16): ledger.laws.boards."""
    result_cancelled: int | None = None
    """Seq of the fact that cancelled the table's result (13, 15B, ResultCancelled)."""
    out_of_turn: tuple["OutOfTurn", ...] = ()
    """Leads out of turn (Laws 41, 53 to 56) and how they were settled (ledger.laws.leads)."""
    premature: tuple["PrematurePlay", ...] = ()
    """Defenders' premature leads and plays (Law 57; 1997 53B / 2017 53C): ledger.laws.premature."""
    penalty_cards: tuple["PenaltyCard", ...] = ()
    """Penalty cards designated and not cleared (PenaltyCardDesignated/Cleared, Laws 50, 51)."""
    spreads: tuple[int, ...] = ()
    """Seqs of DummySpreadStarted facts (41D; 54A/54C after a lead out of turn)."""
    procedure: tuple["ProcedureFact", ...] = ()
    """Procedure and dummy facts (Laws 9 to 11, 42, 43, 61B, 64B): ledger.laws.revokes."""
    correction_period_ended: int | None = None
    """Seq of CorrectionPeriodEnded (79C1; spec 1.3): no objection to a claim has effect after it."""
    defective: tuple["DefectiveTrick", ...] = ()
    """Spec 1.3 (67): the defective tricks the director found (``DefectiveTrickFound``), known to the fold
    from the board's start when it reads the stream again (``projections.table.fold_log``)."""
    voided: tuple["Voided", ...] = ()
    """Entries voided as entry errors (EntryVoided): the fold skipped them (projections.resolve)."""
    memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)
    """Values derived from this (frozen) state, computed once where first read: not part of
    the state (not compared, not in the snapshot, fresh on every evolve)."""

    @property
    def edition(self) -> str:
        assert self.board.laws is not None
        return self.board.laws

    def cite(self, law: str) -> str:
        return cite(self.edition, law)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return self.hands[seat.index]

    def holds(self, seat: Seat, card: Card) -> bool:
        return card in self.hands[seat.index]

    def without_card(self, seat: Seat, card: Card) -> tuple[tuple[Card, ...], ...]:
        hands = list(self.hands)
        hands[seat.index] = tuple(c for c in hands[seat.index] if c != card)
        return tuple(hands)

    @property
    def dummy(self) -> Seat | None:
        return self.contract.dummy if self.contract else None

    @property
    def declarer(self) -> Seat | None:
        return self.contract.declarer if self.contract else None

    @property
    def current_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None

    @property
    def turn(self) -> Seat | None:
        """The seat whose call or card is due (dummy's seat on dummy's turn).

        Kept in the state's ``memo`` once computed (a fold step reads it several times; the
        fields it reads never change on a state). Read through a :class:`projections.derived.Reads`
        view it is computed on the view, so that what it reads is recorded."""
        if type(self) is TableState:
            memo = self.memo
            if "turn" in memo:
                cached: Seat | None = memo["turn"]
                return cached
            value = memo["turn"] = self.turn_now()
            return value
        return self.turn_now()

    def turn_now(self) -> Seat | None:
        """:attr:`turn`, computed."""
        dealer = self.board.dealer
        assert dealer is not None
        if self.phase == AUCTION:  # after the last call (a call out of rotation accepted, 29A, skips turns)
            return self.auction[-1].seat.lho if self.auction else dealer
        if self.phase == OPENING_LEAD:
            assert self.contract is not None
            return self.contract.declarer.lho
        if self.phase == PLAY:
            trick = self.current_trick
            assert trick is not None
            if trick.complete:
                if self.lead_hand is not None and self.lead_hand[0] == len(self.tricks) + 1:
                    return self.lead_hand[1]  # 43B2a: the hand the defenders chose
                return trick.winner
            return trick.next_seat
        return None

    def tricks_won(self) -> tuple[int, int]:
        """(declarer's side, defenders) as played."""
        if not self.contract:
            return (0, 0)
        side = self.contract.side
        won = sum(1 for t in self.tricks if t.winner is not None and t.winner.side is side)
        done = sum(1 for t in self.tricks if t.winner is not None)
        return (won, done - won)

    def add_irregularity(self, irregularity: Irregularity) -> "TableState":
        return attrs.evolve(self, irregularities=self.irregularities + (irregularity,))

    def offer(self, seq: int) -> Offer | None:
        return next((o for o in self.pending if o.seq == seq), None)

    def choice_for(self, offer_seq: int) -> "Choice | None":
        return next((c for c in self.choices if c.offer == offer_seq), None)


_STATE_FIELDS = tuple(a.name for a in attrs.fields(TableState) if a.init)
_set = object.__setattr__
"""The one in-place write of a frozen state (the copier below builds a new state with it, and
:func:`set_fresh` is the fold's only other use); tests/test_structure.py refuses it elsewhere."""


def set_fresh(fresh: TableState, **fields: Any) -> TableState:
    """Set ``fields`` in place on ``fresh``, a state a fold handler built in this very step (no one
    else holds it yet), rather than by one more copy of every field: the fold step's last touch
    (its seq, head and rectifications) and the calls' ``calls_not_made``. The derived values read
    from a state are checked by identity (``projections.derived``), so none outlives the change.
    The declarative engine's only in-place write: never call it on a state another may hold."""
    for name, value in fields.items():
        _set(fresh, name, value)
    return fresh


def _copier() -> Any:
    """``copy(state)``: a new TableState holding every field of ``state`` (a fresh ``memo``),
    built without ``__init__``. Generated once with one plain read per field (as attrs
    generates ``__init__``): a loop over the names with ``getattr`` costs half as much again."""
    lines = ["def copy(state):", "    new = _new(TableState)"]
    lines += [f"    _set(new, {name!r}, state.{name})" for name in _STATE_FIELDS]
    lines += ["    _set(new, 'memo', {})", "    return new"]
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": _set, "TableState": TableState}
    exec(compile("\n".join(lines), "<projections.state copy>", "exec"), namespace)
    return namespace["copy"]


_copy = _copier()


def unprocessed(state: TableState, seq: int, type_: str, seat: Any, detail: str) -> TableState:
    """The state with the fact at ``seq`` kept as an ``unprocessed`` irregularity (no Law reads it
    here): listed for the director, never dropped, never guessed."""
    return state.add_irregularity(Irregularity(IrregularityKind.UNPROCESSED, seq, type_,
                                               offender=str(seat) if seat is not None else None, detail=detail))


def replace(state: TableState, **changes: Any) -> TableState:
    """``attrs.evolve(state, **changes)`` for the fold's hot paths (a card played, a fact
    recorded): the same new state, with fresh derived values (``memo``), built without
    introspecting the class or re-running ``__init__`` (a third of the cost of a copy).
    ``phase`` is converted as ``__init__`` would; every other field is taken as given."""
    new: TableState = _copy(state)  # built by exec (see copy): typed here
    for name, value in changes.items():
        if name in _FIELD_SET:  # as before: a name that is no field is not set
            _set(new, name, value)
    if "phase" in changes and type(changes["phase"]) is not Phase:
        _set(new, "phase", Phase(changes["phase"]))
    return new


_FIELD_SET = frozenset(_STATE_FIELDS)


@attrs.frozen
class Breach:
    """A play against a penalty card or a lead restriction when able to comply: a revoke (61A)."""

    seq: int
    seat: Seat
    detail: str
    card: Card | None = None


@attrs.frozen
class CallRecord:
    """A call-related fact and the Laws' reading of it (ledger.laws.calls).

    ``ruling``: ``made`` (entered in the auction), ``not_made`` (57.3/57.4),
    ``unintended_corrected`` (25A), ``mi_change`` (21B1/21B2), ``change_of_mind``
    (25B, awaiting the LHO's option or settled by it), ``too_late`` (the change
    came after partner called: the first call stands), ``undecided`` (a
    judgment the director has not given yet), ``irregular``.
    """

    seq: int
    seat: Seat
    call: Call
    ruling: CallRuling = attrs.field(converter=CallRuling)
    replaces: int | None = None  # seq of the call replaced (CallReplaced)
    position: int | None = None  # index in the auction of the call replaced
    first_call: Call | None = None
    law: str | None = None
    detail: str = ""
    artificial: bool | None = None  # the judgment on a call out of rotation (29C, 30C; issue 12)


def initial_hands(board: BoardOpened) -> tuple[tuple[Card, ...], ...]:
    from ledger.bridge import SEATS
    return tuple(tuple(sort_cards(board.deal.hand(seat))) for seat in SEATS)


@attrs.frozen
class CardRecord:
    """A card-related fact and the Laws' reading of it (ledger.laws.cards and the card families).

    ``ruling``: ``played`` (the fact put ``card`` on the trick), ``not_played``
    (45C1, 45C2, 45C3, 48A, 46B4...), ``exposed`` (a defender's card exposed,
    not played: 49), ``undecided`` (a judgment nobody has given yet),
    ``choose`` (an incomplete designation completed by a choice: ``to`` picks
    one of ``options``, 46B3b, 46B4, 46B5), ``change_permitted`` /
    ``change_refused`` (45C4b; ``other`` is the first card), ``misplaced`` /
    ``misplaced_corrected`` / ``misplaced_stands`` (45D; ``other`` is the card
    declarer named), ``withdrawn`` (a legal withdrawal, 47A-47E, 45D, 41A),
    ``illegal_withdrawal`` (1997 47G, 2017 47F; ``other`` is the substituted
    card), ``no_played_card`` (a withdrawal of a card that is not played),
    ``lead_authorised`` (47E1: an opponent said it was his lead), ``retracted``
    (47E1: the lead out of turn that followed; ``about`` is the authorisation),
    ``irregular`` (kept for the director: see ``detail``).
    """

    seq: int
    type: str
    seat: Seat
    card: Card | None
    ruling: CardRuling = attrs.field(converter=CardRuling)
    law: str | None = None
    detail: str = ""
    about: int | None = None
    """The seq of the card or fact this one acts on (the first designation, the withdrawn card's play...)."""
    other: Card | None = None
    to: Seat | None = None
    options: tuple[str, ...] = ()
    review: str | None = None
    """A question for the director that goes with this ruling (47E2b), if any."""


@attrs.frozen
class Exposure:
    """A defender's card exposed without being played (Law 49): the later
    penalty-card rules (50) read these. ``how``: ``dropped`` (unintentional),
    ``substituted`` (put in place of a played card, an illegal withdrawal:
    1997 47G, 2017 47F), ``withdrawn`` (a revoke card withdrawn, 47B/62B1),
    ``named`` (named as the card he proposes to play, the change not permitted)."""

    seq: int
    seat: Seat
    card: Card
    how: str
    law: str


@attrs.frozen
class Adjusted:
    """An adjusted score (AdjustedScoreAwarded, Law 12) in force; ``by`` is the role that awarded it."""

    seq: int
    kind: str
    ns: object = None
    ew: object = None
    results: tuple[dict[str, object], ...] = ()
    law: str = ""
    text: str = ""
    by: str = "director"


@attrs.frozen
class Decision:
    """One decision event in force: ``type`` AdjustedScoreAwarded, ProceduralPenalty,
    RulingOverridden, AppealLodged or AppealDecided; ``by`` the role."""

    seq: int
    type: str
    by: str
    summary: str
    law: str | None = None
    about: int | None = None


@attrs.frozen
class Appeal:
    seq: int
    side: Side
    text: str
    decided: int | None = None
    decision: str | None = None
    decision_text: str = ""
    followed_by: int | None = None
    """Seq of the committee's own AdjustedScoreAwarded or RulingOverridden after a change."""


@attrs.frozen
class DefectiveTrick:
    """A ``DefectiveTrickFound`` (spec 1.3, Law 67): ``seat`` did not play to trick ``trick``. ``law`` is
    ``<ed>:67A`` or ``<ed>:67B`` once the fold has reached the finding; ``placed`` the seq of the card the
    offender then supplied (67A1) or placed among his played cards (67B1), ``card`` that card."""

    seq: int
    trick: int
    seat: Seat
    law: str | None = None
    placed: int | None = None
    card: Card | None = None


@attrs.frozen
class BoardFact:
    """A fact of Laws 13 to 16 and how the projection read it (``ruling``)."""

    seq: int
    type: str
    seat: Seat | None
    ruling: str
    law: str | None = None
    detail: str = ""
    card: Card | None = None


@attrs.frozen
class OutOfTurn:
    """A lead out of turn (ledger.laws.leads). ``kind``: ``opening_lead``
    (54), ``defender_lead`` (53, 56), ``declarer_lead`` (55), ``face_down``
    (a face-down opening lead out of turn, 41A). ``status``: ``pending`` (the
    option is open), ``accepted``, ``refused``, ``returned``. ``how``: the
    option or the act that settled it. ``correct``: the seat (hand) that
    should have led."""

    seq: int
    seat: Seat
    card: Card
    kind: OutOfTurnKind = attrs.field(converter=OutOfTurnKind)
    correct: Seat
    status: str = "pending"
    how: str = ""
    settled: int | None = None
    """Seq of the choice or act that settled it."""
    law: str | None = None


def pending_lead(state: TableState) -> OutOfTurn | None:
    """The lead out of turn whose option is still open (Laws 53 to 56): read by the leads
    family (``ledger.laws.leads``) and by those whose rules wait for it (penalty cards)."""
    return next((o for o in state.out_of_turn if o.status == "pending"), None)


@attrs.frozen
class PrematurePlay:
    """A defender's card led or played before his partner played to the trick (Law 57;
    ``ledger.laws.premature``). ``kind``: ``57A`` (a penalty card; declarer's options for
    the partner), ``57C1`` / ``57C2`` (declarer had played from both hands / dummy had
    played prematurely or indicated a card: no rectification, the card goes back), ``57C3``
    (declarer's premature play from either hand: a played card; 1997 the same reading, for the
    director), ``57D`` (2017: a play at his RHO's turn after his partner played; 1997 the
    same reading, for the director). ``status``: ``pending`` (the 57A offer is open),
    ``chosen``, ``lapsed`` (the partner played before declarer chose), ``played`` (57C3, 57D, put
    on the trick at his proper turn), ``penalty`` (57D, not legal: a major penalty card),
    ``returned`` (57C1). ``via``: the Law that led here (``53C`` / ``1997:53B``: the wrong
    defender played to declarer's lead out of turn, which then stands)."""

    seq: int
    seat: Seat
    card: Card
    kind: PrematureKind = attrs.field(converter=PrematureKind)
    trick: int = attrs.field()
    status: str = "pending"
    option: str | None = None
    suit: Suit | None = None
    settled: int | None = None
    law: str | None = None
    via: str | None = None


@attrs.frozen
class PenaltyCard:
    """A penalty card in force (PenaltyCardDesignated, Laws 49 to 51)."""

    seq: int
    seat: Seat
    card: Card
    kind: PenaltyKind = attrs.field(converter=PenaltyKind)
    law: str | None = None


@attrs.frozen
class ProcedureFact:
    """A procedure or dummy fact the revoke and dummy rules read (ledger.laws.revokes):
    AttentionDrawn, DirectorCalled, RevokeInquiry, DummyWarnedDeclarer, DummyViolation,
    RightsReserved, HandsReturned, NextBoardStarted, RoundEnded, ClaimAgreed,
    AdjustedScoreAwarded, RulingGiven. ``about`` is a seq (an id reference is kept
    in ``detail``)."""

    seq: int
    type: str
    by: Seat | None = None
    to: Seat | None = None
    about: int | None = None
    detail: str = ""


@attrs.frozen
class Voided:
    """An entry voided as an entry error (``EntryVoided`` at ``by``): it stays in the log,
    the fold proceeds as if it had not been made."""

    seq: int
    by: int
    reason: str
