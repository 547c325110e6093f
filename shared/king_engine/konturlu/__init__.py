"""Konturlu King (seed 000, RULES-konturlu.md): its own state class, per the "own state"
protocol. ``settle`` is the settlement as a pure function, ``challenge`` the two call rounds
and the pair relation, ``durt`` the layout game, ``state`` the match."""

from .challenge import Challenge, round1_calls, round2_calls
from .durt import durt_moves, playable_mask
from .settle import DURT_PLACE_POINTS, Eating, Settlement, Transfer, durt_points, settle
from .state import (
    ACTION_TEXT,
    CONTRACT_CODES,
    HAND_TOTALS,
    KONTURLU,
    NUM_ACTIONS,
    PHASE_NAMES,
    KonturluMove,
    KonturluRuleset,
    KonturluState,
    move_of_action,
    new_konturlu_match_on_deals_for_tests,
    parse_move,
    trick_legal_mask,
)

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
