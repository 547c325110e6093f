"""Concurrency and restarts: a move sent twice at once applies once, an Idempotency-Key retry
gets the first answer, two service processes serving one match agree, and a restart of the
service mid-match loses nothing."""

from __future__ import annotations

import contextlib
import random
import threading
import time

import pytest

from king_game.accounts import Accounts, token_hash
from king_game.app import create_app

from .helpers import choose_move, signup
from .test_live_match import open_live_table

pytestmark = pytest.mark.integration


def turn_of(client, match_id, players):
    look = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    turn = look["clock"]["turn"]
    mine = client.get(f"/v1/matches/{match_id}", headers=players[turn]["headers"]).get_json()
    return players[turn], mine


def test_the_same_move_sent_twice_at_once_applies_once(app, client):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    player, mine = turn_of(client, match_id, players)
    move = choose_move(mine["view"])
    answers: list[int] = []

    def send() -> None:
        response = app.test_client().post(
            f"/v1/matches/{match_id}/moves",
            json={**move, "version": mine["version"]},
            headers=player["headers"],
        )
        answers.append(response.status_code)

    threads = [threading.Thread(target=send) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 409, 409, 409, 409]
    after = client.get(f"/v1/matches/{match_id}", headers=player["headers"]).get_json()
    assert after["version"] == mine["version"] + 1


def test_a_retry_with_the_same_idempotency_key_gets_the_first_answer(client):
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    player, mine = turn_of(client, match_id, players)
    move = choose_move(mine["view"])
    headers = {**player["headers"], "Idempotency-Key": "retry-me"}
    first = client.post(f"/v1/matches/{match_id}/moves", json=move, headers=headers)
    second = client.post(f"/v1/matches/{match_id}/moves", json=move, headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.get_json() == second.get_json()
    after = client.get(f"/v1/matches/{match_id}", headers=player["headers"]).get_json()
    assert after["version"] == mine["version"] + 1
    reused = client.post(f"/v1/matches/{match_id}/moves", json={"card": "2C"}, headers=headers)
    assert reused.status_code == 422 and reused.get_json()["code"] == "idempotency_key_reused"


def test_two_service_processes_serving_one_match_stay_consistent(settings, client):
    other = create_app(settings).test_client()  # a second copy: its own pools and store
    players = [signup(client) for _ in range(4)]
    match_id = open_live_table(client, players)["id"]
    for n in range(40):
        service = client if n % 2 else other
        player, mine = turn_of(service, match_id, players)
        response = service.post(
            f"/v1/matches/{match_id}/moves",
            json={**choose_move(mine["view"], n), "version": mine["version"]},
            headers=player["headers"],
        )
        assert response.status_code == 200, response.get_json()
    a = client.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    b = other.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    assert a["version"] == b["version"] and a["view"] == b["view"]
    events = client.get(
        f"/v1/matches/{match_id}/events?after=0", headers=players[0]["headers"]
    ).get_json()["events"]
    played = [e for e in events if e["type"] in ("card_played", "contract_chosen")]
    assert len(played) == 40


def test_restarting_the_service_mid_match_loses_nothing(settings):
    first = create_app(settings).test_client()
    players = [signup(first) for _ in range(4)]
    match_id = open_live_table(first, players)["id"]
    for n in range(10):
        player, mine = turn_of(first, match_id, players)
        first.post(
            f"/v1/matches/{match_id}/moves",
            json=choose_move(mine["view"], n),
            headers=player["headers"],
        )
    before = first.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    del first  # the old process is gone; a new one starts from the environment alone
    restarted = create_app(settings).test_client()
    after = restarted.get(f"/v1/matches/{match_id}", headers=players[0]["headers"]).get_json()
    assert after["version"] == before["version"] and after["view"] == before["view"]
    player, mine = turn_of(restarted, match_id, players)
    moved = restarted.post(
        f"/v1/matches/{match_id}/moves", json=choose_move(mine["view"]), headers=player["headers"]
    )
    assert moved.status_code == 200


class PausingPool:
    """The service's real Postgres pool, running ``after_query`` once, right after a query's
    connection is given back: between a token lookup's Postgres read and its cache writes."""

    def __init__(self, pool, after_query):
        self.pool = pool
        self.after_query = after_query

    @contextlib.contextmanager
    def connection(self):
        with self.pool.connection() as conn:
            yield conn
        hook, self.after_query = self.after_query, None
        if hook is not None:
            hook()


@pytest.mark.parametrize("broadcast", ["during the lookup", "after the lookup"])
def test_a_revocation_during_a_token_lookup_wins(app, client, broadcast):
    """Another copy of the service looks a token up; the token is revoked after that copy
    read Postgres and before it cached the answer. Afterwards no copy accepts the token."""
    context = app.extensions["king_game"]
    accounts = context.accounts
    player = signup(client)
    digest = token_hash(player["token"]).hex()

    def revoke() -> None:
        assert client.delete("/v1/tokens/current", headers=player["headers"]).status_code == 204
        if broadcast == "during the lookup":
            other.forget(digest)  # the revocation's message reaches the other copy now

    other = Accounts(
        PausingPool(accounts.pool, revoke), accounts.redis, accounts.prefix, accounts.cache_s
    )
    other.authenticate(player["token"])  # began before the revocation: may still succeed
    if broadcast == "after the lookup":
        other.forget(digest)
    fresh = Accounts(accounts.pool, accounts.redis, accounts.prefix, accounts.cache_s)
    assert other.authenticate(player["token"]) is None
    assert fresh.authenticate(player["token"]) is None
    assert client.get("/v1/me", headers=player["headers"]).status_code == 401


class SlowPool(PausingPool):
    """The real pool, pausing a few milliseconds after every query (a busy process)."""

    def __init__(self, pool):
        super().__init__(pool, None)

    @contextlib.contextmanager
    def connection(self):
        with self.pool.connection() as conn:
            yield conn
        time.sleep(random.uniform(0, 0.004))


def test_revocations_win_against_lookups_in_threads(app, client):
    """Threads of two other copies look tokens up over and over while each token is revoked;
    once the revocation has answered, no copy accepts the token."""
    accounts = app.extensions["king_game"].accounts
    copies = [
        Accounts(SlowPool(accounts.pool), accounts.redis, accounts.prefix, accounts.cache_s)
        for _ in range(2)
    ]
    for _ in range(15):
        player = signup(client)
        stop = threading.Event()

        def look(copy: Accounts, token: str, stop: threading.Event) -> None:
            while not stop.is_set():
                copy.authenticate(token)

        threads = [
            threading.Thread(target=look, args=(copy, player["token"], stop))
            for copy in copies
            for _ in "ab"
        ]
        for thread in threads:
            thread.start()
        time.sleep(random.uniform(0, 0.01))
        accounts.revoke(player["token"])
        for copy in copies:  # the broadcast, at the latest now
            copy.forget(token_hash(player["token"]).hex())
        stop.set()
        for thread in threads:
            thread.join()
        assert [copy.authenticate(player["token"]) for copy in copies] == [None, None]
        assert client.get("/v1/me", headers=player["headers"]).status_code == 401
