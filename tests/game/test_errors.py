"""Every error code, produced by a bad request; every error is problem+json and changes
nothing."""

from __future__ import annotations

import secrets
import time
import uuid

import pytest

from king_game.app import create_app
from king_game.errorcodes import status_of

from .conftest import make_settings
from .helpers import choose_move, client_at, create_live_table, open_computer_table, signup, view
from .test_live_match import open_live_table

pytestmark = pytest.mark.integration


def problem(response, status, code):
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert status_of(code) == status, f"{code} is {status_of(code)} in king_game.errorcodes"
    assert {"type", "title", "detail"} <= body.keys()
    return body


def mover(client, match_id, players):
    turn = view(client, match_id, players[0])["clock"]["turn"]
    return turn, players[turn]


def test_validation_failed_names_the_fields(client):
    player = signup(client)
    body = problem(
        client.post("/v1/tables", json={"mode": "solo", "hands": 9}, headers=player["headers"]),
        422,
        "validation_failed",
    )
    assert set(body["errors"]) == {"mode", "hands"}
    body = problem(client.post("/v1/accounts", json={}), 422, "validation_failed")
    assert "name" in body["errors"]


def test_an_option_the_ruleset_does_not_have_is_a_bad_table(client):
    player = signup(client)
    body = problem(
        client.post(
            "/v1/tables",
            json={"mode": "computer", "options": {"king_feat": "announced"}},
            headers=player["headers"],
        ),
        422,
        "bad_table",
    )
    assert list(body["errors"]) == ["options"], body
    table = client.post("/v1/tables", json={"mode": "computer"}, headers=player["headers"])
    assert table.status_code == 201 and table.get_json()["options"] == {}


def test_a_traditional_table_fills_in_its_options_and_refuses_a_value_it_lacks(client):
    player = signup(client)
    table = {"mode": "computer", "ruleset": "traditional", "hands": 20}
    body = problem(
        client.post(
            "/v1/tables",
            json={**table, "options": {"first_declarer_card": "3C"}},
            headers=player["headers"],
        ),
        422,
        "bad_table",
    )
    assert list(body["errors"]) == ["options"], body
    made = client.post(
        "/v1/tables",
        json={**table, "options": {"king_feat": "announced"}},
        headers=player["headers"],
    )
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["options"] == {
        "first_declarer_card": "2D",
        "first_four_penalties": True,
        "king_feat": "announced",
        "max_redeals_per_hand": 3,
    }
    short = client.post("/v1/tables", json={**table, "hands": 8}, headers=player["headers"])
    assert short.status_code == 422 and short.get_json()["code"] == "bad_table"


@pytest.mark.parametrize(
    "seed", ["z" * 64, "ab" * 31, "ab" * 33, "", "ab" * 31 + "a"], ids=lambda s: f"{len(s)}"
)
def test_every_seed_that_is_not_64_hex_characters_is_a_bad_seed(client, seed):
    owner, player = signup(client), signup(client)
    table = client.post("/v1/tables", json={"mode": "live", "sit": False}, headers=owner["headers"])
    path = f"/v1/tables/{table.get_json()['id']}"
    before = client.get(path, headers=player["headers"]).get_json()
    body = problem(
        client.post(f"{path}/seats", json={"client_seed": seed}, headers=player["headers"]),
        422,
        "bad_seed",
    )
    assert "client_seed" in body["errors"]
    assert client.get(path, headers=player["headers"]).get_json() == before


def test_unauthenticated(client):
    problem(client.get("/v1/me"), 401, "unauthenticated")
    problem(client.get("/v1/me", headers={"Authorization": "Bearer nope"}), 401, "unauthenticated")


def test_not_found(client):
    player = signup(client)
    problem(client.get("/v1/matches/not-a-uuid", headers=player["headers"]), 404, "not_found")
    problem(
        client.get("/v1/tables/00000000-0000-0000-0000-000000000000", headers=player["headers"]),
        404,
        "not_found",
    )


def test_forbidden_for_a_stranger_and_on_a_computer_table(client, live):
    match_id, _ = live
    stranger = signup(client)
    problem(client.get(f"/v1/matches/{match_id}", headers=stranger["headers"]), 403, "not_seated")
    owner = signup(client)
    table = client.post("/v1/tables", json={"mode": "computer"}, headers=owner["headers"])
    problem(
        client.post(
            f"/v1/tables/{table.get_json()['id']}/seats", json={}, headers=stranger["headers"]
        ),
        403,
        "forbidden",
    )


def test_one_player_cannot_act_for_another_seat(client, live):
    match_id, players = live
    turn, _ = mover(client, match_id, players)
    other = players[(turn + 1) % 4]
    before = view(client, match_id, other)["version"]
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves", json={"move": "queens"}, headers=other["headers"]
        ),
        409,
        "not_your_turn",
    )
    assert view(client, match_id, other)["version"] == before


def test_contract_unavailable_and_illegal_card(client, live):
    match_id, players = live
    _, player = mover(client, match_id, players)
    mine = view(client, match_id, player)
    allowed = {c["move"] for c in mine["view"]["allowed_contracts"]}
    # In an 8-hand match each player picks one penalty and one Koz: pick the penalty...
    penalty = next(m for m in sorted(allowed) if not m.startswith("trump"))
    assert (
        client.post(
            f"/v1/matches/{match_id}/moves", json={"move": penalty}, headers=player["headers"]
        ).status_code
        == 200
    )
    # ...then find a card that breaks a rule: some seat holds one before the hand's 52 plays end.
    for _ in range(52):
        _turn, player = mover(client, match_id, players)
        mine = view(client, match_id, player)
        illegal = set(mine["view"]["my_cards"]) - set(mine["view"]["legal_cards"])
        if illegal:
            body = problem(
                client.post(
                    f"/v1/matches/{match_id}/moves",
                    json={"card": sorted(illegal)[0]},
                    headers=player["headers"],
                ),
                422,
                "illegal_card",
            )
            assert body["details"]["rule"]
            break
        client.post(
            f"/v1/matches/{match_id}/moves",
            json=choose_move(mine["view"]),
            headers=player["headers"],
        )
    else:
        pytest.fail("no card of this hand broke a rule for the seat to play")


def test_contract_unavailable(client, live):
    match_id, players = live
    # Hand 0 is declared by seat 0; a penalty contract is capped at one use per 8-hand match.
    first = view(client, match_id, players[0])
    penalty = next(
        m["move"] for m in first["view"]["allowed_contracts"] if m["contract"] != "trump"
    )
    client.post(
        f"/v1/matches/{match_id}/moves", json={"move": penalty}, headers=players[0]["headers"]
    )
    # Play hand 0 out, then seat 1 declares hand 1 and asks for the used contract.
    for n in range(60):
        _turn, player = mover(client, match_id, players)
        mine = view(client, match_id, player)
        if mine["view"]["allowed_contracts"]:
            break
        client.post(
            f"/v1/matches/{match_id}/moves",
            json=choose_move(mine["view"], n),
            headers=player["headers"],
        )
    body = problem(
        client.post(
            f"/v1/matches/{match_id}/moves", json={"move": penalty}, headers=player["headers"]
        ),
        422,
        "contract_unavailable",
    )
    assert body["details"]["reason"] == "cap" and body["details"]["allowed"]


def test_bad_move_text_and_trump_required(client, live):
    match_id, players = live
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            json={"move": "nonsense"},
            headers=players[0]["headers"],
        ),
        422,
        "unknown_contract",
    )
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            json={"contract": "trump"},
            headers=players[0]["headers"],
        ),
        422,
        "trump_required",
    )
    body = problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            json={"card": "QH", "move": "QH"},
            headers=players[0]["headers"],
        ),
        422,
        "validation_failed",
    )
    assert "move" in body["errors"]


def test_stale_version_gives_the_current_version(client, live):
    match_id, players = live
    mine = view(client, match_id, players[0])
    move = choose_move(mine["view"])
    body = problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            json={**move, "version": mine["version"] - 1},
            headers=players[0]["headers"],
        ),
        409,
        "stale_version",
    )
    assert body["current_version"] == mine["version"]


def test_seat_taken_and_table_full(client):
    players = [signup(client) for _ in range(5)]
    table = create_live_table(client, players[0])
    problem(
        client.post(
            f"/v1/tables/{table['id']}/seats", json={"seat": 0}, headers=players[1]["headers"]
        ),
        409,
        "seat_taken",
    )
    for player in players[1:4]:
        client.post(f"/v1/tables/{table['id']}/seats", json={}, headers=player["headers"])
    problem(
        client.post(f"/v1/tables/{table['id']}/seats", json={}, headers=players[4]["headers"]),
        409,
        "table_full",
    )


def test_match_over(client):
    player = signup(client)
    table = open_computer_table(client, player)
    resigned = client.post(f"/v1/matches/{table['id']}/resign", json={}, headers=player["headers"])
    assert resigned.status_code == 200
    problem(
        client.post(
            f"/v1/matches/{table['id']}/moves", json={"move": "queens"}, headers=player["headers"]
        ),
        409,
        "match_over",
    )
    assert client.get(f"/v1/matches/{table['id']}/fairness").status_code == 200


def test_payload_too_large(client):
    player = signup(client)
    problem(
        client.post(
            "/v1/tables",
            data="x" * 40_000,
            content_type="application/json",
            headers=player["headers"],
        ),
        413,
        "payload_too_large",
    )


def test_rate_limited_with_retry_after(settings):
    strict = create_app(make_settings(settings, rate_default="3/minute"))
    client = strict.test_client()
    player = signup(client)
    statuses = [client.get("/v1/me", headers=player["headers"]) for _ in range(5)]
    limited = [r for r in statuses if r.status_code == 429]
    assert limited
    problem(limited[0], 429, "rate_limited")
    assert int(limited[0].headers["Retry-After"]) >= 1


def test_moves_past_the_limit_are_rate_limited_and_change_nothing(settings):
    strict = create_app(make_settings(settings, rate_moves="3/minute"))
    client = strict.test_client()
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    before = client.get(f"/v1/matches/{match_id}", headers=players[1]["headers"]).get_json()
    # Refused attempts count too: seat 1 is not to move.
    answers = [
        client.post(
            f"/v1/matches/{match_id}/moves",
            json=choose_move(before["view"]) if before["view"]["legal_cards"] else {"card": "2C"},
            headers=players[1]["headers"],
        )
        for _ in range(4)
    ]
    assert [a.status_code for a in answers[:3]] != [429] * 3
    body = problem(answers[3], 429, "rate_limited")
    assert int(answers[3].headers["Retry-After"]) >= 1 and body["details"]["limit"] == 3
    after = client.get(f"/v1/matches/{match_id}", headers=players[1]["headers"]).get_json()
    assert after["version"] == before["version"]
    # Another player's moves are counted apart.
    mine = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    moved = client.post(
        f"/v1/matches/{match_id}/moves",
        json=choose_move(mine["view"]),
        headers=players[0]["headers"],
    )
    assert moved.status_code == 200


def test_malformed_json_is_a_problem_not_a_crash(client):
    player = signup(client)
    response = client.post(
        "/v1/tables", data="{not json", content_type="application/json", headers=player["headers"]
    )
    assert response.status_code in (400, 422)
    assert response.mimetype == "application/problem+json"


def test_out_of_range_numbers_are_validation_errors(client):
    player = signup(client)
    match_id = open_computer_table(client, player)["id"]
    problem(
        client.get(f"/v1/matches/{match_id}/events?after={10**30}", headers=player["headers"]),
        422,
        "validation_failed",
    )
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            json={"move": "queens", "version": -1},
            headers=player["headers"],
        ),
        422,
        "validation_failed",
    )


@pytest.mark.parametrize(
    ("setting", "limit", "window_s", "path", "body"),
    [
        ("rate_login", "2/minute", 60, "/v1/tokens", {"name": "nobody", "password": "wrong"}),
        ("rate_signup", "2/hour", 3600, "/v1/accounts", None),
    ],
)
def test_retry_after_is_the_rest_of_the_window(settings, setting, limit, window_s, path, body):
    strict = create_app(make_settings(settings, **{setting: limit}))
    client = client_at(strict)
    started = time.time()
    answers = [
        client.post(path, json=body or {"name": f"r{uuid.uuid4().hex[:10]}"}) for _ in range(3)
    ]
    problem(answers[2], 429, "rate_limited")
    elapsed = time.time() - started
    # The window opened with the first request: what is left of it, not a second.
    assert window_s - elapsed - 1 <= int(answers[2].headers["Retry-After"]) <= window_s + 1


@pytest.mark.parametrize("shortcut", [True, False], ids=["shortcut", "view"])
def test_moves_with_invented_tokens_are_limited_per_address(settings, shortcut):
    strict = create_app(
        make_settings(settings, rate_per_address="20/minute", moves_shortcut=shortcut)
    )
    client = client_at(strict)
    statuses = [
        client.post(
            f"/v1/matches/{uuid.uuid4()}/moves",
            json={"card": "QH", "version": 1},
            headers={"Authorization": f"Bearer {secrets.token_urlsafe(32)}"},
        ).status_code
        for _ in range(30)
    ]
    assert statuses.count(401) == 20 and statuses.count(429) == 10


#: 946 levels of arrays, about 1.9 KB: under the body cap, deeper than any body we take.
DEEP = "[" * 946 + "]" * 946


@pytest.mark.parametrize("body", [DEEP, '{"name": ' + DEEP + "}", '{"card": ' + DEEP + "}"])
def test_deeply_nested_json_is_a_bad_request_everywhere(client, live, body):
    match_id, players = live
    player = players[0]
    before = view(client, match_id, player)["version"]
    tables = client.get("/v1/tables", headers=player["headers"]).get_json()
    for path, headers in (
        ("/v1/accounts", {}),
        ("/v1/tokens", {}),
        ("/v1/tables", player["headers"]),
        (f"/v1/matches/{match_id}/moves", player["headers"]),
    ):
        response = client.post(path, data=body, content_type="application/json", headers=headers)
        problem(response, 400, "bad_request")
    assert client.get("/v1/tables", headers=player["headers"]).get_json() == tables
    assert view(client, match_id, player)["version"] == before


def test_nesting_up_to_the_limit_is_only_a_validation_question(client):
    # Not a parse error: the schema answers (a list is no string).
    nested = {"name": [[[["x"]]]]}
    problem(client.post("/v1/accounts", json=nested), 422, "validation_failed")


@pytest.mark.parametrize(
    "loose",
    [{"is_bot": "yes"}, {"is_bot": 1}, {"is_bot": None}, {"password": 12345678}],
)
def test_loose_types_in_a_sign_up_are_refused(client, loose):
    name = f"loose{uuid.uuid4().hex[:8]}"
    body = {"name": name, "password": "correct horse", **loose}
    problem(client.post("/v1/accounts", json=body), 422, "validation_failed")
    # Nothing was created: the name is free.
    assert client.post("/v1/accounts", json={"name": name, "password": "x" * 8}).status_code == 201


@pytest.mark.parametrize(
    "loose",
    [
        {"sit": 0},
        {"sit": "false"},
        {"hands": "8"},
        {"hands": 8.5},
        {"seat": "1"},
        {"seat": 1.9},
        {"seat": True},
    ],
)
def test_loose_types_at_a_table_are_refused(client, loose):
    player = signup(client)
    lobby = client.get("/v1/tables", headers=player["headers"]).get_json()
    problem(
        client.post("/v1/tables", json={"mode": "live", **loose}, headers=player["headers"]),
        422,
        "validation_failed",
    )
    assert client.get("/v1/tables", headers=player["headers"]).get_json() == lobby


@pytest.mark.parametrize("seat", ["1", 1.5, True])
def test_a_seat_must_be_an_integer(client, seat):
    creator, joiner = signup(client), signup(client)
    table = client.post("/v1/tables", json={"mode": "live"}, headers=creator["headers"]).get_json()
    problem(
        client.post(
            f"/v1/tables/{table['id']}/seats", json={"seat": seat}, headers=joiner["headers"]
        ),
        422,
        "validation_failed",
    )
    after = client.get(f"/v1/tables/{table['id']}", headers=creator["headers"]).get_json()
    assert after["seats"] == table["seats"] and after["version"] == table["version"]


def test_a_version_must_be_an_integer(client, live):
    match_id, players = live
    _turn, player = mover(client, match_id, players)
    seen = view(client, match_id, player)
    move = choose_move(seen["view"])
    version = seen["version"]
    for loose in (str(version), version + 0.9, True):
        problem(
            client.post(
                f"/v1/matches/{match_id}/moves",
                json={**move, "version": loose},
                headers=player["headers"],
            ),
            422,
            "validation_failed",
        )
        problem(
            client.post(
                f"/v1/matches/{match_id}/resign",
                json={"version": loose},
                headers=player["headers"],
            ),
            422,
            "validation_failed",
        )
    after = view(client, match_id, player)
    assert after["version"] == version and after["status"] == seen["status"]


def test_a_query_boolean_is_true_or_false(client, live):
    match_id, players = live
    for loose in ("yes", "1", "on"):
        problem(
            client.get(
                f"/v1/matches/{match_id}/stream?turns={loose}", headers=players[0]["headers"]
            ),
            422,
            "validation_failed",
        )


@pytest.mark.parametrize("after", ["5_0", "+5", "%205", "1.0", "0x10"])
def test_a_query_integer_is_decimal_digits(client, live, after):
    match_id, players = live
    problem(
        client.get(f"/v1/matches/{match_id}/events?after={after}", headers=players[0]["headers"]),
        422,
        "validation_failed",
    )


def test_a_whole_number_written_with_a_fraction_is_that_integer(client, live):
    """``41.0`` is the integer 41 (JSON Schema's ``integer``, which the document states), so
    a move at the current version written that way is applied once, like ``41``."""
    match_id, players = live
    _turn, player = mover(client, match_id, players)
    seen = view(client, match_id, player)
    moved = client.post(
        f"/v1/matches/{match_id}/moves",
        json={**choose_move(seen["view"]), "version": float(seen["version"])},
        headers=player["headers"],
    )
    assert moved.status_code == 200, moved.get_json()
    assert view(client, match_id, player)["version"] == seen["version"] + 1
