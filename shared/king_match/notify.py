"""Wake the long-polls and streams of one process with one Redis connection, and hand them
the new events without another round trip.

A client following a match waits for its next event. Doing that with a blocking Redis read
would hold one Redis connection per waiting client — thousands of connections, and tens of
kilobytes of Redis memory each. Instead every commit publishes on its match's channel (inside
the same Lua script that appends to the match's log) a message that carries the change itself
(``commitmsg.py``). Each service process runs one ``EventNotifier``: a thread on one Pub/Sub
connection (pattern ``<prefix>evn:*``). For a match that has local followers it decodes the
events once into a short contiguous cache and wakes just that match's waiters, which take their
events from the cache; it files the commit's record and state in the process's latest-commit
cache (``latest.py``, ``commits``), which the write path reads. A follower that is behind the
cache (it connected late, or a message was lost) reads the match's log in Redis instead: the
log stays the truth, the caches only save round trips.

No wake-up is lost: a waiter registers *before* it reads, and the notifier keeps the latest
sequence number of every match that has waiters, so a commit that lands between the read and
the wait is seen by the wait's predicate. Each waiter has its own event, set by the commits of
its own match only (not by every commit the process hears of). Under gevent (the game service's
workers) the thread is a greenlet and the waiters are gevent's own events; the lock is a plain
OS lock, held only for a few dictionary operations (``sync.py``).

The same connection carries other broadcasts of the service (``on_channel``): for example the
revoked-token channel, so each process can drop a revoked token from its own cache. A callback
gets the message's text, or None after a reconnect (messages may have been missed).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from redis import Redis
from redis.exceptions import TimeoutError as RedisTimeoutError

from . import commitmsg
from .keys import DEFAULT_BUCKETS, Keys, is_cluster
from .latest import LastCommit, LatestCommits
from .shards import ShardedChannels
from .sync import Waiter, primitives

log = logging.getLogger(__name__)

#: Events kept per followed match: a few tricks' worth, enough for any follower that keeps up.
CACHE_EVENTS = 64
#: How often the ticker wakes waiters whose time is up (the precision of a wait's timeout).
TICK_S = 0.1


class _Watch:
    __slots__ = ("events", "latest", "waiters", "waiting")

    def __init__(self) -> None:
        #: The events of the follows waiting right now (each set once, then dropped).
        self.waiting: list[Waiter] = []
        self.latest = 0
        self.waiters = 0
        #: A contiguous run of the latest decoded events (each with its ``seq``).
        self.events: deque[dict[str, Any]] = deque(maxlen=CACHE_EVENTS)


class EventNotifier:
    def __init__(
        self,
        redis: Redis,
        prefix: str,
        commits: LatestCommits | None = None,
        buckets: int = DEFAULT_BUCKETS,
    ) -> None:
        self.redis = redis
        self.keys = Keys(prefix, buckets if is_cluster(redis) else 0)
        #: On a cluster: the shard channels of the followed matches (``shards.py``).
        self.shards = (
            ShardedChannels(redis, self._sharded, self._lost) if self.keys.buckets else None
        )
        #: The latest commit of each followed match, for the write path (``latest.py``).
        self.commits = commits or LatestCommits()
        self.pattern = self.keys.channels
        self.prefix_len = len(prefix) + len("evn:")
        new_lock, self._new_waiter = primitives()
        self.lock = new_lock()
        self.watches: dict[str, _Watch] = {}
        self._thread: threading.Thread | None = None
        self._started = threading.Lock()
        self._stop = threading.Event()
        #: Set once Redis has confirmed the subscription (and again after each reconnect):
        #: commits published before it are not seen. Tests wait for it; a service does not
        #: need to (what it misses at start it reads from Redis).
        self.subscribed = threading.Event()
        self._channels: dict[str, Callable[[str | None], None]] = {}
        #: Waiters in ``wait`` by the tick at which their time is up (``_tick_of``), for the
        #: ticker: each tick takes only the ticks that have passed, not every waiter.
        self._sleeping: dict[int, set[Waiter]] = {}

    def on_channel(self, channel: str, callback: Callable[[str | None], None]) -> None:
        """Call ``callback(text)`` for every message on ``channel`` (register before
        ``start``), and ``callback(None)`` after the listener reconnected."""
        self._channels[channel] = callback

    def start(self) -> None:
        """Start the listener thread and the ticker (once: the listener reconnects by itself
        until ``stop``)."""
        if self._thread is not None:
            return  # the common case, without a lock: every follower's read calls this
        with self._started:
            if self._thread is None:
                ticker = threading.Thread(target=self._tick, name="king-ticker", daemon=True)
                ticker.start()
                thread = threading.Thread(target=self._listen, name="king-events", daemon=True)
                thread.start()
                self._thread = thread

    def stop(self) -> None:
        self._stop.set()
        if self.shards is not None:
            self.shards.stop()

    def _listen(self) -> None:
        while not self._stop.is_set():
            pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
            try:
                expected = len(self._channels)
                if self.shards is None:
                    pubsub.psubscribe(self.pattern)  # (on a cluster: shard channels instead)
                    expected += 1
                if self._channels:
                    pubsub.subscribe(*self._channels)
                elif not expected:
                    self.subscribed.set()  # nothing to listen to here
                    self._stop.wait()
                    return
                read_reply = reply_reader(pubsub)
                while not self._stop.is_set():
                    try:
                        reply = read_reply()
                    except RedisTimeoutError:
                        continue  # nothing for the socket timeout: look at the stop flag
                    if self._stop.is_set():
                        break
                    if not isinstance(reply, list) or len(reply) < 3:
                        continue
                    kind = reply[0]
                    if kind == b"pmessage" and len(reply) == 4:
                        channel, data = reply[2], reply[3]
                        self._received(channel[self.prefix_len :].decode(), data.decode())
                    elif kind == b"message":
                        self._broadcast(reply[1].decode(), reply[2].decode())
                    elif kind in (b"psubscribe", b"subscribe") and reply[2] == expected:
                        # (the reply counts the connection's subscriptions: all are made)
                        self.subscribed.set()
            except Exception as exc:
                # Expected when Redis restarts: one line, not a traceback.
                self.subscribed.clear()
                log.warning("event notifier lost its connection (%s); reconnecting", exc)
                time.sleep(0.5)
                self._lost()
                for callback in self._channels.values():
                    callback(None)
            finally:
                try:
                    pubsub.close()
                except Exception:
                    log.debug("closing the Pub/Sub connection failed", exc_info=True)

    def _lost(self) -> None:
        """Messages may have been missed: every follower re-reads the log."""
        self.commits.forget()
        with self.lock:
            for watch in self.watches.values():
                watch.latest += 1
                watch.events.clear()
                _wake(watch)

    def _sharded(self, channel: str, text: str) -> None:
        self._received(channel.rpartition("evn:")[2], text)

    def _received(self, match_id: str, text: str) -> None:
        with self.lock:
            watch = self.watches.get(match_id)
        if watch is None:
            return  # nobody here follows this match: nothing to decode
        try:
            message = commitmsg.decode(text)
            events = message.events()
        except ValueError:
            log.warning("unreadable event message for match %s", match_id)
            self.commits.forget(match_id)
            with self.lock:
                watch.events.clear()
                watch.latest += 1  # its followers re-read the log
                _wake(watch)
            return
        first, last = message.first, message.last
        with self.lock:
            if last <= watch.latest and watch.events and watch.events[-1]["seq"] >= last:
                return
            if watch.events and watch.events[-1]["seq"] != first - 1:
                watch.events.clear()  # a gap: start a new contiguous run
            watch.events.extend(events)
            if last > watch.latest:
                watch.latest = last
            _wake(watch)
        self.commits.put(
            match_id,
            LastCommit(last, message.turn, message.version, message.meta, message.state_hex),
        )
        with self.lock:
            followed = match_id in self.watches
        if not followed:  # its last follower left meanwhile: keep no copy that goes stale
            self.commits.forget(match_id)

    def _broadcast(self, channel: str, text: str) -> None:
        callback = self._channels.get(channel)
        if callback is None:
            return
        try:
            callback(text)
        except Exception:
            log.exception("a callback of channel %s failed", channel)

    @contextmanager
    def watching(self, match_id: str) -> Iterator[None]:
        """Register interest in a match (before reading its stream)."""
        self.start()
        with self.lock:
            watch = self.watches.get(match_id)
            if watch is None:
                watch = self.watches[match_id] = _Watch()
            watch.waiters += 1
        if self.shards is not None:
            self.shards.subscribe(self.keys.channel(match_id))
        try:
            yield
        finally:
            with self.lock:
                watch.waiters -= 1
                followed = watch.waiters > 0
                if not followed:
                    self.watches.pop(match_id, None)
            if self.shards is not None:
                self.shards.unsubscribe(self.keys.channel(match_id))
            if not followed:
                self.commits.forget(match_id)  # nothing keeps it up to date any more

    def cached(self, match_id: str, after: int) -> list[dict[str, Any]] | None:
        """The events after ``after`` from the cache (registered via ``watching``): a list
        (maybe empty: nothing newer is known) when the cache covers them, None when the
        caller must read the log in Redis. The dicts are shared: do not change them."""
        with self.lock:
            watch = self.watches.get(match_id)
            if watch is None or not watch.events:
                return None
            first = watch.events[0]["seq"]
            last = watch.events[-1]["seq"]
            if watch.latest != last or after < first - 1:
                return None
            if after >= last:
                return []
            return list(watch.events)[after - first + 1 :]

    def wait(self, match_id: str, after: int, timeout_s: float) -> bool:
        """Wait (registered via ``watching``) until the match passes ``after``; False on
        timeout.

        The timeout is the ticker's (``_tick``): it wakes a waiter whose deadline has passed,
        within ``TICK_S``. A timed wait would make a timer for every wait (each stream waits
        once per commit of its match), which cost 3 % of the game workers' CPU."""
        with self.lock:
            watch = self.watches.get(match_id)
            if watch is None:
                return False
            if watch.latest > after:
                return True
            waiter = self._new_waiter()
            watch.waiting.append(waiter)
            ticking = not self._stop.is_set()
            sleeping: set[Waiter] | None = None
            if ticking:
                # The first tick after the deadline (never before it).
                tick = _tick_of(time.monotonic() + timeout_s) + 1
                sleeping = self._sleeping.get(tick)
                if sleeping is None:
                    sleeping = self._sleeping[tick] = set()
                sleeping.add(waiter)
        try:
            waiter.wait(None if ticking else timeout_s)
        finally:
            with self.lock:
                if sleeping is not None:
                    sleeping.discard(waiter)  # (the ticker may have taken the set already)
                if waiter in watch.waiting:
                    watch.waiting.remove(waiter)
        with self.lock:
            return watch.latest > after

    def _tick(self) -> None:
        """Every ``TICK_S``, wake the waiters whose deadline has passed (until ``stop``, which
        wakes them all: after it, waits time themselves)."""
        while True:
            stopping = self._stop.wait(TICK_S)
            now = _tick_of(time.monotonic())
            try:
                due: list[Waiter] = []
                with self.lock:
                    # (a key per tick that has waiters: a few hundred at most, one per tick of
                    # the longest wait, however many waiters there are)
                    for tick in [tick for tick in self._sleeping if stopping or tick <= now]:
                        due.extend(self._sleeping.pop(tick))
                for waiter in due:
                    waiter.set()
            except Exception:  # never let the ticker die: waits would never time out
                log.exception("the notifier's ticker failed")
            if stopping:
                return


def reply_reader(pubsub: Any) -> Callable[[], Any]:
    """A function that reads the next raw reply of a subscribed ``pubsub`` straight off its
    connection: a list such as ``[b"pmessage", pattern, channel, data]``, ``[b"message",
    channel, data]`` or ``[b"psubscribe", pattern, count]``. When the socket timeout passes it
    raises redis-py's ``TimeoutError`` and keeps the connection and its subscriptions.

    redis-py's ``get_message`` polls the socket before every read and wraps each message in a
    dict, which cost as much as parsing it, for every commit in every process (about 2 % of the
    game workers' CPU, docs/performance.md). This is the one place that uses redis-py's
    connection API under ``PubSub`` instead (docs/library-seams.md)."""
    return functools.partial(
        pubsub.connection.read_response, disconnect_on_error=False, push_request=True
    )


def _tick_of(monotonic: float) -> int:
    """The ticker's tick that ``monotonic`` falls in."""
    return int(monotonic / TICK_S)


def _wake(watch: _Watch) -> None:
    """Wake every follow waiting on ``watch`` (called with the notifier's lock held)."""
    for waiter in watch.waiting:
        waiter.set()
    watch.waiting.clear()
