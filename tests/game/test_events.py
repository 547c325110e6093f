"""Following a match: ETags, long-poll, the NDJSON stream (resumable, heartbeat, final event),
my matches, and the public events never holding a hand."""

from __future__ import annotations

import json
import threading
import time

import pytest

from king_match.served import SERVED_RULESETS

from .helpers import choose_move, open_computer_table, signup
from .test_live_match import open_live_table

pytestmark = pytest.mark.integration


def test_etag_and_if_none_match(client):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    first = client.get(f"/v1/matches/{match_id}", headers=players[1]["headers"])
    etag = first.headers["ETag"]
    again = client.get(
        f"/v1/matches/{match_id}", headers={**players[1]["headers"], "If-None-Match": etag}
    )
    assert again.status_code == 304 and again.get_data() == b""
    mine = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    client.post(
        f"/v1/matches/{match_id}/moves",
        json=choose_move(mine["view"]),
        headers=players[0]["headers"],
    )
    changed = client.get(
        f"/v1/matches/{match_id}", headers={**players[1]["headers"], "If-None-Match": etag}
    )
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_long_poll_waits_for_the_next_event(app, client):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    page = client.get(
        f"/v1/matches/{match_id}/events?after=0", headers=players[1]["headers"]
    ).get_json()
    last = page["last_seq"]
    assert [e["seq"] for e in page["events"]] == list(range(1, last + 1))
    mine = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()

    def move_soon() -> None:
        time.sleep(0.3)
        app.test_client().post(
            f"/v1/matches/{match_id}/moves",
            json=choose_move(mine["view"]),
            headers=players[0]["headers"],
        )

    thread = threading.Thread(target=move_soon)
    thread.start()
    waited = client.get(
        f"/v1/matches/{match_id}/events?after={last}&wait=3", headers=players[1]["headers"]
    ).get_json()
    thread.join()
    assert waited["events"] and waited["events"][0]["seq"] == last + 1
    assert waited["events"][0]["type"] == "contract_chosen"


def test_stream_resumes_and_ends_with_match_finished(client):
    player = signup(client)
    match_id = open_computer_table(client, player)["id"]
    client.post(f"/v1/matches/{match_id}/resign", json={}, headers=player["headers"])
    response = client.get(f"/v1/matches/{match_id}/stream?after=2", headers=player["headers"])
    assert response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert lines[0]["seq"] == 3
    assert lines[-1]["type"] == "match_finished" and lines[-1]["outcome"] == "aborted"


def test_stream_sends_heartbeats_while_nothing_happens(client, app):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    last = client.get(
        f"/v1/matches/{match_id}/events?after=0", headers=players[1]["headers"]
    ).get_json()["last_seq"]
    response = client.get(
        f"/v1/matches/{match_id}/stream?after={last}", headers=players[1]["headers"], buffered=False
    )
    first = json.loads(next(response.response))
    response.close()
    assert first["type"] == "heartbeat" and "server_time_ms" in first


def test_my_matches_lists_the_urgent_one_first(client):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    mine = client.get("/v1/me/matches", headers=players[0]["headers"]).get_json()
    assert mine["active"][0]["id"] == match_id and mine["active"][0]["my_turn"] is True
    theirs = client.get("/v1/me/matches", headers=players[1]["headers"]).get_json()
    assert theirs["active"][0]["my_turn"] is False


def test_rules_are_public(client):
    rules = client.get("/v1/rules").get_json()
    assert len(rules["cards"]) == 52 and rules["cards"][0] == "2C"
    assert {c["code"] for c in rules["contracts"]} >= {"queens", "trump"}
    assert rules["clocks"]["live"]["move_ms"] > 0
    described = {r["name"]: r for r in rules["rulesets"]}
    assert list(described) == list(SERVED_RULESETS)
    for name, ruleset in SERVED_RULESETS.items():
        entry = described[name]
        assert entry["hands"] == entry["lengths"] == list(ruleset.lengths)
        assert entry["deck_size"] == 52 and entry["id"] == ruleset.id
        assert entry["options"] == [spec.describe() for spec in ruleset.option_specs]
        assert "contracts" not in entry and entry["first_declarer"]


def test_health_and_readiness(client):
    assert client.get("/healthz").status_code == 200
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["checks"] == {
        "redis": "ok",
        "postgres": "ok",
    }


def test_openapi_documents_problem_json_errors(client):
    spec = client.get("/openapi.json").get_json()
    move = spec["paths"]["/v1/matches/{match_id}/moves"]["post"]
    assert "409" in move["responses"] and "422" in move["responses"]
    assert "application/problem+json" in move["responses"]["409"]["content"]
    responses = spec["components"]["responses"]
    assert "application/problem+json" in responses["DEFAULT_ERROR"]["content"]
    assert "application/problem+json" in responses["UNPROCESSABLE_ENTITY"]["content"]
    schema = spec["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "detail", "code", "errors"} <= schema.keys()
    assert client.get("/docs").status_code == 200


def test_a_stream_with_turns_announces_each_turn_privately(app, client):
    """Four clients play from their streams alone (turns=true): no view reads."""
    from .helpers import assert_view_shows_only_my_cards

    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    moves_each = 5  # the contract and the first trick and a bit, for every seat
    seen: dict[int, list[dict]] = {seat: [] for seat in range(4)}
    errors: list[BaseException] = []

    def play(seat: int) -> None:
        try:
            own = app.test_client()
            headers = players[seat]["headers"]
            response = own.get(
                f"/v1/matches/{match_id}/stream?after=0&turns=true",
                headers=headers,
                buffered=False,
            )
            played = 0
            for raw in response.response:
                for text in raw.decode().splitlines():
                    line = json.loads(text)
                    if line["type"] != "your_turn":
                        continue
                    seen[seat].append(line)
                    view = line["match"]["view"]
                    answer = own.post(
                        f"/v1/matches/{match_id}/moves",
                        json={**choose_move(view), "version": line["version"]},
                        headers=headers,
                    )
                    assert answer.status_code == 200, answer.get_json()
                    played += 1
                if played == moves_each:
                    break
            response.close()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    for seat, lines in seen.items():
        assert len(lines) >= moves_each
        for line in lines:
            body = line["match"]
            assert body["seat"] == seat and body["my_turn"] is True
            assert body["version"] == line["version"]
            assert_view_shows_only_my_cards(body)
        versions = [line["version"] for line in lines]
        assert versions == sorted(set(versions))  # once per version, in order


def test_your_turn_carries_what_the_view_read_answers(client):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    read = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    assert read["my_turn"]
    response = client.get(
        f"/v1/matches/{match_id}/stream?after=0&turns=true",
        headers=players[0]["headers"],
        buffered=False,
    )
    first = json.loads(next(iter(response.response)).decode().splitlines()[0])
    response.close()
    assert first["type"] == "your_turn"
    streamed = first["match"]
    for body in (read, streamed):
        body["clock"].pop("server_time_ms")
    assert streamed == read
    # Someone else's stream never carries it.
    other = client.get(
        f"/v1/matches/{match_id}/stream?after=0&turns=true",
        headers=players[1]["headers"],
        buffered=False,
    )
    text = next(iter(other.response)).decode()
    other.close()
    assert "your_turn" not in text
