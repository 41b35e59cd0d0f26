"""Was the card played? Laws 41, 45, 46 and 47 (with 48A and 49 for cards
exposed without being played), both editions side by side.

Each card-related fact leaves a :class:`CardRecord` saying how the Laws read
it; the ruling engine (``ledger.laws.cards``) derives the rectifications from
those records. Judgment fields (``partner_could_see``, ``face_up_near_table``,
``lowest_winner``, ``inadvertent``, ``without_pause``) are read as resolved by
the director's findings (``projections.resolve``); a judgment nobody has given
yet leaves the record ``undecided`` and the table as it was, and the engine
asks the director.

| fact | 1997 | 2017 |
|---|---|---|
| defender's card held | played if his partner could see its face (45C1) | same |
| declarer's card held | played if face up, touching or nearly touching the table (45C2) | same |
| card dropped | not played; declarer is not penalised (48A); a defender's card is exposed (49) | same |
| dummy's card touched | played unless arranging or reaching (45C3) | same |
| card named | played (45C4a) | same |
| designation changed | any player: inadvertent and without pause for thought (45C4b) | declarer, a card of dummy: unintended, until declarer next plays (45C4b) |
| "high" from dummy | highest of the suit; in fourth seat may be deemed the lowest winning card (FFB 46B1a) | highest of the suit led (46B1a) |
| "win" | lowest winning card (46B1a) | lowest card known to win (46B1b) |
| "low" | lowest card (46B1b) | lowest of the suit led (46B1c) |
| illegal withdrawal | 47G | 47F |
"""

from __future__ import annotations

import attrs

from ledger.bridge import RANKS, Card, Seat, Suit, sort_cards
from ledger.events import (AttentionDrawn, CardDropped, CardHeld, CardNamed, CardPlayed, CardWithdrawn,
                           DesignationChanged, DummyCardCalled, DummyCardTouched, DummyMisplaced,
                           LeadAuthorisedByOpponent)
from projections import play
from projections.play import played_result, trick_winner, try_play
from projections.fold import Step, handles, option_effects
from projections.procedure import journalled
from projections.state import (AUCTION, ENDED, OPENING_LEAD, PLAY, CardRecord, Choice, Exposure, Irregularity,
                               NotMade, PlayedCard, TableState, Trick)

NAMING_LAWS = frozenset({"45B", "45C4a", "45C4b", "46B1a", "46B1b", "46B1c", "46B2", "46B3a", "46B3b",
                         "46B4", "46B5"})
"""Why a card counts as played when it was named or designated: what 45C4b may change."""

DESIGNATION_LAWS = ("46B3b", "46B4", "46B5")
"""Offers of a choice of dummy's card: answered by dummy's next card, however designated."""

EITHER_DEFENDER_LAWS = ("43B2a", "46B5", "55A")
"""Offers made to one defender that either defender may take (the first to choose decides)."""


def law_of(citation: str | None) -> str:
    """``"2017:46B3b"`` -> ``"46B3b"``."""
    return (citation or "").split(":", 1)[-1]


# -- small state helpers -----------------------------------------------------

def record_card(state: TableState, rec: CardRecord) -> TableState:
    return attrs.evolve(state, card_records=state.card_records + (rec,))


def _set_record(state: TableState, rec: CardRecord) -> TableState:
    return attrs.evolve(state, card_records=tuple(rec if r.seq == rec.seq else r for r in state.card_records))


def not_made(state: TableState, seq: int, seat: Seat, what: str, reason: str, law: str) -> TableState:
    return attrs.evolve(state, plays_not_made=state.plays_not_made + (NotMade(seq, seat, what, reason, law),))


def _expose(state: TableState, seq: int, seat: Seat, card: Card, how: str, law: str) -> TableState:
    return attrs.evolve(state, exposures=state.exposures + (Exposure(seq, seat, card, how, law),))


def _unprocessed(state: TableState, seq: int, type_: str, seat: Seat | None, detail: str) -> TableState:
    return state.add_irregularity(Irregularity("unprocessed", seq, type_,
                                               offender=str(seat) if seat else None, detail=detail))


def _is_defender(state: TableState, seat: Seat) -> bool:
    return state.contract is not None and seat.side is not state.contract.side


def with_card_back(hands: tuple[tuple[Card, ...], ...], seat: Seat, card: Card) -> tuple[tuple[Card, ...], ...]:
    out = list(hands)
    out[seat.index] = tuple(sort_cards(out[seat.index] + (card,)))
    return tuple(out)


def locate(state: TableState, seat: Seat, card: Card) -> tuple[int, PlayedCard] | None:
    """(index of the trick, the played card) for a card of ``seat`` on a trick."""
    for i, trick in enumerate(state.tricks):
        for p in trick.cards:
            if p.seat is seat and p.card == card:
                return i, p
    return None


def _card_played_after(state: TableState, seats: tuple[Seat, ...], seq: int) -> bool:
    return any(p.seq > seq and p.seat in seats for t in state.tricks for p in t.cards)


def _with_trick(state: TableState, index: int, trick: Trick) -> TableState:
    """The state with trick ``index`` replaced: winner, phase and result follow."""
    assert state.contract is not None
    winner = trick_winner(trick.cards, state.contract.strain) if trick.complete else None
    trick = attrs.evolve(trick, winner=winner)
    tricks = state.tricks[:index] + (trick,) + state.tricks[index + 1:]
    if not trick.cards and index == len(tricks) - 1:
        tricks = tricks[:-1]
    state = attrs.evolve(state, tricks=tricks)
    if state.claim is not None:
        return state  # play had ceased: the claim's result stands (the director rules on the rest)
    if len(tricks) == 13 and tricks[-1].complete:
        return attrs.evolve(state, phase=ENDED, result=played_result(state))
    return attrs.evolve(state, phase=PLAY if tricks else OPENING_LEAD, result=None)


def replace_card(state: TableState, index: int, seat: Seat, card: Card, seq: int,
                  law: str) -> tuple[TableState, str | None]:
    """``card`` takes the place of ``seat``'s card on trick ``index`` (which goes
    back to the hand). Returns the state and a question for the director when
    the change alters the winner of a trick after which play went on."""
    trick = state.tricks[index]
    old = trick.card_of(seat)
    assert old is not None
    hands = with_card_back(state.hands, seat, old.card)
    hands = tuple(tuple(c for c in h if c != card) if i == seat.index else h for i, h in enumerate(hands))
    cards = tuple(PlayedCard(seat, card, seq, law) if p.seat is seat else p for p in trick.cards)
    before = trick.winner
    new = _with_trick(attrs.evolve(state, hands=hands), index, attrs.evolve(trick, cards=cards))
    after = new.tricks[index].winner
    question = None
    if index < len(state.tricks) - 1 and before is not after:
        question = (f"the change makes {after} the winner of trick {trick.number} instead of {before}, "
                    f"after the next trick began: who leads, and what becomes of the cards played since?")
    return new, question


def remove_card(state: TableState, index: int, seat: Seat) -> TableState:
    """``seat``'s card leaves trick ``index`` (the last trick) and goes back to the hand."""
    trick = state.tricks[index]
    old = trick.card_of(seat)
    assert old is not None
    state = attrs.evolve(state, hands=with_card_back(state.hands, seat, old.card))
    return _with_trick(state, index, attrs.evolve(trick, cards=tuple(p for p in trick.cards if p.seat is not seat)))


def _clear_designation_offers(state: TableState) -> TableState:
    """Dummy has played: an offer to designate dummy's card is answered."""
    pending = tuple(o for o in state.pending if law_of(o.law) not in DESIGNATION_LAWS)
    return attrs.evolve(state, pending=pending) if pending != state.pending else state


# -- playing a card: 47E1 first -----------------------------------------------

def _authorisation(state: TableState, seat: Seat) -> CardRecord | None:
    """An opponent's word that it was ``seat``'s turn (47E1), still to be acted
    on, when ``seat`` now leads (1997) or leads or plays (2017) out of turn."""
    if state.phase not in (OPENING_LEAD, PLAY) or seat is state.turn:
        return None
    trick = state.current_trick
    leading = state.phase == OPENING_LEAD or trick is None or trick.complete
    if not leading and state.edition == "1997":
        return None
    for rec in reversed(state.card_records):
        if rec.seat is not seat:
            continue
        if rec.ruling == "retracted":
            return None  # the word was acted on
        if rec.ruling == "lead_authorised":
            acted = any(p.seat is seat and p.seq > rec.seq for t in state.tricks for p in t.cards)
            return None if acted else rec
    return None


def play_card(state: TableState, seq: int, type_: str, seat: Seat, card: Card,
              law: str) -> tuple[TableState, bool]:
    """A card that counts as played by ``law``: retracted under 47E1 when an
    opponent told the player it was his turn; else onto the trick if in turn."""
    auth = _authorisation(state, seat)
    if auth is not None:
        state = record_card(state, CardRecord(seq, type_, seat, card, "retracted", state.cite("47E1"),
                                          detail=f"{auth.detail}; retracted without rectification, "
                                                 "it may not be accepted", about=auth.seq))
        what = "lead" if state.phase == OPENING_LEAD or state.current_trick is None or \
            state.current_trick.complete else "play"
        return not_made(state, seq, seat, str(card),
                         f"{what} out of turn after an opponent said it was his turn: retracted, "
                         "may not be accepted", state.cite("47E1")), False
    state, placed = try_play(state, seq, type_, seat, card, law)
    if placed and seat is state.dummy:
        state = _clear_designation_offers(state)
    return state, placed


def _played(state: TableState, seq: int, type_: str, seat: Seat, card: Card, law: str) -> TableState:
    """Play ``card`` and record the fact's reading."""
    state, placed = play_card(state, seq, type_, seat, card, law)
    if placed:
        return record_card(state, CardRecord(seq, type_, seat, card, "played", law))
    return state


def _outside_play(state: TableState, seq: int, ev, seat: Seat, what: str) -> TableState | None:
    """A card fact before the auction closed or after play ended: not ruled here."""
    if state.phase == AUCTION or state.contract is None:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{what} during the auction (Law 24): no ruling on it yet")
    if state.phase == ENDED:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{what} after play ended")
    return None


# -- CardPlayed, CardHeld, CardDropped, CardNamed, DummyCardTouched ------------

@handles(CardPlayed)
def on_card_played(state: TableState, step: Step[CardPlayed]) -> TableState:
    seq, ev = step.seq, step.event
    if ev.fifth_card or state.phase in (AUCTION, ENDED):
        return play.on_card_played(state, seq, ev)
    return play_card(state, seq, ev.TYPE, ev.seat, ev.card, play.play_law(state, ev.seat))[0]


@handles(CardHeld)
def on_card_held(state: TableState, step: Step[CardHeld]) -> TableState:
    seq, ev = step.seq, step.event
    seat, card = ev.seat, ev.card
    outside = _outside_play(state, seq, ev, seat, f"{card} of {seat} held")
    if outside is not None:
        return outside
    if seat is state.dummy:
        state = not_made(state, seq, seat, str(card), "dummy's cards are played when declarer names them",
                          state.cite("45B"))
        return record_card(state, CardRecord(seq, ev.TYPE, seat, card, "not_played", state.cite("45B")))
    if seat is state.declarer:
        law, seen = state.cite("45C2"), ev.face_up_near_table
        question = "was declarer's card held face up, touching or nearly touching the table?"
        reason = "not held face up, touching or nearly touching the table"
    else:
        law, seen = state.cite("45C1"), ev.partner_could_see
        question = "could the defender's partner see the face of the card held?"
        reason = "held so that partner could not see its face"
    if seen is None:
        return record_card(state, CardRecord(seq, ev.TYPE, seat, card, "undecided", law, detail=question))
    if seen:
        return _played(state, seq, ev.TYPE, seat, card, law)
    state = not_made(state, seq, seat, str(card), reason, law)
    return record_card(state, CardRecord(seq, ev.TYPE, seat, card, "not_played", law, detail=reason))


@handles(CardDropped)
def on_card_dropped(state: TableState, step: Step[CardDropped]) -> TableState:
    seq, ev = step.seq, step.event
    seat, card = ev.seat, ev.card
    outside = _outside_play(state, seq, ev, seat, f"{card} of {seat} dropped")
    if outside is not None:
        return outside
    if seat is state.declarer:
        law = state.cite("48A")
        reason = "dropped by accident: declarer is not required to play it, and is not penalised"
        state = not_made(state, seq, seat, str(card), reason, law)
        return record_card(state, CardRecord(seq, ev.TYPE, seat, card, "not_played", law, detail=reason))
    if seat is state.dummy:
        law = state.cite("45B")
        state = not_made(state, seq, seat, str(card), "dummy's cards are played when declarer names them", law)
        return record_card(state, CardRecord(seq, ev.TYPE, seat, card, "not_played", law))
    law = state.cite("49")
    state = not_made(state, seq, seat, str(card), "dropped by accident: exposed, not played", law)
    state = _expose(state, seq, seat, card, "dropped", law)
    return record_card(state, CardRecord(seq, ev.TYPE, seat, card, "exposed", law,
                                     detail="a defender's card exposed by accident"))


@handles(CardNamed)
def on_card_named(state: TableState, step: Step[CardNamed]) -> TableState:
    seq, ev = step.seq, step.event
    outside = _outside_play(state, seq, ev, ev.seat, f"{ev.card} of {ev.seat} named")
    if outside is not None:
        return outside
    return _played(state, seq, ev.TYPE, ev.seat, ev.card, state.cite("45C4a"))


@handles(DummyCardTouched)
def on_dummy_card_touched(state: TableState, step: Step[DummyCardTouched]) -> TableState:
    seq, ev = step.seq, step.event
    dummy = state.dummy
    if dummy is None or state.phase not in (OPENING_LEAD, PLAY):
        return _unprocessed(state, seq, ev.TYPE, dummy, f"dummy's {ev.card} touched outside the play")
    law = state.cite("45C3")
    if ev.purpose == "play":
        return _played(state, seq, ev.TYPE, dummy, ev.card, law)
    reason = {"arrange": "touched to arrange dummy's cards",
              "reach": "touched to reach a card above or below it"}[ev.purpose]
    state = not_made(state, seq, dummy, str(ev.card), reason, law)
    return record_card(state, CardRecord(seq, ev.TYPE, dummy, ev.card, "not_played", law, detail=reason))


# -- DummyCardCalled: Law 46B -------------------------------------------------

@attrs.frozen
class Designation:
    """What an incomplete or invalid designation of dummy's card comes to (46B)."""

    kind: str  # card | choose | void | review
    law: str  # without the edition
    card: Card | None = None
    question: str = ""


def _strength(card: Card, led: Suit | None, trump: Suit | None) -> tuple[int, int]:
    if trump is not None and card.suit is trump:
        return (2, card.strength)
    if card.suit is led:
        return (1, card.strength)
    return (0, 0)


def _winners(state: TableState, candidates: list[Card], known: bool) -> list[Card]:
    """Dummy's cards among ``candidates`` that beat the cards on the trick; with
    ``known``, that also beat every card of their suit the defenders still
    hold (a ruff by a defender yet to play cannot be known, and is not counted)."""
    assert state.contract is not None
    trick = state.current_trick
    on_trick = () if trick is None or trick.complete else trick.cards
    trump = state.contract.strain.trump
    led = on_trick[0].card.suit if on_trick else None
    best = max((_strength(p.card, led, trump) for p in on_trick), default=None)
    out = []
    for card in sorted(candidates, key=lambda c: c.strength):
        mine = _strength(card, led or card.suit, trump)
        if best is not None and mine <= best:
            continue
        if known:
            outstanding = [c for s in state.board.deal.hands if s.side is not state.contract.side
                           for c in state.hand(s) if c.suit is card.suit]
            if any(c.strength > card.strength for c in outstanding):
                continue
        out.append(card)
    return out


def _legal(hand: tuple[Card, ...], led: Suit | None) -> list[Card]:
    if led is not None and any(c.suit is led for c in hand):
        return [c for c in hand if c.suit is led]
    return list(hand)


def designate(state: TableState, suit: Suit | None, rank: str | None,
              lowest_winner: bool | None) -> Designation:
    """Complete declarer's designation of a card from dummy by Law 46B (the
    card, a choice to offer, a void designation, or a question)."""
    assert state.contract is not None and state.dummy is not None
    dummy, edition = state.dummy, state.edition
    hand = state.hand(dummy)
    trick = state.current_trick
    leading = trick is None or trick.complete
    on_trick = () if leading else trick.cards  # type: ignore[union-attr]
    led = None if leading else trick.suit_led  # type: ignore[union-attr]
    fourth = len(on_trick) == 3
    if suit is None and rank is None:
        return Designation("choose", "46B5")
    if rank is None:  # a suit, no rank: its lowest card
        of_suit = [c for c in hand if c.suit is suit]
        return Designation("card", "46B2", min(of_suit, key=lambda c: c.strength)) if of_suit else \
            Designation("void", "46B4")
    if _is_rank(rank):
        if suit is not None:
            card = Card(suit, rank)
            return Designation("card", "45B", card) if card in hand else Designation("void", "46B4")
        return _rank_only(state, hand, rank, leading, led)
    # "high", "low", "win"
    law = {("1997", "high"): "46B1a", ("1997", "win"): "46B1a", ("1997", "low"): "46B1b",
           ("2017", "high"): "46B1a", ("2017", "win"): "46B1b", ("2017", "low"): "46B1c"}[(edition, rank)]
    if rank == "win":
        if suit is not None:
            pool = [c for c in hand if c.suit is suit]
        elif leading:
            return Designation("review", law, question=f"'{rank}' from dummy on lead, with no suit named: "
                                                      "which card did declarer designate?")
        else:
            trump = state.contract.strain.trump
            pool = [c for c in hand if c.suit is led] or [c for c in hand if c.suit is trump]
        winners = _winners(state, pool, known=not fourth)
        if not winners:
            return Designation("review", law, question="'win' from dummy, but no card of dummy is known to "
                                                      "win the trick: which card did declarer designate?")
        return Designation("card", law, winners[0])
    target = suit or led
    if target is None:
        return Designation("review", law, question=f"'{rank}' from dummy on lead, with no suit named: "
                                                  "which card did declarer designate?")
    of_suit = [c for c in hand if c.suit is target]
    if not of_suit:
        if suit is not None:
            return Designation("void", "46B4")
        return Designation("review", law, question=f"'{rank}' from dummy, which holds no card of the suit led: "
                                                  "which card did declarer designate?")
    if rank == "low":
        if edition == "2017" and suit is not None and suit is not led:
            law = "46B2"  # 2017 "low" is of the suit led; a suit named and no rank: its lowest card
        return Designation("card", law, min(of_suit, key=lambda c: c.strength))
    highest = max(of_suit, key=lambda c: c.strength)
    if edition == "1997" and fourth:
        winners = _winners(state, of_suit, known=False)
        if winners and winners[0] != highest:
            if lowest_winner is None:
                return Designation("review", law, question=f"'high' from dummy in fourth seat: is it deemed the "
                                                          f"lowest winning card ({winners[0]}) rather than the "
                                                          f"highest ({highest})?")
            if lowest_winner:
                return Designation("card", law, winners[0])
    return Designation("card", law, highest)


def _rank_only(state: TableState, hand: tuple[Card, ...], rank: str, leading: bool,
               led: Suit | None) -> Designation:
    """46B3: a rank and no suit."""
    with_rank = [c for c in hand if c.rank == rank]
    if not with_rank:
        return Designation("void", "46B4")
    if leading and state.tricks:
        previous = state.tricks[-1]
        mine = previous.card_of(state.dummy) if previous.winner is state.dummy else None  # type: ignore[arg-type]
        if mine is not None and Card(mine.card.suit, rank) in hand:
            return Designation("card", "46B3a", Card(mine.card.suit, rank))
    legal = [c for c in with_rank if c in _legal(hand, led)]
    if len(legal) == 1:
        return Designation("card", "46B3b", legal[0])
    if legal:
        return Designation("choose", "46B3b")
    return Designation("review", "46B3b", question=f"rank {rank} named from dummy, but no card of that rank can "
                                                   "legally be played: which card did declarer designate?")


def _is_rank(rank: str | None) -> bool:
    """A rank (``"Q"``), not ``high``, ``low`` or ``win``."""
    return rank is not None and len(rank) == 1 and rank in RANKS


def _options(cards: list[Card]) -> tuple[str, ...]:
    return tuple(f"play:{c}" for c in sort_cards(cards))


@handles(DummyCardCalled)
def on_dummy_card_called(state: TableState, step: Step[DummyCardCalled]) -> TableState:
    seq, ev = step.seq, step.event
    dummy = state.dummy
    if dummy is None or state.phase not in (OPENING_LEAD, PLAY):
        return _unprocessed(state, seq, ev.TYPE, dummy, "a card of dummy designated outside the play")
    if ev.by is not None and ev.by.side is not dummy.side:
        return _defender_designates(state, seq, ev)
    if state.turn is not dummy:
        return _unprocessed(state, seq, ev.TYPE, dummy,
                            f"a card of dummy designated while {state.turn} is to play")
    d = designate(state, ev.suit, ev.rank, ev.lowest_winner)
    law = state.cite(d.law)
    said = (f"{ev.suit}{ev.rank}" if ev.suit is not None and _is_rank(ev.rank) else
            " ".join(str(x) for x in (ev.suit, ev.rank) if x is not None) or "play anything")
    if d.kind == "card":
        assert d.card is not None
        open_choice = next((c for c in (_open_choice(state, "46B4"), _open_choice(state, "46B3b")) if c), None)
        if d.law == "45B" and open_choice is not None:
            law = open_choice.law or law  # declarer designates the card the Law left to him
        return _played(state, seq, ev.TYPE, dummy, d.card, law)
    if d.kind == "review":
        return record_card(state, CardRecord(seq, ev.TYPE, dummy, None, "undecided", law,
                                         detail=f"declarer said '{said}': {d.question}"))
    trick = state.current_trick
    led = None if trick is None or trick.complete else trick.suit_led
    legal = _legal(state.hand(dummy), led)
    to: Seat | None
    if d.kind == "choose" and d.law == "46B5":
        to, options = dummy.lho, _options(legal)
        detail = "declarer named neither suit nor rank: either defender designates dummy's card"
    elif d.kind == "choose":
        to = state.declarer
        options = _options([c for c in legal if c.rank == ev.rank])
        detail = f"declarer named rank {ev.rank}: he designates which card of that rank"
    else:  # void: 46B4
        to, options = state.declarer, _options(legal)
        detail = f"declarer designated '{said}', which is not in dummy: he may designate any legal card"
        if ev.suit is not None and _is_rank(ev.rank):
            state = not_made(state, seq, dummy, f"{ev.suit}{ev.rank}", "not in dummy: the designation is void",
                              law)
    assert to is not None
    return record_card(state, CardRecord(seq, ev.TYPE, dummy, None, "choose", law, detail=detail, to=to,
                                     options=options))


def _open_choice(state: TableState, law: str) -> CardRecord | None:
    """The latest designation awaiting a choice under ``law``, if dummy has not played since."""
    for rec in reversed(state.card_records):
        if rec.seat is state.dummy and rec.ruling == "played":
            return None
        if rec.ruling == "choose" and law_of(rec.law) == law:
            dummy_played = _card_played_after(state, (rec.seat,), rec.seq)
            return None if dummy_played else rec
    return None


def _defender_designates(state: TableState, seq: int, ev: DummyCardCalled) -> TableState:
    """46B5: after 'play anything', either defender designates dummy's card."""
    dummy = state.dummy
    assert dummy is not None
    waiting = _open_choice(state, "46B5")
    if waiting is None:
        return _unprocessed(state, seq, ev.TYPE, ev.by,
                            f"{ev.by} designated a card of dummy, but declarer had not left the choice to the "
                            "defenders (46B5)")
    if ev.suit is None or not _is_rank(ev.rank):
        return _unprocessed(state, seq, ev.TYPE, ev.by, f"{ev.by} must designate a card of dummy (suit and rank)")
    card = Card(ev.suit, ev.rank)  # type: ignore[arg-type]
    if f"play:{card}" not in waiting.options:
        return _unprocessed(state, seq, ev.TYPE, ev.by,
                            f"{ev.by} designated {card}, which dummy cannot legally play (options: "
                            f"{', '.join(waiting.options)})")
    return _played(state, seq, ev.TYPE, dummy, card, waiting.law or state.cite("46B5"))


def on_designation_chosen(state: TableState, choice: Choice) -> TableState:
    """OptionChosen ``play:<card>`` under 46B3b, 46B4 or 46B5: dummy plays it."""
    dummy = state.dummy
    if dummy is None or not choice.option.startswith("play:"):
        return state
    card = Card.parse(choice.option.split(":", 1)[1])
    return _played(state, choice.seq, "OptionChosen", dummy, card, choice.law)


# -- DesignationChanged: Law 45C4b ------------------------------------------------

def _last_named(state: TableState) -> tuple[int, PlayedCard] | None:
    """The card just named or designated (the latest one on a trick)."""
    best: tuple[int, PlayedCard] | None = None
    for i, trick in enumerate(state.tricks):
        for p in trick.cards:
            if law_of(p.law) in NAMING_LAWS and (best is None or p.seq > best[1].seq):
                best = (i, p)
    return best


@handles(DesignationChanged)
def on_designation_changed(state: TableState, step: Step[DesignationChanged]) -> TableState:
    seq, ev = step.seq, step.event
    new = ev.card
    found = _last_named(state)
    holder = state.board.deal.holder(new)
    if found is None or state.phase not in (PLAY, ENDED):
        return _unprocessed(state, seq, ev.TYPE, holder, f"designation changed to {new}, but no card was named")
    index, first = found
    seat = first.seat
    if holder is not seat or new == first.card:
        return _unprocessed(state, seq, ev.TYPE, holder,
                            f"designation of {first.card} ({seat}) changed to {new}, of {holder}'s hand")
    law = state.cite("45C4b")
    rec = CardRecord(seq, ev.TYPE, seat, new, "undecided", law, about=first.seq, other=first.card)
    ruling, why = _change_ruling(state, ev, first)
    if ruling == "undecided":
        return record_card(state, attrs.evolve(rec, detail=f"{first.card} changed to {new}: {why}"))
    if ruling == "change_refused":
        state = not_made(state, seq, seat, str(new), f"change of designation not permitted ({why}): "
                                                      f"{first.card} stands", law)
        if _is_defender(state, seat):
            state = _expose(state, seq, seat, new, "named", state.cite("49"))
        return record_card(state, attrs.evolve(rec, ruling=ruling, detail=why))
    state, question = replace_card(state, index, seat, new, seq, law)
    state = not_made(state, first.seq, seat, str(first.card), f"designation changed ({why})", law)
    return record_card(state, attrs.evolve(rec, ruling=ruling, detail=why, review=question and f"45C4b {question}"))


def _change_ruling(state: TableState, ev: DesignationChanged, first: PlayedCard) -> tuple[str, str]:
    """(ruling, why) for a change of designation, by edition."""
    if state.edition == "2017":
        if first.seat is not state.dummy:
            return "change_refused", "2017 45C4b lets declarer change only a designation of dummy's card"
        if _card_played_after(state, (state.declarer, state.dummy), first.seq):  # type: ignore[arg-type]
            return "change_refused", "declarer has played a card since"
        if ev.inadvertent is None:
            return "undecided", "was the designation unintended (a slip of the tongue or a mechanical error)?"
        if not ev.inadvertent:
            return "change_refused", "not an unintended designation: a change of mind"
        return "change_permitted", "unintended designation, changed before declarer next played"
    if ev.inadvertent is False:
        return "change_refused", "not inadvertent: a change of intention"
    if ev.without_pause is False:
        return "change_refused", "changed after a pause for thought"
    if ev.inadvertent is None:
        return "undecided", "was the designation inadvertent?"
    if ev.without_pause is None:
        return "undecided", "was it changed without pause for thought?"
    return "change_permitted", "inadvertent designation, changed without pause for thought"


# -- DummyMisplaced and AttentionDrawn: Law 45D ----------------------------------

@handles(DummyMisplaced)
def on_dummy_misplaced(state: TableState, step: Step[DummyMisplaced]) -> TableState:
    seq, ev = step.seq, step.event
    dummy = state.dummy
    named = None
    if dummy is not None and state.tricks:
        for i in (len(state.tricks) - 1, len(state.tricks) - 2):
            p = state.tricks[i].card_of(dummy) if i >= 0 else None
            if p is not None and law_of(p.law) in NAMING_LAWS:
                named = (i, p)
                break
    if named is None or dummy is None or named[1].card == ev.card:
        return _unprocessed(state, seq, ev.TYPE, dummy, f"dummy placed {ev.card}, but no other card of dummy was "
                                                        "named to this trick")
    index, p = named
    law = state.cite("45D")
    state, _ = replace_card(state, index, dummy, ev.card, seq, law)
    return record_card(state, CardRecord(seq, ev.TYPE, dummy, ev.card, "misplaced", law, about=p.seq, other=p.card,
                                     detail=f"dummy placed {ev.card}; declarer had named {p.card}"))


@handles(AttentionDrawn)
@journalled
def on_attention_drawn(state: TableState, step: Step[AttentionDrawn]) -> TableState:
    """Attention drawn while dummy's misplaced card is on the table (45D): in
    time if each side has not yet played to the next trick."""
    seq = step.seq
    for rec in state.card_records:
        if rec.ruling != "misplaced" or rec.card is None or rec.other is None:
            continue
        found = locate(state, rec.seat, rec.card)
        if found is None:
            continue
        index, _ = found
        following = state.tricks[index + 1] if index + 1 < len(state.tricks) else None
        sides = {p.seat.side for p in following.cards} if following else set()
        if len(sides) == 2:
            state = _set_record(state, attrs.evolve(rec, ruling="misplaced_stands",
                                                    detail=rec.detail + "; attention drawn after each side played "
                                                                        "to the next trick: it stands"))
            continue
        law = state.cite("45D")
        state, question = replace_card(state, index, rec.seat, rec.other, seq, law)
        state = not_made(state, rec.seq, rec.seat, str(rec.card),
                          "placed by dummy though declarer did not name it: withdrawn", law)
        state = _set_record(state, attrs.evolve(rec, ruling="misplaced_corrected",
                                                review=question and f"45D {question}",
                                                detail=rec.detail + f"; attention drawn in time: {rec.other} "
                                                                    "is played"))
    return state


# -- CardWithdrawn: Law 47 (and 41A, 45D) -------------------------------------------

def _corrections_since(state: TableState, seat: Seat, seq: int) -> list[int]:
    """Seqs of corrections of an explanation by an opponent of ``seat`` after ``seq``."""
    return [r.seq for r in state.calls if r.ruling == "explanation_corrected" and r.seat.side is not seat.side
            and r.seq > seq]


def _was_revoke(state: TableState, trick: Trick, p: PlayedCard) -> bool:
    led = trick.suit_led
    if trick.cards[0] is p or p.card.suit is led:
        return False
    later = [q.card for t in state.tricks for q in t.cards if q.seat is p.seat and q.seq > p.seq]
    return any(c.suit is led for c in state.hand(p.seat) + tuple(later))


def _changed_by_opponent(state: TableState, seat: Seat, trick: Trick, p: PlayedCard) -> str | None:
    """The Law that lets ``seat`` withdraw ``p`` after an opponent changed, on
    this trick and after ``p`` was played, a card played before ``p``: 47D
    (45C4b change of designation, a legal withdrawal), or 45D (dummy's misplaced
    card withdrawn)."""
    seqs = [q.seq for q in trick.cards]
    for rec in state.card_records:
        if rec.seat.side is seat.side:
            continue
        mine = trick.card_of(rec.seat)
        if rec.ruling == "change_permitted" and rec.about is not None:
            original, change = rec.about, rec.seq
            on_trick = mine is not None and mine.seq == rec.seq
        elif rec.ruling == "misplaced_corrected" and mine is not None:
            original, change = rec.seq, mine.seq
            on_trick = mine.card == rec.other
        elif rec.ruling == "withdrawn" and rec.about is not None:
            original, change = rec.about, rec.seq
            on_trick = min(seqs) <= rec.about <= max(seqs)
        else:
            continue
        if on_trick and original < p.seq < change:
            return "45D" if rec.ruling == "misplaced_corrected" else "47D"
    return None


def _dummy_spread_since(state: TableState, seq: int) -> bool:
    return any(s > seq for s in state.spreads) or \
        any(i.type == "DummySpreadStarted" and i.seq > seq for i in state.irregularities)


def on_card_withdrawn(state: TableState, seq: int, ev: CardWithdrawn) -> TableState:
    seat, card, replacement = ev.seat, ev.card, ev.replacement
    if state.contract is None or state.phase == AUCTION:
        return _unprocessed(state, seq, ev.TYPE, seat, f"{card} of {seat} withdrawn during the auction")
    lead = state.face_down_lead
    if lead is not None and lead.seat is seat and lead.card == card:
        return _withdraw_face_down_lead(state, seq, ev)
    found = locate(state, seat, card)
    if found is None:
        state = record_card(state, CardRecord(seq, ev.TYPE, seat, card, "no_played_card",
                                          detail=f"{card} is not a played card: nothing to withdraw",
                                          other=replacement))
        if replacement is not None:
            state = _played(state, seq, ev.TYPE, seat, replacement, play.play_law(state, seat))
        return state
    index, p = found
    trick = state.tricks[index]
    law, review = _withdrawal_law(state, seat, trick, p)
    if law is None:
        return _illegal_withdrawal(state, seq, ev, p, review)
    cite = state.cite(law)
    last = index == len(state.tricks) - 1
    if not last and replacement is None:
        state = record_card(state, CardRecord(seq, ev.TYPE, seat, card, "irregular", cite, about=p.seq,
                                          detail="withdrawn from a trick after the next trick began"))
        return _unprocessed(state, seq, ev.TYPE, seat, f"{card} withdrawn from trick {trick.number} after the "
                                                       "next trick began: the director rules")
    state = not_made(state, p.seq, seat, str(card), f"withdrawn ({_WITHDRAWAL_WORDS[law]})", cite)
    if _is_defender(state, seat) and law == "47B":
        state = _expose(state, seq, seat, card, "withdrawn", cite)
    state = record_card(state, CardRecord(seq, ev.TYPE, seat, card, "withdrawn", cite, about=p.seq, other=replacement,
                                      detail=_WITHDRAWAL_WORDS[law]))
    if replacement is None:
        return remove_card(state, index, seat)
    ordinary = play.play_law(state, seat)
    if last:
        return _played(remove_card(state, index, seat), seq, ev.TYPE, seat, replacement, ordinary)
    state, question = replace_card(state, index, seat, replacement, seq, ordinary)
    return record_card(state, CardRecord(seq, ev.TYPE, seat, replacement, "played", ordinary,
                                     review=question and f"{law} {question}"))


_WITHDRAWAL_WORDS = {
    "47B": "to correct an illegal play",
    "47D": "after an opponent's change of play",
    "45D": "played after dummy's misplaced card, which was withdrawn",
    "47E2a": "after a mistaken explanation by an opponent, corrected after the card was played, "
             "no card played to the trick since",
    "41A": "face-down opening lead withdrawn after an opponent's explanation was corrected",
}


def _withdrawal_law(state: TableState, seat: Seat, trick: Trick, p: PlayedCard) -> tuple[str | None, str | None]:
    """The Law that permits withdrawing ``p`` (None: not permitted), and a
    question for the director (47E2b: too late after a mistaken explanation)."""
    if _was_revoke(state, trick, p):
        partner = seat.partner
        later = [t for t in state.tricks if t.number > trick.number]
        if not any(t.card_of(seat) or t.card_of(partner) for t in later):  # 63A1: not yet established
            return "47B", None
    changed = _changed_by_opponent(state, seat, trick, p)
    if changed is not None:
        return changed, None
    if _corrections_since(state, seat, p.seq):
        since = any(q.seq > p.seq for q in trick.cards)
        opening = trick.number == 1 and p.seat is trick.leader
        if not since and not (opening and _dummy_spread_since(state, p.seq)):
            return "47E2a", None
        return None, ("47E2b too late to retract the card (a card was played to the trick since"
                      + (", or dummy had faced a card" if opening else "") + "): "
                      + ("Law 40C applies, adjusted score possible" if state.edition == "1997"
                         else "the director may award an adjusted score"))
    return None, None


def _illegal_withdrawal(state: TableState, seq: int, ev: CardWithdrawn, p: PlayedCard,
                        review: str | None) -> TableState:
    """1997 47G / 2017 47F: the played card stands. Declarer's substituted card
    goes back to his hand; dummy's first card stands; a defender's substituted
    card is exposed (a major penalty card, Law 50, in a later issue)."""
    seat, replacement = ev.seat, ev.replacement
    law = state.cite("47G" if state.edition == "1997" else "47F")
    detail = f"{p.card} was played and stands"
    if replacement is not None:
        if _is_defender(state, seat):
            state = not_made(state, seq, seat, str(replacement),
                              f"put in place of {p.card}, which stands: exposed, not played", law)
            state = _expose(state, seq, seat, replacement, "substituted", law)
            detail += f"; {replacement} substituted is exposed"
        else:
            state = not_made(state, seq, seat, str(replacement),
                              f"put in place of {p.card}, which stands: goes back to the hand", law)
            detail += f"; {replacement} goes back"
    return record_card(state, CardRecord(seq, ev.TYPE, seat, ev.card, "illegal_withdrawal", law, about=p.seq,
                                     other=replacement, detail=detail, review=review))


def _withdraw_face_down_lead(state: TableState, seq: int, ev: CardWithdrawn) -> TableState:
    """41A: a face-down opening lead may be withdrawn only on the director's
    instruction after an irregularity (an opponent's mistaken explanation, 47E2)."""
    lead = state.face_down_lead
    assert lead is not None
    if not _corrections_since(state, ev.seat, lead.seq):
        law = state.cite("41A")
        state = record_card(state, CardRecord(seq, ev.TYPE, ev.seat, ev.card, "illegal_withdrawal", law,
                                          about=lead.seq, other=ev.replacement,
                                          detail=f"face-down lead {ev.card} withdrawn with no irregularity: "
                                                 "it stands"))
        if ev.replacement is not None:
            state = not_made(state, seq, ev.seat, str(ev.replacement),
                              f"put in place of the face-down lead {ev.card}, which stands: exposed", law)
            state = _expose(state, seq, ev.seat, ev.replacement, "substituted", law)
        return state
    law = state.cite("41A")
    state = attrs.evolve(state, face_down_lead=None)
    state = not_made(state, lead.seq, ev.seat, str(ev.card), _WITHDRAWAL_WORDS["41A"], law)
    state = record_card(state, CardRecord(seq, ev.TYPE, ev.seat, ev.card, "withdrawn", law, about=lead.seq,
                                      other=ev.replacement, detail=_WITHDRAWAL_WORDS["41A"]))
    if ev.replacement is not None:
        state = _played(state, seq, ev.TYPE, ev.seat, ev.replacement, state.cite("45A"))
    return state


# -- LeadAuthorisedByOpponent: Law 47E1 ----------------------------------------

@handles(LeadAuthorisedByOpponent)
def on_lead_authorised(state: TableState, step: Step[LeadAuthorisedByOpponent]) -> TableState:
    seq, ev = step.seq, step.event
    if ev.by.side is ev.seat.side:
        state = record_card(state, CardRecord(seq, ev.TYPE, ev.seat, None, "irregular", state.cite("47E1"),
                                          detail=f"{ev.by} is {ev.seat}'s partner, not an opponent"))
        return _unprocessed(state, seq, ev.TYPE, ev.seat,
                            f"{ev.seat} was told by his partner {ev.by} that it was his turn: 47E1 does not apply")
    return record_card(state, CardRecord(seq, ev.TYPE, ev.seat, None, "lead_authorised", state.cite("47E1"),
                                     detail=f"{ev.by} told {ev.seat} it was his turn"))


OPTION_EFFECTS = {law: on_designation_chosen for law in DESIGNATION_LAWS}
"""46B3b, 46B4, 46B5: the card chosen is played from dummy."""


def card_rulings(state: TableState) -> list[dict]:
    """Every card fact the Laws did more with than play it or not (designations
    completed or awaiting a choice, changes, misplacements, withdrawals, 47E1):
    the ``card_rulings`` key of the state document (docs/EXTENSIONS.md)."""
    return [{"seq": r.seq, "type": r.type, "seat": str(r.seat), "card": str(r.card) if r.card else None,
             "other": str(r.other) if r.other else None, "ruling": r.ruling, "law": r.law, "detail": r.detail}
            for r in state.card_records if r.ruling not in ("played", "not_played") or r.review]


option_effects(OPTION_EFFECTS, __name__)
