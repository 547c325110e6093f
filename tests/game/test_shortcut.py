"""The move shortcut (``king_game.shortcut``) answers exactly as the Flask view does.

Two apps share one Redis and Postgres: ``client`` has the shortcut (the default), ``flask``
has it turned off. Every request here goes to both, on the same match state, and the answers
must agree byte for byte (status, headers, body). The shortcut's own counters show which
requests it answered and which it passed on to the view.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from prometheus_client import REGISTRY

from king_game.app import create_app
from king_game.resources.matches.schemas import MoveSchema
from king_game.shortcut import MovesShortcut, plain_card_body

from .conftest import make_settings
from .helpers import choose_move, signup, view

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def flask_app(settings):
    return create_app(make_settings(settings, moves_shortcut=False))


@pytest.fixture
def flask(flask_app):
    return flask_app.test_client()


@pytest.fixture
def shortcut(app) -> MovesShortcut:
    wsgi = app.wsgi_app
    assert isinstance(wsgi, MovesShortcut)
    return wsgi


def _answer(response) -> tuple[int, list[tuple[str, str]], bytes]:
    return response.status_code, sorted(response.headers.items()), response.get_data()


def _both(client, flask, path: str, **kwargs: Any):
    """POST the same request to the shortcut app and to the Flask-only app: the two answers
    (asserted equal), and the first."""
    mine = client.post(path, **kwargs)
    theirs = flask.post(path, **kwargs)
    assert _answer(mine) == _answer(theirs)
    return mine


def _mover(client, match_id, players):
    body = view(client, match_id, players[0])
    seat = body["clock"]["turn"]
    return seat, players[seat], view(client, match_id, players[seat])


def test_refused_moves_get_the_same_answers(client, flask, shortcut, live):
    match_id, players = live
    path = f"/v1/matches/{match_id}/moves"
    seat, player, body = _mover(client, match_id, players)
    other = players[(seat + 1) % 4]
    version = body["version"]
    move = choose_move(body["view"])
    answered = shortcut.answered
    # Well formed, refused by the store or the engine: the shortcut answers them.
    refused = [
        ({**move, "version": version + 5}, player, 409, "stale_version"),
        ({**move, "version": version}, other, 409, "not_your_turn"),
        ({"card": "ZZ", "version": version}, player, 422, "bad_card"),
    ]
    if body["view"]["allowed_contracts"]:
        refused.append(({"card": "2C", "version": version}, player, 409, "wrong_phase"))
    else:
        hand = set(body["view"]["my_cards"])
        missing = next(c for c in ("2C", "3D", "4H", "5S", "AS", "AH") if c not in hand)
        refused.append(({"card": missing, "version": version}, player, 422, "card_not_in_hand"))
    for request, who, status, code in refused:
        response = _both(client, flask, path, json=request, headers=who["headers"])
        assert response.status_code == status, response.get_json()
        assert response.mimetype == "application/problem+json"
        if code:
            assert response.get_json()["code"] == code
    # "ZZ" is not a card: the engine refuses to parse it before the store is asked, so the
    # view answers that one.
    assert shortcut.answered - answered == len(refused) - 1
    assert view(client, match_id, player)["version"] == version


def test_malformed_requests_go_to_theview(client, flask, shortcut, live):
    match_id, players = live
    path = f"/v1/matches/{match_id}/moves"
    _seat, player, body = _mover(client, match_id, players)
    version = body["version"]
    move = {**choose_move(body["view"]), "version": version}
    stranger = signup(client)
    passed = shortcut.passed_on
    malformed: list[tuple[dict[str, Any], int]] = [
        ({"json": move}, 401),  # no token
        ({"json": move, "headers": {"Authorization": "Bearer nope"}}, 401),
        ({"json": move, "headers": {"Authorization": "Basic abc"}}, 401),
        ({"json": {**move, "extra": 1}, "headers": player["headers"]}, 422),
        ({"json": {"card": "2C", "move": "2C", "version": 1}, "headers": player["headers"]}, 422),
        ({"json": {"version": version}, "headers": player["headers"]}, 422),
        ({"json": [move], "headers": player["headers"]}, 422),
        ({"json": {**move, "version": "x"}, "headers": player["headers"]}, 422),
        (
            {
                "data": "{not json",
                "content_type": "application/json",
                "headers": player["headers"],
            },
            400,
        ),
        ({"data": "card=2C", "headers": player["headers"]}, 422),  # a form, not JSON
        (
            {
                "data": "x" * 20_000,
                "content_type": "application/json",
                "headers": player["headers"],
            },
            413,
        ),
        (
            {"json": move, "headers": {**player["headers"], "Idempotency-Key": "k" * 200}},
            422,
        ),
        # Nested deeper than any body (the view's parser refuses it: 400, not a crash).
        *(
            ({"data": deep, "content_type": "application/json", "headers": player["headers"]}, 400)
            for deep in ("[" * 946 + "]" * 946, '{"card": ' + "[" * 946 + "]" * 946 + "}")
        ),
        # Loose types: a version as text or a float is not an integer.
        ({"json": {**move, "version": str(version)}, "headers": player["headers"]}, 422),
        ({"json": {**move, "version": version + 0.9}, "headers": player["headers"]}, 422),
    ]
    for kwargs, status in malformed:
        response = _both(client, flask, path, **kwargs)
        assert response.status_code == status, (kwargs, response.get_data(as_text=True))
        assert response.mimetype == "application/problem+json"
    assert shortcut.passed_on - passed == len(malformed)
    # Well formed but about someone else's match, or one that does not exist: the store
    # refuses them, the shortcut answers.
    answered = shortcut.answered
    _both(client, flask, path, json=move, headers=stranger["headers"])
    _both(client, flask, "/v1/matches/no-such-match/moves", json=move, headers=player["headers"])
    assert shortcut.answered - answered == 2
    assert view(client, match_id, player)["version"] == version


def test_a_move_answers_as_the_view_and_replays_the_same(client, flask, shortcut, live):
    match_id, players = live
    path = f"/v1/matches/{match_id}/moves"
    for number in range(6):
        _seat, player, body = _mover(client, match_id, players)
        request = {**choose_move(body["view"]), "version": body["version"]}
        headers = {**player["headers"], "Idempotency-Key": f"shortcut-{number}"}
        answered = shortcut.answered
        first = client.post(path, json=request, headers=headers)
        assert first.status_code == 200 and shortcut.answered == answered + 1
        assert first.get_json()["version"] == body["version"] + 1
        # The Flask view replays the keyed answer: the same bytes and headers.
        replayed = flask.post(path, json=request, headers=headers)
        assert _answer(replayed) == _answer(first)
        # And the shortcut replays it too, applying nothing twice.
        assert _answer(client.post(path, json=request, headers=headers)) == _answer(first)
        assert view(client, match_id, player)["version"] == body["version"] + 1


def test_keyed_refusal_is_replayed_alike(client, flask, live):
    match_id, players = live
    path = f"/v1/matches/{match_id}/moves"
    _seat, player, body = _mover(client, match_id, players)
    headers = {**player["headers"], "Idempotency-Key": "stale-once"}
    request = {**choose_move(body["view"]), "version": body["version"] + 3}
    first = client.post(path, json=request, headers=headers)
    assert first.status_code == 409
    assert _answer(flask.post(path, json=request, headers=headers)) == _answer(first)


def test_shortcut_moves_are_counted_in_the_request_metrics(client, live):
    match_id, players = live
    labels = {
        "service": "game",
        "endpoint": "/v1/matches/<match_id>/moves",
        "method": "POST",
    }

    def count(status: str) -> float:
        value = REGISTRY.get_sample_value("king_http_requests_total", {**labels, "status": status})
        return value or 0.0

    ok, conflict = count("200"), count("409")
    _seat, player, body = _mover(client, match_id, players)
    request = {**choose_move(body["view"]), "version": body["version"]}
    path = f"/v1/matches/{match_id}/moves"
    assert client.post(path, json=request, headers=player["headers"]).status_code == 200
    assert client.post(path, json=request, headers=player["headers"]).status_code == 409
    assert count("200") == ok + 1
    assert count("409") == conflict + 1


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=2**53 + 5),
    st.sampled_from([-1, 0, 2**53, 2**53 + 1]),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.sampled_from(["2C", "10H", "QS", "AH", "queens", "trump:S"]),
    st.lists(st.integers(), max_size=2),
)


@given(
    st.one_of(
        st.dictionaries(
            st.sampled_from(["card", "version", "move", "contract", "trump", "extra"]),
            _VALUES,
            max_size=4,
        ),
        # Near the accepted shape: a card-like text with a version of any kind.
        st.fixed_dictionaries(
            {"card": st.text(min_size=1, max_size=4)},
            optional={"version": _VALUES, "move": _VALUES},
        ),
    )
)
@example({"card": "QH", "version": 2**53 + 1})
@example({"card": "QH", "version": 2**53})
@example({"card": "QH", "version": -1})
@example({"card": "QH", "version": True})
@example({"card": "QH", "version": 7.0})
@example({"card": "Q"})
@example({"card": "QHXX"})
@hypothesis_settings(max_examples=400, deadline=None)
def test_the_plain_card_check_agrees_with_the_schema(data):
    """Whenever the quick check accepts a body, the schema accepts it and loads the same."""
    quick = plain_card_body(data)
    if quick is None:
        return
    assert MoveSchema().load(data) == quick


@pytest.mark.parametrize("body", [{"card": "QH", "version": 7}, {"card": "10S"}])
def test_the_plain_card_check_takes_the_usual_bodies(body):
    assert plain_card_body(body) == MoveSchema().load(body)
