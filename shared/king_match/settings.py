"""Settings of the match layer: clock lengths and key names, read from the environment.

Clock lengths come from RULES.md §1: a live move has 30 s plus a 2-minute reserve for the whole
match; a move against the computer has 10 minutes and no reserve. Tests and the benchmark
shorten them through the environment (``KING_LIVE_MOVE_MS`` ..., ``KING_BOT_CALL_ANSWER_MS``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True, slots=True)
class ClockSettings:
    live_move_ms: int = 30_000  # RULES.md §1: 30 s a move
    live_reserve_ms: int = 120_000  # RULES.md §1: 2-minute reserve per match
    computer_move_ms: int = 600_000  # RULES.md §1: 10 minutes a move, no reserve
    #: A bot seat that has not moved this long after its turn began gets a legal move from the
    #: clock sweeper instead, so a bot never loses on time (its jobs normally answer in ms).
    bot_fallback_ms: int = 5_000
    #: A bot's answer in a redeal round leaves this long after its job started, whatever it
    #: answers, so its speed does not tell whether its cards let it ask (RULES-traditional §8.2).
    bot_call_answer_ms: int = 400
    #: Level of the automated player that takes over the seat of a live player who forfeited.
    takeover_level: str = "easy"


@dataclass(frozen=True, slots=True)
class MatchSettings:
    redis_url: str = DEFAULT_REDIS_URL
    #: The plain Redis of the RQ queues (``bots``, ``ratings``); None: the match Redis. RQ does
    #: not run on Redis Cluster, so a clustered match store needs a queue Redis of its own.
    queue_redis_url: str | None = None
    key_prefix: str = "king:"
    clocks: ClockSettings = ClockSettings()
    #: How long a finished match (state, events, transcript, rating message) stays in Redis.
    retention_s: int = 8 * 24 * 3600
    #: How long an idempotency key remembers its first answer.
    idempotency_ttl_s: int = 24 * 3600
    #: Match state on a Redis Cluster (``REDIS_CLUSTER=on``): ``REDIS_URL`` names one node.
    cluster: bool = False
    #: Buckets of matches on a cluster (``keys.py``); fixed for the life of a deployment.
    buckets: int = 256
    #: On a cluster with replicas: a commit is answered once this many replicas hold it
    #: (``commit.CommitScript``), waiting at most ``wait_ms``; 0: answered at once.
    wait_replicas: int = 0
    wait_ms: int = 500
    #: Rulesets the engine plays that the product does not offer yet (``served.py``): the match
    #: layer seats them (tests, the arena, a staging stack); the API's schema never offers them.
    preview_rulesets: tuple[str, ...] = ()

    @property
    def queue_url(self) -> str:
        """Where every RQ job is enqueued and worked: ``QUEUE_REDIS_URL``, else ``REDIS_URL``
        (not on a cluster, where RQ cannot run: there it must be given)."""
        if self.cluster and not self.queue_redis_url:
            raise ValueError("REDIS_CLUSTER=on needs QUEUE_REDIS_URL: RQ cannot run on a cluster")
        return self.queue_redis_url or self.redis_url

    @property
    def separate_queues(self) -> bool:
        """Whether the queues live on another Redis than the match state."""
        return self.cluster or self.queue_url != self.redis_url

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MatchSettings:
        source = os.environ if env is None else env
        clocks = ClockSettings(
            live_move_ms=int(source.get("KING_LIVE_MOVE_MS", "30000")),
            live_reserve_ms=int(source.get("KING_LIVE_RESERVE_MS", "120000")),
            computer_move_ms=int(source.get("KING_COMPUTER_MOVE_MS", "600000")),
            bot_fallback_ms=int(source.get("KING_BOT_FALLBACK_MS", "5000")),
            bot_call_answer_ms=int(source.get("KING_BOT_CALL_ANSWER_MS", "400")),
            takeover_level=source.get("KING_TAKEOVER_LEVEL", "easy"),
        )
        return cls(
            redis_url=source.get("REDIS_URL", DEFAULT_REDIS_URL),
            queue_redis_url=source.get("QUEUE_REDIS_URL") or None,
            key_prefix=source.get("KING_KEY_PREFIX", "king:"),
            clocks=clocks,
            retention_s=int(source.get("KING_RETENTION_S", str(8 * 24 * 3600))),
            idempotency_ttl_s=int(source.get("KING_IDEMPOTENCY_TTL_S", str(24 * 3600))),
            cluster=source.get("REDIS_CLUSTER", "off").lower() in ("on", "1", "true", "yes"),
            buckets=int(source.get("KING_BUCKETS", "256")),
            wait_replicas=int(source.get("KING_WAIT_REPLICAS", "0")),
            wait_ms=int(source.get("KING_WAIT_MS", "500")),
            preview_rulesets=tuple(
                name.strip()
                for name in source.get("KING_PREVIEW_RULESETS", "").split(",")
                if name.strip()
            ),
        )
