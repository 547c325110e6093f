"""docker-compose.yml: valid against the Compose specification, and complete.

Compose cannot run on the development machines (no Docker engine), so the file is checked
statically: against the Compose specification's JSON schema (vendored here from the
compose-spec project, Apache-2.0, see compose-spec.LICENSE), for the services the product
needs, and for commands that name code which really exists.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from deploy.checks import (
    ROOT,
    entry_points,
    load_yaml,
    owner_missing,
    problems_with,
    split_command,
)

SCHEMA_PATH = ROOT / "tests" / "deploy" / "compose-spec.schema.json"
COMPOSE_PATH = ROOT / "docker-compose.yml"
#: The servers the product's code runs against (the queues have a Redis of their own).
BACKENDS = {"redis", "queue-redis", "postgres"}
EXPECTED_SERVICES = BACKENDS | {
    "migrate", "game", "rating", "bots", "ratings-worker", "clock",
}  # fmt: skip


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return load_yaml(COMPOSE_PATH)


def schema_errors(schema: dict[str, Any], document: Any) -> list[str]:
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def test_the_vendored_schema_is_the_compose_specification(schema: dict[str, Any]) -> None:
    assert schema["title"] == "Compose Specification"
    assert "services" in schema["properties"]


def test_compose_file_is_valid_against_the_compose_specification(
    schema: dict[str, Any], compose: dict[str, Any]
) -> None:
    assert schema_errors(schema, compose) == []


@pytest.mark.parametrize(
    "break_it",
    [
        lambda doc: doc["services"]["game"].update(replicas_typo=3),
        lambda doc: doc["services"]["redis"].update(healthcheck={"interval": 5}),
        lambda doc: doc["services"]["game"].update(ports=[{"target": 8001, "bogus": 1}]),
        lambda doc: doc["services"]["game"]["depends_on"].update(redis={"condition": "soon"}),
    ],
    ids=["unknown-key", "bad-healthcheck", "bad-port", "bad-depends-condition"],
)
def test_the_schema_check_rejects_a_broken_file(
    schema: dict[str, Any], compose: dict[str, Any], break_it: Any
) -> None:
    broken = copy.deepcopy(compose)
    break_it(broken)
    assert schema_errors(schema, broken) != []


def test_every_part_of_the_product_is_a_service(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == EXPECTED_SERVICES


def test_redis_persists_with_an_append_only_file_on_a_volume(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    assert "redis-data" in compose["volumes"]


def test_postgres_keeps_its_data_on_a_volume(compose: dict[str, Any]) -> None:
    volumes = compose["services"]["postgres"]["volumes"]
    assert "postgres-data:/var/lib/postgresql/data" in volumes


def test_migrations_run_once_before_every_process_that_needs_them(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert services["migrate"]["restart"] == "no"
    for name in ("game", "rating", "bots", "ratings-worker", "clock"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name


def test_long_running_services_have_health_checks(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        if name == "migrate":
            continue
        assert "healthcheck" in service, name
        assert service["healthcheck"]["test"], name


def test_web_services_are_checked_by_their_readiness_endpoint(compose: dict[str, Any]) -> None:
    for name, port in (("game", 8001), ("rating", 8002)):
        probe = " ".join(compose["services"][name]["healthcheck"]["test"])
        assert f"127.0.0.1:{port}/readyz" in probe


def test_the_stateless_parts_can_be_scaled(compose: dict[str, Any]) -> None:
    services = compose["services"]
    # Several game copies need several host ports (a range), never one fixed port.
    assert all("-" in str(port).split(":")[0] for port in services["game"]["ports"])
    assert services["bots"]["deploy"]["replicas"] >= 2
    for name in ("game", "bots"):
        assert "container_name" not in services[name]


def test_app_services_share_one_image_and_read_backends_from_the_environment(
    compose: dict[str, Any],
) -> None:
    for name in ("migrate", "game", "rating", "bots", "ratings-worker", "clock"):
        service = compose["services"][name]
        assert service["image"] == "king:dev", name
        assert service["build"]["dockerfile"] == "deploy/Dockerfile", name
        assert service["environment"]["REDIS_URL"].startswith("redis://redis:"), name
        assert "@postgres:5432/" in service["environment"]["DATABASE_URL"], name
    assert (ROOT / "deploy" / "Dockerfile").is_file()


def _service_entries() -> list[tuple[str, str]]:
    compose = load_yaml(COMPOSE_PATH)
    found = []
    for name, service in compose["services"].items():
        if "command" not in service or service.get("image", "").startswith(("redis", "postgres")):
            continue
        for argv in split_command(service["command"]):
            found += [(name, entry) for entry in entry_points(argv)]
    return found


@pytest.mark.parametrize(("service", "entry"), _service_entries())
def test_every_service_command_exists_in_the_code(service: str, entry: str) -> None:
    owner = owner_missing(entry)
    assert owner is None, f"{service}: {owner} is not in the repository (needed: {entry})"
    assert problems_with(entry) is None, f"{service}: {problems_with(entry)}"


def test_commands_are_found_for_every_app_service() -> None:
    services_with_code = {service for service, _ in _service_entries()}
    assert services_with_code == EXPECTED_SERVICES - BACKENDS


def test_every_worker_serves_its_metrics_on_a_port(compose: dict[str, Any]) -> None:
    """Workers have no web server: without KING_METRICS_PORT their numbers reach nobody."""
    for name in ("bots", "ratings-worker", "clock"):
        port = compose["services"][name]["environment"].get("KING_METRICS_PORT")
        assert port and int(port) > 0, name
