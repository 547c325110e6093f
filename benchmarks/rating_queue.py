"""The path from the ``ratings`` queue to committed rows, batch worker and RQ's worker side by
side (``bench_rating``'s ``rating.ingest_rq_*`` and ``rating.catchup_*`` figures).

Each measurement gets a private redis-server, enqueues finished matches the way the game
service does (one RQ job per match, ``finished-match-<id>``), starts worker processes
(``python -m king_rating.worker``, batch loop or ``--per-job``) and polls Postgres until every
one of its matches is archived.

* ``backlog``: the whole backlog is queued before the workers start; the time and the workers'
  CPU run from the first job they take off the queue to the last commit, so a worker's start-up
  (imports, connections: about 0.6 s of CPU each) is not counted as ingestion.
* ``catch-up``: matches keep finishing at a steady ``rate`` the whole time; the workers are
  down for ``outage_s`` (the backlog grows), then start, and the figure is the time until they
  have caught up (every match queued ``CAUGHT_UP_LAG_S`` or more ago committed), their start-up
  included.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from redis import Redis
from rq import Queue
from rq.serializers import JSONSerializer

from king_message import FinishedMatch

QUEUE = "ratings-bench"

#: Caught up: every match queued this long ago or earlier is committed. Matches keep finishing,
#: so "the queue empty and everything committed" is a race with the producer; a live worker's
#: lag stays well under this.
CAUGHT_UP_LAG_S = 1.0


@dataclass(frozen=True, slots=True)
class QueueRun:
    matches: int
    seconds: float
    failed: int
    #: CPU per match of the worker processes and of the queue's redis-server (Postgres not
    #: included); on a shared machine it varies less than the rate.
    worker_cpu_ms: float
    redis_cpu_ms: float
    #: CPU per match of the workers' Postgres backends (sampled from ``/proc`` while the run
    #: is polled), or None when the server's processes cannot be read here.
    postgres_cpu_ms: float | None = None

    @property
    def per_s(self) -> float:
        return self.matches / self.seconds


def _enqueue_all(queue: Queue, messages: list[FinishedMatch]) -> None:
    """Enqueue like the producers do (``king_rating.jobs.enqueue_finished_match``), pipelined
    in chunks so that building a backlog does not take longer than draining it."""
    from rq import Retry

    from king_message import INGEST_JOB_FUNCTION, job_id_for
    from king_rating.jobs import FAILURE_TTL, RESULT_TTL, RETRY_INTERVALS

    retry = Retry(max=len(RETRY_INTERVALS), interval=list(RETRY_INTERVALS))
    for start in range(0, len(messages), 500):
        with queue.connection.pipeline() as pipe:
            queue.enqueue_many(
                [
                    Queue.prepare_data(
                        INGEST_JOB_FUNCTION,
                        args=(m.to_json(),),
                        job_id=job_id_for(m.match_id),
                        retry=retry,
                        result_ttl=RESULT_TTL,
                        failure_ttl=FAILURE_TTL,
                        description=f"finished match {m.match_id}",
                    )
                    for m in messages[start : start + 500]
                ],
                pipeline=pipe,
            )
            pipe.execute()


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_first_taken(queue: Queue, queued: int, timeout_s: float) -> None:
    """Return as soon as a worker has taken a job off the queue (it holds ``queued``)."""
    deadline = time.monotonic() + timeout_s
    while queue.count >= queued:
        if time.monotonic() > deadline:
            raise TimeoutError("no worker took a job off the queue")
        time.sleep(0.0005)


def _committed(url: str, ids: list[str]) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM matches WHERE match_id = ANY(%s::uuid[])", (ids,)
        ).fetchone()
    return int(row[0]) if row else 0


def _start_workers(
    url: str, redis_url: str, processes: int, per_job: bool, batch_size: int
) -> list[subprocess.Popen[bytes]]:
    env = dict(os.environ, DATABASE_URL=url, QUEUE_REDIS_URL=redis_url, RATING_QUEUE=QUEUE)
    command = [sys.executable, "-m", "king_rating.worker", "--burst"]
    command += ["--per-job"] if per_job else ["--batch-size", str(batch_size)]
    return [
        subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(processes)
    ]


def _wait_committed(url: str, ids: list[str], timeout_s: float) -> float | None:
    """Wait until every match is archived; the CPU seconds its backends used meanwhile: the
    latest reading of each client backend of the database (all of them the workers'; they
    start after this does), or None when ``/proc`` does not show them."""
    deadline = time.monotonic() + timeout_s
    backends: dict[int, float] = {}
    readable = True
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute(
                "SELECT count(*) FROM matches WHERE match_id = ANY(%s::uuid[])", (ids,)
            ).fetchone()
            for (pid,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
            ):
                try:
                    backends[pid] = _cpu_s(pid)
                except OSError:
                    readable = readable and pid in backends  # gone since: keep its last
            if row and row[0] >= len(ids):
                return sum(backends.values()) if readable and backends else None
            if time.monotonic() > deadline:
                raise TimeoutError(f"only {row[0] if row else 0} of {len(ids)} matches committed")
            time.sleep(0.05)


def backlog_run(
    url: str,
    messages: list[FinishedMatch],
    *,
    processes: int,
    per_job: bool,
    batch_size: int = 500,
    forget: Callable[[str, list[FinishedMatch]], None] | None = None,
) -> QueueRun:
    from king_devservers import start_redis

    server = start_redis()
    ids = [m.match_id for m in messages]
    try:
        queue = Queue(QUEUE, connection=Redis.from_url(server.url), serializer=JSONSerializer)
        _enqueue_all(queue, messages)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        workers = _start_workers(url, server.url, processes, per_job, batch_size)
        _wait_first_taken(queue, len(ids), timeout_s=60)
        started = time.perf_counter()
        redis_before = _cpu_s(server.process.pid)
        start_up = sum(_cpu_s(worker.pid) for worker in workers)
        postgres_cpu = _wait_committed(url, ids, timeout_s=900)
        elapsed = time.perf_counter() - started
        redis_cpu = _cpu_s(server.process.pid) - redis_before
        for worker in workers:
            worker.wait(timeout=60)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        worker_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
        worker_cpu -= start_up
        return QueueRun(
            len(ids),
            elapsed,
            queue.failed_job_registry.count,
            1000 * worker_cpu / len(ids),
            1000 * redis_cpu / len(ids),
            None if postgres_cpu is None else 1000 * postgres_cpu / len(ids),
        )
    finally:
        server.stop()
        if forget is not None:
            forget(url, messages)


def catchup_run(
    url: str,
    messages: list[FinishedMatch],
    *,
    rate: float,
    outage_s: float,
    processes: int,
    per_job: bool,
    batch_size: int = 500,
    forget: Callable[[str, list[FinishedMatch]], None] | None = None,
) -> tuple[float, int]:
    """(seconds from the workers' start until caught up, backlog when they started)."""
    from king_devservers import start_redis

    server = start_redis()
    stop = threading.Event()
    sent: list[tuple[str, float]] = []  # (match id, when it was queued)
    try:
        queue = Queue(QUEUE, connection=Redis.from_url(server.url), serializer=JSONSerializer)

        def produce() -> None:
            began = time.perf_counter()
            for index, message in enumerate(messages):
                if stop.is_set():
                    return
                pause = began + index / rate - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                _enqueue_all(queue, [message])
                sent.append((message.match_id, time.perf_counter()))

        producer = threading.Thread(target=produce, daemon=True)
        producer.start()
        time.sleep(outage_s)
        backlog = queue.count
        started = time.perf_counter()
        # Not --burst: the queue empties now and then while matches keep finishing.
        env = dict(os.environ, DATABASE_URL=url, QUEUE_REDIS_URL=server.url, RATING_QUEUE=QUEUE)
        command = [sys.executable, "-m", "king_rating.worker"]
        command += ["--per-job"] if per_job else ["--batch-size", str(batch_size)]
        workers = [
            subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(processes)
        ]
        try:
            deadline = time.monotonic() + 900
            while True:
                now = time.perf_counter()
                due = [i for i, queued in list(sent) if queued <= now - CAUGHT_UP_LAG_S]
                if now - CAUGHT_UP_LAG_S >= started and _committed(url, due) == len(due):
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError("the workers did not catch up with the producer")
                time.sleep(0.05)
            return now - started, backlog
        finally:
            stop.set()
            producer.join()
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=60)
    finally:
        server.stop()
        if forget is not None:
            queued = {match_id for match_id, _ in sent}
            forget(url, [m for m in messages if m.match_id in queued])
