"""Reading a match from Redis: its record and state (one ``HMGET``, or one script that first
counts a rate-limited attempt), its moves, and its event log, waiting for new events through
the process's notifier.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from redis import Redis

from king_engine import GameState

from . import eventcodec
from .decoded import DecodedStates
from .errors import MatchError, RateLimited
from .idempotency import Idem, MoveResult
from .keys import Keys
from .leanscript import LeanScript, lua_source
from .notify import EventNotifier
from .record import MatchRecord

_FIELDS = ("ver", "seq", "meta", "state")


@dataclass(frozen=True, slots=True)
class MoveRate:
    """A per-player limit on moves: at most ``amount`` attempts (refused ones included) per
    fixed window of ``window_ms``. Counted by the same script that loads the match, so it
    costs no round trip of its own."""

    amount: int
    window_ms: int


@dataclass(frozen=True, slots=True)
class Counted:
    """An attempt of ``who``'s that counts against ``limit``."""

    who: str
    limit: MoveRate

    def refused(self, retry_after_ms: int) -> RateLimited:
        return RateLimited(self.limit.amount, self.limit.window_ms / 1000, retry_after_ms)


class MatchReader:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        #: The states of the matches read or written last, decoded (the writer keeps its own).
        self.decoded = DecodedStates()
        self._counted_load = LeanScript(redis, lua_source("counted_load"))

    def load(
        self, match_id: str, idem: Idem | None = None, rate: Counted | None = None, now_ms: int = 0
    ) -> tuple[MatchRecord, GameState | None, MoveResult | None]:
        """The record and state, plus the stored answer to ``idem``'s request if it has one
        (raised again if that answer was a refusal); with ``rate``, the attempt is counted
        first (``RateLimited`` past the limit)."""
        fields = list(_FIELDS)
        if idem is not None:
            fields += [idem.field, idem.failure_field]
        values: Any
        if rate is None:
            values = self.redis.hmget(self.keys.match(match_id), fields)
        else:
            counter = self.keys.rate(match_id, rate.who, rate.limit.window_ms, now_ms)
            reply: Any = self._counted_load(
                [self.keys.match(match_id), counter],
                [rate.limit.window_ms, rate.limit.amount, *fields],
            )
            if int(reply[0]) != 1:
                raise rate.refused(int(reply[1]))
            values = list(reply[1]) + [None] * (len(fields) - len(reply[1]))
        ver, seq, meta, state = values[:4]
        if meta is None:
            raise MatchError("match_not_found", f"no match or table {match_id}")
        record = MatchRecord.from_json(meta, int(ver or 0), int(seq or 0))
        answer = None if idem is None else idem.stored_answer(values[4], values[5])
        return record, (self.decoded.state(match_id, as_bytes(state)) if state else None), answer

    def moves(self, match_id: str) -> bytes:
        data = self.redis.get(self.keys.moves(match_id))
        return as_bytes(data) if data else b""

    def moves_at(self, match_id: str, version: int) -> bytes | None:
        """The moves as they stood at ``version``, or None if the match has moved on (read
        together with the version: a commit between them would add moves the caller's
        state has not seen)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hget(self.keys.match(match_id), "ver")
        pipe.get(self.keys.moves(match_id))
        ver, data = pipe.execute()
        if int(ver or 0) != version:
            return None
        return as_bytes(data) if data else b""

    # ------------------------------------------------------------------ the event log

    def events(
        self,
        notifier: EventNotifier | None,
        match_id: str,
        after: int,
        count: int,
        block_ms: int,
    ) -> list[dict[str, Any]]:
        """Public events with ``seq > after``, oldest first; with a ``notifier`` (the caller
        is registered with ``watching``) waits up to ``block_ms`` for one."""
        if block_ms <= 0 or notifier is None:
            return self.read_log(match_id, after, count)
        deadline = time.monotonic() + block_ms / 1000
        while True:
            # The notifier's copy of the latest events, when it covers ``after``.
            cached = notifier.cached(match_id, after)
            if cached:
                return cached[:count]
            if cached is None:
                events = self.read_log(match_id, after, count)
                if events:
                    return events
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            notifier.wait(match_id, after, left)

    def read_log(self, match_id: str, after: int, count: int) -> list[dict[str, Any]]:
        raw: Any = self.redis.lrange(self.keys.log(match_id), 0, -1)
        out = []
        for item in raw:
            text = as_text(item)
            if int(text.partition(" ")[0]) > after:
                out.append(eventcodec.log_entry(text))
                if len(out) == count:
                    break
        return out


def due_members(redis: Redis, indexes: list[str], now_ms: int, limit: int) -> list[str]:
    """Up to ``limit`` members whose score (a time) has come, from sorted sets ``indexes``
    (every bucket's: one pipelined read, however many buckets)."""
    pipe = redis.pipeline(transaction=False)
    for index in indexes:
        pipe.zrangebyscore(index, "-inf", now_ms, 0, limit)
    due = [as_text(raw) for found in pipe.execute() for raw in found]
    return due[:limit]


def as_bytes(value: Any) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def as_text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
