"""Settlement of one konturlu hand (RULES-konturlu.md §5): a pure function.

Inputs are the hand's points per seat (penalty points P >= 0 in the six penalty contracts,
gains G in Koz and Dürt) and the pair multipliers m(a, b) of the challenge phase (0 none,
1 çakılı, 2 sürülü). Two steps:

* pair transfers (§5.2): for every pair with m > 0 the seat that did better receives
  m × (difference) from the other; equal points move nothing;
* eating (§5.3, penalty contracts only): each seat with P > 0 hands its own P to at most one
  partner that took strictly more: the sürülü partner with the most points if any beats it,
  else the çakılı one; ties go to the first of them in play order after the eaten seat (D17).
  Only the eaten seat's own base points move, once, whatever the multiplier (D18).

Every transfer is +t to one seat and −t to another, so the scores add up to the contract's
total (§6.1); ``settle`` asserts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

SEATS: Final = 4
#: The six unordered pairs in a fixed order: the order transfers are listed in.
PAIRS: Final = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
#: Dürt place points, 1st to 4th (§4.7).
DURT_PLACE_POINTS: Final = (45, 20, 10, -10)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One pair term: ``winner`` receives ``amount`` = multiplier × difference from ``loser``."""

    winner: int
    loser: int
    multiplier: int
    amount: int

    def to_dict(self) -> dict[str, int]:
        return {
            "to": self.winner,
            "from": self.loser,
            "multiplier": self.multiplier,
            "amount": self.amount,
        }


@dataclass(frozen=True, slots=True)
class Eating:
    """Seat ``eaten``'s own ``points`` are booked to ``eater`` (+points / −points)."""

    eaten: int
    eater: int
    points: int

    def to_dict(self) -> dict[str, int]:
        return {"eaten": self.eaten, "eater": self.eater, "points": self.points}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The breakdown of a hand's scores: base, pair transfers, eatings, and the scores."""

    base: tuple[int, ...]
    transfers: tuple[Transfer, ...]
    eatings: tuple[Eating, ...]
    scores: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": list(self.base),
            "transfers": [t.to_dict() for t in self.transfers],
            "eaten": [e.to_dict() for e in self.eatings],
            "scores": list(self.scores),
        }


def _multiplier_table(pairs: Mapping[tuple[int, int], int]) -> list[list[int]]:
    table = [[0] * SEATS for _ in range(SEATS)]
    for (a, b), m in pairs.items():
        if not (0 <= a < SEATS and 0 <= b < SEATS and a != b) or m not in (0, 1, 2):
            raise ValueError(f"bad pair {(a, b)!r} with multiplier {m!r}")
        if table[a][b] and table[a][b] != m:
            raise ValueError(f"pair {(a, b)!r} given twice with different multipliers")
        table[a][b] = table[b][a] = m
    return table


def eater_of(seat: int, points: Sequence[int], table: Sequence[Sequence[int]]) -> int | None:
    """Who eats ``seat``'s penalty points (§5.3), or None: sürülü tier first, then çakılı."""
    own = points[seat]
    if own <= 0:
        return None
    for tier in (2, 1):
        best: int | None = None
        for step in (1, 2, 3):  # play order after the eaten seat: the tie rule (D17)
            other = (seat + step) % SEATS
            if (
                table[seat][other] == tier
                and points[other] > own
                and (best is None or points[other] > points[best])
            ):
                best = other
        if best is not None:
            return best
    return None


def settle(
    points: Sequence[int], pairs: Mapping[tuple[int, int], int], *, penalty: bool
) -> Settlement:
    """The scores of a hand from its points and its pair multipliers.

    ``points``: P_i (``penalty=True``: penalty points, scored −P_i) or G_i (Koz, Dürt: gains,
    scored +G_i). ``pairs``: {(a, b): m} for the pairs with a relation (either order; missing
    pairs are m = 0).
    """
    if len(points) != SEATS:
        raise ValueError("four seats' points are needed")
    if penalty and any(p < 0 for p in points):
        raise ValueError("penalty points are never negative")
    table = _multiplier_table(pairs)
    sign = -1 if penalty else 1
    base = tuple(sign * p for p in points)
    scores = list(base)
    transfers: list[Transfer] = []
    for a, b in PAIRS:
        m = table[a][b]
        # "Did better": fewer penalty points, or more gains; base scores compare the same way.
        if m == 0 or base[a] == base[b]:
            continue
        winner, loser = (a, b) if base[a] > base[b] else (b, a)
        amount = m * (base[winner] - base[loser])
        scores[winner] += amount
        scores[loser] -= amount
        transfers.append(Transfer(winner, loser, m, amount))
    eatings: list[Eating] = []
    if penalty:
        for seat in range(SEATS):
            eater = eater_of(seat, points, table)
            if eater is not None:
                scores[seat] += points[seat]
                scores[eater] -= points[seat]
                eatings.append(Eating(seat, eater, points[seat]))
    assert sum(scores) == sum(base), "a settlement moves points, it never makes them"
    return Settlement(base, tuple(transfers), tuple(eatings), tuple(scores))


def durt_points(places: Sequence[int]) -> list[int]:
    """G per seat from the finishing order ``places`` (seats, 1st first): 45/20/10/−10."""
    if sorted(places) != list(range(SEATS)):
        raise ValueError(f"{places!r} is not an order of the four seats")
    gains = [0] * SEATS
    for place, seat in enumerate(places):
        gains[seat] = DURT_PLACE_POINTS[place]
    return gains


__all__ = [
    "DURT_PLACE_POINTS",
    "PAIRS",
    "Eating",
    "Settlement",
    "Transfer",
    "durt_points",
    "eater_of",
    "settle",
]
