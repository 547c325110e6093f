"""The game service's gunicorn worker: the web services' worker (``king_web.gworker``) that
also writes the game service's heartbeat.

``king_web.gworker.ServiceWorker`` runs each connection in a greenlet of gevent's ``pywsgi``
with read deadlines, the body read before the app, gunicorn's C header parser and fewer sends
(its docstring says what and why). The game service needs it most: every player keeps a
long-poll or an NDJSON stream open for minutes, and a greenlet per open request costs a few
KB where a thread would pin an OS thread.

``GameWorker`` also writes the game service's heartbeat (``beat_while_serving``), by which the
clock sweeper knows whether any worker can take moves (``king_match.serving``).

Use: ``worker_class = "king_game.gworker.GameWorker"`` (the default in
``deploy/gunicorn_game.py``).
"""

from __future__ import annotations

import contextlib
from typing import Any

import gevent
from king_web.gworker import ServiceWorker


class GameWorker(ServiceWorker):
    """The web services' worker, writing the game service's heartbeat while it serves."""

    def run(self) -> None:
        context = getattr(self.wsgi, "extensions", {}).get("king_game")
        if context is not None:
            gevent.spawn(beat_while_serving, context.store.redis, context.store.keys)
        super().run()


def beat_while_serving(redis: Any, keys: Any) -> None:
    """Write the service's heartbeat (``king_match.serving``) for as long as this worker's
    event loop runs: a worker that hangs, or cannot reach Redis, stops beating, and the clock
    sweeper then stops every player's clock until a worker serves again."""
    from king_match.serving import HEARTBEAT_EVERY_S, Heartbeat

    heartbeat = Heartbeat(redis, keys)
    while True:
        # (Redis away: no heartbeat, which is the point.)
        with contextlib.suppress(Exception):
            heartbeat.beat()
        gevent.sleep(HEARTBEAT_EVERY_S)
