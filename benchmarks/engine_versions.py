"""The engine's two speed figures in CPU time, to compare two checkouts side by side.

``PYTHONPATH=<checkout>/shared python -m benchmarks.engine_versions LABEL`` runs the workloads
of ``bench_engine`` (random hands through the fast path; checked moves with the mover's view
and its JSON) for a fixed amount of work, five times, and prints the best rate per CPU second.
Run it for the old and the new checkout in turn, several times alternated: process time and
the best of five keep the comparison fair on a shared machine, where wall-clock rates swing.
"""

from __future__ import annotations

import random
import sys
import time

from king_engine import move_of_action, new_match, view_for
from king_engine.simulate import play_random_hand


def random_hands_per_cpu_s(hands: int = 2000) -> float:
    rng = random.Random(20261130)
    played = 0
    started = time.process_time()
    while played < hands:
        state = new_match("standard", 20, rng.randbytes(32))
        while not state.is_over:
            play_random_hand(state, rng.random)
            played += 1
    return played / (time.process_time() - started)


def checked_moves_per_cpu_s(matches: int = 8) -> float:
    rng = random.Random(7)
    moves = 0
    started = time.process_time()
    for _ in range(matches):
        state = new_match("standard", 20, rng.randbytes(32))
        while not state.is_over:
            seat = state.turn
            state.apply(seat, move_of_action(rng.choice(state.legal_actions())))
            view_for(state, seat).to_dict()
            moves += 1
    return moves / (time.process_time() - started)


def main(argv: list[str]) -> None:
    label = argv[0] if argv else "engine"
    hands = max(random_hands_per_cpu_s() for _ in range(5))
    checked = max(checked_moves_per_cpu_s() for _ in range(5))
    print(f"{label} random_hands_per_cpu_s: {hands:.0f}  checked_moves_per_cpu_s: {checked:.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
