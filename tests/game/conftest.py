"""Fixtures of the game-service tests: the app on the test run's Redis and Postgres, a real
RQ bot worker process, and the clock sweeper.

Clock lengths are short (from the environment the worker also reads) so a timeout takes
seconds, not minutes; every process of a test run uses the same ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from king_devservers import local_postgres_database
from king_game.app import create_app
from king_game.config import Settings
from king_game.migrate import migrate
from king_match import MatchSettings, Sweeper

from .helpers import signup, start_live_match

CLOCK_ENV = {
    "KING_LIVE_MOVE_MS": "3000",
    "KING_LIVE_RESERVE_MS": "2000",
    "KING_COMPUTER_MOVE_MS": "60000",
    "KING_BOT_FALLBACK_MS": "4000",
    # A bot's redeal-round answer waits 400 ms in production; nothing here is about that wait.
    "KING_BOT_CALL_ANSWER_MS": "20",
}


def own_redis_db(url: str, db: int = 5) -> str:
    """The same Redis server, another database: RQ's ``bots`` queue has that name in every test
    folder, so a bot worker of another folder (on database 0) must never take our jobs, nor
    ours theirs."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))


@pytest.fixture(scope="session")
def game_env(redis_url: str, database_url: str) -> dict[str, str]:
    migrate(database_url)
    return {
        "REDIS_URL": own_redis_db(redis_url),
        "DATABASE_URL": database_url,
        "KING_KEY_PREFIX": f"g{uuid.uuid4().hex[:8]}:",
        **CLOCK_ENV,
    }


@pytest.fixture(scope="session")
def settings(game_env: dict[str, str]) -> Settings:
    match = MatchSettings.from_env(game_env)
    return Settings(
        database_url=game_env["DATABASE_URL"],
        match=match,
        rate_default="100000/minute",
        rate_moves="100000/minute",
        rate_per_address="100000/minute",
        rate_signup="100000/minute",
        rate_login="100000/minute",
        longpoll_max_s=3,
        stream_heartbeat_s=0.5,
    )


@pytest.fixture(scope="session")
def app(settings: Settings) -> Flask:
    return create_app(settings)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(scope="session")
def bot_worker(game_env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """A real RQ bot worker (``python -m king_bots.worker``) on the test Redis."""
    env = {**os.environ, **game_env}
    process = subprocess.Popen(
        [sys.executable, "-m", "king_bots.worker"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    assert process.poll() is None, "the bot worker (python -m king_bots.worker) exited at start"
    yield process
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def sweeper(app: Flask) -> Iterator[Sweeper]:
    """The leased clock sweeper, in a thread of the test process."""
    store = app.extensions["king_game"].store
    running = Sweeper(store, interval_s=0.05)
    thread = running.start_thread()
    yield running
    running.stop()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def own_database() -> Iterator[str]:
    """A migrated database for one test module alone: for tests that register the OpenAPI
    document's example names ("Ayşe"), since a registered name is one no other test's guest
    may take."""
    with local_postgres_database(prefix="king_test_own") as url:
        migrate(url)
        yield url


def make_settings(settings: Settings, **changes: Any) -> Settings:
    return replace(settings, **changes)


@pytest.fixture
def live(client: FlaskClient) -> tuple[str, list[dict[str, Any]]]:
    """A live match just started by four new players: (match id, players by seat)."""
    players = [signup(client) for _ in range(4)]
    table = start_live_match(client, players)
    return table["id"], players
