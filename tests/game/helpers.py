"""Scripted clients for the game-service tests."""

from __future__ import annotations

import secrets
import time
import uuid
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from redis import Redis
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from king_message import job_id_for

CARD_CODES = frozenset(r + s for r in "23456789TJQKA" for s in "CDHS")


def signup(
    client: FlaskClient, name: str | None = None, password: str | None = "correct horse"
) -> dict[str, Any]:
    name = name or f"p{uuid.uuid4().hex[:10]}"
    body: dict[str, Any] = {"name": name}
    if password is not None:
        body["password"] = password
    response = client.post("/v1/accounts", json=body)
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return {
        "name": name,
        "id": data["account"]["id"],
        "token": data["token"],
        "headers": {"Authorization": f"Bearer {data['token']}"},
        "seed": secrets.token_hex(32),
    }


def view(client: FlaskClient, match_id: str, player: dict[str, Any]) -> dict[str, Any]:
    """The match as ``player``'s seat sees it (``GET /v1/matches/{id}``)."""
    body: dict[str, Any] = client.get(
        f"/v1/matches/{match_id}", headers=player["headers"]
    ).get_json()
    return body


def choose_move(view: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """A legal move from the view: the first legal card or allowed contract, or a call of a
    ruleset's extra phases (keep or pass: asking for redeals would only make the test longer)."""
    calls = [m for m in view["legal_moves"] if m in ("keep", "pass")]
    if calls:
        return {"move": calls[0]}
    if view["allowed_contracts"]:
        option = view["allowed_contracts"][pick % len(view["allowed_contracts"])]
        return {"move": option["move"]}
    return {"card": view["legal_cards"][pick % len(view["legal_cards"])]}


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if value in CARD_CODES:
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


def assert_view_shows_only_my_cards(body: dict[str, Any]) -> None:
    """Outside my own cards, a view names only cards already played in this hand."""
    view = body.get("view")
    if not view:
        return
    mine = set(view["my_cards"])
    assert set(view["legal_cards"]) <= mine
    played: set[str] = set()
    for trick in [*view["tricks"], *([view["current_trick"]] if view["current_trick"] else [])]:
        played |= {play["card"] for play in trick["plays"]}
    # The options name a card (traditional's first_declarer_card) that is a rule, not a hand.
    hidden_keys = ("my_cards", "legal_cards", "legal_moves", "options")
    others = cards_in({k: v for k, v in view.items() if k not in hidden_keys})
    assert others <= played | mine, others - played - mine


def sit(
    client: FlaskClient, table_id: str, player: dict[str, Any], seat: int | None = None
) -> dict[str, Any]:
    """``player`` takes a seat (the given one or any free one) with its seed: the table."""
    joined = client.post(
        f"/v1/tables/{table_id}/seats",
        json={"seat": seat, "client_seed": player["seed"]},
        headers=player["headers"],
    )
    assert joined.status_code == 201, joined.get_json()
    table: dict[str, Any] = joined.get_json()["table"]
    return table


def open_computer_table(
    client: FlaskClient, player: dict[str, Any], **options: Any
) -> dict[str, Any]:
    """A computer table made by ``player``, who then sits with its seed (the match starts):
    the table as the seating answered it."""
    created = client.post(
        "/v1/tables", json={"mode": "computer", **options}, headers=player["headers"]
    )
    assert created.status_code == 201, created.get_json()
    return sit(client, created.get_json()["id"], player)


def create_live_table(
    client: FlaskClient, creator: dict[str, Any], hands: int = 8, **table: Any
) -> dict[str, Any]:
    """A live table opened by ``creator`` (``table``: more fields of the body, such as the
    ruleset), who then sits on seat 0 with its seed: the table as created (its
    ``server_commit`` came before the seed)."""
    created = client.post(
        "/v1/tables", json={"mode": "live", "hands": hands, **table}, headers=creator["headers"]
    )
    assert created.status_code == 201, created.get_json()
    table: dict[str, Any] = created.get_json()
    sit(client, table["id"], creator, 0)
    return table


def seat_the_others(
    client: FlaskClient, table: dict[str, Any], players: list[dict[str, Any]]
) -> None:
    """``players[1:]`` take seats 1-3 of ``table`` (the last one starts the match)."""
    for index, player in enumerate(players[1:], start=1):
        sit(client, table["id"], player, index)


def start_live_match(
    client: FlaskClient, players: list[dict[str, Any]], hands: int = 8, **table_fields: Any
) -> dict[str, Any]:
    """A live table opened by ``players[0]`` that the three others join: the match starts
    with the last seat. Returns the table as created (``id``, ``server_commit`` ...)."""
    table = create_live_table(client, players[0], hands, **table_fields)
    seat_the_others(client, table, players)
    return table


def client_at(app: Flask, address: str | None = None) -> FlaskClient:
    """A test client calling from ``address`` (default: an address of its own, so no other
    test's rate-limit counters share its windows)."""
    client = app.test_client()
    address = address or ".".join(["10"] + [str(secrets.randbelow(250) + 1) for _ in range(3)])
    client.environ_base["REMOTE_ADDR"] = address
    return client


def finished_match_job(redis: Redis, match_id: str, within_s: float = 10.0) -> Job:
    """The finished-match job on the ratings queue, waited for: the process that committed the
    last move enqueues it just after its commit, and when a bot played that move, the bot
    worker does so a moment after a client already sees the match over."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            return Job.fetch(job_id_for(match_id), connection=redis, serializer=JSONSerializer)
        except NoSuchJobError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class EventFollower:
    """Long-polls a match's public events from where the last answer ended, so a scripted player
    waiting for the bots sleeps in the service until something happens (``after=0`` would
    answer at once with the whole log, every time)."""

    def __init__(self, client: FlaskClient, match_id: str, player: dict[str, Any]) -> None:
        self.client, self.match_id, self.player = client, match_id, player
        self.after = 0

    def wait(self, seconds: int = 1) -> str:
        """The next page of events (its raw text), waiting up to ``seconds`` for one."""
        answer = self.client.get(
            f"/v1/matches/{self.match_id}/events?after={self.after}&wait={seconds}",
            headers=self.player["headers"],
        )
        self.after = int(answer.get_json()["last_seq"])
        return answer.get_data(as_text=True)
