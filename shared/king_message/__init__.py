"""The finished-match message the game service hands to the rating service, standard library only.

* ``finished_match`` — ``FinishedMatch`` and ``SeatResult``, their JSON form and its schema
  version, the RQ queue and job names and the job id;
* ``winners`` — ``match_winners``, who won from the totals and the forfeits (the engine uses it
  too);
* ``rulesets`` — ``RATED_RULESETS``, the names of the rulesets rated apart, and the default one.

Nothing here imports the engine, the match layer or Redis, so the rating service (or any outside
program) can build and check a message without them.
"""

from .finished_match import (
    INGEST_JOB_FUNCTION,
    RATINGS_QUEUE,
    SCHEMA_VERSION,
    FinishedMatch,
    SeatResult,
    format_utc,
    job_id_for,
    parse_utc,
)
from .rulesets import DEFAULT_RULESET, RATED_RULESETS, is_rated_ruleset
from .winners import match_winners

__all__ = [
    "DEFAULT_RULESET",
    "INGEST_JOB_FUNCTION",
    "RATED_RULESETS",
    "RATINGS_QUEUE",
    "SCHEMA_VERSION",
    "FinishedMatch",
    "SeatResult",
    "format_utc",
    "is_rated_ruleset",
    "job_id_for",
    "match_winners",
    "parse_utc",
]
