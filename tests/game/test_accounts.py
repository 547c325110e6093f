"""Accounts and tokens: sign-up, guests, log-in, "me", revocation."""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
import uuid

import pytest
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from king_game.names import NAME_PATTERN, REFUSED_RANGES, normalise_name

from .conftest import make_settings
from .helpers import client_at, signup, start_live_match

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


def _unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def test_a_nul_character_in_a_name_is_a_validation_error(client):
    for body in ({"name": "a\x00b"}, {"name": "a\x00b", "password": "correct horse"}):
        response = client.post("/v1/accounts", json=body)
        assert response.status_code == 422, response.get_data(as_text=True)
        assert response.get_json()["code"] == "validation_failed"
        assert "name" in response.get_json()["errors"]
    login = client.post("/v1/tokens", json={"name": "a\x00b", "password": "correct horse"})
    assert login.status_code == 422 and login.get_json()["code"] == "validation_failed"


@pytest.mark.parametrize(
    "name",
    [
        "   ",
        "\t",
        "Ali\nVeli",
        "Ali\r",
        "\u202eilA",  # right-to-left override
        "A\u200bli",  # zero-width space
        "A\u200dli",  # zero-width joiner
        "\ufeffAli",  # byte-order mark
        "Ali\u2028Veli",  # line separator
        "Ali\x7f",
    ],
)
def test_names_with_invisible_or_control_characters_are_refused(client, name):
    for body in ({"name": name}, {"name": name, "password": "correct horse"}):
        response = client.post("/v1/accounts", json=body)
        assert response.status_code == 422, (name, response.get_data(as_text=True))
        assert "name" in response.get_json()["errors"]


def test_names_are_stored_in_one_normal_form(client):
    base = _unique("rene")
    decomposed = f"  {base}e\u0301 \u00a0 Kaya  "  # "é" as e + combining accent, loose spaces
    composed = f"{base}\u00e9 Kaya"
    created = client.post("/v1/accounts", json={"name": decomposed, "password": "correct horse"})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["account"]["name"] == composed
    # The same name in any form logs in, and is taken in any form.
    login = client.post("/v1/tokens", json={"name": decomposed, "password": "correct horse"})
    assert login.status_code == 201 and login.get_json()["account"]["name"] == composed
    again = client.post("/v1/accounts", json={"name": composed.upper(), "password": "x" * 8})
    assert again.status_code == 409 and again.get_json()["code"] == "name_taken"


def test_a_guest_cannot_take_a_registered_name(client):
    name = _unique("Deniz")
    signup(client, name)
    for taken in (name, name.upper(), name.lower(), f" {name} "):
        guest = client.post("/v1/accounts", json={"name": taken})
        assert guest.status_code == 409, (taken, guest.get_data(as_text=True))
        assert guest.get_json()["code"] == "name_taken"


def test_guests_may_share_a_name_that_no_player_registered(client):
    name = _unique("Misafir")
    first = client.post("/v1/accounts", json={"name": name})
    second = client.post("/v1/accounts", json={"name": name})
    assert first.status_code == second.status_code == 201
    assert first.get_json()["account"]["id"] != second.get_json()["account"]["id"]
    assert first.get_json()["account"]["is_guest"] is True


@given(st.text(max_size=30))
@hypothesis_settings(max_examples=300, deadline=None)
def test_the_normal_form_is_stable_and_shows_no_hidden_characters(raw):
    try:
        name = normalise_name(raw)
    except ValueError:
        return
    assert normalise_name(name) == name
    assert name == name.strip() and "  " not in name
    refused = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    assert all(unicodedata.category(c) not in refused for c in name)


def test_the_refused_ranges_are_the_refused_categories():
    """The documented pattern is built from ``REFUSED_RANGES``: they must be exactly the
    code points of the refused categories in this Python's Unicode database."""
    refused = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    expected = [cp for cp in range(0x110000) if unicodedata.category(chr(cp)) in refused]
    listed = [cp for first, last in REFUSED_RANGES for cp in range(first, last + 1)]
    assert listed == expected


@given(st.text(max_size=12))
@hypothesis_settings(max_examples=500, deadline=None)
@example("Ayşe Öztürk")
@example("  a  ")
@example(" ")
@example("a\u200bb")
@example("x\U000e0041")
@example("\u0378x")
def test_the_documented_pattern_is_the_servers_rule(raw):
    """A name matches ``NAME_PATTERN`` exactly when ``normalise_name`` takes it."""
    try:
        normalise_name(raw)
        taken = True
    except ValueError:
        taken = False
    assert (re.fullmatch(NAME_PATTERN, raw) is not None) == taken


def test_a_guest_is_marked_as_one_on_its_seat_and_in_the_events(client):
    guest = signup(client, password=None)
    players = [signup(client), guest, signup(client), signup(client)]
    table = start_live_match(client, players)
    match = client.get(f"/v1/matches/{table['id']}", headers=guest["headers"]).get_json()
    assert [seat["is_guest"] for seat in match["seats"]] == [False, True, False, False]
    lobby_view = client.get(f"/v1/tables/{table['id']}", headers=players[0]["headers"]).get_json()
    assert [seat["is_guest"] for seat in lobby_view["seats"]] == [False, True, False, False]
    events = client.get(
        f"/v1/matches/{table['id']}/events?after=0", headers=guest["headers"]
    ).get_json()["events"]
    taken = {e["seat"]: e["is_guest"] for e in events if e["type"] == "seat_taken"}
    assert taken == {0: False, 1: True, 2: False, 3: False}
    (started,) = [e for e in events if e["type"] == "match_started"]
    assert [seat["is_guest"] for seat in started["seats"]] == [False, True, False, False]
