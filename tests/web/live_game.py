"""The real game service for the lists and history browser tests, and a plain HTTP client of it.

``game_service`` runs the app factory on this run's Redis and Postgres (with the client's
blueprint), optionally with a real ``king_bots.worker`` process and the clock sweeper, on a
Redis database of its own: the bots' RQ queue is called ``bots`` everywhere, and a worker of
another test module must not take this one's jobs. ``Player`` speaks the HTTP API the way a
second device would; ``play_to_the_end`` plays its seat of a computer match by the first
allowed contract or legal card, keeping what a client stores for Verify deck.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .servers import LiveServer, load_web_blueprint


def private_redis_db(url: str, db: int) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))


@contextmanager
def game_service(redis_url: str, database_url: str, *, db: int, bots: bool) -> Iterator[LiveServer]:
    from king_game.app import create_app
    from king_game.config import Settings
    from king_game.migrate import migrate
    from king_match import MatchSettings, Sweeper

    migrate(database_url)
    env = {
        "REDIS_URL": private_redis_db(redis_url, db),
        "DATABASE_URL": database_url,
        "KING_KEY_PREFIX": f"wl{uuid.uuid4().hex[:8]}:",
        "KING_COMPUTER_MOVE_MS": "600000",
        # A bot's redeal-round answer waits 400 ms in production; no browser test is about it.
        "KING_BOT_CALL_ANSWER_MS": "20",
    }
    settings = Settings(
        database_url=database_url,
        match=MatchSettings.from_env(env),
        rate_limits_enabled=False,
        longpoll_max_s=5,
    )
    app = create_app(settings)
    if "web" not in app.blueprints:  # until the factory registers the client itself
        app.register_blueprint(load_web_blueprint())
    worker = sweeper = thread = None
    if bots:
        worker = subprocess.Popen(
            [sys.executable, "-m", "king_bots.worker"],
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        sweeper = Sweeper(app.extensions["king_game"].store, interval_s=0.2)
        thread = sweeper.start_thread()
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()
        notifier = getattr(app.extensions["king_game"].store, "notifier", None)
        if notifier is not None:  # its Pub/Sub thread would outlive the test Redis
            notifier.stop()
        if sweeper is not None and thread is not None:
            sweeper.stop()
            thread.join(timeout=5)
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Idempotency-Key", uuid.uuid4().hex)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=15) as answer:
        text = answer.read()
        return json.loads(text) if text else None


@dataclass
class Player:
    """A guest on the HTTP API, as another device (or this test) would be."""

    base: str
    name: str
    token: str = ""
    player_id: str = ""
    records: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        session = call(self.base, "POST", "/v1/accounts", None, {"name": self.name})
        self.token = session["token"]
        self.player_id = session["account"]["id"]

    def session(self) -> dict[str, Any]:
        """What the web client keeps in localStorage as ``king.session``."""
        return {"token": self.token, "player_id": self.player_id, "name": self.name, "guest": True}

    def open_table(self, **options: Any) -> str:
        """Create a table and sit with a seed made after its commitment (the fair order)."""
        table = call(self.base, "POST", "/v1/tables", self.token, {"seat": 0, **options})
        match_id = str(table["match_id"])
        seed = secrets.token_hex(32)
        self.records[match_id] = {
            "matchId": match_id,
            "commitment": table["server_commit"],
            "seed": seed,
            "seat": 0,
            "hands": {},
        }
        call(self.base, "POST", f"/v1/tables/{match_id}/seats", self.token,
             {"client_seed": seed, "seat": 0})  # fmt: skip
        return match_id

    def match(self, match_id: str) -> Any:
        return call(self.base, "GET", f"/v1/matches/{match_id}", self.token)

    def play_to_the_end(self, match_id: str, timeout_s: float = 240) -> Any:
        """Play this seat until the match is over; remember each hand's 13 dealt cards."""
        record = self.records[match_id]
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            match = self.match(match_id)
            view = match["view"]
            if match["status"] in ("finished", "aborted") or view["phase"] == "over":
                return match
            if len(view["my_cards"]) == 13:
                record["hands"].setdefault(str(view["hand"]), sorted(view["my_cards"]))
            if not match["my_turn"]:
                time.sleep(0.03)
                continue
            allowed = view["allowed_contracts"]
            move = allowed[0]["move"] if allowed else view["legal_cards"][0]
            try:
                call(self.base, "POST", f"/v1/matches/{match_id}/moves", self.token,
                     {"move": move, "version": match["version"]})  # fmt: skip
            except urllib.error.HTTPError as error:
                if error.code != 409:  # a stale version: read the match again
                    raise
        raise AssertionError(f"match {match_id} did not end within {timeout_s} s")
