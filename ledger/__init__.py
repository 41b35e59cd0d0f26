"""A tournament ruling ledger for duplicate bridge."""

__version__ = "0.1.0"
