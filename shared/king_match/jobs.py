"""Work the match layer hands to queues, described without importing a queue library.

The match layer depends on the standard library and redis only, so it does not talk to RQ
itself: after each write it lists the jobs the change calls for (``JobSpec``) and gives them to
an ``Enqueuer`` that the process supplies (the game service and the bot worker each pass a
small RQ adapter). Two kinds exist:

* a bot's turn: queue ``bots``, function ``king_bots.jobs.play_turn``, JSON keyword arguments
  ``match_id``, ``seat``, ``version``, ``level``; job id ``bot-<match>-<version>``, so a
  repeated enqueue of the same turn is one job;
* a finished match: queue ``ratings``, the rating service's ingest function, the
  ``FinishedMatch`` JSON as the one argument, job id ``finished-match-<match>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from king_message import INGEST_JOB_FUNCTION, RATINGS_QUEUE, FinishedMatch, job_id_for

BOTS_QUEUE: Final = "bots"
BOT_JOB_FUNCTION: Final = "king_bots.jobs.play_turn"
#: The rating service's back-off between attempts (seconds), mirrored from its producer helper.
RATING_RETRY_INTERVALS: Final = (5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600)
RATING_FAILURE_TTL: Final = 30 * 24 * 3600
RATING_RESULT_TTL: Final = 24 * 3600
#: A bot turn that waited this long is pointless: the clock sweeper has moved for the seat.
BOT_JOB_TTL: Final = 600


@dataclass(frozen=True, slots=True)
class JobSpec:
    queue: str
    function: str
    job_id: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    retry_intervals: tuple[int, ...] = ()
    ttl: int | None = None
    result_ttl: int | None = None
    failure_ttl: int | None = None
    description: str = ""


class Enqueuer(Protocol):
    """Puts a job on its queue; raises when the queue cannot be reached."""

    def enqueue(self, job: JobSpec) -> None: ...


class NoQueue:
    """An enqueuer that drops every job (for tools that only read)."""

    def enqueue(self, job: JobSpec) -> None:
        return None


def bot_turn_job(match_id: str, seat: int, version: int, level: str) -> JobSpec:
    return JobSpec(
        queue=BOTS_QUEUE,
        function=BOT_JOB_FUNCTION,
        job_id=f"bot-{match_id}-{version}",
        kwargs={"match_id": match_id, "seat": seat, "version": version, "level": level},
        ttl=BOT_JOB_TTL,
        result_ttl=60,
        failure_ttl=24 * 3600,
        description=f"bot turn: match {match_id} seat {seat} version {version}",
    )


def finished_match_job(message: FinishedMatch) -> JobSpec:
    return JobSpec(
        queue=RATINGS_QUEUE,
        function=INGEST_JOB_FUNCTION,
        job_id=job_id_for(message.match_id),
        args=(message.to_json(),),
        retry_intervals=RATING_RETRY_INTERVALS,
        result_ttl=RATING_RESULT_TTL,
        failure_ttl=RATING_FAILURE_TTL,
        description=f"finished match {message.match_id}",
    )
