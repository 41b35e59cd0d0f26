"""The Laws the ruling engine applies, one module per family.

Each family module exposes rule functions ``rule(state) -> list[Prescription]``:
they read the folded table state and return the events the Laws prescribe
(the engine emits those not yet in the stream, so the same stream always
yields the same rectifications, never twice). Edition differences sit side by
side in each module, looked up by ``state.edition``.

:data:`FAMILIES` registers every family once, in precedence order: the engine
consults their rules in that order (:data:`RULES`), and :func:`find_law`
answers which family rules on a Law (``find_law("64A2")`` is the revokes
family). A family names the Laws it rules on and the projection module that
reads its facts in the fold (``reads``).

This module is the composition root, the one place the families plug into the
core: a family's record (:class:`Family`, built by :func:`family` from its
module) carries everything it supplies (fold handlers, option effects, call
and play interception points, card hooks, rules, lapses, words, citations, its
sections of the state document, its derived values), and :func:`compose`
registers them all once from :data:`FAMILIES`, refusing a second supplier of
anything. A new family is one module and one ``family(...)`` line below.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping

import attrs

from ledger.laws import (boards, calls, cards, claims, defective, designations, exposed, inadmissible, insufficient, leads, penalty,
                         premature, results, revokes, rotation, scores, withdrawals)
from ledger.events import Event
from ledger.laws.base import Citations, Lapse, Prescription, Rule, Ruled, laws_of, plugs, words_of
from projections import auction, cards as card_core, derived, document, fold, play
from projections.cards import Attention, AuctionCard
from projections.derived import Reader
from projections.document import Section
from projections.fold import ChoiceSuit, Effect, Handler
from projections.play import PlayedOn
from projections.vocab import CallRuling, CardRuling, IrregularityKind

__all__ = ["CALL_RULINGS", "CARD_RULINGS", "FAMILIES", "LAPSES", "RULES", "Family", "Prescription", "Rule", "Ruled", "Words",
           "family", "find_law"]


@attrs.frozen
class Words:
    """A family's words for people (what ``ledger.render`` prints) and its rulings' Laws, keyed
    by the members of the closed vocabularies (``projections.vocab``)."""

    card_rulings: Mapping[CardRuling, Ruled] = attrs.field(factory=dict)
    """Each card ruling it reads: its words and its Law per edition (its ``RULINGS``)."""
    call_rulings: Mapping[CallRuling, Ruled] = attrs.field(factory=dict)
    """Each call ruling it reads: its words (a template) and its Law per edition (its ``RULINGS``)."""
    irregularities: Mapping[IrregularityKind, str] = attrs.field(factory=dict)
    """The words of each irregularity its rules record (its ``IRREGULARITIES``)."""
    options: Mapping[str, str] = attrs.field(factory=dict)
    options_by_law: Mapping[str, Mapping[str, str]] = attrs.field(factory=dict)


@attrs.frozen
class Family:
    """One Law family: its name, the Laws it rules on (numbers, or numbers with a
    section: ``"64"``, ``"46B"``), its rules in engine order, the projection
    module that reads its facts in the fold, and everything else it supplies."""

    name: str
    laws: tuple[str, ...]
    rules: tuple[Rule, ...]
    reads: str
    handlers: Mapping[type[Event], Handler] = attrs.field(factory=dict)
    """The fold's handler of each event type it owns (``ledger.laws.base.handles``)."""
    effects: Mapping[str, Effect] = attrs.field(factory=dict)
    """What an option it offers does to the table, by Law (edition stripped; its ``OPTION_EFFECTS``)."""
    play_points: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    """What it reads at the play core's points (``at_play``; typed by ``projections.play.PlayPoints``)."""
    call_points: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    """What it reads at the call reading's points (``at_call``; typed by ``ledger.laws.calls.CallPoints``)."""
    auction_card: tuple[AuctionCard, ...] = ()
    """Its reading of a card during the auction (``reads_auction_card``; Law 24)."""
    attention: tuple[Attention, ...] = ()
    """Its readings of an attention drawn by dummy (``on_attention``; 43B3)."""
    played_on: tuple[PlayedOn, ...] = ()
    """Its offers that lapse when a player plays on (``on_play_on``: 52B1a, 62C1, 57A)."""
    not_entered: Mapping[CallRuling, Callable[..., str]] = attrs.field(factory=dict)
    """Why a call its rulings leave out of the auction is not entered (``NOT_ENTERED``, by ruling)."""
    record_rules: Mapping[CallRuling, Rule] = attrs.field(factory=dict)
    """What it prescribes for its rulings on a call record, in the order of the facts (``RECORD_RULES``)."""
    withdrawn_calls: Lapse | None = None
    """Its withdrawn calls that Law 26 reaches (``WITHDRAWN_CALLS``)."""
    lapses: tuple[Lapse, ...] = ()
    """Rectifications a later fact withdrew (the engine cancels them, 82C)."""
    words: Words = Words()
    citations: Citations = attrs.field(factory=dict)
    """Its edition table (``CITATIONS``): ``{occasion: {edition: Law}}``."""
    document: Mapping[str, Section] = attrs.field(factory=dict)
    """Its part of the state document (``projections.document``), by key."""
    derived: Mapping[str, Reader] = attrs.field(factory=dict)
    """The values it derives from the state that the core and other families read by name
    (``projections.derived.read``): a family's conclusion another family's Law rests on."""
    choice_suits: Mapping[str, ChoiceSuit] = attrs.field(factory=dict)
    """The default suit of an option it offers, taken without one (by Law, edition stripped)."""


def _rulings(ns: Mapping[str, Any], module: str) -> tuple[dict[CardRuling, Ruled], dict[CallRuling, Ruled]]:
    """A family's ``RULINGS`` (``{member: Ruled}``: one table for words and Laws), split into its
    card and its call rulings; a key that is not a member of ``CardRuling`` or ``CallRuling`` (a
    string, say) is refused at import."""
    table: Mapping[Any, Ruled] = ns.get("RULINGS", {})
    card: dict[CardRuling, Ruled] = {}
    call: dict[CallRuling, Ruled] = {}
    for member, ruled in table.items():
        if isinstance(member, CardRuling):
            card[member] = ruled
        elif isinstance(member, CallRuling):
            call[member] = ruled
        else:
            raise TypeError(f"{module}.RULINGS: {member!r} is not a CardRuling or CallRuling member")
    return card, call


def _irregularities(ns: Mapping[str, Any], module: str) -> dict[IrregularityKind, str]:
    """A family's ``IRREGULARITIES`` (``{IrregularityKind member: words}``); a key that is not a
    member is refused at import."""
    table: Mapping[Any, str] = ns.get("IRREGULARITIES", {})
    for key in table:
        if not isinstance(key, IrregularityKind):
            raise TypeError(f"{module}: irregularity {key!r} is not an IrregularityKind member")
    return dict(table)


def family(module: ModuleType, name: str, rules: tuple[Rule, ...], **supplied: Any) -> Family:
    """The record of the family whose module is ``module``: its Laws (``LAWS``), its marked
    functions (``ledger.laws.base``: handlers, play and call points, card hooks, lapses on
    playing on), its option
    effects (``OPTION_EFFECTS``), its rulings' words and Laws (``RULINGS``, keyed by member), its
    irregularities' words (``IRREGULARITIES``), its options' words (``OPTION_WORDS``,
    ``OPTION_WORDS_BY_LAW``) and citations (``CITATIONS``),
    and what is ``supplied`` by hand (``document``, ``derived``, ``choice_suits``, ``lapses``)."""
    ns = vars(module)
    handlers: dict[type[Event], Handler] = {}
    play_points: dict[str, Callable[..., Any]] = {}
    call_points: dict[str, Callable[..., Any]] = {}
    auction_card: list[AuctionCard] = []
    attention: list[Attention] = []
    played_on: list[PlayedOn] = []
    for kind, key, fn in plugs(ns, module.__name__):
        if kind == "handler":
            for t in key:
                if t in handlers:
                    raise RuntimeError(f"{name}: {t.__name__} handled twice in {module.__name__}")
                handlers[t] = fn
        elif kind in ("play", "call"):
            points = play_points if kind == "play" else call_points
            if key in points:
                raise RuntimeError(f"{name}: {kind} point {key!r} supplied twice in {module.__name__}")
            points[key] = fn
        elif kind == "auction_card":
            auction_card.append(fn)
        elif kind == "played_on":
            played_on.append(fn)
        else:
            attention.append(fn)
    card_rulings, call_rulings = _rulings(ns, module.__name__)
    words = Words(card_rulings=card_rulings, call_rulings=call_rulings,
                  irregularities=_irregularities(ns, module.__name__), options=ns.get("OPTION_WORDS", {}),
                  options_by_law=ns.get("OPTION_WORDS_BY_LAW", {}))
    citations = ns.get("CITATIONS", {})
    return Family(name, module.LAWS, rules, module.__name__, handlers=handlers,
                  effects=ns.get("OPTION_EFFECTS", {}), play_points=play_points, call_points=call_points,
                  auction_card=tuple(auction_card), attention=tuple(attention), played_on=tuple(played_on), words=words, citations=citations,
                  not_entered=ns.get("NOT_ENTERED", {}), record_rules=ns.get("RECORD_RULES", {}),
                  withdrawn_calls=ns.get("WITHDRAWN_CALLS"), **supplied)


FAMILIES: tuple[Family, ...] = (
    family(rotation, "calls out of rotation", (rotation.calls_out_of_rotation,),
           document={"required_calls": rotation.required_calls, "call_restrictions": rotation.call_restrictions}),
    family(inadmissible, "inadmissible calls", (inadmissible.inadmissible_calls,), lapses=(inadmissible.lapsed,)),
    # Law 27's rule (insufficient.law_27) runs inside calls.change_of_call, record by record
    # (calls.RULES_BY_RULING, from its RECORD_RULES), so its rectifications keep their place
    # in the order of the facts
    family(insufficient, "insufficient bids", ()),
    family(exposed, "cards exposed in the auction", (exposed.exposed_in_auction,)),
    family(calls, "calls", (calls.change_of_call, calls.lead_restrictions, calls.lead_breaches),
           document={"call_rulings": calls.call_rulings}),
    family(cards, "cards played or not", (cards.card_rulings, cards.dummy_indications),
           document={"card_rulings": cards.card_rulings_document}),
    family(designations, "designations", ()),
    family(withdrawals, "withdrawals", ()),
    family(leads, "leads out of turn", (leads.leads_out_of_turn,),
           document={"leads_out_of_turn": leads.leads_out_of_turn_document}),
    family(premature, "premature plays", (premature.premature_plays,),
           document={"play_restrictions": premature.play_restrictions_document,
                     "premature_plays": premature.premature_document}),
    family(penalty, "penalty cards", (penalty.penalty_cards,),
           document={"penalty_cards": penalty.document},
           choice_suits={"50D2": penalty.implied_suit}),
    family(claims, "claims", (claims.claim_rules,),
           document={"claim": claims.claim_document}),
    # spec 1.3: the defective trick read again (67A, 67B): the play core's `defective` point; its
    # transfer is read by the revokes' result through the derived values it supplies
    family(defective, "defective tricks", (defective.defective_tricks,),
           derived={"defective trick transfer": defective.net_transfer,
                    "defective trick transfers document": defective.transfers_document}),
    family(revokes, "revokes and dummy", (revokes.revoke_rulings, revokes.dummy_rulings, revokes.waivers),
           document={"transfers": revokes.transfers_document, "revokes": revokes.revokes_document},
           derived={"irregularities": revokes.irregularities, "exposures": revokes.exposures,
                    "tricks after transfers": revokes.tricks_after_transfers}),
    family(results, "results", (results.record_result,),
           derived={"board result": results.board_result, "result in force": results.result_in_force}),
    family(boards, "irregular boards", (boards.irregular_boards,),
           document={"irregular_boards": boards.board_document}),
    family(scores, "scores and appeals", (),
           document={"adjusted": scores.adjusted_document, "decisions": scores.decisions_document,
                     "appeals": scores.appeals_document},
           derived={"adjusted for results": scores.adjusted_for_results}),
)
"""Every Law family, once, in precedence order."""

RULES: list[Rule] = [rule for family in FAMILIES for rule in family.rules]
"""The engine's rules, in the order the engine consults them."""

CALL_RULINGS: dict[CallRuling, Ruled] = {k: v for family_ in FAMILIES for k, v in family_.words.call_rulings.items()}
"""Every call ruling's words (a template ``ledger.render`` fills) and Law per edition (an edition it
does not arise under is absent): the call families'."""
CARD_RULINGS: dict[CardRuling, Ruled] = {k: v for family_ in FAMILIES for k, v in family_.words.card_rulings.items()}
"""Every card ruling's words and Law per edition (every edition named, ``None`` where it cannot arise)."""
CALL_RULING_WORDS: dict[CallRuling, str] = words_of(CALL_RULINGS)
"""How each call ruling reads for people (``ledger.render`` prints them)."""
CALL_RULING_LAWS: dict[CallRuling, Mapping[str, str | None]] = laws_of(CALL_RULINGS)
"""Each call ruling's Law per edition (what ``ledger.laws.base.cited`` reads)."""

LAPSES: tuple[Lapse, ...] = tuple(lapse for family_ in FAMILIES for lapse in family_.lapses)
"""Rectifications a later fact withdrew (spec 1.2, 9.C2: the LHO called before rectification):
each returns events the engine cancels (``RulingOverridden``, 82C) when in force and prescribed by no rule."""

_CITATION = re.compile(r"^(?:(?:1997|2017|FFB):)?(\d+(?:\.\d+)?)([A-Za-z0-9]*)$")


def find_law(law: str) -> Family | None:
    """The family that rules on ``law`` (``"64A2"``, ``"2017:46B3b"``): the one
    naming the longest prefix of it; None when no family rules on it."""
    m = _CITATION.match(law.strip())
    if m is None:
        raise ValueError(f"not a Law: {law!r} (expected e.g. '64A2' or '2017:64A2')")
    number, rest = m.groups()
    best: tuple[int, Family] | None = None
    for family in FAMILIES:
        for name in family.laws:
            if name == number or (name.startswith(number) and (number + rest).startswith(name)):
                if best is None or len(name) > best[0]:
                    best = (len(name), family)
    return None if best is None else best[1]


def check_words(families: Iterable[Family]) -> None:
    """Every ruling of the closed vocabularies has its words and its citation, from one family
    (``unprocessed`` irregularities and the calls made or not have a line of their own)."""
    families = tuple(families)
    card_words: list[str] = [k for f in families for k in f.words.card_rulings]
    call_words: list[str] = [k for f in families for k in f.words.call_rulings]
    irregular: list[str] = [k for f in families for k in f.words.irregularities]
    card_cited = {k for f in families for k, ruled in f.words.card_rulings.items() if any(ruled.laws.values())}
    call_cited = {k for f in families for k, ruled in f.words.call_rulings.items() if any(ruled.laws.values())}
    twice = sorted({k for table in (card_words, call_words, irregular) for k in table if table.count(k) > 1})
    if twice:
        raise RuntimeError(f"worded by two families: {twice}")
    missing = [f"card ruling {r.value}: {what}" for r in CardRuling
               for what, table in (("words", card_words), ("citation", card_cited)) if r.value not in table]
    missing += [f"call ruling {r.value}: {what}" for r in CallRuling if r not in (CallRuling.MADE, CallRuling.NOT_MADE)
                for what, table in (("words", call_words), ("citation", call_cited)) if r.value not in table]
    missing += [f"irregularity {k.value}: words" for k in IrregularityKind
                if k is not IrregularityKind.UNPROCESSED and k.value not in irregular]
    if missing:
        raise RuntimeError("rulings without words or citation: " + "; ".join(missing))


def compose(families: Iterable[Family]) -> None:
    """The one place the families plug into the core: everything each family supplies
    registered once, a second supplier of anything refused (``RuntimeError``)."""
    families = tuple(families)
    names = [f.name for f in families]
    if len(set(names)) != len(names):
        raise RuntimeError(f"a family registered twice: {sorted(n for n in names if names.count(n) > 1)}")
    check_words(families)
    for f in families:
        for t, handler in f.handlers.items():
            fold.register((t,), handler)
        fold.option_effects(f.effects, f.reads)
        for point, fn in f.play_points.items():
            play.supply(point, fn)
        for point, fn in f.call_points.items():
            auction.supply_call(point, fn)
        auction.supply_not_entered(f.not_entered, f.reads)
        calls.supply_record_rules(f.record_rules, f.reads)
        if f.withdrawn_calls is not None:
            calls.supply_withdrawn(f.withdrawn_calls, f.reads)
        for hook in f.auction_card:
            card_core.auction_card_hook(hook)
        for attention in f.attention:
            card_core.attention_hook(attention)
        for lapse in f.played_on:
            play.on_played_on(lapse)
        document.sections(f.document, f.name)
        derived.supply(f.derived, f.name)
        fold.choice_suits(f.choice_suits, f.name)
    missing = document.missing_sections()
    if missing:
        raise RuntimeError(f"no family supplies the document's {missing}")
    missing_points = [p for p in play.POINTS if p not in play.INTERCEPTORS]
    missing_points += [p for p in auction.CALL_POINTS if p not in auction.CALL_INTERCEPTORS]
    if missing_points:
        raise RuntimeError(f"no family supplies the interception points {missing_points}")
    fold.composed(__name__)


compose(FAMILIES)
