"""The app factory: ``create_app()`` builds the rating service's Flask app.

Run it with gunicorn (``python -m king_rating.run`` migrates first, then starts gunicorn on
``king_rating.app:create_app()``). The OpenAPI document is at ``/openapi.json`` and the
interactive docs at ``/docs``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import psycopg
from flask import Flask, Response, request
from king_web import query, swaggerui
from psycopg_pool import PoolTimeout
from redis import Redis

from king_rating.config import Settings
from king_rating.problems import ProblemApi, problem_response
from king_rating.resources.context import RatingContext
from king_rating.resources.health.resources import blp as health_blp
from king_rating.resources.ladder.resources import blp as ladder_blp
from king_rating.resources.matches.resources import blp as matches_blp
from king_rating.resources.players.resources import blp as players_blp
from king_rating.resources.weekly.resources import blp as weekly_blp
from king_rating.store import NotFound, Store


def _utc_now() -> datetime:
    return datetime.now(UTC)


def create_app(
    settings: Settings | None = None,
    *,
    store: Store | None = None,
    clock: Callable[[], datetime] | None = None,
) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask("king_rating")
    app.config.update(
        API_TITLE="King rating service",
        API_VERSION="1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=swaggerui.URL,  # served below, by this service (works offline)
        JSON_SORT_KEYS=False,
        API_SPEC_OPTIONS={
            "info": {
                "description": "Ratings of King (Rıfkı) players: each player's Elo rating and "
                "its history, their finished matches, the all-time ladder, the weekly boards "
                "(Monday to Monday, Istanbul time) and the archive of finished matches with "
                "their fairness transcripts. Read-only and public: matches arrive from the game "
                "service through a queue. Every error is application/problem+json with a "
                "stable `code` and the `type` https://king.example/problems/<code>, as in the "
                "game service; see docs/rating.md."
            }
        },
    )
    store = store or Store(
        settings.database_url,
        min_size=settings.pool_min_size,
        max_size=settings.pool_max_size,
        freeze_grace=timedelta(seconds=settings.freeze_grace_seconds),
    )
    app.extensions["king_rating"] = RatingContext(
        store=store,
        redis=Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=2),
        clock=clock or _utc_now,
    )
    swaggerui.register(app)
    api = ProblemApi(app)
    for blueprint in (players_blp, matches_blp, ladder_blp, weekly_blp, health_blp):
        api.register_blueprint(blueprint)
    # Only documented query parameters, each once (king_web/query.py).
    query.install(app, api)

    @app.before_request
    def _no_nul_in_the_path() -> Response | None:
        # Postgres text cannot hold a NUL: such an id names nothing (and must not reach a query).
        if "\x00" in request.path:
            return problem_response(404, "not_found", "no such resource")
        return None

    @app.errorhandler(NotFound)
    def _not_found(error: NotFound) -> Response:
        return problem_response(404, error.code, error.detail)

    @app.errorhandler(PoolTimeout)
    @app.errorhandler(psycopg.OperationalError)
    def _database_down(error: Exception) -> Response:
        return problem_response(
            503, "database_unavailable", "the rating database is unavailable; try again later"
        )

    return app
