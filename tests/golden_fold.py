"""The golden digest of the fold: every scenario file (tests/scenarios and the
examples in ledger/examples) replayed through the ordinary append path, and
for each file two SHA-256 digests:

* ``documents``: the state document after every seq (without
  ``integrity.head``, which hashes the wall clock) and every stored event's
  seq, type, data, role, causes and Law (so the engine's output is covered);
* ``snapshot``: the head snapshot (``projections.snapshot.dump``) without its
  head hash.

They are kept in ``projections/golden.json`` beside the snapshot version. A
change of the fold that changes any of them must bump
``projections.snapshot.VERSION``; ``tests/test_golden.py`` fails otherwise.

    python tests/golden_fold.py --write   # after a VERSION bump, or for new files only
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "projections" / "golden.json"


def scenario_files() -> list[Path]:
    return sorted((ROOT / "tests" / "scenarios").glob("*.jsonl")) + sorted(
        (ROOT / "ledger" / "examples").glob("*.jsonl"))


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digests(path: Path) -> dict[str, str]:
    from ledger.scenario import replay_text
    from projections import snapshot

    with replay_text(path.read_text(encoding="utf-8")) as (ledger, stream):
        stored = ledger.events(stream)
        events = [[e.seq, e.type, e.data, e.actor.role, list(e.causes), e.law] for e in stored]
        documents = []
        for e in stored:
            doc = ledger.state(stream, e.seq)
            doc["integrity"].pop("head", None)
            for voided in doc.get("voided", ()):
                voided.pop("at", None)  # when it was logged: the clock's, not the fold's
            documents.append(doc)
        state, _ = ledger.table_state(stream)
        snap = snapshot.dump(state)
        snap.pop("head", None)
    return {"documents": _digest([events, documents]), "snapshot": _digest(snap)}


def compute() -> dict[str, dict[str, str]]:
    return {_name(p): digests(p) for p in scenario_files()}


def load() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def write() -> int:
    """Write the digests. An existing file's digest may change only with a new
    snapshot VERSION; otherwise only new files are added."""
    from projections.snapshot import VERSION

    old = load() if GOLDEN.exists() else {"version": None, "files": {}}
    fresh = compute()
    bumped = old["version"] != VERSION
    changed = [n for n, d in fresh.items() if n in old["files"] and old["files"][n] != d]
    if changed and not bumped:
        print(f"the fold's output changed for {len(changed)} file(s) (first: {changed[0]}) but "
              f"projections.snapshot.VERSION is still {VERSION}: bump it first", file=sys.stderr)
        return 1
    GOLDEN.write_text(json.dumps({"version": VERSION, "files": fresh}, indent=1, sort_keys=True) + "\n",
                      encoding="utf-8")
    print(f"wrote {len(fresh)} digest(s) for snapshot version {VERSION}; {len(changed)} changed")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    import logging

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    if sys.argv[1:] != ["--write"]:
        print(__doc__)
        sys.exit(2)
    sys.exit(write())


def assert_scenario_holds(path: Path, url: str = "sqlite:///:memory:", *, expectations: int = 1) -> None:
    """Replay the scenario file ``path`` (on the store ``url``, else in memory): every state it
    expects holds, and it expects at least ``expectations`` things."""
    from ledger.scenario import Checked, replay_text

    checked: list[Checked] = []
    with replay_text(path.read_text(encoding="utf-8"), url, checked):
        pass
    assert len(checked) == 1 and checked[0].expectations >= expectations
    assert checked[0].mismatches == (), [str(m) for m in checked[0].mismatches]
