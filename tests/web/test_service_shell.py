"""The client's shell against the real services (the run's ``game_server`` and
``rating_server``): the sign-in form shows the API's field messages, the create form offers
what ``GET /v1/rules`` allows, and ``/docs`` of both services works with no internet (Swagger
UI's files come from the service itself)."""

from __future__ import annotations

import json
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from .pages import new_page
from .servers import LiveServer

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "Password: 8 to 200 characters"), ("tr-TR", "Şifre: 8–200 karakter olmalı")],
)
def test_a_short_password_shows_the_fields_message(
    browser: Any, game_server: LiveServer, locale: str, expected: str
) -> None:
    with new_page(browser, locale=locale) as page:
        page.goto(game_server.url + "/")
        page.fill("#login-name", f"Deneme {uuid.uuid4().hex[:6]}")
        page.fill("#login-password", "kısa")
        page.click("#signup-button")
        page.wait_for_selector("#login-error:not([hidden])")
        text = page.inner_text("#login-error")
        assert text == f"{expected} (validation_failed)", text
        assert page.get_attribute("#login-password", "aria-invalid") == "true"


def test_the_create_form_offers_what_the_rules_allow(browser: Any, game_server: LiveServer) -> None:
    with urllib.request.urlopen(game_server.url + "/v1/rules") as answer:
        rules = json.load(answer)
    with new_page(browser, locale="en-US") as page:
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


@pytest.mark.parametrize("service", ["game", "rating"])
def test_docs_work_offline(browser: Any, request: Any, service: str, artifacts: Path) -> None:
    server = request.getfixturevalue(f"{service}_server")
    with new_page(browser, locale="en-US") as page:
        asked: list[str] = []

        def only_this_service(route: Any) -> None:
            url = route.request.url
            asked.append(url)
            if url.startswith(server.url + "/"):
                route.continue_()
            else:  # no internet
                route.abort()

        page.context.route("**/*", only_this_service)
        page.goto(server.url + "/docs")
        page.wait_for_selector(".swagger-ui .info .title")
        page.wait_for_selector(".swagger-ui .opblock")
        title = page.inner_text(".swagger-ui .info .title")
        assert ("game service" if service == "game" else "rating service") in title, title
        assert all(url.startswith(server.url + "/") for url in asked), asked
        assert any(url.endswith("/docs/ui/swagger-ui-bundle.js") for url in asked), asked
        assert any(url.endswith("/docs/ui/swagger-ui.css") for url in asked), asked
        page.screenshot(path=str(artifacts / f"docs-{service}-offline.png"))
    with urllib.request.urlopen(server.url + "/docs/ui/swagger-ui.css") as answer:
        assert answer.headers["Content-Type"].startswith("text/css")
