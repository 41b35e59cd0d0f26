"""A tournament's name as a stream id part (``ledger.records.games`` names streams with it; the
store's board index, revision 0005, keys tournaments by it). A module of its own, importing
nothing of the ledger, so that ``ledger.service`` can use it without an import cycle."""

from __future__ import annotations

import re


def slugify(name: str) -> str:
    """A tournament name as a stream id part: lower case, ``a-z 0-9 . _ -``."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-.")
    slug = re.sub(r"-{2,}", "-", slug)[:120].strip("-.")
    return slug or "tournament"
