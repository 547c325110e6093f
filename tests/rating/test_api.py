"""Every endpoint of the rating API, including errors (problem+json) and paging."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.store import Store

from .conftest import MakeMatch, TcpProxy

pytestmark = pytest.mark.integration

PLAYERS = ("ayse", "burak", "cem", "deniz")
# Wednesday 2 December 2026, in ISO week 2026-W49 (Istanbul).
MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
PROBLEM = "application/problem+json"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(MIDWEEK + timedelta(hours=12))


@pytest.fixture
def app(store: Store, redis_url: str, clock: Clock) -> Flask:
    settings = Settings(database_url="unused", redis_url=redis_url)
    return create_app(settings, store=store, clock=clock)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.content_type == PROBLEM
    body: dict[str, Any] = response.get_json()
    assert body["status"] == status and body["code"] == code
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    return body


def play(store: Store, make_match: MakeMatch, players: Any, places: Any, count: int,
         start: datetime = MIDWEEK) -> None:  # fmt: skip
    for i in range(count):
        store.ingest(make_match(players, places, ended_at=start + timedelta(minutes=i)))


# ------------------------------------------------------------------ players


def test_a_players_rating_is_provisional_before_15_rated_matches(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    play(store, make_match, PLAYERS, (1, 2, 3, 4), 1)
    body = client.get("/players/ayse/rating").get_json()
    assert body["rating"] == 1524.0 and body["display"] == "1524?"
    assert body["provisional"] is True and body["rated_matches"] == 1
    play(store, make_match, PLAYERS, (1, 1, 1, 1), 14, start=MIDWEEK + timedelta(hours=1))
    body = client.get("/players/ayse/rating").get_json()
    assert body["provisional"] is False and body["rated_matches"] == 15
    assert body["display"] == str(round(body["rating"]))


def test_an_unknown_player_is_a_404_problem(client: FlaskClient) -> None:
    problem(client.get("/players/nobody/rating"), 404, "player_not_found")
    problem(client.get("/players/nobody/rating-history"), 404, "player_not_found")
    problem(client.get("/players/nobody/matches"), 404, "player_not_found")


def test_rating_history_is_newest_first_and_paged(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    for i, places in enumerate([(1, 2, 3, 4), (4, 3, 2, 1), (2, 1, 4, 3)]):
        store.ingest(make_match(PLAYERS, places, ended_at=MIDWEEK + timedelta(minutes=i)))
    first = client.get("/players/ayse/rating-history?page_size=2").get_json()
    assert first["has_more"] is True and first["page"] == 1 and first["page_size"] == 2
    assert [item["place"] for item in first["items"]] == [2, 4]
    second = client.get("/players/ayse/rating-history?page_size=2&page=2").get_json()
    assert second["has_more"] is False
    assert [item["place"] for item in second["items"]] == [1]
    assert second["items"][0]["rating_before"] == 1500.0
    assert first["items"][1]["rating_before"] == second["items"][0]["rating_after"]
    assert set(first["items"][0]) >= {"match_id", "ended_at", "delta", "k", "rating_after"}


@pytest.mark.parametrize(
    "query",
    [
        "page=0",
        "page_size=0",
        "page_size=101",
        "page=x",
        "page=10001",
        "page=1_0",
        "page=+1",
        "page=%201",
        "page=1.0",
    ],
)
def test_bad_paging_arguments_are_a_422_problem_with_field_errors(
    client: FlaskClient, store: Store, make_match: MakeMatch, query: str
) -> None:
    play(store, make_match, PLAYERS, (1, 2, 3, 4), 1)
    body = problem(client.get(f"/players/ayse/rating-history?{query}"), 422, "validation_failed")
    field = query.split("=")[0]
    assert field in body["errors"]["query"]


def test_a_players_finished_matches_include_unrated_ones_and_are_paged(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    play(store, make_match, PLAYERS, (1, 2, 3, 4), 2)
    store.ingest(
        make_match(
            ("ayse", "bot-1", "bot-2", "bot-3"),
            mode="computer",
            bots=(False, True, True, True),
            ended_at=MIDWEEK + timedelta(hours=1),
        )
    )
    page = client.get("/players/ayse/matches?page_size=2").get_json()
    assert page["has_more"] is True
    newest = page["items"][0]
    assert newest["mode"] == "computer" and newest["rated"] is False
    assert [seat["player_id"] for seat in newest["players"]] == ["ayse", "bot-1", "bot-2", "bot-3"]
    rest = client.get("/players/ayse/matches?page_size=2&page=2").get_json()
    assert len(rest["items"]) == 1 and rest["has_more"] is False
    assert client.get("/players/ayse/matches?page=3").get_json()["items"] == []


# ------------------------------------------------------------------ matches


def test_an_archived_match_has_its_seats_rating_changes_and_fairness_transcript(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    transcript = {"server_seed": "cd" * 16, "commitment": "ff" * 32, "deals": [[1, 2], [3]]}
    message = make_match(PLAYERS, (1, 1, 3, 4), fairness=transcript, ended_at=MIDWEEK)
    store.ingest(message)
    body = client.get(f"/matches/{message.match_id}").get_json()
    assert body["match_id"] == message.match_id
    assert body["fairness"] == transcript
    assert body["rated"] is True and body["week"] == "2026-W49"
    assert [seat["place"] for seat in body["players"]] == [1, 1, 3, 4]
    assert body["players"][0]["rating_change"]["delta"] == pytest.approx(16.0)  # 48/3 * 1.0


def test_an_archived_match_never_names_a_forfeited_seat_winner(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    # The audit's match: seat 2 ran out of time on the best total (1040).
    message = make_match(PLAYERS, (2, 1, 4, 3), forfeited=(False, False, True, False))
    totals = (-170, 400, 1040, -220)
    players = tuple(
        replace(seat, total=total) for seat, total in zip(message.players, totals, strict=True)
    )
    message = replace(message, players=players)
    assert message.winners == [1]
    store.ingest(message)
    body = client.get(f"/matches/{message.match_id}").get_json()
    assert body["winners"] == [1]
    assert [seat["total"] for seat in body["players"]] == list(totals)


def test_an_unknown_match_is_a_404_problem(client: FlaskClient) -> None:
    problem(client.get(f"/matches/{uuid.uuid4()}"), 404, "match_not_found")
    problem(client.get("/matches/not-a-uuid"), 404, "not_found")


# ------------------------------------------------------------------ ladder


def test_the_ladder_lists_established_active_players_by_rating(
    client: FlaskClient, store: Store, make_match: MakeMatch, clock: Clock
) -> None:
    play(store, make_match, PLAYERS, (1, 2, 3, 4), 15)
    play(store, make_match, ("eda", "fatih", "gul", "hakan"), (1, 2, 3, 4), 14)
    first = client.get("/ladder?page_size=3").get_json()
    assert [e["player_id"] for e in first["items"]] == ["ayse", "burak", "cem"]
    assert [e["rank"] for e in first["items"]] == [1, 2, 3]
    assert first["has_more"] is True and first["items"][0]["provisional"] is False
    second = client.get("/ladder?page_size=3&page=2").get_json()
    assert [e["player_id"] for e in second["items"]] == ["deniz"]
    assert second["items"][0]["rank"] == 4 and second["has_more"] is False
    clock.now = MIDWEEK + timedelta(days=31)
    assert client.get("/ladder").get_json()["items"] == []


# ------------------------------------------------------------------ weekly


def eight_player_week(store: Store, make_match: MakeMatch) -> None:
    play(store, make_match, ("a1", "a2", "a3", "a4"), (1, 2, 3, 4), 6)
    play(store, make_match, ("b1", "b2", "b3", "b4"), (1, 2, 3, 4), 5)
    play(store, make_match, ("c1", "c2", "c3", "c4"), (1, 2, 3, 4), 4)  # not eligible


BOARD_ORDER = ["a1", "b1", "a2", "b2", "b3", "a3", "b4", "a4"]


def test_the_current_board_lists_eligible_players_by_smoothed_score(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    eight_player_week(store, make_match)
    body = client.get("/weekly/current?page_size=100").get_json()
    assert body["week"] == "2026-W49" and body["frozen"] is False
    assert [e["player_id"] for e in body["items"]] == BOARD_ORDER
    top = body["items"][0]
    assert top["rank"] == 1 and top["matches"] == 6 and top["points"] == 18.0
    assert top["score"] == pytest.approx((18 + 15) / (6 + 10))
    assert body["ends_at"].startswith("2026-12-07T00:00:00+03:00") or body["ends_at"].startswith(
        "2026-12-06T21:00:00"
    )


def test_the_board_is_paged_with_ranks_continuing_across_pages(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    eight_player_week(store, make_match)
    pages = [client.get(f"/weekly/current?page_size=3&page={n}").get_json() for n in (1, 2, 3)]
    assert [p["has_more"] for p in pages] == [True, True, False]
    ranks = [e["rank"] for p in pages for e in p["items"]]
    assert ranks == list(range(1, 9))
    assert [e["player_id"] for p in pages for e in p["items"]] == BOARD_ORDER


def test_ties_go_to_more_matches_then_to_who_reached_the_score_first(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    # 10 matches with 25 points and 5 matches with 15 points both score exactly 2.0.
    play(store, make_match, ("late", "x1", "x2", "x3"), (1, 2, 3, 4), 5, start=MIDWEEK)
    play(store, make_match, ("early", "y1", "y2", "y3"), (1, 2, 3, 4), 5,
         start=MIDWEEK - timedelta(hours=5))  # fmt: skip
    play(store, make_match, ("many", "z1", "z2", "z3"), (1, 2, 3, 4), 5,
         start=MIDWEEK + timedelta(hours=1))  # fmt: skip
    play(store, make_match, ("z1", "many", "z2", "z3"), (1, 2, 3, 4), 5,
         start=MIDWEEK + timedelta(hours=2))  # fmt: skip
    items = client.get("/weekly/current?page_size=4").get_json()["items"]
    # "many" and "z1" reached 2.0 with the same match: the player id keeps the order stable.
    assert [(e["player_id"], e["score"], e["matches"]) for e in items] == [
        ("many", 2.0, 10),
        ("z1", 2.0, 10),
        ("early", 2.0, 5),
        ("late", 2.0, 5),
    ]


def test_a_players_rank_comes_with_neighbours(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    eight_player_week(store, make_match)
    body = client.get("/weekly/current/players/b2?neighbours=2").get_json()
    assert body["rank"] == 4 and body["eligible"] is True and body["frozen"] is False
    assert body["entry"]["player_id"] == "b2"
    assert [e["player_id"] for e in body["above"]] == ["b1", "a2"]
    assert [e["player_id"] for e in body["below"]] == ["b3", "a3"]
    top = client.get("/weekly/current/players/a1?neighbours=1").get_json()
    assert top["rank"] == 1 and top["above"] == [] and len(top["below"]) == 1


def test_a_player_below_five_matches_has_no_rank_yet(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    eight_player_week(store, make_match)
    body = client.get("/weekly/current/players/c1").get_json()
    assert body["rank"] is None and body["eligible"] is False
    assert body["matches"] == 4 and body["min_matches"] == 5
    problem(client.get("/weekly/current/players/nobody"), 404, "player_not_found")
    problem(client.get("/weekly/current/players/a1?neighbours=99"), 422, "validation_failed")


def test_when_the_current_week_resets(client: FlaskClient, clock: Clock) -> None:
    body = client.get("/weekly/current/reset").get_json()
    assert body["week"] == "2026-W49"
    resets = datetime.fromisoformat(body["resets_at"])
    assert resets == datetime(2026, 12, 6, 21, 0, tzinfo=UTC)  # Monday 00:00 Istanbul
    assert body["seconds_until_reset"] == int((resets - clock.now).total_seconds())


def test_a_past_week_is_read_by_its_label_and_stays_frozen(
    client: FlaskClient, store: Store, make_match: MakeMatch, clock: Clock
) -> None:
    eight_player_week(store, make_match)
    clock.now = datetime(2026, 12, 9, 12, 0, tzinfo=UTC)  # the week after
    body = client.get("/weekly/2026-W49?page_size=5").get_json()
    assert body["frozen"] is True and body["has_more"] is True
    assert [e["player_id"] for e in body["items"]] == BOARD_ORDER[:5]
    rank = client.get("/weekly/2026-W49/players/b2?neighbours=1").get_json()
    assert rank["frozen"] is True and rank["rank"] == 4
    assert [e["player_id"] for e in rank["above"] + rank["below"]] == ["a2", "b3"]
    # The new week has begun empty.
    current = client.get("/weekly/current").get_json()
    assert current["week"] == "2026-W50" and current["items"] == []


def test_week_labels_are_checked(client: FlaskClient) -> None:
    problem(client.get("/weekly/2026-49"), 400, "invalid_week")
    problem(client.get("/weekly/2026-W60"), 400, "invalid_week")
    problem(client.get("/weekly/2027-W10"), 404, "week_not_started")
    problem(client.get("/weekly/2027-W10/players/ayse"), 404, "week_not_started")


# ------------------------------------------------------------------ health and docs


def test_healthz_and_readyz_answer_when_everything_is_up(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ok" and ready["checks"] == {"postgres": "ok", "redis": "ok"}


def test_without_the_database_readyz_and_reads_are_503_problems(
    schema_url: str, redis_url: str, db_proxy: TcpProxy, clock: Clock
) -> None:
    store = Store(db_proxy.url_for(schema_url), min_size=1, max_size=2, connect_timeout=1)
    try:
        app = create_app(Settings(redis_url=redis_url), store=store, clock=clock)
        client = app.test_client()
        store.ping()
        db_proxy.down()
        assert client.get("/healthz").status_code == 200
        body = problem(client.get("/readyz"), 503, "not_ready")
        assert "postgres" in body["detail"]
        problem(client.get("/ladder"), 503, "database_unavailable")
    finally:
        store.close()


def test_unknown_routes_and_methods_are_problems(client: FlaskClient) -> None:
    problem(client.get("/nowhere"), 404, "not_found")
    response = client.post("/ladder")
    problem(response, 405, "method_not_allowed")


def test_the_openapi_document_lists_every_endpoint_and_problem_errors(
    client: FlaskClient,
) -> None:
    spec = client.get("/openapi.json").get_json()
    assert set(spec["paths"]) == {
        "/players/{player_id}/rating",
        "/players/{player_id}/rating-history",
        "/players/{player_id}/matches",
        "/matches/{match_id}",
        "/ladder",
        "/weekly/current",
        "/weekly/current/reset",
        "/weekly/{week}",
        "/weekly/{week}/players/{player_id}",
        "/healthz",
        "/readyz",
    }
    responses = spec["components"]["responses"]
    for name in ("NOT_FOUND", "UNPROCESSABLE_ENTITY", "DEFAULT_ERROR"):
        assert list(responses[name]["content"]) == [PROBLEM]
    problem_schema = spec["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "detail", "code", "errors"} <= set(problem_schema)
    rank = spec["paths"]["/weekly/{week}/players/{player_id}"]["get"]["responses"]
    assert {"200", "400", "404", "422"} <= set(rank)


# ------------------------------------------------------------------ guests


def test_a_guest_is_marked_wherever_the_rating_service_shows_a_name(
    client: FlaskClient, store: Store, make_match: MakeMatch
) -> None:
    guests = (False, True, False, False)  # "burak" plays as a guest
    messages = [
        make_match(PLAYERS, (1, 2, 3, 4), guests=guests, ended_at=MIDWEEK + timedelta(minutes=i))
        for i in range(5)
    ]
    for message in messages:
        store.ingest(message)
    assert client.get("/players/burak/rating").get_json()["is_guest"] is True
    assert client.get("/players/ayse/rating").get_json()["is_guest"] is False
    board = client.get("/weekly/current?page_size=100").get_json()["items"]
    assert {e["player_id"]: e["is_guest"] for e in board} == {
        "ayse": False,
        "burak": True,
        "cem": False,
        "deniz": False,
    }
    rank = client.get("/weekly/current/players/burak?neighbours=1").get_json()
    assert rank["is_guest"] is True and rank["entry"]["is_guest"] is True
    assert [e["is_guest"] for e in rank["above"]] == [False]
    archived = client.get(f"/matches/{messages[0].match_id}").get_json()
    assert [seat["is_guest"] for seat in archived["players"]] == list(guests)
    mine = client.get("/players/ayse/matches").get_json()["items"][0]
    assert [seat["is_guest"] for seat in mine["players"]] == list(guests)


@pytest.mark.parametrize(
    "path",
    [
        "/players/a%00b/rating",
        "/players/a%00b/rating-history",
        "/players/a%00b/matches",
        "/weekly/current/players/a%00b",
    ],
)
def test_a_nul_in_a_player_id_is_a_404_not_a_database_error(client: FlaskClient, path: str) -> None:
    problem(client.get(path), 404, "not_found")
