"""The one writer path: every change to a match goes through ``Writer.write``.

A write loads the match (``reads.MatchReader.load``), applies the clock timeouts that are due
(``lifecycle.expire``), runs the requested change, and commits what the change holds with one
script that first checks that the stored version is still the one loaded (``commit.py``): two
concurrent requests can never both apply; the loser reloads and is validated again, or gets
``stale_version`` when it named the version it expected. Only after the commit does the writer
hand jobs to the queues (bot turns, the finished-match message), so a job never sees a change
that was not stored.

A move on a match this process follows can skip the load (``write_from_latest``): it starts
from the latest commit the notifier heard (``latest.py``) and its commit checks also what the
load would have (the key not seen yet, the rate). Anything unusual falls back to ``write``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

from redis import Redis

from king_engine import GameState, KingError
from king_message import FinishedMatch

from . import commit, serving
from .errors import MatchError, StaleVersion
from .idempotency import Idem, MoveResult
from .jobs import Enqueuer, finished_match_job
from .keys import Keys
from .latest import LastCommit, LatestCommits
from .leanscript import lua_source
from .lifecycle import Change, expire
from .reads import Counted, MatchReader, due_members
from .record import MatchRecord
from .settings import MatchSettings

R = TypeVar("R")

_MAX_ATTEMPTS = 50
_RECENT_KEEP = 50


class Writer:
    def __init__(
        self,
        redis: Redis,
        keys: Keys,
        settings: MatchSettings,
        reader: MatchReader,
        enqueuer: Enqueuer,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
        self.keys = keys
        self.settings = settings
        self.reader = reader
        self.enqueuer = enqueuer
        self.clock = clock
        #: The process's latest-commit cache (the notifier's), once there is a notifier.
        self.commits: LatestCommits | None = None
        #: Called with (mode, outcome) once per match, after the commit that ends it.
        self.on_finished: Callable[[str, str], None] | None = None
        self._commit = commit.CommitScript(redis, settings.wait_replicas, settings.wait_ms)
        self._remember = redis.register_script(lua_source("remember"))

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def change(self, record: MatchRecord, state: GameState | None) -> Change:
        """A change of the match as loaded, at the current time."""
        redis, keys = self.redis, self.keys
        return Change(
            record,
            state,
            self.now_ms(),
            clocks=self.settings.clocks,
            lost_ms=lambda since, now: serving.lost_ms(redis, keys, since, now),
        )

    # ------------------------------------------------------------------ the write

    def write(
        self,
        match_id: str,
        mutate: Callable[[Change], R],
        *,
        expected_version: int | None = None,
        idem: Idem | None = None,
        initial: MatchRecord | None = None,
        rate: Counted | None = None,
    ) -> R:
        """Load, expire, ``mutate``, commit; again on a lost race. ``initial``: the first
        write of a new match (refused if the id exists)."""
        try:
            for attempt in range(_MAX_ATTEMPTS):
                if initial is not None:
                    if self.redis.exists(self.keys.match(match_id)):
                        raise MatchError("bad_table", f"match {match_id} exists already")
                    record, state = initial, None
                else:
                    # A request counts once against its rate limit, not once per retry.
                    counted = rate if attempt == 0 else None
                    record, state, replay = self.reader.load(match_id, idem, counted, self.now_ms())
                    if replay is not None:
                        return replay  # type: ignore[return-value]
                if expected_version is not None and expected_version != record.version:
                    raise StaleVersion(expected_version, record.version)
                change = self.change(record, state)
                expire(change)
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
                answer = result if isinstance(result, MoveResult) and failure is None else None
                if self._commit_change(change, idem if answer else None, answer) != commit.STORED:
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
                self._remember_refusal(idem, exc)
            raise

    def write_from_latest(
        self,
        match_id: str,
        mutate: Callable[[Change], MoveResult],
        expected_version: int | None,
        idem: Idem | None,
        rate: Counted | None,
    ) -> MoveResult | None:
        """The common case of a move without its load round trip: when this process holds
        the match's latest commit (a followed match), apply the change to that copy and commit
        it in one script, which checks the version as always and also what the load would
        have checked (the key not seen yet, the rate). Anything else — no copy, a refused
        request, a newer version, a key seen before — returns None having changed nothing and
        counted nothing, and the caller takes ``write``, which gives every refusal its usual
        form."""
        last = None if self.commits is None else self.commits.latest(match_id)
        if last is None or not last.state_hex:
            return None
        if expected_version is not None and expected_version != last.version:
            return None
        change = self.change(*self.from_commit(match_id, last))
        try:
            expire(change)
            result = mutate(change)
        except (MatchError, KingError):
            return None
        if not change.changed:
            return None
        code = self._commit_change(change, idem, result, commit.Guard(idem, rate))
        if code != commit.STORED:
            return None
        self._after_commit(change)
        return result

    def from_commit(self, match_id: str, last: LastCommit) -> tuple[MatchRecord, GameState | None]:
        """The record and (a private copy of) the state a commit message carried."""
        record = MatchRecord.from_json(last.meta, last.version, last.seq)
        if not last.state_hex:
            return record, None
        return record, self.reader.decoded.state(match_id, bytes.fromhex(last.state_hex))

    def _commit_change(
        self,
        change: Change,
        idem: Idem | None,
        result: MoveResult | None,
        guard: commit.Guard | None = None,
    ) -> int:
        """Commit ``change``: STORED, STALE (the match has moved on) or, for a guarded commit,
        SEEN (the key was seen before); raises ``RateLimited`` past the guard's rate."""
        record = change.record
        prior = b""
        if change.finished is not None:
            # The transcript replays every move: the stored ones must be those of this change's
            # version, or another writer ended the match first and this commit is stale anyway.
            stored = self.reader.moves_at(record.match_id, record.version)
            if stored is None:
                return commit.STALE
            prior = stored
        keys, args, state_bytes = commit.build(
            self.keys, self.settings, change, prior, idem, result, guard
        )
        reply = self._commit(keys, args)
        if reply.code == commit.LIMITED:
            assert guard is not None and guard.counted is not None
            raise guard.counted.refused(reply.value)
        if reply.code != commit.STORED:
            return reply.code
        record.version = reply.value
        record.seq = reply.seq
        if change.state is not None:
            # The next move's write, and the readers, will want this state: spare the decode.
            self.reader.decoded.keep(record.match_id, state_bytes, change.state.copy())
        return commit.STORED

    def _after_commit(self, change: Change) -> None:
        """The player lists, then the jobs the change calls for (never before the commit)."""
        record = change.record
        pipe = self.redis.pipeline(transaction=False)
        for player_id in change.joined:
            pipe.zadd(self.keys.active(player_id), {record.match_id: change.now_ms})
        for player_id in change.left:
            pipe.zrem(self.keys.active(player_id), record.match_id)
        if record.ended:
            for player_id in record.human_ids():
                recent = self.keys.recent(player_id)
                pipe.zrem(self.keys.active(player_id), record.match_id)
                pipe.zadd(recent, {record.match_id: record.ended_ms or 0})
                pipe.zremrangebyrank(recent, 0, -_RECENT_KEEP - 1)
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

    def _remember_refusal(self, idem: Idem, exc: MatchError | KingError) -> None:
        value = idem.refusal(exc)
        if value is not None:
            self._remember(keys=[self.keys.match(idem.match_id)], args=[idem.failure_field, value])

    # ------------------------------------------------------------------ finished matches

    def deliver_finished(self, message: FinishedMatch) -> bool:
        """Put a finished match on the ratings queue; False (kept pending) if that failed."""
        try:
            self.enqueuer.enqueue(finished_match_job(message))
        except Exception:
            retry_at = self.now_ms() + commit.PENDING_RETRY_MS
            self.redis.zadd(self.keys.pending(message.match_id), {message.match_id: retry_at})
            return False
        self.redis.zrem(self.keys.pending(message.match_id), message.match_id)
        return True

    def pending_finished(self, limit: int) -> list[str]:
        """The matches whose finished message is due for another delivery."""
        return due_members(self.redis, self.keys.all_pending, self.now_ms(), limit)
