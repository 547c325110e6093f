"""Konturlu King (seed 000, RULES-konturlu.md): its own state class, per the "own state"
protocol. ``settle`` is the settlement as a pure function, ``challenge`` the two call rounds
and the pair relation, ``durt`` the layout game, ``rules`` the contracts and trick rules,
``moves`` the move encoding, ``state`` the match, ``stored`` its stored form and ``ruleset``
the ruleset object."""

from .challenge import Challenge, round1_calls, round2_calls
from .durt import durt_moves, playable_mask
from .moves import ACTION_TEXT, NUM_ACTIONS, KonturluMove, move_of_action, parse_move
from .rules import CONTRACT_CODES, HAND_TOTALS, trick_legal_mask
from .ruleset import KONTURLU, KonturluRuleset, new_konturlu_match_on_deals_for_tests
from .settle import DURT_PLACE_POINTS, Eating, Settlement, Transfer, durt_points, settle
from .state import PHASE_NAMES, KonturluState

__all__ = [
    "ACTION_TEXT",
    "CONTRACT_CODES",
    "DURT_PLACE_POINTS",
    "HAND_TOTALS",
    "KONTURLU",
    "NUM_ACTIONS",
    "PHASE_NAMES",
    "Challenge",
    "Eating",
    "KonturluMove",
    "KonturluRuleset",
    "KonturluState",
    "Settlement",
    "Transfer",
    "durt_moves",
    "durt_points",
    "move_of_action",
    "new_konturlu_match_on_deals_for_tests",
    "parse_move",
    "playable_mask",
    "round1_calls",
    "round2_calls",
    "settle",
    "trick_legal_mask",
]
