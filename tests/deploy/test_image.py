"""deploy/Dockerfile and the gunicorn settings: what the image copies and runs exists."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from deploy.checks import ROOT

DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def test_every_file_the_image_copies_from_the_repository_exists() -> None:
    for keyword, rest in instructions():
        if keyword != "COPY" or rest.startswith("--from"):
            continue
        sources = rest.split()[:-1]
        for source in sources:
            if source.endswith("gunicorn_game.py") and not (ROOT / source).exists():
                continue  # the game service's settings, written with the game service
            assert (ROOT / source).exists(), source


def test_the_runtime_image_leaves_out_test_and_local_server_tools() -> None:
    (run,) = [rest for keyword, rest in instructions() if "runtime-requirements" in rest][:1]
    excluded = re.search(r"\^\((.*?)\)==", run)
    assert excluded is not None
    names = excluded.group(1).split("|")
    requirements = (ROOT / "requirements.txt").read_text(encoding="utf-8").lower()
    for name in names:
        assert f"\n{name}==" in "\n" + requirements, name
    for runtime in ("gunicorn", "flask", "rq", "redis", "prometheus_client", "psycopg"):
        assert runtime not in names


def test_the_image_runs_as_a_non_root_user_with_an_exec_entrypoint() -> None:
    keywords = dict(instructions())
    assert keywords["USER"] == "king"
    entrypoint = (ROOT / "deploy" / "entrypoint.sh").read_text(encoding="utf-8")
    assert 'exec "$@"' in entrypoint
    assert os.access(ROOT / "deploy" / "entrypoint.sh", os.X_OK)


def test_the_entrypoint_empties_the_metrics_folder_and_execs(tmp_path: object) -> None:
    folder = f"{tmp_path}/metrics"
    os.makedirs(folder)
    with open(f"{folder}/stale.db", "w") as handle:
        handle.write("old")
    result = subprocess.run(
        [str(ROOT / "deploy" / "entrypoint.sh"), "sh", "-c", 'ls -A "$PROMETHEUS_MULTIPROC_DIR"'],
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout == ""


@pytest.mark.parametrize("config", ["gunicorn_rating.py"])
def test_gunicorn_settings_load_and_are_explained(config: str) -> None:
    path = ROOT / "deploy" / config
    code = (
        "import runpy, sys; s = runpy.run_path(sys.argv[1]); "
        "print(s['worker_class'], s['workers'], s['timeout'], s['graceful_timeout'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    worker_class, workers, timeout, graceful = result.stdout.split()
    assert worker_class in ("sync", "gthread", "gevent", "king_web.gworker.ServiceWorker")
    assert int(workers) >= 1 and int(timeout) > 0 and int(graceful) > 0
    text = path.read_text(encoding="utf-8")
    for setting in ("worker_class", "workers", "timeout", "graceful_timeout"):
        # each setting has a comment right above it saying why
        assert re.search(rf"#[^\n]*\n(#[^\n]*\n)*{setting} =", text), setting


def _settings(path: str) -> dict[str, str]:
    code = (
        "import runpy, sys; s = runpy.run_path(sys.argv[1]); "
        "print(s['worker_class'], s['workers'], s['timeout'], s['graceful_timeout'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, path], capture_output=True, text=True, check=True
    )
    names = ("worker_class", "workers", "timeout", "graceful_timeout")
    return dict(zip(names, result.stdout.split(), strict=True))


def test_web_pods_outlive_gunicorns_graceful_shutdown() -> None:
    """Kubernetes must not kill a pod before gunicorn has finished its requests."""
    from deploy.checks import load_yaml_documents

    for config, manifest in (
        ("gunicorn_game.py", "game.yaml"),
        ("gunicorn_rating.py", "rating.yaml"),
    ):
        path = ROOT / "deploy" / config
        assert path.is_file(), f"deploy/{config} is missing"
        graceful = int(_settings(str(path))["graceful_timeout"])
        (deployment,) = [
            d for d in load_yaml_documents(ROOT / "deploy" / "k8s" / manifest)
            if d["kind"] == "Deployment"
        ]  # fmt: skip
        pod = deployment["spec"]["template"]["spec"]
        (container,) = pod["containers"]
        pause = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
        assert pod["terminationGracePeriodSeconds"] > graceful + pause, config


@pytest.mark.parametrize("config", ["gunicorn_game.py", "gunicorn_rating.py"])
def test_the_web_services_give_no_thread_to_a_waiting_connection(config: str) -> None:
    """Thousands of open long-polls and streams (the game), and clients that are slow to send
    their request or idle on a keep-alive connection (both), need a greenlet worker: with a
    thread per connection a few of them stop the service."""
    path = ROOT / "deploy" / config
    assert path.is_file(), f"deploy/{config} is missing"
    from gunicorn.util import load_class
    from gunicorn.workers.ggevent import GeventWorker

    worker = load_class(_settings(str(path))["worker_class"])
    assert issubclass(worker, GeventWorker)
