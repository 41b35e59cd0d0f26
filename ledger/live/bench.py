"""The live service's benchmark (``cli.py bench-live``): K simulated table
terminals over HTTP on the loopback interface.

Each terminal holds a table token of a fresh session, opens its board and logs
a complete random legal board event by event, each append with the
``expected_seq`` it last saw, pausing ``interval`` seconds between events. The
servers are ``cli.py serve`` processes started here on 127.0.0.1 (one on
SQLite; ``servers`` of them on PostgreSQL, the terminals shared among them);
nothing but 127.0.0.1 is ever contacted. Every run is bounded: at most
``MAX_TERMINALS`` terminals, at most ``MAX_SECONDS`` seconds a phase, and it
stops by itself.

Before a phase is timed, each terminal loads its table page (``/table/<token>``),
as a device does when the director hands it out before the round, so its
connection is open and the server has met its token (``--cold``: not, and the
first request of each terminal is its board's opening). The servers warm their
database connections before answering (``ledger.live.app``).

The load is paced, not flat-out: each terminal's event i is due at its start
plus i x ``interval`` (the terminals' starts spread over the first interval),
so K terminals offer K / ``interval`` events a second (60 at K = 120 and 2 s)
whatever the latency; a terminal sends one event at a time (it needs the
answer's seq), so a send due while an answer is awaited goes when it comes and
is counted as behind schedule.

Figures per K: the offered and the achieved appends per second, the
p50/p99/max latency of an append (ms, from the send to the answer), the p99 of
the boards' openings alone, the server's own p50/p99 (its ``Server-Timing``
header: the request inside the server, and the ledger's append in it), the sends
behind schedule, and the errors seen (any non-2xx answer; a 409 would mean two
writers on one table). Then, separately, the saturation run: the first K
terminals with no pause at all, for ``saturation_seconds``: the events per
second the server(s) sustain (its latencies are queueing, not service).
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from ledger.bench.appends import percentile
from ledger.bridge import SEATS, Deal, dealer_for
from ledger.simulate import random_auction, winning_seat

MAX_TERMINALS = 300
MAX_SECONDS = 120.0
LOOPBACK = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[2]


def board_facts(deal_text: str, board: int, rng: random.Random) -> list[dict[str, Any]]:
    """The calls and cards of a random legal board on ``deal_text`` (after BoardOpened)."""
    deal = Deal.parse(deal_text)
    auction = random_auction(rng, dealer_for(board), pass_out=0.0)
    facts: list[dict[str, Any]] = [{"type": "CallPlaced", "seat": str(s), "call": c} for s, c in auction]
    bids = [(s, c) for s, c in auction if c[0].isdigit()]
    final_seat, final = bids[-1]
    strain = final[1:]
    declarer = next(s for s, c in bids if c[1:] == strain and s.side is final_seat.side)
    trump = None if strain == "NT" else strain
    hands = {seat: [str(c) for c in deal.hand(seat)] for seat in SEATS}
    leader = declarer.lho
    for _ in range(13):
        trick: list[Any] = []
        for i in range(4):
            seat = leader.next(i)
            hand = hands[seat]
            follow = [c for c in hand if trick and c[0] == trick[0][1][0]]
            card = rng.choice(sorted(follow or hand))
            hand.remove(card)
            trick.append((seat, card))
            facts.append({"type": "CardPlayed", "seat": str(seat), "card": card})
        leader = winning_seat(trick, trump)
    return facts


def server_timing(header: str) -> dict[str, float]:
    """The durations (ms) of a ``Server-Timing`` header: ``{"append": 3.1, ...}``."""
    out: dict[str, float] = {}
    for part in header.split(","):
        name, _, rest = part.strip().partition(";")
        if rest.startswith("dur="):
            try:
                out[name] = float(rest[4:])
            except ValueError:
                continue
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used (Linux /proc), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class ServerProcess:
    """``cli.py --db DB serve`` on a free loopback port (the bench's servers and the tests'):
    ``poll`` is the server's ``--poll``; the server's errors are kept in a temporary file and
    quoted when it exits before answering."""

    def __init__(self, db: str, *, poll: float | None = None, log_level: str = "ERROR",
                 threads: int | None = None) -> None:
        import httpx

        self.port = _free_port()
        self.base = f"http://{LOOPBACK}:{self.port}"
        args = [sys.executable, str(ROOT / "cli.py"), "--db", db, "serve", "--host", LOOPBACK,
                "--port", str(self.port)]
        if poll is not None:
            args += ["--poll", str(poll)]
        if threads is not None:
            args += ["--threads", str(threads)]
        env = {**os.environ, "LEDGER_LOG_LEVEL": log_level}
        self._errors = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would block it
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                     stderr=self._errors)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._errors.seek(0)
                raise RuntimeError("the server exited: " + self._errors.read().decode()[-2000:])
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not answer within 30 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._errors.close()


async def _terminal(client: Any, base: str, token: str, stream: str, deal: str, board: int,
                    interval: float, until: float, rng: random.Random, latencies: list[float],
                    errors: list[int], late: list[float],
                    timings: list[dict[str, float]] | None = None) -> int:
    """One terminal: its events at a fixed pace, event i due at ``start + i * interval``
    (open-loop: a slow answer does not slow the schedule down; a send that is due while
    the previous answer is awaited goes as soon as it comes, and its lateness is kept)."""
    import httpx

    headers = {"Authorization": f"Bearer {token}"}
    url = f"{base}/api/streams/{stream}/events"
    facts = [{"type": "BoardOpened"}] + board_facts(deal, board, rng)
    for i, fact in enumerate(facts, start=1):  # ids: a retry after a lost answer is safe
        fact["id"] = f"{stream.replace('/', ':')}:{i}"
    seq = 0
    sent = 0
    start = time.monotonic() + rng.uniform(0, interval)  # terminals do not start in step
    for i, fact in enumerate(facts):
        due = start + i * interval
        if due >= until or (interval == 0 and time.monotonic() >= until):
            break  # flat out (saturation): no send begins after the phase's end
        now = time.monotonic()
        if now < due:
            await asyncio.sleep(due - now)
        elif interval > 0:
            late.append((now - due) * 1000)
        started = time.monotonic()
        r = None
        for _attempt in range(2):  # one retry when the connection dropped
            try:
                r = await client.post(url, json=[fact], params={"expected_seq": seq}, headers=headers)
                break
            except httpx.TransportError:
                continue
        latencies.append((time.monotonic() - started) * 1000)
        if timings is not None and r is not None:
            timings.append({**server_timing(r.headers.get("server-timing", "")),
                            "client": latencies[-1], "index": i})
        if r is None:
            errors.append(0)  # no answer twice
            break
        if r.status_code >= 300:
            errors.append(r.status_code)
            break
        seq = r.json()["head_seq"]
        sent += 1
    return sent


async def _phase(bases: list[str], tokens: dict[int, str], streams: dict[int, str],
                 deals: dict[int, tuple[str, int]], interval: float, seconds: float,
                 seed: int, page_first: bool = True) -> dict[str, Any]:
    import httpx

    latencies: list[float] = []
    errors: list[int] = []
    late: list[float] = []
    timings: list[dict[str, float]] = []
    limits = httpx.Limits(max_connections=len(tokens) + 10, max_keepalive_connections=len(tokens) + 10)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        # Untimed: each terminal loads its table page first, as a device does when the
        # director hands it out before the round (its connection is then open).
        gate = asyncio.Semaphore(16)

        async def load_page(t: int) -> None:
            async with gate:
                page = await client.get(f"{bases[(t - 1) % len(bases)]}/table/{tokens[t]}")
                page.raise_for_status()

        if page_first:
            await asyncio.gather(*(load_page(t) for t in sorted(tokens)))
        started = time.monotonic()
        until = started + seconds
        jobs = [_terminal(client, bases[(t - 1) % len(bases)], tokens[t], streams[t], deals[t][0],
                          deals[t][1], interval, until, random.Random(seed + t), latencies, errors,
                          late, timings)
                for t in sorted(tokens)]
        sent = sum(await asyncio.gather(*jobs))
        elapsed = time.monotonic() - started
    ordered = sorted(latencies)

    def pct(values: list[float], q: float) -> float:
        return round(percentile(values, q), 2)

    return {"terminals": len(tokens), "events": sent, "seconds": round(elapsed, 2),
            "offered_events_per_s": round(len(tokens) / interval, 1) if interval else None,
            "events_per_s": round(sent / elapsed, 1) if elapsed else 0.0,
            "sends_behind_schedule": len(late),
            "behind_ms_max": round(max(late), 1) if late else 0.0,
            "append_ms_p50": pct(ordered, 0.5), "append_ms_p99": pct(ordered, 0.99),
            "append_ms_max": round(ordered[-1], 2) if ordered else 0.0,
            "append_ms_mean": round(statistics.fmean(ordered), 2) if ordered else 0.0,
            "board_opening_ms_p99": pct([t["client"] for t in timings if t["index"] == 0], 0.99),
            "server_ms_p50": pct([t.get("total", 0.0) for t in timings], 0.5),
            "server_ms_p99": pct([t.get("total", 0.0) for t in timings], 0.99),
            "server_append_ms_p99": pct([t.get("append", 0.0) for t in timings], 0.99),
            "server_queue_ms_p99": pct([t.get("queue", 0.0) for t in timings], 0.99),
            "errors": len(errors), "error_statuses": sorted(set(errors)),
            **({"samples": timings} if os.environ.get("LEDGER_BENCH_SAMPLES") else {})}


def run_live_bench(db: str | None = None, *, terminals: tuple[int, ...] = (30, 120, 300),
                   interval: float = 2.0, seconds: float = 20.0, saturation_seconds: float = 10.0,
                   servers: int | None = None, seed: int = 2026,
                   server_threads: int | None = None, page_first: bool = True) -> dict[str, Any]:
    from ledger.live import accounts
    from ledger.live.sessions import open_session
    from ledger.live.db import live_engine
    from ledger.store.migrate import upgrade

    if any(not 1 <= k <= MAX_TERMINALS for k in terminals):
        raise ValueError(f"1 to {MAX_TERMINALS} terminals")
    seconds = min(seconds, MAX_SECONDS)
    saturation_seconds = min(saturation_seconds, MAX_SECONDS)
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="ledger-live-bench-")
        db = f"sqlite:///{Path(tmp.name) / 'live.db'}"
    upgrade(db)
    backend = "postgresql" if db.startswith("postgres") else "sqlite"
    count = servers or (2 if backend == "postgresql" else 1)
    run = uuid.uuid4().hex[:6]
    engine = live_engine(db)
    procs: list[ServerProcess] = []
    figures: dict[str, Any] = {"backend": backend, "servers": count, "server_threads": server_threads or 16,
                               "interval_s": interval,
                               "phase_seconds": seconds, "pages_loaded_first": page_first, "runs": []}
    try:
        procs = [ServerProcess(db, threads=server_threads) for _ in range(count)]
        bases = [p.base for p in procs]

        def enrol(k: int, name: str) -> tuple[dict[int, str], dict[int, str], dict[int, tuple[str, int]]]:
            session = open_session(engine, tournament=f"bench-{run}", name=name, tables=max(k, 2),
                                   boards_per_round=1, rounds=1, seed=seed)
            tokens = {t: accounts.issue_table_token(engine, session.id, t) for t in range(1, k + 1)}
            streams, deals = {}, {}
            for t in tokens:
                _rnd, _seat, board = session.schedule(t)[0]
                streams[t] = session.stream(t, board)
                deals[t] = (session.deals[board], board)
            return tokens, streams, deals

        def measured(phase: Any) -> dict[str, Any]:
            """The phase's figures, with the servers' CPU per append: what an append costs
            the server whatever else the machine is doing (1000 / it = appends a second a
            free core would sustain)."""
            before = [cpu_seconds(p.proc.pid) for p in procs]
            out = asyncio.run(phase)
            after = [cpu_seconds(p.proc.pid) for p in procs]
            pairs = [(a, b) for a, b in zip(after, before) if a is not None and b is not None]
            if out["events"] and len(pairs) == len(procs):
                used = sum(a - b for a, b in pairs)
                out["server_cpu_ms_per_event"] = round(used * 1000 / out["events"], 2)
            return out

        for i, k in enumerate(terminals, start=1):  # a K may come twice (a warm second run)
            tokens, streams, deals = enrol(k, f"run{i}-k{k}")
            figures["runs"].append(measured(_phase(bases, tokens, streams, deals, interval,
                                                   seconds, seed, page_first)))
        k = terminals[0]
        tokens, streams, deals = enrol(k, "saturation")
        sat = measured(_phase(bases, tokens, streams, deals, 0.0, saturation_seconds, seed, page_first))
        figures["saturation"] = sat
        figures["saturation_events_per_s"] = sat["events_per_s"]
    finally:
        for p in procs:
            p.stop()
        engine.dispose()
        if tmp is not None:
            tmp.cleanup()
    return figures
