"""Fixtures of the match-layer tests: a MatchStore on the test run's Redis, own key prefix."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis

from king_match import JobSpec, MatchSettings, MatchStore, connect
from king_match.notify import EventNotifier
from king_match.settings import ClockSettings


class RecordingQueue:
    """An enqueuer that keeps the jobs (the match layer's tests need no worker)."""

    def __init__(self) -> None:
        self.jobs: list[JobSpec] = []
        self.fail = False

    def enqueue(self, job: JobSpec) -> None:
        if self.fail:
            raise ConnectionError("queue down")
        self.jobs.append(job)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def redis(redis_url: str) -> Iterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture(params=["single", "cluster"])
def store_redis(request: pytest.FixtureRequest, redis: Redis) -> Iterator[Redis]:
    """The match state's Redis: the single server, then a three-primary cluster."""
    if request.param == "single":
        yield redis
        return
    client = connect(
        MatchSettings(redis_url=request.getfixturevalue("redis_cluster_url"), cluster=True)
    )
    yield client
    client.close()


@pytest.fixture
def make_store(store_redis: Redis) -> Any:
    def make(**clock_overrides: Any) -> tuple[MatchStore, RecordingQueue, FakeClock]:
        queue = RecordingQueue()
        clock = FakeClock()
        settings = MatchSettings(
            key_prefix=f"t{uuid.uuid4().hex[:8]}:", clocks=ClockSettings(**clock_overrides)
        )
        return MatchStore(store_redis, settings, queue, clock=clock), queue, clock

    return make


@pytest.fixture
def notified_store(store_redis: Redis) -> Iterator[MatchStore]:
    """A store (own key prefix) whose event notifier runs, on the single Redis and then on
    the cluster."""
    prefix = f"n{uuid.uuid4().hex[:8]}:"
    notifier = EventNotifier(store_redis, prefix)
    notifier.start()
    # (a commit published before the subscription would never reach the notifier)
    assert notifier.subscribed.wait(5), "the notifier did not subscribe"
    yield MatchStore(store_redis, MatchSettings(key_prefix=prefix), notifier=notifier)
    notifier.stop()
