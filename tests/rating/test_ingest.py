"""Ingestion into Postgres: archive, ratings, history and the weekly board, exactly once."""

from __future__ import annotations

import itertools
import threading
from datetime import UTC, datetime, timedelta

import pytest

from king_rating import weekly
from king_rating.store import Ingested, Store

from .conftest import MakeMatch, query

pytestmark = pytest.mark.integration

PLAYERS = ("ayse", "burak", "cem", "deniz")
# Wednesday of ISO week 2026-W49 in Istanbul.
MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def ratings(url: str, ruleset: str = "standard") -> dict[str, tuple[float, int]]:
    """Every player's rating and rated matches in ``ruleset`` (1500 and 0 before any)."""
    rows = query(
        url,
        "SELECT p.player_id, coalesce(r.rating, 1500), coalesce(r.rated_matches, 0) "
        "FROM players p LEFT JOIN ratings r ON r.player_id = p.player_id AND r.ruleset = %s",
        (ruleset,),
    )
    return {pid: (rating, played) for pid, rating, played in rows}


def test_a_ranked_live_match_is_archived_rated_and_counted(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    message = make_match(PLAYERS, ended_at=MIDWEEK)
    assert store.ingest(message) is Ingested.RATED
    assert ratings(schema_url) == {
        "ayse": (1524.0, 1),
        "burak": (1508.0, 1),
        "cem": (1492.0, 1),
        "deniz": (1476.0, 1),
    }
    history = query(
        schema_url,
        "SELECT player_id, rating_before, rating_after, delta, k, place FROM rating_history "
        "ORDER BY place",
    )
    assert history[0] == ("ayse", 1500.0, 1524.0, 24.0, 48.0, 1)
    board = query(schema_url, "SELECT player_id, points_x2, matches, week FROM weekly_scores")
    assert sorted(board) == [
        ("ayse", 6, 1, "2026-W49"),
        ("burak", 4, 1, "2026-W49"),
        ("cem", 2, 1, "2026-W49"),
        ("deniz", 0, 1, "2026-W49"),
    ]
    archived = store.match(message.match_id)
    assert archived["fairness"] == message.fairness
    assert [seat["total"] for seat in archived["players"]] == [90, 80, 70, 60]


def test_a_duplicate_message_changes_nothing(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    message = make_match(PLAYERS, ended_at=MIDWEEK)
    store.ingest(message)
    before = ratings(schema_url)
    assert store.ingest(message) is Ingested.DUPLICATE
    assert ratings(schema_url) == before
    assert query(schema_url, "SELECT count(*) FROM rating_history") == [(4,)]
    assert query(schema_url, "SELECT sum(matches) FROM weekly_scores") == [(4,)]


@pytest.mark.parametrize(
    "kind",
    [
        {"mode": "computer", "bots": (False, True, True, True)},
        {"ranked": False},
        {"outcome": "aborted"},
    ],
    ids=["against-the-computer", "casual", "aborted"],
)
def test_unrated_matches_are_archived_but_never_rated(
    store: Store, schema_url: str, make_match: MakeMatch, kind: dict[str, object]
) -> None:
    message = make_match(PLAYERS, ended_at=MIDWEEK, **kind)
    assert store.ingest(message) is Ingested.ARCHIVED
    assert query(schema_url, "SELECT rated FROM matches") == [(False,)]
    assert query(schema_url, "SELECT count(*) FROM rating_history") == [(0,)]
    assert query(schema_url, "SELECT count(*) FROM weekly_scores") == [(0,)]
    assert all(rating == (1500.0, 0) for rating in ratings(schema_url).values())
    assert store.player_matches("ayse", 1, 10).items[0]["match_id"].hex == message.match_id.replace(
        "-", ""
    )


def test_the_same_message_delivered_concurrently_is_applied_once(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    message = make_match(PLAYERS, ended_at=MIDWEEK)
    results: list[Ingested] = []
    barrier = threading.Barrier(8)

    def deliver() -> None:
        barrier.wait()
        results.append(store.ingest(message))

    threads = [threading.Thread(target=deliver) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == sorted([Ingested.RATED] + [Ingested.DUPLICATE] * 7)
    assert ratings(schema_url)["ayse"] == (1524.0, 1)
    assert query(schema_url, "SELECT count(*) FROM rating_history") == [(4,)]


def test_concurrent_matches_sharing_players_all_apply_without_losing_updates(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    pool = ["p1", "p2", "p3", "p4", "p5", "p6"]
    messages = [
        make_match([pool[(i + j) % 6] for j in range(4)], ended_at=MIDWEEK + timedelta(minutes=i))
        for i in range(30)
    ]
    chunks = [messages[i::6] for i in range(6)]

    def deliver(chunk: list) -> None:  # type: ignore[type-arg]
        for message in chunk:
            store.ingest(message)

    threads = [threading.Thread(target=deliver, args=(chunk,)) for chunk in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    current = ratings(schema_url)
    assert sum(played for _, played in current.values()) == 30 * 4
    # Each player's history chains: every "before" is the previous "after".
    for player in pool:
        rows = query(
            schema_url,
            "SELECT rating_before, rating_after FROM rating_history WHERE player_id = %s "
            "ORDER BY seq",
            (player,),
        )
        assert rows[0][0] == 1500.0
        assert all(prev[1] == nxt[0] for prev, nxt in itertools.pairwise(rows))
        assert rows[-1][1] == current[player][0]
    assert query(schema_url, "SELECT sum(matches) FROM weekly_scores") == [(120,)]


def test_a_match_counts_for_the_week_in_which_it_ended_not_when_it_was_processed(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    last_minute_of_week = datetime(2026, 12, 6, 20, 59, tzinfo=UTC)  # Sunday 23:59 Istanbul
    first_minute_of_next_week = datetime(2026, 12, 6, 21, 1, tzinfo=UTC)  # Monday 00:01 Istanbul
    store.ingest(make_match(PLAYERS, ended_at=first_minute_of_next_week))
    store.ingest(make_match(PLAYERS, ended_at=last_minute_of_week))  # ingested second, ended first
    rows = query(
        schema_url,
        "SELECT week, sum(matches) FROM weekly_scores GROUP BY week ORDER BY week",
    )
    assert rows == [("2026-W49", 4), ("2026-W50", 4)]


def test_out_of_order_arrival_gives_the_same_board_as_in_order(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    places = [(1, 2, 3, 4), (4, 3, 2, 1), (1, 1, 3, 4), (2, 1, 4, 3), (1, 2, 3, 4), (3, 4, 1, 2)]
    messages = [
        make_match(PLAYERS, p, ended_at=MIDWEEK + timedelta(hours=i)) for i, p in enumerate(places)
    ]
    for message in reversed(messages):
        store.ingest(message)
    got = query(
        schema_url,
        "SELECT player_id, points_x2, matches, score, reached_at, last_match_at "
        "FROM weekly_scores ORDER BY player_id",
    )
    for player_id, points, matches, score, reached_at, last in got:
        seat = PLAYERS.index(player_id)
        games = [
            (m.ended, weekly.points_x2([s.place for s in m.players], [False] * 4)[seat])
            for m in messages
        ]
        expected = weekly.standing_from(games)
        assert (points, matches, score, reached_at, last) == (
            expected.points_x2,
            expected.matches,
            expected.score,
            expected.reached_at,
            expected.last_match_at,
        )


def test_a_forfeiting_player_gets_no_points_but_the_match_counts(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    store.ingest(
        make_match(
            PLAYERS,
            (1, 2, 3, 4),
            outcome="forfeit",
            forfeited=(False, False, False, True),
            ended_at=MIDWEEK,
        )
    )
    rows = dict(query(schema_url, "SELECT player_id, points_x2 FROM weekly_scores"))
    assert rows["deniz"] == 0
    assert query(schema_url, "SELECT sum(matches) FROM weekly_scores") == [(4,)]


def test_a_finished_week_is_frozen_and_a_late_match_is_rated_but_leaves_it_alone(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    week = weekly.parse_week_label("2026-W49")
    for i in range(5):
        store.ingest(make_match(PLAYERS, ended_at=MIDWEEK + timedelta(hours=i)))
    after_grace = week.ends_at + store.freeze_grace + timedelta(seconds=1)
    assert store.week_state(week, week.ends_at) == "live"
    assert store.week_state(week, after_grace) == "frozen"
    frozen = store.board(week, 1, 10, after_grace)
    assert [e["player_id"] for e in frozen.items] == list(PLAYERS)
    late = make_match(PLAYERS, (4, 3, 2, 1), ended_at=MIDWEEK)
    assert store.ingest(late) is Ingested.RATED_LATE
    assert ratings(schema_url)["deniz"][1] == 6
    again = store.board(week, 1, 10, after_grace)
    assert again.items == frozen.items
    assert store.freeze_week(week) is False
