"""RQ glue of the bots: the job that plays one bot turn.

``play_turn(match_id, seat, version, level)`` is enqueued by the match layer (queue ``bots``,
JSON keyword arguments, job id ``bot-<match>-<version>``) whenever a seat played by our bots is
to move. The job re-reads the seat's view through ``king_match`` (it sees exactly what that
seat may see), asks ``king_bots.policies.decide`` for a move and submits it through the same
checked writer path as a human's move, naming the version it decided on. If the match moved
on meanwhile (a duplicate job, a late job after the clock sweeper moved for the bot) the job
does nothing.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from king_metrics import observe_bot_decision, record_match_finished, record_move
from redis import Redis

from king_bots.policies import decide
from king_bots.policies.own import decide_own
from king_engine import PHASE_REDEAL_OFFER, Call, KingError, Move, PlayCard, SeatView
from king_match import MatchError, MatchSettings, MatchStore, connect
from king_match.rq_enqueuer import RQEnqueuer

log = logging.getLogger(__name__)

_store: MatchStore | None = None
_lock = threading.Lock()


def get_store() -> MatchStore:
    """The process-wide match store, built from the environment on first use."""
    global _store
    with _lock:
        if _store is None:
            settings = MatchSettings.from_env()
            # Matches on the match Redis; the next bot turn and the finished-match message go
            # to the queue Redis (the same server unless QUEUE_REDIS_URL names another).
            redis = connect(settings)
            queues = Redis.from_url(settings.queue_url) if settings.separate_queues else redis
            _store = MatchStore(
                redis, settings, RQEnqueuer(queues), on_finished=record_match_finished
            )
        return _store


def set_store(store: MatchStore | None) -> None:
    """Use ``store`` for the jobs of this process (tests, the worker command)."""
    global _store
    with _lock:
        _store = store


def bot_seed(match_id: str, version: int, seat: int) -> int:
    """The policy's seed: fixed by the turn, so a repeated job decides the same move."""
    digest = hashlib.sha256(f"{match_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_turn(match_id: str, seat: int, version: int, level: str) -> dict[str, Any]:
    """The job: play the bot's move at ``version``; a stale turn is dropped."""
    job_started = time.monotonic()
    store = get_store()
    try:
        record, view = store.seat_view(match_id, seat)
    except MatchError as exc:
        return {"status": "dropped", "reason": exc.code}
    my_turn = bool(view.get("legal_moves")) if isinstance(view, dict) else view.my_turn
    if record.version != version or record.ended or not my_turn:
        return {"status": "stale", "version": record.version}
    if not record.seat(seat).automated:
        return {"status": "dropped", "reason": "not_bot_seat"}
    seed = bot_seed(match_id, version, seat)
    if isinstance(view, dict):
        return _play_own(store, match_id, seat, version, level, view, seed)
    started = time.perf_counter()
    try:
        move = decide(view, level, seed)
        observe_bot_decision(level, time.perf_counter() - started)
    except Exception:
        # A policy bug must not stall the table: play a random legal move instead.
        log.exception(
            "bot policy %s failed in match %s; playing a random legal move", level, match_id
        )
        move = _random_legal(view, seed)
    hold_answer(view, job_started, store.settings.clocks.bot_call_answer_ms / 1000)
    try:
        result = store.play(match_id, None, move, seat=seat, expected_version=version)
    except MatchError as exc:
        # (Before KingError, which it is.) stale_version: a human, the sweeper or a duplicate
        # job got there first.
        return {"status": "stale" if exc.code == "stale_version" else "dropped", "reason": exc.code}
    except KingError:
        log.error("bot policy %s chose the illegal move %s in match %s", level, move, match_id)
        move = _random_legal(view, seed)
        try:
            result = store.play(match_id, None, move, seat=seat, expected_version=version)
        except MatchError as exc:
            return {"status": "dropped", "reason": exc.code}
    record_move("bot")
    return {"status": "played", "move": str(move), "version": result.version}


def _play_own(
    store: MatchStore,
    match_id: str,
    seat: int,
    version: int,
    level: str,
    view: dict[str, Any],
    seed: int,
) -> dict[str, Any]:
    """A bot turn in a ruleset with its own state class: its policy answers a move's text
    from the seat's JSON view."""
    started = time.perf_counter()
    try:
        text = decide_own(view, level, seed)
        observe_bot_decision(level, time.perf_counter() - started)
    except Exception:
        log.exception(
            "bot policy %s failed in match %s; playing a random legal move", level, match_id
        )
        text = random.Random(seed).choice(view["legal_moves"])
    try:
        result = store.play(match_id, None, text, seat=seat, expected_version=version)
    except MatchError as exc:
        return {"status": "stale" if exc.code == "stale_version" else "dropped", "reason": exc.code}
    except KingError:
        log.error("bot policy %s chose the illegal move %s in match %s", level, text, match_id)
        text = random.Random(seed).choice(view["legal_moves"])
        try:
            result = store.play(match_id, None, text, seat=seat, expected_version=version)
        except MatchError as exc:
            return {"status": "dropped", "reason": exc.code}
    record_move("bot")
    return {"status": "played", "move": text, "version": result.version}


def hold_answer(
    view: SeatView,
    started: float,
    hold_s: float,
    now: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """In a redeal round, wait until ``hold_s`` after ``started`` (the setting
    ``bot_call_answer_ms``: an answer's speed must not tell whether the bot's cards let it ask,
    RULES-traditional §8.2); other moves go at once."""
    if view.phase == PHASE_REDEAL_OFFER:
        sleep(max(0.0, hold_s - (now() - started)))


def _random_legal(view: SeatView, seed: int) -> Move:
    rng = random.Random(seed)
    if view.allowed_contracts:
        choice: Move = rng.choice(view.allowed_contracts)
        return choice
    moves: list[Move] = [PlayCard(card) for card in range(52) if view.legal_cards >> card & 1]
    moves += [Call(word) for word in view.calls]  # traditional's redeal round, announcement
    return rng.choice(moves)
