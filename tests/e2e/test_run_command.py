"""The run command starts every process that exists, serves, and stops all of them on Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import signal
import time
import urllib.error
import urllib.request

import psutil
import pytest
from prometheus_client.parser import text_string_to_metric_families

from e2e.helpers import RunCommand
from king_devservers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_run_command_serves_and_ctrl_c_stops_every_process(
    redis_url: str, database_url: str, tmp_path: object
) -> None:
    rating_port, game_port = free_port(), free_port()
    # A Redis database of its own on the run's server: the workers this test starts must not
    # take other folders' jobs (the queues have fixed names), nor theirs ours.
    redis_url = redis_url.rsplit("/", 1)[0] + "/12"
    run = RunCommand(
        {
            "REDIS_URL": redis_url,
            "DATABASE_URL": database_url,
            "KING_DATA_DIR": str(tmp_path),
            "KING_GAME_PORT": str(game_port),
            "KING_RATING_PORT": str(rating_port),
            "KING_BOT_WORKERS": "1",
            "WEB_CONCURRENCY": "1",
            "KING_ENV": "production",  # JSON logs, as in deployment
        }
    )
    try:
        run.wait_for_line("Press Ctrl-C", timeout=120)
        run.remember_descendants()
        assert run.descendants, "the run command started no process"
        output = run.output()
        assert f"http://127.0.0.1:{rating_port}/docs" in output
        assert "redis: " + redis_url in output
        status, _ = get(f"http://127.0.0.1:{rating_port}/readyz")
        assert status == 200
        get(f"http://127.0.0.1:{rating_port}/healthz")
        status, metrics = get(f"http://127.0.0.1:{rating_port}/metrics")
        assert status == 200
        counted = [
            sample
            for family in text_string_to_metric_families(metrics)
            for sample in family.samples
            if sample.name == "king_http_requests_total"
            and sample.labels["endpoint"] == "/healthz"
            and sample.labels["service"] == "rating"
        ]
        assert counted and counted[0].value >= 1
        queues = {
            sample.labels["queue"]: sample.value
            for family in text_string_to_metric_families(metrics)
            for sample in family.samples
            if sample.name == "king_queue_length"
        }
        assert set(queues) == {"ratings", "bots"}

        status, _ = get(f"http://127.0.0.1:{rating_port}/weekly/current")
        assert status == 200
        status, _ = get(f"http://127.0.0.1:{rating_port}/weekly/no-such-week")
        assert status >= 400
        # KING_ENV=production: a JSON log line, with its latency, for each failed (or slow)
        # request; the successful one is only counted in the metrics.
        requests: list[dict[str, object]] = []
        deadline = time.monotonic() + 15
        while not requests and time.monotonic() < deadline:
            for line in list(run.lines):
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("logger") == "king.request":
                    requests.append(entry)
            time.sleep(0.1)
        assert requests, "no JSON request log line:\n" + run.output()[-3000:]
        assert {"method", "path", "status", "duration_ms", "service"} <= set(requests[0])
        logged = {entry["path"] for entry in requests}
        assert "/weekly/no-such-week" in logged and "/weekly/current" not in logged

        run.popen.send_signal(signal.SIGINT)
        assert run.popen.wait(timeout=60) == 0, run.output()[-4000:]
        assert "stopped cleanly" in run.output()
        assert run.alive_descendants() == []
    finally:
        run.kill_everything()


def ready(url: str) -> bool:
    try:
        return get(url)[0] == 200
    except OSError:  # refused: nothing listens (yet)
        return False


def test_a_process_that_dies_is_restarted_and_the_rest_keep_running(
    redis_url: str, database_url: str, tmp_path: object
) -> None:
    """``kill -9`` of a bot worker and of the game service's gunicorn master: the supervisor
    says so, starts each again after its back-off, and leaves every other process alone."""
    rating_port, game_port = free_port(), free_port()
    redis_url = redis_url.rsplit("/", 1)[0] + "/13"
    run = RunCommand(
        {
            "REDIS_URL": redis_url,
            "DATABASE_URL": database_url,
            "KING_DATA_DIR": str(tmp_path),
            "KING_GAME_PORT": str(game_port),
            "KING_RATING_PORT": str(rating_port),
            "KING_BOT_WORKERS": "1",
            "WEB_CONCURRENCY": "1",
        }
    )
    runner = psutil.Process(run.popen.pid)

    def started(fragment: str) -> list[psutil.Process]:
        """The runner's children (each one leads its process group) running ``fragment``."""
        found = []
        for child in runner.children():
            with contextlib.suppress(psutil.NoSuchProcess):
                if fragment in " ".join(child.cmdline()) and child.status() != "zombie":
                    found.append(child)
        return found

    try:
        run.wait_for_line("Press Ctrl-C", timeout=120)
        (bot,) = started("king_bots.worker")
        (game,) = started("king_game.app")
        others = {child.pid for child in runner.children()} - {bot.pid, game.pid}
        assert others, "no other process to keep running"
        bot.kill()
        game.kill()

        deadline = time.monotonic() + 90
        restarted = False
        while not restarted and time.monotonic() < deadline:
            assert run.popen.poll() is None, run.output()[-4000:]
            bots, games = started("king_bots.worker"), started("king_game.app")
            restarted = (
                [p.pid for p in bots] not in ([], [bot.pid])
                and [p.pid for p in games] not in ([], [game.pid])
                and ready(f"http://127.0.0.1:{game_port}/readyz")
            )
            time.sleep(0.5)
        output = run.output()
        assert restarted, output[-4000:]
        for label in ("bots", "game"):
            assert f"{label} exited with code -9; restarting it in" in output, label
            assert f"{label} restarted (pid " in output, label
        assert others <= {child.pid for child in runner.children() if child.is_running()}
        assert ready(f"http://127.0.0.1:{rating_port}/readyz")

        run.remember_descendants()
        run.popen.send_signal(signal.SIGINT)
        assert run.popen.wait(timeout=60) == 0, run.output()[-4000:]
        assert "stopped cleanly" in run.output()
        assert run.alive_descendants() == []
    finally:
        run.kill_everything()
