"""The ratings worker's batch loop: many queued RQ jobs, one Postgres transaction.

Producers still put one RQ job per finished match on the ``ratings`` queue
(``finished-match-<id>``, one JSON argument). Instead of RQ's worker, whose bookkeeping per job
(status, registries, heartbeats, execution records: some 57 Redis commands) costs more than
the ingestion, this loop takes up to ``batch_size`` queued job ids at a time and works them as
one:

1. **Claim.** One Lua script moves the ids at the head of the queue's list into this worker's
   in-flight list (``<queue key>:batch:inflight:<worker>``) atomically, so a job is always
   either queued or claimed by exactly one live worker. The first id is awaited with
   ``BLMOVE`` when the queue is empty.
2. **Read.** One pipeline reads what the batch needs of each job (four fields of the job's
   hash, not all of them as ``Job.fetch_many`` would); a job that cannot be read (its data
   does not deserialize, another function, a message that is not a valid finished match, a
   rated match of a ruleset that has no ratings) is a poison message: it goes to the
   failed-job registry with its reason and the batch goes on without it.
3. **Ingest.** ``batch.ingest_batch``: one transaction for the valid messages, in queue order,
   the match id the idempotency key. If the batch fails for anything but a lost database (
   Postgres refuses a match's data, or applying a match raises), it is split in halves until
   the one match at fault is alone, and that one fails with its reason: the rest of the batch
   is archived and rated. If Postgres cannot be reached, the batch stays claimed and is tried
   again with a growing pause (``--burst``: it goes back to the head of the queue and the
   worker exits with an error).
4. **Finish.** One pipeline marks every job finished (status, result with what ingestion did,
   finished registry, result TTL) or failed, and empties the in-flight list.

The loop keeps Postgres busy: while one batch's transaction runs, a second thread claims and
reads the next batch and finishes the one before (steps 1, 2 and 4 are Redis and Python, step 3
is Postgres), so a worker holds at most two batches in flight, in claim order in its in-flight
list; finishing a batch trims its ids off the head of that list. That second claim does not
wait for jobs: when the queue is empty, a batch is finished as soon as it is ingested, not
when the next job comes.

A worker that stops with an error gives its in-flight jobs back to the head of the queue
itself. One that dies without a word (kill, lost host, Redis away at that moment) stops
refreshing its ``alive`` key; every worker checks the other batch workers' keys when it starts
and every ``alive_ttl_s`` after, and puts a dead worker's in-flight jobs back at the head of the
queue, in their order. The workers set lists every worker that may hold claimed jobs (a claim
adds its worker; only giving its list back removes it), and a worker that starts also scans
for in-flight lists by key, so no list is left behind whatever way its worker ended. A batch
that had been committed before the death is then ingested again as duplicates, so it is
applied once. Due jobs in the queue's scheduled registry (retries left by RQ's own worker) are
moved back to the queue by the same check.

Redis going away (a restart) does not stop the worker: it waits for Redis with growing pauses
(``redis_pauses_s``), gives back what it had claimed (duplicates again where committed) and
goes on (``--burst`` stops with the error instead).

What this relies on from RQ (beyond its documented Job, Result and registry API): the queue is
a Redis list of job ids at ``Queue.key`` whose left end is the next job. The seam is recorded in
docs/library-seams.md and checked by tests/rating/test_batch_worker.py.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import psycopg
from king_metrics import record_rating_ingested
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, FinishedJobRegistry
from rq.results import Result
from rq.serializers import JSONSerializer

from king_message import INGEST_JOB_FUNCTION, FinishedMatch
from king_rating.batch import ingest_batch
from king_rating.jobs import FAILURE_TTL, RESULT_TTL
from king_rating.store import Ingested, Store, require_rated_ruleset

log = logging.getLogger(__name__)

#: Matches per transaction: large enough that the commit and the round trips vanish in the
#: per-match work, small enough that a transaction stays short (tens of milliseconds).
DEFAULT_BATCH_SIZE = 500

#: Redis is unreachable (down, restarting, still loading its data): wait and try again.
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError)

# Move up to ARGV[1] ids from the head of the queue (KEYS[1]) to the in-flight list (KEYS[2]),
# and list the worker ARGV[2] in the workers set (KEYS[3]): a worker that holds claimed jobs
# is always listed there, whatever happened to its set entry before.
_CLAIM = """
redis.call('SADD', KEYS[3], ARGV[2])
local n = tonumber(ARGV[1])
if n <= 0 then return {} end
local ids = redis.call('LRANGE', KEYS[1], 0, n - 1)
if #ids > 0 then
    redis.call('LTRIM', KEYS[1], #ids, -1)
    redis.call('RPUSH', KEYS[2], unpack(ids))
end
return ids
"""

# A dead worker's in-flight ids (KEYS[1]) back to the head of the queue (KEYS[2]) in their
# order, unless its alive key (KEYS[3]) is back; forget it in the worker set (KEYS[4]). ARGV[2]
# 'own': a worker giving back its own claim, alive or not.
_RECOVER = """
if ARGV[2] ~= 'own' and redis.call('EXISTS', KEYS[3]) == 1 then return -1 end
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
for i = #ids, 1, -1 do redis.call('LPUSH', KEYS[2], ids[i]) end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[4], ARGV[1])
return #ids
"""


#: What the batch reads of a queued job's hash (``_read_jobs``); ``status`` tells a job whose
#: data is missing from one that does not exist.
_JOB_FIELDS = ("data", "status", "result_ttl", "failure_ttl")


class Poison(Exception):
    """A job that no retry can ingest; its reason goes to the failed-job registry."""


@dataclass(frozen=True, slots=True)
class BatchReport:
    taken: int
    ingested: dict[str, int]
    failed: int


@dataclass(slots=True)
class _Batch:
    """A claim, read: how many ids it took off the queue (``taken`` of them distinct), its
    messages and its poison."""

    claimed: int
    taken: int
    valid: list[tuple[Job, FinishedMatch]] = field(default_factory=list)
    failed: list[tuple[Job, str]] = field(default_factory=list)


class BatchWorker:
    def __init__(
        self,
        connection: Redis,
        queue_name: str,
        store: Callable[[], Store],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        name: str | None = None,
        alive_ttl_s: float = 30.0,
        retry_pauses_s: Sequence[float] = (0.5, 1, 2, 5, 10, 30),
        redis_pauses_s: Sequence[float] = (0.1, 0.25, 0.5, 1, 2, 5),
    ) -> None:
        self.connection = connection
        self.queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)
        self.store = store
        self.batch_size = max(1, batch_size)
        self.name = name or uuid.uuid4().hex[:12]
        self.alive_ttl_s = alive_ttl_s
        self.retry_pauses_s = tuple(retry_pauses_s)
        #: Pauses between tries while Redis is away; the last one repeats.
        self.redis_pauses_s = tuple(redis_pauses_s) or (1.0,)
        base = f"{self.queue.key}:batch"
        self.workers_key = f"{base}:workers"
        self.inflight_key = self.inflight_key_of(self.name)
        self.alive_key = self.alive_key_of(self.name)
        self._claim = connection.register_script(_CLAIM)
        self._recover = connection.register_script(_RECOVER)
        self._stop = threading.Event()
        self._last_check = 0.0
        self._taken = 0  # jobs taken off the queue by this run of ``work``

    def inflight_key_of(self, name: str) -> str:
        return f"{self.queue.key}:batch:inflight:{name}"

    def alive_key_of(self, name: str) -> str:
        return f"{self.queue.key}:batch:alive:{name}"

    # ------------------------------------------------------------------ liveness

    def beat(self) -> None:
        with self.connection.pipeline() as pipe:
            pipe.set(self.alive_key, "1", px=int(self.alive_ttl_s * 1000))
            pipe.sadd(self.workers_key, self.name)
            pipe.execute()

    def _beat_forever(self) -> None:
        while not self._stop.wait(self.alive_ttl_s / 3):
            try:
                self.beat()
            except REDIS_DOWN as exc:
                log.warning("ratings worker %s: heartbeat failed: %s", self.name, exc)
            except Exception:
                log.exception("ratings worker %s: heartbeat failed", self.name)

    def recover(self, scan: bool = False) -> int:
        """Requeue the in-flight jobs of batch workers that stopped beating; how many.

        The workers set lists every worker that may hold claimed jobs. ``scan`` also looks the
        in-flight lists up by key, for a list whose worker is missing from the set (an older
        version took a crashed worker off the set with its jobs still claimed); a SCAN reads
        the whole key space, so ``work`` does it once, when it starts.
        """
        names = {_text(raw) for raw in self.connection.smembers(self.workers_key)}
        if scan:
            prefix = self.inflight_key_of("")
            pattern = _glob_escape(prefix) + "*"
            for key in self.connection.scan_iter(match=pattern, count=1000):
                names.add(_text(key)[len(prefix) :])
        names.discard(self.name)
        moved = 0
        for other in sorted(names):
            keys = [
                self.inflight_key_of(other),
                self.queue.key,
                self.alive_key_of(other),
                self.workers_key,
            ]
            count = int(self._recover(keys=keys, args=[other, "other"]))
            if count > 0:
                log.warning("ratings worker %s: requeued %d jobs of %s", self.name, count, other)
                moved += count
        return moved

    def schedule_due(self) -> int:
        """Move due jobs of the queue's scheduled registry (RQ retries) back to the queue."""
        registry = self.queue.scheduled_job_registry
        moved = 0
        for job_id in registry.get_jobs_to_schedule(int(time.time())):
            job = self.queue.fetch_job(job_id)
            registry.remove(job_id)
            if job is not None:
                self.queue.enqueue_job(job)
                moved += 1
        return moved

    def _check_others(self) -> None:
        now = time.monotonic()
        if now - self._last_check >= self.alive_ttl_s:
            self._last_check = now
            self.recover()
            self.schedule_due()

    # ------------------------------------------------------------------ one batch

    def claim(self, wait_s: int = 0) -> list[str]:
        """Claim up to ``batch_size`` queued job ids (waiting up to ``wait_s`` for one)."""
        ids: list[str] = []
        if wait_s > 0:
            first = self.connection.blmove(
                self.queue.key, self.inflight_key, wait_s, "LEFT", "RIGHT"
            )
            if first is None:
                return []
            ids.append(_text(first))
        more = self._claim(
            keys=[self.queue.key, self.inflight_key, self.workers_key],
            args=[self.batch_size - len(ids), self.name],
        )
        ids += [_text(i) for i in more]
        return ids

    def work_claimed(self, ids: list[str], burst: bool = False) -> BatchReport:
        """Ingest the claimed jobs ``ids`` and record their outcomes; empties the claim."""
        batch = self.read_claimed(ids)
        try:
            results = self.ingest_batch(batch, burst)
        except psycopg.OperationalError:
            self._give_back()
            raise
        return self.finish_batch(batch, results)

    def read_claimed(self, ids: list[str]) -> _Batch:
        """The claimed jobs ``ids``, read and parsed; poison messages are set aside."""
        # A producer's retry under the same job id can put that id on the list twice: one job.
        unique = list(dict.fromkeys(ids))
        jobs = self._read_jobs(unique)
        batch = _Batch(claimed=len(ids), taken=len(unique))
        for job in jobs:
            if job is None:
                continue  # expired or deleted while queued: nothing to do
            try:
                batch.valid.append((job, _message_of(job)))
            except Poison as exc:
                batch.failed.append((job, f"Poison: {exc}"))
        return batch

    def ingest_batch(self, batch: _Batch, burst: bool = False) -> list[Ingested | str]:
        """Step 3: the batch's valid messages into Postgres, one result (or reason) each."""
        return self._ingest([m for _, m in batch.valid], burst)

    def finish_batch(self, batch: _Batch, results: list[Ingested | str]) -> BatchReport:
        """Record every job's outcome and take the batch off the head of the claim."""
        done: list[tuple[Job, FinishedMatch, Ingested]] = []
        failed = list(batch.failed)
        for (job, message), result in zip(batch.valid, results, strict=True):
            if isinstance(result, Ingested):
                done.append((job, message, result))
            else:
                failed.append((job, result))
        self._finish(done, failed, batch.claimed)
        counts: dict[str, int] = {}
        for _, message, result in done:
            counts[str(result)] = counts.get(str(result), 0) + 1
            record_rating_ingested(str(result), _lag(message))
        return BatchReport(batch.taken, counts, len(failed))

    def _read_jobs(self, ids: list[str]) -> list[Job | None]:
        """The jobs ``ids`` with what the batch uses of them (None: no such job).

        Only the fields in ``_JOB_FIELDS`` are read: ``Job.fetch_many`` reads and parses the
        whole hash (some 19 fields and their dates), a quarter of the worker's CPU per
        match. A job that fails is read again in full before it is recorded (``_finish``).
        """
        with self.connection.pipeline(transaction=False) as pipe:
            for job_id in ids:
                pipe.hmget(Job.key_for(job_id), _JOB_FIELDS)
            rows = pipe.execute()
        jobs: list[Job | None] = []
        for job_id, (data, status, result_ttl, failure_ttl) in zip(ids, rows, strict=True):
            if data is None and status is None:
                jobs.append(None)
                continue
            job = Job(job_id, connection=self.connection, serializer=JSONSerializer)
            try:
                job.data = zlib.decompress(data or b"")
            except zlib.error:  # what ``Job.restore`` does: stored uncompressed
                job.data = data or b""
            # A job whose TTLs do not read gets the defaults: a bad field must not stop the loop.
            job.result_ttl = _int_or_none(result_ttl)
            job.failure_ttl = _int_or_none(failure_ttl)
            jobs.append(job)
        return jobs

    def _ingest(self, messages: list[FinishedMatch], burst: bool) -> list[Ingested | str]:
        pauses = iter(self.retry_pauses_s)
        pause = 0.0
        while True:
            try:
                return _bisect(self.store(), messages)
            except psycopg.OperationalError as exc:
                if burst or self._stop.is_set():
                    raise  # the caller gives the claim back
                pause = next(pauses, pause)
                log.warning(
                    "ratings worker %s: the database is unavailable (%s); the batch of %d "
                    "waits %.1f s",
                    self.name,
                    exc,
                    len(messages),
                    pause,
                )
                time.sleep(pause)

    def _give_back(self) -> None:
        """Put the claimed jobs back at the head of the queue, in their order."""
        self._recover(
            keys=[self.inflight_key, self.queue.key, self.alive_key, self.workers_key],
            args=[self.name, "own"],
        )

    def _finish(
        self,
        done: list[tuple[Job, FinishedMatch, Ingested]],
        failed: list[tuple[Job, str]],
        claimed: int,
    ) -> None:
        finished = FinishedJobRegistry(queue=self.queue)
        failures = FailedJobRegistry(queue=self.queue)
        if failed:
            # Recording a failure saves the whole job: read it in full first.
            full = Job.fetch_many(
                [job.id for job, _ in failed], connection=self.connection, serializer=JSONSerializer
            )
            pairs = zip(failed, full, strict=True)
            failed = [(whole or job, reason) for (job, reason), whole in pairs]
        # Not a MULTI: a worker that dies half-way leaves its in-flight list (trimmed last), so
        # the whole claim is requeued and finishes as duplicates.
        with self.connection.pipeline(transaction=False) as pipe:
            for job, _, result in done:
                ttl = job.result_ttl if job.result_ttl is not None else RESULT_TTL
                job.set_status(JobStatus.FINISHED, pipeline=pipe)
                Result.create(
                    job, Result.Type.SUCCESSFUL, ttl, return_value=str(result), pipeline=pipe
                )
                if ttl != 0:
                    finished.add(job, ttl, pipe)
                # What ``Job.cleanup`` does, less the expiry of the dependency sets (these
                # jobs have none): the job and its result stay ``ttl`` seconds.
                if ttl > 0:
                    pipe.expire(job.key, ttl)
                elif ttl == 0:
                    pipe.delete(job.key)
            for job, reason in failed:
                ttl = job.failure_ttl if job.failure_ttl is not None else FAILURE_TTL
                job.set_status(JobStatus.FAILED, pipeline=pipe)
                failures.add(job, ttl=ttl, exc_string=reason, pipeline=pipe)
                Result.create_failure(job, ttl, exc_string=reason, pipeline=pipe)
                log.error("ratings worker %s: job %s failed: %s", self.name, job.id, reason)
            pipe.ltrim(self.inflight_key, claimed, -1)
            pipe.execute()

    # ------------------------------------------------------------------ the loop

    def stop(self) -> None:
        self._stop.set()

    def work(self, burst: bool = False, idle_wait_s: int = 1) -> int:
        """Work batches until stopped (or, with ``burst``, until the queue is empty); return
        how many jobs were taken.

        Redis going away does not end it: it waits until Redis answers, gives back what it had
        claimed and goes on (a ``burst`` raises instead). Whatever ends it, its in-flight jobs
        go back to the head of the queue (when Redis is there to take them; otherwise another
        worker requeues them once its ``alive`` key expires)."""
        self._taken = 0
        self.beat()
        beating = threading.Thread(target=self._beat_forever, name="ratings-beat", daemon=True)
        beating.start()
        outage = False
        try:
            while True:
                try:
                    if outage:
                        # What the outage interrupted is unknown (a claim, a finish half
                        # written): every claimed job goes back, a committed one comes back a
                        # duplicate.
                        self._give_back()
                        self.beat()
                        outage = False
                        log.warning("ratings worker %s: Redis is back", self.name)
                    self.recover(scan=True)
                    self.schedule_due()
                    self._last_check = time.monotonic()
                    self._work_batches(burst, idle_wait_s)
                    return self._taken
                except REDIS_DOWN as exc:
                    if burst:
                        raise
                    log.warning(
                        "ratings worker %s: Redis is unavailable (%s); waiting for it",
                        self.name,
                        exc,
                    )
                    outage = True
                    if not self._wait_for_redis():
                        return self._taken  # stopped meanwhile
        finally:
            self._stop.set()
            beating.join(timeout=5)
            try:
                self._give_back()
                self.connection.delete(self.alive_key)
            except REDIS_DOWN as exc:
                log.warning(
                    "ratings worker %s: could not give back its claimed jobs (%s); another "
                    "worker requeues them once its alive key expires",
                    self.name,
                    exc,
                )

    def _work_batches(self, burst: bool, idle_wait_s: int) -> None:
        """The batch loop proper, until stopped (``burst``: the queue is empty)."""
        # One helper thread, so its tasks run in the order given: the next batch's claim and
        # read, then the finish of the batch before.
        helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ratings-batch")
        finishing: Future[BatchReport] | None = None
        try:
            batch = self._next(not burst, idle_wait_s)
            while batch is not None:
                # Without waiting for jobs: when none are queued, the finish below runs as soon
                # as this batch is ingested instead of when the next job arrives.
                coming = helper.submit(self._next, False, idle_wait_s)
                try:
                    results = self.ingest_batch(batch, burst)
                except psycopg.OperationalError:
                    # The helper's claim and finish land first: what is left in flight (this
                    # batch and the next) goes back to the head of the queue, in order.
                    coming.cancel()
                    for task in (finishing, coming):
                        with contextlib.suppress(Exception):
                            if task is not None and not task.cancelled():
                                task.result()
                    self._give_back()
                    raise
                if finishing is not None:
                    self._taken += finishing.result().taken
                finishing = helper.submit(self.finish_batch, batch, results)
                batch = coming.result()
                if batch is None:
                    self._taken += finishing.result().taken
                    finishing = None
                    batch = self._next(not burst, idle_wait_s)
        finally:
            # After an error: a task not started is dropped, its jobs stay claimed (the caller
            # gives them back).
            helper.shutdown(wait=True, cancel_futures=True)

    def _next(self, wait: bool, idle_wait_s: int) -> _Batch | None:
        """The next claimed batch, read; None when stopped or, unless ``wait``, when the queue
        is empty."""
        while not self._stop.is_set():
            self._check_others()
            ids = self.claim(idle_wait_s if wait else 0)
            if ids:
                return self.read_claimed(ids)
            if not wait:
                return None
        return None

    def _wait_for_redis(self) -> bool:
        """Wait until Redis answers, with growing pauses; False when stopped meanwhile."""
        pauses = iter(self.redis_pauses_s)
        pause = self.redis_pauses_s[0]
        while not self._stop.is_set():
            try:
                self.connection.ping()
                return True
            except REDIS_DOWN:
                pause = next(pauses, pause)
                self._stop.wait(pause)
        return False


def _message_of(job: Job) -> FinishedMatch:
    """The job's message; ``Poison`` (whatever goes wrong) when it cannot be ingested."""
    try:
        func_name = job.func_name
        args: Any = job.args
        kwargs: Any = job.kwargs
    except Exception as exc:  # the stored data does not deserialize
        raise Poison(f"unreadable job data: {type(exc).__name__}: {exc}") from exc
    if func_name != INGEST_JOB_FUNCTION:
        raise Poison(f"not a finished-match job: {func_name}")
    if not isinstance(args, list | tuple) or len(args) != 1 or kwargs:
        raise Poison("a finished-match job takes exactly one argument, the message")
    (message,) = args
    try:
        if isinstance(message, str):
            parsed = FinishedMatch.from_json(message)
        else:
            parsed = FinishedMatch.from_dict(message)
        require_rated_ruleset(parsed)
        return parsed
    except ValueError as exc:
        raise Poison(f"MalformedMessage: {exc}") from exc
    except Exception as exc:  # anything else a message makes the checks raise is its fault
        raise Poison(f"MalformedMessage: {type(exc).__name__}: {exc}") from exc


def _bisect(store: Store, messages: list[FinishedMatch]) -> list[Ingested | str]:
    """``ingest_batch``, except that a match Postgres refuses for its data, or whose
    application raises, fails alone (its reason in place of a result) and the rest are
    ingested, still in their order. Only a lost database (``OperationalError``) stops the
    batch: no match is at fault, and it is tried again whole."""
    if not messages:
        return []
    try:
        return list(ingest_batch(store, messages))
    except psycopg.OperationalError:
        raise
    except Exception as exc:
        if len(messages) == 1:
            if not isinstance(exc, psycopg.Error):  # not the database's refusal: a defect here
                log.error("ratings: applying match %s raised", messages[0].match_id, exc_info=True)
            return [f"{type(exc).__name__}: {exc}".strip()]
    half = len(messages) // 2
    return _bisect(store, messages[:half]) + _bisect(store, messages[half:])


def _lag(message: FinishedMatch) -> float | None:
    try:
        return (datetime.now(UTC) - message.ended).total_seconds()
    except ValueError:
        return None


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def _int_or_none(raw: bytes | str | None) -> int | None:
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


def _glob_escape(text: str) -> str:
    """``text`` as a literal in a Redis glob pattern (a queue name may hold ``*`` or ``[``)."""
    return "".join("\\" + ch if ch in "*?[]\\" else ch for ch in text)
