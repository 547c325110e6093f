"""The weekly board, as fixed in RATING.md.

A week runs from Monday 00:00 to the next Monday 00:00 in Europe/Istanbul time and is named by
its ISO week (``2026-W49``). A match belongs to the week in which it *ended on the game
server*, whenever the rating service happens to process it.

Placement points are 3 / 2 / 1 / 0 for places 1-4; players sharing a place share the average of
the points of the places they cover; a player who forfeited gets 0 (the match still counts).
Points are therefore always multiples of one half, so they are kept doubled, as integers, and
scores are computed from exact integers (equal fractions give equal floats).

Score = (sum of points + 15) / (matches + 10): the player's average, pulled toward the neutral
1.5 by ten imaginary matches. Players with at least 5 ranked matches in the week are listed,
ordered by score, then matches, then who reached their score first.

Pure: no I/O, no clock; "now" is always an argument.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

#: The board's clock: Turkish time (UTC+3 all year since 2016; the zone keeps history right).
BOARD_ZONE: Final = ZoneInfo("Europe/Istanbul")
#: Points for places 1, 2, 3, 4.
PLACE_POINTS: Final = (3, 2, 1, 0)
#: Smoothing: this many imaginary matches at the neutral average are added to every player.
PRIOR_MATCHES: Final = 10
#: The neutral average: the mean of the place points.
PRIOR_AVERAGE: Final = 1.5
#: Ranked matches needed in a week to be listed on its board.
MIN_MATCHES: Final = 5

_LABEL = re.compile(r"^([0-9]{4})-W([0-9]{2})$")  # ASCII digits (\d: any digit)


@dataclass(frozen=True, slots=True)
class Week:
    """One board week: its label and its bounds as aware datetimes (in BOARD_ZONE)."""

    label: str
    starts_at: datetime
    ends_at: datetime

    @property
    def resets_at(self) -> datetime:
        return self.ends_at

    def next(self) -> Week:
        return week_of(self.ends_at)

    def previous(self) -> Week:
        return week_of(self.starts_at - timedelta(seconds=1))


def _week_from_monday(monday: date) -> Week:
    year, number, _ = monday.isocalendar()
    starts = datetime.combine(monday, time(0), BOARD_ZONE)
    ends = datetime.combine(monday + timedelta(days=7), time(0), BOARD_ZONE)
    return Week(label=f"{year}-W{number:02d}", starts_at=starts, ends_at=ends)


def week_of(moment: datetime) -> Week:
    """The board week that contains ``moment`` (an aware datetime)."""
    if moment.tzinfo is None:
        raise ValueError("week_of needs an aware datetime")
    local = moment.astimezone(BOARD_ZONE).date()
    return _week_from_monday(local - timedelta(days=local.weekday()))


def parse_week_label(label: str) -> Week:
    """The week named ``YYYY-Www``; ``ValueError`` if there is no such ISO week."""
    found = _LABEL.match(label)
    if not found:
        raise ValueError(f"not a week label like 2026-W49: {label!r}")
    try:
        monday = date.fromisocalendar(int(found[1]), int(found[2]), 1)
        return _week_from_monday(monday)
    except (ValueError, OverflowError) as exc:  # overflow: a week that ends after year 9999
        raise ValueError(f"no such ISO week: {label!r}") from exc


def points_x2(places: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Each seat's placement points, doubled (so shared places stay whole numbers)."""
    result = []
    for place, left in zip(places, forfeited, strict=True):
        if left:
            result.append(0)
            continue
        sharing = sum(1 for other in places if other == place)
        covered = PLACE_POINTS[place - 1 : place - 1 + sharing]
        # The average of the covered places, doubled; always a whole number for 1-4 seats.
        result.append(2 * sum(covered) // sharing)
    return result


def score(points_doubled: int, matches: int) -> float:
    """The smoothed average: (points + 15) / (matches + 10)."""
    prior_doubled = round(2 * PRIOR_AVERAGE * PRIOR_MATCHES)
    return (points_doubled + prior_doubled) / (2 * (matches + PRIOR_MATCHES))


def is_eligible(matches: int) -> bool:
    return matches >= MIN_MATCHES


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's week so far."""

    points_x2: int
    matches: int
    score: float
    reached_at: datetime | None
    last_match_at: datetime | None


EMPTY: Final = Standing(
    points_x2=0, matches=0, score=PRIOR_AVERAGE, reached_at=None, last_match_at=None
)


def add_match(standing: Standing, ended_at: datetime, match_points_x2: int) -> Standing:
    """The standing after one more match that ended at ``ended_at`` (in end-time order).

    ``reached_at`` is when the player reached their current score: it moves only when a
    match changes the score.
    """
    points = standing.points_x2 + match_points_x2
    matches = standing.matches + 1
    new_score = score(points, matches)
    reached = standing.reached_at if new_score == standing.score else ended_at
    if standing.matches == 0:
        reached = ended_at
    return Standing(
        points_x2=points,
        matches=matches,
        score=new_score,
        reached_at=reached,
        last_match_at=ended_at,
    )


def standing_from(matches: Iterable[tuple[datetime, int]]) -> Standing:
    """Replay a player's week from (ended_at, points doubled) pairs, in any order."""
    standing = EMPTY
    for ended_at, match_points in sorted(matches, key=lambda item: item[0]):
        standing = add_match(standing, ended_at, match_points)
    return standing


def board_order_key(
    standing_score: float, matches: int, reached_at: datetime, player_id: str
) -> tuple[float, int, datetime, str]:
    """Sort key for the board: score, then matches (both higher first), then reached first.

    The player id breaks any remaining tie so that ranks are stable.
    """
    return (-standing_score, -matches, reached_at, player_id)
