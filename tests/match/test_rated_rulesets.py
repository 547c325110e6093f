"""Every ruleset the game can play is one the rating service rates: the names of the message
package (``king_message.RATED_RULESETS``, which the rating service knows without the engine)
cover the engine's rulesets and the served ones, so no rated match is refused for its ruleset."""

from __future__ import annotations

from king_engine import RULESETS
from king_match.served import SERVED_RULESETS
from king_message import DEFAULT_RULESET, RATED_RULESETS


def test_every_ruleset_of_the_engine_and_every_served_one_has_ratings() -> None:
    assert set(RULESETS) <= set(RATED_RULESETS), set(RULESETS) - set(RATED_RULESETS)
    assert set(SERVED_RULESETS) <= set(RATED_RULESETS)


def test_a_rating_read_without_a_ruleset_means_one_the_game_serves() -> None:
    assert DEFAULT_RULESET in SERVED_RULESETS
