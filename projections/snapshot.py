"""TableState <-> JSON for the snapshot kept at each stream's head.

The snapshot is a cache: ``VERSION`` changes whenever the state's shape or
the fold's rules change, and a snapshot of another version is ignored (the
stream is refolded from its events). Uses cattrs for the attrs classes, with
hooks for the bridge vocabulary (canonical strings).
"""

from __future__ import annotations

from typing import Any

import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

import attrs

from ledger.bridge import Call, Card, Deal, Risk, Seat, Side, Strain, Suit
from ledger.events import BoardOpened
from projections.state import CallRecord, TableState, Trick

VERSION = 18  # issue 22: defective tricks (67, 67B2); 2017 24C partner passes again, Law 24 cards cleared, 51B
"""Bump on any change of the state's shape or of the fold's output; the golden
digests of every scenario file's fold (``golden.json`` beside this module,
checked by tests/test_golden.py) are kept for this version."""

_conv = cattrs.Converter()
for _cls in (Card, Call, Deal):
    _conv.register_unstructure_hook(_cls, str)
    _conv.register_structure_hook(_cls, lambda v, t: t.parse(v))
for _enum in (Seat, Strain, Risk, Suit, Side):
    _conv.register_unstructure_hook(_enum, lambda v: v._value_)  # .value, without the enum property's lookup
_conv.register_structure_hook_func(lambda t: t is object, lambda v, _: v)  # finding values: plain JSON
_conv.register_unstructure_hook(BoardOpened, lambda b: b.to_data())
_conv.register_structure_hook(BoardOpened, lambda d, _: BoardOpened.from_data(d))


_conv.register_unstructure_hook(CallRecord, make_dict_unstructure_fn(  # issue 12: 29C/30C, absent when not judged
    CallRecord, _conv, artificial=override(omit_if_default=True)))
_conv.register_unstructure_hook(Trick, make_dict_unstructure_fn(  # spec 1.3 (67): absent when no seat was
    Trick, _conv, absent=override(omit_if_default=True)))      # found not to have played
_conv.register_unstructure_hook(TableState, make_dict_unstructure_fn(TableState, _conv, memo=override(omit=True),
                                                                     defective=override(omit_if_default=True)))


def dump(state: TableState) -> dict[str, Any]:
    out: dict[str, Any] = _conv.unstructure(state)
    return out


attrs.resolve_types(TableState)


def load(data: dict[str, Any]) -> TableState:
    return _conv.structure(data, TableState)
