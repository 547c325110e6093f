"""Gunicorn settings for the game service (``gunicorn -c deploy/gunicorn_game.py
'king_game.app:create_app()'``).

Worker class: **gevent** (``king_game.gworker.GameWorker``: the web services' worker,
``king_web.gworker.ServiceWorker``, gunicorn's ``gevent_pywsgi`` with read deadlines, plus the
game's heartbeat). The game API has two kinds of traffic. Most
requests are short (read a view, play a card: a millisecond or two of CPU and one or two Redis
round trips). But every player also keeps a request *open* for minutes: a long-poll (up to 25 s)
or an NDJSON stream that lasts the whole match. With ``gthread`` each open request pins one OS
thread for its whole life, so a worker with 8 threads is full after 8 streams and the JSON
endpoints queue behind them; serving thousands of streams would need thousands of threads (each
with its own stack and a share of the GIL's switching). A gevent worker runs each request in a
greenlet (a few KB), and a greenlet waiting on Redis (a reply, or its match's next commit from
the Pub/Sub notifier) or on the client's socket yields at once, so one worker holds thousands of
idle streams while short requests keep flowing. Our code is I/O-bound and uses only libraries
that cooperate with gevent's monkey-patching (redis-py over patched sockets; psycopg 3 waits
through the patched ``select``). The CPU work per request (the rules engine) is small and never
blocks a greenlet for long.

Every value can be overridden from the environment.
"""

from __future__ import annotations

import os

bind = os.environ.get("GAME_BIND", "0.0.0.0:8000")

# Two workers per core: the CPU-bound part (JSON, the engine) is spread over the cores; the
# waiting part is gevent's.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gevent's own HTTP server (pywsgi) in each worker, with read deadlines and gunicorn's C header
# parser: about half the CPU per request of gunicorn's gevent worker (king_web/gworker.py).
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "king_game.gworker.GameWorker")
# Open connections per worker (streams and long-polls included) before gunicorn stops
# accepting more on that worker.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "5000"))

# Each worker listens on its own SO_REUSEPORT socket and the kernel spreads new connections
# over them evenly. With one shared socket, whichever worker wins each accept takes the
# connection: measured under load, one worker held 15 % more connections and used 20 % more
# CPU than the other, and the busier one set the tail latency. Streams and keep-alive
# connections live for minutes, so an uneven start stays uneven.
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "on") == "on"

# The app is created in each worker after gevent has patched it (no preload): Redis and
# Postgres pools must not be shared across fork, and they must be made with patched sockets.
preload_app = False

# A request busy this long without yielding is stuck. Streams yield (heartbeats), so they are
# not affected; they end themselves after GAME_STREAM_MAX_S and clients reconnect with after=.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
# Seconds an idle keep-alive connection may wait for its next request line (and a new one for
# its first) before it is closed.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "30"))
# The other read deadlines (seconds) are read by the worker itself from the environment:
# GUNICORN_HEADER_TIMEOUT (default 10), the header section after the request line, and
# GUNICORN_BODY_TIMEOUT (default 30), the body after the headers; past either the client gets
# a 408 problem and the connection is closed. A stream is one request: not affected.

# Logs to stderr; the access log is off by default (a line per move is noise at 1,000 moves/s).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")


def child_exit(server: object, worker: object) -> None:
    """A worker died: drop its live gauges from the shared metrics folder (king_metrics)."""
    from king_metrics import mark_process_dead

    mark_process_dead(worker.pid)  # type: ignore[attr-defined]


def post_worker_init(worker: object) -> None:
    """The app is loaded: hide what exists now from the garbage collector (``gc.freeze``).

    Flask, flask-smorest, marshmallow, the OpenAPI document and the engine's tables are a few
    hundred thousand long-lived objects that every full collection would walk again. Measured
    under load, full collections paused a worker (every greenlet in it) for 45–70 ms; with the
    start-up objects frozen, 10–15 ms. ``GAME_GC_FREEZE=off`` turns it off. Also sets the
    collector's thresholds (``GAME_GC_THRESHOLD``, see below).
    """
    import gc

    if os.environ.get("GAME_GC_FREEZE", "on") == "on":
        gc.freeze()
    # Young collections 30 times rarer than Python's default (700 net allocations): measured
    # with gc.callbacks over 30 s at 1,000 moves/s, the default ran ~380 young collections of
    # ~1.2 ms CPU each in the two workers (0.6 s), this one 8 (0.05 s). What a request
    # allocates is nearly all freed by reference counting anyway.
    threshold = os.environ.get("GAME_GC_THRESHOLD", "20000,10,10")
    gc.set_threshold(*(int(part) for part in threshold.split(",")))
