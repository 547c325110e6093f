"""The reference web client: static files (no build step) served by the game service.

``web_blueprint`` serves the single-page client at ``/``, its icon at ``/favicon.ico``, and its
ES modules, styles and translations under ``/web/``. ``/web/config.json`` tells the page where
the APIs are:

* ``KING_GAME_API`` — the game API's base path (default ``/v1``, same origin);
* ``KING_RATING_PUBLIC_URL`` — the rating service's public base URL when the browser can reach
  it directly (it must then allow this origin); when unset, the page uses the small read-only
  proxy ``/web/rating/<path>`` below, which forwards GETs to ``KING_RATING_URL`` (default
  ``http://127.0.0.1:8002``, the rating service's port) so the boards work without
  cross-origin set-up. A ``ruleset`` in the query must be a rated ruleset
  (``king_message.RATED_RULESETS``), as the rating service checks too: otherwise the proxy
  answers ``400 unknown_ruleset`` itself.

The client keeps no state on the server: the deal commitment, the player's own seed and every
hand it was shown live in the browser's ``localStorage`` for "Verify deck" (``verify.js``).
"""

from __future__ import annotations

import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Final

from flask import Blueprint, Response, jsonify, request, send_from_directory

from king_message import RATED_RULESETS, is_rated_ruleset

STATIC_DIR: Final = Path(__file__).parent / "static"
#: The rating endpoints the proxy forwards (read-only, public data).
_RATING_PREFIXES: Final = ("weekly/", "ladder", "players/", "matches/")
_PROXY_TIMEOUT_S: Final = 5

web_blueprint = Blueprint(
    "web",
    __name__,
    static_folder=str(STATIC_DIR),
    static_url_path="/web",
)


@web_blueprint.get("/")
def index() -> Response:
    """The client's page (every view is a ``#/...`` route inside it)."""
    response = send_from_directory(STATIC_DIR, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@web_blueprint.get("/favicon.ico")
def favicon() -> Response:
    """The icon browsers ask for at the root (the page itself links ``/web/favicon.svg``)."""
    return send_from_directory(STATIC_DIR, "favicon.ico", mimetype="image/x-icon", max_age=86400)


@web_blueprint.get("/web/config.json")
def config() -> Response:
    rating = os.environ.get("KING_RATING_PUBLIC_URL", "").rstrip("/") or "/web/rating"
    response = jsonify(
        {"game_api": os.environ.get("KING_GAME_API", "/v1").rstrip("/"), "rating_api": rating}
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@web_blueprint.get("/web/rating/<path:path>")
def rating_proxy(path: str) -> Response:
    """Forward a read-only GET to the rating service (boards, ladder, profiles, archive)."""
    if not path.startswith(_RATING_PREFIXES) or ".." in path:
        return _problem(404, "not_found", "no such rating resource")
    for ruleset in request.args.getlist("ruleset"):
        if not is_rated_ruleset(ruleset):
            detail = f"{ruleset!r} is not a rated ruleset (one of {', '.join(RATED_RULESETS)})"
            return _problem(400, "unknown_ruleset", detail)
    base = os.environ.get("KING_RATING_URL", "http://127.0.0.1:8002").rstrip("/")
    query = urllib.parse.urlencode(list(request.args.items(multi=True)))
    url = f"{base}/{urllib.parse.quote(path)}" + (f"?{query}" if query else "")
    try:
        with urllib.request.urlopen(url, timeout=_PROXY_TIMEOUT_S) as upstream:
            return _passthrough(upstream.status, upstream.read(), upstream.headers)
    except urllib.error.HTTPError as error:
        return _passthrough(error.code, error.read(), error.headers)
    except (urllib.error.URLError, TimeoutError, OSError):
        return _problem(503, "rating_unavailable", "the rating service is unavailable")


def _passthrough(status: int, body: bytes, headers: object) -> Response:
    content_type = getattr(headers, "get", lambda *_: None)("Content-Type") or "application/json"
    return Response(body, status=status, content_type=content_type)


def _problem(status: int, code: str, detail: str) -> Response:
    response = jsonify(
        {"type": "about:blank", "title": code, "status": status, "code": code, "detail": detail}
    )
    response.status_code = status
    response.content_type = "application/problem+json"
    return response


__all__ = ["STATIC_DIR", "web_blueprint"]
