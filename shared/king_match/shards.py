"""Sharded Pub/Sub on a Redis Cluster: the match channels this process follows.

On a cluster a commit publishes with ``SPUBLISH`` on its match's shard channel (``keys.py``), so
the message goes to the primary that holds the match (and its replicas) only, and a commit costs
the same whatever the cluster's size. Shard channels have no patterns: the notifier subscribes
to a match's channel when the match gets its first follower in this process and unsubscribes
when the last one leaves (``notify.EventNotifier.watching``).

Per primary there is one connection (``SSUBSCRIBE``d to the channels of that primary's slots)
and one thread reading it. ``subscribe`` returns once Redis has confirmed the subscription, so
a follower that registers and then reads the log misses no commit. When a connection breaks (a
primary failed over, or a restart), ``on_lost`` tells the notifier (its followers re-read the
log), the cluster's slot map is refreshed and every channel is subscribed again where it now
lives.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: How long ``subscribe`` waits for Redis to confirm (then the follower reads the log anyway).
CONFIRM_S = 2.0


class _Node:
    """One primary's connection, its channels and the thread that reads it."""

    def __init__(self, shards: ShardedChannels, name: str, client: Any) -> None:
        self.shards = shards
        self.name = name
        self.pubsub: Any = client.pubsub()
        self.channels: dict[str, threading.Event] = {}
        self.alive = True
        self.wake = threading.Event()
        self.thread = threading.Thread(target=self._read, name=f"king-shard-{name}", daemon=True)
        self.thread.start()

    def add(self, channel: str) -> threading.Event:
        confirmed = self.channels.get(channel)
        if confirmed is None:
            confirmed = self.channels[channel] = threading.Event()
            self.pubsub.ssubscribe(channel)
            self.wake.set()
        return confirmed

    def remove(self, channel: str) -> None:
        if self.channels.pop(channel, None) is not None:
            self.pubsub.sunsubscribe(channel)

    def _read(self) -> None:
        shards = self.shards
        while self.alive and not shards.stopped.is_set():
            if not self.pubsub.subscribed:
                self.wake.wait(0.5)
                self.wake.clear()
                continue
            try:
                message = self.pubsub.get_message(timeout=1.0)
            except (RedisError, OSError, ValueError) as exc:
                if not shards.stopped.is_set():
                    log.warning("shard %s lost its connection (%s); resubscribing", self.name, exc)
                    shards.lost(self)
                return
            if message is None:
                continue
            kind = _text(message.get("type"))
            channel = _text(message.get("channel"))
            if kind == "smessage":
                shards.on_message(channel, _text(message.get("data")))
            elif kind == "ssubscribe":
                confirmed = self.channels.get(channel)
                if confirmed is not None:
                    confirmed.set()

    def close(self) -> None:
        self.alive = False
        self.wake.set()
        try:
            self.pubsub.close()
        except Exception:
            log.debug("closing shard %s failed", self.name, exc_info=True)


class ShardedChannels:
    def __init__(
        self,
        cluster: Any,
        on_message: Callable[[str, str], None],
        on_lost: Callable[[], None],
    ) -> None:
        self.cluster = cluster
        self.on_message = on_message
        self.on_lost = on_lost
        self.stopped = threading.Event()
        self.lock = threading.Lock()
        self.nodes: dict[str, _Node] = {}
        #: channel -> the node it is subscribed on.
        self.where: dict[str, _Node] = {}
        #: channel -> how many followers of this process want it.
        self.wanted: dict[str, int] = {}

    def subscribe(self, channel: str) -> None:
        """One more follower wants ``channel``: subscribe (if this process is not yet) and
        wait for Redis's yes."""
        with self.lock:
            self.wanted[channel] = self.wanted.get(channel, 0) + 1
            confirmed = self._place(channel)
        confirmed.wait(CONFIRM_S)

    def _place(self, channel: str) -> threading.Event:
        """Subscribe on the primary that holds ``channel`` (called with the lock held)."""
        node = self.where.get(channel)
        if node is None:
            primary = self.cluster.get_node_from_key(channel)
            node = self.nodes.get(primary.name)
            if node is None:
                client = self.cluster.get_redis_connection(primary)
                node = self.nodes[primary.name] = _Node(self, primary.name, client)
            self.where[channel] = node
        return node.add(channel)

    def unsubscribe(self, channel: str) -> None:
        """One follower less; the last one's leaving unsubscribes."""
        with self.lock:
            left = self.wanted.get(channel, 0) - 1
            if left > 0:
                self.wanted[channel] = left
                return
            self.wanted.pop(channel, None)
            node = self.where.pop(channel, None)
            if node is not None and node.alive:
                try:
                    node.remove(channel)
                except (RedisError, OSError):
                    log.debug("unsubscribing %s failed", channel, exc_info=True)

    def lost(self, node: _Node) -> None:
        """``node``'s connection broke: tell the notifier, then subscribe its channels again
        wherever the refreshed slot map puts them."""
        with self.lock:
            self.nodes.pop(node.name, None)
            channels = [c for c, n in self.where.items() if n is node]
            for channel in channels:
                del self.where[channel]
        node.close()
        self.on_lost()
        for attempt in range(50):
            try:
                self.cluster.nodes_manager.initialize()
                with self.lock:
                    for channel in channels:
                        if channel in self.wanted:
                            self._place(channel)
                return
            except (RedisError, OSError) as exc:
                log.warning("resubscribing after a lost shard failed (%s); retrying", exc)
                time.sleep(min(2.0, 0.1 * (attempt + 1)))

    def stop(self) -> None:
        self.stopped.set()
        with self.lock:
            nodes = list(self.nodes.values())
            self.nodes.clear()
            self.where.clear()
        for node in nodes:
            node.close()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
