"""The web layer in rooms (issue 29): every route of the live app is a module-level function
of one router module per area, reaching the process's state through a dependency, not a
closure over a factory's locals; the app's one state object is on ``app.state.live``."""

from __future__ import annotations

import inspect

import pytest
from live_helpers import make_site

from ledger.live.app import ROOMS, app_routes, create_app
from ledger.live.state import LiveState


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_every_route_is_a_module_level_function_of_a_room(store_url):
    site = make_site(store_url)
    app = create_app(site.url, ledger=site.ledger)
    assert isinstance(app.state.live, LiveState) and app.state.ledger is app.state.live.ledger
    rooms = {room.__name__ for room in ROOMS}
    ours = [r for r in app_routes(app) if getattr(r.endpoint, "__module__", "").startswith("ledger.")]
    assert len(ours) >= 20
    for route in ours:
        endpoint = route.endpoint
        where = f"{route.path} {sorted(route.methods or ())}"
        assert endpoint.__module__ in rooms, where
        assert endpoint.__qualname__ == endpoint.__name__, where  # not nested in a function
        assert getattr(inspect.getmodule(endpoint), endpoint.__name__) is endpoint, where
    paths = {(r.path, m) for r in ours for m in (r.methods or ())}
    for expected in (("/api/streams/{stream:path}/events", "POST"), ("/login", "POST"), ("/login", "GET"),
                     ("/table/{token}", "GET"), ("/director", "GET"), ("/committee", "GET"), ("/healthz", "GET")):
        assert expected in paths, expected
    site.ledger.close()
