"""An in-memory stand-in for the game API, built on the real rules engine, for UI tests.

It answers the requests the client's ``api.js`` makes, with the engine's own seat views and a
real KINGDEAL-v1 deal, so the browser tests of the table, the score sheet, the standings and
"Verify deck" can run without Redis, Postgres or bot workers. Its three "bots" play random
legal moves at once. The end-to-end test against the real game service lives in
``test_full_match.py``; this module only pins the client's behaviour.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, request

from king_engine import (
    CONTRACTS,
    BadInput,
    IllegalMove,
    MatchState,
    format_card,
    move_of_action,
    new_match,
    parse_move,
    placements,
    view_for,
)
from king_engine import deal as kingdeal
from king_engine.moves import ChooseContract, PlayCard

MOVE_MS = 600_000


@dataclass
class StubMatch:
    match_id: str
    ruleset: str
    hands: int
    level: str
    server_seed: bytes
    seeds: list[bytes | None] = field(default_factory=lambda: [None] * 4)
    owner: str | None = None
    state: MatchState | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    deadline_ms: int = 0

    @property
    def commit(self) -> str:
        return kingdeal.server_commit(self.match_id, self.server_seed)


class StubGame:
    """The matches, guarded by one lock (the test server is threaded)."""

    def __init__(self, seed: int = 1) -> None:
        self.lock = threading.Lock()
        self.matches: dict[str, StubMatch] = {}
        self.tokens: dict[str, str] = {}
        self.rng = random.Random(seed)

    def blueprint(self) -> Blueprint:
        bp = Blueprint("stub_game", __name__, url_prefix="/v1")

        def problem(status: int, code: str, detail: str, **details: Any) -> Response:
            body = {"type": "about:blank", "title": code, "status": status, "code": code,
                    "detail": detail, "details": details}  # fmt: skip
            response = jsonify(body)
            response.status_code = status
            response.content_type = "application/problem+json"
            return response

        def player() -> str | None:
            header = request.headers.get("Authorization", "")
            return self.tokens.get(header.removeprefix("Bearer ").strip())

        @bp.post("/guests")
        def guests() -> Any:
            token = secrets.token_hex(16)
            player_id = f"guest-{secrets.token_hex(4)}"
            self.tokens[token] = player_id
            name = (request.get_json(silent=True) or {}).get("name") or "Misafir"
            return {"player_id": player_id, "token": token, "name": name, "guest": True}, 201

        @bp.get("/tables")
        def tables() -> Any:
            return {"items": []}

        @bp.post("/tables")
        def create() -> Any:
            body = request.get_json()
            match = StubMatch(str(uuid.uuid4()), body["ruleset"], int(body["hands"]),
                              body.get("level", "easy"), secrets.token_bytes(32))  # fmt: skip
            match.seeds[1:] = [kingdeal.BOT_SEED] * 3
            with self.lock:
                self.matches[match.match_id] = match
            return {
                "match_id": match.match_id,
                "server_commit": match.commit,
                "status": "waiting",
            }, 201

        @bp.post("/tables/<match_id>/seats")
        def seat(match_id: str) -> Any:
            who = player()
            with self.lock:
                match = self.matches[match_id]
                if match.owner not in (None, who):
                    return problem(409, "table_full", "the table is full")
                try:
                    match.seeds[0] = kingdeal.parse_seed(request.get_json()["client_seed"])
                except BadInput as error:
                    return problem(400, error.code, error.message)
                match.owner = who
                if match.state is None:
                    key = kingdeal.match_key(match.match_id, match.server_seed, match.seeds)
                    match.state = new_match(match.ruleset, match.hands, key)
                    match.log = []
                    self._bots(match)
            return {"match_id": match_id, "seat": 0}, 201

        @bp.get("/matches/<match_id>/view")
        def view(match_id: str) -> Any:
            with self.lock:
                match = self.matches[match_id]
                assert match.state is not None
                return self._view(match)

        @bp.post("/matches/<match_id>/moves")
        def move(match_id: str) -> Any:
            with self.lock:
                match = self.matches[match_id]
                state = match.state
                assert state is not None
                body = request.get_json()
                if body.get("expected_version") not in (None, state.version):
                    return problem(409, "stale_version", "re-read the match")
                try:
                    self._apply(match, 0, parse_move(body["move"]))
                except (IllegalMove, BadInput) as error:
                    return problem(422, error.code, error.message, **error.details)
                self._bots(match)
                return self._view(match)

        @bp.get("/matches/<match_id>/events")
        def events(match_id: str) -> Response:
            return Response(status=204)  # no stream: the client's poll follows the match

        @bp.get("/matches/<match_id>/transcript")
        def transcript(match_id: str) -> Any:
            match = self.matches[match_id]
            if match.state is None or not match.state.is_over:
                return problem(409, "match_not_over", "the seeds are revealed when it ends")
            return self.transcript(match)

        return bp

    # ------------------------------------------------------------------ internals

    def _apply(self, match: StubMatch, seat: int, move: Any) -> None:
        """Apply a move (raising the engine's error if refused) and log it for the transcript."""
        state = match.state
        assert state is not None
        hand, declarer = state.hand_index, state.declarer
        state.apply(seat, move)
        if not match.log or match.log[-1]["hand"] != hand:
            match.log.append({"hand": hand, "declarer": declarer,
                              "contract": None, "trump": None, "plays": []})  # fmt: skip
        entry = match.log[-1]
        if isinstance(move, ChooseContract):
            entry["contract"] = CONTRACTS[move.contract].code
            entry["trump"] = "CDHS"[move.trump] if move.trump >= 0 else None
        elif isinstance(move, PlayCard):
            entry["plays"].append([seat, format_card(move.card)])

    def _bots(self, match: StubMatch) -> None:
        state = match.state
        assert state is not None
        while not state.is_over and state.current_player != 0:
            action = self.rng.choice(list(state.legal_actions()))
            self._apply(match, state.current_player, move_of_action(action))
        match.deadline_ms = int(time.time() * 1000) + MOVE_MS

    def _view(self, match: StubMatch) -> dict[str, Any]:
        state = match.state
        assert state is not None
        totals = list(state.totals)
        over = state.is_over
        return {
            "match": {
                "match_id": match.match_id,
                "status": "finished" if over else "active",
                "server_commit": match.commit,
                "seats": [{"name": "Misafir", "is_bot": False}]
                + [{"name": f"Bot {s}", "is_bot": True, "level": match.level} for s in (1, 2, 3)],
                "places": placements(totals, []) if over else None,
            },
            "view": view_for(state, 0).to_dict(),
            "clock": {"deadline_ms": None if over else match.deadline_ms, "reserves_ms": None},
            "server_time_ms": int(time.time() * 1000),
        }

    def transcript(self, match: StubMatch) -> dict[str, Any]:
        return {
            "spec": kingdeal.SPEC,
            "match_id": match.match_id,
            "server_commit": match.commit,
            "server_seed": match.server_seed.hex(),
            "client_seeds": [seed.hex() if seed else None for seed in match.seeds],
            "seed_sources": ["client", "bot", "bot", "bot"],
            "ruleset": match.ruleset,
            "num_hands": match.hands,
            "hands": [dict(entry) for entry in match.log],
        }


def stub_app(web_blueprint: Blueprint, seed: int = 1) -> tuple[Flask, StubGame]:
    app = Flask("king_web_stub")
    game = StubGame(seed)
    app.register_blueprint(game.blueprint())
    app.register_blueprint(web_blueprint)
    return app, game
