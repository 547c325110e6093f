"""``/healthz`` (the process answers) and ``/readyz`` (Redis and Postgres answer)."""

from __future__ import annotations

from typing import Any

from flask import Response, json
from flask.views import MethodView
from king_web.jsonbody import Blueprint

from king_game.context import game
from king_game.problems import PUBLIC
from king_game.resources import examples
from king_game.resources.health.schemas import HealthSchema

blp = Blueprint("health", __name__, description="Health and readiness")

#: The longest ``/readyz`` waits for a Postgres connection: an answer (503 naming Postgres)
#: must come before the readiness probe gives up (2 s in deploy/k8s/game.yaml).
READY_DB_WAIT_S = 1.0


@blp.route("/healthz")
class HealthView(MethodView):
    @blp.doc(**PUBLIC)
    @blp.response(200, HealthSchema, example=examples.HEALTHY)
    def get(self) -> dict[str, Any]:
        """The process is up."""
        return {"status": "ok", "checks": {}}


@blp.route("/readyz")
class ReadyView(MethodView):
    @blp.doc(**PUBLIC)
    @blp.response(200, HealthSchema, example=examples.READY)
    @blp.alt_response(
        503,
        schema=HealthSchema,
        description="a dependency is down",
        example={
            "status": "unavailable",
            "checks": {"redis": "ok", "postgres": "down: PoolTimeout"},
        },
    )
    def get(self) -> Any:
        """Redis and Postgres are reachable."""
        context = game()
        checks: dict[str, str] = {}
        try:
            context.redis.ping()
            checks["redis"] = "ok"
        except Exception as exc:
            checks["redis"] = f"down: {type(exc).__name__}"
        try:
            # Within a probe's time (k8s: 2 s): at most a second's wait for a connection.
            wait_s = min(READY_DB_WAIT_S, context.settings.db_timeout_s)
            with context.accounts.pool.connection(timeout=wait_s) as conn:
                conn.execute("SELECT 1 FROM game.players LIMIT 1")
            checks["postgres"] = "ok"
        except Exception as exc:
            checks["postgres"] = f"down: {type(exc).__name__}"
        ok = all(value == "ok" for value in checks.values())
        body = {"status": "ok" if ok else "unavailable", "checks": checks}
        return Response(json.dumps(body), status=200 if ok else 503, mimetype="application/json")
