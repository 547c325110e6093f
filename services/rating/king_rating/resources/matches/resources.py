"""``/matches/<match_id>``: an archived match with its fairness transcript."""

from __future__ import annotations

import uuid
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from king_rating.resources import examples
from king_rating.resources.context import ctx
from king_rating.resources.matches.schemas import ArchivedMatchSchema

blp = Blueprint("matches", __name__, url_prefix="/matches", description="The match archive")


@blp.route("/<uuid:match_id>", parameters=examples.MATCH_PATH)
class ArchivedMatch(MethodView):
    @blp.response(200, ArchivedMatchSchema, example=examples.ARCHIVED_MATCH)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, match_id: uuid.UUID) -> dict[str, Any]:
        """An archived match: seats, totals, places, rating changes, fairness transcript."""
        return ctx().store.match(str(match_id))
