"""The konturlu arena: ``arena_own``'s duplicate matches, plus how each level challenges.

    python -m king_bots.arena_konturlu --candidate hard --baseline medium --matches 10

Points a hand (candidate − baseline in the same seat, 95 % interval) as ``arena_own``; then,
per level, counted from the score sheet and the deal log of every match played: how many
round-1 challenges (``kontur``/``masa``/``haric``, one per target seat) and round-2 ``sür``
it made per hand, how many of them it won (it received the pair's transfer), lost (it paid)
or tied, and the net points those pairs moved to it; and the think time per move.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from king_bots.arena_own import mean_ci, play_match
from king_bots.policies.own import decide_own
from king_engine import OwnState

RULESET = "konturlu"


@dataclass(slots=True)
class CallStats:
    """One level's challenges over the matches counted."""

    hands: int = 0  # seat-hands played by the level
    konturs: int = 0  # round-1 challenge targets
    surs: int = 0  # round-2 sür targets
    won: int = 0
    lost: int = 0
    tied: int = 0
    net: int = 0  # points the challenged pairs moved to the level
    times: list[float] = field(default_factory=list)

    def line(self, level: str) -> str:
        made = self.won + self.lost + self.tied
        rate = f"{100 * self.won / made:.0f} %" if made else "-"
        per = (self.konturs + self.surs) / self.hands if self.hands else 0.0
        times = sorted(self.times)
        p50 = times[len(times) // 2] * 1000 if times else 0.0
        p99 = times[int(len(times) * 0.99)] * 1000 if times else 0.0
        top = times[-1] * 1000 if times else 0.0
        return (
            f"| {level} | {self.hands} | {self.konturs} | {self.surs} | {per:.3f} | "
            f"{self.won}/{self.lost}/{self.tied} | {rate} | {self.net:+d} | "
            f"{p50:.1f} / {p99:.1f} / {top:.0f} ms |"
        )


HEADER = (
    "| level | seat-hands | konturs | sürs | challenges a hand | won/lost/tied | won | "
    "net points | think p50 / p99 / max |\n|---|---:|---:|---:|---:|---|---:|---:|---|"
)


def count_calls(state: OwnState, levels: Sequence[str], stats: dict[str, CallStats]) -> None:
    """Add the challenges of a finished match, seat ``s`` played by ``levels[s]``."""
    rows = {row["hand"]: row for row in state.sheet}  # type: ignore[attr-defined]
    for deal in state.deal_log():
        if deal["ended"] != "played":
            continue
        row = rows[deal["hand"]]
        for seat in range(4):
            stats[levels[seat]].hands += 1
        moved: dict[tuple[int, int], int] = {}
        for transfer in row["transfers"]:
            moved[(transfer["to"], transfer["from"])] = transfer["amount"]
        declarer = row["declarer"]
        for seat, text in deal["moves"]:
            targets = _targets(text, seat, declarer)
            if not targets:
                continue
            level = stats[levels[seat]]
            for target in targets:
                if text.startswith("sur:"):
                    level.surs += 1
                else:
                    level.konturs += 1
                gain = moved.get((seat, target), 0) - moved.get((target, seat), 0)
                level.net += gain
                if gain > 0:
                    level.won += 1
                elif gain < 0:
                    level.lost += 1
                else:
                    level.tied += 1


def _targets(text: str, seat: int, declarer: int) -> list[int]:
    others = [s for s in range(4) if s != seat]
    if text == "masa":
        return others
    if text == "haric":
        return [s for s in others if s != declarer]
    if text.startswith(("kontur:", "sur:")):
        return [int(s) for s in text.split(":", 1)[1].split(",")]
    return []


@dataclass(slots=True)
class Report:
    candidate: str
    baseline: str
    per_hand: list[float]
    stats: dict[str, CallStats]
    seconds: float

    def text(self) -> str:
        mean, half = mean_ci(self.per_hand)
        lines = [
            f"konturlu {self.candidate} - {self.baseline}: {mean:+.2f} points a hand "
            f"[{mean - half:+.2f}, {mean + half:+.2f}] over {len(self.per_hand)} duplicate "
            f"matches ({self.seconds:.0f} s)",
            "",
            HEADER,
        ]
        lines += [self.stats[level].line(level) for level in self.stats]
        return "\n".join(lines)


def run(candidate: str, baseline: str, matches: int, first: int = 0) -> Report:
    """``arena_own.run`` for konturlu, counting the challenges and think times on the way."""
    started = time.monotonic()
    stats = {candidate: CallStats(), baseline: CallStats()}
    if candidate == baseline:
        stats = {candidate: CallStats()}

    def timed(view: dict[str, Any], level: str, seed: int) -> str:
        t0 = time.perf_counter()
        move = decide_own(view, level, seed)
        stats[level].times.append(time.perf_counter() - t0)
        return move

    gains = []
    for index in range(first, first + matches):
        levels = [baseline] * 4
        state = play_match(RULESET, index, levels, decide=timed)
        base = state.totals[:]
        count_calls(state, levels, stats)
        total = 0.0
        for seat in range(4):
            levels = [baseline] * 4
            levels[seat] = candidate
            state = play_match(RULESET, index, levels, decide=timed)
            count_calls(state, levels, stats)
            total += state.totals[seat] - base[seat]
        gains.append(total / 4 / state.num_hands)  # type: ignore[attr-defined]
    return Report(candidate, baseline, gains, stats, time.monotonic() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidate", default="medium")
    parser.add_argument("--baseline", default="easy")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="index of the first match")
    args = parser.parse_args(argv)
    print(run(args.candidate, args.baseline, args.matches, args.first).text())
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["CallStats", "Report", "count_calls", "run"]
