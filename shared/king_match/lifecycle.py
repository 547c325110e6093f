"""The rules of a match's life, with no Redis: turns, clocks and reserves, timeouts, forfeits,
bot takeover, resigning, the end and the finished-match message.

Each rule is a function of a ``Change``: the record and engine state as loaded, the time, and
what the write adds (events, move bytes, jobs, lobby and seat-list updates, the finished
message). The writer (``writer.py``) loads a match, applies the due timeouts (``expire``) and
the request's change, then commits what the ``Change`` holds. The one thing a rule needs from
outside is how long the service was not serving (``Change.lost_ms``, from ``serving.py``): the
writer passes it in, a test passes a function.

Who may act now is ``MatchRecord.player_to_act`` (the view, the stream and the move check all
ask it); who wins, forfeits counted, is the engine's ``MatchState.result`` (``standing``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from king_engine import GameMove, GameState, IllegalMove, as_ruleset_move, new_game
from king_message import FinishedMatch, SeatResult, format_utc

from . import fairness
from .errors import MatchError
from .jobs import JobSpec, bot_turn_job
from .record import MatchRecord, encode_move
from .settings import ClockSettings


@dataclass(frozen=True, slots=True)
class Player:
    """Who is asking: an account of the game service (or a bot account)."""

    player_id: str
    name: str
    is_bot: bool = False
    is_guest: bool = False


def no_outages(since_ms: int, now_ms: int) -> int:
    """``Change.lost_ms`` of a service that never stopped serving."""
    return 0


@dataclass(slots=True)
class Change:
    """One write in progress: the loaded record and state plus what the write adds."""

    record: MatchRecord
    state: GameState | None
    now_ms: int
    clocks: ClockSettings = field(default_factory=ClockSettings)
    #: How long the service was not serving between two times (ms): given back to the mover.
    lost_ms: Callable[[int, int], int] = no_outages
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


# ---------------------------------------------------------------------- moves


def play(change: Change, player: Player | None, seat: int | None, move: GameMove | str) -> int:
    """Apply a move of ``player`` (None: of the bot playing ``seat``); returns its seat. A move
    given as text (or parsed before the match was known) is read as a move of its ruleset."""
    index = acting_seat(change.record, player, seat)
    if change.state is None:
        raise MatchError("match_not_started", "the match has not started yet")
    if player is not None:
        check_player_turn(change.record, change.state, index)
    apply_move(change, index, as_ruleset_move(change.state, move))
    return index


def resign(change: Change, player: Player) -> int:
    """Give up: a live player is ranked last and a bot finishes the seat; a human who resigns
    against the computer ends (aborts) the match. Returns the seat."""
    index = acting_seat(change.record, player, None)
    forfeit(change, index, "resigned", change.now_ms)
    return index


def acting_seat(record: MatchRecord, player: Player | None, seat: int | None) -> int:
    """The seat ``player`` (None: a bot, for ``seat``) acts for, or why they may not."""
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


def check_player_turn(record: MatchRecord, state: GameState, seat: int) -> None:
    """A player's move is taken only when ``player_to_act`` names their seat: refused
    ``seat_forfeited`` while a bot plays it, else ``not_your_turn``."""
    if record.player_to_act(state) == seat:
        return
    if record.seat(seat).automated:
        raise MatchError("seat_forfeited", "you have left this match; a bot plays your seat")
    mover = state.current_player
    raise IllegalMove("not_your_turn", f"it is seat {mover}'s turn, not seat {seat}'s", turn=mover)


def apply_move(change: Change, seat: int, move: GameMove) -> None:
    """The engine's checked move (``IllegalMove`` / ``BadInput`` change nothing), the mover's
    reserve charged for a live move over its time, then the next turn or the end."""
    state, record = change.state, change.record
    assert state is not None
    events = state.apply(seat, move)
    if (
        record.mode == "live"
        and not record.seat(seat).automated
        and record.turn_started_ms is not None
    ):
        over = change.now_ms - record.turn_started_ms - change.clocks.live_move_ms
        if over > 0:
            # Into the reserve: unless the service could not take moves meanwhile.
            give_back(change)
            over = change.now_ms - record.turn_started_ms - change.clocks.live_move_ms
        if over > 0:
            record.reserves[seat] = max(0, record.reserves[seat] - over)
    change.moves += encode_move(seat, move.action)
    for event in events:
        if event["type"] == "match_over":
            # Only the match layer knows the forfeits: a player who forfeited never wins.
            event["winners"] = state.result(record.forfeits)["winners"]
        change.emit(event)
    if state.is_over:
        reason = state.result(record.forfeits)["end_reason"]
        finish(change, "forfeit" if record.forfeits else "finished", reason)
    else:
        start_turn(change)


def fallback_move(state: GameState, seat: int, seed: str) -> Any:
    """A random legal move for ``seat`` (the clock's stand-in for a bot that did not answer)."""
    moves = state.legal_moves(seat)
    if not moves:
        raise IllegalMove("not_your_turn", f"seat {seat} has no move now")
    return random.Random(seed).choice(moves)


# ---------------------------------------------------------------------- turns and clocks


def start(change: Change) -> None:
    """Deal the match of a full table and start its first turn."""
    record = change.record
    state = new_game(record.ruleset, record.hands, fairness.match_key(record), record.options)
    change.state = state
    record.status = "active"
    record.started_ms = change.now_ms
    reserve = change.clocks.live_reserve_ms if record.mode == "live" else 0
    record.reserves = [reserve] * 4
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
    start_turn(change)


def start_turn(change: Change) -> None:
    """The mover's deadline, and a bot job when a bot moves for the seat."""
    record, state, clocks = change.record, change.state, change.clocks
    assert state is not None
    seat = state.current_player
    assert seat is not None
    mover = record.seat(seat)
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


def due(record: MatchRecord, now_ms: int) -> bool:
    """Whether the match's deadline has passed (a timeout is to be applied)."""
    return (
        record.status == "active"
        and record.deadline_ms is not None
        and now_ms >= record.deadline_ms
    )


def give_back(change: Change) -> None:
    """The clock rule for outages: time during which the game service could not take moves
    does not count against the player to move. Their turn's start and deadline move forward
    by it, so their move time and reserve are as they were when the outage began. Each stretch
    of time is given back once (``clock_checked_ms``). Applied before a timeout and before a
    move is charged to the reserve, on every path, and by the sweeper for every waiting match
    when the service serves again."""
    record = change.record
    if (
        record.status != "active"
        or record.turn_started_ms is None
        or record.deadline_ms is None
        or record.clock_checked_ms == change.now_ms
    ):
        return
    since = max(record.turn_started_ms, record.clock_checked_ms or 0)
    lost = change.lost_ms(since, change.now_ms)
    record.clock_checked_ms = change.now_ms
    if lost > 0:
        record.turn_started_ms += lost
        record.deadline_ms += lost
        mover = None if change.state is None else change.state.current_player
        change.emit({"type": "clock_restored", "seat": mover, "ms": lost})


def expire(change: Change) -> None:
    """Apply what the clock says happened: a timeout for each passed deadline."""
    record = change.record
    for _ in range(8):
        if not due(record, change.now_ms):
            return
        give_back(change)
        assert record.deadline_ms is not None
        if change.now_ms < record.deadline_ms:
            return  # the service was not serving: the time is given back instead
        state = change.state
        assert state is not None
        seat = state.current_player
        assert seat is not None
        if record.seat(seat).automated:
            # The bot's answer did not come in time: move for it so it never loses on time.
            move = fallback_move(state, seat, f"{record.match_id}:{record.version}")
            change.emit({"type": "bot_fallback", "seat": seat})
            apply_move(change, seat, move)
        else:
            change.emit({"type": "clock_expired", "seat": seat})
            if record.mode == "live":
                record.reserves[seat] = 0
            forfeit(change, seat, "timeout", record.deadline_ms)


# ---------------------------------------------------------------------- leaving and the end


def forfeit(change: Change, seat: int, reason: str, when_ms: int) -> None:
    """A player leaves a match (resigned, timed out): a bot finishes a live seat while anyone
    still plays; against the computer, or when nobody is left, the match is abandoned."""
    record = change.record
    entry = record.seat(seat)
    if entry.forfeited or record.ended:
        return
    entry.forfeited = True
    entry.left_at_ms = when_ms
    record.forfeits.append(seat)
    if change.state is not None:
        change.state.forfeit(seat)  # the engine's mark: no King for the seat, a forced pass
    change.emit({"type": "player_forfeited", "seat": seat, "reason": reason})
    still_playing = [
        s for s in record.seats if s is not None and not s.server_bot and not s.forfeited
    ]
    if record.mode == "computer" or not still_playing:
        finish(change, "aborted", f"abandoned ({reason})")
        return
    entry.taken_over = True
    change.emit({"type": "bot_takeover", "seat": seat})
    state = change.state
    if state is not None and state.current_player == seat:
        start_turn(change)


def finish(change: Change, outcome: str, reason: str) -> None:
    """End a started match: totals, places (forfeits last) and its finished message."""
    record, state = change.record, change.state
    assert state is not None
    record.status = "finished" if outcome != "aborted" else "aborted"
    record.outcome = outcome
    record.end_reason = reason
    record.ended_ms = change.now_ms
    record.deadline_ms = None
    result = standing(state, record)
    totals, places = result["totals"], result["places"]
    change.finished = finished_message(record, totals, places)
    change.emit(
        {
            "type": "match_finished",
            "outcome": outcome,
            "reason": reason,
            **result,
            "forfeits": list(record.forfeits),
        }
    )


def standing(state: GameState, record: MatchRecord) -> dict[str, Any]:
    """How the match stands for the result: ``totals``, ``places`` and ``winners`` (forfeits
    counted: a player who forfeited is placed last and never wins), and for rulesets with a
    feat or outcome labels ``end_reason``, ``king_seat`` and ``seat_outcomes`` (çıkar/batar)."""
    result = state.result(record.forfeits)
    out = {key: result[key] for key in ("totals", "places", "winners")}
    if state.ruleset.outcome_labels is not None:
        out.update(
            end_reason=result["end_reason"],
            king_seat=result.get("king_seat"),  # (only traditional has a feat)
            seat_outcomes=result["outcome"],
        )
    return out


def abort_waiting(change: Change, reason: str) -> None:
    """End a table that never started (closed, or not confirmed in time)."""
    record = change.record
    record.status = "aborted"
    record.outcome = "aborted"
    record.end_reason = reason
    record.ended_ms = change.now_ms
    change.emit({"type": "match_finished", "outcome": "aborted", "reason": reason})


def finished_message(record: MatchRecord, totals: list[int], places: list[int]) -> FinishedMatch:
    """The message for the ratings and the archive; its ``fairness`` is filled in at the
    commit, once the move log is complete (``with_fairness``)."""
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
        fairness={},
    )


def with_fairness(message: FinishedMatch, transcript: dict[str, Any]) -> FinishedMatch:
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


def _utc(ms: int | None) -> str:
    return format_utc(datetime.fromtimestamp((ms or 0) / 1000, UTC))
