"""Every Redis key name of the match layer, in one place (``p`` is the configured prefix).

A match::

    p m:<id>            hash: ver, seq, meta (record JSON), state (engine bytes), and per
                        player i:<who> / f:<who>, the answer to their latest keyed request
    p m:<id>:moves      string: the match's moves, one byte each (seat << 6 | action)
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
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str

    # ------------------------------------------------------------------ one match

    def match(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}"

    def moves(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}:moves"

    def log(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}:log"

    def channel(self, match_id: str) -> str:
        return f"{self.prefix}evn:{match_id}"

    @property
    def channels(self) -> str:
        """The pattern of every match's channel (``channel``)."""
        return f"{self.prefix}evn:*"

    def finished(self, match_id: str) -> str:
        return f"{self.prefix}finished:{match_id}"

    # ------------------------------------------------------------------ shared

    @property
    def deadlines(self) -> str:
        return f"{self.prefix}deadlines"

    @property
    def lobby(self) -> str:
        return f"{self.prefix}lobby"

    @property
    def pending(self) -> str:
        return f"{self.prefix}finished:pending"

    def active(self, player_id: str) -> str:
        # A sorted set (match id -> when they sat): small ones are packed far tighter than sets.
        return f"{self.prefix}pl:{player_id}:act"

    def recent(self, player_id: str) -> str:
        return f"{self.prefix}pl:{player_id}:recent"

    def rate(self, who: str, window_ms: int, now_ms: int) -> str:
        """The counter of ``who``'s attempts in the fixed window holding ``now_ms``."""
        return f"{self.prefix}rl:{who}:{now_ms // window_ms}"

    @property
    def sweeper_lease(self) -> str:
        return f"{self.prefix}sweeper:lease"

    # ------------------------------------------------------------------ serving

    @property
    def heartbeat(self) -> str:
        return f"{self.prefix}serving"

    @property
    def last_heartbeat(self) -> str:
        return f"{self.prefix}serving:last"

    @property
    def open_outage(self) -> str:
        return f"{self.prefix}outage"

    @property
    def outages(self) -> str:
        return f"{self.prefix}outages"

    # ------------------------------------------------------------------ quick match

    def qm_pool(self, pool: str) -> str:
        return f"{self.prefix}qm:pool:{pool}"

    def qm_player(self, player_id: str) -> str:
        return f"{self.prefix}qm:p:{player_id}"

    def qm_table(self, table_id: str) -> str:
        return f"{self.prefix}qm:t:{table_id}"

    @property
    def qm_due(self) -> str:
        return f"{self.prefix}qm:due"

    @property
    def qm_pools(self) -> str:
        return f"{self.prefix}qm:pools"
