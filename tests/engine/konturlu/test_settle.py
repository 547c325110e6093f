"""The settlement (RULES-konturlu.md §5) as a pure function, on every worked example of the
spec (§5.6 S1–S4, S2′; §5.7 T5–T9) with the spec's exact numbers, and the §6.3 invariants."""

from __future__ import annotations

import random

import pytest

from king_engine.konturlu.settle import Eating, durt_points, settle

SUR, KONTUR = 2, 1


def test_s1_durt_example_pair_only_no_eating() -> None:
    gains = durt_points([2, 0, 3, 1])  # Güney 1st, Kuzey 2nd, Batı 3rd, Doğu 4th
    assert gains == [20, -10, 45, 10]
    result = settle(gains, {(2, 3): SUR}, penalty=False)
    assert result.scores == (20, -10, 115, -60)
    assert result.eatings == ()
    assert sum(result.scores) == 65


def test_s2_el_almaz_surulu_partner_eats_before_a_cakili_one() -> None:
    points = [10, 20, 30, 5]  # tricks 2, 4, 6, 1
    result = settle(points, {(0, 2): KONTUR, (0, 1): SUR}, penalty=True)
    assert result.scores == (40, -50, -50, -5)
    assert result.eatings == (Eating(0, 1, 10),)
    assert sum(result.scores) == -65


def test_s2_prime_both_surulu_the_one_with_more_eats() -> None:
    result = settle([10, 20, 30, 5], {(0, 2): SUR, (0, 1): SUR}, penalty=True)
    assert result.scores == (60, -40, -80, -5)
    assert result.eatings[0] == Eating(0, 2, 10)


@pytest.mark.parametrize("east", [0, 6, 12, 18, 24])
def test_s3_two_player_erkek(east: int) -> None:
    west = 24 - east  # Doğu and Batı share the other 4 boys in any split
    result = settle([6, east, 18, west], {(0, 2): KONTUR}, penalty=True)
    assert result.scores[0] == 12
    assert result.scores[2] == -36
    assert (result.scores[1], result.scores[3]) == (-east, -west)
    assert sum(result.scores) == -48


def test_s4_big_erkek_example() -> None:
    pairs = {(0, 1): SUR, (1, 3): SUR, (2, 3): SUR, (1, 2): KONTUR}
    result = settle([6, 12, 12, 18], pairs, penalty=True)
    assert result.scores == (12, -6, 12, -66)
    assert result.eatings == (Eating(0, 1, 6), Eating(1, 3, 12), Eating(2, 3, 12))
    assert [(t.winner, t.loser, t.amount) for t in result.transfers] == [
        (0, 1, 12),
        (1, 3, 12),
        (2, 3, 12),
    ]


def test_t5_masa_by_two_players() -> None:
    pairs = {(0, 1): SUR, (1, 3): SUR, (2, 3): SUR, (0, 3): KONTUR, (1, 2): KONTUR}
    result = settle([15, 25, 5, 20], pairs, penalty=True)
    assert result.scores == (25, -110, 50, -30)
    assert result.eatings == (Eating(0, 1, 15), Eating(2, 3, 5), Eating(3, 1, 20))


def test_t6_eating_tie_goes_to_the_first_after_the_eaten_seat() -> None:
    pairs = {(0, 2): SUR, (0, 3): SUR, (2, 3): SUR, (1, 2): KONTUR}
    result = settle([3, 12, 12, 12], pairs, penalty=True)
    assert result.scores == (36, -12, -33, -30)
    assert result.eatings == (Eating(0, 2, 3),)


def test_t7_koz() -> None:
    result = settle([15, 30, 10, 10], {(0, 1): KONTUR, (1, 3): SUR}, penalty=False)
    assert result.scores == (0, 85, 10, -30)
    assert sum(result.scores) == 65


def test_t8_son_iki_eating_falls_back_to_the_cakili_tier() -> None:
    pairs = {(0, 1): SUR, (1, 3): SUR, (0, 3): KONTUR, (1, 2): KONTUR}
    result = settle([10, 0, 0, 20], pairs, penalty=True)
    assert result.scores == (-10, 60, 0, -80)
    assert result.eatings == (Eating(0, 3, 10),)


def test_t9_rifki() -> None:
    pairs = {(0, 3): SUR, (0, 2): KONTUR, (1, 3): KONTUR}
    result = settle([0, 0, 0, 30], pairs, penalty=True)
    assert result.scores == (60, 30, 0, -120)
    assert result.eatings == ()


def test_no_relations_every_score_is_the_base() -> None:
    assert settle([5, 10, 20, 30], {}, penalty=True).scores == (-5, -10, -20, -30)
    assert settle([20, -10, 45, 10], {}, penalty=False).scores == (20, -10, 45, 10)


def test_equal_points_move_nothing() -> None:
    result = settle([12, 12, 0, 24], {(0, 1): SUR}, penalty=True)
    assert result.transfers == ()
    assert result.eatings == ()


def _random_pairs(rng: random.Random) -> dict[tuple[int, int], int]:
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    return {pair: rng.choice((0, 1, 2)) for pair in pairs}


def test_invariants_on_random_hands() -> None:
    """§6.3: the sum is the base sum; doubling every m doubles exactly the pair terms; a
    seat in no pair keeps its base; nobody eats from or pays to a seat it has no relation
    with."""
    rng = random.Random(7)
    for _ in range(2000):
        penalty = rng.random() < 0.7
        points = [rng.choice((0, 5, 10, 15, 20, 30)) for _ in range(4)]
        pairs = _random_pairs(rng)
        result = settle(points, pairs, penalty=penalty)
        assert sum(result.scores) == sum(result.base)
        ones = {pair: 1 for pair, m in pairs.items() if m}
        twos = {pair: 2 for pair, m in pairs.items() if m}
        single, double = settle(points, ones, penalty=False), settle(points, twos, penalty=False)
        for seat in range(4):
            assert double.scores[seat] - double.base[seat] == 2 * (
                single.scores[seat] - single.base[seat]
            )
            if all(pairs.get(tuple(sorted((seat, o))), 0) == 0 for o in range(4) if o != seat):
                assert result.scores[seat] == result.base[seat]
        for t in result.transfers:
            assert pairs[tuple(sorted((t.winner, t.loser)))] > 0
        for e in result.eatings:
            assert pairs[tuple(sorted((e.eaten, e.eater)))] > 0
            assert points[e.eater] > points[e.eaten]
