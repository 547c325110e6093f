"""The game service with its match state on a real three-primary Redis Cluster
(``REDIS_CLUSTER=on``): the event, stream and concurrency tests of the single-Redis service run
here again, unchanged, through this module's ``app`` and ``settings``."""

from __future__ import annotations

import dataclasses
import uuid

import pytest
from flask import Flask
from flask.testing import FlaskClient

from king_game.app import create_app
from king_game.config import Settings
from king_match import MatchSettings

from .helpers import client_at
from .test_concurrency import (
    test_a_retry_with_the_same_idempotency_key_gets_the_first_answer,
    test_the_same_move_sent_twice_at_once_applies_once,
    test_two_service_processes_serving_one_match_stay_consistent,
)
from .test_events import (
    test_a_stream_with_turns_announces_each_turn_privately,
    test_etag_and_if_none_match,
    test_health_and_readiness,
    test_long_poll_waits_for_the_next_event,
    test_my_matches_lists_the_urgent_one_first,
    test_stream_resumes_and_ends_with_match_finished,
    test_your_turn_carries_what_the_view_read_answers,
)
from .test_queue_redis import (
    queue_redis_url,
    rating_schema,
)
from .test_queue_redis import (
    test_bot_jobs_and_finished_matches_go_through_the_queue_redis as queue_redis_match,
)

pytestmark = pytest.mark.integration

__all__ = [
    "queue_redis_url",
    "rating_schema",
    "test_a_retry_with_the_same_idempotency_key_gets_the_first_answer",
    "test_a_stream_with_turns_announces_each_turn_privately",
    "test_etag_and_if_none_match",
    "test_health_and_readiness",
    "test_long_poll_waits_for_the_next_event",
    "test_my_matches_lists_the_urgent_one_first",
    "test_stream_resumes_and_ends_with_match_finished",
    "test_the_same_move_sent_twice_at_once_applies_once",
    "test_two_service_processes_serving_one_match_stay_consistent",
    "test_your_turn_carries_what_the_view_read_answers",
]


@pytest.fixture(scope="module")
def settings(settings: Settings, redis_cluster_url: str) -> Settings:
    """The session's settings, with the match state on the cluster under a prefix of its own."""
    match = dataclasses.replace(
        settings.match,
        redis_url=redis_cluster_url,
        cluster=True,
        key_prefix=f"gc{uuid.uuid4().hex[:6]}:",
        queue_redis_url=settings.match.redis_url,  # (RQ's queues stay on a plain Redis)
    )
    return dataclasses.replace(settings, match=match)


@pytest.fixture(scope="module")
def app(settings: Settings) -> Flask:
    assert MatchSettings().cluster is False  # (the default stays a single Redis)
    return create_app(settings)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return client_at(app)


def test_the_service_keeps_its_matches_on_the_cluster(app: Flask, client: FlaskClient) -> None:
    from king_match.keys import is_cluster

    store = app.extensions["king_game"].store
    assert is_cluster(store.redis) and store.keys.buckets > 0


@pytest.mark.slow
def test_a_computer_match_is_played_to_the_end_on_the_cluster(
    settings: Settings,
    game_env: dict[str, str],
    redis_cluster_url: str,
    queue_redis_url: str,
    rating_schema: str,
) -> None:
    """The queue-Redis test again with the match state on the cluster: the bot worker plays
    from the cluster and takes its jobs from the queue Redis, and the finished match reaches
    the rating database."""
    env = {**game_env, "REDIS_URL": redis_cluster_url, "REDIS_CLUSTER": "on"}
    queue_redis_match(settings, env, queue_redis_url, rating_schema)
