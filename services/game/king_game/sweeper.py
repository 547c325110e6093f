"""The clock sweeper command: ``python -m king_game.sweeper``.

Runs ``king_match.Sweeper`` (leased: start as many as you like, one sweeps at a time) with the
RQ enqueuer, so timeouts, bot fallback moves, bot takeovers and finished-match re-deliveries
happen even when no client is connected.
"""

from __future__ import annotations

import logging
import signal
import sys
from types import FrameType

import king_metrics
from redis import Redis

from king_match import MatchSettings, MatchStore, Sweeper, connect
from king_match.rq_enqueuer import RQEnqueuer


class MeteredSweeper(Sweeper):
    """The clock sweeper, counting the timeouts it applies for the metrics."""

    def sweep_once(self) -> int:
        changed = super().sweep_once()
        for _ in range(changed):
            king_metrics.record_clock_timeout("all")
        return changed


def build(settings: MatchSettings | None = None) -> Sweeper:
    settings = settings or MatchSettings.from_env()
    redis = connect(settings)
    queues = Redis.from_url(settings.queue_url) if settings.separate_queues else redis
    store = MatchStore(
        redis, settings, RQEnqueuer(queues), on_finished=king_metrics.record_match_finished
    )
    return MeteredSweeper(store)


def main(argv: list[str] | None = None) -> int:
    # Readable lines in development, JSON with KING_ENV=production or KING_LOG_FORMAT=json.
    king_metrics.configure_logging("clock")
    king_metrics.serve_metrics()  # on $KING_METRICS_PORT when set
    # The series exists from the start (at 0), so a dashboard or an alert can read it.
    king_metrics.CLOCK_TIMEOUTS.labels(mode="all")
    sweeper = build()

    def stop(signum: int, frame: FrameType | None) -> None:
        sweeper.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    logging.info("clock sweeper %s started", sweeper.owner)
    sweeper.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
