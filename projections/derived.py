"""Values derived from a folded state, recomputed only when what they read has changed.

A derived value (the revokes of a board, a rule's prescriptions) is a pure function of
some fields of the frozen :class:`~projections.state.TableState`. :func:`derive` runs it
on a :class:`Reads` view of the state that records every field the function reads
(properties and methods of the state run on the view, so what they read is recorded
too), and keeps the value with the objects it read. The next state of the same fold
(a fold step shares every field it does not change, by reference) reuses the value when
each of those fields still holds the *same object* (``is``): the function read the same
inputs, so it would return the same value. Nothing is declared by hand, so a rule that
starts reading another field is still reused correctly; a rule that reads the state's
``seq`` or ``memo`` is simply recomputed every time.

The values live in one dictionary per fold (``state.memo[SHARED]``, handed from a state
to the next by the fold step, :func:`carry`): one entry per derived value, so it does
not grow with the board. It is not part of the state (not compared, not in the
snapshot); a state loaded from a snapshot starts with an empty one.
"""

from __future__ import annotations

from types import MethodType
from typing import Any, Callable, Hashable, Mapping, Protocol, TypeVar

import attrs

from projections.state import TableState

T = TypeVar("T")

SHARED = "derived"
"""The key of the fold's dictionary of derived values in ``state.memo``."""

_FIELDS = frozenset(a.name for a in attrs.fields(TableState)) - {"memo"}
_PROPERTIES: dict[str, Callable[[Any], Any]] = {}
_METHODS: dict[str, Callable[..., Any]] = {}
for _klass in reversed(TableState.__mro__):
    for _name, _value in vars(_klass).items():
        if _name.startswith("__"):
            continue
        if isinstance(_value, property) and _value.fget is not None:
            _PROPERTIES[_name] = _value.fget
        elif callable(_value) and not isinstance(_value, (type, staticmethod, classmethod)):
            _METHODS[_name] = _value


class _Never:
    """A read that never matches a later state's (the memo: a value read from it is not reused)."""


NEVER = _Never()


class Reads:
    """A read-only view of a state that records the fields read through it.

    The first read of a name goes through ``__getattr__``, which records it and keeps the
    value in the view's ``__dict__`` (fields, and properties and bound methods run on the
    view: the state is frozen, so they cannot change), so every later read of it is an
    ordinary attribute read."""

    def __init__(self, state: TableState) -> None:
        self.__dict__["_real"] = state
        self.__dict__["_read"] = []

    def __getattr__(self, name: str) -> Any:
        if name in _FIELDS:
            known = self.__dict__
            value = known[name] = getattr(known["_real"], name)
            known["_read"].append((name, value))
            return value
        if name in _PROPERTIES:
            value = _PROPERTIES[name](self)
        elif name in _METHODS:
            value = MethodType(_METHODS[name], self)
        elif name == "memo":
            self.__dict__["_memo_read"] = True
            return self._real.memo
        else:
            return getattr(self._real, name)
        self.__dict__[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def reads(self) -> tuple[tuple[str, Any], ...]:
        """(field, the object read) for every field read through the view."""
        out = tuple(self._read)
        return out + (("memo", NEVER),) if "_memo_read" in self.__dict__ else out


def state_of(state: Any) -> TableState:
    """The state itself, under a :class:`Reads` view or not."""
    real: TableState = state._real if type(state) is Reads else state
    return real


def shared_values(state: TableState) -> dict[Hashable, Any]:
    """The fold's derived values (created empty for a state that has none)."""
    shared = state.memo.get(SHARED)
    if shared is None:
        shared = state.memo[SHARED] = {}
    return shared


def derive(state: Any, key: Hashable, fn: Callable[[Any], T]) -> T:
    """``fn(state)``, reused from an earlier state of the fold when every field it read
    then is the same object now. ``state`` may itself be a :class:`Reads` view (a
    derived value read by another): the inner value's reads are recorded in it."""
    outer = state if type(state) is Reads else None
    real = state._real if outer is not None else state  # (state_of, shared_values and _valid inlined:
    memo = real.memo                                    # this runs several times per event)
    shared = memo.get(SHARED)
    if shared is None:
        shared = memo[SHARED] = {}
    entry = shared.get(key)
    if entry is not None:
        for name, value in entry[1]:
            if getattr(real, name, NEVER) is not value:
                entry = None
                break
    if entry is None:
        view = Reads(real)
        value = fn(view)
        entry = shared[key] = (value, view.reads())
    if outer is not None:
        known = outer.__dict__
        for name, value in entry[1]:
            if name == "memo":
                known["_memo_read"] = True
            elif name not in known:
                known[name] = value
                outer._read.append((name, value))
    result: T = entry[0]
    return result


def carry(old: TableState, new: TableState) -> None:
    """Hand the fold's derived values from a state to the next (the fold step)."""
    if new is not old:
        new.memo[SHARED] = shared_values(old)


class Reader(Protocol):
    """A value a family derives from the state and supplies by name to the core and to the other
    families (the revokes family's ``tricks after transfers``, read by Law 77's result): one
    family reads another's conclusion through the state, never through its module."""

    def __call__(self, state: TableState, /) -> Any: ...


READERS: dict[str, Reader] = {}
"""The values the families supply, by name (registered by the composition root, ``ledger.laws``)."""
READER_OWNERS: dict[str, str] = {}


def supply(readers: Mapping[str, Reader], owner: str) -> None:
    """Register a family's values; a second supplier of a name fails at import."""
    for name, reader in readers.items():
        if name in READERS:
            raise RuntimeError(f"derived value {name!r} supplied twice: by {READER_OWNERS[name]} and {owner}")
        READERS[name] = reader
        READER_OWNERS[name] = owner


def read(state: Any, name: str) -> Any:
    """The value ``name`` of ``state``, as the family that supplies it derives it."""
    reader = READERS.get(name)
    if reader is None:
        raise LookupError(f"no family supplies the derived value {name!r} (is ledger.laws imported?)")
    return reader(state)
