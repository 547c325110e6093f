"""The bot worker command: ``python -m king_bots.worker [--burst] [queues...]``.

The policies and the engine are imported here, in the parent, before any job runs, and RQ's
``SimpleWorker`` runs jobs in the worker process itself instead of forking one child per job:
a bot turn takes milliseconds, and a fork per job would cost more than the turn. Jobs are JSON
(``JSONSerializer``), never pickle. Run several workers for more throughput.
"""

from __future__ import annotations

import argparse
import sys

import king_metrics
from redis import Redis
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

import king_bots.jobs
import king_bots.policies  # noqa: F401
import king_engine  # noqa: F401  (preloaded: jobs start warm)
from king_match import BOTS_QUEUE, MatchSettings


def build_worker(
    redis_url: str | None = None, queues: list[str] | None = None, name: str | None = None
) -> SimpleWorker:
    # Jobs come from the queue Redis; the jobs reach matches through the match Redis
    # (``king_bots.jobs.get_store``).
    connection = Redis.from_url(redis_url or MatchSettings.from_env().queue_url)
    names = queues or [BOTS_QUEUE]
    return SimpleWorker(
        [Queue(n, connection=connection, serializer=JSONSerializer) for n in names],
        connection=connection,
        serializer=JSONSerializer,
        name=name,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m king_bots.worker", description=__doc__)
    parser.add_argument("queues", nargs="*", help=f"queues to serve (default: {BOTS_QUEUE})")
    parser.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    parser.add_argument(
        "--redis-url", help="the queue Redis (defaults to $QUEUE_REDIS_URL, else $REDIS_URL)"
    )
    args = parser.parse_args(argv)
    # Readable lines in development, JSON with KING_ENV=production or KING_LOG_FORMAT=json.
    king_metrics.configure_logging("bots")
    king_metrics.serve_metrics()  # on $KING_METRICS_PORT when set
    worker = build_worker(args.redis_url, args.queues or None)
    worker.work(burst=args.burst, logging_level="WARNING", with_scheduler=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
