"""The rating worker: ``python -m king_rating.worker [--burst] [--queue NAME] [--per-job]``.

By default it runs the batch loop (``king_rating.batchworker``): up to ``--batch-size``
(``RATING_BATCH_SIZE``, default 500) queued finished-match jobs at a time, one Postgres
transaction each batch, exactly once per match id. ``--per-job`` runs RQ's in-process
``SimpleWorker`` instead, one job and one transaction at a time (the path before batching,
kept for comparison and as a fallback); both take the same jobs from the same queue and may run
side by side. Run several workers for more throughput; ingestion is safe under any number of
concurrent workers. The batch loop rides out a Redis restart (it waits for Redis and goes on);
it exits on SIGTERM or SIGINT once the batch in hand is finished.
"""

from __future__ import annotations

import argparse
import signal
import sys
from types import FrameType

import king_metrics
from redis import Redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from king_rating import jobs
from king_rating.batchworker import BatchWorker
from king_rating.config import Settings


def build_worker(redis_url: str, queue_name: str) -> SimpleWorker:
    """RQ's worker, one job at a time (``--per-job``)."""
    connection = Redis.from_url(redis_url)
    queue = jobs.ratings_queue(connection, queue_name)
    worker = SimpleWorker(
        [queue],
        connection=connection,
        serializer=JSONSerializer,
        exception_handlers=[jobs.no_retry_for_malformed],
    )
    return worker


def build_batch_worker(
    redis_url: str, queue_name: str, batch_size: int, alive_ttl_s: float = 30.0
) -> BatchWorker:
    # RESP2: redis-py's pure-Python RESP3 parser costs about twice as much per reply, and a
    # batch reads thousands of them. The timeouts turn a Redis that hangs (a lost host, a
    # stopped process) into an error the worker waits out, as it waits out a restart; the
    # longest command, the claim's BLMOVE, blocks for a second.
    return BatchWorker(
        Redis.from_url(redis_url, protocol=2, socket_connect_timeout=5, socket_timeout=30),
        queue_name,
        jobs.get_store,
        batch_size=batch_size,
        alive_ttl_s=alive_ttl_s,
    )


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_env()
    parser = argparse.ArgumentParser(prog="python -m king_rating.worker", description=__doc__)
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument("--queue", default=settings.queue_name)
    parser.add_argument("--redis-url", default=settings.redis_url, help="the queue Redis")
    parser.add_argument("--batch-size", type=int, default=settings.batch_size)
    parser.add_argument(
        "--alive-ttl-s",
        type=float,
        default=30.0,
        help="a batch worker silent this long is dead: its claimed jobs are requeued",
    )
    parser.add_argument(
        "--per-job", action="store_true", help="RQ's worker: one job, one transaction"
    )
    args = parser.parse_args(argv)
    # Readable lines in development, JSON with KING_ENV=production or KING_LOG_FORMAT=json.
    king_metrics.configure_logging("ratings-worker")
    king_metrics.serve_metrics()  # on $KING_METRICS_PORT when set
    if args.per_job:
        worker = build_worker(args.redis_url, args.queue)
        worker.work(burst=args.burst, with_scheduler=True, logging_level="INFO")
        return 0
    batch = build_batch_worker(args.redis_url, args.queue, args.batch_size, args.alive_ttl_s)

    def stop(signum: int, frame: FrameType | None) -> None:
        batch.stop()  # the batch in hand is finished first

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        batch.work(burst=args.burst)
    except Exception as exc:
        print(f"ratings worker stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
