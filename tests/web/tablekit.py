"""Helpers of the table tests: spoken card names, and the stand-in's match moved
on by the engine itself (so a test reaches the last trick of a hand without clicking 50 cards).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from king_engine import MatchState, move_of_action, parse_move, view_for

from .play import wait_for_my_move
from .stub_game import StubGame

# Spoken card names, written out here from the rules' vocabulary (RULES.md, the seeds).
EN_RANKS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
            "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
            "A": "ace"}  # fmt: skip
EN_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
TR_RANKS = {"2": "ikilisi", "3": "üçlüsü", "4": "dörtlüsü", "5": "beşlisi", "6": "altılısı",
            "7": "yedilisi", "8": "sekizlisi", "9": "dokuzlusu", "T": "onlusu", "J": "valesi",
            "Q": "kızı", "K": "papazı", "A": "ası"}  # fmt: skip
TR_SUITS = {"C": "sinek", "D": "karo", "H": "kupa", "S": "maça"}


def english_name(code: str) -> str:
    return f"{EN_RANKS[code[0]]} of {EN_SUITS[code[1]]}"


def turkish_name(code: str) -> str:
    return f"{TR_SUITS[code[1]]} {TR_RANKS[code[0]]}"


def state_of(game: StubGame, match_id: str) -> MatchState:
    state = game.matches[match_id].state
    assert state is not None
    return state


def served(game: StubGame, match_id: str) -> Callable[[], int]:
    """The last event the stand-in has logged for the match (``run_until``'s ``served``)."""
    return lambda: len(game.matches[match_id].events)


def view0(game: StubGame, match_id: str) -> dict[str, Any]:
    """Seat 0's view, as the service would send it."""
    with game.lock:
        view: dict[str, Any] = view_for(state_of(game, match_id), 0).to_dict()
    return view


def advance(
    game: StubGame,
    match_id: str,
    until: Callable[[MatchState], bool],
    contract: str | None = None,
) -> None:
    """Play first legal moves for every seat (seat 0 declaring ``contract`` while it may) until
    ``until(state)``; the stand-in logs the events as the service would."""
    with game.lock:
        match = game.matches[match_id]
        state = state_of(game, match_id)
        while not state.is_over and not until(state):
            seat = state.current_player
            assert seat is not None
            view = view_for(state, seat).to_dict()
            allowed = [c["move"] for c in view["allowed_contracts"]]
            if contract in allowed and seat == 0:
                game._apply(match, 0, parse_move(contract))
            else:
                game._apply(match, seat, move_of_action(state.legal_actions()[0]))


def reload_table(page: Any) -> None:
    page.reload()
    wait_for_my_move(page)
