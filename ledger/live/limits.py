"""Rate limits of the live service: token buckets kept in the process.

What is limited here (refused with HTTP 429, ``error: "rate_limited"``, the
limit named in the message, and ``Retry-After``): appends made with a table
token, per token (a runaway or hostile terminal). Sign-in attempts are no
longer limited by buckets (a bucket per user name let a guesser keep the owner
out): ``ledger/live/throttle.py`` slows them instead; the two ``signin_*``
limits below are kept for callers that still pass them and are not applied.

A bucket holds ``burst`` tokens and gains ``rate`` a second; each attempt takes
one. Memory is bounded: at most ``max_keys`` buckets, the least recently used
dropped first (a dropped bucket is a full one: the bound can only be generous).
Each server process keeps its own buckets: with P processes behind one address
a client may get up to P times the limit, which is still a bound.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from typing import Callable

import attrs


@attrs.frozen
class Limit:
    """``burst`` attempts at once, then ``rate`` a second."""

    name: str
    burst: float
    rate: float

    def describe(self) -> str:
        per_minute = self.rate * 60
        pace = f"{per_minute:g} a minute" if per_minute < 60 else f"{self.rate:g} a second"
        return f"{self.name}: at most {self.burst:g} at once, then {pace}"


class RateLimited(Exception):
    """Refused by a limit: ``retry_after`` whole seconds until one more attempt is allowed."""

    def __init__(self, limit: Limit, retry_after: int) -> None:
        self.limit = limit
        self.retry_after = retry_after
        super().__init__(f"too many attempts ({limit.describe()}); try again in {retry_after} s")


class Buckets:
    """The buckets of one :class:`Limit`, one per key."""

    def __init__(self, limit: Limit, *, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if limit.burst < 1 or limit.rate <= 0:
            raise ValueError("a limit has a burst of at least 1 and a positive rate")
        self.limit = limit
        self.max_keys = max_keys
        self.clock = clock
        self._lock = threading.Lock()
        self._level: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    def take(self, key: str) -> None:
        """One attempt for ``key``, or :class:`RateLimited` (nothing taken)."""
        now = self.clock()
        with self._lock:
            tokens, at = self._level.pop(key, (self.limit.burst, now))
            tokens = min(self.limit.burst, tokens + (now - at) * self.limit.rate)
            if tokens < 1:
                self._level[key] = (tokens, now)
                raise RateLimited(self.limit, max(1, math.ceil((1 - tokens) / self.limit.rate)))
            self._level[key] = (tokens - 1, now)
            while len(self._level) > self.max_keys:
                self._level.popitem(last=False)


@attrs.frozen
class Limits:
    """The service's limits (``create_app(limits=...)``)."""

    signin_per_address: Limit = Limit("sign-in attempts from one address", 10, 10 / 60)
    signin_per_name: Limit = Limit("sign-in attempts for one user name", 5, 5 / 60)
    table_appends: Limit = Limit("appends with one table token", 60, 20)
