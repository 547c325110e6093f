"""An in-memory stand-in for the game API (its paths and shapes), on the real rules engine.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, request

from king_engine import (
    CONTRACTS,
    BadInput,
    IllegalMove,
    MatchState,
    format_card,
    match_winners,
    move_of_action,
    new_match,
    parse_move,
    placements,
    view_for,
)
from king_engine import deal as kingdeal
from king_engine.match import new_match_on_deals_for_tests
from king_engine.moves import ChooseContract, PlayCard
from king_match.served import SERVED_RULESETS

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
    #: The public events, numbered as the service numbers them (``seq``, and ``v`` the version
    #: after the change), served by the long-poll.
    events: list[dict[str, Any]] = field(default_factory=list)
    #: As the service does, the long-poll serves the log from the write that ended the last
    #: hand on: a reader further behind gets ``reset``.
    log_start: int = 1
    deadline_ms: int = 0
    #: A test sets it: the human forfeited and the computer plays seat 0 (as after a live
    #: player's takeover), while the engine may still name seat 0 as the mover.
    forfeited: bool = False
    #: The ruleset's options as the table was created with them (traditional's).
    options: dict[str, Any] = field(default_factory=dict)
    #: Every move in order, for a transcript rebuilt as the service rebuilds it (every deal,
    #: thrown ones included, with the calls).
    moves: list[tuple[int, Any]] = field(default_factory=list)
    #: Deals chosen by a test instead of KINGDEAL's (``new_match_on_deals_for_tests``): called
    #: with the match key and the deal number, so a test may keep KINGDEAL's for some deals.
    deals: Callable[[bytes, int], list[int]] | None = None

    def new_state(self, key: bytes) -> MatchState:
        deals = self.deals
        if deals is not None:
            return new_match_on_deals_for_tests(
                self.ruleset, self.hands, lambda d: deals(key, d), self.options
            )
        return new_match(self.ruleset, self.hands, key, self.options)

    @property
    def commit(self) -> str:
        return kingdeal.server_commit(self.match_id, self.server_seed)


class StubGame:
    """The matches, guarded by one lock (the test server is threaded)."""

    def __init__(self, seed: int = 1, move_ms: int = MOVE_MS, reserve_ms: int = 0) -> None:
        self.move_ms = move_ms
        self.reserve_ms = reserve_ms
        self.lock = threading.Lock()
        self.matches: dict[str, StubMatch] = {}
        self.tokens: dict[str, str] = {}
        self.rng = random.Random(seed)
        #: A test sets them: the bots make the first of these moves that is legal (else a
        #: random one), and the next tables are dealt by ``deals`` instead of KINGDEAL.
        self.prefer: list[str] = []
        self.deals: Callable[[bytes, int], list[int]] | None = None

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

        @bp.post("/accounts")
        def accounts() -> Any:
            token = secrets.token_hex(16)
            player_id = str(uuid.uuid4())
            self.tokens[token] = player_id
            name = (request.get_json(silent=True) or {}).get("name") or "Misafir"
            account = {"id": player_id, "name": name, "is_guest": True, "is_bot": False}
            return {"token": token, "account": account}, 201

        @bp.get("/rules")
        def rules() -> Any:
            # The parts of the service's answer the client reads: the forms' rulesets, lengths,
            # modes and levels, and the table's contract totals and quotas.
            contracts = [{"code": spec.code, "turkish": spec.turkish, "total": spec.total,
                          "penalty": spec.is_penalty} for spec in CONTRACTS]  # fmt: skip
            rulesets = [
                {"name": name, "hands": list(rs.lengths),
                 "options": rs.describe()["options"],
                 "quotas": {str(n): rs.describe_quotas(n) for n in rs.lengths}}
                for name, rs in SERVED_RULESETS.items()
            ]  # fmt: skip
            modes = [{"mode": "live"}, {"mode": "computer"}]
            return {
                "contracts": contracts,
                "rulesets": rulesets,
                "modes": modes,
                "bot_levels": ["easy", "medium", "hard"],
            }

        @bp.get("/tables")
        def tables() -> Any:
            return {"tables": []}

        @bp.get("/me/matches")
        def my_matches() -> Any:
            return {"active": [], "recent": []}

        @bp.post("/tables")
        def create() -> Any:
            body = request.get_json()
            if body.get("mode") != "computer":
                return problem(422, "validation_failed", "the stand-in has computer tables only")
            match = StubMatch(
                str(uuid.uuid4()),
                body["ruleset"],
                int(body["hands"]),
                body.get("level", "easy"),
                secrets.token_bytes(32),
                options=dict(body.get("options") or {}),
                deals=self.deals,
            )
            match.owner = player()
            if "client_seed" in body or body.get("sit"):  # the creator sits later, with its seed
                return problem(422, "seed_before_commit", "sit through /seats with your seed")
            with self.lock:
                self.matches[match.match_id] = match
                return self._table(match), 201

        @bp.post("/tables/<match_id>/seats")
        def seats(match_id: str) -> Any:
            with self.lock:
                match = self.matches[match_id]
            if player() != match.owner or match.state is not None:
                return problem(403, "forbidden", "a computer table has one human seat")
            try:
                seed = kingdeal.parse_seed(request.get_json().get("client_seed"))
            except BadInput as error:
                return problem(422, error.code, error.message)
            return {"seat": 0, "table": self._start(match, seed)}, 201

        @bp.get("/matches/<match_id>")
        def view(match_id: str) -> Any:
            with self.lock:
                match = self.matches[match_id]
                if player() != match.owner:
                    return problem(403, "not_seated", "you do not sit at this match")
                return self._match(match)

        @bp.post("/matches/<match_id>/moves")
        def move(match_id: str) -> Any:
            with self.lock:
                match = self.matches[match_id]
                state = match.state
                assert state is not None
                body = request.get_json()
                if body.get("version") not in (None, state.version):
                    return problem(409, "stale_version", "re-read the match")
                first = len(match.events)
                try:
                    self._apply(match, 0, parse_move(body["move"]))
                except IllegalMove as error:
                    status = 422 if error.code in ("illegal_card", "contract_unavailable") else 409
                    return problem(status, error.code, error.message, **error.details)
                except BadInput as error:
                    return problem(422, error.code, error.message)
                mine = match.events[first:]
                version = state.version
                self._bots(match)
                return {"match_id": match_id, "version": version, "seat": 0,
                        "move": body["move"], "events": mine}  # fmt: skip

        @bp.get("/matches/<match_id>/events")
        def events(match_id: str) -> Any:
            # Newer events at once, else wait up to a second for one.
            after = request.args.get("after", 0, type=int)
            match = self.matches[match_id]
            for _ in range(20):
                with self.lock:
                    start = max(after, match.log_start - 1)
                    events = [dict(e) for e in match.events[start:]]
                if events:
                    break
                time.sleep(0.05)
            return {
                "events": events,
                "last_seq": events[-1]["seq"] if events else after,
                "reset": bool(events) and events[0]["seq"] > after + 1,
                "finished": any(e["type"] == "match_finished" for e in events),
            }

        @bp.get("/matches/<match_id>/fairness")
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
        first = len(match.events) + 1
        match.moves.append((seat, move))
        for event in state.apply(seat, move):
            self._event(match, event)
            if event["type"] == "hand_started":
                match.log_start = first
        if state.is_over:
            totals = list(state.totals)
            self._event(match, {"type": "match_finished", "outcome": "finished",
                                "reason": "played_out", "totals": totals,
                                "places": placements(totals, []),
                                "winners": match_winners(totals, []), "forfeits": [],
                                **self._result(state)})  # fmt: skip
        if not match.log or match.log[-1]["hand"] != hand:
            match.log.append({"hand": hand, "declarer": declarer,
                              "contract": None, "trump": None, "plays": []})  # fmt: skip
        entry = match.log[-1]
        if isinstance(move, ChooseContract):
            entry["contract"] = CONTRACTS[move.contract].code
            entry["trump"] = "CDHS"[move.trump] if move.trump >= 0 else None
        elif isinstance(move, PlayCard):
            entry["plays"].append([seat, format_card(move.card)])

    def _event(self, match: StubMatch, event: dict[str, Any]) -> None:
        assert match.state is not None
        match.events.append({**event, "seq": len(match.events) + 1, "v": match.state.version})

    def _bots(self, match: StubMatch) -> None:
        state = match.state
        assert state is not None
        while not state.is_over and state.current_player != 0:
            moves = [move_of_action(a) for a in state.legal_actions()]
            preferred = [m for text in self.prefer for m in moves if str(m) == text]
            move = preferred[0] if preferred else self.rng.choice(moves)
            self._apply(match, state.current_player, move)
        match.deadline_ms = int(time.time() * 1000) + self.move_ms

    def _start(self, match: StubMatch, seed: bytes) -> dict[str, Any]:
        match.seeds = [seed, kingdeal.BOT_SEED, kingdeal.BOT_SEED, kingdeal.BOT_SEED]
        key = kingdeal.match_key(match.match_id, match.server_seed, match.seeds)
        match.state = match.new_state(key)
        with self.lock:
            self.matches[match.match_id] = match
            self._bots(match)
            return self._table(match)

    def _table(self, match: StubMatch) -> dict[str, Any]:
        over = match.state is not None and match.state.is_over
        return {
            "id": match.match_id,
            "match_id": match.match_id,
            "mode": "computer",
            "ranked": False,
            "ruleset": match.ruleset,
            "hands": match.hands,
            "level": match.level,
            "status": "finished" if over else ("active" if match.state else "waiting"),
            "version": match.state.version if match.state else 0,
            "server_commit": match.commit,
            "seats": [
                {
                    "seat": 0,
                    "name": "Misafir",
                    "is_bot": False,
                    "automated": match.forfeited,
                    "played_by": "computer_after_forfeit" if match.forfeited else "player",
                    "forfeited": match.forfeited,
                }
            ]
            + [
                {
                    "seat": s,
                    "name": f"Bot {s}",
                    "is_bot": True,
                    "automated": True,
                    "played_by": "computer",
                }
                for s in (1, 2, 3)
            ],
            "free_seats": [],
        }

    def _match(self, match: StubMatch) -> dict[str, Any]:
        state = match.state
        assert state is not None
        now = int(time.time() * 1000)
        body = self._table(match)
        view = view_for(state, 0).to_dict()
        view.pop("version", None)
        my_turn = state.current_player == 0 and not match.forfeited
        if not my_turn:
            view["legal_cards"], view["allowed_contracts"] = [], []
        forfeits = [0] if match.forfeited else []
        body.update(
            seat=0,
            played_by="computer_after_forfeit" if match.forfeited else "player",
            view=view,
            my_turn=my_turn,
            forfeits=forfeits,
            clock={
                "server_time_ms": now,
                "turn": state.current_player,
                "turn_started_ms": match.deadline_ms - self.move_ms,
                "deadline_ms": match.deadline_ms + self.reserve_ms,
                "move_ms": self.move_ms,
                "reserve_ms": self._reserves(state.current_player, match.deadline_ms, now),
            },
        )
        if state.is_over:
            body["places"] = placements(list(state.totals), forfeits)
            body["winners"] = match_winners(list(state.totals), forfeits)
            body.update(self._result(state, forfeits))
        return body

    @staticmethod
    def _result(state: MatchState, forfeits: list[int] | None = None) -> dict[str, Any]:
        """A ruleset with outcome labels (traditional): the result's end, King seat, çıkar /
        batar, places and winners, as the service's ``standing`` sends them."""
        if state.ruleset.outcome_labels is None:
            return {}
        result = state.result(forfeits or [])
        return {"end_reason": result["end_reason"], "king_seat": result["king_seat"],
                "seat_outcomes": result["outcome"], "places": result["places"],
                "winners": result["winners"]}  # fmt: skip

    def _reserves(self, turn: int | None, move_end_ms: int, now: int) -> list[int]:
        """Every seat's reserve, the mover's charged with its time past the move clock."""
        reserves = [self.reserve_ms] * 4
        if turn is not None and self.reserve_ms:
            reserves[turn] = max(0, self.reserve_ms - max(0, now - move_end_ms))
        return reserves

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
            "options": match.options,
            "hands": self._deals(match)
            if match.options or match.ruleset == "traditional"
            else [dict(entry) for entry in match.log],
        }

    def _deals(self, match: StubMatch) -> list[dict[str, Any]]:
        """Every deal with its moves, as the service's transcript lists them
        (king_match/fairness.py): thrown deals with how they ended, calls beside the plays."""
        key = kingdeal.match_key(match.match_id, match.server_seed, match.seeds)
        state = match.new_state(key)
        entries: list[dict[str, Any]] = []
        for seat, move in match.moves:
            if not entries or entries[-1]["deal"] != state.deal_no:
                entries.append({"hand": state.hand_index, "deal": state.deal_no,
                                "declarer": state.declarer, "plays": [],
                                **_contract_in_force(state)})  # fmt: skip
            entry = entries[-1]
            if isinstance(move, ChooseContract):
                entry["contract"] = CONTRACTS[move.contract].code
                entry["trump"] = "CDHS"[move.trump] if move.trump >= 0 else None
            elif isinstance(move, PlayCard):
                entry["plays"].append([seat, format_card(move.card)])
            else:
                entry.setdefault("calls", []).append([seat, str(move)])
            state.apply(seat, move)
        ends = {deal.deal: deal for deal in state.deals}
        for entry in entries:
            deal = ends.get(entry["deal"])
            entry["ended"] = deal.ended if deal else None
            if deal is not None and deal.ended != "played":
                entry["asked_by"], entry["reason"] = deal.asked_by, deal.reason
        return entries


def _contract_in_force(state: Any) -> dict[str, Any]:
    """As the service's transcript: a replayed Kız deal keeps its contract (no move chooses it)."""
    if state.contract < 0:
        return {"contract": None, "trump": None}
    trump = "CDHS"[state.trump] if state.trump >= 0 else None
    return {"contract": CONTRACTS[state.contract].code, "trump": trump}


def stub_app(web_blueprint: Blueprint, seed: int = 1, **clocks: int) -> tuple[Flask, StubGame]:
    app = Flask("king_web_stub")
    game = StubGame(seed, **clocks)
    app.register_blueprint(game.blueprint())
    app.register_blueprint(web_blueprint)
    return app, game
