"""king_metrics: request counts and latencies by endpoint and status, /metrics, logs, gauges."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap
import uuid

import king_metrics
import pytest
from flask import Flask
from king_metrics.logs import JsonFormatter
from prometheus_client.parser import text_string_to_metric_families


def make_app(service: str) -> Flask:
    app = Flask(f"test_{service}")

    @app.get("/v1/matches/<match_id>")
    def read_match(match_id: str) -> dict[str, str]:
        return {"id": match_id}

    @app.post("/v1/boom")
    def boom() -> tuple[dict[str, str], int]:
        return {"code": "bad"}, 422

    king_metrics.install(app, service=service, configure_logs=False)
    return app


def samples(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    found = []
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found.append((dict(sample.labels), sample.value))
    return found


def test_requests_are_counted_by_route_template_method_and_status() -> None:
    service = f"svc{uuid.uuid4().hex[:8]}"
    client = make_app(service).test_client()
    client.get("/v1/matches/abc")
    client.get("/v1/matches/def")
    client.post("/v1/boom")
    client.get("/nowhere")
    text = client.get("/metrics").get_data(as_text=True)
    counts = {
        (labels["endpoint"], labels["method"], labels["status"]): value
        for labels, value in samples(text, "king_http_requests_total")
        if labels["service"] == service
    }
    assert counts[("/v1/matches/<match_id>", "GET", "200")] == 2
    assert counts[("/v1/boom", "POST", "422")] == 1
    assert counts[("<unmatched>", "GET", "404")] == 1


def test_latency_histogram_has_one_observation_per_request() -> None:
    service = f"svc{uuid.uuid4().hex[:8]}"
    client = make_app(service).test_client()
    for _ in range(3):
        client.get("/v1/matches/x")
    text = client.get("/metrics").get_data(as_text=True)
    observed = [
        value
        for labels, value in samples(text, "king_http_request_duration_seconds_count")
        if labels["service"] == service and labels["endpoint"] == "/v1/matches/<match_id>"
    ]
    assert observed == [3]


def test_install_twice_registers_once() -> None:
    app = make_app(f"svc{uuid.uuid4().hex[:8]}")
    king_metrics.install(app, service="again")
    assert app.extensions["king_metrics"] != "again"


def test_one_log_line_per_request_with_its_latency(caplog: pytest.LogCaptureFixture) -> None:
    client = make_app(f"svc{uuid.uuid4().hex[:8]}").test_client()
    with caplog.at_level(logging.INFO, logger="king.request"):
        client.get("/v1/matches/m1?x=1")
    (record,) = [r for r in caplog.records if r.name == "king.request"]
    assert record.getMessage().startswith("GET /v1/matches/m1?x=1 200 ")
    assert record.duration_ms >= 0  # type: ignore[attr-defined]
    assert record.endpoint == "/v1/matches/<match_id>"  # type: ignore[attr-defined]


def test_production_logs_only_failed_or_slow_requests(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KING_ENV", "production")
    monkeypatch.delenv("KING_REQUEST_LOG", raising=False)
    client = make_app(f"svc{uuid.uuid4().hex[:8]}").test_client()
    with caplog.at_level(logging.INFO, logger="king.request"):
        client.get("/v1/matches/m1")
        client.post("/v1/boom")
    logged = [r.getMessage() for r in caplog.records if r.name == "king.request"]
    assert len(logged) == 1 and logged[0].startswith("POST /v1/boom 422 ")
    # ... and every line when asked to.
    monkeypatch.setenv("KING_REQUEST_LOG", "all")
    caplog.clear()
    client = make_app(f"svc{uuid.uuid4().hex[:8]}").test_client()
    with caplog.at_level(logging.INFO, logger="king.request"):
        client.get("/v1/matches/m1")
    assert [r.name for r in caplog.records].count("king.request") == 1


def test_json_log_lines_carry_the_request_fields() -> None:
    record = logging.LogRecord("king.request", logging.INFO, __file__, 1, "GET / 200", None, None)
    record.duration_ms = 1.5
    record.status = 200
    entry = json.loads(JsonFormatter("game").format(record))
    assert entry["service"] == "game"
    assert entry["duration_ms"] == 1.5
    assert entry["status"] == 200
    assert entry["level"] == "info"
    assert entry["message"] == "GET / 200"


def test_domain_helpers_record_their_metrics() -> None:
    level = f"lvl{uuid.uuid4().hex[:6]}"
    king_metrics.observe_bot_decision(level, 0.2)
    king_metrics.record_move("bot", 3)
    king_metrics.record_clock_timeout("live")
    king_metrics.record_rating_ingested("applied", 2.0)
    text = king_metrics.metrics_response().get_data(as_text=True)
    assert samples(text, "king_bot_decision_seconds_count") and any(
        labels.get("level") == level
        for labels, _ in samples(text, "king_bot_decision_seconds_count")
    )
    assert any(
        v >= 3 for labels, v in samples(text, "king_moves_total") if labels["source"] == "bot"
    )
    assert samples(text, "king_clock_timeouts_total")
    assert samples(text, "king_rating_ingestion_lag_seconds_count")


@pytest.mark.integration
def test_queue_lengths_and_active_matches_are_read_at_scrape_time(redis_url: str) -> None:
    from redis import Redis
    from rq import Queue
    from rq.serializers import JSONSerializer

    name = f"q{uuid.uuid4().hex[:10]}"
    queue = Queue(name, connection=Redis.from_url(redis_url), serializer=JSONSerializer)
    for number in range(3):
        queue.enqueue("builtins.len", [number], job_id=f"{name}-{number}")
    king_metrics.watch_queues(redis_url, [name])
    mode = f"mode{uuid.uuid4().hex[:6]}"
    king_metrics.track_active_matches(lambda: {mode: 7})
    try:
        text = king_metrics.metrics_response().get_data(as_text=True)
        lengths = {labels["queue"]: v for labels, v in samples(text, "king_queue_length")}
        assert lengths[name] == 3
        active = {labels["mode"]: v for labels, v in samples(text, "king_active_matches")}
        assert active[mode] == 7
    finally:
        queue.empty()


@pytest.mark.integration
def test_rq_keys_are_the_keys_rq_itself_writes(redis_url: str) -> None:
    """``rq_keys`` builds RQ's key names from its undocumented templates (docs/library-seams.md):
    they must be the keys of RQ's own queue and registries, holding the jobs RQ counts."""
    from datetime import timedelta

    from king_metrics.registry import rq_keys
    from redis import Redis
    from rq import Queue
    from rq.registry import FailedJobRegistry, ScheduledJobRegistry
    from rq.serializers import JSONSerializer

    connection = Redis.from_url(redis_url)
    name = f"q{uuid.uuid4().hex[:10]}"
    queue = Queue(name, connection=connection, serializer=JSONSerializer)
    failed = FailedJobRegistry(queue=queue)
    scheduled = ScheduledJobRegistry(queue=queue)
    assert rq_keys(name) == (queue.key, failed.key, scheduled.key)
    try:
        for number in range(2):
            queue.enqueue("builtins.len", [number])
        queue.enqueue_in(timedelta(hours=1), "builtins.len", [9])
        failed.add(queue.enqueue("builtins.len", [7]), ttl=60)
        waiting, failed_jobs, scheduled_jobs = rq_keys(name)
        counted = (connection.llen(waiting), connection.zcard(failed_jobs))
        assert counted == (queue.count, failed.count) and queue.count >= 2
        assert connection.zcard(scheduled_jobs) == scheduled.count == 1
    finally:
        queue.empty()
        connection.delete(*rq_keys(name))
        connection.close()


def test_multiprocess_mode_adds_up_every_process(tmp_path: object) -> None:
    """Under gunicorn each worker counts alone; /metrics must show the sum."""
    script = textwrap.dedent(
        """
        import os, sys
        import king_metrics
        king_metrics.record_move("human", int(sys.argv[1]))
        if sys.argv[1] == "5":
            print(king_metrics.metrics_response().get_data(as_text=True))
        """
    )
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", script, "2"], env=env, check=True)
    result = subprocess.run(
        [sys.executable, "-c", script, "5"], env=env, check=True, capture_output=True, text=True
    )
    human = [
        v for labels, v in samples(result.stdout, "king_moves_total") if labels["source"] == "human"
    ]
    assert human == [7]


def test_the_metrics_content_type_names_its_charset_once() -> None:
    client = make_app(f"svc{uuid.uuid4().hex[:8]}").test_client()
    content_type = client.get("/metrics").headers["Content-Type"]
    assert content_type.lower().count("charset") == 1
    assert content_type.startswith("text/plain")


def test_a_request_refused_by_the_rate_limiter_is_counted_and_logged(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask-Limiter refuses in its own before_request hook: the 429 still gets its line."""
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    monkeypatch.setenv("KING_REQUEST_LOG", "all")
    service = f"svc{uuid.uuid4().hex[:8]}"
    app = Flask(f"test_{service}")
    # A default limit: checked in the limiter's before_request hook, before the view.
    Limiter(get_remote_address, app=app, storage_uri="memory://", default_limits=["1/minute"])

    @app.get("/v1/limited")
    def limited() -> dict[str, str]:
        return {"ok": "yes"}

    king_metrics.install(app, service=service, configure_logs=False)
    client = app.test_client()
    with caplog.at_level(logging.INFO, logger="king.request"):
        assert client.get("/v1/limited").status_code == 200
        assert client.get("/v1/limited").status_code == 429
    logged = [r.getMessage() for r in caplog.records if r.name == "king.request"]
    assert [line.split()[2] for line in logged] == ["200", "429"]
    text = client.get("/metrics").get_data(as_text=True)
    refused = [
        value
        for labels, value in samples(text, "king_http_requests_total")
        if labels["service"] == service and labels["status"] == "429"
    ]
    assert refused == [1]
