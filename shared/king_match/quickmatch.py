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
from .leanscript import lua_source
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
        self.keys = store.keys
        self._pair = self.redis.register_script(lua_source("qm_pair"))
        self._join = self.redis.register_script(lua_source("qm_join"))
        self._leave = self.redis.register_script(lua_source("qm_leave"))
        self._touch = self.redis.register_script(lua_source("qm_touch"))
        self._due = self.redis.register_script(lua_source("qm_due"))
        self._settle = self.redis.register_script(lua_source("qm_settle"))

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ------------------------------------------------------------------ a player

    def join(self, player_id: str, pool: str, rating: int) -> str:
        """Enter ``pool``; answers 'joined', or 'waiting' when already there (a retry).
        Refused while waiting in another pool or while a found table awaits the player."""
        self.settle_due()  # (a table of theirs whose deadline passed unnoticed is settled first)
        key = self.keys.qm_pool(pool)
        reply: Any = self._join(
            keys=[self.keys.qm_player(player_id), key, key + ":r", key + ":s", self.keys.qm_pools],
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
            keys=[self.keys.qm_player(player_id), self.keys.qm_due],
            args=[self.keys.qm_prefix, player_id, self.now_ms(), _ENDED_TTL_S],
        )
        return None if reply is None else _text(reply)

    def status(self, player_id: str) -> dict[str, str]:
        """The player's state (and, while they wait, mark them seen)."""
        reply: Any = self._touch(
            keys=[self.keys.qm_player(player_id)],
            args=[self.keys.qm_prefix, player_id, self.now_ms()],
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
        key = self.keys.qm_pool(pool)
        window = cfg.window
        reply: Any = self._pair(
            keys=[key, key + ":r", key + ":s", self.keys.qm_due],
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
                self.keys.qm_prefix,
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
        due: Any = self._due(
            keys=[self.keys.qm_due], args=[now, now + self.settings.lease_ms, limit]
        )
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
            keys=[self.keys.qm_table(table_id), self.keys.qm_due],
            args=[self.keys.qm_prefix, table_id, self.now_ms(), _ENDED_TTL_S, outcome, *seated],
        )

    def pool_sizes(self) -> dict[str, int]:
        """Waiting players per pool (every copy of the service sees the same numbers)."""
        members: Any = self.redis.smembers(self.keys.qm_pools)
        names = sorted(_text(raw) for raw in members)
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.zcard(self.keys.qm_pool(name))
        return dict(zip(names, (int(n) for n in pipe.execute()), strict=True))

    def waiters(self, pool: str) -> list[Waiter]:
        """Who waits in ``pool`` now (ratings and join times), oldest first."""
        key = self.keys.qm_pool(pool)
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
