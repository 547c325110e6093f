"""The queues on a Redis of their own (``QUEUE_REDIS_URL``): a computer match is played to the
end by the real bot worker, whose jobs live on the queue Redis while the match lives on the
match Redis, and its finished-match message reaches the rating database through the ratings
worker reading that same queue Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from pg_schema import own_schema
from redis import Redis
from rq import Queue
from rq.serializers import JSONSerializer

from king_devservers import start_redis
from king_game.app import create_app
from king_match import BOTS_QUEUE, MatchSettings
from king_message import RATINGS_QUEUE
from king_rating.migrate import migrate as migrate_rating

from .conftest import CLOCK_ENV, make_settings, own_redis_db
from .helpers import EventFollower, choose_move, signup

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture
def queue_redis_url() -> Iterator[str]:
    """A second, private redis-server: the queue Redis of this test alone."""
    server = start_redis()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def rating_schema(database_url: str) -> Iterator[str]:
    with own_schema(database_url, "rating_q", migrate_rating) as url:
        yield url


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def test_bot_jobs_and_finished_matches_go_through_the_queue_redis(
    settings, game_env, queue_redis_url: str, rating_schema: str
) -> None:
    match_url = game_env["REDIS_URL"]
    if game_env.get("REDIS_CLUSTER") != "on":
        # A database no other test uses: the shared one holds the other tests' jobs.
        match_url = own_redis_db(match_url, 14)
    assert match_url != queue_redis_url
    env = {
        **game_env,
        "REDIS_URL": match_url,
        "KING_KEY_PREFIX": f"q{uuid.uuid4().hex[:8]}:",
        "QUEUE_REDIS_URL": queue_redis_url,
        **CLOCK_ENV,
    }
    app = create_app(make_settings(settings, match=MatchSettings.from_env(env)))
    client = app.test_client()
    bots = subprocess.Popen(
        [sys.executable, "-m", "king_bots.worker"],
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    queue_redis = Redis.from_url(queue_redis_url)
    match_redis = Redis.from_url(match_url)
    try:
        me = signup(client)
        created = client.post(
            "/v1/tables",
            json={"mode": "computer", "hands": 8, "level": "easy"},
            headers=me["headers"],
        )
        match_id = created.get_json()["id"]
        seated = client.post(
            f"/v1/tables/{match_id}/seats", json={"client_seed": me["seed"]}, headers=me["headers"]
        )
        assert seated.status_code == 201
        deadline = time.monotonic() + 120
        moves = 0
        body: dict = {}
        events = EventFollower(client, match_id, me)
        while time.monotonic() < deadline:
            body = client.get(f"/v1/matches/{match_id}", headers=me["headers"]).get_json()
            if body["status"] != "active":
                break
            if not body["my_turn"]:
                events.wait()
                continue
            move = choose_move(body["view"], moves)
            client.post(
                f"/v1/matches/{match_id}/moves",
                json={**move, "version": body["version"]},
                headers={**me["headers"], "Idempotency-Key": f"m{moves}"},
            )
            moves += 1
        assert body["status"] == "finished", body["status"]
        # The bots' turns were jobs on the queue Redis; the match Redis holds no RQ key at all.
        bots_queue = Queue(BOTS_QUEUE, connection=queue_redis, serializer=JSONSerializer)
        assert bots_queue.finished_job_registry.count > 0
        assert list(match_redis.scan_iter(match="rq:*", count=1000)) == []
        ratings = Queue(RATINGS_QUEUE, connection=queue_redis, serializer=JSONSerializer)
        # The process that committed the last move enqueues the message just after its
        # commit: when a bot played it, that is the bot worker, a moment after we saw the end.
        queued = time.monotonic() + 10
        while f"finished-match-{match_id}" not in ratings.get_job_ids():
            assert time.monotonic() < queued, "the finished match never reached the queue"
            time.sleep(0.05)
    finally:
        _stop(bots)
    # The ratings worker takes the message from the queue Redis into the rating database.
    worker = subprocess.run(
        [sys.executable, "-m", "king_rating.worker", "--burst"],
        env={**os.environ, **env, "DATABASE_URL": rating_schema},
        capture_output=True,
        timeout=120,
    )
    assert worker.returncode == 0, worker.stderr.decode()[-2000:]
    with psycopg.connect(rating_schema) as conn:
        row = conn.execute(
            "SELECT mode, rated FROM matches WHERE match_id = %s", (match_id,)
        ).fetchone()
    assert row == ("computer", False)
    assert ratings.count == 0
