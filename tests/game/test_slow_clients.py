"""Slow and idle clients against both web services as deployed (the real gunicorn with
deploy/gunicorn_game.py and deploy/gunicorn_rating.py, one worker each, short read deadlines):
they cannot starve a service, a slow sender is cut after the header or body deadline, and the
body framings an HTTP server could misread are refused before any app runs."""

from __future__ import annotations

import contextlib
import os
import select
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from pg_schema import own_schema

from king_devservers import free_port
from king_rating.migrate import migrate as migrate_rating

from .test_gworker import REPO, _exchange, _problem, _read_answer, _start_gunicorn

pytestmark = pytest.mark.integration

#: The read deadlines of the servers here (production: 10 s and 30 s).
HEADER_TIMEOUT_S = 2
BODY_TIMEOUT_S = 2
BOARD = "/weekly/current?ruleset=standard"

Address = tuple[str, int]


def _clean_env() -> dict[str, str]:
    prefixes = ("KING_", "RATING_", "GAME_", "GUNICORN_")
    return {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}


@pytest.fixture(scope="module")
def rating_server(database_url: str, redis_url: str) -> Iterator[Address]:
    """The rating service as deployed (one worker) on a migrated schema of its own."""
    with own_schema(database_url, "slow", migrate_rating) as url:
        port = free_port()
        env = {
            **_clean_env(),
            "DATABASE_URL": url,
            "REDIS_URL": redis_url,
            "WEB_CONCURRENCY": "1",
            "GUNICORN_KEEPALIVE": "30",
            "GUNICORN_HEADER_TIMEOUT": str(HEADER_TIMEOUT_S),
            "GUNICORN_BODY_TIMEOUT": str(BODY_TIMEOUT_S),
        }
        config = str(REPO / "deploy" / "gunicorn_rating.py")
        argv = ["-c", config, "-b", f"127.0.0.1:{port}", "king_rating.app:create_app()"]
        process = _start_gunicorn(argv, env, port)
        try:
            yield "127.0.0.1", port
        finally:
            process.terminate()
            process.wait(timeout=20)


@pytest.fixture(scope="module")
def game_server(game_env: dict[str, str]) -> Iterator[Address]:
    """The game service as deployed (one worker)."""
    port = free_port()
    env = {
        **_clean_env(),
        **game_env,
        # Its own keys: its worker's heartbeat must not reach other tests' sweepers.
        "KING_KEY_PREFIX": f"sc{uuid.uuid4().hex[:8]}:",
        "GAME_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "GUNICORN_REUSE_PORT": "off",
        "GUNICORN_HEADER_TIMEOUT": str(HEADER_TIMEOUT_S),
        "GUNICORN_BODY_TIMEOUT": str(BODY_TIMEOUT_S),
    }
    config = str(REPO / "deploy" / "gunicorn_game.py")
    process = _start_gunicorn(["-c", config, "king_game.app:create_app()"], env, port)
    try:
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(params=["rating", "game"])
def service(request: pytest.FixtureRequest) -> Address:
    address: Address = request.getfixturevalue(f"{request.param}_server")
    return address


def _get(address: Address, path: str) -> tuple[int, float]:
    """GET ``path`` on a new connection: (status, seconds until the whole answer)."""
    started = time.monotonic()
    status, _, _ = _exchange(address, b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode())
    return status, time.monotonic() - started


def _open_keep_alive(address: Address) -> socket.socket:
    """A connection that has made one request and stays open, idle."""
    sock = socket.create_connection(address, 5)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    head, _ = _read_answer(sock)
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def _quiet(sock: socket.socket) -> bool:
    """Whether the server has neither sent anything on ``sock`` nor closed it (looked at
    without waiting)."""
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.settimeout(timeout)
    return False


class Drip:
    """Clients that each send a request's start, then one more header line every ``every_s``
    seconds (never the end of the header section), from a thread, until stopped."""

    def __init__(self, address: Address, count: int, every_s: float = 0.2) -> None:
        self.socks = [socket.create_connection(address, 5) for _ in range(count)]
        for sock in self.socks:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drip, daemon=True)
        self._thread.start()

    def _drip(self) -> None:
        n = 0
        while not self._stop.wait(self.every_s):
            n += 1
            for sock in self.socks:
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Slow-%d: 1\r\n" % n)

    def still_waiting(self) -> int:
        """How many of the clients the server has neither answered nor closed."""
        return sum(_quiet(sock) for sock in self.socks)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for sock in self.socks:
            sock.close()


def test_slow_and_idle_clients_do_not_starve_the_rating_service(rating_server):
    # Warm: the worker's first board read opens its Postgres pool.
    assert _get(rating_server, "/healthz")[0] == 200
    assert _get(rating_server, BOARD)[0] == 200
    idle = [_open_keep_alive(rating_server) for _ in range(300)]
    slow = Drip(rating_server, 8)
    try:
        time.sleep(0.3)  # the slow clients are into their header sections
        timings: dict[str, list[float]] = {"/healthz": [], BOARD: []}
        for _ in range(3):
            for path, seconds in timings.items():
                status, took = _get(rating_server, path)
                assert status == 200, path
                seconds.append(took)
        # Measured while every slow client was still sending and every idle one still open
        # (the header deadline is 2 s: nobody was let go to make room).
        assert slow.still_waiting() == 8
        assert all(_quiet(sock) for sock in idle)
    finally:
        slow.close()
        for sock in idle:
            sock.close()
    for path, seconds in timings.items():
        # Each answered at all (a starved service answers nothing for a minute), and within
        # 100 ms (the best of three: one slow round on a loaded test machine is not the
        # service's doing).
        assert max(seconds) < 2 and min(seconds) < 0.1, (path, seconds)


def _wait_for_close(sock: socket.socket, feed: bytes, every_s: float, limit_s: float) -> bytes:
    """Send ``feed`` every ``every_s`` seconds until the server closes the connection (what it
    sent by then) or ``limit_s`` passes (AssertionError)."""
    got = b""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            sock.sendall(feed)
        readable, _, _ = select.select([sock], [], [], every_s)
        if readable:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return got
            if not chunk:
                return got
            got += chunk
    raise AssertionError(f"still open after {limit_s} s; got {got!r}")


def _timed_out_problem(answer: bytes) -> None:
    assert answer.startswith(b"HTTP/1.1 408"), answer
    problem = _problem(_parse(answer))
    assert (problem["status"], problem["code"]) == (408, "request_timeout"), problem


def _parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def test_a_client_dripping_its_headers_is_cut_after_the_header_deadline(service):
    with socket.create_connection(service, 10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        answer = _wait_for_close(sock, b"X-Slow: 1\r\n", every_s=0.25, limit_s=15)
        took = time.monotonic() - started
    assert HEADER_TIMEOUT_S - 0.5 < took < HEADER_TIMEOUT_S + 5, took
    _timed_out_problem(answer)


def test_a_client_dripping_its_body_is_cut_after_the_body_deadline(service):
    with socket.create_connection(service, 10) as sock:
        sock.sendall(
            b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n"
        )
        started = time.monotonic()
        answer = _wait_for_close(sock, b" ", every_s=0.25, limit_s=15)
        took = time.monotonic() - started
    assert BODY_TIMEOUT_S - 0.5 < took < BODY_TIMEOUT_S + 5, took
    _timed_out_problem(answer)


_CHUNKED = b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
FRAMINGS = {
    "gzip, chunked": b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n"
    b"\r\n5\r\nabcde\r\n0\r\n\r\n",
    "a chunk size of 20 hex digits": _CHUNKED + b"ffffffffffffffffffff\r\nabcde\r\n",
    "a negative chunk size": _CHUNKED + b"-5\r\nabcde\r\n0\r\n\r\n",
}


@pytest.mark.parametrize("shape", sorted(FRAMINGS))
def test_misframed_bodies_are_refused_before_any_app_runs(service, shape):
    """Each shape gets a 400 problem and the connection is closed, on a GET (whose app never
    reads a body) as on a POST: the worker reads the body before the app runs."""
    for raw in (FRAMINGS[shape], FRAMINGS[shape].replace(b"GET /healthz", b"POST /v1/accounts")):
        with socket.create_connection(service, 10) as sock:
            sock.sendall(raw)
            answer = _wait_for_close(sock, b"", every_s=0.1, limit_s=10)
        problem = _problem(_parse(answer))
        assert (problem["status"], problem["code"]) == (400, "bad_request"), (shape, raw)


def test_a_well_framed_chunked_body_still_reaches_the_app(service):
    raw = _CHUNKED + b"5\r\nabcde\r\n3\r\nfgh\r\n0\r\n\r\n"
    status, _, _ = _exchange(service, raw)
    assert status == 200


def test_psycopg_and_its_pool_wait_cooperatively_under_the_workers_patching(database_url):
    """gunicorn's gevent workers monkey-patch before they load the app; psycopg 3 then waits
    through the patched ``select``, and psycopg-pool's threads are greenlets, so a query's wait
    lets the worker's other greenlets run."""
    script = textwrap.dedent(
        """
        import sys
        from gevent import monkey
        monkey.patch_all()
        import gevent, psycopg, psycopg.waiting
        from psycopg_pool import ConnectionPool

        assert psycopg.waiting.wait is not getattr(psycopg.waiting, "wait_c", None)
        ticks = []

        def tick():
            while True:
                ticks.append(1)
                gevent.sleep(0.01)

        ticker = gevent.spawn(tick)
        with ConnectionPool(sys.argv[1], min_size=1, max_size=2, open=True) as pool:
            pool.wait(5)
            ticks.clear()
            with pool.connection() as conn:
                conn.execute("SELECT pg_sleep(0.5)")
        ticker.kill()
        print(len(ticks))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, database_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # A blocked hub ticks once or not at all while the query sleeps; a free one ~50 times.
    assert int(done.stdout.split()[-1]) >= 10, done.stdout
