"""Bot benchmarks: a duplicate arena of the production hard bot and the bots' move times.

* ``bots.medium_vs_easy_pts``: medium minus easy, points per hand averaged over the seven
  contracts (duplicate deals, fixed seed);
* ``bots.hard_vs_medium_pts`` / ``bots.hard_vs_medium_ci95`` / ``bots.hard_vs_medium_low95_min``:
  the production hard bot (its time budget, ``KING_BOTS_HARD_BUDGET_S``) against medium on
  ``HARD_DEALS`` duplicate deals per contract, two processes: the mean, the half-width of its
  95 % interval, and the lowest per-contract lower bound. Time-budgeted, so it wants the
  machine to itself (about 25 minutes on two cores);
* ``bots.omniscient_vs_medium_pts``: the arena's ceiling (``omniscient``: the hard search fed
  the true hands) on the same deals, so the hard bot's figure reads as a share of the gap to
  perfect information (seconds: one world per decision);
* ``bots.hard_move_p50_s`` / ``bots.hard_move_p99_s``: wall time of the hard bot's decisions
  at the production budget, over every decision it makes in a 12-hand match against three
  medium bots (contract choices included);
* ``bots.medium_move_p99_s``: the medium bot's decisions in the same match.

``--deals N`` changes the number of duplicate deals per contract of both arenas (default 12
for medium against easy, ``HARD_DEALS`` for hard); ``--jobs`` the arena's processes.
"""

from __future__ import annotations

import argparse
import time

from king_bots.arena import _key, _seed, percentile, run_arena
from king_bots.policies import Policy, hard_budget_s
from king_engine import new_match, view_for

HARD_DEALS = 20
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
    parser.add_argument("--jobs", type=int, default=2)
    args, _ = parser.parse_known_args(argv)
    medium = run_arena("medium", "easy", deals=args.deals or 12, seed=SEED, progress=False)
    print(f"bots.medium_vs_easy_pts: {medium.overall[0]:.1f}", flush=True)
    deals = args.deals or HARD_DEALS
    hard = run_arena("hard", "medium", deals=deals, seed=SEED, jobs=args.jobs, progress=False)
    mean, half = hard.overall
    lowest = min(m - h for m, h in hard.contract_stats().values())
    print(f"bots.hard_vs_medium_pts: {mean:.1f}", flush=True)
    print(f"bots.hard_vs_medium_ci95: {half:.1f}", flush=True)
    print(f"bots.hard_vs_medium_low95_min: {lowest:.1f}", flush=True)
    ceiling = run_arena("omniscient", "medium", deals=deals, seed=SEED, progress=False)
    print(f"bots.omniscient_vs_medium_pts: {ceiling.overall[0]:.1f}", flush=True)
    hard_times, medium_times = move_times()
    print(f"bots.hard_budget_s: {hard_budget_s():.2f}")
    print(f"bots.hard_move_p50_s: {percentile(hard_times, 0.5):.3f}")
    print(f"bots.hard_move_p99_s: {percentile(hard_times, 0.99):.3f}")
    print(f"bots.medium_move_p99_s: {percentile(medium_times, 0.99):.4f}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
