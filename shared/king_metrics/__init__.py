"""Prometheus metrics and request logs shared by every King service.

One call wires a Flask app::

    from king_metrics import install
    install(app, service="game")      # in create_app(), after the blueprints are registered

It counts every request and times it (by route template, method and status), writes one log
line per request with its latency, and serves ``GET /metrics`` in the Prometheus text format.

Worker processes (RQ bot workers, the rating worker, the clock process) call
``serve_metrics()`` once at start: it opens a small HTTP server on
``$KING_METRICS_PORT`` (each pod in the manifests). Without a port their numbers reach
Prometheus only through a shared ``PROMETHEUS_MULTIPROC_DIR`` that a web service serves: the
run command gives the game service, bot workers and clock one folder, and the rating service
and ratings worker another (``docs/operations.md``, Metrics).

Under gunicorn with several worker processes each process keeps its own counters, so the
runner and the container images set ``PROMETHEUS_MULTIPROC_DIR`` to an empty folder *before*
the service starts; ``/metrics`` then adds up every process's numbers (prometheus_client's
multiprocess mode). The gunicorn configs call :func:`mark_process_dead` from ``child_exit``.

The domain metrics (moves, bot decision time, clock timeouts, rating ingestion lag, active
matches, queue lengths) are module-level objects here so that every service names them the
same way; ``docs/operations.md`` lists them all.
"""

from __future__ import annotations

from king_metrics.http import install, metrics_response
from king_metrics.logs import configure_logging
from king_metrics.registry import (
    ACTIVE_MATCHES_SOURCES,
    BOT_DECISION_SECONDS,
    CLOCK_TIMEOUTS,
    HTTP_REQUEST_SECONDS,
    HTTP_REQUESTS,
    MATCHES_FINISHED,
    MOVES,
    RATING_INGESTED,
    RATING_INGESTION_LAG_SECONDS,
    collect_registry,
    mark_process_dead,
    observe_bot_decision,
    record_clock_timeout,
    record_match_finished,
    record_move,
    record_quickmatch_table,
    record_rating_ingested,
    serve_metrics,
    track_active_matches,
    track_quickmatch_pools,
    watch_queues,
)

__all__ = [
    "ACTIVE_MATCHES_SOURCES",
    "BOT_DECISION_SECONDS",
    "CLOCK_TIMEOUTS",
    "HTTP_REQUESTS",
    "HTTP_REQUEST_SECONDS",
    "MATCHES_FINISHED",
    "MOVES",
    "RATING_INGESTED",
    "RATING_INGESTION_LAG_SECONDS",
    "collect_registry",
    "configure_logging",
    "install",
    "mark_process_dead",
    "metrics_response",
    "observe_bot_decision",
    "record_clock_timeout",
    "record_match_finished",
    "record_move",
    "record_quickmatch_table",
    "record_rating_ingested",
    "serve_metrics",
    "track_active_matches",
    "track_quickmatch_pools",
    "watch_queues",
]
