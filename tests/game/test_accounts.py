"""Accounts and tokens: sign-up, guests, log-in, "me", revocation."""

from __future__ import annotations

import secrets
import time
import uuid

import pytest

from .conftest import make_settings
from .helpers import client_at, signup

pytestmark = pytest.mark.integration


def test_sign_up_log_in_and_read_me(client):
    name = f"ayse{uuid.uuid4().hex[:6]}"
    signup(client, name, password="correct horse")
    login = client.post("/v1/tokens", json={"name": name.upper(), "password": "correct horse"})
    assert login.status_code == 201
    token = login.get_json()["token"]
    me = client.get("/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.get_json()["name"] == name
    assert me.get_json()["is_guest"] is False


def test_a_guest_has_only_a_name(client):
    guest = signup(client, password=None)
    me = client.get("/v1/me", headers=guest["headers"]).get_json()
    assert me["is_guest"] is True and me["is_bot"] is False


def test_bot_accounts_are_flagged(client):
    response = client.post(
        "/v1/accounts",
        json={"name": f"bot{uuid.uuid4().hex[:6]}", "password": "a bot's password", "is_bot": True},
    )
    assert response.get_json()["account"]["is_bot"] is True


def test_a_revoked_token_stops_working(client):
    player = signup(client)
    assert client.get("/v1/me", headers=player["headers"]).status_code == 200
    assert client.delete("/v1/tokens/current", headers=player["headers"]).status_code == 204
    after = client.get("/v1/me", headers=player["headers"])
    assert after.status_code == 401 and after.get_json()["code"] == "unauthenticated"


def test_a_token_revoked_through_one_process_stops_working_in_another(client, settings):
    from king_game.app import create_app

    other = create_app(settings).test_client()  # another copy: its own in-process token cache
    player = signup(client)
    assert other.get("/v1/me", headers=player["headers"]).status_code == 200  # now cached there
    assert client.delete("/v1/tokens/current", headers=player["headers"]).status_code == 204
    # The revocation is broadcast; the other copy drops its cached entry when it arrives.
    deadline = time.monotonic() + 5
    status = 200
    while status == 200 and time.monotonic() < deadline:
        status = other.get("/v1/me", headers=player["headers"]).status_code
        time.sleep(0.01)
    assert status == 401


def test_passwords_and_tokens_are_stored_hashed(client, app):
    player = signup(client, password="correct horse")
    pool = app.extensions["king_game"].accounts.pool
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT password_hash FROM game.players WHERE id = %s", (player["id"],)
        ).fetchone()
        tokens = conn.execute(
            "SELECT token_hash FROM game.tokens WHERE player_id = %s", (player["id"],)
        ).fetchall()
    assert row[0].startswith("$argon2id$") and "correct horse" not in row[0]
    assert all(player["token"].encode() not in bytes(t[0]) for t in tokens)


def test_a_taken_name_and_a_wrong_password_are_refused(client):
    name = f"cem{uuid.uuid4().hex[:6]}"
    signup(client, name)
    again = client.post("/v1/accounts", json={"name": name, "password": "other password"})
    assert again.status_code == 409 and again.get_json()["code"] == "name_taken"
    wrong = client.post("/v1/tokens", json={"name": name, "password": "wrong password"})
    assert wrong.status_code == 401 and wrong.get_json()["code"] == "invalid_credentials"


def test_an_unknown_token_seen_recently_costs_no_query(settings):
    from king_game.app import create_app

    own = create_app(settings)
    client = own.test_client()
    invented = {"Authorization": f"Bearer {secrets.token_urlsafe(32)}"}
    assert client.get("/v1/me", headers=invented).status_code == 401
    # With its Postgres pool closed, this copy can only answer from what it cached.
    own.extensions["king_game"].accounts.pool.close()
    for _ in range(2):
        again = client.get("/v1/me", headers=invented)
        assert again.status_code == 401 and again.get_json()["code"] == "unauthenticated"
    # A token of a shape never issued needs no lookup at all.
    odd = client.get("/v1/me", headers={"Authorization": "Bearer not-a-token"})
    assert odd.status_code == 401 and odd.get_json()["code"] == "unauthenticated"


def test_failed_logins_are_limited_per_account_from_any_address(client, settings):
    from king_game.app import create_app

    # (A log-in takes about a second on a loaded test machine: the window leaves room.)
    strict = create_app(make_settings(settings, rate_login_account="2 per 10 seconds"))
    name = f"deniz{uuid.uuid4().hex[:6]}"
    signup(client, name, password="correct horse")
    first, second = client_at(strict), client_at(strict)
    wrong = [
        first.post("/v1/tokens", json={"name": name, "password": "correct horse"}),  # not counted
        first.post("/v1/tokens", json={"name": name, "password": "guess one"}),
        second.post("/v1/tokens", json={"name": name.upper(), "password": "guess two"}),
        second.post("/v1/tokens", json={"name": name, "password": "guess three"}),
    ]
    assert [r.status_code for r in wrong] == [201, 401, 401, 429]
    assert wrong[3].get_json()["code"] == "rate_limited"
    # The window is short: once it has passed (Retry-After), the player logs in.
    time.sleep(int(wrong[3].headers["Retry-After"]))
    login = second.post("/v1/tokens", json={"name": name, "password": "correct horse"})
    assert login.status_code == 201
