"""``/weekly/...``: the current week's board, past weeks, a player's rank, the reset time."""

from __future__ import annotations

import re
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from king_rating import weekly
from king_rating.problems import Problem
from king_rating.resources import examples
from king_rating.resources.context import ctx, now
from king_rating.resources.weekly.schemas import (
    BoardSchema,
    PageArgsSchema,
    RankArgsSchema,
    RankSchema,
    ResetSchema,
)

blp = Blueprint(
    "weekly",
    __name__,
    url_prefix="/weekly",
    description="Weekly boards (Monday 00:00 to Monday 00:00, Istanbul time)",
)


#: The ``week`` path parameter as ``_week`` reads it: ``current`` or an ISO week label of the
#: years 2000-2999. A label the pattern refuses is 400 ``invalid_week``; a W53 the year does
#: not have (which no pattern can say) is 404: there is no such board.
WEEK_PATTERN = "^(current|2[0-9]{3}-W(0[1-9]|[1-4][0-9]|5[0-3]))$"
WEEK_PARAMETER = {
    "in": "path",
    "name": "week",
    "description": "current, or an ISO week label YYYY-Www of the years 2000-2999 (2026-W49); "
    "W53 only in a year that has 53 ISO weeks (2026-W53; another year's W53 is 404). Anything "
    "else is 400 invalid_week.",
    "schema": {"type": "string", "pattern": WEEK_PATTERN},
    "example": "2026-W49",
}


def _week(label: str) -> weekly.Week:
    if label == "current":
        return weekly.week_of(now())
    # The documented pattern is the rule (the parser alone also read 1999-W01).
    if re.fullmatch(WEEK_PATTERN, label) is None:
        raise Problem(400, "invalid_week", f"not a week label of {WEEK_PATTERN}: {label!r}")
    try:
        return weekly.parse_week_label(label)
    except ValueError as exc:  # a W53 its year does not have: no such board
        raise Problem(404, "not_found", str(exc)) from exc


def _board(week: weekly.Week, args: dict[str, Any]) -> dict[str, Any]:
    store = ctx().store
    page = store.board(week, args["page"], args["page_size"], now(), args["ruleset"])
    return {
        "week": week.label,
        "ruleset": args["ruleset"],
        "starts_at": week.starts_at,
        "ends_at": week.ends_at,
        "frozen": store.week_state(week, now()) == "frozen",
        "items": page.items,
        "page": page.page,
        "page_size": page.page_size,
        "has_more": page.has_more,
    }


@blp.route("/current")
class CurrentBoard(MethodView):
    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, BoardSchema, example=examples.BOARD)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """The current week's board of a ruleset, best first."""
        return _board(_week("current"), args)


@blp.route("/current/reset")
class CurrentReset(MethodView):
    @blp.response(200, ResetSchema, example=examples.RESET)
    def get(self) -> dict[str, Any]:
        """When the current week ends and a new board starts."""
        moment = now()
        week = weekly.week_of(moment)
        return {
            "week": week.label,
            "resets_at": week.resets_at,
            "seconds_until_reset": int((week.resets_at - moment).total_seconds()),
        }


@blp.route("/<string:week>", parameters=[WEEK_PARAMETER])
class WeekBoard(MethodView):
    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, BoardSchema, example=examples.BOARD)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, Any], week: str) -> dict[str, Any]:
        """A week's board of a ruleset by its label (``2026-W49``, or ``current``); final
        once frozen."""
        return _board(_week(week), args)


@blp.route(
    "/<string:week>/players/<string:player_id>",
    parameters=[WEEK_PARAMETER, *examples.PLAYER_PATH],
)
class PlayerRank(MethodView):
    @blp.arguments(RankArgsSchema, location="query")
    @blp.response(200, RankSchema, example=examples.RANK)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, args: dict[str, Any], week: str, player_id: str) -> dict[str, Any]:
        """A player's rank on a week's board of a ruleset with neighbours (``rank`` null if
        not listed)."""
        return ctx().store.board_rank(
            _week(week), player_id, args["neighbours"], now(), args["ruleset"]
        )
