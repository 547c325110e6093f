"""The quick-match pairing rule, pure: no Redis, no service."""

from __future__ import annotations

import random
from itertools import combinations

from king_match.quickmatch import Waiter, Window, pair

WINDOW = Window(base=100, growth_per_s=5, cap=400)
NOW = 1_000_000


def waiter(name: str, rating: int, waited_s: float = 0) -> Waiter:
    return Waiter(name, rating, NOW - int(waited_s * 1000))


def ids(tables: list[list[Waiter]]) -> list[list[str]]:
    return [[w.player_id for w in table] for table in tables]


def test_the_window_widens_with_waiting_time_up_to_its_cap() -> None:
    assert WINDOW.at(0) == 100
    assert WINDOW.at(10_000) == 150
    assert WINDOW.at(60_000) == 400
    assert WINDOW.at(600_000) == 400
    assert WINDOW.at(-5_000) == 100  # a clock a little ahead of the joiner's never narrows it


def test_four_close_ratings_make_a_table_and_three_do_not() -> None:
    three = [waiter("a", 1500, 3), waiter("b", 1520, 2), waiter("c", 1480, 1)]
    assert pair(three, NOW, WINDOW) == []
    assert ids(pair([*three, waiter("d", 1510)], NOW, WINDOW)) == [["a", "d", "b", "c"]]


def test_a_player_outside_the_narrow_window_waits_until_it_has_widened() -> None:
    pool = [waiter("a", 1500), waiter("b", 1500), waiter("c", 1500), waiter("far", 1700)]
    assert pair(pool, NOW, WINDOW) == []
    # After 20 s each window is ±200: every two now accept each other.
    later = NOW + 20_000
    assert {w.player_id for w in pair(pool, later, WINDOW)[0]} == {"a", "b", "c", "far"}


def test_both_players_must_accept_each_other() -> None:
    # The old waiter's window is wide, the newcomer's is still ±100: 1500 and 1750 do not meet.
    pool = [
        waiter("old", 1500, 60),
        waiter("x", 1510, 60),
        waiter("y", 1490, 60),
        waiter("new", 1750, 0),
    ]
    assert pair(pool, NOW, WINDOW) == []


def test_the_oldest_waiter_is_served_first_with_the_closest_ratings() -> None:
    pool = [
        waiter("young", 1500, 1),
        waiter("oldest", 1600, 30),
        *(waiter(f"n{i}", 1600 + d, 5) for i, d in enumerate((10, -20, 30, 90, -95))),
    ]
    tables = pair(pool, NOW, WINDOW)
    assert ids(tables)[0] == ["oldest", "n0", "n1", "n2"]


def test_an_anchor_that_cannot_fill_a_table_does_not_stall_the_others() -> None:
    pool = [waiter("lonely", 2600, 50), *(waiter(f"p{i}", 1500 + i, 10 - i) for i in range(4))]
    assert ids(pair(pool, NOW, WINDOW)) == [["p0", "p1", "p2", "p3"]]


def test_max_anchors_bounds_the_failed_attempts_of_one_pass() -> None:
    lonely = [waiter(f"l{i}", 1000 + 1000 * i, 50 - i) for i in range(3)]
    pool = [*lonely, *(waiter(f"p{i}", 1500, 1) for i in range(4))]
    assert pair(pool, NOW, WINDOW, max_anchors=3) == []
    assert len(pair(pool, NOW, WINDOW, max_anchors=4)) == 1


def test_generated_pools_tables_are_disjoint_and_within_every_window() -> None:
    rng = random.Random(11)
    for _ in range(200):
        pool = [
            waiter(f"w{i}", int(rng.gauss(1500, 250)), rng.uniform(0, 90))
            for i in range(rng.randrange(0, 40))
        ]
        tables = pair(pool, NOW, WINDOW, max_tables=20)
        seen = [w.player_id for table in tables for w in table]
        assert len(seen) == len(set(seen))
        for table in tables:
            assert len(table) == 4
            for one, other in combinations(table, 2):
                limit = min(WINDOW.at(NOW - one.joined_ms), WINDOW.at(NOW - other.joined_ms))
                assert abs(one.rating - other.rating) <= limit
        assert len(tables) <= 20
