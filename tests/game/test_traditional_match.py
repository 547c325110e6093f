"""A ``traditional`` computer table through HTTP: the ♦2 holder declares first and every extra
phase's call goes through the one move endpoint.

The computer match is played for its first hands only: the whole match, with its end (çıkar /
batar, the penalty quota, ♦2 in the first declarer's deal by the transcript), is played over
HTTP by tests/e2e/test_full_product.py and in the page by tests/web/test_traditional_live.py."""

from __future__ import annotations

import time

import pytest

from .helpers import (
    EventFollower,
    assert_view_shows_only_my_cards,
    choose_move,
    signup,
    start_live_match,
    view,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

#: Hands scored before the test stops (it then resigns).
HANDS_PLAYED = 3


def test_a_traditional_computer_match_plays_its_first_hands(client, app, bot_worker, sweeper):
    me = signup(client)
    created = client.post(
        "/v1/tables",
        json={"mode": "computer", "ruleset": "traditional", "hands": 20, "level": "easy"},
        headers=me["headers"],
    )
    assert created.status_code == 201, created.get_json()
    match_id = created.get_json()["id"]
    seated = client.post(
        f"/v1/tables/{match_id}/seats", json={"client_seed": me["seed"]}, headers=me["headers"]
    )
    assert seated.status_code == 201
    first = client.get(f"/v1/matches/{match_id}", headers=me["headers"]).get_json()
    opener = first["view"]["first_declarer"]
    assert first["view"]["declarer"] == opener and first["view"]["ruleset"] == "traditional"
    assert (opener == 0) == ("2D" in first["view"]["my_cards"])
    deadline = time.monotonic() + 120
    moves = 0
    events = EventFollower(client, match_id, me)
    while time.monotonic() < deadline:
        body = client.get(f"/v1/matches/{match_id}", headers=me["headers"]).get_json()
        assert_view_shows_only_my_cards(body)
        assert body["status"] == "active", body["status"]
        if len(body["view"]["score_sheet"]) >= HANDS_PLAYED:
            break
        if not body["my_turn"]:
            assert body["view"]["legal_moves"] == []
            events.wait()
            continue
        move = choose_move(body["view"], moves)
        played = client.post(
            f"/v1/matches/{match_id}/moves",
            json={**move, "version": body["version"]},
            headers={**me["headers"], "Idempotency-Key": f"m{moves}"},
        )
        assert played.status_code in (200, 409), played.get_json()
        moves += 1
    sheet = body["view"]["score_sheet"]
    assert len(sheet) >= HANDS_PLAYED, "the first hands were not played in time"
    assert sheet[0]["declarer"] == opener
    resigned = client.post(f"/v1/matches/{match_id}/resign", json={}, headers=me["headers"])
    assert resigned.status_code == 200, resigned.get_json()


def test_a_live_redeal_round_asks_each_player_through_the_move_endpoint(client):
    """Rıfkı as the first contract opens a redeal round: each player in the ask order answers
    with the one move endpoint, under the same version and idempotency rules as a card."""
    players = [signup(client) for _ in range(4)]
    table = start_live_match(
        client, players, 20, ruleset="traditional", options={"first_four_penalties": False}
    )
    match_id = table["id"]
    views = [view(client, match_id, p) for p in players]
    declarer = views[0]["view"]["declarer"]
    assert [v["my_turn"] for v in views] == [s == declarer for s in range(4)]
    chosen = client.post(
        f"/v1/matches/{match_id}/moves",
        json={"move": "king_of_hearts", "version": views[0]["version"]},
        headers=players[declarer]["headers"],
    )
    assert chosen.status_code == 200, chosen.get_json()
    order = [(declarer + k) % 4 for k in (1, 2, 3)]
    for asked in order:
        bodies = [view(client, match_id, p) for p in players]
        assert {b["view"]["phase"] for b in bodies} == {"redeal_offer"}
        assert all(b["view"]["redeal_round"]["asked"] == asked for b in bodies)
        for seat, body in enumerate(bodies):
            if seat != asked:
                assert body["view"]["legal_moves"] == [] and not body["my_turn"]
        assert "keep" in bodies[asked]["view"]["legal_moves"]
        other = order[0] if asked != order[0] else declarer
        refused = client.post(
            f"/v1/matches/{match_id}/moves",
            json={"move": "keep"},
            headers=players[other]["headers"],
        )
        assert refused.status_code == 409 and refused.get_json()["code"] == "not_your_turn"
        version = bodies[asked]["version"]
        send = {
            "json": {"move": "keep", "version": version},
            "headers": {**players[asked]["headers"], "Idempotency-Key": f"keep-{asked}"},
        }
        first = client.post(f"/v1/matches/{match_id}/moves", **send)
        again = client.post(f"/v1/matches/{match_id}/moves", **send)
        assert first.status_code == again.status_code == 200, first.get_json()
        assert again.get_json() == first.get_json()
        assert first.get_json()["version"] == version + 1
        assert view(client, match_id, players[asked])["version"] == version + 1
    after = view(client, match_id, players[declarer])
    assert after["view"]["phase"] == "play" and after["my_turn"]
    assert after["view"]["redeal_round"] is None
