"""``GET /v1/rules``: card codes, contracts, rulesets with their quotas, and the clocks."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from king_web.jsonbody import Blueprint

from king_engine import CONTRACTS, format_card
from king_game.context import game
from king_game.problems import PUBLIC
from king_game.resources import examples
from king_game.resources.rules.schemas import RulesSchema
from king_match.served import SERVED_RULESETS

blp = Blueprint("rules", __name__, url_prefix="/v1", description="The rules as data")


@blp.route("/rules")
class RulesView(MethodView):
    @blp.doc(**PUBLIC)
    @blp.response(200, RulesSchema, example=examples.RULES)
    def get(self) -> dict[str, Any]:
        """What a client needs to know to play: public, no token needed."""
        clocks = game().settings.match.clocks
        return {
            "cards": [format_card(card) for card in range(52)],
            "suits": ["C", "D", "H", "S"],
            "contracts": [
                {
                    "code": spec.code,
                    "turkish": spec.turkish,
                    "total": spec.total,
                    "penalty": spec.is_penalty,
                    "needs_trump": not spec.is_penalty,
                }
                for spec in CONTRACTS
            ],
            # What each ruleset declares (its deck, first declarer, phases, options with their
            # values and defaults, match end, outcome labels, quotas); contracts are above.
            "rulesets": [
                {**_declared(ruleset.describe()), "hands": list(ruleset.lengths)}
                for ruleset in SERVED_RULESETS.values()
            ],
            "clocks": {
                "live": {
                    "move_ms": clocks.live_move_ms,
                    "reserve_ms": clocks.live_reserve_ms,
                    "on_reserve_out": "the player loses (ranked last); a bot finishes the seat",
                },
                "computer": {
                    "move_ms": clocks.computer_move_ms,
                    "reserve_ms": 0,
                    "on_timeout": "the human abandons the match (aborted)",
                },
            },
            "modes": [
                {"mode": "live", "players": "four people", "ranked": True},
                {"mode": "computer", "players": "you and three bots", "ranked": False},
            ],
            "bot_levels": ["easy", "medium", "hard"],
            "fairness": {"spec": "KINGDEAL-v1", "seed_hex_chars": 64},
        }


def _declared(description: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in description.items() if key != "contracts"}
