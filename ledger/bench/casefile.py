"""A case file in the time of its tournament (issue 28, item 4): ``cli.py bench --casefile``.

Issue 28's target: "A case file <= 100 ms at 200 and at 20,000 boards in the store". One store
is built and grown, and at each size the case file of one board is timed, from a fresh
ledger each run (no cached head), CPU (``time.process_time``) and wall, the median of
``runs``, the 1-minute load beside each size:

* ``casefile``: :func:`ledger.casefile.build_casefile` and its HTML page
  (:func:`ledger.casefile.render_html`), what ``cli.py casefile`` writes; the traveller from
  the tournament's results summaries (one query, ``ledger.summaries``);
* ``casefile_folding``: the same with the store's summaries hidden, each board of the
  tournament folded from its snapshot (what the case file read before revision 0007);
* ``results``: :func:`ledger.tournament.tournament_results` (the spec's results document of
  the tournament, from the summaries), and ``results_folding``:
  :func:`projections.results.results` of the folded boards (``tournament_tables``).

The store: one pairs tournament, ``Case Cup``, of ``tables`` tables on ``boards_per_table``
boards, every board played card by card (:func:`ledger.simulate.random_board`, a deal of its
own per table) and one table's board 1 given an assigned adjusted score (Law 12C1b): the case.
Then other tournaments fill the store up to each size: boards entered as travellers
(``BoardOpened`` and ``ResultReported``: 3 events each with the engine's, what ``enter`` and
a Bridgemate import write) or, with ``filler="played"``, played card by card like the case
tournament's (about 65 facts each; 20,000 such boards take several minutes to build). Every
board goes through the ordinary append path, 250 to a store transaction
(:meth:`ledger.service.Ledger.batch`, the import's batching), on SQLite at
``synchronous=NORMAL`` unless a URL is given.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from ledger.service import Ledger

CASE_TOURNAMENT = "Case Cup"
BATCH = 250
CONTRACTS = ("4S", "3NT", "4H", "2S", "1NT", "5D", "3C")


def _load() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def case_boards(tables: int, boards_per_table: int, seed: int) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(stream, facts) of the case tournament: every board played card by card; the case
    (table 1, board 1) ends with an assigned adjusted score."""
    from ledger.simulate import random_board

    for board in range(1, boards_per_table + 1):
        for table in range(1, tables + 1):
            played = random_board(random.Random(seed * 100_003 + board * 101 + table), tournament=CASE_TOURNAMENT,
                                  board=board, table=str(table), pass_out=0.0)
            facts = [dict(played.facts[0], ns=f"{table}NS", ew=f"{(table + board) % tables + 1}EW")]
            facts += played.facts[1:]
            if (board, table) == (1, 1):
                facts.append({"type": "AdjustedScoreAwarded", "kind": "assigned", "law": "2017:12C1b",
                              "text": "misinformation: with the correct explanation, East leads a heart",
                              "results": [{"side": "both", "contract": "3NT", "declarer": "S", "tricks": 8}],
                              "actor": {"role": "director", "name": "TD bench"}})
            yield f"case-cup/t{table}/b{board}", facts


def filler_boards(first: int, count: int, seed: int, played: bool) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(stream, facts) of ``count`` boards of other tournaments (288 boards each: 8 tables x 36),
    numbered from ``first``."""
    from ledger.simulate import random_board, random_deal

    for n in range(first, first + count):
        tournament, board, table = f"Filler {n // 288}", n % 36 + 1, str(n % 288 // 36 + 1)
        stream = f"filler-{n // 288}/t{table}/b{board}"
        rng = random.Random(seed * 1_000_003 + n)
        if played:
            yield stream, random_board(rng, tournament=tournament, board=board, table=table, pass_out=0.0).facts
            continue
        yield stream, [{"type": "BoardOpened", "tournament": tournament, "board": board, "table": table,
                        "deal": random_deal(rng).to_pbn(), "ns": f"{table}NS", "ew": f"{table}EW"},
                       {"type": "ResultReported", "contract": rng.choice(CONTRACTS), "declarer": rng.choice("NESW"),
                        "risk": "", "tricks": rng.randint(6, 11)}]


def append_batched(ledger: Ledger, boards: Iterator[tuple[str, list[dict[str, Any]]]]) -> int:
    """Every board one atomic append, :data:`BATCH` to a store transaction; the boards appended."""
    done = 0
    pending: list[tuple[str, list[dict[str, Any]]]] = []

    def flush() -> None:
        with ledger.batch([stream for stream, _ in pending]):
            for stream, facts in pending:
                ledger.append(stream, facts)
        pending.clear()

    for item in boards:
        pending.append(item)
        done += 1
        if len(pending) == BATCH:
            flush()
    if pending:
        flush()
    return done


def _timed(runs: int, task: Callable[[], Any]) -> dict[str, float]:
    """Median and best of ``runs`` runs of ``task``, CPU and wall, in ms."""
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        task()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return {"cpu_ms_median": round(statistics.median(cpu), 1), "wall_ms_median": round(statistics.median(wall), 1),
            "cpu_ms_min": round(min(cpu), 1), "wall_ms_min": round(min(wall), 1)}


class _NoSummaries:
    """The store without its summaries (``board_summaries`` hidden): the case file folds
    each board of the tournament, as before revision 0007."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        if name == "board_summaries":
            raise AttributeError(name)
        return getattr(self._store, name)


def time_case(url: str, stream: str, runs: int) -> dict[str, Any]:
    """The case file, the tournament's results, with and without the summaries (see the module)."""
    from ledger.casefile import build_casefile, render_html
    from ledger.tournament import tournament_results, tournament_tables
    from projections.results import results

    def fresh(hide: bool = False) -> Ledger:
        led = Ledger.open(url)
        return Ledger(_NoSummaries(led.store)) if hide else led  # type: ignore[arg-type]

    def casefile(hide: bool) -> Callable[[], Any]:
        def task() -> None:
            led = fresh(hide)
            try:
                render_html(build_casefile(led, stream))
            finally:
                led.store.close()
        return task

    def summarised() -> None:
        with Ledger.open(url) as led:
            tournament_results(led, CASE_TOURNAMENT)

    def folded() -> None:
        with Ledger.open(url) as led:
            results(CASE_TOURNAMENT, tournament_tables(led, CASE_TOURNAMENT))

    def opened() -> None:
        Ledger.open(url).store.close()

    load = _load()
    out: dict[str, Any] = {"casefile": _timed(runs, casefile(False)), "casefile_folding": _timed(runs, casefile(True)),
           "results": _timed(runs, summarised), "results_folding": _timed(runs, folded),
           "open_store": _timed(runs, opened)}
    out["load_1min"] = [load, _load()]
    return out


def run_casefile_bench(sizes: tuple[int, ...] = (200, 20_000), *, runs: int = 5, seed: int = 2026,
                       tables: int = 8, boards_per_table: int = 24, filler: str = "traveller",
                       url: str | None = None, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Build the store and time the case file at each size (see the module). ``url``: an empty
    database to use instead of a temporary SQLite file at ``synchronous=NORMAL``."""
    from ledger.casefile import build_casefile

    say = progress or (lambda _line: None)
    with tempfile.TemporaryDirectory(prefix="ledger-casefile-") as folder:
        url = url or f"sqlite:///{Path(folder) / 'casefile.db'}?synchronous=normal"
        out: dict[str, Any] = {"store": url.split("?")[0].rsplit("/", 1)[-1] if "sqlite" in url else "given URL",
                               "tournament": {"name": CASE_TOURNAMENT, "tables": tables,
                                              "boards_per_table": boards_per_table},
                               "filler": filler, "runs": runs, "sizes": {}}
        case_stream = "case-cup/t1/b1"
        with Ledger.open(url, create=True) as led:
            w, c, load = time.perf_counter(), time.process_time(), _load()
            in_store = append_batched(led, case_boards(tables, boards_per_table, seed))
            out["build_case_tournament"] = {"boards": in_store, "wall_s": round(time.perf_counter() - w, 1),
                                            "cpu_s": round(time.process_time() - c, 1), "load_1min": [load, _load()]}
            traveller = len(build_casefile(led, case_stream)["traveller"])
        for size in sizes:
            if size > in_store:
                w, c, load = time.perf_counter(), time.process_time(), _load()
                with Ledger.open(url) as led:
                    added = append_batched(led, filler_boards(in_store, size - in_store, seed, filler == "played"))
                wall = time.perf_counter() - w
                say(f"store: {in_store + added} boards ({added} added in {wall:.0f} s)")
                build = {"added": added, "wall_s": round(wall, 1), "cpu_s": round(time.process_time() - c, 1),
                         "boards_per_s_wall": round(added / wall, 1), "load_1min": [load, _load()]}
                in_store += added
            else:
                build = {"added": 0}
            figures = time_case(url, case_stream, runs)
            figures["build"] = build
            figures["boards_in_store"] = in_store
            figures["traveller_rows"] = traveller
            out["sizes"][str(size)] = figures
            say(f"{in_store} boards: case file {figures['casefile']['cpu_ms_median']} ms CPU "
                f"(folding {figures['casefile_folding']['cpu_ms_median']}), load {figures['load_1min']}")
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m ledger.bench.casefile [--sizes 200,20000] [--runs 5] [--filler played]``."""
    import argparse
    import json
    import sys

    from ledger.cli import configure_logging

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="200,20000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--filler", choices=("traveller", "played"), default="traveller")
    args = parser.parse_args(argv)
    configure_logging("WARNING")
    import ledger.laws  # noqa: F401 (the composition root)

    figures = run_casefile_bench(tuple(int(s) for s in args.sizes.split(",")), runs=args.runs, seed=args.seed,
                                 filler=args.filler, progress=lambda line: print(line, file=sys.stderr))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
