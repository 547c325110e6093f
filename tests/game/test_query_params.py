"""Query strings are read as documented: an undocumented or repeated query parameter is a 422
``validation_failed`` naming it, and nothing changes (issue 42, item 8)."""

from __future__ import annotations

import pytest

from .helpers import choose_move, signup, start_live_match, view

pytestmark = pytest.mark.integration


def _refused(response, name: str, message: str) -> None:
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    body = response.get_json()
    assert body["code"] == "validation_failed"
    assert body["errors"] == {name: [message]}


def test_undocumented_and_repeated_query_parameters_are_refused(client):
    player = signup(client)
    headers = player["headers"]
    _refused(client.get("/v1/me?verbose=1", headers=headers), "verbose", "unknown query parameter")
    _refused(
        client.get("/v1/tables?ruleset=x", headers=headers), "ruleset", "unknown query parameter"
    )


def test_a_follow_with_a_misspelt_or_repeated_parameter_is_refused(client, live):
    match_id, players = live
    headers = players[1]["headers"]
    events = f"/v1/matches/{match_id}/events"
    assert client.get(f"{events}?after=0", headers=headers).status_code == 200
    _refused(client.get(f"{events}?aftr=3", headers=headers), "aftr", "unknown query parameter")
    _refused(
        client.get(f"{events}?after=1&after=9", headers=headers), "after", "given more than once"
    )
    _refused(
        client.get(f"/v1/matches/{match_id}/stream?turns=true&turns=false", headers=headers),
        "turns",
        "given more than once",
    )


def test_a_move_with_a_query_string_is_refused_and_not_played(client):
    players = [signup(client) for _ in range(4)]
    match_id = start_live_match(client, players)["id"]
    seat = next(s for s in range(4) if view(client, match_id, players[s])["my_turn"])
    before = view(client, match_id, players[seat])
    answer = client.post(
        f"/v1/matches/{match_id}/moves?dry_run=1",
        json={**choose_move(before["view"]), "version": before["version"]},
        headers=players[seat]["headers"],
    )
    _refused(answer, "dry_run", "unknown query parameter")
    assert view(client, match_id, players[seat])["version"] == before["version"]
