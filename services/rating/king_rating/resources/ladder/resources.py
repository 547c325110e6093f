"""``/ladder``: established, active players by current rating."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from king_rating.resources import examples
from king_rating.resources.context import ctx, now
from king_rating.resources.ladder.schemas import LadderPageSchema
from king_rating.resources.rulesets import RulesetPageArgsSchema

blp = Blueprint("ladder", __name__, url_prefix="/ladder", description="All-time ladder")


@blp.route("")
class Ladder(MethodView):
    @blp.arguments(RulesetPageArgsSchema, location="query")
    @blp.response(200, LadderPageSchema, example=examples.LADDER)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, Any]) -> Any:
        """A ruleset's players with 15+ rated matches there and one in the last 30 days."""
        return ctx().store.ladder(args["page"], args["page_size"], now(), args["ruleset"])
