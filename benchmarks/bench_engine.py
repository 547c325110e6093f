"""Engine benchmarks (single process):

* ``engine.random_hands_per_s``: complete hands through the fast path, a contract drawn
  uniformly among those allowed, then uniformly random legal cards to the end of the hand
  (every hand is dealt with KINGDEAL-v1 from the match key, as in a real match);
* ``engine.checked_moves_per_s``: moves through the checked path (``apply`` with parsed
  moves), computing the mover's view (and its JSON form) after each, as the service does;
* ``engine.state_bytes``: the serialised size of a 20-hand match in its last hand;
* ``engine.decode_ms.<ruleset>`` and ``engine.copy_ms.<ruleset>``: loading the stored state of
  a match of the ruleset's longest length at its last move, against copying the decoded state
  (why ``king_match.decoded`` keeps the states it decoded).
"""

from __future__ import annotations

import random
import time

from king_engine import (
    RULESETS,
    GameState,
    MatchState,
    game_from_bytes,
    move_of_action,
    new_game,
    new_match,
    view_for,
)
from king_engine.simulate import play_random_hand

SECONDS = 4.0


def random_hands_per_s(ruleset: str, seconds: float = SECONDS) -> float:
    rng = random.Random(20261130)
    draw = rng.random
    hands = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = new_match(ruleset, 20, rng.randbytes(32))
        while not state.is_over:
            play_random_hand(state, draw)
            hands += 1
    return hands / (time.perf_counter() - started)


def checked_moves_per_s(seconds: float = SECONDS) -> float:
    rng = random.Random(7)
    moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = new_match("standard", 20, rng.randbytes(32))
        while not state.is_over:
            seat = state.turn
            move = move_of_action(rng.choice(state.legal_actions()))
            state.apply(seat, move)
            view_for(state, seat).to_dict()
            moves += 1
    return moves / (time.perf_counter() - started)


def last_hand_state_bytes() -> int:
    rng = random.Random(3)
    state = new_match("standard", 20, rng.randbytes(32))
    while state.hand_index < 19:
        play_random_hand(state, rng.random)
    while state.legal_actions() and len(state.plays) < 48:
        state.apply_action(rng.choice(state.legal_actions()))
    data = state.to_bytes()
    assert MatchState.from_bytes(data) == state
    return len(data)


def decode_and_copy_ms(ruleset: str, rounds: int = 20) -> tuple[float, float]:
    """(ms a decode, ms a copy) of a random match's state at its last move."""
    rng = random.Random(11)
    state: GameState = new_game(ruleset, max(RULESETS[ruleset].lengths), rng.randbytes(32))
    data = state.to_bytes()
    while not state.is_over:
        data = state.to_bytes()
        moves = state.legal_moves()
        state.apply(state.current_player, moves[rng.randrange(len(moves))])  # type: ignore[arg-type]
    started = time.perf_counter()
    for _ in range(rounds):
        decoded = game_from_bytes(data)
    decode = (time.perf_counter() - started) / rounds
    started = time.perf_counter()
    for _ in range(rounds):
        decoded.copy()
    return decode * 1000, (time.perf_counter() - started) / rounds * 1000


def main(argv: list[str]) -> None:
    seconds = float(argv[0]) if argv and argv[0].replace(".", "", 1).isdigit() else SECONDS
    print(f"engine.random_hands_per_s: {random_hands_per_s('standard', seconds):.0f}")
    print(f"engine.random_hands_per_s.classic20: {random_hands_per_s('classic20', seconds):.0f}")
    print(f"engine.checked_moves_per_s: {checked_moves_per_s(seconds):.0f}")
    print(f"engine.state_bytes: {last_hand_state_bytes()}")
    for ruleset in sorted(RULESETS):
        decode, copy = decode_and_copy_ms(ruleset)
        print(f"engine.decode_ms.{ruleset}: {decode:.3f}")
        print(f"engine.copy_ms.{ruleset}: {copy:.4f}")
