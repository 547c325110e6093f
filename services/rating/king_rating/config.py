"""Settings from the environment, with defaults that work on a developer's machine."""

from __future__ import annotations

import os
from dataclasses import dataclass

from king_message import RATINGS_QUEUE

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/king_rating"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    #: The queue Redis (the service's only Redis): ``QUEUE_REDIS_URL``, else ``REDIS_URL``.
    redis_url: str = DEFAULT_REDIS_URL
    queue_name: str = RATINGS_QUEUE
    #: A finished week is frozen this long after it ends, so matches that ended just before
    #: midnight but are still in the queue land on their own week.
    freeze_grace_seconds: int = 3600
    pool_min_size: int = 1
    pool_max_size: int = 10
    #: Finished matches the worker ingests per transaction (``king_rating.batchworker``).
    batch_size: int = 500

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("DATABASE_URL", DEFAULT_DATABASE_URL),
            redis_url=env.get("QUEUE_REDIS_URL") or env.get("REDIS_URL", DEFAULT_REDIS_URL),
            queue_name=env.get("RATING_QUEUE", RATINGS_QUEUE),
            freeze_grace_seconds=int(env.get("RATING_FREEZE_GRACE_SECONDS", "3600")),
            pool_min_size=int(env.get("RATING_DB_POOL_MIN", "1")),
            pool_max_size=int(env.get("RATING_DB_POOL_MAX", "10")),
            batch_size=int(env.get("RATING_BATCH_SIZE", "500")),
        )
