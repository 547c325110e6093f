"""The clock sweeper as its own process: ``python -m king_game.sweeper``.

The sweepers here are real subprocesses on a private redis-server, with the short clocks of
``CLOCK_ENV`` and a key prefix of their own per test. Matches are made through the HTTP API of
an app that runs no embedded sweeper; while a clock runs out the test never reads the match
(a read would apply the due timeout itself) and watches Redis instead: the match's event
stream and the sweeper lease key. Checked:

* a live player who stops answering, with nobody connected, is forfeited on time by the
  sweeper process, and the bot worker plays the seat from then on;
* of two sweeper processes one holds the lease; when it is killed (SIGKILL, no clean-up) the
  other takes the lease within the lease period and goes on enforcing clocks;
* SIGTERM stops a sweeper cleanly: exit code 0, and a lease holder gives its lease back.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from redis import Redis

from king_devservers import free_port, start_redis
from king_game.app import create_app
from king_game.config import Settings
from king_match import MatchSettings, MatchStore, Sweeper

from .conftest import CLOCK_ENV
from .helpers import signup, start_live_match

pytestmark = pytest.mark.integration

#: A live player's whole time for a move with nothing left in reserve (CLOCK_ENV).
TURN_S = (int(CLOCK_ENV["KING_LIVE_MOVE_MS"]) + int(CLOCK_ENV["KING_LIVE_RESERVE_MS"])) / 1000
#: king_match.Sweeper's default lease, which the command uses.
LEASE_S = 3.0
#: Environment variables of the developer's shell that must not reach the subprocesses.
_NOT_PASSED = ("KING_METRICS_PORT", "REDIS_URL", "KING_KEY_PREFIX", "PROMETHEUS_MULTIPROC_DIR")


@dataclass
class Started:
    """A subprocess and the file its output goes to."""

    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@dataclass
class SweeperProcess(Started):
    _owner: str | None = field(default=None, repr=False)

    def owner(self, timeout: float = 15.0) -> str:
        """The lease owner id the sweeper logs when it starts."""
        if self._owner is None:
            deadline = time.monotonic() + timeout
            while True:
                found = re.search(r"clock sweeper ([0-9a-f]{32}) started", self.log())
                if found:
                    self._owner = found.group(1)
                    break
                assert self.process.poll() is None, f"the sweeper exited:\n{self.log()}"
                assert time.monotonic() < deadline, f"the sweeper did not start:\n{self.log()}"
                time.sleep(0.05)
        return self._owner


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Terminate, then kill: nothing a test started outlives it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def wait_for(
    what: str,
    predicate: Callable[[], Any],
    timeout: float,
    explain: Callable[[], str] = lambda: "",
) -> Any:
    """Poll ``predicate`` (without reading the match) until it is truthy; its value.
    ``explain`` adds what helps to understand a failure (process logs, events seen)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}\n{explain()}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def sweeper_redis_url() -> Iterator[str]:
    """A redis-server of this module's own: no other test's sweeper or worker on it."""
    server = start_redis()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def clock_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The clocks of a test: the short ``CLOCK_ENV``, or what it asks for (indirect)."""
    return {**CLOCK_ENV, **getattr(request, "param", {})}


@pytest.fixture
def sweep_env(
    sweeper_redis_url: str, game_env: dict[str, str], clock_env: dict[str, str]
) -> dict[str, str]:
    """What the app, the sweepers and the bot worker of one test share: Redis, a key prefix
    of the test's own, and the short clocks."""
    return {
        "REDIS_URL": sweeper_redis_url,
        "DATABASE_URL": game_env["DATABASE_URL"],
        "KING_KEY_PREFIX": f"sw{uuid.uuid4().hex[:8]}:",
        **clock_env,
    }


@pytest.fixture
def process_env(sweep_env: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _NOT_PASSED}
    return {**env, **sweep_env, "PYTHONUNBUFFERED": "1"}


@pytest.fixture
def sweep_app(sweep_env: dict[str, str]) -> Iterator[Flask]:
    """The game service for the HTTP calls; it runs no sweeper of its own."""
    settings = Settings(
        database_url=sweep_env["DATABASE_URL"],
        match=MatchSettings.from_env(sweep_env),
        rate_default="100000/minute",
        rate_moves="100000/minute",
        rate_per_address="100000/minute",
        rate_signup="100000/minute",
        rate_login="100000/minute",
        embedded_sweeper=False,
    )
    app = create_app(settings)
    assert "king_game_sweeper" not in app.extensions
    yield app
    context = app.extensions["king_game"]
    if context.store.notifier is not None:
        context.store.notifier.stop()
    context.accounts.pool.close(timeout=1)


@pytest.fixture
def client(sweep_app: Flask) -> FlaskClient:
    return sweep_app.test_client()


@pytest.fixture
def store(sweep_env: dict[str, str]) -> MatchStore:
    """For reading Redis directly: the event stream (``events`` applies no clock)."""
    settings = MatchSettings.from_env(sweep_env)
    return MatchStore(Redis.from_url(settings.redis_url), settings)


@pytest.fixture
def lease_key(store: MatchStore) -> str:
    return Sweeper(store).lease_key


@pytest.fixture
def spawn_sweeper(
    process_env: dict[str, str], tmp_path: Path
) -> Iterator[Callable[[], SweeperProcess]]:
    """Starts ``python -m king_game.sweeper`` processes; every one is stopped at the end."""
    started: list[SweeperProcess] = []

    def spawn() -> SweeperProcess:
        log_path = tmp_path / f"sweeper-{len(started)}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "king_game.sweeper"],
                env=process_env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        started.append(SweeperProcess(process, log_path))
        return started[-1]

    try:
        yield spawn
    finally:
        for sweeper in started:
            stop_process(sweeper.process)


@pytest.fixture
def bot_worker_process(process_env: dict[str, str], tmp_path: Path) -> Iterator[Started]:
    """A real RQ bot worker on this test's Redis and key prefix."""
    log_path = tmp_path / "bot-worker.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "king_bots.worker"],
            env=process_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    worker = Started(process, log_path)
    try:
        time.sleep(0.5)
        assert process.poll() is None, f"the bot worker exited at start:\n{worker.log()}"
        yield worker
    finally:
        stop_process(process)


@pytest.fixture
def game_service(process_env: dict[str, str], tmp_path: Path) -> Iterator[GameService]:
    """The game service as deployed (deploy/gunicorn_game.py) with two workers, on this
    test's Redis and key prefix: its workers write the heartbeat the sweeper watches."""
    port = free_port()
    env = {
        **process_env,
        "GAME_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "GUNICORN_REUSE_PORT": "off",
    }
    log_path = tmp_path / "game.log"
    config = str(Path(__file__).resolve().parents[2] / "deploy" / "gunicorn_game.py")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", config, "king_game.app:create_app()"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    service = GameService(process, log_path, port)
    try:
        wait_for("the game service", service.ready, 60, service.log)
        yield service
    finally:
        service.resume()
        stop_process(process)


@dataclass
class GameService(Started):
    port: int = 0
    stopped: list[int] = field(default_factory=list)

    def get(self, path: str, headers: dict[str, str]) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            connection.close()

    def ready(self) -> bool:
        try:
            return len(self.workers()) == 2 and self.get("/healthz", {})[0] == 200
        except OSError:
            return False

    def workers(self) -> list[int]:
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return [int(child) for child in children]

    def hang(self) -> None:
        """Every worker stops (SIGSTOP): connections stay open, nothing answers or beats."""
        self.stopped = self.workers()
        for pid in self.stopped:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self.stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self.stopped = []


class EventWatch:
    """Collects a match's events from its Redis stream (older hands are trimmed there, so
    it keeps what it has seen)."""

    def __init__(self, store: MatchStore, match_id: str) -> None:
        self.store = store
        self.match_id = match_id
        self.seen: dict[int, dict[str, Any]] = {}

    def poll(self) -> list[dict[str, Any]]:
        after = max(self.seen, default=0)
        for event in self.store.events(self.match_id, after=after):
            self.seen[event["seq"]] = event
        return [self.seen[seq] for seq in sorted(self.seen)]

    def find(self, **fields: Any) -> dict[str, Any] | None:
        for event in self.poll():
            if all(event.get(k) == v for k, v in fields.items()):
                return event
        return None


def holder(redis: Redis, lease_key: str) -> str | None:
    value = redis.get(lease_key)
    return value.decode() if isinstance(value, bytes) else value


def live_match_nobody_plays(client: FlaskClient) -> tuple[str, int, int, list[dict[str, Any]]]:
    """Four players start a live match and then stay silent: (match id, seat to move,
    version, players). The one read here happens at the start, before any clock is due."""
    players = [signup(client, password=None) for _ in range(4)]
    table = start_live_match(client, players)
    look = client.get(f"/v1/matches/{table['id']}", headers=players[0]["headers"]).get_json()
    assert look["status"] == "active"
    assert not any(seat["forfeited"] for seat in look["seats"])
    return table["id"], look["clock"]["turn"], look["version"], players


def test_the_sweeper_process_forfeits_a_silent_player_and_the_bot_plays_on(
    client: FlaskClient,
    store: MatchStore,
    lease_key: str,
    spawn_sweeper: Callable[[], SweeperProcess],
    bot_worker_process: Started,
) -> None:
    sweeper = spawn_sweeper()
    owner = sweeper.owner()
    wait_for("the sweeper's lease", lambda: holder(store.redis, lease_key) == owner, LEASE_S)

    match_id, seat, version, players = live_match_nobody_plays(client)
    started = time.monotonic()
    watch = EventWatch(store, match_id)

    def explain() -> str:
        return (
            f"events: {watch.poll()}\nsweeper log:\n{sweeper.log()}\n"
            f"bot worker log:\n{bot_worker_process.log()}"
        )

    # Nobody reads the match: only the sweeper process can apply the timeout.
    forfeit = wait_for(
        "the timeout forfeit",
        lambda: watch.find(type="player_forfeited", seat=seat),
        TURN_S + 5,
        explain,
    )
    waited = time.monotonic() - started
    assert waited > TURN_S - 0.5, f"forfeited after {waited:.1f} s: before the clock ran out"
    assert forfeit["reason"] == "timeout" and forfeit["v"] > version, explain()
    expired = watch.find(type="clock_expired", seat=seat)
    assert expired is not None and expired["seq"] < forfeit["seq"], explain()
    takeover = watch.find(type="bot_takeover", seat=seat)
    assert takeover is not None and takeover["seq"] > forfeit["seq"], explain()

    # The bot worker plays the seat: a move of that seat after the takeover, in time (no
    # fallback move was needed).
    def bot_move() -> dict[str, Any] | None:
        for event in watch.poll():
            if (
                event["seq"] > takeover["seq"]
                and event.get("seat") == seat
                and event["type"] in ("contract_chosen", "card_played", "bot_fallback")
            ):
                return event
        return None

    fallback_s = int(CLOCK_ENV["KING_BOT_FALLBACK_MS"]) / 1000
    moved = wait_for("the bot's move", bot_move, fallback_s + 3, explain)
    assert moved["type"] != "bot_fallback", explain()

    # Now the match may be read: it shows the forfeit and the automated seat.
    body = client.get(f"/v1/matches/{match_id}", headers=players[(seat + 1) % 4]["headers"])
    view = body.get_json()
    assert view["version"] > version
    assert view["seats"][seat]["forfeited"] and view["seats"][seat]["automated"], view
    late = client.post(
        f"/v1/matches/{match_id}/moves",
        json={"card": "2C"},
        headers=players[seat]["headers"],
    )
    assert late.status_code == 409 and late.get_json()["code"] == "seat_forfeited", late.get_json()
    assert sweeper.process.poll() is None, sweeper.log()
    assert holder(store.redis, lease_key) == owner
    assert "Traceback" not in sweeper.log(), sweeper.log()


def test_of_two_sweepers_one_holds_the_lease_and_the_other_takes_over_when_it_dies(
    client: FlaskClient,
    store: MatchStore,
    lease_key: str,
    spawn_sweeper: Callable[[], SweeperProcess],
) -> None:
    sweepers = [spawn_sweeper(), spawn_sweeper()]
    owners = {s.owner(): s for s in sweepers}
    first = wait_for("a lease holder", lambda: holder(store.redis, lease_key), LEASE_S + 2)
    assert first in owners
    # The lease stays with its holder while it lives: the other never takes it.
    for _ in range(20):
        assert holder(store.redis, lease_key) == first
        ttl = store.redis.pttl(lease_key)
        assert 0 < ttl <= LEASE_S * 1000
        time.sleep(0.05)
    assert all(s.process.poll() is None for s in sweepers)
    leader = owners[first]
    standby = next(s for s in sweepers if s is not leader)

    match_id, seat, version, _players = live_match_nobody_plays(client)
    started = time.monotonic()
    watch = EventWatch(store, match_id)
    leader.process.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    assert leader.process.wait(timeout=5) == -signal.SIGKILL

    def explain() -> str:
        return f"events: {watch.poll()}\nstandby log:\n{standby.log()}"

    # The killed holder cannot give its lease back: it expires, and the standby takes it.
    wait_for(
        "the standby to take the lease",
        lambda: holder(store.redis, lease_key) == standby.owner(),
        LEASE_S + 1.5,
        explain,
    )
    took_over = time.monotonic() - killed
    assert took_over <= LEASE_S + 1.5
    # The clock runs out after the holder died: only the standby can have applied it.
    forfeit = wait_for(
        "the timeout forfeit",
        lambda: watch.find(type="player_forfeited", seat=seat),
        TURN_S + 5,
        explain,
    )
    assert forfeit["reason"] == "timeout" and forfeit["v"] > version, explain()
    assert time.monotonic() - started > TURN_S - 0.5
    assert watch.find(type="bot_takeover", seat=seat) is not None
    assert standby.process.poll() is None, standby.log()
    assert holder(store.redis, lease_key) == standby.owner()


def test_sigterm_stops_a_sweeper_cleanly(
    store: MatchStore,
    lease_key: str,
    spawn_sweeper: Callable[[], SweeperProcess],
) -> None:
    sweepers = [spawn_sweeper(), spawn_sweeper()]
    owners = {s.owner(): s for s in sweepers}
    first = wait_for("a lease holder", lambda: holder(store.redis, lease_key), LEASE_S + 2)
    leader = owners[first]
    standby = next(s for s in sweepers if s is not leader)

    # The standby stops at once with exit code 0, and the holder keeps its lease.
    standby.process.send_signal(signal.SIGTERM)
    assert standby.process.wait(timeout=5) == 0, standby.log()
    assert holder(store.redis, lease_key) == first

    # The holder stops with exit code 0 too, and gives its lease back on the way out, so a
    # successor need not wait for it to expire.
    leader.process.send_signal(signal.SIGTERM)
    assert leader.process.wait(timeout=5) == 0, leader.log()
    assert store.redis.exists(lease_key) == 0
    for sweeper in sweepers:
        assert "Traceback" not in sweeper.log(), sweeper.log()


#: A move long enough that the few seconds the test itself takes outside the outage stay
#: within it (the machine may be slow), and a reserve the outage would eat many times over.
OUTAGE_CLOCKS = {"KING_LIVE_MOVE_MS": "8000", "KING_LIVE_RESERVE_MS": "2000"}


@pytest.mark.parametrize("clock_env", [OUTAGE_CLOCKS], indirect=True)
def test_while_the_game_workers_hang_no_player_loses_clock_time(
    client: FlaskClient,
    store: MatchStore,
    lease_key: str,
    spawn_sweeper: Callable[[], SweeperProcess],
    game_service: GameService,
) -> None:
    sweeper = spawn_sweeper()
    owner = sweeper.owner()
    wait_for("the sweeper's lease", lambda: holder(store.redis, lease_key) == owner, LEASE_S)
    heartbeat = store.keys.heartbeat
    wait_for("the workers' heartbeat", lambda: store.redis.exists(heartbeat), 10)

    match_id, seat, version, players = live_match_nobody_plays(client)
    turn_s = int(OUTAGE_CLOCKS["KING_LIVE_MOVE_MS"]) + int(OUTAGE_CLOCKS["KING_LIVE_RESERVE_MS"])
    turn_s /= 1000
    reserve = int(OUTAGE_CLOCKS["KING_LIVE_RESERVE_MS"])
    watch = EventWatch(store, match_id)

    def explain() -> str:
        return (
            f"events: {watch.poll()}\nsweeper log:\n{sweeper.log()}\n"
            f"game service log:\n{game_service.log()}"
        )

    # Both workers hang for longer than the player's move time and reserve together.
    game_service.hang()
    wait_for("the heartbeat to expire", lambda: not store.redis.exists(heartbeat), 10, explain)
    hung = time.monotonic()
    while time.monotonic() - hung < turn_s + 2:
        assert watch.find(type="clock_expired") is None, explain()
        assert watch.find(type="player_forfeited") is None, explain()
        time.sleep(0.2)

    # The workers serve again: the sweeper gives the player the time the outage took.
    game_service.resume()
    restored = wait_for(
        "the time given back", lambda: watch.find(type="clock_restored", seat=seat), 10, explain
    )
    assert restored["ms"] >= (turn_s + 2) * 1000, explain()
    assert watch.find(type="player_forfeited") is None, explain()

    # Read through the served API: no forfeit, the reserve whole, the turn still theirs.
    status, view = game_service.get(f"/v1/matches/{match_id}", players[seat]["headers"])
    assert status == 200, view
    assert not any(entry["forfeited"] for entry in view["seats"]), view
    clock = view["clock"]
    assert clock["turn"] == seat and clock["reserve_ms"][seat] == reserve, clock
    assert clock["deadline_ms"] - clock["server_time_ms"] > reserve, clock
    assert view["version"] > version
    assert "Traceback" not in sweeper.log(), sweeper.log()
