"""A token's life: revoking it ends its open streams and long-polls at once on every copy of the
service, and a token unused for its lifetime expires while one in use slides (issue 42, items 3
and 10)."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from king_devservers import free_port
from king_game.accounts import token_hash
from king_game.app import create_app

from .conftest import make_settings
from .helpers import choose_move, signup, start_live_match, view

pytestmark = pytest.mark.integration


@dataclass
class Reader:
    """A stream read in a thread: each line with the time it arrived, and when it ended."""

    lines: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    first: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    errors: list[BaseException] = field(default_factory=list)

    def read(self, client: FlaskClient, path: str, headers: dict[str, str]) -> None:
        def run() -> None:
            try:
                response = client.get(path, headers=headers, buffered=False)
                assert response.status_code == 200, response.get_data(as_text=True)
                for raw in response.response:
                    for text in raw.decode().splitlines():
                        self.lines.append((time.monotonic(), json.loads(text)))
                    self.first.set()
                response.close()
            except BaseException as exc:  # reported by the test
                self.errors.append(exc)
            finally:
                self.first.set()
                self.ended.set()

        threading.Thread(target=run, daemon=True).start()


def _open_follows(app: Flask) -> int:
    follows: int = app.extensions["king_game"].follows.open_count()
    return follows


def _wait_for(predicate: Any, within_s: float = 10.0) -> None:
    deadline = time.monotonic() + within_s
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _quiet_copy(settings: Any) -> Flask:
    """A copy of the service (its own token cache, Pub/Sub listener and follows) whose streams
    send no heartbeat during a test: every line would be an event or a turn."""
    return create_app(make_settings(settings, stream_heartbeat_s=60, longpoll_max_s=25))


@pytest.fixture
def other_app(settings: Any) -> Flask:
    return _quiet_copy(settings)


@pytest.fixture
def revoking_app(settings: Any) -> Flask:
    return _quiet_copy(settings)


def _live_match(client: FlaskClient) -> tuple[str, list[dict[str, Any]], int]:
    """A live match of four new players: (id, players by seat, the seat to move)."""
    players = [signup(client) for _ in range(4)]
    match_id = start_live_match(client, players)["id"]
    to_move = next(s for s in range(4) if view(client, match_id, players[s])["my_turn"])
    return match_id, players, to_move


def _move(client: FlaskClient, match_id: str, mover: dict[str, Any]) -> None:
    before = view(client, match_id, mover)
    move = {**choose_move(before["view"]), "version": before["version"]}
    answer = client.post(f"/v1/matches/{match_id}/moves", json=move, headers=mover["headers"])
    assert answer.status_code == 200, answer.get_json()


def test_a_revoked_tokens_streams_and_long_polls_end_at_once_on_every_copy(
    client, revoking_app, other_app
):
    match_id, players, to_move = _live_match(client)
    watcher = players[(to_move + 1) % 4]
    last = client.get(f"/v1/matches/{match_id}/events?after=0", headers=watcher["headers"])
    last_seq = last.get_json()["last_seq"]
    stream = f"/v1/matches/{match_id}/stream?after=0&turns=true"
    here, there = Reader(), Reader()
    here.read(revoking_app.test_client(), stream, watcher["headers"])  # the copy that revokes
    there.read(other_app.test_client(), stream, watcher["headers"])  # another copy
    polled: list[Any] = []

    def long_poll() -> None:
        polled.append(
            other_app.test_client().get(
                f"/v1/matches/{match_id}/events?after={last_seq}&wait=20",
                headers=watcher["headers"],
            )
        )
        polled.append(time.monotonic())

    poller = threading.Thread(target=long_poll, daemon=True)
    poller.start()
    assert here.first.wait(10) and there.first.wait(10)
    assert not here.errors and not there.errors, (here.errors, there.errors)
    _wait_for(lambda: _open_follows(other_app) == 2 and _open_follows(revoking_app) == 1)

    revoke = revoking_app.test_client().delete("/v1/tokens/current", headers=watcher["headers"])
    assert revoke.status_code == 204
    revoked = time.monotonic()
    for reader in (here, there):
        assert reader.ended.wait(max(0.0, revoked + 1.0 - time.monotonic())), "stream still open"
    poller.join(timeout=max(0.0, revoked + 1.0 - time.monotonic()))
    assert polled, "the long-poll still waits"
    answer, answered = polled
    assert answered - revoked < 1.0
    assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
    # The match goes on; nothing more reaches the revoked token's connections.
    _move(client, match_id, players[to_move])
    for reader in (here, there):
        assert not reader.errors, reader.errors
        assert [line for at, line in reader.lines if at > revoked] == []
    assert _open_follows(other_app) == 0 and _open_follows(revoking_app) == 0


def test_a_stream_whose_revocation_message_was_missed_ends_at_its_next_line(client, other_app):
    """The copy's Pub/Sub connection dropped (it clears its token cache then) while the token
    was revoked: the stream sends no line past the revocation, and ends."""
    match_id, players, to_move = _live_match(client)
    watcher = players[(to_move + 1) % 4]
    context = other_app.extensions["king_game"]
    reader = Reader()
    reader.read(
        other_app.test_client(), f"/v1/matches/{match_id}/stream?after=0", watcher["headers"]
    )
    assert reader.first.wait(10) and not reader.errors
    read_before = len(reader.lines)
    # The revocation as Accounts.revoke writes it, without its broadcast; then the reconnect.
    accounts = context.accounts
    digest = token_hash(watcher["token"])
    with accounts.pool.connection() as conn:
        conn.execute("UPDATE game.tokens SET revoked_at = now() WHERE token_hash = %s", (digest,))
    accounts.redis.set(accounts._cache_key(digest), "-", ex=60)
    accounts.forget(None)
    _move(client, match_id, players[to_move])
    assert reader.ended.wait(5), "the stream goes on"
    assert len(reader.lines) == read_before and not reader.errors


def test_a_revoked_tokens_quick_match_stream_ends_at_once(client, app, other_app):
    player = signup(client, password=None)  # (a guest: no rating lookup)
    joined = client.post(
        "/v1/quickmatch", json={"ruleset": "standard", "hands": 8}, headers=player["headers"]
    )
    assert joined.status_code == 200, joined.get_json()
    try:
        reader = Reader()
        reader.read(other_app.test_client(), "/v1/quickmatch/stream", player["headers"])
        assert reader.first.wait(10) and not reader.errors
        # (Its lines come every tick, as the window widens: only its end is checked here.)
        assert client.delete("/v1/tokens/current", headers=player["headers"]).status_code == 204
        assert reader.ended.wait(1.0), "the quick-match stream still runs"
        assert not reader.errors, reader.errors
    finally:  # (no other test's pool may meet this player)
        app.extensions["king_game"].quick.leave(player["id"])


# ------------------------------------------------------------------ lifetime


def _used_at(app: Flask, token: str, age_sql: str | None = None) -> Any:
    """The token's ``used_at``; first set to ``now() - <age_sql>`` when given."""
    pool = app.extensions["king_game"].accounts.pool
    with pool.connection() as conn:
        if age_sql is not None:
            conn.execute(
                f"UPDATE game.tokens SET used_at = now() - interval '{age_sql}'"
                " WHERE token_hash = %s",
                (token_hash(token),),
            )
        return conn.execute(
            "SELECT used_at, now() FROM game.tokens WHERE token_hash = %s", (token_hash(token),)
        ).fetchone()


def test_a_token_unused_for_its_lifetime_expires(client, app):
    player = signup(client)  # (never looked up yet: no cache holds it)
    _used_at(app, player["token"], "30 days 1 minute")
    for _ in range(2):  # (the second answer comes from the Redis cache)
        answer = client.get("/v1/me", headers=player["headers"])
        assert answer.status_code == 401 and answer.content_type == "application/problem+json"
        assert answer.get_json()["code"] == "token_expired"
        assert "invalid_token" in answer.headers["WWW-Authenticate"]
    # A move through the shortcut gets the same answer.
    moved = client.post(
        "/v1/matches/00000000-0000-0000-0000-000000000000/moves",
        json={"card": "QH", "version": 1},
        headers=player["headers"],
    )
    assert moved.status_code == 401 and moved.get_json()["code"] == "token_expired"


def test_a_token_in_use_slides_and_is_renewed_at_most_once_a_renewal_interval(client, app):
    player = signup(client)
    # Nearly expired, and last renewed long ago: a use renews it to a full lifetime.
    _used_at(app, player["token"], "29 days 23 hours")
    assert client.get("/v1/me", headers=player["headers"]).status_code == 200
    used_at, now = _used_at(app, player["token"])
    assert (now - used_at).total_seconds() < 60
    # Renewed an hour ago (less than the renewal interval): a lookup writes nothing.
    fresh = signup(client)
    used_before, _ = _used_at(app, fresh["token"], "1 hour")
    assert client.get("/v1/me", headers=fresh["headers"]).status_code == 200
    assert _used_at(app, fresh["token"])[0] == used_before


def test_a_lifetime_the_caches_could_outlive_is_refused_at_start(settings):
    with pytest.raises(ValueError, match="lifetime"):
        create_app(make_settings(settings, token_lifetime_s=3600, token_renew_s=3500))


def test_the_openapi_bearer_scheme_states_the_lifetime(client):
    spec = client.get("/openapi.json").get_json()
    text = spec["components"]["securitySchemes"]["bearer"]["description"]
    assert "30 days" in text and "token_expired" in text
    me = spec["paths"]["/v1/me"]["get"]["responses"]["401"]
    assert "token_expired" in me["content"]["application/problem+json"]["examples"]


# ------------------------------------------------------------------ real processes

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def two_servers(game_env: dict[str, str]) -> Iterator[list[int]]:
    """Two copies of the game service as deployed (deploy/gunicorn_game.py, one gevent
    GameWorker each) on the same Redis and Postgres: the ports."""
    prefix = f"tl{uuid.uuid4().hex[:8]}:"  # (their heartbeats reach no other test's sweeper)
    ports = [free_port(), free_port()]
    processes = []
    for port in ports:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("KING_", "GAME_"))},
            **game_env,
            "KING_KEY_PREFIX": prefix,
            "GAME_BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": "1",
            "GUNICORN_REUSE_PORT": "off",
        }
        config = str(REPO / "deploy" / "gunicorn_game.py")
        processes.append(
            subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", config, "king_game.app:create_app()"],
                env=env,
            )
        )
    try:
        for port, process in zip(ports, processes, strict=True):
            _wait_until_up(port, process)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:  # (a stream still open holds a worker's exit)
                process.kill()
                process.wait()


def _wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                connection.close()
                return
        except OSError:
            pass
        assert time.monotonic() < deadline and process.poll() is None, "gunicorn did not start"
        time.sleep(0.2)


def _call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body)
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, json.loads(raw) if raw else None


def _read_stream(port: int, path: str, token: str, reader: Reader) -> None:
    """``reader`` gets the lines of a stream over a real connection, and ``ended`` at EOF."""

    def run() -> None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
            response = connection.getresponse()
            assert response.status == 200, response.read()
            while line := response.readline():
                reader.lines.append((time.monotonic(), json.loads(line)))
                reader.first.set()
            connection.close()
        except BaseException as exc:  # reported by the test
            reader.errors.append(exc)
        finally:
            reader.first.set()
            reader.ended.set()

    threading.Thread(target=run, daemon=True).start()


def test_revocation_ends_streams_and_long_polls_in_every_gunicorn_worker(two_servers):
    """The same, as deployed: a gevent worker of each of two gunicorn processes."""
    revoking, other = two_servers
    status, created = _call(revoking, "POST", "/v1/accounts", {"name": f"p{uuid.uuid4().hex[:10]}"})
    assert status == 201, created
    token = created["token"]
    status, table = _call(revoking, "POST", "/v1/tables", {"mode": "computer"}, token)
    assert status == 201, table
    seat = {"seat": None, "client_seed": secrets.token_hex(32)}
    status, _ = _call(revoking, "POST", f"/v1/tables/{table['id']}/seats", seat, token)
    assert status == 201
    match_id = table["id"]
    status, page = _call(other, "GET", f"/v1/matches/{match_id}/events?after=0", token=token)
    assert status == 200
    readers = {port: Reader() for port in two_servers}
    for port, reader in readers.items():
        _read_stream(port, f"/v1/matches/{match_id}/stream?after=0&turns=true", token, reader)
    polled: list[Any] = []

    def long_poll() -> None:
        path = f"/v1/matches/{match_id}/events?after={page['last_seq']}&wait=20"
        polled.append(_call(other, "GET", path, token=token))
        polled.append(time.monotonic())

    threading.Thread(target=long_poll, daemon=True).start()
    for reader in readers.values():
        assert reader.first.wait(10) and not reader.errors, reader.errors
    time.sleep(0.3)  # (the long-poll's request reaches its worker; nothing shows it from here)

    assert _call(revoking, "DELETE", "/v1/tokens/current", token=token)[0] == 204
    revoked = time.monotonic()
    for port, reader in readers.items():
        left = max(0.0, revoked + 1.0 - time.monotonic())
        assert reader.ended.wait(left), f"the stream on {port} is still open"
        assert not reader.errors, reader.errors
        assert [line for at, line in reader.lines if at > revoked] == []
    deadline = revoked + 1.0
    while not polled and time.monotonic() < deadline:
        time.sleep(0.01)
    assert polled, "the long-poll still waits"
    (status, problem), answered = polled
    assert status == 401 and problem["code"] == "unauthenticated" and answered - revoked < 1.0
