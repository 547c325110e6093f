"""Query strings and week labels are read as documented: an undocumented or repeated query
parameter, and a week label outside the documented pattern, are refused (issue 42, item 8)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.resources.weekly.resources import WEEK_PATTERN
from king_rating.store import Store

from .test_api import MIDWEEK, problem

pytestmark = pytest.mark.integration


@pytest.fixture
def client(store: Store, redis_url: str) -> Iterator[FlaskClient]:
    settings = Settings(database_url="unused", redis_url=redis_url)
    app = create_app(settings, store=store, clock=lambda: MIDWEEK)
    with app.test_client() as test_client:
        yield test_client


def test_a_repeated_query_parameter_is_refused(client: FlaskClient) -> None:
    body = problem(client.get("/ladder?ruleset=standard&ruleset=poker"), 422, "validation_failed")
    assert body["errors"] == {"query": {"ruleset": ["given more than once"]}}
    problem(client.get("/weekly/current?page=1&page=2"), 422, "validation_failed")


@pytest.mark.parametrize(
    "path",
    [
        "/ladder?rulset=poker",
        "/weekly/current?ruleset=standard&x=1",
        "/weekly/current/reset?week=2026-W49",
        "/healthz?verbose=1",
    ],
)
def test_an_undocumented_query_parameter_is_refused(client: FlaskClient, path: str) -> None:
    body = problem(client.get(path), 422, "validation_failed")
    (name,) = body["errors"]["query"]
    assert body["errors"]["query"][name] == ["unknown query parameter"]


def test_documented_query_parameters_still_work(client: FlaskClient) -> None:
    assert client.get("/ladder?ruleset=standard&page=1&page_size=5").status_code == 200
    assert client.get("/weekly/current?ruleset=standard").status_code == 200


@pytest.mark.parametrize("label", ["1999-W01", "0999-W10", "3000-W01", "2026-W54"])
def test_a_week_label_outside_the_documented_pattern_is_refused(
    client: FlaskClient, label: str
) -> None:
    assert re.fullmatch(WEEK_PATTERN, label) is None
    problem(client.get(f"/weekly/{label}"), 400, "invalid_week")
    problem(client.get(f"/weekly/{label}/players/ayse"), 400, "invalid_week")


def test_the_document_states_the_week_pattern_the_server_applies(client: FlaskClient) -> None:
    spec: dict[str, Any] = client.get("/openapi.json").get_json()
    week = next(
        p
        for p in spec["paths"]["/weekly/{week}"]["parameters"]
        if p["in"] == "path" and p["name"] == "week"
    )
    assert week["schema"]["pattern"] == WEEK_PATTERN
    # W53 is in the pattern; a year without one is refused by the calendar.
    assert re.fullmatch(WEEK_PATTERN, "2026-W53") is not None
    problem(client.get("/weekly/2025-W53"), 404, "not_found")
