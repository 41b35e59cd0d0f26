"""Cards exposed during the auction (Law 24, both editions): one family, its
reading and its rules (LAWS-DIGEST 14.11.1, LEDGER-SPEC 9.D6).

The reading (the fold, through ``ledger.laws.base.reads_auction_card``): a
``CardDropped`` during the auction is a card exposed; a ``CardPlayed`` during
the auction is a card prematurely led (24B). The card stays in its owner's
hand (face up on the table until the auction ends).

The rules: at once, an honour (A K Q J 10), a card led, or a second card of
the same player makes his partner pass at his next turn (24B, 24C). When the
auction closes: a card of the declaring side goes back to the hand
(``CardReturned``); a defender's card is, 2017, a penalty card (24E: minor for
one low card not led, else major), 1997, declarer's choice (``treat_as_penalty_card``
or ``return_to_hand``, one choice for all the cards: LAWS-DIGEST 14.12 decision 9).

2017 54E (1997: Law 24, the auction period lasting until the opening lead is
faced): a card the presumed declarer or dummy faces as if leading at trick one
goes back to the hand, no penalty card; the correct defender still leads.
"""

from __future__ import annotations

from ledger.bridge import Card, Seat
from ledger.events import CardReturned, Event, IrregularityRecorded, OptionsOffered, PartnerMustPass, PenaltyCardDesignated
from ledger.laws.base import Prescription, Ruled, reads_auction_card
from projections import cards as reading
from projections.state import AUCTION, OPENING_LEAD, CardRecord, TableState
from projections.vocab import CardRuling, Edition, IrregularityKind, PenaltyKind

LAWS = ("24",)
"""The Laws this family rules on (``ledger.laws.find_law``)."""

EXPOSED = CardRuling.AUCTION_EXPOSED
HONOURS = ("A", "K", "Q", "J", "T")
OPTIONS_1997 = ("treat_as_penalty_card", "return_to_hand")


@reads_auction_card
def read_card(state: TableState, seq: int, type_: str, seat: Seat, card: Card | None) -> TableState | None:
    """A card dropped or played during the auction (None: not this family's)."""
    if card is None or not state.holds(seat, card):
        return None
    if state.phase == OPENING_LEAD:
        contract = state.contract
        if (type_ != "CardPlayed" or contract is None or seat.side is not contract.side or state.tricks
                or state.face_down_lead is not None or any(o.status == "pending" for o in state.out_of_turn)):
            return None  # not 54E: e.g. declarer playing to a defender's lead out of turn (54B)
        law = state.cite("54E" if state.edition == Edition.E2017 else "24")
        return reading.record_card(state, CardRecord(
            seq, type_, seat, card, EXPOSED, law,
            detail=f"{card} of {seat} (declaring side) faced at the opening lead: back to the hand, "
                   f"{contract.declarer.lho} leads"))
    if state.phase != AUCTION:
        return None
    led = type_ == "CardPlayed"
    before = sum(1 for r in state.card_records if r.ruling == EXPOSED and r.seat is seat)
    honour = card.rank in HONOURS
    law = state.cite("24C" if before else "24B" if honour or led else "24A")
    what = "led prematurely" if led else "exposed"
    return reading.record_card(state, CardRecord(seq, type_, seat, card, EXPOSED, law,
                                                 detail=f"{card} of {seat} {what} during the auction"))


def _at_lead(rec: CardRecord) -> bool:
    """2017 54E (1997 24): the declaring side's card faced at the opening lead."""
    return "faced at the opening lead" in rec.detail


def _records(state: TableState) -> list[CardRecord]:
    return [r for r in state.card_records if r.ruling == EXPOSED]


def exposed_in_auction(state: TableState) -> list[Prescription]:
    out: list[Prescription] = []
    records = _records(state)
    for rec in records:
        assert rec.law is not None and rec.card is not None

        def p(event: Event, law: str | None = None) -> Prescription:
            return Prescription(event, (rec.seq,), law or rec.law)

        out.append(p(IrregularityRecorded(kind=IrregularityKind.EXPOSED_CARD, offender=str(rec.seat), about=rec.seq)))
        if _at_lead(rec):
            out.append(p(CardReturned(seat=rec.seat, card=rec.card)))
        elif rec.law.endswith(":24C"):  # a second card: the partner passes at his next turn again, even after
            # he passed once for the first (a new obligation, so not the same event as the first's)
            out.append(p(PartnerMustPass(seat=rec.seat.partner, until="next_turn", about=rec.seq)))
        elif not rec.law.endswith(":24A"):
            out.append(p(PartnerMustPass(seat=rec.seat.partner, until="next_turn")))
    contract = state.contract
    if contract is None or state.phase == AUCTION or not records:
        return out
    declarer = contract.declarer
    defenders = [r for r in records if r.seat.side is not contract.side]
    for rec in records:
        assert rec.card is not None
        if rec.seat.side is contract.side and not _at_lead(rec):
            out.append(Prescription(CardReturned(seat=rec.seat, card=rec.card), (rec.seq,), state.cite("24")))
    if not defenders:
        return out
    if state.edition == Edition.E2017:
        choice = "treat_as_penalty_card"
    else:
        offer = OptionsOffered(to=declarer, options=OPTIONS_1997, law=state.cite("24"))
        out.append(Prescription(offer, tuple(r.seq for r in defenders), state.cite("24")))
        chosen = next((c for c in state.choices if c.law == state.cite("24")), None)
        if chosen is None:
            return out
        choice = chosen.option
    for rec in defenders:
        assert rec.card is not None
        if choice == "return_to_hand":
            out.append(Prescription(CardReturned(seat=rec.seat, card=rec.card), (rec.seq,), state.cite("24")))
            continue
        mine = [r for r in defenders if r.seat is rec.seat]
        minor = len(mine) == 1 and rec.law.endswith(":24A") if rec.law else False
        law = state.cite("24E" if state.edition == Edition.E2017 else "24")
        out.append(Prescription(PenaltyCardDesignated(seat=rec.seat, card=rec.card, kind=PenaltyKind.MINOR if minor else PenaltyKind.MAJOR),
                                (rec.seq,), law))
    return out


# -- words and citations -----------------------------------------------------------------

RULINGS: dict[CardRuling, Ruled] = {
    CardRuling.AUCTION_EXPOSED: Ruled("auction exposed", {"1997": "24", "2017": "24"}),
}
"""The card ruling this family reads (Law 24): how it reads for people (``ledger.render``, the
document's ``card_rulings``) and its Law by edition, every edition named (``None``: cannot arise
under it; none here); the record carries its own case (1997 24, 24B; 2017 24A, 24B, 54E)."""
