"""The game service's OpenAPI document says what the server does: which operations need a token,
which take an Idempotency-Key, which codes each error status carries, examples everywhere, and
one problem type scheme shared with the rating service."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

import pytest
from conformance import example_gaps
from flask.testing import FlaskClient
from king_web.problems import TYPE_PREFIX

from king_game.app import create_app
from king_game.config import Settings
from king_game.errorcodes import status_of

from .helpers import signup

WRITES = ("post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def client(settings: Settings, own_database: str) -> FlaskClient:
    """A client of an app with Redis keys and a database of its own: the tables these tests
    open and the names they register (from the document's examples) stay out of other tests'
    lobby and names."""
    own = replace(settings.match, key_prefix=f"od{uuid.uuid4().hex[:8]}:")
    return create_app(replace(settings, match=own, database_url=own_database)).test_client()


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(method, path, path item, operation) of every operation, the token revocation last."""
    found = [
        (method, path, item, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
    ]
    return sorted(found, key=lambda op: op[1] == "/v1/tokens/current")


def example_request(item: dict[str, Any], operation: dict[str, Any], path: str) -> tuple[str, Any]:
    """The operation's URL with its documented path examples, and its example body (or None)."""
    url = path
    for parameter in item.get("parameters", []) + operation.get("parameters", []):
        if parameter["in"] == "path":
            url = url.replace("{" + parameter["name"] + "}", str(parameter["example"]))
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    return url, body.get("example")


def test_each_operation_documents_whether_it_needs_a_token(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    default = spec["security"]
    assert default == [{"bearer": []}]
    public = []
    for method, path, item, operation in operations(spec):
        url, body = example_request(item, operation, path)
        answer = client.open(url, method=method.upper(), json=body)
        refused = answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
        documented = operation.get("security", default)
        assert refused == bool(documented), f"{method.upper()} {path}: {documented}"
        if not documented:
            public.append(f"{method.upper()} {path}")
    assert "POST /v1/accounts" in public and "GET /v1/rules" in public


def test_every_write_that_reads_an_idempotency_key_declares_it(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    player = signup(client)
    for method, path, item, operation in operations(spec):
        if method not in WRITES:
            continue
        url, body = example_request(item, operation, path)
        headers = {**player["headers"], "Idempotency-Key": "k" * 200}  # too long
        answer = client.open(url, method=method.upper(), json=body, headers=headers)
        errors = (answer.get_json(silent=True) or {}).get("errors") or {}
        reads_key = answer.status_code == 422 and "Idempotency-Key" in errors
        declared = [
            p
            for p in operation.get("parameters", [])
            if p["in"] == "header" and p["name"] == "Idempotency-Key"
        ]
        assert reads_key == bool(declared), f"{method.upper()} {path}"
        if declared:
            assert declared[0]["schema"]["maxLength"] == 128
            assert declared[0]["required"] is False


def test_each_error_response_lists_only_codes_of_its_status(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    listed = 0
    for method, path, _, operation in operations(spec):
        for status, response in operation["responses"].items():
            found = re.match(r"problem\+json; code: (.*)", response.get("description", ""))
            if not found:
                continue
            codes = [part.split(":")[0].split()[0] for part in found[1].split(",")]
            for code in codes:
                listed += 1
                assert status_of(code) == int(status), f"{method} {path} {status}: {code}"
            examples = response["content"]["application/problem+json"]["examples"]
            assert sorted(examples) == sorted(codes)
    assert listed > 40


def test_every_operation_has_request_and_response_examples(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    gaps = example_gaps(spec)
    assert gaps == [], "\n".join(gaps)


def test_problem_types_use_the_scheme_all_services_share(client: FlaskClient) -> None:
    assert urlsplit(TYPE_PREFIX).scheme == "https"
    body = client.get("/v1/nowhere").get_json()
    assert body["type"] == TYPE_PREFIX + body["code"] == TYPE_PREFIX + "not_found"
    spec = client.get("/openapi.json").get_json()
    example = spec["components"]["responses"]["DEFAULT_ERROR"]["content"]
    assert example["application/problem+json"]["example"]["type"].startswith(TYPE_PREFIX)


def test_a_body_is_documented_as_required_exactly_when_the_server_needs_one(
    client: FlaskClient,
) -> None:
    spec = client.get("/openapi.json").get_json()
    player = signup(client)
    for method, path, item, operation in operations(spec):
        if "requestBody" not in operation:
            continue
        url, _ = example_request(item, operation, path)
        answer = client.open(url, method=method.upper(), headers=player["headers"])
        needed = answer.status_code == 422 and answer.get_json()["code"] == "validation_failed"
        assert operation["requestBody"]["required"] == needed, f"{method.upper()} {path}"


def test_the_documented_seed_pattern_is_the_servers(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    pattern = spec["components"]["schemas"]["Join"]["properties"]["client_seed"]["pattern"]
    player = signup(client)
    table = client.post(
        "/v1/tables", json={"mode": "live", "sit": False}, headers=player["headers"]
    ).get_json()
    url = f"/v1/tables/{table['id']}/seats"
    not_hex = "zz" * 32
    assert re.fullmatch(pattern, not_hex) is None
    refused = client.post(url, json={"client_seed": not_hex}, headers=player["headers"])
    assert refused.status_code == 422
    seed = "Ab" * 32
    assert re.fullmatch(pattern, seed)
    taken = client.post(url, json={"client_seed": seed}, headers=player["headers"])
    assert taken.status_code == 201, taken.get_json()


def test_the_documented_rulesets_and_lengths_are_the_engines(client: FlaskClient) -> None:
    from king_match.served import SERVED_RULESETS as RULESETS

    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    lengths = sorted({n for ruleset in RULESETS.values() for n in ruleset.lengths})
    for name in ("TableCreate", "QuickJoin"):
        properties = schemas[name]["properties"]
        assert properties["ruleset"]["enum"] == list(RULESETS), name
        assert properties["hands"]["enum"] == lengths, name
        cases = {case["properties"]["ruleset"]["const"]: case for case in schemas[name]["anyOf"]}
        assert {n: cases[n]["properties"]["hands"]["enum"] for n in cases} == {
            n: list(r.lengths) for n, r in RULESETS.items()
        }, name
    player = signup(client)
    for name, ruleset in RULESETS.items():
        for hands in lengths:
            made = client.post(
                "/v1/tables",
                json={"mode": "live", "ruleset": name, "hands": hands},
                headers=player["headers"],
            )
            assert made.status_code == (201 if hands in ruleset.lengths else 422), (name, hands)
    # A table's options: only the names and values the served rulesets have.
    options = schemas["TableCreate"]["properties"]["options"]
    assert options["additionalProperties"] is False
    assert options["properties"] == {
        spec.name: {"enum": list(spec.values)}
        for ruleset in RULESETS.values()
        for spec in ruleset.option_specs
    }
