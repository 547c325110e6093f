"""Browser fixtures: Debian's Chromium driven by Playwright, and the client's Flask server.

The browser is never downloaded: the session fixture makes sure ``/usr/bin/chromium`` exists
(installing Debian's ``chromium`` package with apt-get when it is missing; the tests run as
root, in CI too) and skips the browser tests, saying why, only when that fails. Playwright is
only the driver (``playwright install`` is never run): it starts that executable headless.

Screenshots go to ``test-artifacts/web/`` (ignored by git) and are kept after the run.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Blueprint, Flask
from werkzeug.serving import BaseWSGIServer, make_server

REPO = Path(__file__).resolve().parents[2]
WEB_DIR = REPO / "services" / "game" / "king_game" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = REPO / "test-artifacts" / "web"


def load_web_blueprint() -> Blueprint:
    """The client's blueprint: from the installed game package, else straight from its file."""
    try:
        from king_game.web import web_blueprint

        return web_blueprint
    except ImportError:
        spec = importlib.util.spec_from_file_location("king_game_web", WEB_DIR / "__init__.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        blueprint: Blueprint = module.web_blueprint
        return blueprint


def _ensure_chromium() -> str | None:
    """Return why Chromium is unavailable, or None once /usr/bin/chromium exists."""
    if os.access(CHROMIUM, os.X_OK):
        return None
    apt = shutil.which("apt-get")
    if apt is None:
        return f"{CHROMIUM} is missing and apt-get is not available to install it"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return f"{' '.join(command[1:])} failed ({done.returncode}): {' | '.join(tail)}"
    if not os.access(CHROMIUM, os.X_OK):
        return f"apt-get installed chromium but {CHROMIUM} is still missing"
    return None


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    reason = _ensure_chromium()
    if reason is not None:
        pytest.skip(f"no browser for the web tests: {reason}")
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_executable: str) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - requirements.txt pins it
        pytest.skip("the playwright package is not installed (requirements.txt pins it)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_executable, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


class LiveServer:
    """A WSGI app served on 127.0.0.1 by a background thread (stopped by ``stop``)."""

    def __init__(self, app: Flask) -> None:
        self._server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


@pytest.fixture(scope="session")
def static_server() -> Iterator[LiveServer]:
    """Only the client's blueprint (the verifier and layout tests need no game service)."""
    app = Flask("king_web_static")
    app.register_blueprint(load_web_blueprint())
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()
