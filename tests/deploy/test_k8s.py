"""deploy/k8s: the manifests for running at scale, checked for structure and consistency.

No cluster runs here, so these tests read the YAML and check what a mistake would break: every
object is well formed, selectors match their pods, probes and Services point at real ports,
backends come from Secrets, every container has requests and limits, the queue workers scale
on the right RQ lists, and every command names code that exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deploy.checks import (
    ROOT,
    entry_points,
    load_yaml,
    load_yaml_documents,
    owner_missing,
    problems_with,
    split_command,
)

K8S = ROOT / "deploy" / "k8s"
MANIFESTS = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def all_objects() -> list[dict[str, Any]]:
    return [doc for path in MANIFESTS for doc in load_yaml_documents(path)]


def by_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {o["metadata"]["name"]: o for o in all_objects() if o["kind"] == kind}


def pod_specs() -> list[tuple[str, dict[str, Any]]]:
    found = [(name, o["spec"]["template"]["spec"]) for name, o in by_kind("Deployment").items()]
    found += [(name, o["spec"]["template"]["spec"]) for name, o in by_kind("Job").items()]
    return found


def containers() -> list[tuple[str, dict[str, Any]]]:
    return [(name, c) for name, spec in pod_specs() for c in spec["containers"]]


def test_every_manifest_object_is_well_formed() -> None:
    objects = all_objects()
    assert len(objects) >= 10
    for obj in objects:
        assert obj.get("apiVersion") and obj.get("kind"), obj
        assert obj["metadata"].get("name"), obj
        if obj["kind"] != "Namespace":
            assert obj["metadata"].get("namespace") == "king", obj["metadata"]["name"]


def test_the_kustomization_lists_every_manifest() -> None:
    kustomization = load_yaml(K8S / "kustomization.yaml")
    assert sorted(kustomization["resources"]) == sorted(p.name for p in MANIFESTS)


def test_deployment_selectors_match_their_pod_labels() -> None:
    for name, deployment in by_kind("Deployment").items():
        selector = deployment["spec"]["selector"]["matchLabels"]
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert selector.items() <= labels.items(), name


def test_several_game_replicas_behind_a_service_with_readiness_probes() -> None:
    game = by_kind("Deployment")["king-game"]
    assert game["spec"]["replicas"] >= 2
    assert game["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    (container,) = game["spec"]["template"]["spec"]["containers"]
    port_names = {p["name"]: p["containerPort"] for p in container["ports"]}
    readiness = container["readinessProbe"]["httpGet"]
    assert readiness["path"] == "/readyz"
    assert readiness["port"] in port_names
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    service = by_kind("Service")["king-game"]
    pod_labels = game["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pod_labels.items()
    assert all(p["targetPort"] in port_names for p in service["spec"]["ports"])
    hpa = by_kind("HorizontalPodAutoscaler")["king-game"]
    assert hpa["spec"]["scaleTargetRef"]["name"] == "king-game"
    assert hpa["spec"]["minReplicas"] >= 2
    pdb = by_kind("PodDisruptionBudget")["king-game"]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()


def test_the_rating_service_is_probed_and_exposed() -> None:
    rating = by_kind("Deployment")["king-rating"]
    (container,) = rating["spec"]["template"]["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    service = by_kind("Service")["king-rating"]
    assert (
        service["spec"]["selector"].items()
        <= rating["spec"]["template"]["metadata"]["labels"].items()
    )


def test_every_container_has_resource_requests_and_limits() -> None:
    for name, container in containers():
        resources = container["resources"]
        for section in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(resources[section]), (name, section)


def _mebibytes(quantity: str) -> float:
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}
    for suffix, factor in units.items():
        if quantity.endswith(suffix):
            return float(quantity[: -len(suffix)]) * factor
    return float(quantity) / 2**20


def test_requests_never_exceed_limits() -> None:
    def cores(value: str) -> float:
        return float(value[:-1]) / 1000 if value.endswith("m") else float(value)

    for name, container in containers():
        requests, limits = container["resources"]["requests"], container["resources"]["limits"]
        assert cores(str(requests["cpu"])) <= cores(str(limits["cpu"])), name
        assert _mebibytes(requests["memory"]) <= _mebibytes(limits["memory"]), name


def test_redis_and_postgres_are_external_and_their_settings_come_from_secrets() -> None:
    assert "Secret" not in {o["kind"] for o in all_objects()}, "no secret values in the repo"
    for kind in ("StatefulSet",):
        assert not by_kind(kind), "Redis and Postgres are managed services, not pods"
    for name, container in containers():
        env = {e["name"]: e for e in container.get("env", [])}
        for variable in ("REDIS_URL", "DATABASE_URL"):
            assert variable in env, (name, variable)
            assert "value" not in env[variable], (name, variable)
            assert env[variable]["valueFrom"]["secretKeyRef"]["name"] == "king-backends"


def test_queue_workers_scale_on_the_length_of_their_rq_list() -> None:
    deployments = by_kind("Deployment")
    scaled = by_kind("ScaledObject")
    expected = {"king-bots": "rq:queue:bots", "king-ratings-worker": "rq:queue:ratings"}
    assert {o["spec"]["scaleTargetRef"]["name"] for o in scaled.values()} == set(expected)
    auth = by_kind("TriggerAuthentication")
    for obj in scaled.values():
        target = obj["spec"]["scaleTargetRef"]["name"]
        assert target in deployments
        assert obj["spec"]["minReplicaCount"] >= 1
        assert obj["spec"]["maxReplicaCount"] > obj["spec"]["minReplicaCount"]
        (trigger,) = obj["spec"]["triggers"]
        assert trigger["type"] == "redis"
        assert trigger["metadata"]["listName"] == expected[target]
        assert int(trigger["metadata"]["listLength"]) > 0
        assert trigger["authenticationRef"]["name"] in auth
        variable = trigger["metadata"]["addressFromEnv"]
        (container,) = deployments[target]["spec"]["template"]["spec"]["containers"]
        assert variable in {e["name"] for e in container["env"]}


def test_queue_names_in_the_scalers_are_the_ones_the_code_uses() -> None:
    from rq import Queue

    from king_message import RATINGS_QUEUE

    names = {t["metadata"]["listName"] for o in by_kind("ScaledObject").values()
             for t in o["spec"]["triggers"]}  # fmt: skip
    assert Queue.redis_queue_namespace_prefix + RATINGS_QUEUE in names
    assert Queue.redis_queue_namespace_prefix + "bots" in names


def test_web_pods_stop_gracefully_within_their_grace_period() -> None:
    config = (ROOT / "deploy" / "gunicorn_rating.py").read_text(encoding="utf-8")
    assert "graceful_timeout" in config
    for name in ("king-game", "king-rating"):
        spec = by_kind("Deployment")[name]["spec"]["template"]["spec"]
        assert spec["terminationGracePeriodSeconds"] > 20 + 5  # graceful_timeout + preStop


def test_the_migration_job_runs_both_schemas_before_rollout() -> None:
    job = by_kind("Job")["king-migrate"]
    (container,) = job["spec"]["template"]["spec"]["containers"]
    modules = [e for argv in split_command(container["command"]) for e in entry_points(argv)]
    assert modules == ["king_rating.migrate", "king_game.migrate"]


def _entries() -> list[tuple[str, str]]:
    found = []
    for name, container in containers():
        for argv in split_command(container["command"]):
            found += [(name, entry) for entry in entry_points(argv)]
    return found


@pytest.mark.parametrize(("workload", "entry"), _entries())
def test_every_container_command_exists_in_the_code(workload: str, entry: str) -> None:
    owner = owner_missing(entry)
    assert owner is None, f"{workload}: {owner} is not in the repository (needed: {entry})"
    assert problems_with(entry) is None, f"{workload}: {problems_with(entry)}"


def test_every_container_uses_the_one_image() -> None:
    assert {c["image"] for _, c in containers()} == {"king"}
    kustomization = load_yaml(K8S / "kustomization.yaml")
    assert [i["name"] for i in kustomization["images"]] == ["king"]


def test_manifest_paths() -> None:
    assert all(isinstance(p, Path) and p.suffix == ".yaml" for p in MANIFESTS)


WORKER_DEPLOYMENTS = ("king-bots", "king-ratings-worker", "king-clock")


def test_every_worker_pod_serves_its_metrics_on_the_annotated_port() -> None:
    """A worker's numbers reach Prometheus only through its own port (its own process, its
    own multiprocess folder): KING_METRICS_PORT set to the port the scrape annotation names."""
    deployments = by_kind("Deployment")
    for name in WORKER_DEPLOYMENTS:
        template = deployments[name]["spec"]["template"]
        annotations = template["metadata"]["annotations"]
        assert annotations["prometheus.io/scrape"] == "true", name
        (container,) = template["spec"]["containers"]
        env = {item["name"]: item.get("value") for item in container.get("env", [])}
        assert env.get("KING_METRICS_PORT") == annotations["prometheus.io/port"], name
