"""Every ruleset rated apart: a match moves only the ratings, history, board and ladder of its
own ruleset; every read names its ruleset (``standard`` by default, an unknown name is a 400);
places come from the message, so a King in ``traditional`` rates and scores as the engine
placed it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient
from rq import Queue

from king_message import RATED_RULESETS, FinishedMatch
from king_rating import elo, jobs, weekly
from king_rating.app import create_app
from king_rating.batch import ingest_batch
from king_rating.config import Settings
from king_rating.store import Ingested, Store

from .conftest import build_match, query

pytestmark = pytest.mark.integration

PLAYERS = ("ayse", "burak", "cem", "deniz")
MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # Wednesday of 2026-W49 in Istanbul


@pytest.fixture
def client(store: Store, redis_url: str) -> Iterator[FlaskClient]:
    app = create_app(
        Settings(database_url="unused", redis_url=redis_url),
        store=store,
        clock=lambda: MIDWEEK + timedelta(hours=12),
    )
    with app.test_client() as test_client:
        yield test_client


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body


def play(store: Store, ruleset: str, count: int, places: Any = (1, 2, 3, 4)) -> None:
    for i in range(count):
        ended = MIDWEEK + timedelta(minutes=i)
        store.ingest(build_match(PLAYERS, places, ended_at=ended, ruleset=ruleset))


def test_a_classic20_match_moves_only_the_classic20_rating_history_board_and_ladder(
    client: FlaskClient, store: Store
) -> None:
    play(store, "standard", 15)
    standard = client.get("/players/ayse/rating").get_json()
    play(store, "classic20", 16, places=(4, 3, 2, 1))
    after = client.get("/players/ayse/rating").get_json()
    assert {**after, "ratings": None} == {**standard, "ratings": None}
    classic = client.get("/players/ayse/rating?ruleset=classic20").get_json()
    assert classic["ruleset"] == "classic20" and classic["rated_matches"] == 16
    assert classic["rating"] < 1500 < standard["rating"]
    assert [(r["ruleset"], r["rated_matches"]) for r in classic["ratings"]] == [
        ("standard", 15),
        ("classic20", 16),
    ]
    assert classic["ratings"] == after["ratings"]
    assert classic["ratings"][0] == {k: v for k, v in standard.items() if k in after["ratings"][0]}
    history = client.get("/players/ayse/rating-history?page_size=100").get_json()["items"]
    assert len(history) == 15 and all(item["place"] == 1 for item in history)
    history = client.get("/players/ayse/rating-history?ruleset=classic20&page_size=100")
    assert [item["place"] for item in history.get_json()["items"]] == [4] * 16
    # The ladder lists established players of its own ruleset only.
    top = client.get("/ladder").get_json()["items"][0]
    assert (top["player_id"], top["rated_matches"]) == ("ayse", 15)
    top = client.get("/ladder?ruleset=classic20").get_json()["items"][0]
    assert (top["player_id"], top["rated_matches"]) == ("deniz", 16)
    assert client.get("/ladder?ruleset=traditional").get_json()["items"] == []
    # Each ruleset has its own board of the week.
    board = client.get("/weekly/current").get_json()
    assert board["ruleset"] == "standard"
    top = board["items"][0]
    assert (top["player_id"], top["matches"]) == ("ayse", 15)
    board = client.get("/weekly/2026-W49?ruleset=classic20").get_json()
    assert board["ruleset"] == "classic20"
    top = board["items"][0]
    assert (top["player_id"], top["matches"]) == ("deniz", 16)
    rank = client.get("/weekly/current/players/ayse?ruleset=classic20").get_json()
    assert (rank["ruleset"], rank["rank"], rank["matches"]) == ("classic20", 4, 16)
    assert client.get("/weekly/current/players/ayse").get_json()["rank"] == 1


def test_without_a_ruleset_every_read_means_standard(client: FlaskClient, store: Store) -> None:
    play(store, "standard", 16)
    play(store, "classic20", 3, places=(4, 3, 2, 1))
    for path in (
        "/players/ayse/rating",
        "/players/ayse/rating-history",
        "/ladder",
        "/weekly/current",
        "/weekly/2026-W49",
        "/weekly/current/players/ayse",
    ):
        plain = client.get(path).get_json()
        named = client.get(path + ("&" if "?" in path else "?") + "ruleset=standard").get_json()
        assert plain == named, path
    body = client.get("/players/ayse/rating").get_json()
    assert body["ruleset"] == "standard" and body["rated_matches"] == 16
    # A ruleset the player has not played yet: the initial rating, listed nowhere.
    body = client.get("/players/ayse/rating?ruleset=konturlu").get_json()
    assert (body["rating"], body["display"], body["rated_matches"]) == (1500.0, "1500?", 0)
    assert [r["ruleset"] for r in body["ratings"]] == ["standard", "classic20"]


@pytest.mark.parametrize(
    "path",
    [
        "/players/ayse/rating",
        "/players/ayse/rating-history",
        "/ladder",
        "/weekly/current",
        "/weekly/2026-W49",
        "/weekly/current/players/ayse",
    ],
)
@pytest.mark.parametrize("name", ["classic", "Standard", "", "international52"])
def test_an_unknown_ruleset_is_a_400_problem(
    client: FlaskClient, store: Store, path: str, name: str
) -> None:
    play(store, "standard", 1)
    body = problem(client.get(f"{path}?ruleset={name}"), 400, "unknown_ruleset")
    assert body["type"].endswith("/unknown_ruleset")
    assert all(ruleset in body["detail"] for ruleset in RATED_RULESETS)


def king_made(ruleset: str = "traditional") -> FinishedMatch:
    # Seat 2 made the King; the totals do not put it first (traditional §4.4).
    return build_match(PLAYERS, (2, 2, 1, 2), ended_at=MIDWEEK, ruleset=ruleset,
                       totals=(300, 250, 100, -50))  # fmt: skip


def settled(schema_url: str, ruleset: str) -> None:
    """Every player at 1500 with 40 rated matches in ``ruleset``: K = 12."""
    for player in PLAYERS:
        query(
            schema_url,
            "INSERT INTO players (player_id, name) VALUES (%s, %s)",
            (player, player.title()),
        )
        query(
            schema_url,
            "INSERT INTO ratings (player_id, ruleset, rating, rated_matches) "
            "VALUES (%s, %s, 1500, 40)",
            (player, ruleset),
        )


@pytest.mark.parametrize("batched", [False, True])
def test_after_a_king_the_king_maker_gains_6_and_the_others_lose_2_at_k12(
    client: FlaskClient, store: Store, schema_url: str, batched: bool
) -> None:
    settled(schema_url, "traditional")
    message = king_made()
    assert message.winners == [2]
    result = ingest_batch(store, [message])[0] if batched else store.ingest(message)
    assert result is Ingested.RATED
    body = client.get(f"/matches/{message.match_id}").get_json()
    assert body["winners"] == [2]
    deltas = [seat["rating_change"]["delta"] for seat in body["players"]]
    assert deltas == pytest.approx([-2.0, -2.0, 6.0, -2.0], abs=1e-9)
    assert [seat["rating_change"]["k"] for seat in body["players"]] == [12.0] * 4
    # Weekly points 3 for the King maker, the shared second place's 2 + 1 + 0 over three each.
    board = client.get("/weekly/current?ruleset=traditional").get_json()
    assert board["items"] == []  # one match: nobody is listed yet
    points = query(
        schema_url,
        "SELECT player_id, points_x2 FROM weekly_scores WHERE ruleset = 'traditional' "
        "ORDER BY player_id",
    )
    assert points == [("ayse", 2), ("burak", 2), ("cem", 6), ("deniz", 2)]
    assert weekly.points_x2([2, 2, 1, 2], [False] * 4) == [2, 2, 6, 2]


def test_after_a_failed_king_the_three_others_share_first_and_the_announcer_is_last(
    store: Store, schema_url: str
) -> None:
    settled(schema_url, "traditional")
    message = build_match(PLAYERS, (1, 4, 1, 1), ended_at=MIDWEEK, ruleset="traditional",
                          totals=(-100, 200, -300, 0))  # fmt: skip
    assert message.winners == [0, 2, 3]
    store.ingest(message)
    rows = query(
        schema_url,
        "SELECT h.player_id, h.delta, mp.points_x2 FROM rating_history h "
        "JOIN match_players mp USING (match_id, player_id) ORDER BY mp.seat",
    )
    assert [(pid, round(delta, 9), points) for pid, delta, points in rows] == [
        ("ayse", 2.0, 4),
        ("burak", -6.0, 0),
        ("cem", 2.0, 4),
        ("deniz", 2.0, 4),
    ]


def test_the_king_places_are_the_engines_not_the_totals() -> None:
    # The deltas follow the places (1, 2, 2, 2), whatever the totals say.
    deltas = elo.rating_deltas([1500.0] * 4, [2, 2, 1, 2], [12.0] * 4)
    assert deltas == pytest.approx([-2.0, -2.0, 6.0, -2.0], abs=1e-12)


def test_a_rated_match_of_a_ruleset_without_ratings_is_refused_and_waits_for_a_replay(
    store: Store, schema_url: str, queue: Queue
) -> None:
    message = build_match(PLAYERS, ended_at=MIDWEEK, ruleset="classic")
    with pytest.raises(ValueError, match="not a rated ruleset"):
        store.ingest(message)
    with pytest.raises(ValueError, match="not a rated ruleset"):
        ingest_batch(store, [message])
    with pytest.raises(jobs.MalformedMessage, match="not a rated ruleset"):
        jobs.ingest_finished_match(message.to_json())
    assert query(schema_url, "SELECT count(*) FROM matches") == [(0,)]
    # Unrated, it is only archived: no rating is at stake.
    computer = build_match(PLAYERS, ended_at=MIDWEEK, ruleset="classic", mode="computer",
                           bots=(False, True, True, True))  # fmt: skip
    assert store.ingest(computer) is Ingested.ARCHIVED


def test_the_same_players_in_three_rulesets_in_one_batch(store: Store, schema_url: str) -> None:
    messages = [
        build_match(PLAYERS, (1, 2, 3, 4), ended_at=MIDWEEK + timedelta(minutes=i), ruleset=name)
        for i, name in enumerate(["standard", "classic20", "traditional", "standard"])
    ]
    ingest_batch(store, messages)
    rows = query(
        schema_url,
        "SELECT ruleset, rating, rated_matches FROM ratings WHERE player_id = 'ayse' "
        "ORDER BY ruleset",
    )
    one = 1500 + 24.0
    two = one + elo.rate_match([one, 1508.0, 1492.0, 1476.0], [1] * 4, [1, 2, 3, 4])[0].delta
    assert rows == [("classic20", one, 1), ("standard", pytest.approx(two), 2),
                    ("traditional", one, 1)]  # fmt: skip


@pytest.mark.parametrize(("ruleset", "hands"), [("konturlu", 32), ("international", 10)])
def test_the_systems_with_their_own_length_are_rated_apart(
    client: FlaskClient, store: Store, schema_url: str, ruleset: str, hands: int
) -> None:
    """Konturlu's 32 hands and the international 10 come through the message, the archive,
    the rating and the weekly board of their own ruleset."""
    count = weekly.MIN_MATCHES  # the board lists a player from this many matches on
    for i in range(count):
        ended = MIDWEEK + timedelta(minutes=i)
        store.ingest(
            build_match(PLAYERS, (1, 2, 3, 4), ended_at=ended, ruleset=ruleset, hands=hands)
        )
    own = client.get(f"/players/ayse/rating?ruleset={ruleset}").get_json()
    assert own["ruleset"] == ruleset and own["rated_matches"] == count and own["rating"] > 1500
    assert client.get("/players/ayse/rating").get_json()["rated_matches"] == 0
    board = client.get(f"/weekly/current?ruleset={ruleset}").get_json()
    assert board["ruleset"] == ruleset
    assert (board["items"][0]["player_id"], board["items"][0]["matches"]) == ("ayse", count)
    assert client.get("/weekly/current").get_json()["items"] == []
    stored = query(schema_url, "SELECT DISTINCT hands FROM matches WHERE ruleset = %s", [ruleset])
    assert stored == [(hands,)]
