"""Every Redis key name of the match layer, in one place (``p`` is the configured prefix).

A match::

    p m:<id>            hash: ver, seq, meta (record JSON), state (engine bytes), and per
                        player i:<who> / f:<who>, the answer to their latest keyed request
    p m:<id>:moves      string: the match's moves (record.encode_move: seat << 6 | action)
    p m:<id>:log        list: the public events of the current hand, "<seq> <event>" each
                        (``eventcodec``'s compact form)
    p evn:<id>          Pub/Sub channel: every commit's message (``commitmsg``)
    p finished:<id>     the FinishedMatch JSON, kept for ``retention_s``

Shared by all matches::

    p deadlines         sorted set: match id -> deadline (ms), swept by the clock sweeper
    p lobby             sorted set: open live tables -> creation time
    p finished:pending  sorted set: finished messages not yet on the ratings queue
    p pl:<player>:act / :recent   a player's matches, sorted sets (hints; records are the truth)
    p rl:<who>:<window> a player's move count in one fixed window of the move limit
    p sweeper:lease     the clock sweeper's lease
    p serving / serving:last / outage / outages   the service's heartbeat and outages
    p qm:...            quick match: pools, players, tables and their deadlines

On a Redis Cluster every script must touch keys of one hash slot. So there (``buckets`` > 0)
each match belongs to a bucket (``crc32(match id) mod buckets``), and a match's keys and its
bucket's indexes carry the bucket's hash tag: ``p {t}m:<id>``, ``p {t}deadlines`` ... — a
commit is single-slot, and the sweeper, the lobby and the finished-match retries walk every
bucket's index. The tags are chosen so that the buckets' slots are spread evenly over the 16,384
slots, and so over the primaries. A move's rate counter takes the match's tag (a player's limit
is then counted per bucket). Quick match (``{qm}``) and the serving keys (``{srv}``) are one
slot each: their scripts touch several of their keys and they are small. A player's lists
(``pl:``) and the sweeper's lease are single keys, untagged. A single Redis (``buckets`` = 0)
keeps the plain names above.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

#: Buckets of a cluster deployment unless configured (``KING_BUCKETS``): enough that the
#: slots spread over any likely number of primaries, few enough that walking every bucket's
#: index per sweep stays cheap.
DEFAULT_BUCKETS = 256


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str
    #: 0: a single Redis, plain names; else the number of buckets (see the module docstring).
    buckets: int = 0
    _tags: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_tags", bucket_tags(self.buckets) if self.buckets else ())

    # ------------------------------------------------------------------ tags

    def tag(self, match_id: str) -> str:
        """The hash tag of the match's bucket ('' on a single Redis)."""
        if not self.buckets:
            return ""
        return self._tags[zlib.crc32(match_id.encode()) % self.buckets]

    def _bucketed(self, name: str) -> list[str]:
        """A per-bucket index's keys, every bucket's (one key on a single Redis)."""
        if not self.buckets:
            return [f"{self.prefix}{name}"]
        return [f"{self.prefix}{tag}{name}" for tag in self._tags]

    # ------------------------------------------------------------------ one match

    def match(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}m:{match_id}"

    def moves(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}m:{match_id}:moves"

    def log(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}m:{match_id}:log"

    def channel(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}evn:{match_id}"

    @property
    def channels(self) -> str:
        """The pattern of every match's channel (``channel``)."""
        return f"{self.prefix}evn:*"

    def finished(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}finished:{match_id}"

    # ------------------------------------------------------------------ shared

    def deadlines(self, match_id: str) -> str:
        """The deadlines index of the match's bucket: match id -> deadline (ms)."""
        return f"{self.prefix}{self.tag(match_id)}deadlines"

    def lobby(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}lobby"

    def pending(self, match_id: str) -> str:
        return f"{self.prefix}{self.tag(match_id)}finished:pending"

    @property
    def all_deadlines(self) -> list[str]:
        return self._bucketed("deadlines")

    @property
    def all_lobbies(self) -> list[str]:
        return self._bucketed("lobby")

    @property
    def all_pending(self) -> list[str]:
        return self._bucketed("finished:pending")

    def active(self, player_id: str) -> str:
        # A sorted set (match id -> when they sat): small ones are packed far tighter than sets.
        return f"{self.prefix}pl:{player_id}:act"

    def recent(self, player_id: str) -> str:
        return f"{self.prefix}pl:{player_id}:recent"

    def rate(self, match_id: str, who: str, window_ms: int, now_ms: int) -> str:
        """The counter of ``who``'s attempts in the fixed window holding ``now_ms`` (in the
        bucket of the match moved in, so the scripts that count it stay single-slot)."""
        return f"{self.prefix}{self.tag(match_id)}rl:{who}:{now_ms // window_ms}"

    @property
    def sweeper_lease(self) -> str:
        return f"{self.prefix}sweeper:lease"

    # ------------------------------------------------------------------ serving

    @property
    def _srv(self) -> str:
        return "{srv}" if self.buckets else ""

    @property
    def heartbeat(self) -> str:
        return f"{self.prefix}{self._srv}serving"

    @property
    def last_heartbeat(self) -> str:
        return f"{self.prefix}{self._srv}serving:last"

    @property
    def open_outage(self) -> str:
        return f"{self.prefix}{self._srv}outage"

    @property
    def outages(self) -> str:
        return f"{self.prefix}{self._srv}outages"

    # ------------------------------------------------------------------ quick match

    @property
    def qm_prefix(self) -> str:
        """What quick match's keys start with (its scripts build players' and tables' keys
        from it)."""
        return f"{self.prefix}{{qm}}" if self.buckets else self.prefix

    def qm_pool(self, pool: str) -> str:
        return f"{self.qm_prefix}qm:pool:{pool}"

    def qm_player(self, player_id: str) -> str:
        return f"{self.qm_prefix}qm:p:{player_id}"

    def qm_table(self, table_id: str) -> str:
        return f"{self.qm_prefix}qm:t:{table_id}"

    @property
    def qm_due(self) -> str:
        return f"{self.qm_prefix}qm:due"

    @property
    def qm_pools(self) -> str:
        return f"{self.qm_prefix}qm:pools"


def is_cluster(redis: object) -> bool:
    """Whether ``redis`` is a Redis Cluster client."""
    from redis.cluster import RedisCluster

    return isinstance(redis, RedisCluster)


@cache
def bucket_tags(buckets: int) -> tuple[str, ...]:
    """A hash tag per bucket, bucket ``k``'s in the ``k``-th of ``buckets`` equal slot ranges:
    ``{n}`` for the first number ``n`` whose slot falls there."""
    width = REDIS_CLUSTER_HASH_SLOTS / buckets
    tags: list[str | None] = [None] * buckets
    missing, n = buckets, 0
    while missing:
        bucket = int(key_slot(str(n).encode()) // width)
        if tags[bucket] is None:
            tags[bucket] = f"{{{n}}}"
            missing -= 1
        n += 1
    return tuple(tag for tag in tags if tag is not None)
