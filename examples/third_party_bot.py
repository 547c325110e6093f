"""A third-party bot that plays King through the public HTTP API only.

    python examples/third_party_bot.py --api http://localhost:8000 --name my-bot --level medium

It registers a bot account (or logs in if the name exists), joins an open table with a free
seat or creates one, then follows the match's event stream (long-poll from the last sequence
number it saw) and, whenever it is its seat's turn, fetches its seat's view and answers with a
policy from ``king_bots`` (any policy works: swap ``choose`` for your own function of the JSON
view). Moves carry the view's version and an ``Idempotency-Key``, so a retried request never
plays twice. Only the standard library and ``king_bots`` are used; no server code is imported.

All endpoint paths and field names are in ``Api`` below, in one place, so the client is easy to
adapt. See docs/bots.md for the status of this example against the service's API.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

from king_bots.policies import Policy
from king_bots.viewjson import view_from_dict


class ApiError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Api:
    """A thin JSON-over-HTTP client for the game service."""

    REGISTER = "/v1/auth/register"
    LOGIN = "/v1/auth/login"
    TABLES = "/v1/tables"  # GET: the lobby's open tables; POST: create a table
    JOIN = "/v1/tables/{match_id}/join"
    VIEW = "/v1/matches/{match_id}/view"  # the caller's seat view (SeatView.to_dict())
    EVENTS = "/v1/matches/{match_id}/events"  # ?after=<seq>&wait=<seconds> (long-poll)
    MOVES = "/v1/matches/{match_id}/moves"  # {"move": "QH" | "queens" | "trump:S", "version"}

    def __init__(self, base_url: str, timeout: float = 40.0) -> None:
        self.base = base_url.rstrip("/")
        self.timeout = timeout
        self.token: str | None = None

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        query: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        url = self.base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                detail: Any = json.loads(raw)
            except ValueError:
                detail = raw.decode(errors="replace")
            raise ApiError(error.code, detail) from None
        return json.loads(raw) if raw else None

    # -- account ---------------------------------------------------------------------------

    def sign_in(self, name: str, password: str) -> None:
        """Register a bot account, or log in when the name is already taken."""
        try:
            answer = self.request(
                "POST", self.REGISTER, {"username": name, "password": password, "bot": True}
            )
        except ApiError as error:
            if error.status not in (400, 409, 422):
                raise
            answer = self.request("POST", self.LOGIN, {"username": name, "password": password})
        self.token = answer["token"]

    # -- tables ----------------------------------------------------------------------------

    def find_or_create_table(self, ruleset: str, hands: int) -> str:
        lobby = self.request("GET", self.TABLES)
        tables = lobby.get("tables", lobby) if isinstance(lobby, dict) else lobby
        for table in tables or []:
            if table.get("ruleset", ruleset) == ruleset and table.get("free_seats", 1) > 0:
                try:
                    self.request("POST", self.JOIN.format(match_id=table["id"]), {})
                    return str(table["id"])
                except ApiError as error:
                    if error.status not in (409, 422):
                        raise
        created = self.request("POST", self.TABLES, {"ruleset": ruleset, "hands": hands})
        return str(created["id"])

    # -- play ------------------------------------------------------------------------------

    def view(self, match_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("GET", self.VIEW.format(match_id=match_id))
        return answer.get("view", answer)

    def events(self, match_id: str, after: int, wait: float = 25.0) -> list[dict[str, Any]]:
        answer = self.request(
            "GET", self.EVENTS.format(match_id=match_id), query={"after": after, "wait": wait}
        )
        return answer.get("events", answer) if isinstance(answer, dict) else answer

    def play(self, match_id: str, move: str, version: int) -> Any:
        return self.request(
            "POST",
            self.MOVES.format(match_id=match_id),
            {"move": move, "version": version},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )


def choose(policy: Policy, view_json: dict[str, Any], rng: random.Random) -> str:
    """The bot's brain: a JSON view in, a move's text out (``"QH"``, ``"queens"``...)."""
    view = view_from_dict(view_json)
    return str(policy.decide(view, rng.randrange(1 << 62)))


def play_match(api: Api, match_id: str, policy: Policy, rng: random.Random) -> dict[str, Any]:
    """Follow the event stream until the match is over, answering on our turns."""
    after = 0
    while True:
        view = api.view(match_id)
        if view["phase"] == "over":
            return view
        if view.get("turn") == view["seat"]:
            move = choose(policy, view, rng)
            try:
                api.play(match_id, move, view["version"])
                print(f"hand {view['hand']} v{view['version']}: played {move}", file=sys.stderr)
            except ApiError as error:
                # Someone (our clock, a retry) moved first: re-read the view and carry on.
                print(f"move {move} refused: {error}", file=sys.stderr)
            continue
        for event in api.events(match_id, after):
            after = max(after, int(event.get("seq", after)))
            if event.get("type") == "match_over":
                return api.view(match_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", default=os.environ.get("KING_API_URL", "http://localhost:8000"))
    parser.add_argument("--name", default=f"bot-{uuid.uuid4().hex[:8]}")
    parser.add_argument("--password", default=os.environ.get("KING_BOT_PASSWORD", ""))
    parser.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    password = args.password or uuid.uuid4().hex  # a throwaway account unless one is given
    api = Api(args.api)
    api.sign_in(args.name, password)
    policy = Policy(args.level)
    rng = random.Random(args.seed)
    for _ in range(args.matches):
        match_id = api.find_or_create_table(args.ruleset, args.hands)
        print(f"seated at {match_id}", file=sys.stderr)
        final = play_match(api, match_id, policy, rng)
        print(json.dumps({"match": match_id, "totals": final.get("totals")}))
        time.sleep(0.5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
