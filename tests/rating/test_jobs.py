"""The queue path: exactly-once under duplicate and concurrent delivery, and recovery.

Real Redis and real RQ workers; Postgres is taken away with a TCP proxy that cuts every
connection, the way a database restart or a network failure would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import zlib
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis
from rq import Queue, Retry, SimpleWorker
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from king_message import INGEST_JOB_FUNCTION
from king_rating import jobs, replay
from king_rating.store import Store

from .conftest import MakeMatch, TcpProxy, query

pytestmark = pytest.mark.integration

PLAYERS = ("ayse", "burak", "cem", "deniz")
MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def run_worker(queue: Queue) -> None:
    worker = SimpleWorker(
        [queue],
        connection=queue.connection,
        serializer=JSONSerializer,
        exception_handlers=[jobs.no_retry_for_malformed],
    )
    worker.work(burst=True, with_scheduler=False)


def wait_until_reachable(store: Store, seconds: float = 30.0) -> None:
    """The database "returns": wait until the pool has reconnected (it backs off while down)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            store.ping()
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def applied(url: str) -> tuple[int, int, int]:
    (row,) = query(
        url,
        "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM rating_history), "
        "(SELECT coalesce(sum(matches), 0) FROM weekly_scores)",
    )
    return row  # type: ignore[return-value]


def test_a_job_ingests_its_match_and_a_repeated_job_is_a_no_op(
    store: Store, schema_url: str, queue: Queue, make_match: MakeMatch
) -> None:
    message = make_match(PLAYERS, ended_at=MIDWEEK)
    first = jobs.enqueue_finished_match(queue, message)
    run_worker(queue)
    assert first.get_status(refresh=True) == "finished"
    assert first.return_value() == "rated"
    again = jobs.enqueue_finished_match(queue, message)  # a producer retry: same job id
    assert again.id == first.id
    run_worker(queue)
    assert again.return_value() == "duplicate"
    assert applied(schema_url) == (1, 4, 4)


def test_duplicates_under_different_job_ids_are_applied_once(
    store: Store, schema_url: str, queue: Queue, make_match: MakeMatch
) -> None:
    message = make_match(PLAYERS, ended_at=MIDWEEK)
    for copy in range(5):
        queue.enqueue(INGEST_JOB_FUNCTION, message.to_json(), job_id=f"copy-{copy}")
    run_worker(queue)
    assert applied(schema_url) == (1, 4, 4)


def test_two_worker_processes_on_the_same_messages_apply_each_match_once(
    schema_url: str, redis_url: str, queue: Queue, make_match: MakeMatch
) -> None:
    messages = [make_match(PLAYERS, ended_at=MIDWEEK + timedelta(minutes=i)) for i in range(40)]
    # Every message is on the queue three times, under three job ids.
    for copy in range(3):
        for message in messages:
            queue.enqueue(
                INGEST_JOB_FUNCTION, message.to_json(), job_id=f"m{copy}-{message.match_id}"
            )
    env = dict(os.environ, DATABASE_URL=schema_url, REDIS_URL=redis_url, RATING_QUEUE=queue.name)
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "king_rating.worker", "--burst"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    for worker in workers:
        assert worker.wait(timeout=120) == 0
    assert applied(schema_url) == (40, 160, 160)
    assert query(schema_url, "SELECT sum(rated_matches) FROM ratings") == [(160,)]
    assert FailedJobRegistry(queue=queue).count == 0


def test_matches_wait_while_the_database_is_down_and_are_applied_once_after_replay(
    schema_url: str, queue: Queue, db_proxy: TcpProxy, make_match: MakeMatch
) -> None:
    store = Store(db_proxy.url_for(schema_url), min_size=1, max_size=2, connect_timeout=1)
    jobs.set_store(store)
    try:
        store.ping()
        db_proxy.down()
        messages = [make_match(PLAYERS, ended_at=MIDWEEK + timedelta(hours=i)) for i in range(3)]
        for message in messages:
            jobs.enqueue_finished_match(queue, message, retry_intervals=(0,))
        run_worker(queue)  # each job: first attempt fails, retried at once, fails again
        registry = FailedJobRegistry(queue=queue)
        assert registry.count == 3
        assert applied(schema_url) == (0, 0, 0)  # nothing half-applied

        failed = sorted(registry.get_job_ids())
        db_proxy.restore()
        wait_until_reachable(store)
        assert sorted(replay.replay(queue.connection, queue.name)) == failed
        run_worker(queue)
        assert registry.count == 0
        assert applied(schema_url) == (3, 12, 12)

        # Replaying again (an operator's second try) is harmless.
        for message in messages:
            jobs.enqueue_finished_match(queue, message)
        run_worker(queue)
        assert applied(schema_url) == (3, 12, 12)
    finally:
        jobs.set_store(None)
        store.close()


def test_the_database_going_away_between_jobs_loses_nothing(
    schema_url: str, queue: Queue, db_proxy: TcpProxy, make_match: MakeMatch
) -> None:
    store = Store(db_proxy.url_for(schema_url), min_size=1, max_size=2, connect_timeout=1)
    jobs.set_store(store)
    try:
        first = make_match(PLAYERS, ended_at=MIDWEEK)
        jobs.enqueue_finished_match(queue, first)
        run_worker(queue)
        assert applied(schema_url) == (1, 4, 4)
        db_proxy.down()  # pooled connections are cut
        second = make_match(PLAYERS, ended_at=MIDWEEK + timedelta(hours=1))
        job = jobs.enqueue_finished_match(queue, second, retry_intervals=())
        run_worker(queue)
        assert job.get_status(refresh=True) == "failed"
        db_proxy.restore()
        wait_until_reachable(store)
        replay.replay(queue.connection, queue.name)
        run_worker(queue)
        assert applied(schema_url) == (2, 8, 8)
    finally:
        jobs.set_store(None)
        store.close()


def test_a_malformed_message_goes_to_the_failed_registry_without_retries(
    store: Store, schema_url: str, queue: Queue
) -> None:
    job = queue.enqueue(INGEST_JOB_FUNCTION, '{"match_id": "x"}', job_id="bad-message", retry=None)
    job2 = queue.enqueue(
        INGEST_JOB_FUNCTION, "not json", job_id="bad-message-2", retry=Retry(max=3)
    )
    run_worker(queue)
    assert job.get_status(refresh=True) == "failed"
    assert job2.get_status(refresh=True) == "failed"
    assert "MalformedMessage" in (job2.latest_result().exc_string or "")  # type: ignore[union-attr]
    assert FailedJobRegistry(queue=queue).count == 2
    assert applied(schema_url) == (0, 0, 0)


def test_jobs_are_stored_as_json_never_pickle(
    store: Store, queue: Queue, redis_conn: Redis, make_match: MakeMatch
) -> None:
    job = jobs.enqueue_finished_match(queue, make_match(PLAYERS, ended_at=MIDWEEK))
    raw = redis_conn.hget(job.key, "data")
    assert raw is not None
    decoded = zlib.decompress(raw)
    assert decoded.startswith(b"[") or decoded.startswith(b"{")


def test_the_replay_command_lists_and_requeues_failed_jobs(
    store: Store,
    schema_url: str,
    queue: Queue,
    redis_url: str,
    make_match: MakeMatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = make_match(PLAYERS, ended_at=MIDWEEK)
    job = jobs.enqueue_finished_match(queue, good, retry_intervals=())
    # Simulate a job that failed while the database was away: move it to the failed registry.
    FailedJobRegistry(queue=queue).add(job, ttl=3600, exc_string="PoolTimeout: down")
    queue.remove(job.id)
    args = ["--queue", queue.name, "--redis-url", redis_url]
    assert replay.main(["--list", *args]) == 0
    assert job.id in capsys.readouterr().out
    assert replay.main(["--all", *args]) == 0
    assert "replayed 1 job(s)" in capsys.readouterr().out
    run_worker(queue)
    assert applied(schema_url) == (1, 4, 4)
    with pytest.raises(SystemExit):
        replay.main(args)  # neither ids nor --all
