"""The commit: one change to a match, stored by one Lua script (``lua/commit.lua``).

The script checks that the match is still at the version the change was computed from
(optimistic concurrency: of two concurrent writes one commits, the other reloads), then writes
the record, state, moves, events, deadline, lobby entry, idempotent answer and finished
message, and publishes the commit message (``commitmsg``). Its KEYS and ARGV are built here
from ``CommitKeys`` and ``CommitArgs``, by name; the script's header lists them in the same
order (a test checks the two agree).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from redis import Redis
from redis.exceptions import ConnectionError, NoScriptError, ResponseError, TimeoutError

from . import commitmsg, eventcodec, fairness
from .errors import MatchError
from .idempotency import Idem, MoveResult
from .keys import Keys
from .leanscript import LeanScript, lua_source
from .lifecycle import Change, with_fairness
from .reads import Counted
from .settings import MatchSettings

#: Replies of the script (``CommitReply.code``).
STALE, STORED, SEEN, LIMITED = 0, 1, 2, 3
#: When an undelivered finished message is first retried.
PENDING_RETRY_MS = 5_000
#: Tries of a replicated commit while its primary fails over (about 15 s in all).
_WAIT_ATTEMPTS = 25


@dataclass(frozen=True, slots=True)
class CommitKeys:
    match: str
    moves: str
    log: str
    deadlines: str
    lobby: str
    finished: str
    pending: str
    rate: str = ""  #: only for a commit that counts the attempt itself

    def names(self) -> list[str]:
        keys = [self.match, self.moves, self.log, self.deadlines, self.lobby]
        keys += [self.finished, self.pending]
        if self.rate:
            keys.append(self.rate)
        return keys


@dataclass(slots=True)
class CommitArgs:
    """The script's ARGV, by name (see the header of ``lua/commit.lua`` for each)."""

    expected_version: int
    meta: str
    state: bytes
    moves: bytes
    deadline: str
    match_id: str
    lobby: str
    answer_field: str
    answer: bytes
    finished_message: str
    retention_s: str
    pending_at: int
    trim: str
    channel: str
    message: str
    publish: str
    seen_key: str
    seen_field: str
    seen_failure: str
    rate_window_ms: int | str
    rate_amount: int | str
    entries: list[str]

    def argv(self) -> list[Any]:
        return [
            self.expected_version,
            self.meta,
            self.state,
            self.moves,
            self.deadline,
            self.match_id,
            self.lobby,
            self.answer_field,
            self.answer,
            self.finished_message,
            self.retention_s,
            self.pending_at,
            self.trim,
            self.channel,
            self.message,
            self.publish,
            self.seen_key,
            self.seen_field,
            self.seen_failure,
            self.rate_window_ms,
            self.rate_amount,
            *self.entries,
        ]


class CommitReply(NamedTuple):
    code: int  #: STORED, STALE, SEEN or LIMITED
    value: int  #: the new version (STORED), the stored one, or the ms left (LIMITED)
    seq: int  #: the last event's seq (STORED)


class CommitScript:
    """Runs the commit. With ``wait_replicas`` (a cluster whose primaries have replicas), a
    commit is answered only once that many replicas have it (``WAIT``, on the connection that
    wrote it), so a failover loses no acknowledged move; else ``NotReplicated``."""

    def __init__(self, redis: Redis, wait_replicas: int = 0, wait_ms: int = 500) -> None:
        self.redis = redis
        self._script = LeanScript(redis, lua_source("commit"))
        self.wait_replicas = wait_replicas
        self.wait_ms = wait_ms

    def __call__(self, keys: CommitKeys, args: CommitArgs) -> CommitReply:
        if self.wait_replicas:
            return self._replicated(keys.names(), args.argv())
        reply: Any = self._script(keys.names(), args.argv())
        return CommitReply(int(reply[0]), int(reply[1]), int(reply[2]))

    def _replicated(self, names: list[str], argv: list[Any]) -> CommitReply:
        script = self._script.script
        for attempt in range(_WAIT_ATTEMPTS):
            # The match's primary, as the client knows it now (refreshed after a failover).
            cluster: Any = self.redis
            node = cluster.get_node_from_key(names[0])
            client = cluster.get_redis_connection(node)
            pipe = client.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(names), *names, *argv)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms)
            try:
                reply, acked = pipe.execute()
            except NoScriptError:
                client.script_load(script.script)
                continue
            except (ConnectionError, TimeoutError, ResponseError) as exc:
                if isinstance(exc, ResponseError) and not str(exc).startswith("MOVED"):
                    raise
                # A failover under way: wait for the slot's new primary, then again (safe:
                # the commit applies only at the version it expects).
                time.sleep(min(1.0, 0.1 * (attempt + 1)))
                cluster.nodes_manager.initialize()
                continue
            result = CommitReply(int(reply[0]), int(reply[1]), int(reply[2]))
            if result.code == STORED and int(acked) < self.wait_replicas:
                raise NotReplicated(int(acked), self.wait_replicas)
            return result
        raise MatchError("busy", "the match's Redis primary is not reachable; retry")


class NotReplicated(MatchError):
    """A commit its primary holds but not yet enough replicas: not acknowledged (a retry with
    the request's Idempotency-Key gets its answer once it is replicated or replays it)."""

    def __init__(self, acked: int, wanted: int) -> None:
        super().__init__(
            "busy", f"the move reached {acked} of {wanted} replicas in time; retry", acked=acked
        )


@dataclass(frozen=True, slots=True)
class Guard:
    """What a commit without a load checks itself: the request's key not seen yet, and its
    attempt within the rate (``writer.Writer.write_from_latest``)."""

    seen: Idem | None
    counted: Counted | None


def build(
    keys: Keys,
    settings: MatchSettings,
    change: Change,
    prior_moves: bytes,
    idem: Idem | None,
    result: MoveResult | None,
    guard: Guard | None,
) -> tuple[CommitKeys, CommitArgs, bytes]:
    """The script's keys and arguments for ``change`` (``prior_moves``: the match's stored
    moves, needed only when the change ends it), plus the new state's bytes. Stamps the events
    with their version and seq, and fills in the finished message's fairness transcript."""
    record, state = change.record, change.state
    match_id = record.match_id
    retention = str(settings.retention_s) if record.ended else ""
    finished = ""
    if change.finished is not None:
        moves = prior_moves + bytes(change.moves)
        change.finished = with_fairness(change.finished, fairness.transcript(record, moves, state))
        finished = change.finished.to_json()
    entries = eventcodec.stamp(change.events, change.next_version, record.seq)
    trim = ""
    for event in change.events:
        if event["type"] == "hand_started" and not event.get("redeal"):
            # A new hand: the log keeps the hand that just ended, from the write that began
            # it, and everything after; older events go. A reader anywhere in the hand that
            # ended (a poll or two behind when the last card fell) reads on without a gap;
            # one further behind gets ``reset`` and re-reads the view (the score sheet has
            # every old hand). A redeal (konturlu's ``redeal: true``) deals the same hand
            # again: nothing is trimmed inside a hand.
            record.log_start = record.hand_seq
            record.hand_seq = change.events[0]["seq"]
            trim = str(record.log_start)
    deadline = ""
    if record.status == "active" and record.deadline_ms is not None:
        deadline = str(record.deadline_ms)
    answer = b"" if idem is None or result is None else idem.answer(result, entries)
    seen, counted = (guard.seen, guard.counted) if guard is not None else (None, None)
    state_bytes = state.to_bytes() if state is not None else b""
    meta = record.to_json()
    message = ""
    if entries:
        message = commitmsg.encode(
            commitmsg.CommitMessage(
                first=record.seq + 1,
                last=record.seq + len(entries),
                # Whose player may move next (none while a bot plays the mover's seat), and the
                # new state, for the followers' "your turn" and the next write (latest.py).
                turn=record.player_to_act(state),
                version=change.next_version,
                meta=meta,
                state_hex=state_bytes.hex(),
                entries=entries,
            )
        )
    commit_keys = CommitKeys(
        match=keys.match(match_id),
        moves=keys.moves(match_id),
        log=keys.log(match_id),
        deadlines=keys.deadlines(match_id),
        lobby=keys.lobby(match_id),
        finished=keys.finished(match_id),
        pending=keys.pending(match_id),
        rate=""
        if counted is None
        else keys.rate(match_id, counted.who, counted.limit.window_ms, change.now_ms),
    )
    args = CommitArgs(
        expected_version=record.version,
        meta=meta,
        state=state_bytes,
        moves=bytes(change.moves),
        deadline=deadline,
        match_id=match_id,
        lobby=change.lobby,
        answer_field=idem.field if idem is not None and answer else "",
        answer=answer,
        finished_message=finished,
        retention_s=retention,
        pending_at=change.now_ms + PENDING_RETRY_MS,
        trim=trim,
        channel=keys.channel(match_id),
        message=message,
        publish="SPUBLISH" if keys.buckets else "PUBLISH",
        seen_key=seen.key if seen else "",
        seen_field=seen.field if seen else "",
        seen_failure=seen.failure_field if seen else "",
        rate_window_ms="" if counted is None else counted.limit.window_ms,
        rate_amount="" if counted is None else counted.limit.amount,
        entries=entries,
    )
    return commit_keys, args, state_bytes
