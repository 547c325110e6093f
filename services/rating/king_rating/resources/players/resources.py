"""``/players/<player_id>/...``: rating, rating history, finished matches."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from king_rating.resources import examples
from king_rating.resources.context import ctx
from king_rating.resources.paging import PageArgsSchema
from king_rating.resources.players.schemas import (
    PlayerMatchPageSchema,
    PlayerRatingSchema,
    RatingHistoryPageSchema,
)
from king_rating.resources.rulesets import RulesetArgsSchema, RulesetPageArgsSchema

blp = Blueprint("players", __name__, url_prefix="/players", description="Players' ratings")


@blp.route("/<string:player_id>/rating", parameters=examples.PLAYER_PATH)
class PlayerRating(MethodView):
    @blp.arguments(RulesetArgsSchema, location="query")
    @blp.response(200, PlayerRatingSchema, example=examples.RATING)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, str], player_id: str) -> dict[str, Any]:
        """A player's current rating in a ruleset (provisional below 15 rated matches), and
        every ruleset they have a rating in."""
        return ctx().store.player(player_id, args["ruleset"])


@blp.route("/<string:player_id>/rating-history", parameters=examples.PLAYER_PATH)
class PlayerRatingHistory(MethodView):
    @blp.arguments(RulesetPageArgsSchema, location="query")
    @blp.response(200, RatingHistoryPageSchema, example=examples.RATING_HISTORY)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, Any], player_id: str) -> Any:
        """A player's rating changes in a ruleset, newest first."""
        return ctx().store.rating_history(
            player_id, args["page"], args["page_size"], args["ruleset"]
        )


@blp.route("/<string:player_id>/matches", parameters=examples.PLAYER_PATH)
class PlayerMatches(MethodView):
    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, PlayerMatchPageSchema, example=examples.PLAYER_MATCHES)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, int], player_id: str) -> Any:
        """A player's finished matches (all modes), newest first."""
        return ctx().store.player_matches(player_id, args["page"], args["page_size"])
