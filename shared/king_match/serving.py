"""Whether the game service can take moves, and the outages when it could not.

A player must not lose clock time to the service: while no game-service worker could take a
move, their time stands still. Each game-service worker writes a heartbeat a few times a second
while its event loop runs (``Heartbeat``; a hung or stopped worker writes none). The clock
sweeper watches it (``ServingWatch``): with no fresh heartbeat it applies no timeout and opens
an outage (starting at the last heartbeat); when a heartbeat is fresh again it closes the
outage, and the store gives every waiting match its lost time back
(``MatchStore.give_back_lost_time``, the one place of that rule).

Its keys (``keys.py``): ``serving``, the latest heartbeat, expiring ``STALE_MS`` after it;
``serving:last``, the same kept a day (an outage's start); ``outage``, the start of the outage
going on; ``outages``, a sorted set of the last day's outages ("<start>:<end>" -> end).

Freshness is Redis's: the heartbeat key expires by Redis's clock, so the hosts' clocks need not
agree to the second. A deployment where no worker has written a heartbeat for a day, or ever (a
test with the app in-process, a tool), is taken as serving: the sweeper then works as it always
did.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from redis import Redis

from .keys import Keys

log = logging.getLogger(__name__)

#: How often a game-service worker writes its heartbeat.
HEARTBEAT_EVERY_S: Final = 0.5
#: A heartbeat older than this no longer counts: the service is not serving.
STALE_MS: Final = 2_000
#: Outages older than this are dropped (no turn waits this long).
KEEP_MS: Final = 24 * 3600 * 1000


class Heartbeat:
    """What a game-service worker writes while it can serve (see the module docstring)."""

    def __init__(self, redis: Redis, keys: Keys, clock: Callable[[], float] = time.time) -> None:
        self.redis = redis
        self.keys = keys
        self.clock = clock

    def beat(self) -> None:
        now_ms = int(self.clock() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.keys.heartbeat, now_ms, px=STALE_MS)
        pipe.set(self.keys.last_heartbeat, now_ms, px=KEEP_MS)
        pipe.execute()


@dataclass(frozen=True, slots=True)
class Serving:
    """What the watch saw: ``serving`` (timeouts may be applied), ``resumed`` (an outage
    just ended: waiting matches get their time back)."""

    serving: bool
    resumed: bool = False


class ServingWatch:
    """The sweeper's view of the heartbeats: opens and closes outages (see the module)."""

    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    def check(self, now_ms: int) -> Serving:
        fresh, last, started = self.redis.mget(
            self.keys.heartbeat,
            self.keys.last_heartbeat,
            self.keys.open_outage,
        )
        if fresh is not None:
            if started is None:
                return Serving(True)
            self._close(int(started), int(fresh), now_ms)
            return Serving(True, resumed=True)
        if last is None:
            # No worker has reported within a day, or ever (see the module docstring): the
            # plain clock, after closing an outage left open.
            if started is None:
                return Serving(True)
            self._close(int(started), now_ms, now_ms)
            return Serving(True, resumed=True)
        if started is None and self.redis.set(self.keys.open_outage, int(last), nx=True):
            log.warning("the game service is not serving: clocks stand still")
        return Serving(False)

    def _close(self, start: int, end: int, now_ms: int) -> None:
        end = max(start, end)
        pipe = self.redis.pipeline(transaction=True)
        pipe.zadd(self.keys.outages, {f"{start}:{end}": end})
        pipe.delete(self.keys.open_outage)
        pipe.zremrangebyscore(self.keys.outages, "-inf", now_ms - KEEP_MS)
        pipe.execute()
        log.warning("the game service serves again after %.1f s", (end - start) / 1000)


def lost_ms(redis: Redis, keys: Keys, since_ms: int, now_ms: int) -> int:
    """How much of the time from ``since_ms`` to ``now_ms`` the service was not serving: the
    outages that overlap it, and one going on (counted up to now)."""
    if now_ms <= since_ms:
        return 0
    pipe = redis.pipeline(transaction=False)
    pipe.zrangebyscore(keys.outages, since_ms, "+inf")
    pipe.get(keys.open_outage)
    ended, started = pipe.execute()
    spans: list[tuple[int, int]] = []
    for raw in ended:
        start, _, end = _text(raw).partition(":")
        spans.append((int(start), int(end)))
    if started is not None:
        spans.append((int(started), now_ms))
    lost = 0
    for first, last in spans:
        # (Outages never overlap each other: one is open at a time.)
        lost += max(0, min(last, now_ms) - max(first, since_ms))
    return lost


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)
