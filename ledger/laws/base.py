"""What every Law family shares: a prescription, the rule signature, the citation helper, and
the marks by which a family's functions say where they plug into the core.

A family marks its functions (:func:`handles`, :func:`at_play`, :func:`at_call`,
:func:`reads_auction_card`, :func:`on_attention`); the marks register nothing.
The composition root (``ledger.laws``) gathers them per family module into the
family's record (:func:`plugs`) and registers every family once, in one place.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Protocol, TypeVar

import attrs

from ledger.events import DirectorReviewRequired, Event, IrregularityRecorded
from ledger.bridge import Seat
from projections.vocab import IrregularityKind


@attrs.frozen
class Prescription:
    """An event the Laws prescribe, with the facts it rests on and its Law."""

    event: Event
    causes: tuple[int, ...]
    law: str | None


Rule = Callable[..., list[Prescription]]

Lapse = Callable[[Any], list[Any]]
"""``lapse(state)``: the events (or the seqs of rectifications) a later fact withdrew."""


@attrs.frozen
class Ruled:
    """One member of a closed vocabulary (a call or card ruling, a lead out of turn): the words
    a player or director reads for it and the Law it rests on in each edition. A family keys
    its table by the members (``RULINGS: {CardRuling.EXPOSED: Ruled(...)}``); an edition
    absent from ``laws``, or ``None`` there, is one the member cannot arise under."""

    words: str
    laws: Mapping[str, str | None] = attrs.field(factory=dict)


K = TypeVar("K")


def laws_of(table: Mapping[K, Ruled]) -> dict[K, Mapping[str, str | None]]:
    """The Law per edition of each member of a ``Ruled`` table (what :func:`cited` reads)."""
    return {member: ruled.laws for member, ruled in table.items()}


def words_of(table: Mapping[K, Ruled]) -> dict[K, str]:
    """The words of each member of a ``Ruled`` table."""
    return {member: ruled.words for member, ruled in table.items()}


Citations = Mapping[str, Mapping[str, str]]
"""A family's citations per edition: ``{occasion: {"1997": "13C", "2017": "13D"}}``; an
edition missing from an occasion's entry means that edition has no such rule."""


def cited(state: Any, table: Mapping[Any, Mapping[str, str | None]], occasion: str) -> str:
    """The one helper families cite their edition tables through: ``"2017:13D"``."""
    edition = state.edition
    law = table[occasion].get(edition)
    if law is None:
        raise KeyError(f"{occasion}: no rule in the {edition} Laws")
    return f"{edition}:{law}"


F = TypeVar("F", bound=Callable[..., Any])

PLUGS = "__plugs__"
"""The attribute a mark leaves on a family's function: ``[(kind, key), ...]``."""


def _mark(kind: str, key: Any) -> Callable[[F], F]:
    def wrap(fn: F) -> F:
        marks = list(getattr(fn, PLUGS, ()))
        setattr(fn, PLUGS, marks + [(kind, key)])
        return fn
    return wrap


def handles(*types: type[Event]) -> Callable[[F], F]:
    """The fold's one handler of ``types`` (``projections.fold.HANDLERS``, ``handler(state, step)``)."""
    return _mark("handler", types)


def at_play(point: str) -> Callable[[F], F]:
    """What the family reads at the play core's interception ``point`` (``projections.play.POINTS``)."""
    return _mark("play", point)


def at_call(point: str) -> Callable[[F], F]:
    """What the family reads at the call reading's interception ``point`` (``projections.auction.CALL_POINTS``)."""
    return _mark("call", point)


def reads_auction_card(fn: F) -> F:
    """The family's reading of a card dropped or played during the auction (Law 24; one family only)."""
    return _mark("auction_card", None)(fn)


def on_play_on(fn: F) -> F:
    """The family's offer that lapses when a player plays on (``projections.play.PLAYED_ON``)."""
    return _mark("played_on", None)(fn)


def on_attention(fn: F) -> F:
    """The family's reading of an attention drawn by dummy (43B3)."""
    return _mark("attention", None)(fn)


def plugs(namespace: Mapping[str, Any], module: str) -> Iterator[tuple[str, Any, Callable[..., Any]]]:
    """(kind, key, function) for every mark on a function defined in ``module`` (its namespace:
    ``vars(module)``), in the order of definition; a function imported from elsewhere is not this
    module's plug."""
    for value in namespace.values():
        if callable(value) and getattr(value, "__module__", None) == module:
            for kind, key in getattr(value, PLUGS, ()):
                yield kind, key, value


# -- prescriptions about a call or card record (shared by the families) --------------------

class Recorded(Protocol):
    """A call or card record (:class:`projections.state.CallRecord`, ``CardRecord``): its seat and seq."""

    @property
    def seat(self) -> Seat: ...

    @property
    def seq(self) -> int: ...


def irregular(kind: IrregularityKind, rec: Recorded, law: str | None) -> Prescription:
    return Prescription(IrregularityRecorded(kind=kind, offender=str(rec.seat), about=rec.seq), (rec.seq,), law)


def review(reason: str, rec: Recorded, law: str | None) -> Prescription:
    return Prescription(DirectorReviewRequired(reason=reason, about=rec.seq), (rec.seq,), law)


def label(law: str) -> str:
    """``"2017:25A1"`` -> ``"25A1"``: the reason of a review starts with its Law."""
    return law.split(":", 1)[1]
