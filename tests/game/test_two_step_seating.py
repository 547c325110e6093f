"""KINGDEAL-v1 asks that a client's seed be made after it has seen the commitment and that
every server-side input be fixed before the first human seed: a creator may create without
sitting (``sit: false``), read ``server_commit``, then sit with its seed."""

from __future__ import annotations

import pytest

from .helpers import signup

pytestmark = [pytest.mark.integration]


def test_a_computer_table_waits_for_its_creator_then_starts(client):
    me = signup(client)
    created = client.post(
        "/v1/tables", json={"mode": "computer", "hands": 8, "sit": False}, headers=me["headers"]
    )
    assert created.status_code == 201, created.get_json()
    table = created.get_json()
    assert table["status"] == "waiting" and len(table["server_commit"]) == 64
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


def test_a_seed_cannot_come_with_a_table_its_creator_does_not_sit_at(client):
    me = signup(client)
    response = client.post(
        "/v1/tables",
        json={"mode": "live", "sit": False, "client_seed": me["seed"]},
        headers=me["headers"],
    )
    assert response.status_code == 422
    assert "client_seed" in str(response.get_json())
