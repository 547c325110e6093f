"""Hand-made positions for rule tests."""

from __future__ import annotations

from king_engine import MatchState, new_match, parse_cards, parse_move


def position(
    hands: tuple[str, str, str, str],
    contract: str | None = None,
    ruleset: str = "standard",
    length: int = 8,
    plays: str = "",
) -> MatchState:
    """A match at hand 0 with the given cards (seat 0 declares), the contract chosen by seat 0
    through the checked path, then ``plays`` (space-separated card codes, in turn order)
    applied through the checked path too."""
    state = new_match(ruleset, length, bytes(32))
    state._start_hand_with(0, [parse_cards(text) for text in hands])
    if contract is not None:
        state.apply(0, parse_move(contract))
    for code in plays.split():
        state.apply(state.turn, parse_move(code))
    return state


def legal_codes(state: MatchState) -> set[str]:
    return {str(move) for move in state.legal_moves()}
