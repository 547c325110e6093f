"""The RQ side of the match layer's jobs: JSON serializer, deterministic ids, never pickle.

Every process that writes matches (the game service, its clock sweeper, the bot workers)
hands the jobs a write causes to this one adapter. It is kept out of ``king_match/__init__``
so that the rest of the match layer needs only redis.
"""

from __future__ import annotations

from redis import Redis
from rq import Queue, Retry
from rq.serializers import JSONSerializer

from .jobs import JobSpec


class RQEnqueuer:
    """Puts a ``JobSpec`` on its RQ queue (``bots`` or ``ratings``)."""

    def __init__(self, connection: Redis) -> None:
        self.connection = connection
        self._queues: dict[str, Queue] = {}  # Queue objects are cheap but not free: reuse

    def queue(self, name: str) -> Queue:
        if name not in self._queues:
            self._queues[name] = Queue(name, connection=self.connection, serializer=JSONSerializer)
        return self._queues[name]

    def enqueue(self, job: JobSpec) -> None:
        retry = (
            Retry(max=len(job.retry_intervals), interval=list(job.retry_intervals))
            if job.retry_intervals
            else None
        )
        self.queue(job.queue).enqueue_call(
            func=job.function,
            args=job.args,
            kwargs=job.kwargs,
            job_id=job.job_id,
            ttl=job.ttl,
            result_ttl=job.result_ttl,
            failure_ttl=job.failure_ttl,
            retry=retry,
            description=job.description or None,
        )
