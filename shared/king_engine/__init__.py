"""King (Rıfkı) rules engine: pure Python, standard library only, no I/O.

Cards are ints 0..51 (suit * 13 + rank, as in KINGDEAL-v1), hands are 52-bit masks. A match
is one ``MatchState`` covering every phase; ``apply(seat, move)`` is the checked path for
outside input, ``apply_action(action)`` the unchecked fast path for simulations. ``view_for``
gives what one seat may see. ``deal`` implements the provably fair deal.
"""

from .cards import format_card, format_cards, parse_card, parse_cards, parse_suit
from .contracts import ALL_CONTRACTS, CONTRACTS, NO_TRUMP, PENALTY_CONTRACTS, TRUMP
from .errors import BadInput, ConfigError, IllegalMove, KingError
from .game import (
    GameMove,
    GameState,
    OwnState,
    as_ruleset_move,
    game_from_bytes,
    game_move_of_action,
    has_own_state,
    is_own_move_text,
    new_game,
    own_move_words,
    own_state,
    parse_game_move,
)
from .match import (
    PHASE_ANNOUNCE,
    PHASE_CONTRACT,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_REDEAL_OFFER,
    DealRecord,
    HandRecord,
    MatchState,
    match_winners,
    new_match,
    placements,
)
from .moves import (
    CALL_WORDS,
    Call,
    ChooseContract,
    Move,
    PlayCard,
    contract_move,
    move_of_action,
    parse_move,
)
from .rulesets import RULESET_IDS, RULESETS, OptionSpec, Ruleset, get_ruleset
from .view import PhaseFacts, SeatView, Trick, view_for

__all__ = [
    "ALL_CONTRACTS",
    "CALL_WORDS",
    "CONTRACTS",
    "NO_TRUMP",
    "PENALTY_CONTRACTS",
    "PHASE_ANNOUNCE",
    "PHASE_CONTRACT",
    "PHASE_NAMES",
    "PHASE_OVER",
    "PHASE_PLAY",
    "PHASE_REDEAL_OFFER",
    "RULESETS",
    "RULESET_IDS",
    "TRUMP",
    "BadInput",
    "Call",
    "ChooseContract",
    "ConfigError",
    "DealRecord",
    "GameMove",
    "GameState",
    "HandRecord",
    "IllegalMove",
    "KingError",
    "MatchState",
    "Move",
    "OptionSpec",
    "OwnState",
    "PhaseFacts",
    "PlayCard",
    "Ruleset",
    "SeatView",
    "Trick",
    "as_ruleset_move",
    "contract_move",
    "format_card",
    "format_cards",
    "game_from_bytes",
    "game_move_of_action",
    "get_ruleset",
    "has_own_state",
    "is_own_move_text",
    "match_winners",
    "move_of_action",
    "new_game",
    "new_match",
    "own_move_words",
    "own_state",
    "parse_card",
    "parse_cards",
    "parse_game_move",
    "parse_move",
    "parse_suit",
    "placements",
    "view_for",
]
