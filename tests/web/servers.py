"""Helpers of the browser tests: the client's blueprint and a threaded WSGI server."""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Blueprint, Flask
from werkzeug.serving import BaseWSGIServer, make_server

REPO = Path(__file__).resolve().parents[2]
WEB_DIR = REPO / "services" / "game" / "king_game" / "web"


def load_web_blueprint() -> Blueprint:
    """The client's blueprint, from the installed game package."""
    from king_game.web import web_blueprint

    return web_blueprint


class LiveServer:
    """A WSGI app served on 127.0.0.1 by a background thread (stopped by ``stop``)."""

    def __init__(self, app: Flask) -> None:
        self.app = app  # what it serves (a test may reach the app's objects in-process)
        self._server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
