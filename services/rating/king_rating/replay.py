"""Operator command: replay finished-match jobs from the failed-job registry.

``python -m king_rating.replay --list`` shows the failed jobs with their last error;
``python -m king_rating.replay --all`` (or ``JOB_ID ...``) puts them back on the queue. A replay
is always safe: ingestion applies each match id once, so a job that had in fact been applied
becomes a no-op. Run it once Postgres (or whatever failed) is healthy again.
"""

from __future__ import annotations

import argparse
import sys

from redis import Redis
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from king_rating import jobs
from king_rating.config import Settings


def failed_registry(connection: Redis, queue_name: str) -> FailedJobRegistry:
    queue = jobs.ratings_queue(connection, queue_name)
    return FailedJobRegistry(queue=queue, serializer=JSONSerializer)


def replay(connection: Redis, queue_name: str, job_ids: list[str] | None = None) -> list[str]:
    """Requeue the given failed jobs (all when ``job_ids`` is None); return the ids requeued."""
    registry = failed_registry(connection, queue_name)
    wanted = registry.get_job_ids() if job_ids is None else job_ids
    done = []
    for job_id in wanted:
        try:
            registry.requeue(job_id)
        except (InvalidJobOperation, NoSuchJobError):
            continue
        done.append(job_id)
    return done


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_env()
    parser = argparse.ArgumentParser(prog="python -m king_rating.replay", description=__doc__)
    parser.add_argument("job_ids", nargs="*", help="failed job ids to replay")
    parser.add_argument("--all", action="store_true", help="replay every failed job")
    parser.add_argument("--list", action="store_true", help="only list the failed jobs")
    parser.add_argument("--queue", default=settings.queue_name)
    parser.add_argument("--redis-url", default=settings.redis_url)
    args = parser.parse_args(argv)
    connection = Redis.from_url(args.redis_url)
    if args.list:
        registry = failed_registry(connection, args.queue)
        for job_id in registry.get_job_ids():
            try:
                job = Job.fetch(job_id, connection=connection, serializer=JSONSerializer)
            except NoSuchJobError:
                continue
            result = job.latest_result()
            reason = ((result.exc_string if result else None) or "").strip().splitlines()
            print(f"{job_id}\t{reason[-1] if reason else ''}")
        return 0
    if not args.all and not args.job_ids:
        parser.error("give job ids, or --all")
    done = replay(connection, args.queue, None if args.all else args.job_ids)
    print(f"replayed {len(done)} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
