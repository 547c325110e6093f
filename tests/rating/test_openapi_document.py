"""The rating service's OpenAPI document: a description, examples everywhere, and the problem
type scheme it shares with the game service."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from conformance import example_gaps
from flask.testing import FlaskClient
from king_web.problems import TYPE_PREFIX

from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.store import Store

pytestmark = pytest.mark.integration


@pytest.fixture
def client(store: Store, redis_url: str) -> Iterator[FlaskClient]:
    app = create_app(Settings(database_url="unused", redis_url=redis_url), store=store)
    with app.test_client() as test_client:
        yield test_client


def test_the_document_describes_the_service(client: FlaskClient) -> None:
    info = client.get("/openapi.json").get_json()["info"]
    assert "rating" in info["description"] and "problem+json" in info["description"]


def test_every_operation_has_request_and_response_examples(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    gaps = example_gaps(spec)
    assert gaps == [], "\n".join(gaps)


def test_problem_types_use_the_scheme_all_services_share(client: FlaskClient) -> None:
    assert urlsplit(TYPE_PREFIX).scheme == "https"
    for url, code in (("/nowhere", "not_found"), ("/players/nobody/rating", "player_not_found")):
        body = client.get(url).get_json()
        assert body["type"] == TYPE_PREFIX + code and body["code"] == code
    body = client.get("/weekly/2026-W99").get_json()
    assert body["type"] == TYPE_PREFIX + "invalid_week"
