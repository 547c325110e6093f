"""The app factory: ``create_app()`` builds the game service's Flask app.

Serve it with gunicorn (``deploy/gunicorn_game.py``: gevent workers, so long-polls and
streams cost a greenlet each, not a thread). The OpenAPI document is at ``/openapi.json``,
interactive docs at ``/docs``. Run ``python -m king_game.migrate`` before the first start.
"""

from __future__ import annotations

import atexit
import logging
import re
from collections.abc import Callable
from typing import Any

import psycopg
from flask import Flask, Response
from king_metrics import record_match_finished
from king_web import query, swaggerui
from psycopg_pool import ConnectionPool, PoolTimeout
from redis import BlockingConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from king_engine import KingError
from king_game import limits
from king_game.accounts import Accounts
from king_game.bodycap import ChunkedBodyCap
from king_game.config import Settings
from king_game.context import GameContext
from king_game.errorcodes import ERRORS
from king_game.follows import Follows
from king_game.jsonprovider import OrjsonProvider
from king_game.limits import limiter
from king_game.problems import ProblemApi, problem_response
from king_game.ratings import RatingLookup
from king_game.resources.accounts.resources import blp as accounts_blp
from king_game.resources.health.resources import blp as health_blp
from king_game.resources.matches.resources import blp as matches_blp
from king_game.resources.quickmatch.resources import blp as quickmatch_blp
from king_game.resources.rules.resources import blp as rules_blp
from king_game.resources.tables.resources import blp as tables_blp
from king_match import MatchStore, Sweeper, connect
from king_match.notify import EventNotifier
from king_match.quickmatch import QuickMatch
from king_match.rq_enqueuer import RQEnqueuer

log = logging.getLogger(__name__)

_FIELD_CODES = {"bad_seed", "bad_table"}
_ENGINE_INPUT = {"bad_move", "bad_card", "bad_suit", "unknown_contract"}


def _redis(settings: Settings) -> tuple[Redis, dict[str, Any]]:
    """The match state's client and the rate limiter's storage settings: a bounded pool on a
    single Redis, or a cluster client (``REDIS_CLUSTER=on``)."""
    options: dict[str, Any] = {
        "socket_connect_timeout": min(2.0, settings.redis_timeout_s),
        "socket_timeout": settings.redis_timeout_s,
        # RESP2: redis-py 8 speaks RESP3 by default, whose pure-Python parser costs about
        # twice as much per Pub/Sub message (every commit is one, in every process). We use
        # nothing only RESP3 has.
        "protocol": 2,
    }
    if settings.match.cluster:
        redis = connect(settings.match, max_connections=settings.redis_pool_max, **options)
        uri = re.sub(r"^rediss?://", "redis+cluster://", settings.redis_url)
        # (No pool of ours: named anyway, since Flask-Limiter merges the options of every
        # app a process initialises, as the tests' several apps do.)
        return redis, {
            "RATELIMIT_STORAGE_URI": uri,
            "RATELIMIT_STORAGE_OPTIONS": {"connection_pool": None},
        }
    # A bounded pool that makes a request wait for a free connection (instead of failing)
    # when thousands of greenlets are busy at once; the rate limiter shares it.
    pool = BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=settings.redis_pool_max, timeout=10, **options
    )
    return Redis(connection_pool=pool), {
        # (The limiter uses our pool; the URI only picks its Redis storage, whose name for a
        # Unix socket is redis+unix.)
        "RATELIMIT_STORAGE_URI": re.sub(r"^unix://", "redis+unix://", settings.redis_url),
        "RATELIMIT_STORAGE_OPTIONS": {"connection_pool": pool},
    }


def _token_description(settings: Settings) -> str:
    """The bearer scheme's description: where a token comes from and how long it lasts."""
    return (
        "A token from POST /v1/accounts or POST /v1/tokens, sent as `Authorization: Bearer "
        f"<token>`. It expires once unused for {_duration(settings.token_lifetime_s)} (401 "
        "`token_expired`: log in again); each use slides the expiry forward (renewed at most "
        f"once per {_duration(settings.token_renew_s)}). DELETE /v1/tokens/current revokes it "
        "at once (401 `unauthenticated`), and ends its open streams and long-polls."
    )


def _duration(seconds: float) -> str:
    if seconds % 86400 == 0:
        days = int(seconds // 86400)
        return "a day" if days == 1 else f"{days} days"
    return f"{seconds:g} s"


def create_app(
    settings: Settings | None = None, *, clock: Callable[[], float] | None = None
) -> Flask:
    settings = settings or Settings.from_env()
    # A bounded pool that makes a request wait for a free connection (instead of failing)
    # when thousands of greenlets are busy at once; the rate limiter shares it.
    redis, limiter_storage = _redis(settings)
    app = Flask("king_game")
    # orjson, and answers as built (no key sorting): JSON was a tenth of the CPU at full load.
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE="King (Rıfkı) game service",
        API_VERSION="1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=swaggerui.URL,  # served below, by this service (works offline)
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        **limiter_storage,
        RATELIMIT_ENABLED=settings.rate_limits_enabled,
        RATELIMIT_SWALLOW_ERRORS=True,
        API_SPEC_OPTIONS={
            "components": {
                "securitySchemes": {
                    "bearer": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": _token_description(settings),
                    }
                }
            },
            "security": [{"bearer": []}],
            "info": {
                "description": "Play King (Rıfkı): accounts, tables, moves, events, clocks "
                "and the KINGDEAL-v1 fair deal. Every error is application/problem+json "
                "with a stable `code`; see docs/game-api.md."
            },
        },
    )
    # RQ jobs (bot turns, finished matches) go to the queue Redis: the match Redis unless
    # QUEUE_REDIS_URL names another (RQ does not run on a Redis Cluster).
    queue_url = settings.match.queue_url
    queues = redis
    if settings.match.separate_queues:
        queues = Redis(
            connection_pool=BlockingConnectionPool.from_url(
                queue_url,
                max_connections=settings.redis_pool_max,
                timeout=10,
                socket_connect_timeout=min(2.0, settings.redis_timeout_s),
                socket_timeout=settings.redis_timeout_s,
                protocol=2,
            )
        )
    notifier = EventNotifier(redis, settings.match.key_prefix, buckets=settings.match.buckets)
    store_kwargs: dict[str, Any] = {"notifier": notifier}
    if clock is not None:
        store_kwargs["clock"] = clock
    store = MatchStore(
        redis,
        settings.match,
        RQEnqueuer(queues),
        on_finished=record_match_finished,
        **store_kwargs,
    )
    pool = ConnectionPool(
        settings.database_url,
        min_size=1,
        max_size=settings.db_pool_max,
        timeout=settings.db_timeout_s,
        open=False,
        kwargs={"autocommit": True},
    )
    pool.open(wait=False)
    # Close the pool while the interpreter is still whole (its threads are greenlets under
    # gevent and cannot be joined from a finalizer).
    atexit.register(pool.close, timeout=1)
    accounts = Accounts(
        pool,
        redis,
        settings.match.key_prefix,
        settings.token_cache_s,
        local_cache_s=settings.token_local_cache_s,
        lifetime_s=settings.token_lifetime_s,
        renew_s=settings.token_renew_s,
    )
    # Revocations reach every process's token cache over the notifier's Pub/Sub connection,
    # and end the token's open streams and long-polls there (king_game/follows.py).
    notifier.on_channel(accounts.revoked_channel, accounts.forget)
    follows = Follows(accounts)
    notifier.start()
    quick = QuickMatch(store, settings.quickmatch)
    ratings = RatingLookup(
        settings.rating_url, redis, settings.match.key_prefix, settings.rating_cache_s
    )
    app.extensions["king_game"] = GameContext(
        settings,
        store,
        accounts,
        redis,
        follows,
        move_rate=limits.move_rate(settings),
        quick=quick,
        ratings=ratings,
    )

    limiter.init_app(app)
    # Probes never wait on the limiter's Redis: /healthz answers at once even when Redis hangs.
    limiter.exempt(health_blp)
    swaggerui.register(app)
    api = ProblemApi(app)
    for blueprint in (accounts_blp, tables_blp, matches_blp, rules_blp, health_blp):
        api.register_blueprint(blueprint)
    api.register_blueprint(quickmatch_blp)
    # Only documented query parameters, each once (king_web/query.py).
    query.install(app, api)
    _register_errors(app)
    # The reference web client (another package in this tree) is served by this service.
    from king_game.web import web_blueprint

    app.register_blueprint(web_blueprint)
    # Request counts, latency histograms, one log line per request, and GET /metrics.
    import king_metrics

    king_metrics.install(app, service="game")
    # A chunked body gets the body cap too (king_game/bodycap.py; the shortcut takes only
    # bodies with a Content-Length, so it leaves chunked ones to this).
    app.wsgi_app = ChunkedBodyCap(app.wsgi_app, settings.max_body_bytes)  # type: ignore[method-assign]
    if settings.moves_shortcut:
        # Well-formed moves skip Flask's dispatch (same answers; see king_game/shortcut.py).
        from king_game import shortcut

        shortcut.install(app, app.extensions["king_game"])
    king_metrics.watch_queues(queue_url, ["bots", "ratings"])
    # Every active match waits on exactly one deadline: the deadline index counts them for
    # every copy of the service alike.
    king_metrics.track_active_matches(lambda: {"all": store.active_count()})
    king_metrics.track_quickmatch_pools(quick.pool_sizes)
    if settings.embedded_sweeper:
        sweeper = Sweeper(store)
        sweeper.start_thread()
        app.extensions["king_game_sweeper"] = sweeper
    return app


def _register_errors(app: Flask) -> None:
    @app.errorhandler(KingError)
    def _coded_error(error: KingError) -> Response:
        # The engine's, the match layer's and the accounts' errors: status from the table.
        entry = ERRORS.get(error.code)
        if entry is None or entry.sent_as == "internal_error":
            log.error("error code %r reached the HTTP edge: %r", error.code, error)
            return problem_response(500, "internal_error", "internal server error")
        if entry.sent_as is not None:  # match_not_found
            return problem_response(entry.status, entry.sent_as, error.message)
        details = {k: v for k, v in error.details.items() if k not in ("field", "replayed")}
        errors = None
        if error.code in _FIELD_CODES:
            errors = {error.details.get("field", "body"): [error.message]}
        elif error.code in _ENGINE_INPUT:
            errors = {"move": [error.message]}
        headers = None
        if error.code == "rate_limited":
            headers = {"Retry-After": str(details.get("retry_after_s", 1))}
        elif entry.status == 401:
            headers = {"WWW-Authenticate": "Bearer"}
        return problem_response(entry.status, error.code, error.message, errors, details, headers)

    @app.errorhandler(PoolTimeout)
    @app.errorhandler(psycopg.OperationalError)
    @app.errorhandler(RedisConnectionError)
    @app.errorhandler(RedisTimeoutError)
    def _down(error: Exception) -> Response:
        return problem_response(
            503,
            "service_unavailable",
            "a backing service is unavailable; try again shortly",
            headers={"Retry-After": "1"},
        )
