"""What the command modules of ``ledger/cli/`` share: the ledger on ``--db``, the rich
console, the input file (or stdin), a URL without its password, a published digest.

Every subcommand module imports this one and nothing else of the package; the group
in ``ledger/cli/__init__.py`` attaches their commands (no import runs the other way).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ledger.errors import BadInput

if TYPE_CHECKING:
    from rich.console import Console

    from ledger.audit.merkle import Digest
    from ledger.service import Ledger


def open_ledger(ctx: click.Context, *, create: bool = False) -> Ledger:
    """The ledger on the group's ``--db``, with its ``--busy-timeout``."""
    from ledger.service import Ledger

    return Ledger.open(ctx.obj["db"], create=create, busy_timeout=ctx.obj.get("busy_timeout"))


def rich_console() -> Console:
    """A rich console on standard output (tables, rules, rendered states)."""
    from rich.console import Console

    return Console()


def read_input(path: str | None) -> str:
    """FILE (or stdin) as text: UTF-8 within the input limits (``ledger.limits``)."""
    from ledger.limits import decode_input

    if path in (None, "-"):
        return decode_input(sys.stdin.buffer.read(), "-")
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read the file: {exc.strerror}", field="FILE", value=path) from None
    return decode_input(raw, str(path))


def parse_digest(text: str) -> Digest:
    """A published digest as given to ``--digest`` (``cli.py digest`` prints one)."""
    from ledger.audit.merkle import Digest

    return Digest.parse(text)


def safe_url(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':')[0]}@{host}"
    return url
