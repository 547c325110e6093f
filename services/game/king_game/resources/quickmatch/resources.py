"""Quick match: join a pool, see a table found (seat and commitment), confirm with your seed.

The pairing itself is ``king_match.quickmatch`` (one Lua pass per pool, atomic). Passes run
inside the requests of the waiting players: every ``GET`` and every tick of the stream (about
once a second) marks the caller as still there and runs one pass over their pool, so the pool
moves as long as anyone in it is connected, whichever copy of the service they reach.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import orjson
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from king_metrics import record_quickmatch_table

from king_engine.errors import ConfigError
from king_game.context import GameContext, bearer_token, current_account, current_player, game
from king_game.problems import Problem, problems
from king_game.ratings import DEFAULT_RATING
from king_game.resources import examples
from king_game.resources.quickmatch.schemas import (
    QuickConfirmSchema,
    QuickJoinSchema,
    QuickStatusSchema,
)
from king_match import MatchError
from king_match.quickmatch import PassResult, QuickMatch, pool_name
from king_match.served import served_ruleset

blp = Blueprint(
    "quickmatch", __name__, url_prefix="/v1", description="Quick match: paired by rating"
)

#: States after which a stream has nothing more to say.
_FINAL = frozenset({"idle", "matched", "missed", "dropped", "left"})


def _quick(context: GameContext) -> QuickMatch:
    assert context.quick is not None
    return context.quick


def _run_pass(context: GameContext, pool: str, force: bool) -> PassResult:
    ruleset, hands, kind = pool.split(":")
    quick = _quick(context)
    result = quick.pass_pool(pool, ruleset, int(hands), ranked=kind == "rated", force=force)
    for made in result.made:
        now = quick.now_ms()
        waits = [(now - joined) / 1000 for joined in made.joined_ms]
        record_quickmatch_table(pool, waits, made.spread)
    return result


def _status(
    context: GameContext, player_id: str, *, pairing: bool = True, joined: bool = False
) -> dict[str, Any]:
    """The caller's quick-match state; while they wait, this also runs a pass of their pool
    (and settles due tables), so the answer already says when a table was found. A pass runs
    at most every ``min_pass_ms`` per pool, except right after a join (``joined``)."""
    quick = _quick(context)
    state = quick.status(player_id)
    if pairing:
        if state.get("state") == "waiting":
            result = _run_pass(context, state["pool"], force=joined)
            if player_id in result.dropped or any(player_id in m.players for m in result.made):
                state = quick.status(player_id)
        elif quick.settle_due():
            state = quick.status(player_id)
    return _render(context, state)


def _in_live_match(context: GameContext, player_id: str) -> bool:
    """True while the player has a live match in progress at a seat they still play."""
    active, _ = context.store.player_matches(player_id)
    for record in active:
        seat = record.seat_of(player_id)
        if record.mode != "live" or record.status != "active" or seat is None:
            continue
        if not record.seat(seat).forfeited:
            return True
    return False


def _render(context: GameContext, state: dict[str, str]) -> dict[str, Any]:
    quick = _quick(context)
    now = quick.now_ms()
    name = state.get("state", "idle")
    out: dict[str, Any] = {"state": name, "server_time_ms": now}
    if "pool" in state:
        ruleset, hands, kind = state["pool"].split(":")
        out.update(ruleset=ruleset, hands=int(hands), guest=kind == "guest")
    if "rating" in state:
        out["rating"] = int(state["rating"])
    if name == "waiting":
        joined = int(state["joined"])
        out.update(
            joined_ms=joined,
            waited_ms=max(0, now - joined),
            window=round(quick.settings.window.at(now - joined)),
            waiting=quick.pool_sizes().get(state["pool"], 0),
        )
    elif name == "found":
        seat = int(state["seat"])
        out.update(
            table_id=state["table"],
            seat=seat,
            server_commit=state["commit"],
            confirm_by_ms=int(state["deadline"]),
        )
        try:
            record, _ = context.store.load(state["table"])
        except MatchError:
            out.update(confirmed=False, confirmed_seats=0)
        else:
            out.update(
                confirmed=record.seats[seat] is not None,
                confirmed_seats=4 - len(record.free_seats()),
            )
    elif name == "matched":
        out["match_id"] = state["match"]
    return out


@blp.route("/quickmatch")
class QuickMatchView(MethodView):
    @blp.arguments(QuickJoinSchema, required=False, example={"ruleset": "standard", "hands": 8})
    @blp.response(200, QuickStatusSchema, example=examples.QUICK_WAITING)
    @problems(
        blp,
        "unauthenticated",
        "forbidden: bot accounts create tables instead",
        "already_queued (another pool)",
        "table_found (confirm or leave)",
        "already_playing",
        "validation_failed",
        "bad_table (a length the ruleset does not play)",
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Join the quick-match pool of a ruleset and match length (again: a no-op).

        You are paired with three players whose ratings are within your window (±100 at
        first, widening with your waiting time) and who accept yours. Keep ``GET`` (every
        few seconds) or the stream open while you wait: a client that stops answering is
        dropped. No seed now: it comes with the confirmation, once you saw the table's
        commitment. Guests are paired only with guests, unranked.
        """
        account = current_account()
        if account.is_bot:
            raise Problem("forbidden", "quick match pairs people; a bot creates or joins tables")
        try:
            served_ruleset(body["ruleset"]).check_length(body["hands"])
        except ConfigError as exc:
            raise MatchError("bad_table", exc.message, field="hands") from exc
        context = game()
        if _in_live_match(context, account.id):
            raise MatchError(
                "already_playing", "finish (or resign) your live match before the next one"
            )
        if account.is_guest:
            rating = DEFAULT_RATING
        else:
            assert context.ratings is not None
            rating = context.ratings.rating_of(account.id, body["ruleset"])
        pool = pool_name(body["ruleset"], body["hands"], guest=account.is_guest)
        _quick(context).join(account.id, pool, rating)
        return _status(context, account.id, joined=True)

    @blp.response(200, QuickStatusSchema, example=examples.QUICK_FOUND)
    @problems(blp, "unauthenticated")
    def get(self) -> dict[str, Any]:
        """Your quick-match state; while you wait, asking keeps your place (see POST)."""
        return _status(game(), current_account().id)

    @blp.response(
        200, QuickStatusSchema, example={"state": "left", "server_time_ms": 1796168345000}
    )
    @problems(blp, "unauthenticated")
    def delete(self) -> dict[str, Any]:
        """Leave the pool, or decline a found table (its other players go back to the pool
        at once, with their place). A started match is left by resigning."""
        context = game()
        account = current_account()
        _quick(context).leave(account.id)
        return _status(context, account.id, pairing=False)


@blp.route("/quickmatch/confirm")
class ConfirmView(MethodView):
    @blp.arguments(QuickConfirmSchema, required=False, example={"client_seed": "ab" * 32})
    @blp.response(200, QuickStatusSchema, example=examples.QUICK_MATCHED)
    @problems(
        blp, "unauthenticated", "no_table_found", "table_expired", "validation_failed", "bad_seed"
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Take your seat at the found table with your client seed (made after you saw its
        ``server_commit``). The fourth confirmation starts the match (``state: matched``)."""
        context = game()
        player = current_player()
        state, _ = _quick(context).confirm(player, body["client_seed"])
        return _render(context, state)


@blp.route("/quickmatch/stream")
class QuickStreamView(MethodView):
    @blp.response(
        200,
        {"type": "string", "description": "NDJSON: one quick-match state a line"},
        content_type="application/x-ndjson",
        example=examples.QUICK_STREAM,
    )
    @problems(blp, "unauthenticated")
    def get(self) -> Response:
        """Your quick-match state as NDJSON: a line at once and one whenever it changes (a
        table found, your confirmation, the match started, back in the pool); a
        ``heartbeat`` line after a quiet while. Open, it keeps your place like ``GET``; it
        ends once you are matched, missed or dropped your table, or left; revoking the token
        ends it at once."""
        context = game()
        player_id = current_account().id
        token = bearer_token()
        assert token is not None  # (current_account checked it)
        settings = context.settings

        def lines() -> Iterator[bytes]:
            started = time.monotonic()
            last: tuple[Any, ...] = ()
            quiet_since = time.monotonic()
            while time.monotonic() - started < settings.stream_max_s:
                status = _status(context, player_id)
                key = tuple(
                    status.get(k)
                    for k in ("state", "table_id", "confirmed", "confirmed_seats", "window")
                )
                if key != last:
                    last = key
                    quiet_since = time.monotonic()
                    yield orjson.dumps(status) + b"\n"
                elif time.monotonic() - quiet_since >= settings.stream_heartbeat_s:
                    quiet_since = time.monotonic()
                    heartbeat = {"type": "heartbeat", "server_time_ms": status["server_time_ms"]}
                    yield orjson.dumps(heartbeat) + b"\n"
                if status["state"] in _FINAL:
                    return
                time.sleep(settings.quickmatch_tick_s)

        return Response(
            context.follows.stream(token, lines()),
            mimetype="application/x-ndjson",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
