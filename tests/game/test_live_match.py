"""A live table with four scripted clients: one stops answering, loses on time (ranked
last), a bot finishes the seat, and the rating message says so."""

from __future__ import annotations

import time

import pytest

from . import verifier
from .helpers import (
    assert_view_shows_only_my_cards,
    choose_move,
    create_live_table,
    finished_match_job,
    seat_the_others,
    signup,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def open_live_table(client, players, hands=8):
    table = create_live_table(client, players[0], hands)
    lobby = client.get("/v1/tables", headers=players[1]["headers"]).get_json()
    assert table["id"] in [t["id"] for t in lobby["tables"]]
    seat_the_others(client, table, players)
    return table


def test_live_match_with_a_timeout_forfeit_and_a_bot_takeover(client, app, bot_worker, sweeper):
    players = [signup(client) for _ in range(4)]
    table = open_live_table(client, players)
    match_id = table["id"]
    store = app.extensions["king_game"].store
    server_seed = store.load(match_id)[0].server_seed
    quitter = 2
    moves = 0
    quit_at = 30
    deadline = time.monotonic() + 150
    body = None
    while time.monotonic() < deadline:
        look = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
        if look["status"] != "active":
            body = look
            break
        turn = look["clock"]["turn"]
        if turn == quitter and moves >= quit_at:
            # The quitter has stopped: wait (the sweeper will forfeit them) by long-polling.
            client.get(
                f"/v1/matches/{match_id}/events?after={look['version']}&wait=1",
                headers=players[0]["headers"],
            )
            continue
        if look["seats"][turn]["automated"]:
            time.sleep(0.02)
            continue
        player = players[turn]
        response = client.get(f"/v1/matches/{match_id}", headers=player["headers"])
        text = response.get_data(as_text=True)
        assert server_seed not in text
        mine = response.get_json()
        assert_view_shows_only_my_cards(mine)
        if not mine["my_turn"]:
            continue
        played = client.post(
            f"/v1/matches/{match_id}/moves",
            json={**choose_move(mine["view"], moves), "version": mine["version"]},
            headers={**player["headers"], "Idempotency-Key": f"k{moves}"},
        )
        assert played.status_code in (200, 409), played.get_json()
        moves += 1
    assert body is not None, "the match did not finish in time"
    assert body["status"] == "finished" and body["outcome"] == "forfeit"
    assert body["forfeits"] == [quitter]
    assert body["places"][quitter] == 4
    assert body["seats"][quitter]["automated"] and body["seats"][quitter]["forfeited"]
    # The quitter cannot move any more, and their events say why.
    late = client.post(
        f"/v1/matches/{match_id}/moves", json={"card": "2C"}, headers=players[quitter]["headers"]
    )
    assert late.status_code == 409 and late.get_json()["code"] in ("match_over", "seat_forfeited")
    message = store.finished_message(match_id)
    assert message is not None and message.ranked and message.mode == "live"
    assert message.outcome == "forfeit"
    quit_seat = message.players[quitter]
    assert quit_seat.forfeited and quit_seat.forfeit_order == 1 and quit_seat.place == 4
    job = finished_match_job(store.redis, match_id)
    assert job.origin == "ratings"
    transcript = client.get(f"/v1/matches/{match_id}/fairness").get_json()
    verifier.verify(transcript, table["server_commit"], my_seat=1, my_seed=players[1]["seed"])
    assert transcript["seed_sources"] == ["client"] * 4


def test_a_table_closed_before_the_start_still_reveals_its_seed(client):
    owner = signup(client)
    table = create_live_table(client, owner)
    early = client.get(f"/v1/matches/{table['id']}/fairness")
    assert early.status_code == 409 and early.get_json()["code"] == "match_not_over"
    left = client.delete(f"/v1/tables/{table['id']}/seats/me", headers=owner["headers"])
    assert left.status_code == 200 and left.get_json()["status"] == "aborted"
    transcript = client.get(f"/v1/matches/{table['id']}/fairness").get_json()
    verifier.verify(transcript, table["server_commit"])
    assert transcript["status"] == "aborted" and transcript["hands"] == []
