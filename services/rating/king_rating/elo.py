"""Elo for four players each for themselves ("Elo-FFA-4"), as fixed in RATING.md.

A four-player match is scored as the six head-to-head pairings it contains. For each pair the
result is 1 for the player placed above, 0.5 each if level, 0 for the one below; the expected
result is the usual logistic curve over the rating difference (400-point scale), computed from
the ratings before the match. Each player's change is ``K/3`` times the sum of (result -
expected) over their three opponents, so a player's K is spread across the pairings rather
than applied three times. K falls with experience: 48 for a player's first 15 rated matches,
24 until 40, then 12. A rating with fewer than 15 rated matches is provisional.

Pure: no I/O, no clock. Places come in already decided: the message carries the engine's
places (usually by totals, equal totals sharing; after a King in ``traditional`` the King maker
first and the other three sharing second; players who forfeited last), never the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: Every player's first rating.
INITIAL_RATING: Final = 1500.0
#: The logistic scale: a 400-point gap means 10:1 expected odds.
SCALE: Final = 400.0
#: The K schedule from RATING.md: (rated matches played before this one below, K).
K_SCHEDULE: Final = ((15, 48.0), (40, 24.0))
#: K once a player has 40 rated matches.
K_SETTLED: Final = 12.0
#: Below this many rated matches a rating is provisional.
PROVISIONAL_BELOW: Final = 15


def k_factor(rated_matches_before: int) -> float:
    """K for a player who has already played ``rated_matches_before`` rated matches."""
    for below, k in K_SCHEDULE:
        if rated_matches_before < below:
            return k
    return K_SETTLED


def is_provisional(rated_matches: int) -> bool:
    return rated_matches < PROVISIONAL_BELOW


def display_rating(rating: float, rated_matches: int) -> str:
    """The rating as shown to people: rounded, with ``?`` while provisional (``1537?``)."""
    shown = str(round(rating))
    return f"{shown}?" if is_provisional(rated_matches) else shown


def expected_score(rating: float, opponent: float) -> float:
    """Expected head-to-head result of ``rating`` against ``opponent``."""
    odds: float = 10.0 ** ((opponent - rating) / SCALE)  # (float ** float is Any to mypy)
    return 1.0 / (1.0 + odds)


def pair_result(place: int, opponent_place: int) -> float:
    """1 if placed above the opponent (a smaller place), 0.5 if level, 0 if below."""
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def rating_deltas(
    ratings: Sequence[float], places: Sequence[int], k_factors: Sequence[float]
) -> list[float]:
    """Each player's rating change: ``(K_i / (n-1)) * sum_j (S_ij - E_ij)``."""
    count = len(ratings)
    if count < 2 or len(places) != count or len(k_factors) != count:
        raise ValueError("ratings, places and k_factors must have the same length >= 2")
    opponents = count - 1
    deltas = []
    for i in range(count):
        total = 0.0
        for j in range(count):
            if i != j:
                total += pair_result(places[i], places[j]) - expected_score(ratings[i], ratings[j])
        deltas.append(k_factors[i] / opponents * total)
    return deltas


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What is kept per match and player, so history can be replayed if constants change."""

    rating_before: float
    rating_after: float
    delta: float
    k: float
    place: int
    rated_matches_before: int


def rate_match(
    ratings: Sequence[float], rated_matches: Sequence[int], places: Sequence[int]
) -> list[RatingChange]:
    """Rate one match from the players' ratings and rated-match counts before it."""
    ks = [k_factor(played) for played in rated_matches]
    deltas = rating_deltas(ratings, places, ks)
    return [
        RatingChange(
            rating_before=rating,
            rating_after=rating + delta,
            delta=delta,
            k=k,
            place=place,
            rated_matches_before=played,
        )
        for rating, played, place, k, delta in zip(
            ratings, rated_matches, places, ks, deltas, strict=True
        )
    ]
