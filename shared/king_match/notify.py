"""Wake the long-polls and streams of one process with one Redis connection.

A client following a match waits for its next event. Doing that with ``XREAD BLOCK`` would
hold one Redis connection per waiting client — thousands of connections, and tens of
kilobytes of Redis memory each. Instead every commit publishes the match's new sequence number
on ``<prefix>evn:<match>`` (inside the same Lua script as the ``XADD``), and each service
process runs one ``EventNotifier``: a thread on one Pub/Sub connection (pattern
``<prefix>evn:*``) that wakes the local waiters of that match, which then read the stream.

No wake-up is lost: a waiter registers *before* it reads the stream, and the notifier keeps the
latest sequence number of every match that has waiters, so a commit that lands between the read
and the wait is seen by the wait's predicate. Under gevent the thread and the conditions are
greenlet-friendly (monkey-patched).

The same connection carries other broadcasts of the service (``on_channel``): for example the
revoked-token channel, so each process can drop a revoked token from its own cache. A callback
gets the message's text, or None after a reconnect (messages may have been missed).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from redis import Redis

log = logging.getLogger(__name__)


class _Watch:
    __slots__ = ("latest", "waiters")

    def __init__(self) -> None:
        self.latest = 0
        self.waiters = 0


class EventNotifier:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.pattern = f"{prefix}evn:*"
        self.prefix_len = len(prefix) + len("evn:")
        self.cond = threading.Condition()
        self.watches: dict[str, _Watch] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._channels: dict[str, Callable[[str | None], None]] = {}

    def on_channel(self, channel: str, callback: Callable[[str | None], None]) -> None:
        """Call ``callback(text)`` for every message on ``channel`` (register before
        ``start``), and ``callback(None)`` after the listener reconnected."""
        self._channels[channel] = callback

    def start(self) -> None:
        with self.cond:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._listen, name="king-events", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _listen(self) -> None:
        while not self._stop.is_set():
            pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
            try:
                pubsub.psubscribe(self.pattern)
                if self._channels:
                    pubsub.subscribe(*self._channels)
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    channel = message["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    if message["type"] == "message":
                        self._broadcast(channel, message["data"])
                        continue
                    match_id = channel[self.prefix_len :]
                    seq = int(message["data"])
                    with self.cond:
                        watch = self.watches.get(match_id)
                        if watch is not None and seq > watch.latest:
                            watch.latest = seq
                            self.cond.notify_all()
            except Exception as exc:
                # Expected when Redis restarts: one line, not a traceback.
                log.warning("event notifier lost its connection (%s); reconnecting", exc)
                time.sleep(0.5)
                with self.cond:  # wake everyone: they re-read the stream themselves
                    for watch in self.watches.values():
                        watch.latest += 1
                    self.cond.notify_all()
                for callback in self._channels.values():
                    callback(None)
            finally:
                try:
                    pubsub.close()
                except Exception:
                    log.debug("closing the Pub/Sub connection failed", exc_info=True)

    def _broadcast(self, channel: str, data: Any) -> None:
        callback = self._channels.get(channel)
        if callback is None:
            return
        try:
            callback(data.decode() if isinstance(data, bytes) else str(data))
        except Exception:
            log.exception("a callback of channel %s failed", channel)

    @contextmanager
    def watching(self, match_id: str) -> Iterator[None]:
        """Register interest in a match (before reading its stream)."""
        self.start()
        with self.cond:
            watch = self.watches.setdefault(match_id, _Watch())
            watch.waiters += 1
        try:
            yield
        finally:
            with self.cond:
                watch.waiters -= 1
                if watch.waiters == 0:
                    self.watches.pop(match_id, None)

    def wait(self, match_id: str, after: int, timeout_s: float) -> bool:
        """Wait (registered via ``watching``) until the match passes ``after``; False on
        timeout."""
        with self.cond:
            watch = self.watches.get(match_id)
            if watch is None:
                return False
            return self.cond.wait_for(lambda: watch.latest > after, timeout=timeout_s)
