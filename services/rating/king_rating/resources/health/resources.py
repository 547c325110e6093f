"""``/healthz`` (the process answers) and ``/readyz`` (Postgres, migrations and Redis are up)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from king_rating.problems import Problem
from king_rating.resources import examples
from king_rating.resources.context import ctx
from king_rating.resources.health.schemas import HealthSchema, ReadySchema

blp = Blueprint("health", __name__, description="Probes")


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthSchema, example=examples.HEALTHY)
    def get(self) -> dict[str, Any]:
        """Liveness: the process is up (touches no dependency)."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.response(200, ReadySchema, example=examples.READY)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self) -> dict[str, Any]:
        """Readiness: Postgres answers with every migration applied, and Redis answers."""
        context = ctx()
        checks: dict[str, str] = {}
        try:
            missing = context.store.pending_migrations()
            checks["postgres"] = (
                "ok" if not missing else "pending migrations: " + ", ".join(missing)
            )
        except Exception as exc:
            checks["postgres"] = f"unavailable: {type(exc).__name__}"
        try:
            context.redis.ping()
            checks["redis"] = "ok"
        except Exception as exc:
            checks["redis"] = f"unavailable: {type(exc).__name__}"
        failing = {name: state for name, state in checks.items() if state != "ok"}
        if failing:
            detail = "; ".join(f"{name}: {state}" for name, state in failing.items())
            raise Problem(503, "not_ready", detail)
        return {"status": "ok", "checks": checks}
