"""Import speed on a large file: the ``import_large_*`` keys of ``cli.py bench``.

Issue 14 asks for the import speed on a large file (its reference is a
7,632-record world championship archive, which is not among the files beside
the repository).  The stand-in is built from the RealBridge file of
``../shared/bridge-data`` (299 records of 10 boards, 14,323 events): ``copies``
copies of it, each copy's boards renumbered (11-20, 31-40, ...), one text; 25
copies give 7,475 records and about 358,000 events, the archive's size.  It is
imported into the bench's store through :func:`ledger.records.games.import_text` (the
ordinary append path, the records batched into store transactions), so the
figure includes the growth of the store during the import.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from ledger.service import Ledger

REALBRIDGE = Path(__file__).resolve().parents[3] / "shared" / "bridge-data" / \
    "realbridge-2021-online-qual-open-r2.pbn"

#: Boards of the bench (``--boards``) per copy of the RealBridge file: the default
#: 200 boards give 25 copies (7,475 records).
BOARDS_PER_COPY = 8

_BOARD = re.compile(r'\[Board "(\d+)"\]')


def large_file(text: str, copies: int) -> str:
    """``copies`` copies of a PBN text, the boards of copy k numbered 20 k higher."""
    return "\n".join(_BOARD.sub(lambda m: f'[Board "{int(m.group(1)) + 20 * k}"]', text)
                     for k in range(copies))


def large_import_figures(ledger: Ledger, run: str, boards: int,
                         skip: bool = False) -> dict[str, Any]:
    """``import_large_records``, ``import_large_events``, ``import_large_eps`` (events
    written per second, the issue's target is 5,000) and ``import_large_s`` for the
    large file of ``boards // BOARDS_PER_COPY`` copies; None when skipped or when
    the RealBridge file is not beside the repository."""
    from ledger.records.games import import_text

    copies = boards // BOARDS_PER_COPY
    if skip or copies < 1 or not REALBRIDGE.exists():
        return {"import_large_records": None, "import_large_events": None,
                "import_large_eps": None, "import_large_s": None}
    text = large_file(REALBRIDGE.read_text(encoding="utf-8"), copies)
    t0 = time.perf_counter()
    report = import_text(ledger, text, "pbn", tournament=f"bench-large-{run}")
    seconds = time.perf_counter() - t0
    return {"import_large_records": len(report.imported),
            "import_large_events": report.events,
            "import_large_eps": round(report.events / seconds, 1),
            "import_large_s": round(seconds, 1)}


BRIDGE_DATA = REALBRIDGE.parent
BRIDGEMATE = BRIDGE_DATA / "bridgemate-lbc-2026-01-26.bws"

#: The real files of ``real_import_figures``: key prefix, file.
REAL_FILES = (("import_real_pbn", REALBRIDGE), ("import_real_bws", BRIDGEMATE))


def real_import_figures(ledger: Ledger, run: str, skip: bool = False) -> dict[str, Any]:
    """Issue 27: the single-process import speed of real files, CPU and wall, side by side.

    For the RealBridge file (``import_real_pbn_*``) and the Bridgemate session
    (``import_real_bws_*``): ``records``, ``events`` (written), ``wall_s``, ``cpu_s``
    (this process's CPU time: on a machine shared with other work the wall clock
    counts the others' time too), ``eps_wall`` and ``eps_cpu`` (events written per
    second of each), ``records_per_s_cpu`` (a Bridgemate record is three events: its
    speed is in records); and ``import_real_load`` (the 1-minute load average before and
    after, to read the wall figures by).  None when skipped (smoke runs) or when the
    file is not beside the repository."""
    import os

    from ledger.records.games import import_bws, import_text

    out: dict[str, Any] = {}
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    for prefix, path in REAL_FILES:
        keys = ("records", "events", "wall_s", "cpu_s", "eps_wall", "eps_cpu",
                "records_per_s_cpu")
        if skip or not path.exists():
            out |= {f"{prefix}_{k}": None for k in keys}
            continue
        wall, cpu = time.perf_counter(), time.process_time()
        if path.suffix == ".bws":
            report = import_bws(ledger, path, tournament=f"bench-bws-{run}")
        else:
            report = import_text(ledger, path.read_text(encoding="utf-8"), "pbn",
                                 tournament=f"bench-pbn-{run}")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        out |= {f"{prefix}_records": len(report.imported), f"{prefix}_events": report.events,
                f"{prefix}_wall_s": round(wall, 2), f"{prefix}_cpu_s": round(cpu, 2),
                f"{prefix}_eps_wall": round(report.events / wall, 1),
                f"{prefix}_eps_cpu": round(report.events / cpu, 1) if cpu else None,
                f"{prefix}_records_per_s_cpu": round(len(report.imported) / cpu, 1) if cpu else None}
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    out["import_real_load"] = None if skip or load_before is None else \
        f"{load_before:.1f} -> {load_after:.1f}"
    return out
