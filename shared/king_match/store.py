"""The one writer path: every change to a match goes through ``MatchStore._write``.

A write loads the match (one ``HMGET``), applies any clock timeout that is due, runs the
requested change through the engine's checked path, and commits the new record, engine state,
move bytes, events, deadline and idempotent answer with one Lua script that first checks that
the stored version is still the one loaded (optimistic concurrency: two concurrent requests can
never both apply; the loser reloads and is validated again, or gets ``stale_version`` when it
named the version it expected). Only after the commit does the store hand jobs to the queues
(bot turns, the finished-match message), so a job never sees a change that was not stored.

Human moves, bot moves, clock timeouts, resignations, seating and leaving all take this path.

Keys (``p`` is the configured prefix)::

    p m:<id>            hash: ver, seq, meta (record JSON), state (engine bytes), and per
                        player i:<who> / f:<who>, the answer to their latest keyed request
    p m:<id>:moves      string: the match's moves, one byte each (seat << 6 | action)
    p m:<id>:log        list: the public events of the current hand, "<seq> <event>" each
                        (``eventcodec``'s compact form; a list packs far tighter than a
                        stream, and readers that keep up never read it: see notify.py)
    p deadlines         sorted set: match id -> deadline (ms), swept by the clock sweeper
    p lobby             sorted set: open live tables -> creation time
    p finished:<id>     the FinishedMatch JSON, kept for ``retention_s``
    p finished:pending  sorted set: finished messages not yet on the ratings queue
    p pl:<player>:act / :recent   a player's matches, sorted sets (hints; records are the truth)
"""

from __future__ import annotations

import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from redis import Redis

from king_engine import (
    BadInput,
    IllegalMove,
    KingError,
    MatchState,
    Move,
    get_ruleset,
    match_winners,
    new_match,
    placements,
    view_for,
)
from king_engine import SeatView as SeatView
from king_engine.errors import ConfigError
from king_message import FinishedMatch, SeatResult, format_utc

from . import eventcodec, fairness, serving
from .errors import MatchError, RateLimited, StaleVersion
from .jobs import Enqueuer, JobSpec, NoQueue, bot_turn_job, finished_match_job
from .leanscript import LeanScript
from .notify import EventNotifier, LastCommit
from .record import BOT_LEVELS, MODES, MatchRecord, Seat
from .settings import MatchSettings

R = TypeVar("R")

# The commit: refuses ({0, stored version}) unless the match is still at the loaded version.
# A commit from the notifier's copy of the match (``_write_from_latest``, no load before it)
# also names the request's Idempotency-Key (ARGV[17]; answered {2} when the player's i:/f:
# field, ARGV[18] and ARGV[19], already holds it: the caller takes the full path and replays)
# and its rate window (KEYS[8], ARGV[20] ms, ARGV[21] attempts: counted only here, where the
# request commits, and refused {3, ms left} past the limit).
_COMMIT = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'ver') or '0')
if cur ~= tonumber(ARGV[1]) then return {0, cur, 0} end
if ARGV[17] ~= '' then
  for _, name in ipairs({ARGV[18], ARGV[19]}) do
    local held = redis.call('HGET', KEYS[1], name)
    if held then
      local ok, stored = pcall(cjson.decode, held)
      if not ok or type(stored) ~= 'table' or stored['key'] == ARGV[17] then
        return {2, cur, 0}
      end
    end
  end
end
if ARGV[20] ~= '' then
  local used = redis.call('INCR', KEYS[8])
  if used == 1 then redis.call('PEXPIRE', KEYS[8], ARGV[20]) end
  if used > tonumber(ARGV[21]) then return {3, redis.call('PTTL', KEYS[8]), 0} end
end
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local first = seq + 1
local n = #ARGV - 21
if n > 0 then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 22))
  seq = seq + n
end
redis.call('HSET', KEYS[1], 'ver', cur + 1, 'seq', seq, 'meta', ARGV[2], 'state', ARGV[3])
if ARGV[4] ~= '' then redis.call('APPEND', KEYS[2], ARGV[4]) end
if ARGV[5] == '' then redis.call('ZREM', KEYS[4], ARGV[6])
else redis.call('ZADD', KEYS[4], ARGV[5], ARGV[6]) end
if ARGV[7] == 'rem' then redis.call('ZREM', KEYS[5], ARGV[6])
elseif ARGV[7] ~= '' then redis.call('ZADD', KEYS[5], ARGV[7], ARGV[6]) end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], ARGV[8], ARGV[9]) end
if ARGV[10] ~= '' then
  redis.call('SET', KEYS[6], ARGV[10], 'EX', ARGV[11])
  redis.call('ZADD', KEYS[7], ARGV[12], ARGV[6])
end
if ARGV[11] ~= '' then
  redis.call('EXPIRE', KEYS[1], ARGV[11])
  redis.call('EXPIRE', KEYS[2], ARGV[11])
  redis.call('EXPIRE', KEYS[3], ARGV[11])
end
if ARGV[13] ~= '' then redis.call('LTRIM', KEYS[3], -n, -1) end
if ARGV[14] ~= '' and n > 0 then
  local head = first .. ' ' .. seq .. ' ' .. ARGV[15] .. ' ' .. (cur + 1)
  redis.call('PUBLISH', ARGV[14],
    head .. '\\n' .. ARGV[2] .. '\\n' .. ARGV[16] .. '\\n' .. table.concat(ARGV, '\\n', 22))
end
return {1, cur + 1, seq}
"""

# The load of a rate-limited write: count the attempt in a fixed window (KEYS[2]) and, when it
# is within the limit, read the match fields in the same round trip.
_COUNTED_LOAD = """
local n = redis.call('INCR', KEYS[2])
if n == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
if n > tonumber(ARGV[2]) then return {0, redis.call('PTTL', KEYS[2])} end
return {1, redis.call('HMGET', KEYS[1], unpack(ARGV, 3))}
"""

_REMEMBER = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 1
"""

#: ``_write_from_latest``'s answer when the request must take the ordinary path.
_FULL_PATH = object()
_MAX_ATTEMPTS = 50
#: Decoded states kept (``_state_from_hex``): the matches that moved last. Few on purpose: a
#: kept state is about fifteen objects, and at 1,000 matches keeping one for every match was
#: a third of what each young garbage collection walked (the pause every waiting request
#: pays); a decode is ~20 µs (docs/performance.md).
_DECODED_KEEP = 256
_PENDING_RETRY_MS = 5_000
_IDEM_FIELD = "i:"
_IDEM_FAILED = "f:"
_RECENT_KEEP = 50


@dataclass(frozen=True, slots=True)
class MoveRate:
    """A per-player limit on moves: at most ``amount`` attempts (refused ones included) per
    fixed window of ``window_ms``. Counted by the same script that loads the match, so it
    costs no round trip of its own."""

    amount: int
    window_ms: int


@dataclass(frozen=True, slots=True)
class _Rate:
    who: str
    limit: MoveRate


@dataclass(frozen=True, slots=True)
class Player:
    """Who is asking: an account of the game service (or a bot account)."""

    player_id: str
    name: str
    is_bot: bool = False
    is_guest: bool = False


@dataclass(slots=True)
class MoveResult:
    """The answer to an applied write (also what an idempotent retry gets back)."""

    match_id: str
    version: int
    seat: int | None
    move: str | None
    events: list[dict[str, Any]]
    replayed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "version": self.version,
            "seat": self.seat,
            "move": self.move,
            "events": self.events,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], replayed: bool = False) -> MoveResult:
        return cls(
            match_id=data["match_id"],
            version=data["version"],
            seat=data["seat"],
            move=data["move"],
            events=data["events"],
            replayed=replayed,
        )


@dataclass(slots=True)
class _Change:
    """One write in progress: the loaded record and state plus what the write adds."""

    record: MatchRecord
    state: MatchState | None
    now_ms: int
    events: list[dict[str, Any]] = field(default_factory=list)
    moves: bytearray = field(default_factory=bytearray)
    jobs: list[JobSpec] = field(default_factory=list)
    lobby: str = ""  # '' unchanged, 'rem', or a score
    finished: FinishedMatch | None = None
    changed: bool = False
    joined: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)

    @property
    def next_version(self) -> int:
        return self.record.version + 1

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.changed = True


@dataclass(frozen=True, slots=True)
class _Idem:
    """An Idempotency-Key request: ``who`` (player or bot seat), the client's key, and a
    fingerprint of the request so a key reused for another request is refused.

    The first answer is kept in the match hash, field ``i:<who>``: one per player, the answer
    to their latest keyed request (a client retries a request until it gets an answer before it
    sends the next, so the latest is the one a retry is about). It is written by the commit
    script itself, atomically with the change, so there is no separate claim: of two copies of
    one request running at once, one commits and the other fails the version check, reloads,
    finds the answer and replays it. A refused request's error goes to ``f:<who>`` (never
    over a later success). Both live and die with the match: keys cost no Redis round trip on
    the way in and no memory beyond a few small fields.
    """

    match_id: str
    who: str
    key: str
    fingerprint: str

    @property
    def field(self) -> str:
        return _IDEM_FIELD + self.who

    @property
    def failure_field(self) -> str:
        return _IDEM_FAILED + self.who


class MatchStore:
    """Matches in Redis; see the module docstring."""

    def __init__(
        self,
        redis: Redis,
        settings: MatchSettings | None = None,
        enqueuer: Enqueuer | None = None,
        clock: Callable[[], float] = time.time,
        notifier: EventNotifier | None = None,
        on_finished: Callable[[str, str], None] | None = None,
    ) -> None:
        self.redis = redis
        #: Called with (mode, outcome) once per match, after the commit that ends it (the
        #: processes pass ``king_metrics.record_match_finished``).
        self.on_finished = on_finished
        #: Wakes waiting readers from one Pub/Sub connection (made on first use if not given).
        self.notifier = notifier
        self.settings = settings or MatchSettings()
        self.enqueuer: Enqueuer = enqueuer or NoQueue()
        self.clock = clock
        self.prefix = self.settings.key_prefix
        self._commit = LeanScript(redis, _COMMIT)
        self._remember = redis.register_script(_REMEMBER)
        self._counted_load = LeanScript(redis, _COUNTED_LOAD)
        #: match id -> (state hex, decoded state) of the latest commit seen (see
        #: ``_state_from_hex``), oldest first; never handed out, only copies of it.
        self._decoded: dict[str, tuple[str, MatchState]] = {}

    # ------------------------------------------------------------------ keys

    def key(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}"

    def moves_key(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}:moves"

    def events_key(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}:log"

    @property
    def deadlines_key(self) -> str:
        return f"{self.prefix}deadlines"

    @property
    def lobby_key(self) -> str:
        return f"{self.prefix}lobby"

    def finished_key(self, match_id: str) -> str:
        return f"{self.prefix}finished:{match_id}"

    @property
    def pending_key(self) -> str:
        return f"{self.prefix}finished:pending"

    def _active_key(self, player_id: str) -> str:
        # A sorted set (match id -> when they sat): small ones are packed far tighter than sets.
        return f"{self.prefix}pl:{player_id}:act"

    def _recent_key(self, player_id: str) -> str:
        return f"{self.prefix}pl:{player_id}:recent"

    def _idem(self, match_id: str, who: str, key: str | None, fingerprint: str) -> _Idem | None:
        if not key:
            return None
        return _Idem(match_id, who, key, fingerprint)

    def _rate_counter(self, rate: _Rate, now_ms: int) -> str:
        """The key counting ``rate.who``'s attempts in the fixed window holding ``now_ms``."""
        return f"{self.prefix}rl:{rate.who}:{now_ms // rate.limit.window_ms}"

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ------------------------------------------------------------------ reading

    def _load(self, match_id: str) -> tuple[MatchRecord, MatchState | None]:
        record, state, _ = self._load_keyed(match_id, None)
        return record, state

    def _load_keyed(
        self, match_id: str, idem: _Idem | None, rate: _Rate | None = None
    ) -> tuple[MatchRecord, MatchState | None, MoveResult | None]:
        """The record and state, plus the stored answer to ``idem``'s request if it has one
        (raised again if that answer was an error): one ``HMGET``, or with ``rate`` one
        script that first counts the attempt (``RateLimited`` past the limit)."""
        fields = ["ver", "seq", "meta", "state"]
        if idem is not None:
            fields += [idem.field, idem.failure_field]
        values: Any
        if rate is None:
            values = self.redis.hmget(self.key(match_id), fields)
        else:
            reply: Any = self._counted_load(
                [self.key(match_id), self._rate_counter(rate, self.now_ms())],
                [rate.limit.window_ms, rate.limit.amount, *fields],
            )
            if int(reply[0]) != 1:
                raise RateLimited(rate.limit.amount, rate.limit.window_ms / 1000, int(reply[1]))
            values = list(reply[1]) + [None] * (len(fields) - len(reply[1]))
        ver, seq, meta, state = values[:4]
        if meta is None:
            raise MatchError("match_not_found", f"no match or table {match_id}")
        record = MatchRecord.from_json(meta, int(ver or 0), int(seq or 0))
        answer = None
        if idem is not None:
            answer = self._stored_answer(idem, values[4], values[5])
        return record, (MatchState.from_bytes(_as_bytes(state)) if state else None), answer

    def load(self, match_id: str) -> tuple[MatchRecord, MatchState | None]:
        """The match as stored, after applying any clock timeout that is due."""
        match_id = _canonical_id(match_id)
        record, state = self._load(match_id)
        if self._due(record):
            self.check_clock(match_id)
            record, state = self._load(match_id)
        return record, state

    def _due(self, record: MatchRecord) -> bool:
        return (
            record.status == "active"
            and record.deadline_ms is not None
            and self.now_ms() >= record.deadline_ms
        )

    def seat_view(self, match_id: str, seat: int) -> tuple[MatchRecord, SeatView]:
        record, state = self.load(match_id)
        if state is None:
            raise MatchError("match_not_started", "the match has not started yet")
        return record, view_for(state, seat)

    def moves(self, match_id: str) -> bytes:
        data = self.redis.get(self.moves_key(match_id))
        return _as_bytes(data) if data else b""

    def transcript(self, match_id: str) -> dict[str, Any]:
        """The fairness transcript; only once the match has ended (else ``match_not_over``)."""
        record, _ = self.load(match_id)
        if not record.ended:
            raise MatchError(
                "match_not_over",
                "the deal's seeds are revealed only when the match has ended",
            )
        return fairness.transcript(record, self.moves(record.match_id))

    @contextmanager
    def following(self, match_id: str) -> Iterator[None]:
        """Hold this around a follower's whole life (a stream): the notifier then keeps the
        match's latest events in memory between its reads (see ``notify.py``)."""
        with self._notifier().watching(match_id):
            yield

    def turn_after(self, match_id: str, seq: int) -> tuple[int | None, int] | None:
        """(seat whose player may move, or None; version) right after event ``seq`` if this
        process's notifier knows it (a followed match); None: load the match to know."""
        last = None if self.notifier is None else self.notifier.commit_after(match_id, seq)
        return None if last is None else (last.turn, last.version)

    def snapshot_after(
        self, match_id: str, seq: int
    ) -> tuple[MatchRecord, MatchState | None] | None:
        """The match as the commit that wrote event ``seq`` left it, from the notifier's
        copy of that commit's message (a followed match, and nothing newer since); None:
        load it. Spares the follower whose turn it now is a round trip."""
        last = None if self.notifier is None else self.notifier.commit_after(match_id, seq)
        return None if last is None else self._from_commit(match_id, last)

    def _from_commit(
        self, match_id: str, last: LastCommit
    ) -> tuple[MatchRecord, MatchState | None]:
        """The record and (a private copy of) the state a commit message carried."""
        record = MatchRecord.from_json(last.meta, last.version, last.seq)
        state = self._state_from_hex(match_id, last.state_hex) if last.state_hex else None
        return record, state

    def _state_from_hex(self, match_id: str, state_hex: str) -> MatchState:
        """A private copy of the state a commit message carried. Decoding replays the hand's
        plays; a copy is far cheaper, so each process keeps the latest decoded state of each
        match it follows (keyed by the exact text: a copy is only ever of that state)."""
        known = self._decoded.get(match_id)
        if known is not None and known[0] == state_hex:
            return known[1].copy()
        state = MatchState.from_bytes(bytes.fromhex(state_hex))
        self._keep_decoded(match_id, state_hex, state.copy())
        return state

    def _keep_decoded(self, match_id: str, state_hex: str, state: MatchState) -> None:
        decoded = self._decoded
        decoded.pop(match_id, None)  # (re-filed as the newest)
        if len(decoded) >= _DECODED_KEEP:
            # (suppress: another thread may have taken the oldest first)
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                del decoded[next(iter(decoded))]  # the match that moved longest ago
        decoded[match_id] = (state_hex, state)

    def events(
        self,
        match_id: str,
        after: int = 0,
        count: int = 500,
        block_ms: int = 0,
        following: bool = False,
    ) -> list[dict[str, Any]]:
        """Public events with ``seq > after``, oldest first; waits up to ``block_ms`` for one.
        ``following``: the caller is inside ``following(match_id)`` (a stream), so the wait
        need not register again."""
        if block_ms <= 0:
            return self._read_log(match_id, after, count)
        notifier = self._notifier()
        if following:
            return self._wait_for_events(notifier, match_id, after, count, block_ms)
        with notifier.watching(match_id):
            return self._wait_for_events(notifier, match_id, after, count, block_ms)

    def _wait_for_events(
        self, notifier: EventNotifier, match_id: str, after: int, count: int, block_ms: int
    ) -> list[dict[str, Any]]:
        deadline = time.monotonic() + block_ms / 1000
        while True:
            # The notifier's copy of the latest events, when it covers ``after``.
            cached = notifier.cached(match_id, after)
            if cached:
                return cached[:count]
            if cached is None:
                events = self._read_log(match_id, after, count)
                if events:
                    return events
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            notifier.wait(match_id, after, left)

    def _read_log(self, match_id: str, after: int, count: int) -> list[dict[str, Any]]:
        raw: Any = self.redis.lrange(self.events_key(match_id), 0, -1)
        out = []
        for item in raw:
            text = _as_text(item)
            if int(text.partition(" ")[0]) > after:
                out.append(_log_entry(text))
                if len(out) == count:
                    break
        return out

    def _notifier(self) -> EventNotifier:
        if self.notifier is None:
            self.notifier = EventNotifier(self.redis, self.prefix)
        return self.notifier

    def lobby(self, limit: int = 50) -> list[MatchRecord]:
        ids: Any = self.redis.zrange(self.lobby_key, 0, max(0, limit * 2 - 1))
        records = []
        for raw in ids:
            match_id = _as_text(raw)
            try:
                record, _ = self._load(match_id)
            except MatchError:
                self.redis.zrem(self.lobby_key, match_id)
                continue
            # A table nobody sits at yet (its creator has not joined) is not offered.
            if record.status == "waiting" and record.free_seats() and record.human_ids():
                records.append(record)
        return records[:limit]

    def player_matches(self, player_id: str) -> tuple[list[MatchRecord], list[MatchRecord]]:
        """(active or waiting matches, recently ended ones) of a player."""
        active: list[MatchRecord] = []
        recent: list[MatchRecord] = []
        members: Any = self.redis.zrange(self._active_key(player_id), 0, -1)
        for raw in members:
            try:
                record, _ = self.load(_as_text(raw))
            except MatchError:
                self.redis.zrem(self._active_key(player_id), raw)
                continue
            if record.ended:
                self.redis.zrem(self._active_key(player_id), raw)
                recent.append(record)
            elif record.seat_of(player_id) is not None:
                active.append(record)
        recent_ids: Any = self.redis.zrevrange(self._recent_key(player_id), 0, 19)
        for raw in recent_ids:
            if any(r.match_id == _as_text(raw) for r in recent):
                continue
            try:
                record, _ = self._load(_as_text(raw))
            except MatchError:
                continue
            recent.append(record)
        recent.sort(key=lambda r: r.ended_ms or 0, reverse=True)
        return active, recent

    def finished_message(self, match_id: str) -> FinishedMatch | None:
        raw = self.redis.get(self.finished_key(match_id))
        return FinishedMatch.from_json(raw) if raw else None

    # ------------------------------------------------------------------ tables

    def create_table(
        self,
        creator: Player,
        *,
        mode: str,
        ruleset: str = "standard",
        hands: int = 8,
        level: str | None = None,
        seat: int | None = None,
        match_id: str | None = None,
    ) -> MatchRecord:
        """A new table with its deal commitment; nobody sits yet, not even its creator.

        Creation takes no client seed: a seed is accepted only by ``join``, from a player who
        holds the table (and so its ``server_commit``), so every client seed is made after the
        server's inputs are fixed (FAIRNESS step 2). A computer table gets its three server
        bots now, on every seat but ``seat``, and starts when its creator joins on that seat;
        a live table is listed in the lobby once a player sits, and starts when four have.
        """
        if mode not in MODES:
            raise MatchError("bad_table", f"mode must be one of {', '.join(MODES)}", field="mode")
        try:
            get_ruleset(ruleset).check_length(hands)
        except ConfigError as exc:
            field_name = "ruleset" if exc.code == "unknown_ruleset" else "hands"
            raise MatchError("bad_table", exc.message, field=field_name) from exc
        if mode == "computer":
            level = level or "easy"
            if level not in BOT_LEVELS:
                raise MatchError(
                    "bad_table", f"level must be one of {', '.join(BOT_LEVELS)}", field="level"
                )
        else:
            level = None
        seat_index = 0 if seat is None else seat
        if not 0 <= seat_index < 4:
            raise MatchError("bad_table", "seat must be 0..3", field="seat")
        match_id = _canonical_id(match_id) if match_id else str(uuid.uuid4())
        server_seed = fairness.draw_server_seed()
        now = self.now_ms()
        record = MatchRecord(
            match_id=match_id,
            mode=mode,
            ranked=mode == "live",
            ruleset=ruleset,
            hands=hands,
            creator_id=creator.player_id,
            server_seed=server_seed,
            server_commit=fairness.commitment(match_id, server_seed),
            created_ms=now,
            level=level,
        )
        if mode == "computer":
            # Every server-side input (S and the bots' zero seeds) is fixed before the human's.
            for index in range(4):
                if index != seat_index:
                    record.seats[index] = Seat(
                        player_id=f"bot-{level}",
                        name=f"Bot {index} ({level})",
                        is_bot=True,
                        server_bot=True,
                        level=level,
                        seed=fairness.BOT_SEED_HEX,
                        seed_source="bot",
                    )

        def create(change: _Change) -> MatchRecord:
            change.emit(
                {
                    "type": "table_created",
                    "mode": mode,
                    "ruleset": ruleset,
                    "hands": hands,
                    "server_commit": record.server_commit,
                }
            )
            if mode == "live":
                change.lobby = str(now)
            return change.record

        return self._write(match_id, create, initial=record)

    def create_reserved_table(
        self,
        match_id: str,
        server_seed: str,
        player_ids: list[str],
        *,
        ruleset: str,
        hands: int,
        ranked: bool = True,
    ) -> MatchRecord:
        """A live table whose four seats are held for ``player_ids`` (by seat), made by quick
        match: no one sits yet and it is not in the lobby; each player sits with ``join`` and
        their client seed after seeing ``server_commit`` (of ``server_seed``, drawn by the
        caller, which showed the commitment already)."""
        get_ruleset(ruleset).check_length(hands)
        match_id = _canonical_id(match_id)
        record = MatchRecord(
            match_id=match_id,
            mode="live",
            ranked=ranked,
            ruleset=ruleset,
            hands=hands,
            creator_id=player_ids[0],
            server_seed=server_seed,
            server_commit=fairness.commitment(match_id, server_seed),
            created_ms=self.now_ms(),
            reserved=list(player_ids),
        )

        def create(change: _Change) -> MatchRecord:
            change.emit(
                {
                    "type": "table_created",
                    "mode": "live",
                    "ruleset": ruleset,
                    "hands": hands,
                    "server_commit": record.server_commit,
                }
            )
            return change.record

        return self._write(match_id, create, initial=record)

    def close_unconfirmed(self, match_id: str) -> MatchRecord:
        """Abort a quick-match table that is still waiting (a player did not confirm in
        time); a table that has started (or ended) is returned as it is. Racing ``join``
        through the one writer path, so a table is either started or closed, never both."""

        def close(change: _Change) -> MatchRecord:
            record = change.record
            if record.status != "waiting":
                return record
            record.status = "aborted"
            record.outcome = "aborted"
            record.end_reason = "not_confirmed"
            record.ended_ms = change.now_ms
            change.emit({"type": "match_finished", "outcome": "aborted", "reason": "not_confirmed"})
            return record

        return self._write(_canonical_id(match_id), close)

    def join(
        self, match_id: str, player: Player, seat: int | None = None, client_seed: str | None = None
    ) -> tuple[MatchRecord, int]:
        """Seat ``player`` with their client seed, after the table's commitment was published.

        The one way a human takes a seat (at a table made by ``create_table``, whose
        ``server_commit`` the caller has shown the player before the seed was made): the given
        seat or the first free one; no seed (``None``) gets one drawn by the server, marked
        ``server`` in the transcript. A full table starts at once.
        """
        seed, source = _seed_of(client_seed)

        def sit(change: _Change) -> tuple[MatchRecord, int]:
            record = change.record
            if record.ended:
                raise MatchError("match_over", "this table's match has ended")
            if record.status == "active":
                if record.seat_of(player.player_id) is not None:
                    raise MatchError("already_seated", "you already sit at this table")
                raise MatchError("table_full", "the match has started: the table is full")
            if record.seat_of(player.player_id) is not None:
                raise MatchError("already_seated", "you already sit at this table")
            free = record.free_seats()
            if not free:
                raise MatchError("table_full", "every seat at this table is taken")
            if record.reserved is not None:
                if player.player_id not in record.reserved:
                    raise MatchError("seat_reserved", "this table's seats are held for others")
                held = record.reserved.index(player.player_id)
                if seat is not None and seat != held:
                    raise MatchError("seat_reserved", f"your seat at this table is {held}")
                chosen = held
            elif seat is None:
                chosen = free[0]
            elif not 0 <= seat < 4:
                raise MatchError("bad_table", "seat must be 0..3", field="seat")
            elif record.seats[seat] is not None:
                raise MatchError("seat_taken", f"seat {seat} is taken", free_seats=free)
            else:
                chosen = seat
            self._sit(change, chosen, player, seed, source)
            return change.record, chosen

        return self._write(_canonical_id(match_id), sit)

    def leave(self, match_id: str, player: Player) -> MatchRecord:
        """Leave a table before its match starts; an empty table closes."""

        def stand(change: _Change) -> MatchRecord:
            record = change.record
            index = record.seat_of(player.player_id)
            if index is None:
                raise MatchError("not_seated", "you do not sit at this table")
            if record.status != "waiting":
                raise MatchError(
                    "table_started", "the match has started: resign instead of leaving"
                )
            record.seats[index] = None
            change.left.append(player.player_id)
            change.emit({"type": "seat_left", "seat": index})
            if not record.human_ids():
                record.status = "aborted"
                record.outcome = "aborted"
                record.end_reason = "closed"
                record.ended_ms = change.now_ms
                change.lobby = "rem"
                change.emit({"type": "match_finished", "outcome": "aborted", "reason": "closed"})
            return record

        return self._write(_canonical_id(match_id), stand)

    def _sit(self, change: _Change, index: int, player: Player, seed: str, source: str) -> None:
        record = change.record
        record.seats[index] = Seat(
            player_id=player.player_id,
            name=player.name,
            is_bot=player.is_bot,
            is_guest=player.is_guest,
            seed=seed,
            seed_source=source,
        )
        change.joined.append(player.player_id)
        change.emit(
            {
                "type": "seat_taken",
                "seat": index,
                "name": player.name,
                "is_bot": player.is_bot,
                "is_guest": player.is_guest,
            }
        )
        if not record.free_seats():
            self._start(change)

    def _start(self, change: _Change) -> None:
        record = change.record
        state = new_match(record.ruleset, record.hands, fairness.match_key(record))
        change.state = state
        record.status = "active"
        record.started_ms = change.now_ms
        clocks = self.settings.clocks
        record.reserves = [clocks.live_reserve_ms if record.mode == "live" else 0] * 4
        change.lobby = "rem"
        change.emit(
            {
                "type": "match_started",
                "seats": [
                    {"seat": i, "name": s.name, "is_bot": s.is_bot, "is_guest": s.is_guest}
                    for i, s in enumerate(record.seats)
                    if s is not None
                ],
                "hand": 0,
                "declarer": state.declarer,
            }
        )
        self._start_turn(change)

    # ------------------------------------------------------------------ play

    def play(
        self,
        match_id: str,
        player: Player | None,
        move: Move,
        *,
        seat: int | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        rate: MoveRate | None = None,
    ) -> MoveResult:
        """Apply ``player``'s move (``player`` None: a bot move for the automated ``seat``).
        With ``rate``, the attempt first counts against the player's move limit."""
        match_id = _canonical_id(match_id)
        who = player.player_id if player else f"bot{seat}"
        fingerprint = f"{move}|{expected_version}"
        idem = self._idem(match_id, who, idempotency_key, fingerprint)
        counted = _Rate(who, rate) if rate is not None else None

        def apply(change: _Change) -> MoveResult:
            index = self._acting_seat(change.record, player, seat)
            if change.state is None:
                raise MatchError("match_not_started", "the match has not started yet")
            if player is not None:
                _check_player_turn(change.record, change.state, index)
            before = len(change.events)
            self._apply_move(change, index, move)
            return MoveResult(
                match_id, change.next_version, index, str(move), change.events[before:]
            )

        done = self._write_from_latest(match_id, apply, expected_version, idem, counted)
        if done is not _FULL_PATH:
            return done  # type: ignore[return-value]
        return self._write(
            match_id, apply, expected_version=expected_version, idem=idem, rate=counted
        )

    def resign(
        self,
        match_id: str,
        player: Player,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveResult:
        """Give up: a live player is ranked last and a bot finishes the seat; a human who
        resigns against the computer ends (aborts) the match."""
        match_id = _canonical_id(match_id)
        idem = self._idem(match_id, player.player_id, idempotency_key, f"resign|{expected_version}")

        def give_up(change: _Change) -> MoveResult:
            index = self._acting_seat(change.record, player, None)
            before = len(change.events)
            self._forfeit(change, index, "resigned", change.now_ms)
            return MoveResult(
                match_id, change.next_version, index, "resign", change.events[before:]
            )

        return self._write(match_id, give_up, expected_version=expected_version, idem=idem)

    def check_clock(self, match_id: str) -> bool:
        """Apply the timeout of a match whose deadline has passed (the sweeper's job)."""

        def nothing(change: _Change) -> bool:
            return change.changed

        try:
            return self._write(_canonical_id(match_id), nothing)
        except MatchError as exc:
            if exc.code == "match_not_found":
                self.redis.zrem(self.deadlines_key, match_id)
                return False
            raise

    def _acting_seat(self, record: MatchRecord, player: Player | None, seat: int | None) -> int:
        if record.ended:
            raise MatchError("match_over", "the match is over: no more moves")
        if player is None:
            if seat is None or not 0 <= seat < 4 or record.seats[seat] is None:
                raise MatchError("not_bot_seat", f"seat {seat} is not a bot seat")
            if not record.seat(seat).automated:
                raise MatchError("not_bot_seat", f"seat {seat} is not played by a bot")
            return seat
        index = record.seat_of(player.player_id)
        if index is None:
            raise MatchError("not_seated", "you do not sit at this match")
        if record.seat(index).forfeited:
            raise MatchError("seat_forfeited", "you have left this match; a bot plays your seat")
        if record.status != "active":
            raise MatchError("match_not_started", "the match has not started yet")
        return index

    def _apply_move(self, change: _Change, seat: int, move: Move) -> None:
        state = change.state
        record = change.record
        assert state is not None
        events = state.apply(seat, move)  # raises IllegalMove / BadInput, changing nothing
        if (
            record.mode == "live"
            and not record.seat(seat).automated
            and record.turn_started_ms is not None
        ):
            over = change.now_ms - record.turn_started_ms - self.settings.clocks.live_move_ms
            if over > 0:
                # Into the reserve: unless the service could not take moves meanwhile.
                self._give_back(change)
                over = change.now_ms - record.turn_started_ms - self.settings.clocks.live_move_ms
            if over > 0:
                record.reserves[seat] = max(0, record.reserves[seat] - over)
        change.moves.append(seat << 6 | move.action)
        for event in events:
            if event["type"] == "match_over":
                # The engine knows no forfeits: a player who forfeited never wins.
                event["winners"] = match_winners(state.totals, record.forfeits)
            change.emit(event)
        if state.is_over:
            self._finish(change, "forfeit" if record.forfeits else "finished", "played_out")
        else:
            self._start_turn(change)

    def _start_turn(self, change: _Change) -> None:
        record, state = change.record, change.state
        assert state is not None
        seat = state.current_player
        assert seat is not None
        mover = record.seat(seat)
        clocks = self.settings.clocks
        record.turn_started_ms = change.now_ms
        record.clock_checked_ms = None
        if mover.automated:
            record.deadline_ms = change.now_ms + clocks.bot_fallback_ms
            level = mover.level or clocks.takeover_level
            change.jobs.append(bot_turn_job(record.match_id, seat, change.next_version, level))
        elif record.mode == "live":
            record.deadline_ms = change.now_ms + clocks.live_move_ms + record.reserves[seat]
        else:
            record.deadline_ms = change.now_ms + clocks.computer_move_ms
        change.changed = True

    # ------------------------------------------------------------------ clocks

    def _give_back(self, change: _Change) -> None:
        """The clock rule for outages: time during which the game service could not take
        moves (``serving.lost_ms``) does not count against the player to move. Their turn's
        start and deadline move forward by it, so their move time and reserve are as they
        were when the outage began. Each stretch of time is given back once
        (``clock_checked_ms``). Called before a timeout is applied and before a move is
        charged to the reserve, on every path (a move, a read, the sweeper), and by the
        sweeper for every waiting match when the service serves again."""
        record = change.record
        if (
            record.status != "active"
            or record.turn_started_ms is None
            or record.deadline_ms is None
            or record.clock_checked_ms == change.now_ms
        ):
            return
        since = max(record.turn_started_ms, record.clock_checked_ms or 0)
        lost = serving.lost_ms(self.redis, self.prefix, since, change.now_ms)
        record.clock_checked_ms = change.now_ms
        if lost > 0:
            record.turn_started_ms += lost
            record.deadline_ms += lost
            change.emit({"type": "clock_restored", "seat": self._mover(change), "ms": lost})

    @staticmethod
    def _mover(change: _Change) -> int | None:
        state = change.state
        return None if state is None else state.current_player

    def give_back_lost_time(self, match_id: str) -> bool:
        """Give a waiting match the time the service was not serving (``_give_back``): what
        the sweeper does for every active match when an outage ends. True if it changed."""

        def give_back(change: _Change) -> bool:
            self._give_back(change)
            return change.changed

        try:
            return self._write(_canonical_id(match_id), give_back)
        except MatchError as exc:
            if exc.code == "match_not_found":
                self.redis.zrem(self.deadlines_key, match_id)
                return False
            raise

    def waiting_matches(self, batch: int = 500) -> Iterator[str]:
        """Every match waiting on a deadline (all active matches)."""
        for raw in self.redis.zscan_iter(self.deadlines_key, count=batch):
            yield _as_text(raw[0])

    def _expire(self, change: _Change) -> None:
        """Apply what the clock says happened: a timeout for each passed deadline."""
        record = change.record
        for _ in range(8):
            if not (
                record.status == "active"
                and record.deadline_ms is not None
                and change.now_ms >= record.deadline_ms
            ):
                return
            self._give_back(change)
            if change.now_ms < record.deadline_ms:
                return  # the service was not serving: the time is given back instead
            state = change.state
            assert state is not None
            seat = state.current_player
            assert seat is not None
            mover = record.seat(seat)
            if mover.automated:
                # The bot's answer did not come in time: move for it so it never loses on time.
                move = fallback_move(state, seat, f"{record.match_id}:{record.version}")
                change.emit({"type": "bot_fallback", "seat": seat})
                self._apply_move(change, seat, move)
            else:
                change.emit({"type": "clock_expired", "seat": seat})
                if record.mode == "live":
                    record.reserves[seat] = 0
                self._forfeit(change, seat, "timeout", record.deadline_ms)

    def _forfeit(self, change: _Change, seat: int, reason: str, when_ms: int) -> None:
        record = change.record
        entry = record.seat(seat)
        if entry.forfeited or record.ended:
            return
        entry.forfeited = True
        entry.left_at_ms = when_ms
        record.forfeits.append(seat)
        change.emit({"type": "player_forfeited", "seat": seat, "reason": reason})
        still_playing = [
            s for s in record.seats if s is not None and not s.server_bot and not s.forfeited
        ]
        if record.mode == "computer" or not still_playing:
            self._finish(change, "aborted", f"abandoned ({reason})")
            return
        entry.taken_over = True
        change.emit({"type": "bot_takeover", "seat": seat})
        state = change.state
        if state is not None and state.current_player == seat:
            self._start_turn(change)

    def _finish(self, change: _Change, outcome: str, reason: str) -> None:
        record, state = change.record, change.state
        assert state is not None
        record.status = "finished" if outcome != "aborted" else "aborted"
        record.outcome = outcome
        record.end_reason = reason
        record.ended_ms = change.now_ms
        record.deadline_ms = None
        totals = list(state.totals)
        places = placements(totals, record.forfeits)
        change.finished = self._finished_message(record, totals, places)
        change.emit(
            {
                "type": "match_finished",
                "outcome": outcome,
                "reason": reason,
                "totals": totals,
                "places": places,
                "winners": match_winners(totals, record.forfeits),
                "forfeits": list(record.forfeits),
            }
        )

    def _finished_message(
        self, record: MatchRecord, totals: list[int], places: list[int]
    ) -> FinishedMatch:
        started = record.started_ms or record.created_ms
        ended = max(record.ended_ms or started, started)
        players = []
        for index in range(4):
            seat = record.seat(index)
            order = record.forfeits.index(index) + 1 if index in record.forfeits else None
            players.append(
                SeatResult(
                    seat=index,
                    player_id=seat.player_id,
                    name=seat.name,
                    is_bot=seat.is_bot,
                    is_guest=seat.is_guest,
                    total=totals[index],
                    place=places[index],
                    forfeited=order is not None,
                    forfeit_order=order,
                    left_at=_utc(seat.left_at_ms) if order is not None else None,
                )
            )
        return FinishedMatch(
            match_id=record.match_id,
            mode="live" if record.mode == "live" else "computer",
            ranked=record.ranked,
            ruleset=record.ruleset,
            hands=record.hands,
            players=tuple(players),
            started_at=_utc(started),
            ended_at=_utc(ended),
            outcome="finished"
            if record.outcome == "finished"
            else ("forfeit" if record.outcome == "forfeit" else "aborted"),
            fairness={},  # filled in by _commit_change once the move log is complete
        )

    # ------------------------------------------------------------------ the writer

    def _write(
        self,
        match_id: str,
        mutate: Callable[[_Change], R],
        *,
        expected_version: int | None = None,
        idem: _Idem | None = None,
        initial: MatchRecord | None = None,
        rate: _Rate | None = None,
    ) -> R:
        try:
            for attempt in range(_MAX_ATTEMPTS):
                if initial is not None:
                    if self.redis.exists(self.key(match_id)):
                        raise MatchError("bad_table", f"match {match_id} exists already")
                    record, state = initial, None
                else:
                    # A request counts once against its rate limit, not once per retry.
                    counted = rate if attempt == 0 else None
                    record, state, replay = self._load_keyed(match_id, idem, counted)
                    if replay is not None:
                        return replay  # type: ignore[return-value]
                if expected_version is not None and expected_version != record.version:
                    raise StaleVersion(expected_version, record.version)
                change = _Change(record, state, self.now_ms())
                self._expire(change)
                failure: Exception | None = None
                result: Any = None
                try:
                    result = mutate(change)
                except (MatchError, KingError) as exc:
                    failure = exc
                    if not change.changed:
                        raise
                if not change.changed:
                    return result  # type: ignore[no-any-return]
                # A due timeout is committed even when the request itself was refused.
                answer = (
                    result.to_dict() if isinstance(result, MoveResult) and failure is None else None
                )
                if self._commit_change(match_id, change, idem if answer else None, answer) != 1:
                    if initial is not None:
                        raise MatchError("bad_table", f"match {match_id} exists already")
                    continue  # someone else committed first: reload (and maybe replay)
                self._after_commit(change)
                if failure is not None:
                    raise failure
                return result  # type: ignore[no-any-return]
            raise MatchError("busy", "the match is changing too fast; retry")
        except (MatchError, KingError) as exc:
            if idem is not None:
                self._remember_failure(idem, exc)
            raise

    def _write_from_latest(
        self,
        match_id: str,
        mutate: Callable[[_Change], R],
        expected_version: int | None,
        idem: _Idem | None,
        rate: _Rate | None,
    ) -> R | object:
        """The common case of a move without its load round trip: when this process's
        notifier holds the match's latest commit (a followed match), apply the change to that
        copy and commit it in one script, which checks the version as always and also what the
        load would have checked (the key not seen yet, the rate). Anything else — no copy, a
        refused request, a newer version, a key seen before — returns ``_FULL_PATH`` having
        changed nothing and counted nothing, and the caller runs the ordinary path, which gives
        every refusal its usual form."""
        last = None if self.notifier is None else self.notifier.latest(match_id)
        if last is None or not last.state_hex:
            return _FULL_PATH
        if expected_version is not None and expected_version != last.version:
            return _FULL_PATH
        change = _Change(*self._from_commit(match_id, last), self.now_ms())
        try:
            self._expire(change)
            result = mutate(change)
        except (MatchError, KingError):
            return _FULL_PATH
        if not change.changed or not isinstance(result, MoveResult):
            return _FULL_PATH
        code = self._commit_change(match_id, change, idem, result.to_dict(), guard=(idem, rate))
        if code != 1:
            return _FULL_PATH
        self._after_commit(change)
        return result

    def _commit_change(
        self,
        match_id: str,
        change: _Change,
        idem: _Idem | None,
        answer: dict[str, Any] | None,
        guard: tuple[_Idem | None, _Rate | None] | None = None,
    ) -> int:
        """Commit ``change``: 1 when stored, 0 when the match has moved on (stale), and for a
        ``guard``-ed commit (see ``_COMMIT``) 2 when the key was seen before; raises
        ``RateLimited`` past the guard's rate."""
        record, state = change.record, change.state
        retention = ""
        finished = ""
        if change.finished is not None:
            moves = self.moves(match_id) + bytes(change.moves)
            done = _with_fairness(change.finished, fairness.transcript(record, moves))
            change.finished = done
            finished = done.to_json()
            retention = str(self.settings.retention_s)
        elif record.ended:
            retention = str(self.settings.retention_s)
        entries = []
        for offset, event in enumerate(change.events, start=1):
            event["v"] = change.next_version
            event.pop("seq", None)
            entries.append(f"{record.seq + offset} {eventcodec.encode(event)}")
            event["seq"] = record.seq + offset
        deadline = (
            str(record.deadline_ms)
            if record.status == "active" and record.deadline_ms is not None
            else ""
        )
        idem_value = (
            orjson.dumps(
                {
                    "key": idem.key,
                    "fp": idem.fingerprint,
                    "ok": True,
                    "result": _slim(answer, entries),
                }
            )
            if idem
            else ""
        )
        trim = ""
        for event in change.events:
            if event["type"] == "hand_started":
                # A new hand: keep this write's events (the last trick and the score of the
                # hand that ended) and what follows; older events go. A reader further behind
                # gets ``reset`` and re-reads the view (the score sheet has every old hand).
                first = change.events[0]["seq"]
                trim = str(first)
                record.log_start = first
                record.hand_seq = event["seq"]
        keys = [
            self.key(match_id),
            self.moves_key(match_id),
            self.events_key(match_id),
            self.deadlines_key,
            self.lobby_key,
            self.finished_key(match_id),
            self.pending_key,
        ]
        seen, counted = guard if guard is not None else (None, None)
        rate_args: list[Any] = ["", ""]
        if counted is not None:
            keys.append(self._rate_counter(counted, change.now_ms))
            rate_args = [counted.limit.window_ms, counted.limit.amount]
        state_bytes = state.to_bytes() if state is not None else b""
        state_hex = state_bytes.hex()
        argv: list[Any] = [
            record.version,
            record.to_json(),
            state_bytes,
            bytes(change.moves),
            deadline,
            match_id,
            change.lobby,
            idem.field if idem else "",
            idem_value,
            finished,
            retention,
            change.now_ms + _PENDING_RETRY_MS,
            trim,
            f"{self.prefix}evn:{match_id}",
            # Whose player may move next (none while a bot plays the mover's seat), and the new
            # state in text form, for the followers' "your turn" (see notify.py).
            str(to_act) if (to_act := record.player_to_act(state)) is not None else "-1",
            state_hex,
            seen.key if seen else "",
            seen.field if seen else "",
            seen.failure_field if seen else "",
            *rate_args,
            *entries,
        ]
        reply: Any = self._commit(keys, argv)
        code = int(reply[0])
        if code == 3:
            assert counted is not None
            raise RateLimited(counted.limit.amount, counted.limit.window_ms / 1000, int(reply[1]))
        if code != 1:
            return code
        record.version = int(reply[1])
        record.seq = int(reply[2])
        if self.notifier is not None and state is not None:
            # The followers' "your turn" here will want this state: spare them the decode.
            self._keep_decoded(match_id, state_hex, state.copy())
        return 1

    def _after_commit(self, change: _Change) -> None:
        record = change.record
        pipe = self.redis.pipeline(transaction=False)
        for player_id in change.joined:
            pipe.zadd(self._active_key(player_id), {record.match_id: change.now_ms})
        for player_id in change.left:
            pipe.zrem(self._active_key(player_id), record.match_id)
        if record.ended:
            for player_id in record.human_ids():
                pipe.zrem(self._active_key(player_id), record.match_id)
                pipe.zadd(self._recent_key(player_id), {record.match_id: record.ended_ms or 0})
                pipe.zremrangebyrank(self._recent_key(player_id), 0, -_RECENT_KEEP - 1)
        if len(pipe):
            pipe.execute()
        for job in change.jobs:
            try:
                self.enqueuer.enqueue(job)
            except Exception:
                # The clock sweeper moves for a bot whose job never came: nothing is lost.
                continue
        if change.finished is not None:
            if self.on_finished is not None:  # only the commit that ends it carries this
                with contextlib.suppress(Exception):
                    self.on_finished(record.mode, record.outcome or "finished")
            self.deliver_finished(change.finished)

    # ------------------------------------------------------------------ idempotency

    def _stored_answer(self, idem: _Idem, success: Any, failure: Any) -> MoveResult | None:
        """The first answer to this key, from the loaded ``i:``/``f:`` fields: the result to
        replay, None when the key is new; a stored error is raised again."""
        for raw in (success, failure):
            if raw is None:
                continue
            stored: dict[str, Any] = orjson.loads(raw)
            if stored.get("key") != idem.key:
                continue
            if stored.get("fp") != idem.fingerprint:
                raise MatchError(
                    "idempotency_key_reused",
                    "this Idempotency-Key was used for a different request",
                )
            if stored.get("ok"):
                result = dict(stored["result"])
                result["match_id"] = idem.match_id
                result["events"] = [_log_entry(entry) for entry in result["events"]]
                return MoveResult.from_dict(result, replayed=True)
            error = stored["error"]
            raise MatchError(error["code"], error["message"], replayed=True, **error["details"])
        return None

    def _remember_failure(self, idem: _Idem, exc: MatchError | KingError) -> None:
        if exc.code in (
            "idempotency_key_reused",
            "rate_limited",
            "busy",
            "match_not_found",
        ) or exc.details.get("replayed"):
            return
        value = json.dumps(
            {
                "key": idem.key,
                "fp": idem.fingerprint,
                "ok": False,
                "error": {"code": exc.code, "message": exc.message, "details": exc.details},
            },
            default=str,
        )
        # Only onto a match that still exists (a refused request must not create a key).
        self._remember(keys=[self.key(idem.match_id)], args=[idem.failure_field, value])

    # ------------------------------------------------------------------ finished matches

    def deliver_finished(self, message: FinishedMatch) -> bool:
        """Put a finished match on the ratings queue; False (kept pending) if that failed."""
        try:
            self.enqueuer.enqueue(finished_match_job(message))
        except Exception:
            self.redis.zadd(self.pending_key, {message.match_id: self.now_ms() + _PENDING_RETRY_MS})
            return False
        self.redis.zrem(self.pending_key, message.match_id)
        return True

    def retry_pending_finished(self, limit: int = 100) -> int:
        """Re-deliver finished messages whose enqueue failed (or was cut short); returns how
        many went out."""
        due: Any = self.redis.zrangebyscore(self.pending_key, "-inf", self.now_ms(), 0, limit)
        sent = 0
        for raw in due:
            match_id = _as_text(raw)
            message = self.finished_message(match_id)
            if message is None:
                self.redis.zrem(self.pending_key, match_id)
                continue
            sent += self.deliver_finished(message)
        return sent

    def due_matches(self, limit: int = 200) -> list[str]:
        due: Any = self.redis.zrangebyscore(self.deadlines_key, "-inf", self.now_ms(), 0, limit)
        return [_as_text(raw) for raw in due]


def _slim(answer: dict[str, Any] | None, entries: list[str]) -> dict[str, Any] | None:
    """An answer to keep: its events in their stored form (they are the last of the write's
    log entries), so a replay needs nothing else, even once the log has moved on."""
    if answer is None:
        return None
    slim = {key: value for key, value in answer.items() if key not in ("events", "match_id")}
    count = len(answer["events"])
    slim["events"] = entries[len(entries) - count :] if count else []
    return slim


def _log_entry(text: str) -> dict[str, Any]:
    """One stored log entry, ``"<seq> <event>"``, as the event clients see."""
    seq, _, stored = text.partition(" ")
    event = eventcodec.decode(stored)
    event["seq"] = int(seq)
    return event


def _check_player_turn(record: MatchRecord, state: MatchState, seat: int) -> None:
    """A player's move is taken only when ``player_to_act`` names their seat (the rule the
    views and streams show): refused ``seat_forfeited`` while a bot plays it, else
    ``not_your_turn``."""
    if record.player_to_act(state) == seat:
        return
    if record.seat(seat).automated:
        raise MatchError("seat_forfeited", "you have left this match; a bot plays your seat")
    mover = state.current_player
    raise IllegalMove("not_your_turn", f"it is seat {mover}'s turn, not seat {seat}'s", turn=mover)


def fallback_move(state: MatchState, seat: int, seed: str) -> Move:
    """A random legal move for ``seat`` (the clock's stand-in for a bot that did not answer)."""
    moves = state.legal_moves(seat)
    if not moves:
        raise IllegalMove("not_your_turn", f"seat {seat} has no move now")
    return random.Random(seed).choice(moves)


def _with_fairness(message: FinishedMatch, transcript: dict[str, Any]) -> FinishedMatch:
    return FinishedMatch(
        match_id=message.match_id,
        mode=message.mode,
        ranked=message.ranked,
        ruleset=message.ruleset,
        hands=message.hands,
        players=message.players,
        started_at=message.started_at,
        ended_at=message.ended_at,
        outcome=message.outcome,
        fairness=transcript,
    )


def check_client_seed(client_seed: str) -> None:
    """``bad_seed`` unless ``client_seed`` is 64 hex characters (the rule ``join`` applies)."""
    _seed_of(client_seed)


def _seed_of(client_seed: str | None) -> tuple[str, str]:
    if client_seed is None:
        return fairness.draw_client_seed(), "server"
    try:
        return fairness.normalise_seed(client_seed), "client"
    except BadInput as exc:
        raise MatchError("bad_seed", exc.message, field="client_seed") from exc


def _canonical_id(match_id: str) -> str:
    try:
        return str(uuid.UUID(match_id))
    except (ValueError, AttributeError, TypeError) as exc:
        raise MatchError("match_not_found", f"no match or table {match_id!r}") from exc


def _utc(ms: int | None) -> str:
    from datetime import UTC, datetime

    return format_utc(datetime.fromtimestamp((ms or 0) / 1000, UTC))


def _as_bytes(value: Any) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def _as_text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
