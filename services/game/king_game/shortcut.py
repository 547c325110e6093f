"""The move shortcut: ``POST /v1/matches/{id}/moves`` answered without Flask's per-request work.

A move is most of the service's traffic (a thousand a second at full load) and the cheapest
thing it does: check the caller, one script that loads the match, the rules engine, one
commit. Pushing it through Flask, flask-smorest and webargs (request and app contexts, URL
matching, the limiter's exemption check, argument parsing, response dumping, the after-request
hooks) cost about as much CPU as the move itself. This WSGI middleware, in front of the Flask
app, takes the requests it can answer for certain and leaves everything else to the app:

* the request must be well formed: a JSON body within the size cap that ``MoveSchema``
  accepts, a valid bearer token, a well-formed ``Idempotency-Key``, a move the engine can
  parse. Anything else goes to the Flask view *untouched* (nothing has happened yet: the
  store is not called), which answers with its usual problem+json; a move without a valid
  token so passes through Flask-Limiter's limits like any request (``king_game.limits``);
* the move goes to the view's own ``king_game.moves.submit_move`` (parsing, the store's
  writer path, the move metric, the answer's body): this module parses only the HTTP;
* a failed move (``stale_version``, ``not_your_turn``, Redis down, ...) is rendered by the
  app's own error handlers and after-request hooks inside a request context, so its answer is
  the view's byte for byte;
* a success is counted and logged by the same ``RequestMetrics`` as every request, and its body
  is what the view's ``MoveResultSchema`` dump would send.

The Flask view stays the documented endpoint (OpenAPI) and the reference: the tests send the
same requests through both and compare the answers (``tests/game/test_shortcut.py``).
``GAME_MOVES_SHORTCUT=off`` turns the shortcut off.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, g
from king_metrics.http import RequestMetrics
from king_web.jsonbody import loads_body

from king_game.context import GameContext, token_of
from king_game.moves import move_of, submit_move
from king_game.resources.matches.resources import checked_idempotency_key
from king_game.resources.matches.schemas import MoveSchema
from king_match import Player

#: The Flask route ``/v1/matches/<match_id>/moves`` (the default converter: no slash).
_PATH = re.compile(r"/v1/matches/([^/]+)/moves")
_ENDPOINT = "/v1/matches/<match_id>/moves"

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


_VERSION_MAX = 2**53


def plain_card_body(data: dict[str, Any]) -> dict[str, Any] | None:
    """What ``MoveSchema().load(data)`` returns, for the body nearly every move has —
    ``{"card": "<2 or 3 characters>"}`` with an optional integer ``version`` — at a fraction of
    its cost; None for anything else (``MoveSchema`` then decides). Tested equal to the schema
    on generated bodies (``tests/game/test_shortcut.py``)."""
    card = data.get("card")
    version = data.get("version")
    if (
        type(card) is not str
        or not 2 <= len(card) <= 3
        or len(data) != (2 if "version" in data else 1)
        or not (version is None or (type(version) is int and 0 <= version <= _VERSION_MAX))
    ):
        return None
    return {"card": card, "version": version, "move": None, "contract": None, "trump": None}


class MovesShortcut:
    def __init__(self, app: Flask, context: GameContext, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.context = context
        self.wsgi_app = wsgi_app
        self.schema = MoveSchema()
        self.max_body = context.settings.max_body_bytes
        self.metrics: RequestMetrics = app.extensions["king_metrics_requests"]
        #: Moves this process answered here, and POSTs to the path it left to the view.
        self.answered = 0
        self.passed_on = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("REQUEST_METHOD") != "POST":
            return self.wsgi_app(environ, start_response)
        found = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        # (a move takes no query parameter: one with a query string is the view's to refuse)
        if found is None or environ.get("QUERY_STRING"):
            return self.wsgi_app(environ, start_response)
        started = time.perf_counter()
        request = self._checked(environ)
        if request is None:
            self.passed_on += 1
            return self.wsgi_app(environ, start_response)  # the view answers (or refuses) it
        self.answered += 1
        player, body, key = request
        try:
            result = submit_move(self.context, found.group(1), player, body, key)
        except Exception as exc:
            return self._failed(environ, start_response, exc, started)
        # As the app's JSON provider writes a response body (king_game.jsonprovider).
        answer = (self.app.json.dumps(result) + "\n").encode()
        start_response(
            "200 OK",
            [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))],
        )
        self.metrics.observe(environ, _ENDPOINT, 200, time.perf_counter() - started)
        return [answer]

    def _checked(self, environ: dict[str, Any]) -> tuple[Player, dict[str, Any], str | None] | None:
        """The caller, loaded body and key of a well-formed request; None: let the view
        answer (the body, when read, is put back for it)."""
        mimetype = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
        if mimetype != "application/json":
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        if not 0 < length <= self.max_body:
            return None
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)
        if len(raw) != length:
            return None
        token = token_of(environ.get("HTTP_AUTHORIZATION", ""))
        if token is None:
            return None
        try:
            data = loads_body(raw)  # the view's parser: the same nesting limit
            if not isinstance(data, dict):
                return None
            body = plain_card_body(data) or self.schema.load(data)
            key = checked_idempotency_key(environ.get("HTTP_IDEMPOTENCY_KEY"))
            move_of(body)  # a move the engine cannot parse: the view refuses it
            account = self.context.accounts.authenticate(token)
        except Exception:
            # Bad or too deeply nested JSON, a schema or key error, an unparsable move, or Redis
            # or Postgres down while checking the token: the view answers it (not called yet).
            return None
        if account is None:
            return None
        player = Player(account.id, account.name, account.is_bot, account.is_guest)
        return player, body, key

    def _failed(
        self,
        environ: dict[str, Any],
        start_response: Callable[..., Any],
        exc: Exception,
        started: float,
    ) -> Any:
        """Answer a failed move as the view would: the app's error handlers, then its
        after-request hooks (metrics, the request log), in a request context."""
        app = self.app
        with app.request_context(environ):
            g.king_metrics_start = started
            try:
                response = app.make_response(app.handle_user_exception(exc))
                response = app.process_response(response)
            except Exception as error:
                response = app.handle_exception(error)
            return response(environ, start_response)


def install(app: Flask, context: GameContext) -> None:
    """Put the shortcut in front of ``app`` (after ``king_metrics.install``)."""
    app.wsgi_app = MovesShortcut(app, context, app.wsgi_app)  # type: ignore[method-assign]
