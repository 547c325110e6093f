"""Play: read your seat's view, move, resign, follow the events, verify the deal."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView
from king_web.jsonbody import Blueprint

from king_engine import GameState
from king_game import render
from king_game.context import bearer_token, current_account, current_player, game
from king_game.follows import Revoked
from king_game.moves import submit_move
from king_game.problems import PUBLIC, Problem, problems
from king_game.resources import examples
from king_game.resources.matches.schemas import (
    EventsQuerySchema,
    EventsSchema,
    MatchSchema,
    MoveResultSchema,
    MoveSchema,
    MyMatchesSchema,
    ResignSchema,
    StreamQuerySchema,
    TranscriptSchema,
)
from king_match import MatchRecord
from king_match.follow import stream_lines
from king_match.mine import MyMatch, my_matches

blp = Blueprint("matches", __name__, url_prefix="/v1", description="Playing a match")

#: The codes a move can be refused with (their statuses come from ``king_game.errorcodes``).
MOVE_ERRORS = (
    "not_your_turn",
    "wrong_phase",
    "match_over",
    "match_not_started",
    "stale_version (current_version)",
    "seat_forfeited",
    "validation_failed",
    "illegal_card (details.rule)",
    "card_not_in_hand",
    "contract_unavailable (details.allowed)",
    "bad_move",
    "bad_card",
    "bad_suit",
    "unknown_contract",
    "trump_required",
    "trump_not_allowed",
    "idempotency_key_reused",
)

#: The ``Idempotency-Key`` request header, as the writes that take it document it (what
#: ``checked_idempotency_key`` accepts; HTTP drops a value's outer spaces).
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "description": "A key of your choice for this request (1-128 printable characters): a "
    "retry with the same key and request gets the first answer again and never applies "
    "twice; the same key with another request is 422 idempotency_key_reused.",
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": 128,
        "pattern": "^[!-~]([ -~]*[!-~])?$",
    },
    "example": "3f6c1e0a-move-41",
}


def _my_seat(record: MatchRecord, player_id: str) -> int:
    seat = record.seat_of(player_id)
    if seat is None:
        raise Problem("not_seated", "you do not sit at this match: only its players may read it")
    return seat


def _idempotency_key() -> str | None:
    return checked_idempotency_key(request.headers.get("Idempotency-Key"))


def checked_idempotency_key(key: str | None) -> str | None:
    """The ``Idempotency-Key`` header's value, or 422 ``validation_failed`` if malformed."""
    if key is None:
        return None
    if not 1 <= len(key) <= 128 or not key.isprintable():
        raise Problem(
            "validation_failed",
            "Idempotency-Key must be 1-128 printable characters",
            errors={"Idempotency-Key": ["must be 1-128 printable characters"]},
        )
    return key


@blp.route("/matches/<match_id>", parameters=examples.MATCH_PATH)
class MatchView(MethodView):
    @blp.response(200, MatchSchema, example=examples.MATCH)
    @blp.alt_response(304, description="Not modified (If-None-Match matched the ETag)")
    @problems(blp, "unauthenticated", "not_seated", "not_found")
    def get(self, match_id: str) -> Any:
        """The match as your seat sees it: your cards, the table, scores, whose turn, your
        legal cards or allowed contracts, and the clocks with the server's time.

        Send the ``ETag`` back as ``If-None-Match``: an unchanged match answers 304.
        """
        account = current_account()
        context = game()
        record, state = context.store.load(match_id)
        seat = _my_seat(record, account.id)
        etag = f'"{record.match_id}-{record.version}-{seat}"'
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=304, headers={"ETag": etag})
        body = render.match(
            record, state, seat, context.settings.match.clocks, context.store.now_ms()
        )
        return body, 200, {"ETag": etag, "Cache-Control": "private, no-cache"}


@blp.route("/matches/<match_id>/moves", parameters=examples.MATCH_PATH)
class MovesView(MethodView):
    # A player's moves are counted by the match store itself (``GAME_RATE_MOVES``), in the
    # same Redis round trip that loads the match, instead of by Flask-Limiter (which costs a
    # round trip and a sixth of the service's CPU at full load; see docs/benchmarks-api.md):
    # the limiter skips them (``king_game.limits``). Moves without a valid token it limits.

    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(MoveSchema(), example={"card": "QH", "version": 41})
    @blp.response(200, MoveResultSchema, example=examples.MOVED)
    @problems(blp, "unauthenticated", "not_seated", "not_found", *MOVE_ERRORS, "rate_limited")
    def post(self, body: dict[str, Any], match_id: str) -> dict[str, Any]:
        """Choose a contract (with trump for Koz) or play a card.

        Send the ``version`` you saw (another version answers 409 ``stale_version`` with the
        current one) and an ``Idempotency-Key`` header: a retried request with the same key
        gets the first answer and never applies twice. The answer lists the public events the
        move caused; read the match again (or follow the events) for your new view.
        """
        key = _idempotency_key()
        return submit_move(game(), match_id, current_player(), body, key)


@blp.route("/matches/<match_id>/resign", parameters=examples.MATCH_PATH)
class ResignView(MethodView):
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(ResignSchema, required=False, example={"version": 41})
    @blp.response(200, MoveResultSchema, example=examples.RESIGNED)
    @problems(
        blp,
        "unauthenticated",
        "not_seated",
        "not_found",
        "match_over",
        "match_not_started",
        "stale_version",
        "seat_forfeited",
        "validation_failed",
        "idempotency_key_reused",
    )
    def post(self, body: dict[str, Any], match_id: str) -> dict[str, Any]:
        """Resign. Live: you are ranked last and a bot finishes your seat. Against the
        computer: the match ends (aborted)."""
        result = game().store.resign(
            match_id,
            current_player(),
            expected_version=body["version"],
            idempotency_key=_idempotency_key(),
        )
        return result.to_dict()


@blp.route("/matches/<match_id>/events", parameters=examples.MATCH_PATH)
class EventsView(MethodView):
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(200, EventsSchema, example=examples.EVENTS)
    @problems(blp, "unauthenticated", "not_found")
    def get(self, query: dict[str, Any], match_id: str) -> dict[str, Any]:
        """Long-poll: the public events after ``after``, waiting up to ``wait`` seconds (at
        most 25) for the first one. Events never carry a seat's cards. Revoking the token
        ends the wait at once (401)."""
        current_account()
        context = game()
        store = context.store
        record, _ = store.load(match_id)
        after = query["after"]
        wait_ms = int(min(query["wait"], context.settings.longpoll_max_s) * 1000)
        if record.ended and after >= record.seq:
            wait_ms = 0
        if wait_ms <= 0:
            return _page(store.events(record.match_id, after), after)
        token = bearer_token()
        assert token is not None  # (current_account checked it)
        try:
            events = context.follows.call(
                token, lambda: store.events(record.match_id, after, block_ms=wait_ms)
            )
        except Revoked:
            raise _revoked() from None
        return _page(events, after)


def _revoked() -> Problem:
    return Problem(
        "unauthenticated",
        "the token was revoked",
        headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
    )


def _page(events: list[dict[str, Any]], after: int) -> dict[str, Any]:
    return {
        "events": events,
        "last_seq": events[-1]["seq"] if events else after,
        "reset": bool(events) and events[0]["seq"] > after + 1,
        "finished": any(e["type"] == "match_finished" for e in events),
    }


@blp.route("/matches/<match_id>/stream", parameters=examples.MATCH_PATH)
class StreamView(MethodView):
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.response(
        200,
        {"type": "string", "description": "NDJSON: one JSON object a line"},
        content_type="application/x-ndjson",
        example=examples.STREAM,
    )
    @problems(blp, "unauthenticated", "not_found")
    def get(self, query: dict[str, Any], match_id: str) -> Response:
        """Stream the events as NDJSON, one JSON object a line, from ``after`` on.

        A ``heartbeat`` line comes when nothing happened for a while; the stream ends after
        the ``match_finished`` event. To resume, reconnect with ``after`` = the last ``seq``
        you read. A ``reset`` line means older events were trimmed: re-read the match view.

        With ``turns=true`` a player also gets, whenever it becomes their turn, a line
        ``{"type": "your_turn", "version": …, "match": …}`` whose ``match`` is exactly what
        ``GET /v1/matches/{id}`` would answer then (their cards, legal cards or allowed
        contracts, clocks): a client can play from the stream alone. It is private to the
        connection (it never enters the shared log) and is sent once per version.

        Revoking the token ends the stream at once, without another line.
        """
        account = current_account()
        token = bearer_token()
        assert token is not None  # (current_account checked it)
        context = game()
        store, settings = context.store, context.settings
        record, _ = store.load(match_id)

        def render_turn(current: MatchRecord, state: GameState | None, seat: int) -> dict[str, Any]:
            return render.match(current, state, seat, settings.match.clocks, store.now_ms())

        lines = stream_lines(
            store,
            record.match_id,
            query["after"],
            seat=record.seat_of(account.id) if query["turns"] else None,
            render_turn=render_turn,
            heartbeat_s=settings.stream_heartbeat_s,
            max_s=settings.stream_max_s,
        )
        return Response(
            context.follows.stream(token, lines),
            mimetype="application/x-ndjson",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


@blp.route("/matches/<match_id>/fairness", parameters=examples.MATCH_PATH)
class FairnessView(MethodView):
    @blp.doc(**PUBLIC)
    @blp.response(200, TranscriptSchema, example=examples.TRANSCRIPT)
    @problems(blp, "not_found", "match_not_over: seeds are revealed at the end")
    def get(self, match_id: str) -> dict[str, Any]:
        """The KINGDEAL-v1 transcript of an ended (finished or aborted) match: the server
        seed, every client seed, and every hand's contract and plays in order. Public."""
        return game().store.transcript(match_id)


@blp.route("/me/matches")
class MyMatchesView(MethodView):
    @blp.response(200, MyMatchesSchema, example=examples.MY_MATCHES)
    @problems(blp, "unauthenticated")
    def get(self) -> dict[str, Any]:
        """Your active matches (where it is your turn first, then the nearest deadline) and
        your recent ones: the entry point of a client that reconnects."""
        account = current_account()
        active, recent = my_matches(game().store, account.id)
        return {"active": [_mine(row) for row in active], "recent": [_mine(row) for row in recent]}


def _mine(row: MyMatch) -> dict[str, Any]:
    record = row.record
    body = render.table(record)
    body.update(
        seat=row.seat, my_turn=row.my_turn, deadline_ms=record.deadline_ms, outcome=record.outcome
    )
    return body
