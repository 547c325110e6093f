"""Random positions for the bot tests: states reached by random legal play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from king_engine import MatchState, new_match


def random_positions(ruleset: str, count: int, seed: int) -> Iterator[MatchState]:
    """``count`` states (copies) at random points of random matches, someone to move."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        state = new_match(ruleset, 20 if ruleset == "classic20" else rng.choice((8, 12, 20)),
                          rng.randbytes(32))  # fmt: skip
        while not state.is_over and produced < count:
            if rng.random() < 0.15:
                yield state.copy()
                produced += 1
            state.apply_action(rng.choice(state.legal_actions()))
