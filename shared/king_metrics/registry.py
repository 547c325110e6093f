"""The metrics every King service shares, and the helpers that record them.

Names follow Prometheus conventions: ``_total`` for counters, ``_seconds`` for durations, base
units only. Labels are few and bounded (route templates, not URLs; contract levels, not ids),
so the number of series stays small whatever the traffic.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

#: Request latencies in seconds: fine steps below 50 ms (a move should take a few ms), coarse
#: above (long-polls wait up to ~25 s).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
#: Bot thinking time: easy and medium answer in milliseconds, hard uses up to about a second.
DECISION_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 2, 5)
#: From a match's end to its rating: normally under a second, minutes when Postgres was down.
LAG_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 7200)

HTTP_REQUESTS = Counter(
    "king_http_requests_total",
    "HTTP requests answered, by service, route template, method and status.",
    ["service", "endpoint", "method", "status"],
)
HTTP_REQUEST_SECONDS = Histogram(
    "king_http_request_duration_seconds",
    "Time to produce a response (for streams: until the first byte), in seconds.",
    ["service", "endpoint", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
MOVES = Counter(
    "king_moves_total",
    "Moves applied to matches (contracts chosen and cards played); rate() gives moves/s.",
    ["source"],  # human, bot, timeout
)
BOT_DECISION_SECONDS = Histogram(
    "king_bot_decision_seconds",
    "Time a bot policy spent choosing one move, in seconds (without the natural delay).",
    ["level"],
    buckets=DECISION_BUCKETS,
)
CLOCK_TIMEOUTS = Counter(
    "king_clock_timeouts_total",
    "Clock deadlines that expired and were applied (move clock or reserve ran out).",
    ["mode"],  # live, computer
)
MATCHES_FINISHED = Counter(
    "king_matches_finished_total",
    "Matches that ended, by mode and outcome (finished, forfeit, aborted).",
    ["mode", "outcome"],
)
RATING_INGESTED = Counter(
    "king_rating_ingested_total",
    "Finished-match messages handled by the rating worker, by result.",
    ["result"],  # e.g. applied, duplicate, archived
)
RATING_INGESTION_LAG_SECONDS = Histogram(
    "king_rating_ingestion_lag_seconds",
    "Time from a match's end to its ingestion by the rating worker, in seconds.",
    buckets=LAG_BUCKETS,
)
QUICKMATCH_WAIT_SECONDS = Histogram(
    "king_quickmatch_wait_seconds",
    "Quick match: time from joining the pool to a table found, in seconds.",
    ["pool"],  # ruleset:hands:rated|guest
    buckets=(1, 2.5, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300),
)
QUICKMATCH_SPREAD_ELO = Histogram(
    "king_quickmatch_rating_spread_elo",
    "Quick match: highest minus lowest rating at a table found, in Elo points.",
    ["pool"],
    buckets=(10, 25, 50, 75, 100, 150, 200, 300, 400, 600, 800),
)

#: Callables returning {pool: waiting players} of the quick-match pools, read at every scrape.
QUICKMATCH_POOL_SOURCES: list[Callable[[], dict[str, int]]] = []

#: Callables returning {mode: count} of matches in progress, read at every scrape.
ACTIVE_MATCHES_SOURCES: list[Callable[[], dict[str, int]]] = []
_QUEUE_WATCHES: list[tuple[str, tuple[str, ...]]] = []
_lock = threading.Lock()
_register_lock = threading.Lock()


_MOVES_BY_SOURCE: dict[str, Any] = {}


def record_move(source: str = "human", count: int = 1) -> None:
    """Count ``count`` applied moves made by ``source`` (human, bot or timeout)."""
    child = _MOVES_BY_SOURCE.get(source)
    if child is None:
        child = _MOVES_BY_SOURCE[source] = MOVES.labels(source=source)
    child.inc(count)


def observe_bot_decision(level: str, seconds: float) -> None:
    """Record how long a bot of ``level`` took to decide."""
    BOT_DECISION_SECONDS.labels(level=level).observe(seconds)


def record_clock_timeout(mode: str) -> None:
    """Count one expired clock applied to a match of ``mode``."""
    CLOCK_TIMEOUTS.labels(mode=mode).inc()


def record_match_finished(mode: str, outcome: str) -> None:
    """Count one match that ended."""
    MATCHES_FINISHED.labels(mode=mode, outcome=outcome).inc()


def record_rating_ingested(result: str, lag_seconds: float | None) -> None:
    """Count one ingested message and, when its end time is known, the lag since the end."""
    RATING_INGESTED.labels(result=result).inc()
    if lag_seconds is not None:
        RATING_INGESTION_LAG_SECONDS.observe(max(0.0, lag_seconds))


def record_quickmatch_table(pool: str, waits_s: Sequence[float], spread: float) -> None:
    """One quick-match table found: each player's wait and the table's rating spread."""
    for wait in waits_s:
        QUICKMATCH_WAIT_SECONDS.labels(pool=pool).observe(wait)
    QUICKMATCH_SPREAD_ELO.labels(pool=pool).observe(spread)


def track_quickmatch_pools(source: Callable[[], dict[str, int]]) -> None:
    """Report ``king_quickmatch_waiting{pool}`` from ``source()`` (read from Redis) at every
    scrape."""
    with _lock:
        if source not in QUICKMATCH_POOL_SOURCES:
            QUICKMATCH_POOL_SOURCES.append(source)


def track_active_matches(source: Callable[[], dict[str, int]]) -> None:
    """Report ``king_active_matches{mode}`` from ``source()`` at every scrape.

    The source should read the shared store (e.g. the size of the active-matches index in
    Redis): a count kept in process memory would be wrong with several service copies.
    """
    with _lock:
        if source not in ACTIVE_MATCHES_SOURCES:
            ACTIVE_MATCHES_SOURCES.append(source)


def watch_queues(redis_url: str, queues: Sequence[str]) -> None:
    """Report the length of these RQ queues (and their failed and scheduled registries).

    Read from Redis at scrape time, so every copy of a service reports the same numbers and
    the workers' autoscaler (KEDA, see deploy/k8s) and the dashboards agree.
    """
    entry = (redis_url, tuple(queues))
    with _lock:
        if entry not in _QUEUE_WATCHES:
            _QUEUE_WATCHES.append(entry)


class _ScrapeTimeCollector(Collector):
    """Gauges computed when Prometheus scrapes: active matches and queue lengths."""

    def __init__(self) -> None:
        self._clients: dict[str, Any] = {}

    def describe(self) -> Iterable[GaugeMetricFamily]:
        # Nothing up front: the registry would otherwise call collect() (and Redis) to learn
        # the names when the collector is registered.
        return []

    def _redis(self, url: str) -> Any:
        client = self._clients.get(url)
        if client is None:
            from redis import Redis

            client = Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
            self._clients[url] = client
        return client

    def collect(self) -> Iterable[GaugeMetricFamily]:
        with _lock:
            sources = list(ACTIVE_MATCHES_SOURCES)
            pools = list(QUICKMATCH_POOL_SOURCES)
            watches = list(_QUEUE_WATCHES)
        if pools:
            waiting = GaugeMetricFamily(
                "king_quickmatch_waiting", "Players waiting in a quick-match pool.", labels=["pool"]
            )
            for pool_source in pools:
                try:
                    for pool, count in sorted(pool_source().items()):
                        waiting.add_metric([pool], count)
                except Exception:  # a broken source must not break the scrape
                    continue
            yield waiting
        if sources:
            active = GaugeMetricFamily(
                "king_active_matches", "Matches in progress, by mode.", labels=["mode"]
            )
            totals: dict[str, int] = {}
            for source in sources:
                try:
                    for mode, count in source().items():
                        totals[mode] = totals.get(mode, 0) + count
                except Exception:  # a broken source must not break the scrape
                    continue
            for mode, count in sorted(totals.items()):
                active.add_metric([mode], count)
            yield active
        if watches:
            yield from self._queue_metrics(watches)

    def _queue_metrics(self, watches: list[tuple[str, tuple[str, ...]]]) -> Iterator[Any]:
        waiting = GaugeMetricFamily(
            "king_queue_length", "Jobs waiting in an RQ queue.", labels=["queue"]
        )
        failed = GaugeMetricFamily(
            "king_queue_failed_jobs", "Jobs resting in an RQ failed-job registry.", labels=["queue"]
        )
        scheduled = GaugeMetricFamily(
            "king_queue_scheduled_jobs",
            "Jobs scheduled for later (retries, deadlines) in an RQ queue.",
            labels=["queue"],
        )
        up = GaugeMetricFamily(
            "king_queue_redis_up", "1 when the queues' Redis answered this scrape.", labels=[]
        )
        ok = 1
        for url, names in watches:
            client = self._redis(url)
            try:
                pipe = client.pipeline(transaction=False)
                for name in names:
                    queued, failed_jobs, scheduled_jobs = rq_keys(name)
                    pipe.llen(queued)
                    pipe.zcard(failed_jobs)
                    pipe.zcard(scheduled_jobs)
                results = pipe.execute()
            except Exception:
                ok = 0
                continue
            for index, name in enumerate(names):
                waiting.add_metric([name], results[3 * index])
                failed.add_metric([name], results[3 * index + 1])
                scheduled.add_metric([name], results[3 * index + 2])
        up.add_metric([], ok)
        yield waiting
        yield failed
        yield scheduled
        yield up


def rq_keys(queue: str) -> tuple[str, str, str]:
    """The Redis keys of an RQ queue's waiting jobs (a list), its failed-job registry and its
    scheduled-job registry (sorted sets), from RQ's own key templates: a scrape counts them in
    one pipelined round trip, without building RQ's queue and registry objects. The templates
    are RQ's undocumented class attributes; this is the one place that reads them
    (docs/library-seams.md)."""
    from rq import Queue
    from rq.registry import FailedJobRegistry, ScheduledJobRegistry

    return (
        Queue.redis_queue_namespace_prefix + queue,
        FailedJobRegistry.key_template.format(queue),
        ScheduledJobRegistry.key_template.format(queue),
    )


_SCRAPE_COLLECTOR = _ScrapeTimeCollector()


def multiprocess_dir() -> str | None:
    """The folder of prometheus_client's multiprocess mode, when it is on."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def collect_registry() -> CollectorRegistry:
    """The registry to expose: all processes' numbers in multiprocess mode, else this one's."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        registry.register(_SCRAPE_COLLECTOR)
        return registry
    with _register_lock:
        if not getattr(REGISTRY, "_king_scrape_registered", False):
            REGISTRY.register(_SCRAPE_COLLECTOR)
            REGISTRY._king_scrape_registered = True  # type: ignore[attr-defined]
    return REGISTRY


def mark_process_dead(pid: int) -> None:
    """Gunicorn ``child_exit`` hook body: drop a dead worker's live gauges (multiprocess)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def serve_metrics(port: int | None = None, addr: str = "0.0.0.0") -> int | None:
    """Serve ``/metrics`` for a worker process on ``port`` (default ``$KING_METRICS_PORT``).

    Returns the port, or None when no port is configured (metrics then stay in memory or in
    the multiprocess folder, where a web process of the same host exposes them).
    """
    chosen = port if port is not None else int(os.environ.get("KING_METRICS_PORT", "0") or 0)
    if not chosen:
        return None
    start_http_server(chosen, addr=addr, registry=collect_registry())
    return chosen
