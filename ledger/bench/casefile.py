"""A case file in the time of its tournament (issue 28, item 4): ``cli.py bench --casefile``.

Issue 28's target: "A case file <= 100 ms at 200 and at 20,000 boards in the store". One store
is built per size (the same case tournament in each), then the case file of one board is
timed on each store in rounds, the stores alternated (so that the sizes are compared under
the same load), from a fresh ledger each run (no cached head), CPU (``time.process_time``)
and wall, the median of ``runs`` rounds and the median of the per-round ratios of the
largest store to the smallest, the 1-minute load of each round:

* ``casefile``: what ``cli.py casefile`` writes: :func:`ledger.casefile.build_casefile` with
  the earlier decisions on the same Laws (:func:`ledger.appeals.earlier_decisions`, the
  appealed boards by their index) and its HTML page (:func:`ledger.casefile.render_html`);
  the traveller from the tournament's results summaries (one query, ``ledger.summaries``);
* ``casefile_folding``: the same with the store's summaries hidden, each board of the
  tournament folded from its snapshot (what the case file read before revision 0007);
* ``casefile_before_once`` (one run per size): the same with the appeals' index hidden too,
  every stream of the store read for the earlier decisions, as before revision 0007;
* ``results``: :func:`ledger.tournament.tournament_results` (the spec's results document of
  the tournament, from the summaries), and ``results_folding``:
  :func:`projections.results.results` of the folded boards (``tournament_tables``).

The store: one pairs tournament, ``Case Cup``, of ``tables`` tables on ``boards_per_table``
boards, every board played card by card (:func:`ledger.simulate.random_board`, a deal of its
own per table), three boards given an assigned adjusted score (Law 12C1b) and appealed: the
case (table 1, board 1; its appeal pending) and two earlier decisions on the same Law.
Then other tournaments fill each store up to its size: boards entered as travellers
(``BoardOpened`` and ``ResultReported``: 3 events each with the engine's, what ``enter`` and
a Bridgemate import write) or, with ``filler="played"``, played card by card like the case
tournament's (about 65 facts each; 20,000 such boards take several minutes to build). Every
board goes through the ordinary append path, 250 to a store transaction
(:meth:`ledger.service.Ledger.batch`, the import's batching), into SQLite files at
``synchronous=NORMAL`` (SQLite only: no PostgreSQL figure).
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
CASE_STREAM = "case-cup/t1/b1"
BATCH = 250
CONTRACTS = ("4S", "3NT", "4H", "2S", "1NT", "5D", "3C")


def _load() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


#: The case tournament's boards (board, table) given an adjusted score and appealed: the case
#: (1, 1), decided last, and two decided before it on the same Law (its earlier decisions).
APPEALED = ((1, 1), (3, 2), (7, 5))


def appealed(pending: bool) -> list[dict[str, Any]]:
    """An assigned adjusted score (Law 12C1b) and its appeal, decided unless ``pending``."""
    facts: list[dict[str, Any]] = [
        {"type": "AdjustedScoreAwarded", "kind": "assigned", "law": "2017:12C1b",
         "text": "misinformation: with the correct explanation, East leads a heart",
         "results": [{"side": "both", "contract": "3NT", "declarer": "S", "tricks": 8}],
         "actor": {"role": "director", "name": "TD bench"}},
        {"type": "AppealLodged", "side": "NS", "text": "the explanation was correct",
         "actor": {"role": "director", "name": "TD bench"}}]
    if not pending:
        facts.append({"type": "AppealDecided", "decision": "upheld", "text": "the ruling stands",
                      "actor": {"role": "committee", "name": "AC bench"}})
    return facts


def case_boards(tables: int, boards_per_table: int, seed: int) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(stream, facts) of the case tournament: every board played card by card; three of them
    (:data:`APPEALED`) end with an assigned adjusted score and an appeal."""
    from ledger.simulate import random_board

    case: list[dict[str, Any]] = []
    for board in range(1, boards_per_table + 1):
        for table in range(1, tables + 1):
            played = random_board(random.Random(seed * 100_003 + board * 101 + table), tournament=CASE_TOURNAMENT,
                                  board=board, table=str(table), pass_out=0.0)
            facts = [dict(played.facts[0], ns=f"{table}NS", ew=f"{(table + board) % tables + 1}EW")]
            facts += played.facts[1:]
            if (board, table) in APPEALED:
                facts += appealed(board == 1)
            if (board, table) == (1, 1):
                case = facts  # appended last: its appeal is lodged after the others were decided
                continue
            yield f"case-cup/t{table}/b{board}", facts
    yield CASE_STREAM, case


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


def _once(task: Callable[[], Any]) -> tuple[float, float]:
    """(CPU ms, wall ms) of one run of ``task``."""
    c, w = time.process_time(), time.perf_counter()
    task()
    return (time.process_time() - c) * 1000, (time.perf_counter() - w) * 1000


def _summary(cpu: list[float], wall: list[float]) -> dict[str, float]:
    return {"cpu_ms_median": round(statistics.median(cpu), 1), "wall_ms_median": round(statistics.median(wall), 1),
            "cpu_ms_min": round(min(cpu), 1), "wall_ms_min": round(min(wall), 1)}


class _NoSummaries:
    """The store without its summaries (``board_summaries`` hidden): the case file folds
    each board of the tournament, as before revision 0007; with ``hide`` other roles too
    (``appealed_streams``: the earlier decisions read every stream, as before 0007)."""

    def __init__(self, store: Any, hide: tuple[str, ...] = ("board_summaries",)) -> None:
        self._store, self._hide = store, hide

    def __getattr__(self, name: str) -> Any:
        if name in self._hide:
            raise AttributeError(name)
        return getattr(self._store, name)


TASKS = ("casefile", "casefile_folding", "results", "results_folding", "open_store")


def case_tasks(url: str, stream: str) -> dict[str, Callable[[], Any]]:
    """The timed tasks on the store at ``url`` (see the module), each from a fresh ledger."""
    from ledger.appeals import earlier_decisions
    from ledger.casefile import build_casefile, render_html
    from ledger.tournament import tournament_results, tournament_tables
    from projections.results import results

    def casefile(hide: tuple[str, ...]) -> Callable[[], Any]:
        def task() -> None:
            led = Ledger.open(url)
            case_ledger = Ledger(_NoSummaries(led.store, hide)) if hide else led  # type: ignore[arg-type]
            try:
                render_html(build_casefile(case_ledger, stream, earlier=earlier_decisions))
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

    return {"casefile": casefile(()), "casefile_folding": casefile(("board_summaries",)), "results": summarised,
            "results_folding": folded, "open_store": opened,
            "casefile_before": casefile(("board_summaries", "appealed_streams"))}


def build_store(url: str, size: int, *, seed: int, tables: int, boards_per_table: int,
                filler: str) -> dict[str, Any]:
    """The store of ``size`` boards at ``url``: the case tournament, then filler boards."""
    w, c, load = time.perf_counter(), time.process_time(), _load()
    with Ledger.open(url, create=True) as led:
        in_store = append_batched(led, case_boards(tables, boards_per_table, seed))
        added = append_batched(led, filler_boards(in_store, size - in_store, seed, filler == "played")) \
            if size > in_store else 0
    wall = time.perf_counter() - w
    return {"boards": in_store + added, "case_boards": in_store, "filler_boards": added,
            "wall_s": round(wall, 1), "cpu_s": round(time.process_time() - c, 1),
            "boards_per_s_wall": round((in_store + added) / wall, 1), "load_1min": [load, _load()]}


def run_casefile_bench(sizes: tuple[int, ...] = (200, 20_000), *, runs: int = 5, seed: int = 2026,
                       tables: int = 8, boards_per_table: int = 24, filler: str = "traveller",
                       folder: Path | None = None, progress: Callable[[str], None] | None = None,
                       before: bool = True) -> dict[str, Any]:
    """Build one store per size (the same case tournament in each), then time every task on
    every store in rounds, the stores alternated and their order rotated each round, so that
    the sizes are compared under the same load (see the module). ``folder``: where the
    SQLite files are built (a temporary folder, removed after, by default). ``before``: also
    one case file per size as read before revision 0007 (``casefile_before_once``: every
    board of the tournament folded and every stream of the store read for the earlier
    decisions; once, as it grows with the store)."""
    from ledger.appeals import earlier_decisions
    from ledger.casefile import build_casefile

    say = progress or (lambda _line: None)
    with tempfile.TemporaryDirectory(prefix="ledger-casefile-") as temporary:
        where = folder or Path(temporary)
        urls = {size: f"sqlite:///{where / f'casefile-{size}.db'}?synchronous=normal" for size in sizes}
        out: dict[str, Any] = {"tournament": {"name": CASE_TOURNAMENT, "tables": tables,
                                              "boards_per_table": boards_per_table, "case": CASE_STREAM},
                               "filler": filler, "runs": runs, "sizes": {}}
        for size in sizes:
            build = build_store(urls[size], size, seed=seed, tables=tables, boards_per_table=boards_per_table,
                                filler=filler)
            with Ledger.open(urls[size]) as led:
                case = build_casefile(led, CASE_STREAM, earlier=earlier_decisions)
                build["traveller_rows"], build["earlier_decisions"] = len(case["traveller"]), len(case["earlier"])
            out["sizes"][str(size)] = {"build": build}
            say(f"store of {build['boards']} boards built in {build['wall_s']} s")
        tasks = {size: case_tasks(urls[size], CASE_STREAM) for size in sizes}
        taken: dict[tuple[int, str], list[tuple[float, float]]] = {(s, t): [] for s in sizes for t in TASKS}
        loads = []
        for round_ in range(runs):
            order = list(sizes[round_ % len(sizes):] + sizes[:round_ % len(sizes)])
            loads.append(_load())
            for size in order:
                for name in TASKS:
                    taken[(size, name)].append(_once(tasks[size][name]))
            say(f"round {round_ + 1}: case file " + ", ".join(
                f"{s} boards {taken[(s, 'casefile')][-1][0]:.1f} ms CPU" for s in sizes) + f", load {loads[-1]}")
        for size in sizes:
            for name in TASKS:
                cpu, wall = zip(*taken[(size, name)])
                out["sizes"][str(size)][name] = _summary(list(cpu), list(wall))
            if before:  # once: without the summaries nor the appeals' index, as before revision 0007
                load = _load()
                cpu_once, wall_once = _once(tasks[size]["casefile_before"])
                out["sizes"][str(size)]["casefile_before_once"] = {
                    "cpu_ms": round(cpu_once, 1), "wall_ms": round(wall_once, 1), "load_1min": [load, _load()]}
        out["load_1min_per_round"] = loads
        if len(sizes) > 1:
            small, large = min(sizes), max(sizes)
            out["ratio_largest_to_smallest"] = {
                name: {"cpu_median": round(statistics.median(b[0] / a[0] for a, b in zip(
                    taken[(small, name)], taken[(large, name)])), 2),
                    "wall_median": round(statistics.median(b[1] / a[1] for a, b in zip(
                        taken[(small, name)], taken[(large, name)])), 2)}
                for name in ("casefile", "results")}
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m ledger.bench.casefile [--sizes 200,20000] [--runs 5] [--filler played]``."""
    import argparse
    import json
    import sys

    import logging

    import structlog

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="200,20000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--filler", choices=("traveller", "played"), default="traveller")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))  # as `bench` runs
    import ledger.laws  # noqa: F401 (the composition root)

    figures = run_casefile_bench(tuple(int(s) for s in args.sizes.split(",")), runs=args.runs, seed=args.seed,
                                 filler=args.filler, progress=lambda line: print(line, file=sys.stderr))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
