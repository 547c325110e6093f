"""The arena for the rulesets with their own state class (``konturlu``, ``international``).

    python -m king_bots.arena_own --ruleset international --candidate hard --baseline medium \\
        --matches 40 --option deck=32

Duplicate full matches: each seeded match is played by four baseline bots, then four more
times with the candidate in seat 0, 1, 2 and 3 on the same deals (deals follow the match key
and the deal number; every seat's decisions are seeded by the match, the seat and the move
number, so the baseline seats repeat their choices wherever the game reaches the same view).
A match's score is the candidate's final total minus the baseline's in the same seat,
averaged over the four seats and divided by the number of hands: points a hand, with a 95 %
confidence interval over matches (normal approximation). The bots see only their seat's view.

    python -m king_bots.arena_own --ruleset international --bids medium --matches 40

``--bids LEVEL`` (``international`` only) plays matches of four ``LEVEL`` bots instead and
compares, for every sold positive hand, the price paid with what a many-world simulation
(``--value-worlds``) puts on the buyer's right: its best contract of the price's family minus
what it expects when the auctioneer plays himself (``international.Valuation``).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from king_bots.policies.international import Valuation, family_contracts, world_scores
from king_bots.policies.own import decide_own
from king_engine import OwnState, get_ruleset, new_game, own_state
from king_engine.international import InternationalState
from king_engine.international.rules import BID_TEXTS, DECK_VALUES

Decide = Callable[[dict[str, Any], str, int], str]


def _seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def match_key(ruleset: str, index: int) -> bytes:
    return hashlib.sha256(f"arena-own:{ruleset}:{index}".encode()).digest()


def play_match(
    ruleset: str,
    index: int,
    levels: Sequence[str],
    options: dict[str, Any] | None = None,
    decide: Decide = decide_own,
    on_move: Callable[[OwnState, int, str], None] | None = None,
) -> OwnState:
    """Match ``index`` of the arena played to its end, seat ``s`` by the bot ``levels[s]``."""
    rules = get_ruleset(ruleset)
    state = own_state(new_game(ruleset, rules.lengths[0], match_key(ruleset, index), options))
    moves = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        text = decide(state.view(seat), levels[seat], _seed(ruleset, index, seat, moves))
        if on_move is not None:
            on_move(state, seat, text)
        state.apply(seat, rules.parse_move(text))
        moves += 1
    return state


@dataclass(frozen=True, slots=True)
class Result:
    ruleset: str
    candidate: str
    baseline: str
    per_hand: list[float]  # per match: the candidate's mean gain a hand over the four seats

    def summary(self) -> tuple[float, float]:
        return mean_ci(self.per_hand)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % confidence interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def run(
    ruleset: str,
    candidate: str,
    baseline: str,
    matches: int,
    options: dict[str, Any] | None = None,
    first: int = 0,
    on_match: Callable[[int, float], None] | None = None,
) -> Result:
    """The duplicate comparison of ``candidate`` against ``baseline`` over ``matches``;
    ``on_match(index, gain)`` hears each match's result as it comes."""
    hands = get_ruleset(ruleset).lengths[0]
    gains = []
    for index in range(first, first + matches):
        base = play_match(ruleset, index, [baseline] * 4, options).totals
        total = 0.0
        for seat in range(4):
            levels = [baseline] * 4
            levels[seat] = candidate
            total += play_match(ruleset, index, levels, options).totals[seat] - base[seat]
        gains.append(total / 4 / hands)
        if on_match is not None:
            on_match(index, gains[-1])
    return Result(ruleset, candidate, baseline, gains)


@dataclass(frozen=True, slots=True)
class Sale:
    hand: int
    dealer: int
    buyer: int
    price: str
    paid: int  # points
    right: float  # the simulated worth of the buyer's right, before paying


def bid_study(
    level: str,
    matches: int,
    options: dict[str, Any] | None = None,
    value_worlds: int = 400,
    first: int = 0,
) -> list[Sale]:
    """Every sold positive hand of ``matches`` matches of four ``level`` bots, with the price
    paid and the simulated worth of the right to the buyer (from his cards at the deal)."""
    sales = []
    for index in range(first, first + matches):
        dealt: dict[int, list[int]] = {}

        def on_move(
            state: OwnState, seat: int, text: str, dealt: dict[int, list[int]] = dealt
        ) -> None:
            match = cast(InternationalState, state)
            if match.phase == "bidding" and match.hand_index not in dealt:
                dealt[match.hand_index] = list(match.hands)

        final = cast(
            InternationalState,
            play_match("international", index, [level] * 4, options, on_move=on_move),
        )
        deck = int((options or {}).get("deck", 52))
        values = DECK_VALUES[deck]
        for line in final.sheet:
            if line["outcome"] != "sold":
                continue
            buyer, dealer, price = line["buyer"], line["dealer"], line["price"]
            hands = dealt[line["hand"]]
            table = world_scores(buyer, hands[buyer], dealer, deck, value_worlds)
            value = Valuation(buyer, dealer, values, table)
            right = value.right(buyer, family_contracts(price)) - value.outside(buyer)
            paid = values.bid_value(list(BID_TEXTS).index(price))
            sales.append(Sale(line["hand"], dealer, buyer, price, paid, right))
    return sales


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--candidate", default="medium")
    parser.add_argument("--baseline", default="easy")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--option", action="append", default=[], help="name=value")
    parser.add_argument("--first", type=int, default=0, help="index of the first match")
    parser.add_argument("--bids", metavar="LEVEL", help="price paid vs simulated right")
    parser.add_argument("--value-worlds", type=int, default=400)
    parser.add_argument("--progress", action="store_true", help="a line after every match")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    if args.bids:
        sales = bid_study(args.bids, args.matches, options or None, args.value_worlds, args.first)
        if not sales:
            print("no sold hand")
            return 0
        diffs = [s.right - s.paid for s in sales]
        mean, half = mean_ci(diffs)
        prices = [float(s.paid) for s in sales]
        rights = [s.right for s in sales]
        print(
            f"{args.bids}: {len(sales)} sold hands over {args.matches} matches; mean price "
            f"{sum(prices) / len(prices):.1f}, mean simulated right "
            f"{sum(rights) / len(rights):.1f}; "
            f"right - price {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]; "
            f"correlation {correlation(prices, rights):.2f}"
        )
        # No bid exceeds the ladder's top: against a right worth more, the top is all he can pay.
        values = DECK_VALUES[int(options.get("deck", 52))]
        top = values.bid_value(values.top_bid)
        capped = [min(s.right, top) for s in sales]
        mean, half = mean_ci([c - p for c, p in zip(capped, prices, strict=True)])
        print(
            f"right capped at the top bid ({top}): mean {sum(capped) / len(capped):.1f}; "
            f"capped right - price {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]; "
            f"correlation {correlation(prices, capped):.2f}"
        )
        return 0
    seen: list[float] = []

    def progress(index: int, gain: float) -> None:
        seen.append(gain)
        mean, half = mean_ci(seen)
        line = f"match {index}: {gain:+.2f}; {len(seen)} so far {mean:+.2f} ± {half:.2f}"
        print(line, flush=True)

    result = run(
        args.ruleset,
        args.candidate,
        args.baseline,
        args.matches,
        options or None,
        args.first,
        progress if args.progress else None,
    )
    mean, half = result.summary()
    print(
        f"{args.ruleset} {args.candidate} - {args.baseline}: {mean:+.2f} points a hand "
        f"[{mean - half:+.2f}, {mean + half:+.2f}] over {args.matches} matches"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
