"""The ledger's error hierarchy.

Every error carries its data as attributes and is mapped to an exit code in one
place (``ledger.cli``). The exit codes are those of LEDGER-SPEC section 8.
"""

from __future__ import annotations


#: Longest representation of a value an error message repeats (longer ones are cut).
MAX_SHOWN = 120


def shorten(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr(value)``, cut to ``limit`` characters with the full length said, so
    that a 2 MB bad field never puts 2 MB on stderr."""
    try:
        text = repr(value)
    except RecursionError:
        return f"<a {type(value).__name__} nested too deep to show>"
    if len(text) <= limit:
        return text
    size = f"{len(value)} characters" if isinstance(value, str) else f"{len(text)} characters shown as text"
    return f"{text[:limit]}… ({size} in all)"


class LedgerError(Exception):
    """Base class. Exit code 1 (other)."""

    exit_code = 1


class BadInput(LedgerError, ValueError):
    """Input that the ledger refuses; nothing is written. Exit code 2.

    ``line`` is the 1-based line of the input (JSON Lines) when known,
    ``field`` the field at fault and ``value`` the value found there.
    """

    exit_code = 2

    def __init__(self, reason: str, *, field: str | None = None, value: object = None,
                 line: int | None = None, event_type: str | None = None) -> None:
        self.reason = reason
        self.field = field
        self.value = value
        self.line = line
        self.event_type = event_type
        super().__init__(self._render())

    def at_line(self, line: int) -> "BadInput":
        """The same error, now naming the input line it came from."""
        if self.line is not None:
            return self
        return BadInput(self.reason, field=self.field, value=self.value, line=line,
                        event_type=self.event_type)

    def _render(self) -> str:
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.event_type is not None:
            parts.append(self.event_type)
        if self.field is not None:
            parts.append(f"field {self.field!r}")
            parts.append(f"value {shorten(self.value)}")
        where = ", ".join(parts)
        return f"{where}: {self.reason}" if where else self.reason

    def __str__(self) -> str:
        return self._render()


class ConcurrencyError(LedgerError):
    """The stream moved on since the writer last read it. Exit code 3."""

    exit_code = 3

    def __init__(self, stream: str, expected: int | None, actual: int | None) -> None:
        self.stream = stream
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"stream {stream!r}: expected seq {expected}, but the stream is at seq {actual}; "
            "read the stream again and retry"
        )


class NotAllowed(LedgerError, PermissionError):
    """The actor's role may not append this event. Exit code 4."""

    exit_code = 4

    def __init__(self, role: str, event_type: str, reason: str | None = None,
                 line: int | None = None) -> None:
        self.role = role
        self.event_type = event_type
        self.line = line
        self.reason = reason or f"role {role!r} may not append {event_type}"
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{self.reason}")


class IntegrityError(LedgerError):
    """What is stored does not match its hash chain (or what surrounds it). Exit code 1.

    ``stream`` and ``seq`` name the event (``last_seq`` ends a range of seqs);
    ``kind`` says what broke (``ledger.audit.verify`` lists the kinds); ``position``
    is the store-wide position when that is what names the row.
    """

    exit_code = 1

    def __init__(self, stream: str | None, seq: int | None, reason: str, *, kind: str = "chain",
                 last_seq: int | None = None, position: int | None = None) -> None:
        self.stream = stream
        self.seq = seq
        self.reason = reason
        self.kind = kind
        self.last_seq = last_seq
        self.position = position
        super().__init__(f"{self.where()}: {reason}")

    def where(self) -> str:
        """``stream 's' seq 7``, ``stream 's' seqs 5-9``, or ``position 12``."""
        parts = []
        if self.stream is not None:
            parts.append(f"stream {shorten(self.stream)}")
        if self.seq is not None:
            parts.append(f"seqs {self.seq}-{self.last_seq}" if self.last_seq not in (None, self.seq)
                         else f"seq {self.seq}")
        if self.position is not None and (self.stream is None or self.seq is None):
            parts.append(f"position {self.position}")
        return " ".join(parts) or "store"


class StreamNotFound(LedgerError, LookupError):
    """No event is stored for that stream. Exit code 2 (the caller named it)."""

    exit_code = 2

    def __init__(self, stream: str) -> None:
        self.stream = stream
        super().__init__(f"no stream {stream!r} in this ledger")


class StoreUnavailable(LedgerError):
    """The database cannot be reached or has no schema. Exit code 1."""

    exit_code = 1


class StoreBusy(LedgerError):
    """The store stayed locked by other writers for the whole busy timeout. Exit code 5.

    Not a failure: nothing was written, and the same append can be sent again
    (with its ids it is safe to retry). ``--busy-timeout`` (``$LEDGER_BUSY_TIMEOUT``)
    sets how long a writer waits.
    """

    exit_code = 5

    def __init__(self, url: str, waited: float | None, detail: str) -> None:
        self.url = url
        self.waited = waited
        waited_text = f" for {waited:g} s" if waited is not None else ""
        super().__init__(f"{url}: the store is busy (other writers held it{waited_text}: {detail}); "
                         "nothing was written, retry the same append")
