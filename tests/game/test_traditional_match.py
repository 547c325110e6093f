"""A ``traditional`` computer table through HTTP: the ♦2 holder declares first, every extra
phase's call goes through the one move endpoint, and the end carries çıkar / batar."""

from __future__ import annotations

import time

import pytest

from . import verifier
from .helpers import assert_view_shows_only_my_cards, choose_move, signup

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_a_traditional_computer_match_is_played_to_the_end(client, app, bot_worker, sweeper):
    me = signup(client)
    created = client.post(
        "/v1/tables",
        json={"mode": "computer", "ruleset": "traditional", "hands": 20, "level": "easy"},
        headers=me["headers"],
    )
    assert created.status_code == 201, created.get_json()
    match_id, commit = created.get_json()["id"], created.get_json()["server_commit"]
    seated = client.post(
        f"/v1/tables/{match_id}/seats", json={"client_seed": me["seed"]}, headers=me["headers"]
    )
    assert seated.status_code == 201
    first = client.get(f"/v1/matches/{match_id}", headers=me["headers"]).get_json()
    opener = first["view"]["first_declarer"]
    assert first["view"]["declarer"] == opener and first["view"]["ruleset"] == "traditional"
    if "2D" in first["view"]["my_cards"]:
        assert opener == 0
    calls_sent = 0
    deadline = time.monotonic() + 240
    moves = 0
    while time.monotonic() < deadline:
        body = client.get(f"/v1/matches/{match_id}", headers=me["headers"]).get_json()
        assert_view_shows_only_my_cards(body)
        if body["status"] != "active":
            break
        if not body["my_turn"]:
            assert body["view"]["legal_moves"] == []
            client.get(f"/v1/matches/{match_id}/events?after=0&wait=1", headers=me["headers"])
            continue
        move = choose_move(body["view"], moves)
        calls_sent += move.get("move") in ("keep", "pass")
        played = client.post(
            f"/v1/matches/{match_id}/moves",
            json={**move, "version": body["version"]},
            headers={**me["headers"], "Idempotency-Key": f"m{moves}"},
        )
        assert played.status_code in (200, 409), played.get_json()
        moves += 1
    assert body["status"] == "finished", body["status"]
    # Rıfkı is picked at most twice per match, each time with a redeal round that asks us too.
    assert body["end_reason"] in ("played_out", "king")
    totals = body["view"]["totals"]
    labels = ["cikar" if t >= 0 else "batar" for t in totals]
    if body["end_reason"] == "played_out":
        assert body["seat_outcomes"] == labels and sum(totals) == 0
        assert body["winners"] == [s for s in range(4) if totals[s] >= 0]
    else:
        king = body["king_seat"]
        assert body["winners"] == [king] and body["places"][king] == 1
    contracts = [row["contract"] for row in body["view"]["score_sheet"]]
    assert all(contracts.count(c) <= 2 for c in set(contracts) if c != "trump")
    # The transcript re-deals every deal, thrown ones too, from the revealed seeds.
    transcript = client.get(f"/v1/matches/{match_id}/fairness").get_json()
    deal0 = verifier.verify(transcript, commit, my_seat=0, my_seed=me["seed"])
    assert deal0 is not None
    assert transcript["first_declarer"] == opener and "2D" in deal0[opener]
    # Each Rıfkı hand asks every seat in turn, so we answered at least once if one was played.
    if "king_of_hearts" in contracts:
        assert calls_sent >= 1
