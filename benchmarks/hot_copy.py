"""Does the random playout's inline trick resolution pay? ``python -m benchmarks.hot_copy [N]``

Times ``simulate.play_random_hand`` against the same loop with its inline copy of trick
resolution replaced by calls to the primitives (``tricks.beats``, ``HandRules.trick_points``),
alternating N rounds of half a second of CPU time each in one process (the machine may be
shared: process time and alternation keep the comparison fair). Prints both rates and the
ratio of their medians. It fails if the loop no longer holds the inline text it replaces.
"""

from __future__ import annotations

import inspect
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import king_engine.simulate as simulate
from king_engine import MatchState, new_match
from king_engine.tricks import beats

INLINE_BEATS = """\
            suit = suit_of[card]  # tricks.beats, inline
            if suit == best_suit:
                if card > best:
                    best, best_seat = card, turn
            elif suit == trump:
                best, best_seat, best_suit = card, turn, suit
"""
CALL_BEATS = """\
            if beats(card, best, trump):
                best, best_seat = card, turn
"""
INLINE_POINTS = """\
        points = per_trick
        if per_card:
            points += per_card * (trick & card_mask).bit_count()
        if last_two and trick_no >= 11:
            points += last_two
"""
CALL_POINTS = "        points = rules.trick_points(trick, trick_no)\n"

Playout = Callable[[MatchState, Callable[[], float]], None]


def primitive_playout() -> Playout:
    source = inspect.getsource(simulate.play_random_hand)
    assert INLINE_BEATS in source and INLINE_POINTS in source, "the playout loop changed"
    source = source.replace(INLINE_BEATS, CALL_BEATS).replace(INLINE_POINTS, CALL_POINTS)
    namespace: dict[str, Any] = {**vars(simulate), "beats": beats}
    exec(source, namespace)
    playout: Playout = namespace["play_random_hand"]
    return playout


def hands_per_cpu_s(playout: Playout, seconds: float) -> float:
    rng = random.Random(20261130)
    draw = rng.random
    hands = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = new_match("standard", 20, rng.randbytes(32))
        while not state.is_over:
            playout(state, draw)
            hands += 1
    return hands / (time.process_time() - started)


def main(rounds: int) -> None:
    variants = {"inline": simulate.play_random_hand, "primitive": primitive_playout()}
    rates: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, playout in variants.items():
            rates[name].append(hands_per_cpu_s(playout, 0.5))
    for name, values in rates.items():
        print(f"hot_copy.{name}_hands_per_s: {statistics.median(values):.0f}")
    ratio = statistics.median(rates["primitive"]) / statistics.median(rates["inline"])
    print(f"hot_copy.primitive_over_inline: {ratio:.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
