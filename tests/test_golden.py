"""The golden digest of the fold (tests/golden_fold.py): a change of the fold
that changes any state document, any engine output or the head snapshot of a
scenario file fails here unless ``projections.snapshot.VERSION`` was bumped
and ``projections/golden.json`` rewritten (``python tests/golden_fold.py --write``)."""

from __future__ import annotations

import pytest
from golden_fold import ROOT, digests, load, scenario_files

from projections.snapshot import VERSION

GOLDEN = load()
FILES = scenario_files()


def test_golden_is_for_this_snapshot_version():
    assert GOLDEN["version"] == VERSION, (
        f"projections/golden.json is for snapshot version {GOLDEN['version']}, the fold is at {VERSION}: "
        "run python tests/golden_fold.py --write")


def test_every_scenario_file_has_a_digest():
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert sorted(names - set(GOLDEN["files"])) == [], "run python tests/golden_fold.py --write (adds new files)"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fold_output_unchanged(path):
    name = path.relative_to(ROOT).as_posix()
    if name not in GOLDEN["files"]:
        pytest.fail(f"{name} has no golden digest: run python tests/golden_fold.py --write")
    assert digests(path) == GOLDEN["files"][name], (
        f"the fold's output for {name} changed: if the Laws call for it, bump projections.snapshot.VERSION "
        "and rewrite the digests (python tests/golden_fold.py --write)")
