"""Gunicorn settings for the rating service (``gunicorn -c deploy/gunicorn_rating.py``).

The rating API answers short reads from Postgres (a player's rating, a weekly board, an
archived match) and holds no long-lived connections, so plain pre-forked workers with a few
threads each are the right shape: a thread waiting on Postgres does not hold up the others, and
nothing here needs gevent's thousands of open streams (that is the game service's concern).
Every value can be overridden from the environment, which is how the Compose file and the
Kubernetes manifests size it.
"""

from __future__ import annotations

import os
from typing import Any

# Where to listen. The run command and the manifests pass --bind, which wins over this.
bind = os.environ.get("RATING_BIND", "0.0.0.0:8002")

# Worker processes. Two per core is gunicorn's usual rule for I/O-bound apps; containers set
# WEB_CONCURRENCY from their CPU limit (one pod = one core = 2 workers), and scale by replicas.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

# "gthread": a sync worker with a thread pool. Requests are short and block only on Postgres,
# whose pool (RATING_DB_POOL_MAX) is shared by a worker's threads.
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))

# A request that takes longer than this is stuck (the slowest query is a weekly board page):
# gunicorn's master kills and replaces the worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))

# On SIGTERM (Ctrl-C in the run command, a rolling update in Kubernetes) workers stop accepting
# and get this long to finish the requests they hold. It must stay below Kubernetes'
# terminationGracePeriodSeconds (30 s in deploy/k8s) so the pod is never killed mid-request.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))

# Keep idle client connections (a load balancer's) open briefly so they can be reused.
keepalive = 5

# gunicorn's runtime control socket is not used (one per host path would clash between the
# services of one machine); operators use signals and the orchestrator instead.
control_socket_disable = True

# Recycle workers now and then so a slow leak can never grow without bound; jitter keeps them
# from all restarting at once.
max_requests = 5000
max_requests_jitter = 500

# The app writes one line per request with its latency (king_metrics); gunicorn's own access
# log would repeat it, so it is off. Gunicorn's error log (starts, stops, worker deaths) goes
# to stderr.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("KING_LOG_LEVEL", "info").lower()

if os.environ.get("KING_LOG_FORMAT", "").lower() == "json" or (
    os.environ.get("KING_ENV", "").lower() == "production"
):
    # gunicorn merges this over its own defaults key by key, so the handler names it
    # refers to ("console", "error_console") are redefined here, writing JSON.
    _json_handler = {
        "class": "logging.StreamHandler",
        "formatter": "json",
        "stream": "ext://sys.stderr",
    }
    logconfig_dict: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "king_metrics.logs.JsonFormatter", "service": "rating"}},
        "handlers": {"console": _json_handler, "error_console": _json_handler},
        "root": {"level": "INFO", "handlers": ["console"]},
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
            # The app's own request line (king_metrics) replaces gunicorn's access log.
            "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
        },
    }


def post_worker_init(worker: Any) -> None:
    """Make sure the app has its metrics and request log (a no-op once create_app does it),
    and report the length of the queues (read from Redis at each scrape: the same numbers
    from every copy, so any one service exposing them is enough). The requests gunicorn
    itself refuses (a garbage request line, ambiguous framing) get problem+json answers."""
    from king_web.wire import install_gunicorn_error_answers

    install_gunicorn_error_answers()
    try:
        from flask import Flask
        from king_metrics import install, watch_queues
    except ImportError:
        return
    app = getattr(worker, "wsgi", None)
    if isinstance(app, Flask):
        install(app, service="rating")
    redis_url = os.environ.get("QUEUE_REDIS_URL") or os.environ.get(
        "REDIS_URL", "redis://127.0.0.1:6379/0"
    )
    watch_queues(redis_url, [os.environ.get("RATING_QUEUE", "ratings"), "bots"])


def child_exit(server: Any, worker: Any) -> None:
    """A worker died: drop its live gauges from the shared metrics folder."""
    try:
        from king_metrics import mark_process_dead
    except ImportError:
        return
    mark_process_dead(worker.pid)
