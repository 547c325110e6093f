"""Quick match: a pool per ruleset, match length and kind of player, paired by rating.

The rule (``pair``, pure, and the same rule in the Lua script ``_PAIR``): every waiter accepts
opponents within ``window.at(waited)`` Elo of their own rating, a window that starts narrow and
widens with waiting time up to a cap. Four players form a table when every two of them accept
each other. The oldest waiter is the anchor: its candidates are the waiters it accepts and who
accept it, closest in rating first, each added if it fits everyone already chosen. An anchor
that cannot fill a table yields to the next oldest (up to ``max_anchors`` failed anchors a pass),
so nobody's narrow window stalls the pool.

One script pass (``pass_pool``) drops the waiters whose client stopped answering, pairs, takes
the chosen players out of the pool and marks them ``found`` with their table, seat and the
table's commitment: atomic in Redis, so any number of service copies pairing from one pool
never put a player at two tables. The caller then creates the table (``create_reserved_table``:
the seats are held for those players, it is not in the lobby) and each player confirms by
taking their seat with their client seed (``MatchStore.join``), after having seen the commitment
(FAIRNESS.md step 2). A table that is not fully confirmed by its deadline is closed
(``close_unconfirmed``, through the match writer, so it races ``join`` safely) and the players
who had confirmed go back to the pool with their original place; the others are dropped.

Keys (``p`` the store's prefix; ``<pool>`` is ``ruleset:hands:rated|guest``)::

    p qm:pool:<pool>     sorted set: waiting player -> joined (ms); oldest first
    p qm:pool:<pool>:r   hash: waiting player -> rating
    p qm:pool:<pool>:s   hash: waiting player -> last seen (ms)
    p qm:pool:<pool>:last  the time of the pool's last pass (ms; see ``min_pass_ms``)
    p qm:pools           set of pool names (metrics)
    p qm:p:<player>      hash: the player's quick-match state (see ``Status``)
    p qm:t:<table>       hash: a found table: pool, the players by seat, their joined times
    p qm:due             sorted set: found table -> confirm deadline (ms); a table being
                         settled is leased by moving its score ``lease_ms`` ahead

The scripts name per-player keys they build themselves (one Redis, as everywhere in this
project; a Redis Cluster would need the quick-match keys in one hash slot).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from . import fairness
from .errors import MatchError
from .store import MatchStore, Player, check_client_seed

#: How long an ended state (dropped, missed, left, matched) stays readable.
_ENDED_TTL_S = 3600


@dataclass(frozen=True, slots=True)
class Window:
    """± Elo a waiter accepts: ``base`` at once, ``growth_per_s`` more each second, ``cap``."""

    base: float = 100.0
    growth_per_s: float = 5.0
    cap: float = 400.0

    def at(self, waited_ms: int) -> float:
        # The same arithmetic, in the same order, as the Lua script (doubles in both).
        return min(self.cap, self.base + self.growth_per_s * (max(0, waited_ms) / 1000))


@dataclass(frozen=True, slots=True)
class QuickSettings:
    window: Window = field(default_factory=Window)
    #: A waiter not seen (no GET, no stream tick) for this long is dropped.
    stale_ms: int = 20_000
    #: Time a found table's players have to confirm (take their seat with their seed).
    confirm_ms: int = 15_000
    #: Oldest waiters a pass looks at, failed anchors it tries, tables it makes at most.
    max_scan: int = 400
    max_anchors: int = 40
    max_tables: int = 4
    #: Least time between two passes over one pool (each waiter's poll asks for one; a join's
    #: pass always runs, since the newcomer may complete a table).
    min_pass_ms: int = 250
    #: A table being settled is leased this long (another copy takes over after a crash).
    lease_ms: int = 10_000


@dataclass(frozen=True, slots=True)
class Waiter:
    player_id: str
    rating: int
    joined_ms: int


def pair(
    waiters: Sequence[Waiter],
    now_ms: int,
    window: Window,
    max_tables: int = 4,
    max_anchors: int = 40,
) -> list[list[Waiter]]:
    """The tables of four that one pass makes (see the module docstring), anchor first."""
    order = sorted(waiters, key=lambda w: (w.joined_ms, w.player_id))
    width = [window.at(now_ms - w.joined_ms) for w in order]
    used = [False] * len(order)
    tables: list[list[Waiter]] = []
    failed = 0
    for a, anchor in enumerate(order):
        if len(tables) >= max_tables or failed >= max_anchors:
            break
        if used[a]:
            continue
        candidates = [
            b
            for b in range(len(order))
            if b != a
            and not used[b]
            and abs(order[b].rating - anchor.rating) <= min(width[a], width[b])
        ]
        candidates.sort(key=lambda b: (abs(order[b].rating - anchor.rating), b))
        group = [a]
        for c in candidates:
            if all(
                abs(order[c].rating - order[g].rating) <= min(width[c], width[g]) for g in group
            ):
                group.append(c)
                if len(group) == 4:
                    break
        if len(group) < 4:
            failed += 1
            continue
        for index in group:
            used[index] = True
        tables.append([order[index] for index in group])
    return tables


# One pass over a pool. KEYS: pool, ratings, seen, due. ARGV: now, stale cutoff, window base,
# growth, cap, max scan, max anchors, confirm deadline, pool name, prefix, ended-state TTL,
# force ('1': a join), least time between passes (ms), then per table that may be made: id,
# commitment, seat order (4 digits). Returns {dropped ids, made tables as {id, p0..p3, r0..r3,
# j0..j3} by seat}; nothing, without a look, when the pool had a pass less than that time ago.
_PAIR = """
local now = tonumber(ARGV[1])
local cutoff = tonumber(ARGV[2])
local base, growth, cap = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local scan, anchors = tonumber(ARGV[6]), tonumber(ARGV[7])
local confirm_by = ARGV[8]
local pool, prefix = ARGV[9], ARGV[10]
local room = (#ARGV - 13) / 3
local last = tonumber(redis.call('GET', KEYS[1] .. ':last') or '0')
if ARGV[12] ~= '1' and now >= last and now - last < tonumber(ARGV[13]) then return {{}, {}} end
redis.call('SET', KEYS[1] .. ':last', now, 'PX', 60000)
local flat = redis.call('ZRANGE', KEYS[1], 0, scan - 1, 'WITHSCORES')
local ws, dropped = {}, {}
for i = 1, #flat, 2 do
  local id = flat[i]
  local seen = tonumber(redis.call('HGET', KEYS[3], id) or '0')
  if seen < cutoff then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    local pkey = prefix .. 'qm:p:' .. id
    redis.call('HSET', pkey, 'state', 'dropped')
    redis.call('EXPIRE', pkey, ARGV[11])
    dropped[#dropped + 1] = id
  else
    local joined = tonumber(flat[i + 1])
    local w = math.min(cap, base + growth * (math.max(0, now - joined) / 1000))
    local r = tonumber(redis.call('HGET', KEYS[2], id) or '1500')
    ws[#ws + 1] = {id = id, joined = joined, r = r, w = w}
  end
end
local used, made, failed = {}, {}, 0
for a = 1, #ws do
  if #made >= room or failed >= anchors then break end
  if not used[a] then
    local A = ws[a]
    local cands = {}
    for b = 1, #ws do
      if b ~= a and not used[b] and math.abs(ws[b].r - A.r) <= math.min(A.w, ws[b].w) then
        cands[#cands + 1] = b
      end
    end
    table.sort(cands, function(x, y)
      local dx, dy = math.abs(ws[x].r - A.r), math.abs(ws[y].r - A.r)
      if dx ~= dy then return dx < dy end
      return x < y
    end)
    local group = {a}
    for _, c in ipairs(cands) do
      local fits = true
      for _, g in ipairs(group) do
        if math.abs(ws[c].r - ws[g].r) > math.min(ws[c].w, ws[g].w) then fits = false; break end
      end
      if fits then
        group[#group + 1] = c
        if #group == 4 then break end
      end
    end
    if #group < 4 then
      failed = failed + 1
    else
      local t = #made
      local tid, commit, order = ARGV[14 + 3 * t], ARGV[15 + 3 * t], ARGV[16 + 3 * t]
      local bySeat = {}
      for k, index in ipairs(group) do
        used[index] = true
        bySeat[tonumber(string.sub(order, k, k)) + 1] = ws[index]
      end
      local tkey = prefix .. 'qm:t:' .. tid
      local out = {tid}
      redis.call('HSET', tkey, 'pool', pool)
      for seat = 1, 4 do
        local w = bySeat[seat]
        out[#out + 1] = w.id
        redis.call('ZREM', KEYS[1], w.id)
        redis.call('HDEL', KEYS[2], w.id)
        redis.call('HDEL', KEYS[3], w.id)
        redis.call('HSET', tkey, 'p' .. (seat - 1), w.id, 'j:' .. w.id, w.joined, 'r:' .. w.id, w.r)
        redis.call('HSET', prefix .. 'qm:p:' .. w.id, 'state', 'found', 'table', tid,
          'seat', seat - 1, 'commit', commit, 'deadline', confirm_by)
      end
      for seat = 1, 4 do out[#out + 1] = tostring(bySeat[seat].r) end
      for seat = 1, 4 do out[#out + 1] = tostring(bySeat[seat].joined) end
      redis.call('ZADD', KEYS[4], confirm_by, tid)
      made[#made + 1] = out
    end
  end
end
return {dropped, made}
"""

# Join. KEYS: player, pool, ratings, seen, pools. ARGV: pool, now, rating.
_JOIN = """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  local pool = redis.call('HGET', KEYS[1], 'pool')
  if pool ~= ARGV[1] then return {'other_pool', pool} end
  redis.call('HSET', KEYS[4], ARGV[4], ARGV[2])
  return {'waiting', pool}
end
if state == 'found' then return {'found', redis.call('HGET', KEYS[1], 'pool')} end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'waiting', 'pool', ARGV[1], 'joined', ARGV[2],
  'rating', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[4], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[2])
redis.call('SADD', KEYS[5], ARGV[1])
return {'joined', ARGV[1]}
"""

# Leave. KEYS: player, due. ARGV: prefix, player id, now, ttl. A found table is made due at
# once, so its other players go back to the pool without waiting for the deadline.
_LEAVE = """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  local pool = ARGV[1] .. 'qm:pool:' .. redis.call('HGET', KEYS[1], 'pool')
  redis.call('ZREM', pool, ARGV[2])
  redis.call('HDEL', pool .. ':r', ARGV[2])
  redis.call('HDEL', pool .. ':s', ARGV[2])
elseif state == 'found' then
  redis.call('ZADD', KEYS[2], 'XX', ARGV[3], redis.call('HGET', KEYS[1], 'table'))
else
  return state or false
end
redis.call('HSET', KEYS[1], 'state', 'left')
redis.call('EXPIRE', KEYS[1], ARGV[4])
return state
"""

# Seen: a waiter's client answered. KEYS: player. ARGV: prefix, player id, now.
_TOUCH = """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  local seen = ARGV[1] .. 'qm:pool:' .. redis.call('HGET', KEYS[1], 'pool') .. ':s'
  if redis.call('HEXISTS', seen, ARGV[2]) == 1 then redis.call('HSET', seen, ARGV[2], ARGV[3]) end
end
return redis.call('HGETALL', KEYS[1])
"""

# Lease the due tables. KEYS: due. ARGV: now, lease until, limit.
_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, tid in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], tid) end
return due
"""

# Settle a found table. KEYS: table, due. ARGV: prefix, table id, now, ttl, outcome
# ('matched' or 'closed'), then the ids of the players who had taken their seat. Matched: all
# four are in the match. Closed: those who sat go back to the pool with their old place, the
# others are dropped ('missed'). A player whose state no longer names this table is left alone.
_SETTLE = """
local info = redis.call('HGETALL', KEYS[1])
local t = {}
for i = 1, #info, 2 do t[info[i]] = info[i + 1] end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
if not t['pool'] then return 0 end
local sat = {}
for i = 6, #ARGV do sat[ARGV[i]] = true end
local pool = ARGV[1] .. 'qm:pool:' .. t['pool']
local back = 0
for seat = 0, 3 do
  local id = t['p' .. seat]
  local pkey = ARGV[1] .. 'qm:p:' .. id
  local state = redis.call('HGET', pkey, 'state')
  local tid = redis.call('HGET', pkey, 'table')
  if tid == ARGV[2] and (state == 'found' or ARGV[5] == 'matched') then
    if ARGV[5] == 'matched' then
      redis.call('HSET', pkey, 'state', 'matched', 'match', ARGV[2])
      redis.call('EXPIRE', pkey, ARGV[4])
    elseif sat[id] and state == 'found' then
      local joined = t['j:' .. id]
      redis.call('HDEL', pkey, 'table', 'seat', 'commit', 'deadline')
      redis.call('HSET', pkey, 'state', 'waiting', 'joined', joined)
      redis.call('ZADD', pool, joined, id)
      redis.call('HSET', pool .. ':r', id, t['r:' .. id])
      redis.call('HSET', pool .. ':s', id, ARGV[3])
      back = back + 1
    elseif state == 'found' then
      redis.call('HSET', pkey, 'state', 'missed')
      redis.call('EXPIRE', pkey, ARGV[4])
    end
  end
end
return back
"""


@dataclass(frozen=True, slots=True)
class Made:
    """A table one pass made: its id and, by seat, the players, ratings and join times."""

    table_id: str
    players: tuple[str, ...]
    ratings: tuple[int, ...]
    joined_ms: tuple[int, ...]

    @property
    def spread(self) -> int:
        return max(self.ratings) - min(self.ratings)


@dataclass(frozen=True, slots=True)
class PassResult:
    dropped: list[str]
    made: list[Made]


def pool_name(ruleset: str, hands: int, guest: bool) -> str:
    return f"{ruleset}:{hands}:{'guest' if guest else 'rated'}"


class QuickMatch:
    """The quick-match pools in the match store's Redis; see the module docstring."""

    def __init__(
        self,
        store: MatchStore,
        settings: QuickSettings | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self.redis = store.redis
        self.settings = settings or QuickSettings()
        self.clock = clock or store.clock
        self.prefix = store.prefix
        self._pair = self.redis.register_script(_PAIR)
        self._join = self.redis.register_script(_JOIN)
        self._leave = self.redis.register_script(_LEAVE)
        self._touch = self.redis.register_script(_TOUCH)
        self._due = self.redis.register_script(_DUE)
        self._settle = self.redis.register_script(_SETTLE)

    # ------------------------------------------------------------------ keys

    def pool_key(self, pool: str) -> str:
        return f"{self.prefix}qm:pool:{pool}"

    def player_key(self, player_id: str) -> str:
        return f"{self.prefix}qm:p:{player_id}"

    def table_key(self, table_id: str) -> str:
        return f"{self.prefix}qm:t:{table_id}"

    @property
    def due_key(self) -> str:
        return f"{self.prefix}qm:due"

    @property
    def pools_key(self) -> str:
        return f"{self.prefix}qm:pools"

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ------------------------------------------------------------------ a player

    def join(self, player_id: str, pool: str, rating: int) -> str:
        """Enter ``pool``; answers 'joined', or 'waiting' when already there (a retry).
        Refused while waiting in another pool or while a found table awaits the player."""
        self.settle_due()  # (a table of theirs whose deadline passed unnoticed is settled first)
        key = self.pool_key(pool)
        reply: Any = self._join(
            keys=[self.player_key(player_id), key, key + ":r", key + ":s", self.pools_key],
            args=[pool, self.now_ms(), int(rating), player_id],
        )
        outcome, current = _text(reply[0]), _text(reply[1])
        if outcome == "other_pool":
            raise MatchError(
                "already_queued", f"you are waiting in the {current} pool; leave it first"
            )
        if outcome == "found":
            raise MatchError(
                "table_found", "a table was found for you: confirm it or leave quick match"
            )
        return outcome

    def leave(self, player_id: str) -> str | None:
        """Leave the pool (or a found, unconfirmed table): the state before, or None."""
        reply: Any = self._leave(
            keys=[self.player_key(player_id), self.due_key],
            args=[self.prefix, player_id, self.now_ms(), _ENDED_TTL_S],
        )
        return None if reply is None else _text(reply)

    def status(self, player_id: str) -> dict[str, str]:
        """The player's state (and, while they wait, mark them seen)."""
        reply: Any = self._touch(
            keys=[self.player_key(player_id)], args=[self.prefix, player_id, self.now_ms()]
        )
        items = [_text(item) for item in reply]
        return dict(zip(items[::2], items[1::2], strict=True))

    def confirm(self, player: Player, client_seed: str | None) -> tuple[dict[str, str], int]:
        """Take the seat held for ``player`` at their found table with their client seed;
        the fourth confirmation starts the match. Returns (state, table version)."""
        if client_seed is not None:
            check_client_seed(client_seed)  # a bad seed is bad_seed, whatever the state
        state = self.status(player.player_id)
        if state.get("state") != "found":
            raise MatchError("no_table_found", "no table is waiting for your confirmation")
        table_id = state["table"]
        try:
            record, _ = self.store.join(
                table_id, player, seat=int(state["seat"]), client_seed=client_seed
            )
        except MatchError as exc:
            if exc.code == "already_seated":
                record, _ = self.store.load(table_id)
            elif exc.code in ("match_over", "match_not_found"):
                raise MatchError(
                    "table_expired", "the table is gone (not confirmed in time)"
                ) from exc
            else:
                raise
        if record.status == "active":
            self._settle_table(table_id, "matched", [])
        return self.status(player.player_id), record.version

    # ------------------------------------------------------------------ the pool

    def pass_pool(
        self, pool: str, ruleset: str, hands: int, ranked: bool, force: bool = False
    ) -> PassResult:
        """Settle the found tables that are due, then one pairing pass over ``pool`` (unless
        one ran less than ``min_pass_ms`` ago and not ``force``); creates the tables it made
        (each player's state already names table, seat and commitment)."""
        self.settle_due()
        cfg = self.settings
        now = self.now_ms()
        seeds: list[str] = []
        table_args: list[Any] = []
        for _ in range(cfg.max_tables):
            table_id = _uuid()
            seed = fairness.draw_server_seed()
            seeds.append(seed)
            order = list("0123")
            secrets.SystemRandom().shuffle(order)  # who sits where: not the pairing's order
            table_args += [table_id, fairness.commitment(table_id, seed), "".join(order)]
        key = self.pool_key(pool)
        window = cfg.window
        reply: Any = self._pair(
            keys=[key, key + ":r", key + ":s", self.due_key],
            args=[
                now,
                now - cfg.stale_ms,
                repr(window.base),
                repr(window.growth_per_s),
                repr(window.cap),
                cfg.max_scan,
                cfg.max_anchors,
                now + cfg.confirm_ms,
                pool,
                self.prefix,
                _ENDED_TTL_S,
                "1" if force else "0",
                cfg.min_pass_ms,
                *table_args,
            ],
        )
        dropped = [_text(item) for item in reply[0]]
        made = []
        for raw in reply[1]:
            row = [_text(item) for item in raw]
            made.append(
                Made(
                    table_id=row[0],
                    players=tuple(row[1:5]),
                    ratings=tuple(int(float(v)) for v in row[5:9]),
                    joined_ms=tuple(int(float(v)) for v in row[9:13]),
                )
            )
            position = table_args.index(row[0]) // 3
            try:
                self.store.create_reserved_table(
                    row[0],
                    seeds[position],
                    list(row[1:5]),
                    ruleset=ruleset,
                    hands=hands,
                    ranked=ranked,
                )
            except (MatchError, RedisError):
                # The players are 'found' at a table that does not exist: nobody can confirm,
                # and the deadline sends them back (or drops them) as for any unconfirmed table.
                continue
        return PassResult(dropped, made)

    def settle_due(self, limit: int = 20) -> int:
        """Settle the found tables whose confirm deadline has passed (leased, so one copy
        settles each): closed unless all four sat, the seated ones back to the pool."""
        now = self.now_ms()
        due: Any = self._due(keys=[self.due_key], args=[now, now + self.settings.lease_ms, limit])
        for raw in due:
            table_id = _text(raw)
            try:
                record = self.store.close_unconfirmed(table_id)
            except MatchError as exc:
                if exc.code != "match_not_found":
                    raise
                self._settle_table(table_id, "closed", [])
                continue
            if record.status == "aborted" and record.end_reason == "not_confirmed":
                self._settle_table(table_id, "closed", record.human_ids())
            else:
                self._settle_table(table_id, "matched", [])
        return len(due)

    def _settle_table(self, table_id: str, outcome: str, seated: list[str]) -> None:
        self._settle(
            keys=[self.table_key(table_id), self.due_key],
            args=[self.prefix, table_id, self.now_ms(), _ENDED_TTL_S, outcome, *seated],
        )

    def pool_sizes(self) -> dict[str, int]:
        """Waiting players per pool (every copy of the service sees the same numbers)."""
        members: Any = self.redis.smembers(self.pools_key)
        names = sorted(_text(raw) for raw in members)
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.zcard(self.pool_key(name))
        return dict(zip(names, (int(n) for n in pipe.execute()), strict=True))

    def waiters(self, pool: str) -> list[Waiter]:
        """Who waits in ``pool`` now (ratings and join times), oldest first."""
        key = self.pool_key(pool)
        members: Any = self.redis.zrange(key, 0, -1, withscores=True)
        ratings: Any = self.redis.hgetall(key + ":r")
        rated = {_text(k): int(float(_text(v))) for k, v in ratings.items()}
        return [
            Waiter(_text(member), rated.get(_text(member), 1500), int(score))
            for member, score in members
        ]


def _uuid() -> str:
    return str(uuid.uuid4())


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


__all__ = [
    "Made",
    "PassResult",
    "QuickMatch",
    "QuickSettings",
    "Waiter",
    "Window",
    "pair",
    "pool_name",
]
