"""A page of another origin attacks the live service in real headless Chromium
(Debian's ``chromium`` through Playwright; no browser is downloaded): the
attacker's server listens on another port of the same loopback host, so it
shares the host's cookies (cookies do not separate ports) and is same-site.

* **Login CSRF.** The attacker fetches a genuine sign-in form for his own
  account (its token and pre-session), plants the pre-session cookie in the
  victim's browser (his page's own ``Set-Cookie`` for the host) and makes the
  browser post the form. The server refuses it (the post carries the attacker's
  origin), and the browser is signed in as nobody.
* **Clickjacking.** The attacker's page frames the signed-in director's
  console and the sign-in page; Chromium refuses to display either
  (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``).
"""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from live_helpers import PASSWORD, make_site
from live_server import Server
from browser_helpers import CHROMIUM

from ledger.live import accounts

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium not installed (Debian package chromium)")


class Attacker:
    """The attacker's site on another loopback port: ``/csrf.html`` (a self-posting
    sign-in form, with a planted pre-session cookie) and ``/frame.html`` (frames)."""

    def __init__(self, target: str, presession: str, token: str) -> None:
        pages = {
            "/csrf.html": (f"""<!doctype html><title>Win a prize</title>
<form id="f" method="post" action="{target}/login">
<input name="name" value="mallory"><input name="password" value="{PASSWORD}">
<input name="csrf" value="{token}"><input name="next" value="/director"></form>
<script>document.getElementById("f").submit()</script>""",
                           [("Set-Cookie", f"ledger_presession={presession}; Path=/; SameSite=Lax")]),
            "/frame.html": (f"""<!doctype html><title>Cute cats</title>
<iframe id="console" src="{target}/director" width="800" height="400"></iframe>
<iframe id="login" src="{target}/login" width="800" height="400"></iframe>""", []),
        }

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                body, headers = pages.get(self.path, ("not here", []))
                self.send_response(200 if self.path in pages else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *_args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_another_origin_can_neither_sign_the_browser_in_nor_frame_the_console(store_url, tmp_path):
    from playwright.sync_api import sync_playwright

    site = make_site(store_url)
    accounts.add_user(site.engine, "mallory", "committee", PASSWORD)  # the attacker's own account
    site.ledger.close()
    server = Server(store_url)
    # The attacker takes a genuine form (token and pre-session) for himself.
    with httpx.Client(base_url=server.base) as own:
        form = own.get("/login")
        token = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
        presession = own.cookies.get("ledger_presession")
    attacker = Attacker(server.base, presession, token)
    assert attacker.base.split(":")[-1] != server.base.split(":")[-1]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context()
            page = context.new_page()
            answers: list[tuple[str, int]] = []
            page.on("response", lambda r: answers.append((r.url, r.status)))

            # 1. Login CSRF: the victim visits the attacker's page.
            page.goto(f"{attacker.base}/csrf.html")
            page.wait_for_load_state("load")
            page.wait_for_function("document.title !== 'Win a prize'", timeout=20_000)
            posted = [s for u, s in answers if u == f"{server.base}/login"]
            assert posted and posted[-1] == 403, answers
            assert "another site" in page.content()
            names = {c["name"]: c for c in context.cookies(server.base)}
            assert "ledger_session" not in names, names  # signed in as nobody
            page.goto(f"{server.base}/director")
            assert page.url.startswith(f"{server.base}/login"), page.url
            page.screenshot(path=str(tmp_path / "login-csrf-refused.png"))

            # The victim signs in herself, on the ledger's own page: that works.
            page.fill("#name", "alice")
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{server.base}/director*")
            assert "Director" in page.content()

            # 2. Clickjacking: the attacker's page frames the signed-in console.
            blocked: list[str] = []
            page.on("console", lambda m: blocked.append(m.text))
            page.goto(f"{attacker.base}/frame.html")
            page.wait_for_load_state("load")
            page.wait_for_timeout(1000)
            frames = [f for f in page.frames if f != page.main_frame]
            assert len(frames) == 2
            for frame in frames:
                assert not frame.url.startswith(server.base) or "Director" not in frame.content()
                try:
                    inside = frame.content()
                except Exception:  # a blocked frame may have no document to read
                    inside = ""
                assert "Sign out" not in inside and 'name="password"' not in inside
            assert any("frame-ancestors" in m or "X-Frame-Options" in m or "Refused to display" in m
                       for m in blocked) or all(f.url.startswith("chrome-error:") for f in frames), \
                (blocked, [f.url for f in frames])
            page.screenshot(path=str(tmp_path / "framing-refused.png"))
            browser.close()
    finally:
        attacker.stop()
        server.stop()
