"""KINGDEAL-v1 asks that a client's seed be made after it has seen the commitment and that
every server-side input be fixed before the first human seed: creating a table never seats
anybody nor takes a seed; every human, the creator too, sits through ``/seats`` with a seed
made after reading ``server_commit``. The transcript says who made each seed."""

from __future__ import annotations

import pytest

from . import verifier
from .helpers import create_live_table, seat_the_others, signup, sit

pytestmark = [pytest.mark.integration]


def match_keys(store) -> set[str]:
    return {key.decode() for key in store.redis.scan_iter(f"{store.prefix}m:*")}


def test_a_computer_table_waits_for_its_creator_then_starts(client):
    me = signup(client)
    created = client.post(
        "/v1/tables", json={"mode": "computer", "hands": 8}, headers=me["headers"]
    )
    assert created.status_code == 201, created.get_json()
    table = created.get_json()
    assert table["status"] == "waiting" and len(table["server_commit"]) == 64
    assert table["free_seats"] == [0] and all(s["is_bot"] for s in table["seats"][1:])
    other = signup(client)
    refused = client.post(
        f"/v1/tables/{table['id']}/seats", json={"client_seed": other["seed"]},
        headers=other["headers"],
    )  # fmt: skip
    assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden"
    seated = client.post(
        f"/v1/tables/{table['id']}/seats", json={"client_seed": me["seed"]}, headers=me["headers"]
    )
    assert seated.status_code == 201, seated.get_json()
    assert seated.get_json()["table"]["status"] == "active"
    assert seated.get_json()["table"]["server_commit"] == table["server_commit"]


@pytest.mark.parametrize("mode", ["live", "computer"])
@pytest.mark.parametrize(
    "extra",
    [{"client_seed": "ab" * 32}, {"sit": True}, {"sit": False, "client_seed": "ab" * 32}],
    ids=["seed", "sit", "seed-without-sitting"],
)
def test_creation_refuses_a_seed_or_a_seat_and_makes_no_table(client, app, mode, extra):
    me = signup(client)
    store = app.extensions["king_game"].store
    before = match_keys(store)
    response = client.post("/v1/tables", json={"mode": mode, **extra}, headers=me["headers"])
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == "seed_before_commit" and "/seats" in body["detail"]
    assert match_keys(store) == before
    assert client.get("/v1/me/matches", headers=me["headers"]).get_json()["active"] == []


def test_a_live_table_nobody_sits_at_is_not_in_the_lobby_until_its_creator_sits(client):
    me, other = signup(client), signup(client)
    table = client.post("/v1/tables", json={"mode": "live"}, headers=me["headers"]).get_json()
    assert table["status"] == "waiting" and table["free_seats"] == [0, 1, 2, 3]

    def listed() -> bool:
        lobby = client.get("/v1/tables", headers=other["headers"]).get_json()["tables"]
        return table["id"] in [t["id"] for t in lobby]

    assert not listed()
    sit(client, table["id"], me, 2)
    assert listed()


def test_the_transcript_says_who_made_each_seed(client):
    players = [signup(client) for _ in range(4)]
    table = create_live_table(client, players[0])
    seat_the_others(client, table, players[:3])
    # The last player sends no seed: the server draws one for it, and says so.
    last = client.post(f"/v1/tables/{table['id']}/seats", json={}, headers=players[3]["headers"])
    assert last.status_code == 201 and last.get_json()["table"]["status"] == "active"
    match_id = table["id"]
    for player in players:  # every human resigns: the match ends
        resigned = client.post(f"/v1/matches/{match_id}/resign", json={}, headers=player["headers"])
        assert resigned.status_code == 200, resigned.get_json()
    transcript = client.get(f"/v1/matches/{match_id}/fairness").get_json()
    verifier.verify(transcript, table["server_commit"], my_seat=1, my_seed=players[1]["seed"])
    assert transcript["seed_sources"] == ["client", "client", "client", "server"]
    assert transcript["client_seeds"][:3] == [p["seed"] for p in players[:3]]
