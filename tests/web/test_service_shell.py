"""The client's shell against the real services: the sign-in form shows the API's field
messages, the create form offers what ``GET /v1/rules`` allows, and ``/docs`` of both services
works with no internet (Swagger UI's files come from the service itself)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .servers import LiveServer

pytestmark = pytest.mark.integration

try:
    from king_game.app import create_app
    from king_game.config import Settings
    from king_game.migrate import migrate
    from king_match import MatchSettings
    from king_rating.app import create_app as create_rating_app
    from king_rating.config import Settings as RatingSettings
except ImportError as missing:  # the services are not installed in this environment
    pytest.skip(f"the services cannot be imported: {missing}", allow_module_level=True)


@pytest.fixture(scope="module")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    """The game app (its factory registers the client); no bot worker: nothing here plays."""
    migrate(database_url)
    parts = urllib.parse.urlsplit(redis_url)
    env = {
        "REDIS_URL": urllib.parse.urlunsplit(parts._replace(path="/8")),
        "KING_KEY_PREFIX": f"s{uuid.uuid4().hex[:8]}:",
    }
    settings = Settings(
        database_url=database_url, match=MatchSettings.from_env(env), rate_limits_enabled=False
    )
    app = create_app(settings)
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()
        notifier = getattr(app.extensions["king_game"].store, "notifier", None)
        if notifier is not None:
            notifier.stop()


@pytest.fixture(scope="module")
def rating_docs_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    app = create_rating_app(RatingSettings(database_url=database_url, redis_url=redis_url))
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()


def _page(browser: Any, locale: str) -> tuple[Any, Any]:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    return context, context.new_page()


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "Password: 8 to 200 characters"), ("tr-TR", "Şifre: 8–200 karakter olmalı")],
)
def test_a_short_password_shows_the_fields_message(
    browser: Any, game_server: LiveServer, locale: str, expected: str
) -> None:
    context, page = _page(browser, locale)
    try:
        page.goto(game_server.url + "/")
        page.fill("#login-name", f"Deneme {uuid.uuid4().hex[:6]}")
        page.fill("#login-password", "kısa")
        page.click("#signup-button")
        page.wait_for_selector("#login-error:not([hidden])")
        text = page.inner_text("#login-error")
        assert text == f"{expected} (validation_failed)", text
        assert page.get_attribute("#login-password", "aria-invalid") == "true"
    finally:
        context.close()


def test_the_create_form_offers_what_the_rules_allow(browser: Any, game_server: LiveServer) -> None:
    with urllib.request.urlopen(game_server.url + "/v1/rules") as answer:
        rules = json.load(answer)
    context, page = _page(browser, "en-US")
    try:
        page.goto(game_server.url + "/")
        page.fill("#guest-name", "Deneme")
        page.click("#guest-button")
        page.wait_for_selector("#create-ruleset option", state="attached")
        rulesets = page.eval_on_selector_all("#create-ruleset option", "os => os.map(o => o.value)")
        assert rulesets == [r["name"] for r in rules["rulesets"]]
        for ruleset in rules["rulesets"]:
            page.select_option("#create-ruleset", ruleset["name"])
            lengths = page.eval_on_selector_all(
                "#create-hands option", "os => os.map(o => o.value)"
            )
            assert lengths == [str(n) for n in ruleset["hands"]], ruleset["name"]
        modes = page.eval_on_selector_all("#create-mode option", "os => os.map(o => o.value)")
        assert modes == [f"computer:{level}" for level in rules["bot_levels"]] + ["live"]
        assert "classic20" in rulesets  # the case that offered 8 and 12 hands
    finally:
        context.close()


@pytest.mark.parametrize("service", ["game", "rating"])
def test_docs_work_offline(
    browser: Any, request: Any, service: str, game_server: LiveServer, artifacts: Path
) -> None:
    server = game_server if service == "game" else request.getfixturevalue("rating_docs_server")
    context, page = _page(browser, "en-US")
    asked: list[str] = []

    def only_this_service(route: Any) -> None:
        url = route.request.url
        asked.append(url)
        if url.startswith(server.url + "/"):
            route.continue_()
        else:  # no internet
            route.abort()

    context.route("**/*", only_this_service)
    try:
        page.goto(server.url + "/docs")
        page.wait_for_selector(".swagger-ui .info .title")
        page.wait_for_selector(".swagger-ui .opblock")
        title = page.inner_text(".swagger-ui .info .title")
        assert ("game service" if service == "game" else "rating service") in title, title
        assert all(url.startswith(server.url + "/") for url in asked), asked
        assert any(url.endswith("/docs/ui/swagger-ui-bundle.js") for url in asked), asked
        assert any(url.endswith("/docs/ui/swagger-ui.css") for url in asked), asked
        page.screenshot(path=str(artifacts / f"docs-{service}-offline.png"))
    finally:
        context.close()
    with urllib.request.urlopen(server.url + "/docs/ui/swagger-ui.css") as answer:
        assert answer.headers["Content-Type"].startswith("text/css")
