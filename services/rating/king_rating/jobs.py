"""RQ glue: the job that ingests one finished-match message, and how to enqueue it.

The worker (``king_rating.batchworker``) takes these jobs in batches and does not call the
function; what follows is how RQ's own worker (``python -m king_rating.worker --per-job``) runs
it, one job at a time.

The job takes the message as one JSON string (JSON serializer, never pickle) and re-reads
everything else from Postgres, so a retried or replayed job is harmless: the store applies each
match id exactly once. When Postgres is unreachable the job raises, RQ schedules a retry with a
growing back-off, and after the last retry the job rests in the failed-job registry until an
operator replays it (``python -m king_rating.replay``). A malformed message (or a rated match of
a ruleset that has no ratings) is not retried: it goes straight to the failed-job registry with
the reason, to be replayed once the service knows the ruleset.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any

from king_metrics import record_rating_ingested
from redis import Redis
from rq import Queue, Retry
from rq.job import Job
from rq.serializers import JSONSerializer

from king_message import INGEST_JOB_FUNCTION, FinishedMatch, job_id_for
from king_rating.config import Settings
from king_rating.store import Store, require_rated_ruleset

#: Back-off between attempts, in seconds: about two hours in all before the failed registry.
RETRY_INTERVALS = (5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600)
#: How long a failed job is kept for replay.
FAILURE_TTL = int(timedelta(days=30).total_seconds())
#: How long the result of a finished job is kept (for operators looking at a match).
RESULT_TTL = int(timedelta(days=1).total_seconds())


class MalformedMessage(ValueError):
    """The message cannot be ingested however often it is tried."""


_store: Store | None = None
_store_lock = threading.Lock()


def get_store() -> Store:
    """The process-wide store, created from the environment on first use."""
    global _store
    with _store_lock:
        if _store is None:
            settings = Settings.from_env()
            _store = Store(
                settings.database_url,
                min_size=settings.pool_min_size,
                max_size=settings.pool_max_size,
                freeze_grace=timedelta(seconds=settings.freeze_grace_seconds),
            )
        return _store


def set_store(store: Store | None) -> None:
    """Use ``store`` for the jobs of this process (the worker command and tests)."""
    global _store
    with _store_lock:
        _store = store


def ingest_finished_match(message: str | dict[str, Any]) -> str:
    """The job: archive and rate one finished match. Returns what was done."""
    try:
        parsed = (
            FinishedMatch.from_json(message)
            if isinstance(message, str)
            else FinishedMatch.from_dict(message)
        )
        require_rated_ruleset(parsed)
    except ValueError as exc:
        raise MalformedMessage(str(exc)) from exc
    result = get_store().ingest(parsed).value
    try:
        ended = datetime.fromisoformat(parsed.ended_at.replace("Z", "+00:00"))
        lag: float | None = (datetime.now(UTC) - ended).total_seconds()
    except ValueError:
        lag = None
    record_rating_ingested(str(result), lag)
    return result


def no_retry_for_malformed(
    job: Job,
    exc_type: type[BaseException],
    exc_value: BaseException,
    traceback: TracebackType | None,
) -> bool:
    """Worker exception handler: a malformed message goes to the failed registry at once."""
    if isinstance(exc_value, MalformedMessage):
        job.retries_left = None
    return True  # let the default handling (failed registry) go on


def ratings_queue(connection: Redis, name: str | None = None) -> Queue:
    return Queue(
        name or Settings.from_env().queue_name, connection=connection, serializer=JSONSerializer
    )


def enqueue_finished_match(
    queue: Queue, message: FinishedMatch, retry_intervals: tuple[int, ...] = RETRY_INTERVALS
) -> Job:
    """Put a message on the queue the way producers should: deterministic id, retries."""
    retry = (
        Retry(max=len(retry_intervals), interval=list(retry_intervals)) if retry_intervals else None
    )
    return queue.enqueue(
        INGEST_JOB_FUNCTION,
        message.to_json(),
        job_id=job_id_for(message.match_id),
        retry=retry,
        failure_ttl=FAILURE_TTL,
        result_ttl=RESULT_TTL,
        description=f"finished match {message.match_id}",
    )
