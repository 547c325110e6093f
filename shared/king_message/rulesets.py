"""The names of the rated rulesets: the rating service keeps a rating, a history, a weekly
board and a ladder for each (docs/rating.md). Both sides share this list, so the rating service
never needs the engine to know a name; a test keeps every ruleset the engine knows (and the game
serves) in it. ``international``'s two decks are one rated ruleset.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_RULESET", "RATED_RULESETS", "is_rated_ruleset"]

#: Every ruleset that has ratings of its own, in the order they are listed to people.
RATED_RULESETS: Final = ("standard", "classic20", "traditional", "konturlu", "international")
#: The ruleset a rating read means when it names none.
DEFAULT_RULESET: Final = "standard"


def is_rated_ruleset(name: object) -> bool:
    return isinstance(name, str) and name in RATED_RULESETS
