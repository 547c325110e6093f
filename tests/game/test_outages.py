"""The game service when Redis or Postgres cannot be reached: 503 problems, not 500s or hangs.

Each test runs its own redis-server (persistent, so it can be stopped and started again on the
same port with its data) and builds its own app on it, with short socket and pool timeouts.
Postgres goes away either as a port nothing listens on or behind a TCP proxy that the test
takes down and brings back. What is checked:

* a JSON endpoint that needs Redis answers 503 ``application/problem+json`` with the code
  ``service_unavailable`` and a short ``Retry-After``, within the timeouts;
* an endpoint that needs Postgres (sign-up, login, an uncached token) does the same;
* ``/readyz`` answers 503 and names the dependency that is down, ``/healthz`` stays 200;
* when the server is back, the same app serves again without a restart, and the requests that
  failed changed nothing (the match version is the one from before; a move retried with its
  Idempotency-Key applies exactly once).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg.conninfo import conninfo_to_dict
from tcp_proxy import TcpProxy
from werkzeug.test import TestResponse

from king_devservers import LocalRedis, free_port, start_redis
from king_game.app import create_app
from king_game.config import Settings
from king_match import MatchSettings
from king_match.settings import ClockSettings

from .helpers import choose_move, open_computer_table, signup, start_live_match

pytestmark = pytest.mark.integration

#: Socket timeout of every Redis command and the longest wait for a Postgres connection.
REDIS_TIMEOUT_S = 0.5
DB_TIMEOUT_S = 1.0
#: A request that meets an outage must have its answer within this (a few timeouts).
QUICK_S = 5.0
#: Clocks that cannot run out during a test: no read applies a timeout behind our back.
LONG_CLOCKS = ClockSettings(
    live_move_ms=600_000, live_reserve_ms=0, computer_move_ms=600_000, bot_fallback_ms=600_000
)


class RestartableRedis:
    """A private redis-server that a test can stop, freeze and start again on the same port.

    Append-only persistence in its own folder, so a restart keeps the matches."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = str(data_dir)
        self.server: LocalRedis = start_redis(data_dir=self.data_dir, persistent=True)
        self.url = self.server.url
        self.port = urllib.parse.urlsplit(self.url).port
        self.frozen = False

    def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file and exits; the port refuses connections."""
        self.resume()
        self.server.stop()

    def start(self) -> None:
        self.server = start_redis(data_dir=self.data_dir, port=self.port, persistent=True)

    def freeze(self) -> None:
        """SIGSTOP: connections stay open but nothing answers (a hung server)."""
        assert self.server.process is not None
        os.kill(self.server.process.pid, signal.SIGSTOP)
        self.frozen = True

    def resume(self) -> None:
        if self.frozen and self.server.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.server.process.pid, signal.SIGCONT)
        self.frozen = False


def unseen_token() -> dict[str, str]:
    """Headers with a token of the issued shape that no one has seen (so it needs a lookup)."""
    return {"Authorization": f"Bearer {secrets.token_urlsafe(32)}"}


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RestartableRedis]:
    server = RestartableRedis(tmp_path / "redis")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_url(game_env: dict[str, str]) -> str:
    """The test run's Postgres database, migrated (by ``game_env``)."""
    return game_env["DATABASE_URL"]


@pytest.fixture
def db_proxy(db_url: str) -> Iterator[TcpProxy]:
    params = conninfo_to_dict(db_url)
    host = str(params.get("hostaddr") or params.get("host") or "127.0.0.1")
    if host.startswith("/"):
        pytest.skip("the proxy needs Postgres on TCP")
    proxy = TcpProxy(host, int(params.get("port") or 5432))
    yield proxy
    proxy.close()


@pytest.fixture
def make_app() -> Iterator[Callable[[str, str], Flask]]:
    """Builds apps of their own (``outage_app``); stops their background connections after."""
    apps: list[Flask] = []

    def make(redis_url: str, database_url: str, **changes: Any) -> Flask:
        apps.append(outage_app(redis_url, database_url, **changes))
        return apps[-1]

    yield make
    for app in apps:
        context = app.extensions["king_game"]
        if context.store.notifier is not None:
            context.store.notifier.stop()
        context.accounts.pool.close(timeout=1)


def outage_app(redis_url: str, database_url: str, **changes: Any) -> Flask:
    """An app of its own on the given servers, with short timeouts and no embedded sweeper."""
    settings = Settings(
        database_url=database_url,
        match=MatchSettings(
            redis_url=redis_url, key_prefix=f"o{uuid.uuid4().hex[:8]}:", clocks=LONG_CLOCKS
        ),
        rate_default="100000/minute",
        rate_moves="100000/minute",
        rate_per_address="100000/minute",
        rate_signup="100000/minute",
        rate_login="100000/minute",
        longpoll_max_s=1,
        stream_heartbeat_s=0.5,
        embedded_sweeper=False,
        db_timeout_s=DB_TIMEOUT_S,
        redis_timeout_s=REDIS_TIMEOUT_S,
    )
    return create_app(replace(settings, **changes))


def timed(client: FlaskClient, method: str, path: str, **kwargs: Any) -> TestResponse:
    """One request; fails the test when its answer takes longer than ``QUICK_S``."""
    started = time.monotonic()
    response = client.open(path, method=method, **kwargs)
    elapsed = time.monotonic() - started
    assert elapsed < QUICK_S, f"{method} {path} took {elapsed:.1f} s"
    return response


def assert_unavailable(response: TestResponse) -> None:
    """503 problem+json ``service_unavailable`` with a short Retry-After (never a 500)."""
    body = response.get_json(force=True, silent=True)
    assert response.status_code == 503, (response.status_code, body)
    assert response.mimetype == "application/problem+json"
    assert body["code"] == "service_unavailable" and body["status"] == 503
    assert body["type"].endswith("/service_unavailable") and body["title"] and body["detail"]
    retry_after = response.headers.get("Retry-After")
    assert retry_after is not None and retry_after.isdigit(), retry_after
    # "try again shortly": not the end of a rate-limit window
    assert 1 <= int(retry_after) <= 5, retry_after


def assert_not_ready(client: FlaskClient, down: str, up: str) -> dict[str, Any]:
    response = timed(client, "GET", "/readyz")
    body = response.get_json()
    assert response.status_code == 503, body
    assert body["status"] == "unavailable"
    assert body["checks"][down].startswith("down"), body
    assert body["checks"][up] == "ok", body
    healthy = timed(client, "GET", "/healthz")
    assert healthy.status_code == 200 and healthy.get_json()["status"] == "ok"
    return body


def assert_ready(client: FlaskClient) -> None:
    response = timed(client, "GET", "/readyz")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"status": "ok", "checks": {"redis": "ok", "postgres": "ok"}}


def until_ok(client: FlaskClient, method: str, path: str, seconds: float, **kwargs: Any) -> Any:
    """Repeat a request until it succeeds; its successful response."""
    deadline = time.monotonic() + seconds
    while True:
        response = timed(client, method, path, **kwargs)
        if response.status_code < 500:
            return response
        assert response.status_code == 503, response.get_json()
        assert time.monotonic() < deadline, f"{method} {path} did not recover in {seconds} s"
        time.sleep(0.1)


def test_with_redis_stopped_the_api_answers_503_and_recovers_when_it_is_back(
    private_redis: RestartableRedis, db_url: str, make_app: Callable[[str, str], Flask]
) -> None:
    app = make_app(private_redis.url, db_url)
    client = app.test_client()
    players = [signup(client, password=None) for _ in range(4)]
    table = start_live_match(client, players)
    match_path = f"/v1/matches/{table['id']}"
    before = client.get(match_path, headers=players[0]["headers"]).get_json()
    assert before["status"] == "active"
    version, turn = before["version"], before["clock"]["turn"]
    mover = players[turn]
    mine = client.get(match_path, headers=mover["headers"]).get_json()
    assert mine["my_turn"]
    move = {**choose_move(mine["view"]), "version": version}
    move_headers = {**mover["headers"], "Idempotency-Key": "move-during-outage"}
    events_before = client.get(f"{match_path}/events?after=0", headers=mover["headers"])
    assert events_before.status_code == 200
    assert_ready(client)

    private_redis.stop()

    assert_unavailable(timed(client, "GET", match_path, headers=mover["headers"]))
    assert_unavailable(
        timed(client, "POST", f"{match_path}/moves", json=move, headers=move_headers)
    )
    assert_unavailable(
        timed(client, "GET", f"{match_path}/events?after=0", headers=mover["headers"])
    )
    assert_unavailable(timed(client, "GET", "/v1/tables", headers=players[1]["headers"]))
    assert_unavailable(
        timed(client, "POST", "/v1/tables", json={"mode": "live"}, headers=players[2]["headers"])
    )
    assert_unavailable(
        timed(
            client,
            "POST",
            f"{match_path}/resign",
            json={"version": version},
            headers=players[3]["headers"],
        )
    )
    body = assert_not_ready(client, down="redis", up="postgres")
    assert "ConnectionError" in body["checks"]["redis"]

    private_redis.start()

    # The same app serves again, and nothing the failed requests asked for happened.
    after = until_ok(client, "GET", match_path, seconds=10, headers=players[0]["headers"])
    assert after.status_code == 200, after.get_json()
    after_body = after.get_json()
    assert after_body["version"] == version and after_body["clock"]["turn"] == turn
    assert not any(seat["forfeited"] for seat in after_body["seats"])
    events_after = client.get(f"{match_path}/events?after=0", headers=mover["headers"])
    assert events_after.get_json() == events_before.get_json()
    assert_ready(client)
    # The move retried with its key applies now, once.
    played = client.post(f"{match_path}/moves", json=move, headers=move_headers)
    assert played.status_code == 200, played.get_json()
    assert played.get_json()["version"] == version + 1
    again = client.post(f"{match_path}/moves", json=move, headers=move_headers)
    assert again.status_code == 200 and again.get_json() == played.get_json()
    final = client.get(match_path, headers=players[0]["headers"]).get_json()
    assert final["version"] == version + 1
    assert client.get("/v1/tables", headers=players[1]["headers"]).status_code == 200


def test_a_redis_that_stops_answering_costs_a_request_its_timeout_then_503(
    private_redis: RestartableRedis, db_url: str, make_app: Callable[[str, str], Flask]
) -> None:
    app = make_app(private_redis.url, db_url)
    client = app.test_client()
    player = signup(client, password=None)
    table = open_computer_table(client, player, hands=8)
    match_path = f"/v1/matches/{table['id']}"
    before = client.get(match_path, headers=player["headers"]).get_json()

    private_redis.freeze()
    try:
        assert_unavailable(timed(client, "GET", match_path, headers=player["headers"]))
        assert_unavailable(timed(client, "GET", "/v1/tables", headers=player["headers"]))
        # The liveness probe never waits on Redis (nor on the rate limiter's counters in it).
        started = time.monotonic()
        assert client.get("/healthz").status_code == 200
        assert time.monotonic() - started < REDIS_TIMEOUT_S / 2
        body = assert_not_ready(client, down="redis", up="postgres")
        assert "Timeout" in body["checks"]["redis"]
    finally:
        private_redis.resume()

    after = until_ok(client, "GET", match_path, seconds=10, headers=player["headers"])
    assert after.status_code == 200
    assert after.get_json()["version"] == before["version"]
    assert_ready(client)


def test_with_postgres_unreachable_account_calls_answer_503_and_readyz_names_it(
    private_redis: RestartableRedis, make_app: Callable[[str, str], Flask]
) -> None:
    nothing_there = f"postgresql://postgres@127.0.0.1:{free_port()}/king_nowhere"
    app = make_app(private_redis.url, nothing_there)
    client = app.test_client()

    assert_unavailable(timed(client, "POST", "/v1/accounts", json={"name": "nobody"}))
    assert_unavailable(
        timed(client, "POST", "/v1/accounts", json={"name": "nobody2", "password": "x" * 12})
    )
    assert_unavailable(
        timed(client, "POST", "/v1/tokens", json={"name": "nobody", "password": "x" * 12})
    )
    # A token the service has not seen yet must be looked up in Postgres.
    assert_unavailable(timed(client, "GET", "/v1/me", headers=unseen_token()))
    body = assert_not_ready(client, down="postgres", up="redis")
    assert body["checks"]["postgres"] != "ok"
    # ... and says so within a readiness probe's time (2 s in deploy/k8s/game.yaml).
    started = time.monotonic()
    assert client.get("/readyz").status_code == 503
    assert time.monotonic() - started < 1.5
    # Endpoints that need neither answer as usual.
    assert client.get("/v1/rules").status_code == 200


def test_an_outage_does_not_spend_the_sign_up_allowance(
    private_redis: RestartableRedis, make_app: Callable[..., Flask]
) -> None:
    nothing_there = f"postgresql://postgres@127.0.0.1:{free_port()}/king_nowhere"
    app = make_app(private_redis.url, nothing_there, rate_signup="1/hour", rate_login="1/hour")
    client = app.test_client()
    for n in range(3):  # with the allowance spent by the first, these would be 429
        assert_unavailable(timed(client, "POST", "/v1/accounts", json={"name": f"late{n}"}))
        assert_unavailable(
            timed(client, "POST", "/v1/tokens", json={"name": "late", "password": "x" * 12})
        )


def test_postgres_that_goes_away_and_comes_back(
    private_redis: RestartableRedis,
    db_url: str,
    db_proxy: TcpProxy,
    make_app: Callable[[str, str], Flask],
) -> None:
    app = make_app(private_redis.url, db_proxy.url_for(db_url))
    client = app.test_client()
    players = [signup(client, password=None) for _ in range(4)]
    table = start_live_match(client, players)
    match_path = f"/v1/matches/{table['id']}"
    before = client.get(match_path, headers=players[0]["headers"]).get_json()
    assert_ready(client)

    db_proxy.down()

    name = f"n{uuid.uuid4().hex[:8]}"
    signup_body = {"name": name, "password": "x" * 12}
    assert_unavailable(timed(client, "POST", "/v1/accounts", json=signup_body))
    assert_unavailable(
        timed(client, "POST", "/v1/tokens", json={"name": players[0]["name"], "password": "x" * 12})
    )
    assert_unavailable(timed(client, "GET", "/v1/me", headers=unseen_token()))
    assert_not_ready(client, down="postgres", up="redis")
    # Play needs only Redis: a player the service already knows keeps reading the match.
    during = timed(client, "GET", match_path, headers=players[0]["headers"])
    assert during.status_code == 200 and during.get_json()["version"] == before["version"]

    db_proxy.restore()

    # The same app reconnects; the sign-up that failed created nothing (its name is free).
    created = until_ok(client, "POST", "/v1/accounts", seconds=15, json=signup_body)
    assert created.status_code == 201, created.get_json()
    login = client.post("/v1/tokens", json=signup_body)
    assert login.status_code == 201, login.get_json()
    assert_ready(client)
