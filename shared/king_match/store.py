"""``MatchStore``: the match layer's front. Each method names one thing a service does to a
match and hands it to the pieces that do it:

* ``lifecycle`` and ``seating`` — the rules (turns, clocks, forfeits, the end; tables and
  seats), pure functions of a ``Change``;
* ``writer`` — the one writer path: load, apply the due timeouts and the change, commit
  (``commit`` and ``lua/commit.lua``), then the jobs;
* ``reads`` — loading a match and reading its event log; ``lists`` — the lobby and a player's
  matches; ``notify`` wakes the waiting readers (``shards`` on a cluster) and ``latest`` keeps
  each followed match's latest commit for the next write;
* ``keys`` — every Redis key name.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from redis import Redis

from king_engine import GameMove, GameState, MatchState, own_state, view_for
from king_engine import SeatView as SeatView
from king_message import FinishedMatch

from . import fairness, lifecycle, lists, seating
from .errors import MatchError
from .idempotency import Idem, MoveResult
from .jobs import Enqueuer, NoQueue
from .keys import Keys, is_cluster
from .lifecycle import Change, Player, fallback_move
from .notify import EventNotifier
from .reads import Counted, MatchReader, MoveRate, as_text, due_members
from .record import MatchRecord
from .seating import canonical_id, check_client_seed
from .settings import MatchSettings
from .writer import Writer

__all__ = [
    "MatchStore",
    "MoveRate",
    "MoveResult",
    "Player",
    "SeatView",
    "check_client_seed",
    "connect",
    "fallback_move",
]


def connect(settings: MatchSettings, **options: Any) -> Redis:
    """The client of the match state: a plain Redis, or with ``settings.cluster`` a Redis
    Cluster client (the same command API; typed as ``Redis`` for the code that uses it)."""
    if settings.cluster:
        from redis.cluster import RedisCluster

        return cast(Redis, RedisCluster.from_url(settings.redis_url, **options))
    return Redis.from_url(settings.redis_url, **options)


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
        self.settings = settings or MatchSettings()
        self.clock = clock
        self.prefix = self.settings.key_prefix
        self.keys = Keys(self.prefix, self.settings.buckets if is_cluster(redis) else 0)
        self.reader = MatchReader(redis, self.keys)
        self.writer = Writer(
            redis, self.keys, self.settings, self.reader, enqueuer or NoQueue(), self.clock
        )
        #: Called with (mode, outcome) once per match, after the commit that ends it (the
        #: processes pass ``king_metrics.record_match_finished``).
        self.on_finished = on_finished
        #: Wakes waiting readers from one Pub/Sub connection (made on first use if not given).
        self.notifier: EventNotifier | None = None
        if notifier is not None:
            self._use(notifier)

    @property
    def on_finished(self) -> Callable[[str, str], None] | None:
        return self.writer.on_finished

    @on_finished.setter
    def on_finished(self, callback: Callable[[str, str], None] | None) -> None:
        self.writer.on_finished = callback

    def _use(self, notifier: EventNotifier) -> EventNotifier:
        self.notifier = notifier
        self.writer.commits = notifier.commits
        return notifier

    def _notifier(self) -> EventNotifier:
        return self.notifier or self._use(EventNotifier(self.redis, self.prefix))

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ------------------------------------------------------------------ reading

    def load(self, match_id: str) -> tuple[MatchRecord, GameState | None]:
        """The match as stored, after applying any clock timeout that is due."""
        match_id = canonical_id(match_id)
        record, state, _ = self.reader.load(match_id)
        if lifecycle.due(record, self.now_ms()):
            self.check_clock(match_id)
            record, state, _ = self.reader.load(match_id)
        return record, state

    def seat_view(self, match_id: str, seat: int) -> tuple[MatchRecord, SeatView | dict[str, Any]]:
        """What ``seat`` may see: a ``SeatView`` for the ``MatchState`` rulesets, the state's
        own JSON view for a ruleset with its own state class."""
        record, state = self.load(match_id)
        if state is None:
            raise MatchError("match_not_started", "the match has not started yet")
        if isinstance(state, MatchState):
            return record, view_for(state, seat)
        return record, own_state(state).view(seat)

    def moves(self, match_id: str) -> bytes:
        return self.reader.moves(match_id)

    def transcript(self, match_id: str) -> dict[str, Any]:
        """The fairness transcript; only once the match has ended (else ``match_not_over``)."""
        record, state = self.load(match_id)
        if not record.ended:
            raise MatchError(
                "match_not_over", "the deal's seeds are revealed only when the match has ended"
            )
        return fairness.transcript(record, self.moves(record.match_id), state)

    @contextmanager
    def following(self, match_id: str) -> Iterator[None]:
        """Hold this around a follower's whole life (a stream): the notifier then keeps the
        match's latest events and commit in memory between its reads."""
        with self._notifier().watching(match_id):
            yield

    def turn_after(self, match_id: str, seq: int) -> tuple[int | None, int] | None:
        """(seat whose player may move, or None; version) right after event ``seq`` if this
        process knows it (a followed match); None: load the match to know."""
        commits = self.writer.commits
        last = None if commits is None else commits.after(match_id, seq)
        return None if last is None else (last.turn, last.version)

    def snapshot_after(
        self, match_id: str, seq: int
    ) -> tuple[MatchRecord, GameState | None] | None:
        """The match as the commit that wrote event ``seq`` left it, from this process's copy
        of that commit (a followed match, nothing newer since); None: load it. Spares the
        follower whose turn it now is a round trip."""
        commits = self.writer.commits
        last = None if commits is None else commits.after(match_id, seq)
        return None if last is None else self.writer.from_commit(match_id, last)

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
            return self.reader.read_log(match_id, after, count)
        notifier = self._notifier()
        if following:
            return self.reader.events(notifier, match_id, after, count, block_ms)
        with notifier.watching(match_id):
            return self.reader.events(notifier, match_id, after, count, block_ms)

    def lobby(self, limit: int = 50) -> list[MatchRecord]:
        """Open live tables someone sits at, oldest first."""
        return lists.lobby(self, limit)

    def player_matches(self, player_id: str) -> tuple[list[MatchRecord], list[MatchRecord]]:
        """(active or waiting matches, recently ended ones) of a player."""
        return lists.player_matches(self, player_id)

    def finished_message(self, match_id: str) -> FinishedMatch | None:
        raw = self.redis.get(self.keys.finished(match_id))
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
        options: Mapping[str, Any] | None = None,
    ) -> MatchRecord:
        """A new table with its deal commitment; nobody sits yet, not even its creator.

        Creation takes no client seed: a seed is accepted only by ``join``, from a player who
        holds the table (and so its ``server_commit``), so every client seed is made after the
        server's inputs are fixed (FAIRNESS step 2). A computer table gets its three server
        bots now, on every seat but ``seat``, and starts when its creator joins on that seat;
        a live table is listed in the lobby once a player sits, and starts when four have.
        """
        record = seating.new_table(
            creator,
            self.now_ms(),
            mode=mode,
            ruleset=ruleset,
            hands=hands,
            level=level,
            seat=seat,
            match_id=match_id,
            options=options,
            preview=self.settings.preview_rulesets,
        )
        return self.writer.write(record.match_id, seating.created, initial=record)

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
        record = seating.reserved_table(
            match_id,
            server_seed,
            player_ids,
            self.now_ms(),
            ruleset=ruleset,
            hands=hands,
            ranked=ranked,
        )
        return self.writer.write(record.match_id, seating.created, initial=record)

    def close_unconfirmed(self, match_id: str) -> MatchRecord:
        """Abort a quick-match table that is still waiting (a player did not confirm in
        time); a table that has started (or ended) is returned as it is. Racing ``join``
        through the one writer path, so a table is either started or closed, never both."""
        return self.writer.write(canonical_id(match_id), seating.close_unconfirmed)

    def join(
        self, match_id: str, player: Player, seat: int | None = None, client_seed: str | None = None
    ) -> tuple[MatchRecord, int]:
        """Seat ``player`` with their client seed, after the table's commitment was published:
        the given seat or the first free one; no seed (``None``) gets one drawn by the server,
        marked ``server`` in the transcript. A full table starts at once."""
        seed, source = seating.seed_of(client_seed)

        def sit(change: Change) -> tuple[MatchRecord, int]:
            return change.record, seating.join(change, player, seat, seed, source)

        return self.writer.write(canonical_id(match_id), sit)

    def leave(self, match_id: str, player: Player) -> MatchRecord:
        """Leave a table before its match starts; an empty table closes."""
        return self.writer.write(canonical_id(match_id), lambda c: seating.leave(c, player))

    # ------------------------------------------------------------------ play

    def play(
        self,
        match_id: str,
        player: Player | None,
        move: GameMove | str,
        *,
        seat: int | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        rate: MoveRate | None = None,
    ) -> MoveResult:
        """Apply ``player``'s move (``player`` None: a bot move for the automated ``seat``).
        With ``rate``, the attempt first counts against the player's move limit."""
        match_id = canonical_id(match_id)
        who = player.player_id if player else f"bot{seat}"
        idem = Idem.of(match_id, who, idempotency_key, f"{move}|{expected_version}")
        counted = Counted(who, rate) if rate is not None else None

        def apply(change: Change) -> MoveResult:
            before = len(change.events)
            index = lifecycle.play(change, player, seat, move)
            return MoveResult(
                match_id, change.next_version, index, str(move), change.events[before:]
            )

        done = self.writer.write_from_latest(match_id, apply, expected_version, idem, counted)
        if done is not None:
            return done
        return self.writer.write(
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
        match_id = canonical_id(match_id)
        idem = Idem.of(match_id, player.player_id, idempotency_key, f"resign|{expected_version}")

        def give_up(change: Change) -> MoveResult:
            before = len(change.events)
            index = lifecycle.resign(change, player)
            return MoveResult(
                match_id, change.next_version, index, "resign", change.events[before:]
            )

        return self.writer.write(match_id, give_up, expected_version=expected_version, idem=idem)

    # ------------------------------------------------------------------ clocks (the sweeper)

    def check_clock(self, match_id: str) -> bool:
        """Apply the timeout of a match whose deadline has passed (the sweeper's job)."""
        return self._sweep(match_id, lambda change: change.changed)

    def give_back_lost_time(self, match_id: str) -> bool:
        """Give a waiting match the time the service was not serving (``lifecycle.give_back``):
        what the sweeper does for every active match when an outage ends. True if changed."""

        def give_back(change: Change) -> bool:
            lifecycle.give_back(change)
            return change.changed

        return self._sweep(match_id, give_back)

    def _sweep(self, match_id: str, mutate: Callable[[Change], bool]) -> bool:
        try:
            return self.writer.write(canonical_id(match_id), mutate)
        except MatchError as exc:
            if exc.code == "match_not_found":
                self.redis.zrem(self.keys.deadlines(match_id), match_id)
                return False
            raise

    def waiting_matches(self, batch: int = 500) -> Iterator[str]:
        """Every match waiting on a deadline (all active matches)."""
        for index in self.keys.all_deadlines:
            for raw in self.redis.zscan_iter(index, count=batch):
                yield as_text(raw[0])

    def active_count(self) -> int:
        """How many matches wait on a deadline (every active match)."""
        pipe = self.redis.pipeline(transaction=False)
        for index in self.keys.all_deadlines:
            pipe.zcard(index)
        return sum(int(count) for count in pipe.execute())

    def due_matches(self, limit: int = 200) -> list[str]:
        return due_members(self.redis, self.keys.all_deadlines, self.now_ms(), limit)

    # ------------------------------------------------------------------ finished matches

    def deliver_finished(self, message: FinishedMatch) -> bool:
        """Put a finished match on the ratings queue; False (kept pending) if that failed."""
        return self.writer.deliver_finished(message)

    def retry_pending_finished(self, limit: int = 100) -> int:
        """Re-deliver finished messages whose enqueue failed (or was cut short); returns how
        many went out."""
        sent = 0
        for match_id in self.writer.pending_finished(limit):
            message = self.finished_message(match_id)
            if message is None:
                self.redis.zrem(self.keys.pending(match_id), match_id)
                continue
            sent += self.deliver_finished(message)
        return sent
