"""Random positions for the bot tests: states reached by random legal play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from king_engine import MatchState, get_ruleset, new_match


def random_options(ruleset: str, rng: random.Random) -> dict[str, object] | None:
    """Random values of a ruleset's named options (None for rulesets without options)."""
    specs = get_ruleset(ruleset).option_specs
    return {spec.name: rng.choice(spec.values) for spec in specs} or None


def random_positions(ruleset: str, count: int, seed: int) -> Iterator[MatchState]:
    """``count`` states (copies) at random points of random matches, someone to move
    (``traditional``: random options, so its redeal rounds and announcements come up)."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        lengths = get_ruleset(ruleset).lengths
        length = lengths[0] if len(lengths) == 1 else rng.choice(lengths)
        state = new_match(ruleset, length, rng.randbytes(32), random_options(ruleset, rng))
        while not state.is_over and produced < count:
            if rng.random() < 0.15:
                yield state.copy()
                produced += 1
            state.apply_action(rng.choice(state.legal_actions()))
