"""The rating worker: ``python -m king_rating.worker [--burst] [--queue NAME]``.

Runs an RQ worker on the ``ratings`` queue with the JSON serializer and its scheduler (which
brings retried jobs back at their time). It uses RQ's in-process worker: ingestion is a short
Postgres transaction, so forking a work horse per job would cost more than the job, and the
connection pool is kept across jobs. Run several for more throughput; ingestion is safe under
any number of concurrent workers.
"""

from __future__ import annotations

import argparse
import sys

import king_metrics
from redis import Redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from king_rating import jobs
from king_rating.config import Settings


def build_worker(redis_url: str, queue_name: str) -> SimpleWorker:
    connection = Redis.from_url(redis_url)
    queue = jobs.ratings_queue(connection, queue_name)
    worker = SimpleWorker(
        [queue],
        connection=connection,
        serializer=JSONSerializer,
        exception_handlers=[jobs.no_retry_for_malformed],
    )
    return worker


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_env()
    parser = argparse.ArgumentParser(prog="python -m king_rating.worker", description=__doc__)
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument("--queue", default=settings.queue_name)
    parser.add_argument("--redis-url", default=settings.redis_url)
    args = parser.parse_args(argv)
    # Readable lines in development, JSON with KING_ENV=production or KING_LOG_FORMAT=json.
    king_metrics.configure_logging("ratings-worker")
    king_metrics.serve_metrics()  # on $KING_METRICS_PORT when set
    worker = build_worker(args.redis_url, args.queue)
    worker.work(burst=args.burst, with_scheduler=True, logging_level="INFO")
    return 0


if __name__ == "__main__":
    sys.exit(main())
