"""The bot arena: duplicate deals that measure one policy against another.

    python -m king_bots.arena --candidate hard:worlds=16 --baseline medium --deals 50 \\
        --matches 10 --out docs/bots-arena.md

**Per contract (duplicate).** Each seeded deal is played, with its contract fixed, once by four
baseline bots, then four more times with the candidate in seat 0, 1, 2 and 3 against the same
cards and the same random streams (each seat's decisions are seeded by the deal, the seat and
the move number). A deal's score is the candidate's points minus the baseline's points in the
same seat, averaged over the four seats; the report gives the mean over deals with a 95 %
confidence interval (normal approximation), per contract and averaged over the contracts. The
first declarer of the ruleset declares and leads (seat 0, or in ``traditional`` the holder of
♦2); in Koz its longest suit is trump.

``traditional`` adds its phases to a fixed deal: it is played with ``first_four_penalties`` off
(so Koz may be the first hand), the bots answer its redeal rounds and announcements, a redeal
brings a new deal on which the same contract is chosen again (a Kız replay is automatic), and the
King feat ends the hand where it happens (its partial points are the deal's score). The report
counts the deals ended by the feat.

**Full matches.** 20-hand matches with contract choice (``traditional``: default options), the
candidate in each seat in turn against three baselines: mean final score, first-place rate (ties
for first count as first; in ``traditional`` the match result's places, so a King maker is
first) and the duplicate difference against the all-baseline match.

Policy specs: ``easy``, ``medium``, ``hard``, ``random``, with options after a colon:
``medium:noise=0.2`` (random card 20 % of the time), ``hard:worlds=16`` (fixed iterations,
deterministic), ``hard:budget=0.55`` (time budget in seconds), ``hard:trust=0.99,steps=10,reply=3``
(the hard search's levers, see ``Policy``). Two arena-only specs:

* ``hard_v1`` — the hard bot with its levers off (``trust=0,steps=0,reply=0``): the search as
  it was before them, the baseline every change to the hard bot is measured against; takes
  the other options (``worlds``, ``budget``);
* ``omniscient`` — the ceiling: the hard search fed the true hands of the other seats as its
  only world (the arena has the full state), which no fair bot can be. Tables, the API and the
  bot jobs cannot reach it: it is no ``Policy`` level, it needs the full deal to move.

Several ``--candidate`` options play each candidate against the baseline on the same deals and
add a side-by-side table, with each candidate's paired difference from the first one (same
deals, same baseline games: the baseline cancels) and, when ``omniscient`` is among them, the
share of the first candidate's gap to the ceiling that each one closes.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from king_engine import (
    CONTRACTS,
    PHASE_PLAY,
    ChooseContract,
    MatchState,
    Move,
    PlayCard,
    SeatView,
    new_match,
    placements,
    view_for,
)
from king_engine.cards import SUIT_MASK
from king_engine.contracts import TRUMP
from king_engine.match import PHASE_CONTRACT, PHASE_OVER

from .policies import BOT_RULESETS, HARD_REPLY, Policy
from .policies.search import hard_card, hard_contract

CONTRACT_IDS = tuple(range(len(CONTRACTS)))
CODES = {spec.code: spec.id for spec in CONTRACTS}
MATCH_HANDS = 20  # every ruleset the bots play has 20-hand matches (traditional: only those)
# A fixed deal may be Koz at hand 0, which traditional's default keeps for penalties.
FIXED_DEAL_OPTIONS: dict[str, dict[str, object]] = {"traditional": {"first_four_penalties": False}}


@dataclass(frozen=True, slots=True)
class Omniscient:
    """The arena's ceiling: the hard search with the true hands as its only world.

    Card and contract choices search the real deal (one world: the playouts are
    deterministic, so more copies of it would change nothing) with the hard bot's endgame
    (its best reply to medium from ``HARD_REPLY`` cards); redeal rounds and
    announcements are the hard bot's own. Only the arena, which holds the full state, can
    give it the hands."""

    def decide(self, view: SeatView, seed: int, hands: Sequence[int]) -> Move:
        hard = Policy("hard", worlds=1)
        if not view.my_turn:
            raise ValueError("it is not this seat's turn")
        rng = random.Random(seed)
        if view.phase == PHASE_CONTRACT and view.allowed_contracts:
            return hard_contract(view, rng, None, 1, known=hands)
        if view.phase == PHASE_PLAY and view.legal_cards and "redeal" not in view.calls:
            return PlayCard(hard_card(view, rng, None, 1, reply=HARD_REPLY, known=hands))
        return hard.decide(view, seed)


Seat = Policy | Omniscient
HARD_LEVERS = ("trust", "steps", "reply")
HARD_V1 = dict.fromkeys(HARD_LEVERS, 0)  # the hard bot's levers off: the search before them


def parse_policy(spec: str) -> Seat:
    """``"hard:worlds=16,budget=0.3"`` -> ``Policy("hard", worlds=16, budget_s=0.3)``;
    ``hard_v1`` and ``omniscient`` as the module says."""
    level, _, opts = spec.partition(":")
    kwargs: dict[str, float | int] = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        if key == "noise":
            kwargs["noise"] = float(value)
        elif key == "worlds":
            kwargs["worlds"] = int(value)
        elif key == "budget":
            kwargs["budget_s"] = float(value)
        elif key == "trust":
            kwargs["trust"] = float(value)
        elif key == "steps":
            kwargs["steps"] = int(value)
        elif key == "reply":
            kwargs["reply"] = int(value)
        else:
            raise ValueError(f"unknown policy option {key!r} in {spec!r}")
    if level == "omniscient":
        if kwargs:
            raise ValueError(f"omniscient takes no options ({spec!r})")
        return Omniscient()
    if level == "hard_v1":
        if any(lever in kwargs for lever in HARD_LEVERS):
            raise ValueError(f"hard_v1 is the search without its levers ({spec!r})")
        level = "hard"
        kwargs.update(HARD_V1)
    return Policy(level, **kwargs)  # type: ignore[arg-type]


def _seed(*parts: object) -> int:
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _key(*parts: object) -> bytes:
    return hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()


@dataclass
class Timing:
    """Decision times per policy label (seconds)."""

    samples: dict[str, list[float]] = field(default_factory=dict)

    def add(self, label: str, seconds: float) -> None:
        self.samples.setdefault(label, []).append(seconds)

    def merge(self, other: Timing) -> None:
        for label, values in other.samples.items():
            self.samples.setdefault(label, []).extend(values)


def play_to(
    state: MatchState,
    seats: Sequence[Seat],
    stream: object,
    stop: Callable[[MatchState], bool],
    timing: Timing | None = None,
    labels: Sequence[str] | None = None,
) -> None:
    """Let the seats' policies move until ``stop(state)``; every decision is seeded by
    (stream, seat, version) so runs that reach the same position make the same choices."""
    while not stop(state):
        seat = state.turn
        view = view_for(state, seat)
        started = time.perf_counter()
        policy = seats[seat]
        seed = _seed(stream, seat, state.version)
        if isinstance(policy, Omniscient):
            move = policy.decide(view, seed, state.hands)
        else:
            move = policy.decide(view, seed)
        if timing is not None and labels is not None:
            timing.add(labels[seat], time.perf_counter() - started)
        state.apply(seat, move)


def fixed_deal(ruleset: str, key: bytes) -> MatchState:
    """A new match at hand 0's contract choice, with the options of a fixed deal."""
    return new_match(ruleset, MATCH_HANDS, key, FIXED_DEAL_OPTIONS.get(ruleset))


def play_hand(
    ruleset: str, key: bytes, contract: int, seats: Sequence[Seat], stream: object,
    timing: Timing | None = None, labels: Sequence[str] | None = None,
) -> tuple[tuple[int, int, int, int], bool]:  # fmt: skip
    """One hand with its contract fixed: the four seats' points, and whether it ended on King.

    After a redeal the declarer chooses the same contract again on the new deal."""
    state = fixed_deal(ruleset, key)

    def stop(s: MatchState) -> bool:
        return s.hand_index > 0 or s.phase in (PHASE_OVER, PHASE_CONTRACT)

    while True:
        state.apply(state.turn, _option_for(contract, state))
        play_to(state, seats, stream, stop, timing, labels)
        if state.phase != PHASE_CONTRACT or state.hand_index > 0:
            break
    return state.sheet[0].points, state.end_reason == "king"


def play_match(
    ruleset: str, key: bytes, seats: Sequence[Seat], stream: object,
    timing: Timing | None = None, labels: Sequence[str] | None = None,
) -> tuple[list[int], list[int]]:  # fmt: skip
    """A whole match: final totals and places (1..4 by seat)."""
    state = new_match(ruleset, MATCH_HANDS, key)
    play_to(state, seats, stream, lambda s: s.is_over, timing, labels)
    places = state.result()["places"] if state.ruleset.phased else placements(state.totals)
    return list(state.totals), list(places)


def _option_for(contract: int, state: MatchState) -> ChooseContract:
    """The fixed contract of a duplicate deal. Koz takes the declarer's longest suit as trump
    (ties: the one with more high cards), as a declarer choosing Koz would."""
    if contract == TRUMP:
        hand = state.hands[state.turn]

        def strength(suit: int) -> tuple[int, int]:
            cards_of_suit = hand & SUIT_MASK[suit]
            return cards_of_suit.bit_count(), cards_of_suit >> (13 * suit)

        return ChooseContract(TRUMP, max(range(4), key=strength))
    return ChooseContract(contract)


@dataclass(frozen=True)
class Task:
    kind: str  # "hand" or "match"
    ruleset: str
    candidate: str
    baseline: str
    seed: int
    index: int  # deal or match number
    contract: int = -1


def run_task(task: Task) -> tuple[Task, list[float], Timing]:
    """A duplicate set: the all-baseline game plus the candidate in each seat.

    Returns per-seat differences (candidate - baseline), then for hands how many of the five
    games ended on the King feat, ``[d0..d3, kings]``, and for matches the candidate's final
    scores and first places, ``[d0..d3, score0..score3, first0..first3]``.
    """
    cand, base = parse_policy(task.candidate), parse_policy(task.baseline)
    timing = Timing()
    stream = (task.kind, task.seed, task.index, task.contract)
    if task.kind == "hand":
        key = _key("arena-deal", task.seed, task.index)
        reference, king = play_hand(task.ruleset, key, task.contract, [base] * 4, stream)
        kings = int(king)
        diffs: list[float] = []
        for seat in range(4):
            seats: list[Seat] = [base] * 4
            seats[seat] = cand
            labels = ["baseline"] * 4
            labels[seat] = "candidate"
            points, king = play_hand(task.ruleset, key, task.contract, seats, stream, timing,
                                     labels)  # fmt: skip
            kings += king
            diffs.append(points[seat] - reference[seat])
        return task, [float(d) for d in diffs] + [float(kings)], timing
    key = _key("arena-match", task.seed, task.index)
    reference_totals, _ = play_match(task.ruleset, key, [base] * 4, stream)
    diffs, scores, firsts = [], [], []
    for seat in range(4):
        seats = [base] * 4
        seats[seat] = cand
        labels = ["baseline"] * 4
        labels[seat] = "candidate"
        totals, places = play_match(task.ruleset, key, seats, stream, timing, labels)
        diffs.append(float(totals[seat] - reference_totals[seat]))
        scores.append(float(totals[seat]))
        firsts.append(1.0 if places[seat] == 1 else 0.0)
    return task, diffs + scores + firsts, timing


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total, self.label, self.done = total, label, 0
        self.out = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.enabled = total > 0

    def step(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / self.total)
        elapsed = time.monotonic() - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        line = (
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
            f"{self.done}/{self.total} {elapsed:5.0f}s eta {eta:4.0f}s"
        )
        self.out.write(line)
        if self.done >= self.total:
            self.out.write("\n")
        self.out.flush()


@dataclass
class ArenaResult:
    candidate: str
    baseline: str
    ruleset: str
    seed: int
    deals: int
    matches: int
    per_contract: dict[int, list[float]]  # contract -> per-deal seat-averaged differences
    per_deal: list[float]  # per-deal difference averaged over contracts
    match_diffs: list[float]
    match_scores: list[float]
    match_firsts: list[float]
    timing: Timing
    seconds: float
    king_games: int = 0  # fixed-deal games (of five per deal) that ended on the King feat

    @property
    def overall(self) -> tuple[float, float]:
        return mean_ci(self.per_deal)

    def contract_stats(self) -> dict[int, tuple[float, float]]:
        return {c: mean_ci(v) for c, v in self.per_contract.items()}


def run_arena(
    candidate: str,
    baseline: str,
    *,
    ruleset: str = "standard",
    deals: int = 20,
    matches: int = 0,
    seed: int = 1,
    contracts: Iterable[int] = CONTRACT_IDS,
    jobs: int = 1,
    progress: bool = True,
) -> ArenaResult:
    parse_policy(candidate), parse_policy(baseline)  # fail early on bad specs
    contracts = tuple(contracts)
    tasks = [
        Task("hand", ruleset, candidate, baseline, seed, d, c)
        for d in range(deals)
        for c in contracts
    ]
    tasks += [Task("match", ruleset, candidate, baseline, seed, m) for m in range(matches)]
    bar = Progress(len(tasks), f"{candidate} vs {baseline}") if progress else None
    started = time.monotonic()
    results: list[tuple[Task, list[float], Timing]] = []
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for item in pool.imap_unordered(run_task, tasks):
                results.append(item)
                if bar:
                    bar.step()
    else:
        for task in tasks:
            results.append(run_task(task))
            if bar:
                bar.step()
    timing = Timing()
    per_contract: dict[int, list[float]] = {c: [0.0] * deals for c in contracts}
    match_rows: list[tuple[int, list[float]]] = []
    king_games = 0
    for task, values, task_timing in results:
        timing.merge(task_timing)
        if task.kind == "hand":
            per_contract[task.contract][task.index] = sum(values[:4]) / 4
            king_games += int(values[4])
        else:
            match_rows.append((task.index, values))
    match_rows.sort()
    per_deal = [sum(per_contract[c][d] for c in contracts) / len(contracts) for d in range(deals)]
    return ArenaResult(
        candidate, baseline, ruleset, seed, deals, matches, per_contract, per_deal,
        [v for _, row in match_rows for v in row[0:4]],
        [v for _, row in match_rows for v in row[4:8]],
        [v for _, row in match_rows for v in row[8:12]],
        timing, time.monotonic() - started, king_games,
    )  # fmt: skip


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def report(result: ArenaResult) -> str:
    """The result as a Markdown section."""
    lines = [
        f"### {result.candidate} vs {result.baseline} ({result.ruleset})",
        "",
        f"Seed {result.seed}; {result.deals} duplicate deals per contract, "
        f"{result.matches} duplicate 20-hand matches; {result.seconds:.0f} s.",
        "",
    ]
    if result.deals:
        lines += [
            "| contract | mean points/hand (candidate − baseline) | 95 % CI |",
            "|---|---:|---|",
        ]
        for contract, (mean, half) in result.contract_stats().items():
            spec = CONTRACTS[contract]
            lines.append(
                f"| {spec.code} ({spec.turkish}) | {mean:+.1f} | "
                f"[{mean - half:+.1f}, {mean + half:+.1f}] |"
            )
        mean, half = result.overall
        lines.append(
            f"| **all contracts** | **{mean:+.1f}** | [{mean - half:+.1f}, {mean + half:+.1f}] |"
        )
        lines.append("")
        if result.king_games:
            lines += [f"Games ended by the King feat: {result.king_games}.", ""]
    if result.matches:
        d_mean, d_half = mean_ci(result.match_diffs)
        s_mean, s_half = mean_ci(result.match_scores)
        firsts = result.match_firsts
        rate = sum(firsts) / len(firsts)
        rate_half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / len(firsts))
        lines += [
            "| 20-hand matches | value |",
            "|---|---|",
            f"| games (matches × 4 seats) | {len(firsts)} |",
            f"| candidate mean final score | {s_mean:+.0f} ± {s_half:.0f} |",
            f"| candidate − baseline in the same seat | {d_mean:+.0f} ± {d_half:.0f} |",
            f"| first place (ties count) | {100 * rate:.0f} % ± {100 * rate_half:.0f} |",
            "",
        ]
    cand_times = result.timing.samples.get("candidate", [])
    if cand_times:
        lines.append(
            f"Candidate decision time: p50 {percentile(cand_times, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(cand_times, 0.99) * 1000:.1f} ms over {len(cand_times)} moves."
        )
        lines.append("")
    return "\n".join(lines)


def paired(first: ArenaResult, other: ArenaResult) -> tuple[float, float]:
    """Mean and 95 % half-width of ``other`` − ``first`` per deal: two candidates measured
    against the same baseline on the same deals (the baseline's games cancel)."""
    if (first.seed, first.deals, first.ruleset) != (other.seed, other.deals, other.ruleset):
        raise ValueError("paired results need the same seed, deals and ruleset")
    return mean_ci([b - a for a, b in zip(first.per_deal, other.per_deal, strict=True)])


def side_by_side(results: Sequence[ArenaResult]) -> str:
    """Candidates against one baseline on the same deals, as a Markdown table: each one's
    mean per contract and overall, its paired difference from the first candidate and, when
    ``omniscient`` is among them, the share of the first candidate's gap to it closed."""
    first = results[0]
    ceiling = next((r for r in results if r.candidate == "omniscient"), None)
    gap = paired(first, ceiling)[0] if ceiling is not None else 0.0
    codes = [CONTRACTS[c].code for c in first.per_contract]
    lines = [
        f"### Side by side against {first.baseline} ({first.ruleset})",
        "",
        f"Seed {first.seed}; the same {first.deals} duplicate deals per contract for every "
        f"candidate. Points per hand, candidate − {first.baseline}; "
        f'"vs {first.candidate}" is the paired difference on the same deals.',
        "",
        "| candidate | " + " | ".join(codes) + " | all contracts (95 % CI) | "
        f"vs {first.candidate} (95 % CI) |" + (" gap closed |" if ceiling else ""),
        "|---|" + "---:|" * len(codes) + "---|---|" + ("---:|" if ceiling else ""),
    ]
    for result in results:
        stats = result.contract_stats()
        mean, half = result.overall
        d_mean, d_half = paired(first, result)
        row = (
            f"| {result.candidate} | "
            + " | ".join(f"{stats[c][0]:+.1f}" for c in result.per_contract)
            + f" | {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]"
            + f" | {d_mean:+.1f} [{d_mean - d_half:+.1f}, {d_mean + d_half:+.1f}] |"
        )
        if ceiling:
            row += f" {100 * d_mean / gap:.0f} % |" if gap else " – |"
        lines.append(row)
    lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m king_bots.arena",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--candidate", action="append", help="policy spec (repeat for a side-by-side table)"
    )
    parser.add_argument("--baseline", default="easy")
    parser.add_argument("--ruleset", default="standard", choices=list(BOT_RULESETS))
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals per contract")
    parser.add_argument("--matches", type=int, default=0, help="duplicate 20-hand matches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--contracts", default="", help="comma-separated contract codes (default: all seven)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", help="append the Markdown report to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    contracts = [CODES[c] for c in args.contracts.split(",") if c] or CONTRACT_IDS
    results = []
    for candidate in args.candidate or ["medium"]:
        results.append(run_arena(
            candidate, args.baseline, ruleset=args.ruleset, deals=args.deals,
            matches=args.matches, seed=args.seed, jobs=args.jobs, progress=not args.quiet,
            contracts=contracts,
        ))  # fmt: skip
    text = "\n".join(report(result) for result in results)
    if len(results) > 1 and args.deals:
        text += "\n" + side_by_side(results)
    print(text)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
