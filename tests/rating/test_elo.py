"""Elo-FFA-4: the exact values RATING.md fixes, and the rules around them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from king_rating import elo


def test_four_equal_players_with_k12_get_plus6_plus2_minus2_minus6() -> None:
    deltas = elo.rating_deltas([1500.0] * 4, [1, 2, 3, 4], [12.0] * 4)
    assert deltas == pytest.approx([6.0, 2.0, -2.0, -6.0], abs=1e-12)


def test_with_k48_the_deltas_are_four_times_as_large() -> None:
    deltas = elo.rating_deltas([1500.0] * 4, [1, 2, 3, 4], [48.0] * 4)
    assert deltas == pytest.approx([24.0, 8.0, -8.0, -24.0], abs=1e-12)


def test_a_four_way_tie_changes_nothing() -> None:
    assert elo.rating_deltas([1500.0] * 4, [1, 1, 1, 1], [12.0] * 4) == [0.0] * 4


def test_a_shared_place_scores_half_against_each_other() -> None:
    # Two players level at the top: against each other 0.5 - 0.5 = 0; each beats two others.
    deltas = elo.rating_deltas([1500.0] * 4, [1, 1, 3, 4], [12.0] * 4)
    assert deltas == pytest.approx([4.0, 4.0, -2.0, -6.0])


def test_expected_score_uses_the_400_point_logistic_scale() -> None:
    assert elo.expected_score(1900.0, 1500.0) == pytest.approx(10 / 11)
    assert elo.expected_score(1500.0, 1500.0) == 0.5


def test_an_upset_moves_more_than_an_expected_win() -> None:
    favourite_wins = elo.rating_deltas([1800.0, 1500, 1500, 1500], [1, 2, 3, 4], [12.0] * 4)
    underdog_wins = elo.rating_deltas([1500.0, 1800, 1500, 1500], [1, 2, 3, 4], [12.0] * 4)
    assert underdog_wins[0] > favourite_wins[0] > 0


ratings = st.lists(st.floats(min_value=600, max_value=2800), min_size=4, max_size=4)
places = st.sampled_from(
    [[1, 2, 3, 4], [1, 1, 3, 4], [1, 2, 2, 4], [1, 2, 3, 3], [1, 1, 1, 4], [1, 1, 3, 3],
     [2, 1, 4, 3], [4, 3, 2, 1], [1, 1, 1, 1], [2, 2, 1, 4]]
)  # fmt: skip


@given(ratings, places, st.sampled_from([12.0, 24.0, 48.0]))
def test_with_equal_k_the_deltas_sum_to_zero(
    before: list[float], order: list[int], k: float
) -> None:
    assert sum(elo.rating_deltas(before, order, [k] * 4)) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize(
    ("played", "k"),
    [(0, 48.0), (14, 48.0), (15, 24.0), (39, 24.0), (40, 12.0), (500, 12.0)],
)
def test_k_is_48_for_the_first_15_rated_matches_then_24_until_40_then_12(
    played: int, k: float
) -> None:
    assert elo.k_factor(played) == k


def test_a_rating_with_fewer_than_15_rated_matches_is_provisional() -> None:
    assert elo.display_rating(1536.6, 14) == "1537?"
    assert elo.display_rating(1536.6, 15) == "1537"
    assert elo.is_provisional(0) and not elo.is_provisional(15)


def test_rate_match_keeps_before_after_delta_k_and_place() -> None:
    changes = elo.rate_match([1500.0] * 4, [0, 15, 40, 40], [1, 2, 3, 4])
    assert [c.k for c in changes] == [48.0, 24.0, 12.0, 12.0]
    assert changes[0].delta == pytest.approx(24.0)
    assert changes[0].rating_after == pytest.approx(1524.0)
    assert [c.place for c in changes] == [1, 2, 3, 4]
    assert changes[3].rating_before == 1500.0 and changes[3].rated_matches_before == 40


def test_every_player_starts_at_1500() -> None:
    assert elo.INITIAL_RATING == 1500.0
