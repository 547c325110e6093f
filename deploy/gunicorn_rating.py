"""Gunicorn settings for the rating service (``gunicorn -c deploy/gunicorn_rating.py``).

The rating API answers short reads from Postgres (a player's rating, a weekly board, an
archived match). Its workers are the web services' gevent worker
(``king_web.gworker.ServiceWorker``, the game service's too): each connection is a greenlet,
so clients that hold connections open (idle keep-alive connections, a client sending its
request a byte at a time) cost a few KB each and never take the place of a request being
served. (With ``gthread``, 2 workers of 4 threads, eight slow clients held every thread and
``/healthz`` went unanswered for a minute.) The worker also bounds how long a client may take
to send its request, and reads the body before the app runs (see below).

psycopg 3, psycopg-pool and redis-py cooperate with gevent's monkey-patching, which gunicorn
applies in each worker before it loads the app (no ``preload_app``): see king_web/gworker.py.
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

# The web services' gevent worker (gunicorn's gevent_pywsgi with read deadlines, see
# king_web/gworker.py). A request's wait on Postgres or Redis yields to the worker's other
# requests; the Postgres pool (RATING_DB_POOL_MAX) is shared by a worker's greenlets.
worker_class = "king_web.gworker.ServiceWorker"
# Open connections per worker (idle keep-alive ones included) before it stops accepting more.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))

# Read deadlines (seconds), read by the worker itself from the environment:
# GUNICORN_HEADER_TIMEOUT (default 10), the header section after the request line, and
# GUNICORN_BODY_TIMEOUT (default 30), the body after the headers; past either the client gets
# a 408 problem and the connection is closed. The request line's deadline is ``keepalive``.

# A request that takes longer than this is stuck (the slowest query is a weekly board page):
# gunicorn's master kills and replaces the worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))

# On SIGTERM (Ctrl-C in the run command, a rolling update in Kubernetes) workers stop accepting
# and get this long to finish the requests they hold. It must stay below Kubernetes'
# terminationGracePeriodSeconds (30 s in deploy/k8s) so the pod is never killed mid-request.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))

# Seconds an idle keep-alive connection (a load balancer's) may wait for its next request
# line, and a new connection for its first, before it is closed.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))

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
    from every copy, so any one service exposing them is enough)."""
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
