"""Browser fixtures: Debian's Chromium driven by Playwright, and the client's Flask server.

The browser is never downloaded: the session fixture makes sure ``/usr/bin/chromium`` exists
(installing Debian's ``chromium`` package with apt-get when it is missing; the tests run as
root, in CI too) and skips the browser tests, saying why, only when that fails. Playwright is
only the driver (``playwright install`` is never run): it starts that executable headless.

Screenshots go to ``test-artifacts/web/`` (ignored by git) and are kept after the run.

The browser tests share one real game service for the whole run (``game_server``): every test
makes its own guests and tables, so nothing of one test is in another's way. Tests of the
client alone use ``static_server`` (only the client's files) or the engine-backed stand-in
(``stub_game.py``). The boards' tests share one real rating service the same way
(``rating_server``, rating_service.py), each reading only its own players.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis  # noqa: F401  (see _settle_after_playwright)
import pytest
from flask import Flask

from .live_game import game_service
from .pages import new_page
from .rating_service import rating_server  # noqa: F401  (the session's rating service)
from .servers import REPO, LiveServer, load_web_blueprint

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
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_executable, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()
    _settle_after_playwright()


def _settle_after_playwright() -> None:
    """Collect Playwright's leftover greenlets and event-loop objects now.

    On CPython 3.11, ``ast.parse`` keeps its recursion counter in interpreter-wide state; if a
    garbage collection inside it runs finalizers that let another parse start (a greenlet or
    a server thread), the outer parse fails with "AST constructor recursion depth mismatch".
    pytest parses when it imports a plugin lazily (hypothesis' plugin imports hypothesis at
    the terminal summary, hence the import at the top) and when it formats a failure, so we
    leave no such garbage behind for it.
    """
    gc.collect()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A desktop page with the client's own default pace (``pages.new_page`` for others)."""
    with new_page(browser, pace=None, timeout_ms=15_000) as page:
        yield page


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


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


@pytest.fixture(scope="session")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    """The game service of every browser test: its app factory with the client, on this run's
    Redis (a database of its own, so no other folder's bot worker takes its jobs) and Postgres,
    with a real bot worker process and the clock sweeper."""
    with game_service(redis_url, database_url, db=7, bots=True) as server:
        yield server
