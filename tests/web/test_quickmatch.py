"""The lobby's quick match in Chromium, through the real game service: "play now" shows the
waiting time and the rating window, cancel leaves the pool; with three more guests a table is
found, Accept stores the commitment before the seed and confirms, and the page opens the match
once all four have confirmed."""

from __future__ import annotations

import json
import secrets
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from .play import sign_in_as_guest
from .servers import LiveServer, load_web_blueprint

pytestmark = [pytest.mark.integration]

try:
    from king_game.app import create_app
    from king_game.config import Settings
    from king_game.migrate import migrate
    from king_match import MatchSettings
except ImportError as missing:  # the game service is not installed in this environment
    pytest.skip(f"the game service cannot be imported: {missing}", allow_module_level=True)


@pytest.fixture(scope="module")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    migrate(database_url)
    settings = Settings(
        database_url=database_url,
        match=MatchSettings(redis_url=redis_url, key_prefix=f"wq{uuid.uuid4().hex[:8]}:"),
        rate_limits_enabled=False,
    )
    app = create_app(settings)
    if "web" not in app.blueprints:
        app.register_blueprint(load_web_blueprint())
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()
        notifier = app.extensions["king_game"].store.notifier
        if notifier is not None:
            notifier.stop()


def call(base: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_play_now_waits_cancels_then_finds_a_table_and_opens_the_match(
    page: Any, game_server: LiveServer
) -> None:
    base = game_server.url
    sign_in_as_guest(page, base, "Hızlı")
    page.click("#qm-play-standard")
    page.wait_for_selector("#qm-waiting")
    assert page.inner_text("#qm-window") == "±100"
    assert ":" in page.inner_text("#qm-time")
    page.click("#qm-cancel")
    page.wait_for_selector("#qm-play-standard")
    page.click("#qm-play-standard")
    page.wait_for_selector("#qm-waiting")
    others = [
        call(base, "POST", "/v1/accounts", None, {"name": f"g{i}{uuid.uuid4().hex[:6]}"})["token"]
        for i in range(3)
    ]
    for token in others:
        call(base, "POST", "/v1/quickmatch", token, {"ruleset": "standard", "hands": 8})
    page.wait_for_selector("#qm-accept")
    found = call(base, "GET", "/v1/quickmatch", others[0])
    commit = found["server_commit"]
    assert page.inner_text("#qm-commit") == commit[:16] + "…"
    page.click("#qm-accept")
    page.wait_for_selector("#qm-others")
    for token in others:
        call(base, "POST", "/v1/quickmatch/confirm", token, {"client_seed": secrets.token_hex(32)})
    page.wait_for_function(f"location.hash === '#/match/{found['table_id']}'")
    record = page.evaluate(
        "key => JSON.parse(localStorage.getItem(key))", f"king.match.{found['table_id']}"
    )
    assert record["commitment"] == commit and len(record["seed"]) == 64
    assert page.js_errors == []
