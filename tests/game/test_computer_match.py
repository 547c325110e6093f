"""A computer table played to the end through HTTP by a scripted human, with the real RQ bot
worker answering the bots' seats; checked for secrecy on every response, then verified."""

from __future__ import annotations

import json
import time

import pytest

from king_message import FinishedMatch

from . import verifier
from .helpers import (
    EventFollower,
    assert_view_shows_only_my_cards,
    choose_move,
    finished_match_job,
    signup,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_a_computer_match_is_played_to_the_end(client, app, bot_worker, sweeper):
    me = signup(client)
    created = client.post(
        "/v1/tables", json={"mode": "computer", "hands": 8, "level": "easy"}, headers=me["headers"]
    )
    assert created.status_code == 201
    match_id, commit = created.get_json()["id"], created.get_json()["server_commit"]
    assert created.get_json()["status"] == "waiting"
    seated = client.post(
        f"/v1/tables/{match_id}/seats", json={"client_seed": me["seed"]}, headers=me["headers"]
    )
    assert seated.status_code == 201
    table = seated.get_json()["table"]
    assert table["status"] == "active" and table["ranked"] is False
    store = app.extensions["king_game"].store
    record, _ = store.load(match_id)
    seen_text: list[str] = [created.get_data(as_text=True), seated.get_data(as_text=True)]
    deadline = time.monotonic() + 120
    moves = 0
    events = EventFollower(client, match_id, me)
    while time.monotonic() < deadline:
        response = client.get(f"/v1/matches/{match_id}", headers=me["headers"])
        assert response.status_code == 200
        seen_text.append(response.get_data(as_text=True))
        body = response.get_json()
        assert_view_shows_only_my_cards(body)
        if body["status"] != "active":
            break
        if not body["my_turn"]:
            seen_text.append(events.wait())
            continue
        move = choose_move(body["view"], moves)
        played = client.post(
            f"/v1/matches/{match_id}/moves",
            json={**move, "version": body["version"]},
            headers={**me["headers"], "Idempotency-Key": f"m{moves}"},
        )
        assert played.status_code in (200, 409), played.get_json()
        seen_text.append(played.get_data(as_text=True))
        moves += 1
    assert body["status"] == "finished", body["status"]
    assert sorted(body["places"]) == sorted(body["places"]) and len(body["places"]) == 4
    # Nothing shown during the match held the server seed.
    for text in seen_text[:-1]:
        assert record.server_seed not in text
    transcript = client.get(f"/v1/matches/{match_id}/fairness").get_json()
    first = verifier.verify(transcript, commit, my_seat=0, my_seed=me["seed"])
    assert first is not None and len(transcript["hands"]) == 8
    assert transcript["seed_sources"] == ["client", "bot", "bot", "bot"]
    # The finished-match message: stored for a week and on the ratings queue as JSON.
    message = store.finished_message(match_id)
    assert message is not None and message.mode == "computer" and not message.ranked
    assert store.redis.ttl(store.keys.finished(match_id)) >= 7 * 24 * 3600
    job = finished_match_job(store.redis, match_id)
    assert job.func_name == "king_rating.jobs.ingest_finished_match"
    queued = FinishedMatch.from_json(job.args[0])
    assert queued == message
    assert json.loads(job.args[0])["fairness"]["spec"] == "KINGDEAL-v1"
