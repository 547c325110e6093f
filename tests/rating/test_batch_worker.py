"""The batch worker on real Redis and Postgres: claims, poison jobs, crashes, order.

Jobs are enqueued the way producers enqueue them (one RQ job per finished match); the worker
is ``king_rating.batchworker.BatchWorker``, in this process or as ``python -m
king_rating.worker`` processes that get killed.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta

import psycopg
import pytest
from rq import Queue
from rq.job import Job
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from king_message import INGEST_JOB_FUNCTION
from king_rating import jobs
from king_rating.batch import ingest_batch
from king_rating.batchworker import BatchWorker
from king_rating.store import Store

from .conftest import MIDWEEK, PEOPLE, TcpProxy, build_match, enqueue, matches, query

pytestmark = pytest.mark.integration


def worker(queue: Queue, store: Store, **kwargs: object) -> BatchWorker:
    return BatchWorker(queue.connection, queue.name, lambda: store, **kwargs)  # type: ignore[arg-type]


def applied(url: str) -> tuple[int, int, int]:
    (row,) = query(
        url,
        "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM rating_history), "
        "(SELECT coalesce(sum(rated_matches), 0) FROM ratings)",
    )
    return row  # type: ignore[return-value]


def test_a_claim_takes_the_oldest_jobs_in_queue_order(store: Store, queue: Queue) -> None:
    # The one thing relied on beyond RQ's documented API: the queue is a list of job ids at
    # Queue.key, next job on the left (docs/library-seams.md).
    ids = enqueue(queue, matches(7))
    claimer = worker(queue, store, batch_size=5)
    assert claimer.claim() == ids[:5]
    assert queue.get_job_ids() == ids[5:]
    assert claimer.claim(wait_s=1) == ids[5:]
    assert queue.count == 0
    assert claimer.claim() == []


def test_the_lean_read_of_a_job_sees_what_rq_stored(store: Store, queue: Queue) -> None:
    # The batch reads four fields of each job's hash instead of Job.fetch_many's whole job
    # (docs/library-seams.md); it must see the same function, argument and TTLs.
    (job_id,) = enqueue(queue, matches(1))
    (lean,) = worker(queue, store)._read_jobs([job_id])
    whole = Job.fetch(job_id, connection=queue.connection, serializer=JSONSerializer)
    assert lean is not None
    assert (lean.func_name, lean.args, lean.kwargs) == (whole.func_name, whole.args, whole.kwargs)
    assert (lean.result_ttl, lean.failure_ttl) == (whole.result_ttl, whole.failure_ttl)
    assert lean.result_ttl is not None and lean.failure_ttl is not None
    assert worker(queue, store)._read_jobs(["no-such-job"]) == [None]


def test_a_failed_job_keeps_what_rq_stored_of_it(store: Store, queue: Queue) -> None:
    # Recording a failure saves the whole job, so the lean read must not be what is saved.
    queue.enqueue(INGEST_JOB_FUNCTION, '{"match_id": "x"}', job_id="invalid",
                  description="a described job", result_ttl=77, job_timeout=33)  # fmt: skip
    before = Job.fetch("invalid", connection=queue.connection, serializer=JSONSerializer)
    worker(queue, store).work(burst=True)
    failed = Job.fetch("invalid", connection=queue.connection, serializer=JSONSerializer)
    assert failed.get_status() == "failed"
    kept = ("description", "result_ttl", "timeout", "origin", "created_at", "enqueued_at")
    assert {k: getattr(failed, k) for k in kept} == {k: getattr(before, k) for k in kept}


def test_a_batch_is_ingested_and_every_job_finishes_with_its_result(
    store: Store, schema_url: str, queue: Queue
) -> None:
    messages = matches(30)
    ids = enqueue(queue, [*messages, messages[0]])  # the last one a producer's retry
    assert worker(queue, store, batch_size=100).work(burst=True) == 30  # one job id: 30 jobs
    assert applied(schema_url) == (30, 120, 120)
    for job_id in ids:
        job = Job.fetch(job_id, connection=queue.connection, serializer=JSONSerializer)
        assert job.get_status() == "finished"
        assert job.return_value() == "rated"


def test_poison_jobs_fail_with_their_reason_and_the_rest_of_the_batch_is_ingested(
    store: Store, schema_url: str, queue: Queue
) -> None:
    good = matches(6)
    enqueue(queue, good[:2])
    queue.enqueue(INGEST_JOB_FUNCTION, '{"match_id": "x"}', job_id="invalid")
    queue.enqueue("os.getcwd", job_id="other-function")
    unreadable = queue.enqueue(INGEST_JOB_FUNCTION, "{}", job_id="unreadable")
    queue.connection.hset(unreadable.key, "data", b"\x00 not zlib, not JSON")
    enqueue(queue, good[2:4])
    # Valid as a message, refused by Postgres (text cannot hold NUL): found by splitting.
    refused = build_match(("nul\x00name", "burak", "cem", "deniz"), ended_at=MIDWEEK)
    enqueue(queue, [refused, *good[4:]])
    assert worker(queue, store, batch_size=50).work(burst=True) == 10
    assert applied(schema_url) == (6, 24, 24)
    registry = FailedJobRegistry(queue=queue)
    assert sorted(registry.get_job_ids()) == sorted(
        ["invalid", "other-function", "unreadable", jobs.job_id_for(refused.match_id)]
    )
    reasons = {
        job_id: Job.fetch(job_id, connection=queue.connection).latest_result().exc_string  # type: ignore[union-attr]
        for job_id in registry.get_job_ids()
    }
    assert "MalformedMessage" in reasons["invalid"]
    assert "os.getcwd" in reasons["other-function"]
    assert "unreadable" in reasons["unreadable"]
    assert (
        "Unicode" in reasons[jobs.job_id_for(refused.match_id)]
        or "0x00" in reasons[jobs.job_id_for(refused.match_id)]
    )


def test_a_dead_workers_claim_is_requeued_in_order_and_applied_once(
    store: Store, schema_url: str, queue: Queue
) -> None:
    messages = matches(40)
    ids = enqueue(queue, messages)
    dead = worker(queue, store, batch_size=25, alive_ttl_s=0.3)
    dead.beat()
    claimed = dead.claim()
    # It committed its batch and died before marking the jobs finished (or before the commit:
    # the second half was never ingested).
    ingest_batch(store, messages[:12])
    time.sleep(0.5)  # its alive key expires
    survivor = worker(queue, store, batch_size=10)
    assert survivor.recover() == 25
    assert queue.get_job_ids() == claimed + ids[25:]
    assert survivor.work(burst=True) == 40
    assert applied(schema_url) == (40, 160, 160)
    results = [
        Job.fetch(i, connection=queue.connection, serializer=JSONSerializer).return_value()
        for i in ids
    ]
    assert results == ["duplicate"] * 12 + ["rated"] * 28
    assert queue.connection.exists(dead.inflight_key_of(dead.name)) == 0


def test_a_live_workers_claim_is_left_alone(store: Store, queue: Queue) -> None:
    enqueue(queue, matches(5))
    busy = worker(queue, store, batch_size=5, alive_ttl_s=30)
    busy.beat()
    busy.claim()
    assert worker(queue, store).recover() == 0
    assert queue.count == 0


def test_a_players_matches_are_applied_in_queue_order_across_batches(
    store: Store, schema_url: str, queue: Queue
) -> None:
    # End times go backwards, so neither end time nor match id gives the queue's order.
    messages = [
        build_match(PEOPLE[:4], places, ended_at=MIDWEEK - timedelta(minutes=i))
        for i, places in enumerate([(1, 2, 3, 4), (4, 3, 2, 1), (2, 1, 4, 3)] * 3)
    ]
    enqueue(queue, messages)
    worker(queue, store, batch_size=2).work(burst=True)
    rows = query(
        schema_url,
        "SELECT match_id::text, rating_before, rating_after FROM rating_history "
        "WHERE player_id = 'ayse' ORDER BY seq",
    )
    assert [r[0] for r in rows] == [m.match_id for m in messages]
    for earlier, later in itertools.pairwise(rows):
        assert later[1] == earlier[2]


def test_killed_worker_processes_lose_nothing_and_apply_each_match_once(
    schema_url: str, redis_url: str, queue: Queue
) -> None:
    messages = matches(3000)
    enqueue(queue, messages)
    env = dict(os.environ, DATABASE_URL=schema_url, REDIS_URL=redis_url, RATING_QUEUE=queue.name)
    command = [sys.executable, "-m", "king_rating.worker", "--batch-size", "100"]
    killed_with_claims = 0
    for _ in range(3):
        process = subprocess.Popen(
            [*command, "--alive-ttl-s", "1"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        start = applied(schema_url)[0]
        while applied(schema_url)[0] < start + 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
        claims = queue.connection.keys(f"{queue.key}:batch:inflight:*")
        killed_with_claims += bool(claims)
    assert killed_with_claims > 0, "every kill fell between two batches"
    time.sleep(1.2)  # the killed workers' alive keys expire
    finished = subprocess.run(
        [*command, "--burst"], env=env, capture_output=True, timeout=300, check=False
    )
    assert finished.returncode == 0, finished.stderr.decode()[-2000:]
    assert applied(schema_url) == (3000, 12000, 12000)
    assert queue.count == 0
    assert queue.connection.keys(f"{queue.key}:batch:inflight:*") == []
    assert FailedJobRegistry(queue=queue).count == 0


def test_a_database_outage_in_a_burst_gives_back_every_batch_in_flight(
    schema_url: str, queue: Queue, db_proxy: TcpProxy
) -> None:
    # The worker holds two batches at a time (one in its transaction, the next claimed): when
    # Postgres goes away, both go back to the queue, in order, and a later run applies every
    # match once.
    messages = matches(60)
    ids = enqueue(queue, messages)
    store = Store(db_proxy.url_for(schema_url), min_size=1, max_size=2)
    cut = threading.Thread(target=lambda: _down_after(schema_url, db_proxy, committed=10))
    cut.start()
    try:
        with pytest.raises(psycopg.OperationalError):
            worker(queue, store, batch_size=5, retry_pauses_s=()).work(burst=True)
    finally:
        cut.join(timeout=30)
        store.close()
    assert queue.connection.keys(f"{queue.key}:batch:inflight:*") == []
    queued = [i.decode() for i in queue.connection.lrange(queue.key, 0, -1)]
    done = {
        job_id
        for job_id in ids
        if Job.fetch(job_id, connection=queue.connection, serializer=JSONSerializer).get_status()
        == "finished"
    }
    assert queued == [i for i in ids if i not in done]  # the rest, in queue order
    db_proxy.restore()
    again = Store(db_proxy.url_for(schema_url), min_size=1, max_size=2)
    try:
        worker(queue, again, batch_size=5).work(burst=True)
    finally:
        again.close()
    assert applied(schema_url) == (60, 240, 240)


def _down_after(url: str, proxy: TcpProxy, committed: int) -> None:
    deadline = time.monotonic() + 20
    while applied(url)[0] < committed and time.monotonic() < deadline:
        time.sleep(0.005)
    proxy.down()
