"""Quick match through the real app: join, a table found with seat and commitment, confirm
with the seed, the match started; guests, refusals, leaving, the stream, the metrics.

Ratings come from the rating service's API over HTTP; here a small HTTP server stands in for
it (the rating service's own tests cover that endpoint), answering 404 for unknown players.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from redis import Redis

from king_game.app import create_app
from king_game.config import Settings
from king_game.ratings import DEFAULT_RATING, RatingLookup
from king_match.quickmatch import QuickSettings

from .helpers import signup

pytestmark = [pytest.mark.integration]

#: Standard ratings by player id; another ruleset's under "<ruleset>:<player id>".
RATINGS: dict[str, float] = {}


class _RatingService(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        ruleset = urllib.parse.parse_qs(url.query).get("ruleset", ["standard"])[0]
        rating = None
        if len(parts) == 3 and parts[0] == "players":
            rating = RATINGS.get(parts[1] if ruleset == "standard" else f"{ruleset}:{parts[1]}")
        body = json.dumps({"rating": rating} if rating is not None else {"code": "nf"}).encode()
        self.send_response(200 if rating is not None else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def rating_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RatingService)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def qapp(settings: Settings, rating_url: str) -> Iterator[Flask]:
    """An app with its own key prefix (pools of its own) and the stand-in rating service."""
    match = replace(settings.match, key_prefix=f"q{uuid.uuid4().hex[:8]}:")
    app = create_app(
        replace(
            settings,
            match=match,
            rating_url=rating_url,
            quickmatch=QuickSettings(confirm_ms=3_000),
            quickmatch_tick_s=0.05,
        )
    )
    yield app
    notifier = app.extensions["king_game"].store.notifier
    if notifier is not None:
        notifier.stop()


@pytest.fixture
def qc(qapp: Flask) -> FlaskClient:
    return qapp.test_client()


def rated(client: FlaskClient, rating: float | None) -> dict[str, Any]:
    player = signup(client)
    if rating is not None:
        RATINGS[player["id"]] = rating
    return player


def join(client: FlaskClient, player: dict[str, Any], **body: Any) -> Any:
    return client.post("/v1/quickmatch", json=body, headers=player["headers"])


def status(client: FlaskClient, player: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/v1/quickmatch", headers=player["headers"]).get_json()
    return answer


def test_four_close_players_get_a_table_confirm_it_and_play(qc: FlaskClient) -> None:
    players = [rated(qc, r) for r in (1610, 1650, 1590, 1620)]
    first = join(qc, players[0])
    assert first.status_code == 200, first.get_json()
    waiting = first.get_json()
    assert waiting["state"] == "waiting" and waiting["rating"] == 1610
    assert waiting["window"] == 100 and waiting["waiting"] == 1 and not waiting["guest"]
    for player in players[1:]:
        assert join(qc, player).status_code == 200
    found = [status(qc, p) for p in players]
    assert {f["state"] for f in found} == {"found"}
    assert len({f["table_id"] for f in found}) == 1
    assert sorted(f["seat"] for f in found) == [0, 1, 2, 3]
    table = qc.get(f"/v1/tables/{found[0]['table_id']}", headers=players[0]["headers"]).get_json()
    assert table["server_commit"] == found[0]["server_commit"]
    assert table["ranked"] and table["status"] == "waiting"
    lobby = qc.get("/v1/tables", headers=players[0]["headers"]).get_json()["tables"]
    assert table["id"] not in [t["id"] for t in lobby]
    for index, player in enumerate(players):
        answer = qc.post(
            "/v1/quickmatch/confirm",
            json={"client_seed": player["seed"]},
            headers=player["headers"],
        )
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        if index < 3:
            assert body["state"] == "found" and body["confirmed"]
            assert body["confirmed_seats"] == index + 1
        else:
            assert body["state"] == "matched" and body["match_id"] == table["id"]
    assert {status(qc, p)["state"] for p in players} == {"matched"}
    view = qc.get(f"/v1/matches/{table['id']}", headers=players[1]["headers"])
    assert view.status_code == 200 and view.get_json()["status"] == "active"
    again = join(qc, players[2])
    assert again.status_code == 409 and again.get_json()["code"] == "already_playing"
    assert status(qc, players[2])["state"] == "matched"


def test_an_unrated_player_is_paired_at_1500_and_guests_only_with_guests(
    qc: FlaskClient,
) -> None:
    newcomer = rated(qc, None)
    assert join(qc, newcomer).get_json()["rating"] == 1500
    guests = []
    for _ in range(3):
        guest = signup(qc, password=None)
        guests.append(guest)
        answer = join(qc, guest).get_json()
        assert answer["guest"] and answer["rating"] == 1500
    assert status(qc, newcomer)["state"] == "waiting"  # three guests and him: no table
    fourth = signup(qc, password=None)
    assert join(qc, fourth).get_json()["state"] == "found"
    found = status(qc, guests[0])
    table = qc.get(f"/v1/tables/{found['table_id']}", headers=guests[0]["headers"]).get_json()
    assert table["ranked"] is False
    assert status(qc, newcomer)["state"] == "waiting"


def test_ratings_far_apart_are_not_paired_at_first(qc: FlaskClient) -> None:
    players = [rated(qc, r) for r in (1200, 1210, 1190, 1700)]
    for player in players:
        join(qc, player)
    assert {status(qc, p)["state"] for p in players} == {"waiting"}


def test_refusals_are_clear_and_change_nothing(qc: FlaskClient) -> None:
    me = rated(qc, 1500)
    bad = join(qc, me, ruleset="poker")
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation_failed"
    short = join(qc, me, ruleset="classic20", hands=8)
    assert short.status_code == 422 and short.get_json()["code"] == "bad_table"
    assert status(qc, me)["state"] == "idle"
    nobody = qc.post("/v1/quickmatch", json={})
    assert nobody.status_code == 401
    bot = qc.post("/v1/accounts", json={"name": f"b{uuid.uuid4().hex[:8]}", "is_bot": True})
    token = bot.get_json()["token"]
    refused = qc.post("/v1/quickmatch", json={}, headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden"
    no_table = qc.post("/v1/quickmatch/confirm", json={}, headers=me["headers"])
    assert no_table.status_code == 409 and no_table.get_json()["code"] == "no_table_found"
    assert join(qc, me).status_code == 200
    assert join(qc, me).get_json()["state"] == "waiting"  # again: the same place
    other = join(qc, me, hands=12)
    assert other.status_code == 409 and other.get_json()["code"] == "already_queued"
    seed = qc.post("/v1/quickmatch/confirm", json={"client_seed": "zz"}, headers=me["headers"])
    assert seed.status_code == 422 and seed.get_json()["code"] == "bad_seed"
    left = qc.delete("/v1/quickmatch", headers=me["headers"])
    assert left.status_code == 200 and left.get_json()["state"] == "left"
    assert qc.delete("/v1/quickmatch", headers=me["headers"]).get_json()["state"] == "left"


def test_a_found_table_is_for_its_players_only_and_declining_returns_the_others(
    qc: FlaskClient,
) -> None:
    players = [rated(qc, 1800 + i) for i in range(4)]
    for player in players:
        join(qc, player)
    found = status(qc, players[0])
    outsider = rated(qc, 1800)
    taken = qc.post(
        f"/v1/tables/{found['table_id']}/seats",
        json={"client_seed": outsider["seed"]},
        headers=outsider["headers"],
    )
    assert taken.status_code == 409 and taken.get_json()["code"] == "seat_reserved"
    confirm = qc.post(
        "/v1/quickmatch/confirm", json={"client_seed": players[0]["seed"]},
        headers=players[0]["headers"],
    )  # fmt: skip
    assert confirm.status_code == 200
    assert qc.delete("/v1/quickmatch", headers=players[1]["headers"]).get_json()["state"] == "left"
    back = status(qc, players[0])
    assert back["state"] == "waiting", back
    assert {status(qc, p)["state"] for p in players[2:]} == {"missed"}
    closed = qc.get(f"/v1/tables/{found['table_id']}", headers=players[0]["headers"]).get_json()
    assert closed["status"] == "aborted"


def test_the_stream_says_when_a_table_is_found(qc: FlaskClient) -> None:
    players = [rated(qc, 2100 + i) for i in range(4)]
    join(qc, players[0])
    stream = qc.get("/v1/quickmatch/stream", headers=players[0]["headers"], buffered=False)
    lines = iter(stream.response)
    assert json.loads(next(lines))["state"] == "waiting"
    for player in players[1:]:
        join(qc, player)
    seen = json.loads(next(lines))
    while seen.get("state") == "waiting":
        seen = json.loads(next(lines))
    assert seen["state"] == "found" and len(seen["server_commit"]) == 64
    assert seen["table_id"] == status(qc, players[1])["table_id"]
    stream.close()


def test_metrics_show_pool_sizes_waits_and_spread(qc: FlaskClient) -> None:
    players = [rated(qc, 1300 + 10 * i) for i in range(5)]
    for player in players:
        join(qc, player)
    text = qc.get("/metrics").get_data(as_text=True)
    assert 'king_quickmatch_waiting{pool="standard:8:rated"} 1.0' in text
    assert 'king_quickmatch_rating_spread_elo_count{pool="standard:8:rated"}' in text
    assert 'king_quickmatch_wait_seconds_count{pool="standard:8:rated"}' in text


def test_the_rating_lookup_caches_and_falls_back_to_1500(rating_url: str, redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    prefix = f"r{uuid.uuid4().hex[:8]}:"
    lookup = RatingLookup(rating_url, redis, prefix, cache_s=300)
    RATINGS["known-one"] = 1712.6
    assert lookup.rating_of("known-one") == 1713
    RATINGS["known-one"] = 1800
    assert lookup.rating_of("known-one") == 1713  # from the cache every copy shares
    assert lookup.rating_of("never-rated") == DEFAULT_RATING
    # Each ruleset is rated apart: a classic20 pool pairs by the classic20 rating.
    RATINGS["classic20:known-one"] = 1404.2
    assert lookup.rating_of("known-one", "classic20") == 1404
    assert lookup.rating_of("known-one", "traditional") == DEFAULT_RATING
    down = RatingLookup("http://127.0.0.1:9", redis, prefix, timeout_s=0.5)
    assert down.rating_of("someone") == DEFAULT_RATING
    ttl = redis.ttl(f"{prefix}qm:rating:standard:someone")
    assert 0 < ttl <= 15  # asked again soon, unlike a real answer
    redis.close()
