"""A real server process (``cli.py serve``) for the browser and multi-process tests: the
bench's own :class:`ledger.live.bench.ServerProcess`, with the server's warnings kept."""

from __future__ import annotations

from ledger.live.bench import ServerProcess


class Server(ServerProcess):
    """``python cli.py --db URL serve`` on a free loopback port; stopped by ``stop``."""

    def __init__(self, url: str, *, poll: float | None = None) -> None:
        super().__init__(url, poll=poll, log_level="WARNING")
