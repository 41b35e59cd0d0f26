"""What waits for the director (``cli.py open``; the director's console shows the same
list): a pure function of folded states and the times of their events.

For one board, :func:`waiting` lists, each with the seq it has waited since:

* ``review``: a ``DirectorReviewRequired`` not answered yet;
* ``option``: options offered (``OptionsOffered``) that nobody has chosen;
* ``claim``: a disputed claim the director has not ruled on (``ClaimRuled``);
* ``unprocessed``: an action stored as logged that no Law module rules on
  (``irregularities`` of kind ``unprocessed``): the director rules;
* ``appeal``: an appeal not decided (``AppealDecided``), or decided ``changed``
  with the committee's score still to come;
* ``director_call`` (only with ``director_calls=True``, as :func:`open_rulings`
  asks): a ``DirectorCalled`` after which the director has not acted on the
  board yet (no ``RulingGiven``, adjusted score, finding or other decision of a
  director or the committee logged after it). The director may answer at the
  table without a ruling to log; the call then stays listed until he logs
  one, so the results checks (``projections.results``) leave it out.

:func:`open_rulings` is the list for a set of boards, longest wait first: it is
what ``cli.py open`` prints and what the live director's console shows (one
function decides what is open and since when). Waiting
times are ``now`` minus the ``at`` of the event waited on (the caller gives ``now``:
no clock here).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Iterable, Mapping

import attrs

from projections.state import Review, TableState
from projections.vocab import CallRuling, IrregularityKind


@attrs.frozen
class Waiting:
    """One thing on one board waiting for the director (or the committee)."""

    stream: str
    tournament: str
    board: int
    table: str
    kind: str
    seq: int
    what: str
    law: str | None = None
    since: str | None = None
    """``at`` of the event waited on (UTC ISO), when known."""
    waited_s: float | None = None
    """Seconds waited at ``now``, when both are known."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


DIRECTOR_ACTS = ("RulingGiven", "AdjustedScoreAwarded")
"""Procedure facts that are the director acting on the board (besides decisions and findings)."""


def last_director_act(state: TableState) -> int:
    """The seq of the director's (or the committee's) last act on the board, 0 when none."""
    seqs = [p.seq for p in state.procedure if p.type in DIRECTOR_ACTS]
    seqs += [d.seq for d in state.decisions if d.by in ("director", "committee")]
    seqs += [f.seq for f in state.findings]
    return max(seqs, default=0)


_Item = tuple[str, int, str, str | None]
"""(kind, seq waited since, what, Law) of one thing waiting."""


def waiting(stream: str, state: TableState, times: Mapping[int, str] | None = None,
            now: datetime | None = None, *, director_calls: bool = False) -> list[Waiting]:
    """What waits on this board, in seq order."""
    b = state.board
    items: list[_Item] = _director_calls(state) if director_calls else []
    for found in _WAITING_FINDERS:
        items += found(state)
    out = []
    for kind, seq, what, law in sorted(items, key=lambda item: item[1]):
        since = (times or {}).get(seq)
        out.append(Waiting(stream, b.tournament, b.board, b.table, kind, seq, what, law, since,
                           _seconds(since, now)))
    return out


def _director_calls(state: TableState) -> list[_Item]:
    """``director_call``: each DirectorCalled after the director's last act on the board."""
    answered = last_director_act(state)
    items: list[_Item] = []
    for p in state.procedure:
        if p.type == "DirectorCalled" and p.seq > answered:
            who = f"{p.by} called" if p.by is not None else "called"
            items.append(("director_call", p.seq, f"{who} the director", state.cite("9B")))
    return items


def _reviews(state: TableState) -> list[_Item]:
    """``review``: each DirectorReviewRequired not answered yet."""
    return [("review", r.seq, with_edition(r.reason, state.edition),
             review_law(r.reason, state.edition)) for r in state.review if not r.resolved]


def _options(state: TableState) -> list[_Item]:
    """``option``: options offered that nobody has chosen."""
    return [("option", o.seq, f"{o.to} to choose: {', '.join(o.options)}", o.law)
            for o in state.pending]


def _claims(state: TableState) -> list[_Item]:
    """``claim``: a disputed claim, or an objection within the Correction Period to an agreed
    or ruled claim, that the director has not ruled on."""
    claim = state.claim
    items: list[_Item] = []
    if claim is not None and claim.status == "disputed":
        items.append(("claim", claim.disputed_seq or claim.seq,
                      f"claim by {claim.seat} of {claim.tricks} of {claim.remaining} tricks disputed: "
                      "the director rules (ClaimRuled)", state.cite("70")))
    if claim is not None and claim.status in ("agreed", "ruled") and state.correction_period_ended is None:
        for objection in claim.objections:  # spec 1.3: an objection within the Correction Period the director has not answered
            if objection.law.endswith(("69B", "71")) and any(
                    r.about == claim.seq and not r.resolved and r.seq > objection.seq for r in state.review):
                items.append(("claim", objection.seq, f"claim by {claim.seat} of {claim.tricks} of {claim.remaining} "
                              f"tricks: {objection.by} objected within the Correction Period ({objection.law}); the "
                              "director rules (ClaimRuled) before the Correction Period ends", objection.law))
    return items


def _unprocessed(state: TableState) -> list[_Item]:
    """``unprocessed``: an action stored as logged that no Law module rules on."""
    return [("unprocessed", i.seq, f"{i.type} stored as logged: {i.detail}", None)
            for i in state.irregularities if i.kind == IrregularityKind.UNPROCESSED]


def _appeals(state: TableState) -> list[_Item]:
    """``appeal``: an appeal not decided, or decided ``changed`` with the committee's score to come."""
    items: list[_Item] = []
    for a in state.appeals:
        if a.decided is None:
            items.append(("appeal", a.seq, f"appeal by {a.side} not decided: {a.text}", state.cite("92")))
        elif a.decision == "changed" and a.followed_by is None:
            items.append(("appeal", a.decided, f"appeal by {a.side}: decision changed, the committee's "
                                               "score is to come", state.cite("93")))
    return items


#: What may wait on a board besides the director's calls, in the order listed for one seq.
_WAITING_FINDERS = (_reviews, _options, _claims, _unprocessed, _appeals)


_BARE_LAW = re.compile(r"^(\d{1,2}(?:[A-Z][0-9a-z]*)?)(?![\d:])")


def with_edition(reason: str, edition: str) -> str:
    """A review reason that begins with a bare Law (``"64C equity..."``) with its edition
    (``"2017:64C equity..."``); other reasons as they are."""
    return _BARE_LAW.sub(lambda m: f"{edition}:{m.group(1)}", reason, count=1)


def review_law(reason: str, edition: str) -> str | None:
    """The Law a review reason begins with, cited with its edition (``"2017:64C"``), or None."""
    m = _BARE_LAW.match(reason)
    return f"{edition}:{m.group(1)}" if m else None


def _seconds(since: str | None, now: datetime | None) -> float | None:
    if since is None or now is None:
        return None
    try:
        start = datetime.fromisoformat(since.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0.0, (now - start).total_seconds())


def open_rulings(boards: Iterable[tuple[str, TableState, Mapping[int, str] | None]],
                 now: datetime | None = None, *, director_calls: bool = True) -> list[Waiting]:
    """Everything waiting on these boards (unanswered director calls too): longest wait
    first (then by board, table, seq)."""
    found = [w for stream, state, times in boards
             for w in waiting(stream, state, times, now, director_calls=director_calls)]
    return sorted(found, key=lambda w: (-(w.waited_s or 0.0), w.tournament, w.board, w.table, w.seq))


def waited_text(seconds: float | None) -> str:
    """``3 h 05 min``, ``12 min``, ``40 s``; empty when unknown."""
    if seconds is None:
        return ""
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


def answers(reason: str, law: str) -> bool:
    """A review whose reason starts with the cited Law or one of its subsections
    (``2017:13B`` or ``2017:13`` answers ``2017:13B: ...``; ``2017:1`` does not)."""
    rest = reason[len(law):] if reason.startswith(law) else None
    return rest is not None and not rest[:1].isdigit()


def answered_by_ruling(state: TableState, laws: tuple[str, ...]) -> TableState:
    """The director's ruling citing a Law answers the open questions asked under it
    (e.g. "2017:13B ... the director decides whether the deal can be played"). A reason that
    begins with a bare Law (``"27D ..."``, as Law 27's family words its end-of-play question)
    is read in the board's edition (``"2017:27D ..."``): a ruling citing ``2017:27D`` (the
    score stands, 12B1 gives no adjustment) answers it without an adjusted score."""
    if not laws:
        return state
    undecided = {c.seq for c in state.calls if c.ruling == CallRuling.UNDECIDED}  # a judgment field asked: a finding answers

    def read(r: Review) -> str:
        return r.reason if r.about in undecided else with_edition(r.reason, state.edition)

    review = tuple(attrs.evolve(r, resolved=True)
                   if not r.resolved and any(answers(read(r), law) for law in laws) else r
                   for r in state.review)
    return attrs.evolve(state, review=review)
