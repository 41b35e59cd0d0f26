"""What the tests in a real browser share: Debian's ``chromium`` (never downloaded), the skip
when it is absent, one browser per test module, the screenshots they take and the card a
player on turn may play."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium not installed (Debian package chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright for Python, for the whole test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def shot(page: Any, tmp_path: Path, name: str) -> None:
    """A full-page screenshot into the test's folder (with ``LEDGER_SCREENSHOTS=docs`` also
    into docs/, as ``live-NAME.png``): not empty."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, timeout=90_000)
    target = os.environ.get("LEDGER_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / f"live-{name}.png")
    assert path.stat().st_size > 5000


def legal(state: dict[str, Any]) -> tuple[str, str]:
    """(seat, card) the player on turn may play: the first card that follows suit, else his first."""
    seat = state["turn"]
    hand = state["hands"][seat]
    trick = state["tricks"][-1]["cards"] if state["tricks"] and len(state["tricks"][-1]["cards"]) < 4 else []
    follow = [c for c in hand if trick and c[0] == trick[0]["card"][0]]
    return seat, (follow or hand)[0]
