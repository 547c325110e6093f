"""The ``international`` ruleset (seed 003, RULES-international.md) with its own state class.

``rules`` holds the fixed data and pure rules (ladder, card rules, ``settle_positive``),
``moves`` the move types and their text forms, ``state`` the state machine, ``ruleset`` the
ruleset object the engine registry takes.
"""

from .moves import (
    Bid,
    Move,
    NameContract,
    Ultimatum,
    Word,
    move_of_action,
    parse_move,
)
from .rules import BID_TEXTS, DECK_VALUES, settle_positive
from .ruleset import (
    INTERNATIONAL,
    InternationalRuleset,
    new_international_match_on_deals_for_tests,
)
from .state import InternationalState

__all__ = [
    "BID_TEXTS",
    "DECK_VALUES",
    "INTERNATIONAL",
    "Bid",
    "InternationalRuleset",
    "InternationalState",
    "Move",
    "NameContract",
    "Ultimatum",
    "Word",
    "move_of_action",
    "new_international_match_on_deals_for_tests",
    "parse_move",
    "settle_positive",
]
