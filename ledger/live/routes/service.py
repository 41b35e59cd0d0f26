"""The service's own: the health check (the log's newest position) and the pages' script."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from ledger.live.deps import LiveDep
from ledger.live.pages import TEMPLATES

router = APIRouter(include_in_schema=False)


@router.get("/static/live.js")
def live_js() -> Response:
    return Response((TEMPLATES / "live.js").read_text(encoding="utf-8"), media_type="text/javascript")


@router.get("/healthz")
async def healthz(live: LiveDep) -> JSONResponse:
    # The log's newest position, also while no page follows this process's feed.
    return JSONResponse({"ok": True, "position": await run_in_threadpool(live.feed.newest)})
