"""The ratings worker rides out a Redis restart (issue 42, item 7).

A private redis-server with append-only persistence (as deployed) is stopped under a working
batch worker and started again on the same port and data folder. The worker waits for it and
goes on: matches enqueued after the restart are rated, nothing is applied twice, and it stops
cleanly when asked. Its Redis client retries nothing by itself here, so the outage reaches the
worker's own loop at once (redis-py's default retries would hide a short one).
"""

from __future__ import annotations

import logging
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from redis import Redis
from redis.backoff import NoBackoff
from redis.retry import Retry
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from king_devservers import LocalRedis, start_redis
from king_rating import jobs
from king_rating.batchworker import BatchWorker
from king_rating.store import Store

from .conftest import matches, query

pytestmark = pytest.mark.integration

WAIT_S = 15.0


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {WAIT_S} s: {what}")
        time.sleep(0.02)


def applied(url: str) -> tuple[int, int]:
    (row,) = query(
        url, "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM rating_history)"
    )
    return row  # type: ignore[return-value]


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[list[LocalRedis]]:
    """A private persistent redis-server; the list holds the current process."""
    servers = [start_redis(data_dir=str(tmp_path / "redis"), persistent=True)]
    yield servers
    servers[-1].stop()


def test_the_worker_waits_through_a_redis_restart_and_goes_on(
    store: Store, schema_url: str, restartable: list[LocalRedis], caplog: pytest.LogCaptureFixture
) -> None:
    server = restartable[0]
    port = urllib.parse.urlsplit(server.url).port
    connection = Redis.from_url(
        server.url, protocol=2, socket_timeout=5, retry=Retry(NoBackoff(), 0)
    )
    queue = Queue("ratings", connection=connection, serializer=JSONSerializer)
    first = [jobs.enqueue_finished_match(queue, m, retry_intervals=()).id for m in matches(3)]
    batch = BatchWorker(
        connection,
        queue.name,
        lambda: store,
        batch_size=10,
        alive_ttl_s=5,
        redis_pauses_s=(0.05, 0.1, 0.2),
    )
    errors: list[BaseException] = []

    def run() -> None:
        try:
            batch.work(idle_wait_s=1)
        except BaseException as exc:  # reported below
            errors.append(exc)

    caplog.set_level(logging.WARNING, logger="king_rating.batchworker")
    thread = threading.Thread(target=run, name="ratings-worker", daemon=True)
    thread.start()
    try:
        wait_for(lambda: applied(schema_url) == (3, 12), "the first matches rated")
        server.stop()  # SIGTERM: Redis writes its append-only file and exits
        wait_for(
            lambda: not thread.is_alive() or "Redis is unavailable" in caplog.text,
            "the worker meeting the outage",
        )
        assert thread.is_alive(), f"the worker stopped: {errors!r}"
        time.sleep(0.3)  # down a little longer: the worker keeps trying meanwhile
        assert thread.is_alive(), f"the worker stopped: {errors!r}"
        restartable.append(
            start_redis(data_dir=str(Path(server.data_dir or "")), port=port, persistent=True)
        )
        later = [
            jobs.enqueue_finished_match(queue, m, retry_intervals=()).id
            for m in matches(3, start=10)
        ]
        wait_for(lambda: applied(schema_url) == (6, 24), "the matches after the restart rated")
        for job_id in first + later:
            wait_for(
                lambda job_id=job_id: (
                    Job.fetch(job_id, connection=connection, serializer=JSONSerializer).get_status()
                    == "finished"
                ),
                f"job {job_id} finished",
            )
        assert thread.is_alive(), f"the worker stopped: {errors!r}"
        assert "Redis is back" in caplog.text
    finally:
        batch.stop()
        thread.join(timeout=WAIT_S)
    assert not thread.is_alive()
    assert errors == []
    assert connection.keys(f"{queue.key}:batch:inflight:*") == []
    assert applied(schema_url) == (6, 24)
