"""The Flask side: per-request metrics, one log line per request, and ``GET /metrics``."""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from king_metrics.logs import configure_logging
from king_metrics.registry import HTTP_REQUEST_SECONDS, HTTP_REQUESTS, collect_registry

#: Paths polled by probes and Prometheus: still counted, but logged at DEBUG so they do not
#: drown the request log.
QUIET_PATHS = frozenset({"/metrics", "/healthz", "/readyz"})

request_log = logging.getLogger("king.request")

#: In ``errors`` mode, a successful request this slow is still logged.
SLOW_REQUEST_S = 0.5


def request_log_mode() -> str:
    """``all`` (a line per request) or ``errors`` (failed or slow requests only), from
    ``KING_REQUEST_LOG``; production (``KING_ENV=production``) defaults to ``errors``.

    Every request is counted and timed in the metrics either way. At a thousand moves a second
    a line per request is most of the log volume and about a tenth of the game service's CPU
    (docs/benchmarks-api.md), so a deployment logs the requests worth reading and leaves the
    rest to the metrics (or to the load balancer's access log).
    """
    chosen = os.environ.get("KING_REQUEST_LOG", "").strip().lower()
    if chosen in ("all", "errors"):
        return chosen
    return "errors" if os.environ.get("KING_ENV", "").strip().lower() == "production" else "all"


def metrics_response() -> Response:
    """The Prometheus text exposition of this service's metrics."""
    # content_type, not mimetype: Flask adds "; charset=utf-8" to a text/* mimetype, and
    # CONTENT_TYPE_LATEST already names its charset.
    return Response(generate_latest(collect_registry()), content_type=CONTENT_TYPE_LATEST)


class RequestMetrics:
    """Counts, times and logs the requests of one service (``install`` makes one per app).

    ``observe`` takes the WSGI environ, so a request answered outside Flask's dispatch (the
    game service's move shortcut) is counted and logged exactly like any other.
    """

    def __init__(self, service: str, *, errors_only: bool) -> None:
        self.service = service
        self.errors_only = errors_only
        # Labelled children, cached: ``labels()`` costs a lock and a dict build per call, and
        # the number of (endpoint, method, status) triples of an app is small and bounded.
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def observe(self, environ: dict[str, Any], endpoint: str, status: int, elapsed: float) -> None:
        """Count and time one request (``endpoint``: its route template), and log it."""
        method = environ.get("REQUEST_METHOD", "")
        key = (endpoint, method, status)
        pair = self._children.get(key)
        if pair is None:
            labels = (self.service, endpoint, method, str(status))
            pair = (HTTP_REQUESTS.labels(*labels), HTTP_REQUEST_SECONDS.labels(*labels))
            self._children[key] = pair
        pair[0].inc()
        pair[1].observe(elapsed)
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        level = logging.DEBUG if path in QUIET_PATHS else logging.INFO
        if self.errors_only and status < 400 and elapsed < SLOW_REQUEST_S:
            level = logging.DEBUG
        if not request_log.isEnabledFor(level):
            return
        query = environ.get("QUERY_STRING", "")
        request_log.log(
            level,
            "%s %s %s %.1fms",
            method,
            f"{path}?{query}" if query else path,
            status,
            elapsed * 1000,
            extra={
                "service": self.service,
                "method": method,
                "path": path,
                "endpoint": endpoint,
                "status": status,
                "duration_ms": round(elapsed * 1000, 2),
                "remote_addr": environ.get("REMOTE_ADDR"),
                "request_id": environ.get("HTTP_X_REQUEST_ID"),
            },
        )


def install(
    app: Flask, service: str, *, metrics_path: str = "/metrics", configure_logs: bool = True
) -> None:
    """Count and time every request of ``app``, log one line each, and serve ``metrics_path``.

    ``service`` becomes the ``service`` label (``game``, ``rating``). The endpoint label is the
    route template (``/v1/matches/<match_id>``), never the raw URL, so series stay bounded;
    requests that match no route are labelled ``<unmatched>``. Call it once per app, in the
    app factory; calling it twice on the same app does nothing the second time.
    """
    if app.extensions.get("king_metrics"):
        return
    app.extensions["king_metrics"] = service
    if configure_logs:
        configure_logging(service)

    requests = RequestMetrics(service, errors_only=request_log_mode() == "errors")
    app.extensions["king_metrics_requests"] = requests

    def _start_timer() -> None:
        g.king_metrics_start = time.perf_counter()

    # First of the app's before_request hooks: a request that another hook refuses (the rate
    # limiter's 429) is still timed, counted and logged.
    app.before_request_funcs.setdefault(None, []).insert(0, _start_timer)

    @app.after_request
    def _record(response: Response) -> Response:
        started = g.pop("king_metrics_start", None)
        if started is None:  # the request failed before our before_request ran
            return response
        rule = request.url_rule
        requests.observe(
            request.environ,
            rule.rule if rule is not None else "<unmatched>",
            response.status_code,
            time.perf_counter() - started,
        )
        return response

    def _metrics() -> Response:
        return metrics_response()

    app.add_url_rule(metrics_path, endpoint="king_metrics", view_func=_metrics, methods=["GET"])
