"""Sign-in throttling that slows a guesser without locking the owner out.

Each wrong password counts against a *key*; after ``free`` failures in a row a
key must wait before its next attempt, twice as long after each further failure
(``base`` seconds, then 2, 4... up to ``cap``). An attempt made while a key
waits is refused without looking at the password and does not count (so
hammering does not lengthen the wait either). A success clears the keys it was
made under.

The keys of an attempt (``ledger.live.signin``):

* from a device that signed in to this account before (its device cookie, signed
  with the account's password hash): that device's own key only. A guesser
  elsewhere, whatever he tries, never delays the owner at her own device;
* otherwise the account's name and the client's address, both: a guesser is
  slowed per account (however many addresses he uses) and per address (however
  many names he tries).

Memory is bounded (``max_keys``, the least recently failed dropped first: a dropped
key starts again from no delay, so the bound can only be generous). Each server
process keeps its own counts.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from typing import Callable, Iterable


class SigninThrottle:
    def __init__(self, *, free: int = 3, base: float = 1.0, cap: float = 300.0,
                 max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.max_keys = max_keys
        self.clock = clock
        self._lock = threading.Lock()
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key -> (count, at)

    def delay(self, failures: int) -> float:
        """Seconds a key waits after ``failures`` wrong passwords in a row."""
        if failures < self.free:
            return 0.0
        return min(self.cap, self.base * 2.0 ** (failures - self.free))

    def wait(self, keys: Iterable[str]) -> int:
        """Whole seconds before an attempt under ``keys`` is looked at (0: now)."""
        now = self.clock()
        longest = 0.0
        with self._lock:
            for key in keys:
                count, at = self._failures.get(key, (0, now))
                longest = max(longest, at + self.delay(count) - now)
        return math.ceil(longest) if longest > 0 else 0

    def failed(self, keys: Iterable[str]) -> None:
        now = self.clock()
        with self._lock:
            for key in keys:
                count, _at = self._failures.pop(key, (0, now))
                self._failures[key] = (count + 1, now)
            while len(self._failures) > self.max_keys:
                self._failures.popitem(last=False)

    def succeeded(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)

    def failures(self, key: str) -> int:
        with self._lock:
            return self._failures.get(key, (0, 0.0))[0]
