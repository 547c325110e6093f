"""A third-party bot that plays King through the public HTTP API only.

    python examples/third_party_bot.py --api http://127.0.0.1:8001 --name my-bot --level medium
    python examples/third_party_bot.py --mode live --hands 8      # a table with other players

It registers a bot account (``is_bot``; or logs in if the name exists), then either opens a
table against the service's own bots (``--mode computer``, the default) or joins a waiting live
table with a free seat (opening one if there is none); it sits with a client seed made after
reading the table's deal commitment (KINGDEAL-v1). It follows the match's event stream
(long-poll from the last sequence number it saw) and, whenever it is its seat's turn, answers
the seat's view with a policy from ``king_bots`` (swap ``choose`` for your own function of the
JSON view to plug in your own bot). Moves carry the match version they answer and an
``Idempotency-Key``, so a retried request never plays twice. Only the standard library and
``king_bots`` are used; no server code is imported.

All endpoint paths and field names are in ``Api`` below, in one place (see docs/game-api.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
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
    """A thin JSON-over-HTTP client for the game service (docs/game-api.md)."""

    ACCOUNTS = "/v1/accounts"  # POST {name, password, is_bot}: a new account and its token
    TOKENS = "/v1/tokens"  # POST {name, password}: log in, a new token
    TABLES = "/v1/tables"  # GET: the lobby ({tables}); POST: create a table
    SEATS = "/v1/tables/{table_id}/seats"  # POST {}: take a free seat
    MATCH = "/v1/matches/{match_id}"  # GET: {view, version, seat, my_turn, status, outcome...}
    EVENTS = "/v1/matches/{match_id}/events"  # ?after=<seq>&wait=<s>: {events, last_seq, ...}
    MOVES = "/v1/matches/{match_id}/moves"  # POST {move: "QH" | "queens" | "trump:S", version}

    def __init__(self, base_url: str, timeout: float = 40.0) -> None:
        self.base = base_url.rstrip("/")
        self.timeout = timeout
        self.token: str | None = None
        #: Per match: the deal commitment we read and the seed we sat with, for verifying.
        self.commitments: dict[str, str] = {}
        self.seeds: dict[str, str] = {}

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
        for attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
                return json.loads(raw) if raw else None
            except urllib.error.HTTPError as error:
                raw = error.read()
                if error.code in (429, 503) and attempt < 4:  # rate limited / busy: wait, retry
                    time.sleep(float(error.headers.get("Retry-After") or 1))
                    continue
                try:
                    detail: Any = json.loads(raw)
                except ValueError:
                    detail = raw.decode(errors="replace")
                raise ApiError(error.code, detail) from None
        raise AssertionError("unreachable")

    # -- account ---------------------------------------------------------------------------

    def sign_in(self, name: str, password: str) -> None:
        """Create a bot account (``is_bot``), or log in when the name is already taken."""
        try:
            answer = self.request(
                "POST", self.ACCOUNTS, {"name": name, "password": password, "is_bot": True}
            )
        except ApiError as error:
            if error.status != 409:  # name_taken: log in instead
                raise
            answer = self.request("POST", self.TOKENS, {"name": name, "password": password})
        self.token = answer["token"]

    # -- tables ----------------------------------------------------------------------------

    def find_or_create_table(self, mode: str, ruleset: str, hands: int, level: str) -> str:
        """Computer mode: a new table against the service's bots. Live mode: join a waiting
        table of the same settings, else open one and wait for players."""
        if mode == "live":
            for table in self.request("GET", self.TABLES).get("tables", []):
                if (table.get("ruleset"), table.get("hands")) != (ruleset, hands):
                    continue
                if not table.get("free_seats"):
                    continue
                try:
                    return self.sit(table)
                except ApiError as error:
                    if error.status != 409:  # seat_taken / table_full / already_seated
                        raise
        body: dict[str, Any] = {"mode": mode, "ruleset": ruleset, "hands": hands}
        if mode == "computer":
            body["level"] = level
        # Creating a table does not seat us: we sit like every player, after its commitment.
        return self.sit(self.request("POST", self.TABLES, body))

    def sit(self, table: dict[str, Any]) -> str:
        """Take a seat with a client seed made now, after reading the table's server_commit
        (KINGDEAL-v1: keep both to verify the deal when the match ends)."""
        self.commitments[str(table["match_id"])] = str(table["server_commit"])
        seed = secrets.token_hex(32)
        seated = self.request(
            "POST", self.SEATS.format(table_id=table["id"]), {"client_seed": seed}
        )
        self.seeds[str(table["match_id"])] = seed
        return str(seated["table"]["match_id"])

    # -- play ------------------------------------------------------------------------------

    def match(self, match_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("GET", self.MATCH.format(match_id=match_id))
        return answer

    def events(self, match_id: str, after: int, wait: float = 25.0) -> dict[str, Any]:
        answer: dict[str, Any] = self.request(
            "GET", self.EVENTS.format(match_id=match_id), query={"after": after, "wait": wait}
        )
        return answer

    def play(self, match_id: str, move: str, version: int) -> Any:
        return self.request(
            "POST",
            self.MOVES.format(match_id=match_id),
            {"move": move, "version": version},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )


def choose(policy: Policy, view_json: dict[str, Any], rng: random.Random) -> str:
    """The bot's brain: a JSON view in, a move's text out (``"QH"``, ``"queens"``...).

    Replace this with your own function of the view to plug in your own bot."""
    view = view_from_dict(view_json)
    return str(policy.decide(view, rng.randrange(1 << 62)))


def play_match(api: Api, match_id: str, policy: Policy, rng: random.Random) -> dict[str, Any]:
    """Follow the event stream until the match ends, answering whenever it is our turn."""
    after = 0
    while True:
        match = api.match(match_id)
        if match.get("outcome") or match.get("status") in ("finished", "aborted"):
            return match
        if match.get("my_turn") and match.get("view"):
            move = choose(policy, match["view"], rng)
            try:
                api.play(match_id, move, match["version"])
                print(f"v{match['version']}: played {move}", file=sys.stderr)
            except ApiError as error:
                # The match moved on (a clock, a takeover): read it again and carry on.
                print(f"move {move} refused: {error}", file=sys.stderr)
            continue
        page = api.events(match_id, after)
        after = int(page.get("last_seq", after))
        if page.get("finished"):
            return api.match(match_id)


def build_parser() -> argparse.ArgumentParser:
    """The command line; ``--help`` shows every option with its default."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--api", default=os.environ.get("KING_API_URL", "http://127.0.0.1:8001"),
        help="the game service's base URL (environment: KING_API_URL)",
    )  # fmt: skip
    parser.add_argument(
        "--mode", default="computer", choices=["computer", "live"],
        help="computer: against the service's bots; live: a table with other players",
    )  # fmt: skip
    parser.add_argument(
        "--name", default=None,
        help="the bot account's name: signs up, or logs in if the name is registered; "
        "none: bot-<8 random hex digits>",
    )  # fmt: skip
    parser.add_argument(
        "--password", default="",
        help="the account's password; empty: KING_BOT_PASSWORD from the environment, else a "
        "random one (a throwaway account)",
    )  # fmt: skip
    parser.add_argument(
        "--level", default="medium", choices=["easy", "medium", "hard"],
        help="this bot's own policy (king_bots) that chooses its moves",
    )  # fmt: skip
    parser.add_argument(
        "--opponents", default="easy", choices=["easy", "medium", "hard"],
        help="computer mode: the level of the service's three bots",
    )  # fmt: skip
    parser.add_argument(
        "--ruleset", default="standard", choices=["standard", "classic20"],
        help="the table's ruleset (GET /v1/rules lists them) when this bot opens one",
    )  # fmt: skip
    parser.add_argument(
        "--hands", type=int, default=8, choices=[8, 12, 20],
        help="hands in a match, when this bot opens the table",
    )  # fmt: skip
    parser.add_argument("--matches", type=int, default=1, help="matches to play, one after another")
    parser.add_argument(
        "--seed", type=int, default=None,
        help="seed of the bot's random choices (ties between equal moves); none: random",
    )  # fmt: skip
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # A throwaway account unless a password is given (the environment's is read here, not as
    # the option's default, so that --help never prints it).
    password = args.password or os.environ.get("KING_BOT_PASSWORD") or uuid.uuid4().hex
    api = Api(args.api)
    api.sign_in(args.name or f"bot-{uuid.uuid4().hex[:8]}", password)
    policy = Policy(args.level)
    rng = random.Random(args.seed)
    for _ in range(args.matches):
        match_id = api.find_or_create_table(args.mode, args.ruleset, args.hands, args.opponents)
        print(f"seated at {match_id}", file=sys.stderr)
        final = play_match(api, match_id, policy, rng)
        view = final.get("view") or {}
        summary = {
            "match": match_id,
            "outcome": final.get("outcome"),
            "places": final.get("places"),
            "totals": view.get("totals"),
        }
        print(json.dumps(summary))
        time.sleep(0.5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
