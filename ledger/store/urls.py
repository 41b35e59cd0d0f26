"""How a database URL is read: one function, shared by the store and the live service's
own engine (which may not reach into the store's SQL adapter)."""

from __future__ import annotations


def normalise_url(url: str) -> str:
    """Give a bare ``postgresql://`` (or ``postgres://``) URL the psycopg 3 driver."""
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url[len(bare):]
    return url
