"""Bot benchmarks: a quick duplicate arena and the hard bot's move time.

* ``bots.medium_vs_easy_pts``: medium minus easy, points per hand averaged over the seven
  contracts (duplicate deals, fixed seed);
* ``bots.hard_vs_medium_pts``: the same for hard against medium, the hard bot in its
  fixed-iteration mode (``HARD_WORLDS`` sampled worlds per decision) so the figure is
  deterministic; the production bot thinks longer and is at least as strong;
* ``bots.omniscient_vs_medium_pts``: the arena's ceiling (``omniscient``: the hard search fed
  the true hands) against medium on the same deals as ``bots.hard_vs_medium_pts``, so the
  hard bot's figure reads as a share of the gap to perfect information (a few seconds: one
  world per decision);
* ``bots.hard_vs_medium_koz_pts`` / ``bots.hard_vs_medium_koz_low95``: the same comparison on
  Koz (the trump contract) alone, on more deals (``KOZ_DEALS``): mean and the lower end of its
  95 % confidence interval, the arena's per-contract figure for Koz;
* ``bots.hard_move_p50_s`` / ``bots.hard_move_p99_s``: wall time of the hard bot's decisions
  at the production budget, over every decision it makes in a 12-hand match against three
  medium bots (contract choices included);
* ``bots.medium_move_p99_s``: the medium bot's decisions in the same match.

``--deals N`` changes the number of duplicate deals per contract (default 12, 6 and 40 for
the Koz-only run).
"""

from __future__ import annotations

import argparse
import time

from king_bots.arena import _key, _seed, percentile, run_arena
from king_bots.policies import Policy, hard_budget_s
from king_engine import new_match, view_for
from king_engine.contracts import TRUMP

HARD_WORLDS = 24
KOZ_DEALS = 40
SEED = 20261201


def move_times(num_hands: int = 12) -> tuple[list[float], list[float]]:
    hard = Policy("hard")
    medium = Policy("medium")
    state = new_match("standard", num_hands, _key("bench-bots", SEED))
    hard_times: list[float] = []
    medium_times: list[float] = []
    while not state.is_over:
        seat = state.turn
        view = view_for(state, seat)
        policy = hard if seat == 0 else medium
        started = time.perf_counter()
        move = policy.decide(view, _seed("bench", SEED, seat, state.version))
        elapsed = time.perf_counter() - started
        (hard_times if seat == 0 else medium_times).append(elapsed)
        state.apply(seat, move)
    return hard_times, medium_times


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_bots")
    parser.add_argument("--deals", type=int, default=0)
    args, _ = parser.parse_known_args(argv)
    easy_deals = args.deals or 12
    hard_deals = args.deals or 6
    medium = run_arena("medium", "easy", deals=easy_deals, seed=SEED, progress=False)
    print(f"bots.medium_vs_easy_pts: {medium.overall[0]:.1f}", flush=True)
    hard = run_arena(
        f"hard:worlds={HARD_WORLDS}", "medium", deals=hard_deals, seed=SEED, progress=False
    )
    print(f"bots.hard_vs_medium_pts: {hard.overall[0]:.1f}", flush=True)
    ceiling = run_arena("omniscient", "medium", deals=hard_deals, seed=SEED, progress=False)
    print(f"bots.omniscient_vs_medium_pts: {ceiling.overall[0]:.1f}", flush=True)
    koz = run_arena(
        f"hard:worlds={HARD_WORLDS}", "medium", deals=args.deals or KOZ_DEALS, seed=SEED,
        contracts=[TRUMP], progress=False,
    )  # fmt: skip
    koz_mean, koz_half = koz.contract_stats()[TRUMP]
    print(f"bots.hard_vs_medium_koz_pts: {koz_mean:.1f}", flush=True)
    print(f"bots.hard_vs_medium_koz_low95: {koz_mean - koz_half:.1f}", flush=True)
    hard_times, medium_times = move_times()
    print(f"bots.hard_budget_s: {hard_budget_s():.2f}")
    print(f"bots.hard_move_p50_s: {percentile(hard_times, 0.5):.3f}")
    print(f"bots.hard_move_p99_s: {percentile(hard_times, 0.99):.3f}")
    print(f"bots.medium_move_p99_s: {percentile(medium_times, 0.99):.4f}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
