"""Weekly board rules: Istanbul weeks, placement points, smoothing, eligibility, order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from king_rating import weekly

IST = weekly.BOARD_ZONE


def test_sunday_2359_istanbul_belongs_to_the_week_that_is_ending() -> None:
    # 2026-12-06 is a Sunday; 23:59 in Istanbul is 20:59 UTC.
    moment = datetime(2026, 12, 6, 23, 59, 59, tzinfo=IST)
    assert weekly.week_of(moment).label == "2026-W49"
    assert weekly.week_of(moment.astimezone(UTC)).label == "2026-W49"


def test_monday_0000_istanbul_starts_the_next_week_although_it_is_still_sunday_in_utc() -> None:
    moment = datetime(2026, 12, 6, 21, 0, tzinfo=UTC)  # Monday 00:00 in Istanbul
    week = weekly.week_of(moment)
    assert week.label == "2026-W50"
    assert week.starts_at == moment
    assert weekly.week_of(moment - timedelta(microseconds=1)).label == "2026-W49"


def test_a_week_runs_monday_to_monday_in_istanbul_and_resets_at_its_end() -> None:
    week = weekly.parse_week_label("2026-W49")
    assert week.starts_at == datetime(2026, 11, 30, 0, 0, tzinfo=IST)
    assert week.ends_at == datetime(2026, 12, 7, 0, 0, tzinfo=IST)
    assert week.resets_at == week.ends_at
    assert week.starts_at.astimezone(UTC) == datetime(2026, 11, 29, 21, 0, tzinfo=UTC)
    assert week.next().label == "2026-W50" and week.previous().label == "2026-W48"


def test_iso_week_labels_cross_the_year_like_iso_8601() -> None:
    assert weekly.week_of(datetime(2027, 1, 1, 12, tzinfo=IST)).label == "2026-W53"
    assert weekly.parse_week_label("2026-W53").ends_at == datetime(2027, 1, 4, tzinfo=IST)


@pytest.mark.parametrize(
    "label", ["2026-49", "2026-W5", "2026-W00", "2025-W53", "x", "9999-W52", "２０２６-W49"]
)
def test_bad_week_labels_are_refused(label: str) -> None:
    with pytest.raises(ValueError):
        weekly.parse_week_label(label)


@pytest.mark.parametrize(
    ("places", "forfeited", "doubled"),
    [
        ([1, 2, 3, 4], [False] * 4, [6, 4, 2, 0]),
        ([1, 1, 3, 4], [False] * 4, [5, 5, 2, 0]),
        ([1, 2, 2, 2], [False] * 4, [6, 2, 2, 2]),
        ([1, 1, 1, 4], [False] * 4, [4, 4, 4, 0]),
        ([1, 1, 1, 1], [False] * 4, [3, 3, 3, 3]),
        ([1, 2, 3, 3], [False] * 4, [6, 4, 1, 1]),
        ([1, 2, 3, 4], [False, False, False, True], [6, 4, 2, 0]),
        ([1, 2, 3, 3], [False, False, True, True], [6, 4, 0, 0]),
    ],
)
def test_placement_points_are_3_2_1_0_shared_places_average_and_forfeits_get_0(
    places: list[int], forfeited: list[bool], doubled: list[int]
) -> None:
    assert weekly.points_x2(places, forfeited) == doubled


def test_score_is_the_average_pulled_toward_1_5_by_ten_imaginary_matches() -> None:
    assert weekly.score(0, 0) == 1.5
    assert weekly.score(2 * 15, 5) == (15 + 15) / (5 + 10)  # five wins: 2.0
    assert weekly.score(2 * 3, 1) == pytest.approx(18 / 11)  # one lucky win barely moves


def test_one_lucky_match_does_not_beat_a_steady_week() -> None:
    lucky = weekly.score(2 * 3, 1)
    steady = weekly.score(2 * (3 * 8 + 2 * 4), 12)  # 8 wins and 4 seconds
    assert steady > lucky


def test_volume_alone_does_not_top_the_board() -> None:
    grinder = weekly.score(2 * 150, 100)  # average 1.5 over 100 matches
    good = weekly.score(2 * 12, 5)  # average 2.4 over 5 matches
    assert good > grinder


def test_five_ranked_matches_are_needed_to_be_listed() -> None:
    assert not weekly.is_eligible(4) and weekly.is_eligible(5)


def test_reached_at_moves_only_when_the_score_changes() -> None:
    t0 = datetime(2026, 12, 1, 10, tzinfo=UTC)
    standing = weekly.add_match(weekly.EMPTY, t0, 3)  # 1.5 points: score stays 1.5
    assert standing.score == 1.5 and standing.reached_at == t0  # first match sets it
    later = weekly.add_match(standing, t0 + timedelta(hours=1), 3)
    assert later.score == 1.5 and later.reached_at == t0
    moved = weekly.add_match(later, t0 + timedelta(hours=2), 6)
    assert moved.reached_at == t0 + timedelta(hours=2)


def test_standing_replay_is_independent_of_arrival_order() -> None:
    t0 = datetime(2026, 12, 1, 10, tzinfo=UTC)
    games = [(t0 + timedelta(hours=i), pts) for i, pts in enumerate([6, 3, 0, 4, 3, 5])]
    assert weekly.standing_from(games) == weekly.standing_from(reversed(games))


def test_board_order_is_score_then_matches_then_who_reached_it_first() -> None:
    t0 = datetime(2026, 12, 1, 10, tzinfo=UTC)
    rows = [
        ("late", 2.0, 10, t0 + timedelta(hours=1)),
        ("early", 2.0, 10, t0),
        ("more", 2.0, 12, t0 + timedelta(hours=5)),
        ("best", 2.1, 5, t0 + timedelta(hours=9)),
    ]
    ordered = sorted(rows, key=lambda r: weekly.board_order_key(r[1], r[2], r[3], r[0]))
    assert [r[0] for r in ordered] == ["best", "more", "early", "late"]
