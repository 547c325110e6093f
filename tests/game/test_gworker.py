"""The game worker (gunicorn + gevent's pywsgi) under a real gunicorn: answers and streams as a
client expects them on a keep-alive connection, and an idle connection is closed after the
keep-alive limit while a slow stream is not."""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import os
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from king_web.gworker import framing_problem, read_headers

from king_devservers import free_port

APP = """
import time

def app(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/slow-stream":
        start_response("200 OK", [("Content-Type", "application/x-ndjson")])
        def lines():
            for n in range(3):
                time.sleep(0.8)  # longer apart than the keep-alive limit
                yield b'{"n": %d}\\n' % n
        return lines()
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    answer = b'{"path": "%s", "got": %d}' % (path.encode(), len(body))
    start_response("200 OK", [("Content-Type", "application/json"),
                              ("Content-Length", str(len(answer)))])
    return [answer]
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    folder: Path = tmp_path_factory.mktemp("gworker")
    (folder / "tinyapp.py").write_text(textwrap.dedent(APP))
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--chdir",
            str(folder),
            "-k",
            "king_game.gworker.GameWorker",
            "--keep-alive",
            "1",
            "-w",
            "1",
            "-b",
            f"127.0.0.1:{port}",
            "tinyapp:app",
        ]
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.1)
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=15)


def _read_answer(sock: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(
        next(
            line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
        ).split(b":")[1]
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head, body


def test_answers_on_a_keep_alive_connection(server):
    with socket.create_connection(server, 5) as sock:
        for n in range(3):
            body = b'{"card": "QS"}' * n
            sock.sendall(
                b"POST /v1/moves/%d HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (n, len(body), body)
            )
            head, answer = _read_answer(sock)
            assert head.startswith(b"HTTP/1.1 200 OK\r\n")
            assert answer == b'{"path": "/v1/moves/%d", "got": %d}' % (n, len(body))


def test_an_idle_keep_alive_connection_is_closed_after_the_limit(server):
    with socket.create_connection(server, 10) as sock:
        sock.sendall(b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        _read_answer(sock)
        started = time.monotonic()
        assert sock.recv(100) == b""  # the server closed it
        assert 0.5 < time.monotonic() - started < 5


def test_a_request_line_that_stalls_half_way_is_cut_at_the_limit_too(server):
    with socket.create_connection(server, 10) as sock:
        sock.sendall(b"GET /a HTT")  # and nothing more
        started = time.monotonic()
        assert sock.recv(100) == b""
        assert 0.5 < time.monotonic() - started < 5


def test_a_connection_busy_for_longer_than_the_limit_in_all_stays_open(server):
    # Each wait for the next request is under the limit (1 s); together they are over it.
    with socket.create_connection(server, 10) as sock:
        started = time.monotonic()
        n = 0
        while time.monotonic() - started < 2.5:
            sock.sendall(b"GET /n%d HTTP/1.1\r\nHost: x\r\n\r\n" % n)
            _head, answer = _read_answer(sock)
            assert answer == b'{"path": "/n%d", "got": 0}' % n
            n += 1
            time.sleep(0.3)
        assert n >= 6


def test_a_stream_slower_than_the_limit_is_not_cut(server):
    with socket.create_connection(server, 10) as sock:
        sock.sendall(b"GET /slow-stream HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while not data.endswith(b"0\r\n\r\n"):
            chunk = sock.recv(65536)
            assert chunk, "the stream was cut"
            data += chunk
        assert b"Transfer-Encoding: chunked" in data
        assert all(b'{"n": %d}\n' % n in data for n in range(3))


# ---------------------------------------------------------------- the header parser

NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"
TOKEN = st.text(alphabet=NAME_CHARS, min_size=1, max_size=12)
VALUE = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=0, max_size=30
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(TOKEN, VALUE), max_size=12),
    st.sampled_from(["content-type", "Content-Length", "X-Missing"]),
)
def test_headers_read_as_http_client_reads_them(pairs, asked):
    raw = b"".join(f"{name}: {value}\r\n".encode() for name, value in pairs) + b"\r\nbody"
    theirs = http.client.parse_headers(io.BytesIO(raw))
    ours_file = io.BytesIO(raw)
    ours = read_headers(ours_file)
    assert ours.status == ""
    assert ours_file.read() == b"body"  # stopped at the empty line
    assert list(ours.headers) == [f"{k}: {v}\r\n" for k, v in theirs.items()]
    for name in {asked, *(name.swapcase() for name, _ in pairs)}:
        assert ours.get(name) == theirs.get(name)
        assert ours.getheader(name, "-") == theirs.get(name, "-")
    assert ours.typeheader == theirs.get("content-type")
    del ours["CONTENT-LENGTH"]
    assert ours.get("content-length") is None
    assert len(list(ours.headers)) == sum(1 for k, _ in pairs if k.lower() != "content-length")


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"A: 1\r\n  folded\r\n\r\n", "obsolete folding"),
        (b"no colon here\r\n\r\n", "not a header"),
        (b"Bad Name: 1\r\n\r\n", "space in a name"),
        (b"A: x\x00y\r\n\r\n", "a NUL in a value"),
        (b"A: " + b"x" * 70_000 + b"\r\n\r\n", "a line over 64 KB"),
        (b"".join(b"H%d: v\r\n" % n for n in range(101)) + b"\r\n", "over 100 headers"),
    ],
)
def test_unreadable_headers_are_refused(raw, why):
    assert read_headers(io.BytesIO(raw)).status, why


@pytest.mark.parametrize(
    ("pairs", "refused"),
    [
        ([("Content-Length", "12")], False),
        ([("transfer-encoding", "Chunked")], False),
        ([("Content-Length", "12"), ("content-length", "12")], True),
        ([("Content-Length", "12, 12")], True),
        ([("Content-Length", "+12")], True),
        ([("Content-Length", "١٢")], True),  # digits, but not ASCII ones
        ([("Content-Length", "0"), ("Transfer-Encoding", "chunked")], True),
        ([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], True),
        ([("Transfer-Encoding", "gzip, chunked")], True),
        ([("Transfer-Encoding", "identity")], True),
    ],
)
def test_framing_two_servers_could_read_differently_is_refused(pairs, refused):
    assert bool(framing_problem(pairs)) is refused


def test_a_bad_header_gets_400_and_the_worker_keeps_serving(server):
    with socket.create_connection(server, 5) as sock:
        sock.sendall(b"GET /a HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        assert data.startswith(b"HTTP/1.1 400")
    with socket.create_connection(server, 5) as sock:
        sock.sendall(b"GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        head, answer = _read_answer(sock)
        assert head.startswith(b"HTTP/1.1 200") and b'"/b"' in answer


# ---------------------------------------------------------------- sends


def _no_access_log(*args: Any) -> None:
    """(gunicorn's logger's ``access``, which pywsgi's own handler calls.)"""


def _served_in_process(handler_class: type, app: Any, request: bytes) -> tuple[bytes, list[str]]:
    """Serve ``request`` with ``handler_class`` on one end of a socket pair (in this process,
    under gevent); the bytes the client got and the socket calls that sent them."""
    import gevent
    import gevent.socket
    from gevent.pywsgi import WSGIServer

    calls = []
    inside = []

    class Counting(gevent.socket.socket):  # type: ignore[misc]
        """Counts the handler's send and sendall calls (not the sends sendall makes)."""

        def send(self, data: Any, *args: Any, **kwargs: Any) -> int:
            if not inside:
                calls.append("send")
            return int(super().send(data, *args, **kwargs))

        def sendall(self, data: Any, *args: Any, **kwargs: Any) -> None:
            calls.append("sendall")
            inside.append(1)
            try:
                super().sendall(data, *args, **kwargs)
            finally:
                inside.pop()

    ours, client = gevent.socket.socketpair()
    served = Counting(fileno=ours.detach())
    server = WSGIServer(("127.0.0.1", 0), app)
    server.log = type("Log", (), {"access_log_enabled": False, "access": _no_access_log})()
    client.sendall(request)
    worker = gevent.spawn(handler_class(served, ("127.0.0.1", 1), server).handle)
    got = b""
    while chunk := client.recv(65536):
        got += chunk
    worker.join(5)
    client.close()
    without_date = b"\r\n".join(
        line for line in got.split(b"\r\n") if not line.startswith(b"Date:")
    )
    return without_date, calls


def _move_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    answer = b'{"version": 12, "accepted": true}'
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "33")])
    return [answer]


def _stream_app(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
    start_response("200 OK", [("Content-Type", "application/x-ndjson")])
    yield b'{"seq": 1}\n'
    yield b'{"seq": 2}\n'


def _big_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    answer = bytes(range(256)) * 8192  # 2 MB: more than one send takes
    start_response("200 OK", [("Content-Length", str(len(answer)))])
    return [answer]


@pytest.mark.parametrize(
    ("app", "pywsgi_sends", "our_sends"),
    [
        (_move_app, ["sendall"] * 2, ["send"]),
        (_stream_app, ["sendall"] * 4, ["send"] * 3),  # head+line, line, the closing chunk
        (_big_app, ["sendall"] * 2, ["send", "send", "sendall"]),  # head; what fit; the rest
    ],
)
def test_an_answer_goes_out_as_pywsgi_writes_it_with_fewer_sends(app, pywsgi_sends, our_sends):
    from gunicorn.workers.ggevent import PyWSGIHandler
    from king_web.gworker import ServiceHandler

    request = b"GET /m HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    theirs, their_sends = _served_in_process(PyWSGIHandler, app, request)
    ours, sends = _served_in_process(ServiceHandler, app, request)
    assert ours == theirs
    assert b"200 OK" in ours
    # pywsgi: gevent's sendall each time (it asks the kernel for the buffer size first);
    # ours: head and first data in one plain send, sendall only for what a send left.
    assert (their_sends, sends) == (pywsgi_sends, our_sends)


def test_a_keep_alive_connection_keeps_nothing_of_its_last_request_while_it_waits():
    import gevent
    import gevent.socket
    from gevent.pywsgi import WSGIServer
    from king_web.gworker import ServiceHandler

    ours, client = gevent.socket.socketpair()
    server = WSGIServer(("127.0.0.1", 0), _move_app)
    server.log = type("Log", (), {"access_log_enabled": False})()
    handler = ServiceHandler(ours, ("127.0.0.1", 1), server)
    worker = gevent.spawn(handler.handle)
    try:
        for _ in range(2):  # the same connection serves a second request after the drop
            client.sendall(b"GET /m HTTP/1.1\r\nHost: x\r\n\r\n")
            head, body = _read_answer(client)
            assert head.startswith(b"HTTP/1.1 200 OK") and body.startswith(b'{"version"')
            gevent.sleep(0.01)  # the handler is back to waiting for a request line
            kept = {"environ", "headers", "wsgi_input", "response_headers"} & set(vars(handler))
            assert not kept, kept
    finally:
        client.close()
        worker.join(5)
    assert worker.dead


def _body_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    body = environ["wsgi.input"].read()  # a bad chunk: pywsgi raises inside this read
    start_response("200 OK", [("Content-Length", str(len(body)))])
    return [body]


def test_a_body_that_turns_out_unreadable_half_way_gets_a_problem():
    from gunicorn.workers.ggevent import PyWSGIHandler
    from king_web.gworker import ServiceHandler

    request = (
        b"POST /m HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"4\r\nabcd\r\nzz\r\n"  # the second chunk's size is not hex
    )
    theirs, _ = _served_in_process(PyWSGIHandler, _body_app, request)
    ours, _ = _served_in_process(ServiceHandler, _body_app, request)
    assert theirs.startswith(b"HTTP/1.1 400") and b"problem+json" not in theirs
    head, _, body = ours.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"Content-Type: application/problem+json" in head
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (400, "bad_request")


def test_the_pywsgi_and_gunicorn_internals_the_worker_relies_on_are_there():
    """ServiceHandler and ServiceWorker override private parts of gevent's pywsgi and gunicorn
    (docs/library-seams.md); the tests above show the behaviour, this one names what an
    upgrade must keep. Each method ServiceHandler defines overrides one of pywsgi's handler with
    the same parameters (but ``_read_body``, its own); the per-request attributes it drops, and
    the ones it reads and sets, are class attributes there; pywsgi's ``Input`` takes the
    arguments the body read gives it; gunicorn's worker has the ``wsgi_handler`` that
    ServiceWorker replaces, and its logger says whether the access log is on."""
    import inspect

    from gevent import pywsgi
    from gunicorn.config import Config
    from gunicorn.glogging import Logger
    from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler
    from king_web.gworker import _PER_REQUEST, ServiceHandler, ServiceWorker

    from king_game.gworker import GameWorker

    for name, ours in vars(ServiceHandler).items():
        if not inspect.isfunction(ours) or name == "_read_body":
            continue
        theirs = getattr(PyWSGIHandler, name, None)
        assert inspect.isfunction(theirs), f"pywsgi's handler has no {name}"
        their_params = list(inspect.signature(theirs).parameters.values())
        if [p.kind for p in their_params[1:]] == [inspect.Parameter.VAR_POSITIONAL]:
            continue  # (MessageClass(self, *args): ours names its first argument)
        assert list(inspect.signature(ours).parameters) == [p.name for p in their_params], name
    handler_defaults = vars(pywsgi.WSGIHandler)
    names = ("response_length", "code", "status", "close_connection", "content_length")
    for name in (*_PER_REQUEST, *names):
        assert name in handler_defaults, name
    assert inspect.isfunction(PyWSGIHandler._connection_upgrade_requested)
    assert list(inspect.signature(pywsgi.Input).parameters) == [
        "rfile",
        "content_length",
        "socket",
        "chunked_input",
    ]
    assert issubclass(pywsgi._InvalidClientInput, OSError)
    assert issubclass(GameWorker, ServiceWorker)
    assert issubclass(ServiceWorker, GeventPyWSGIWorker)
    assert GeventPyWSGIWorker.wsgi_handler is PyWSGIHandler  # (that it is used: the idle tests)
    config = Config()
    assert Logger(config).access_log_enabled is False
    config.set("accesslog", "-")
    assert Logger(config).access_log_enabled is True


# ---------------------------------------------------------------- framing (the real app)

REPO = Path(__file__).resolve().parents[2]


def _start_gunicorn(argv: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """Start gunicorn and wait until its worker answers (the listening socket accepts before
    the worker has loaded the app)."""
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", *argv], env=env)
    deadline = time.monotonic() + 60
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                connection.close()
                return process
        except OSError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise RuntimeError("gunicorn did not start")
        time.sleep(0.2)


@pytest.fixture(scope="module")
def game_server(game_env: dict[str, str]) -> Iterator[tuple[str, int]]:
    """The game service as deployed: deploy/gunicorn_game.py, one GameWorker."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("KING_", "GAME_"))},
        **game_env,
        # Its own keys: its workers' heartbeat must not reach other tests' sweepers.
        "KING_KEY_PREFIX": f"gw{uuid.uuid4().hex[:8]}:",
        "GAME_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "GUNICORN_REUSE_PORT": "off",
    }
    config = str(REPO / "deploy" / "gunicorn_game.py")
    process = _start_gunicorn(["-c", config, "king_game.app:create_app()"], env, port)
    try:
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def rating_server(database_url: str, redis_url: str) -> Iterator[tuple[str, int]]:
    """The rating service as deployed: deploy/gunicorn_rating.py, one worker."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("KING_", "RATING_"))},
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "WEB_CONCURRENCY": "1",
    }
    config = str(REPO / "deploy" / "gunicorn_rating.py")
    argv = ["-c", config, "-b", f"127.0.0.1:{port}", "king_rating.app:create_app()"]
    process = _start_gunicorn(argv, env, port)
    try:
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=20)


def _exchange(address: tuple[str, int], raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a new connection, read until the server closes it or a whole answer
    came: (status, headers in lower case, body)."""
    with socket.create_connection(address, 10) as sock:
        with contextlib.suppress(OSError):  # the server may answer and close mid-send
            sock.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, f"closed without an answer after {data!r}"
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        return int(lines[0].split()[1]), headers, body[:length]


def _problem(answer: tuple[int, dict[str, str], bytes]) -> dict[str, Any]:
    status, headers, body = answer
    assert headers.get("content-type") == "application/problem+json", (status, headers, body)
    problem: dict[str, Any] = json.loads(body)
    assert problem["status"] == status and problem["code"], problem
    return problem


_ACCOUNT = b'{"name": "framing"}'
_POST = b"POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
_SMUGGLING = {
    "two Content-Lengths": _POST
    + b"Content-Length: %d\r\nContent-Length: 5\r\n\r\n%s" % (len(_ACCOUNT), _ACCOUNT),
    "a Content-Length list": _POST + b"Content-Length: %d, 5\r\n\r\n%s" % (len(_ACCOUNT), _ACCOUNT),
    "Content-Length and Transfer-Encoding": _POST
    + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n"
    % (len(_ACCOUNT), _ACCOUNT),
    "Transfer-Encoding that does not end in chunked": _POST
    + b"Transfer-Encoding: chunked, identity\r\n\r\n%x\r\n%s\r\n0\r\n\r\n"
    % (len(_ACCOUNT), _ACCOUNT),
}


@pytest.mark.integration
@pytest.mark.parametrize("shape", sorted(_SMUGGLING))
def test_ambiguous_framing_is_refused_with_a_problem(game_server, shape):
    problem = _problem(_exchange(game_server, _SMUGGLING[shape]))
    assert (problem["status"], problem["code"]) == (400, "bad_request"), problem


@pytest.mark.integration
@pytest.mark.parametrize("shape", sorted(_SMUGGLING))
def test_the_rating_service_refuses_ambiguous_framing_too(rating_server, shape):
    problem = _problem(
        _exchange(rating_server, _SMUGGLING[shape].replace(b"/v1/accounts", b"/healthz"))
    )
    assert (problem["status"], problem["code"]) == (400, "bad_request"), shape


@pytest.mark.integration
@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"GET /healthz HTTP/1.1\r\nBad Name: 1\r\n\r\n", 400),
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),  # (over 8 KB)
    ],
    ids=["garbage request line", "bad header name", "request line too long"],
)
def test_the_rating_services_http_level_errors_are_problems(rating_server, raw, status):
    """The worker's own refusals (before the app) are problem+json in the rating service
    too (``king_web.wire.problem_answer``), not an HTML page or an empty body."""
    problem = _problem(_exchange(rating_server, raw))
    assert problem["status"] == status, problem


@pytest.mark.integration
def test_a_chunked_body_over_the_cap_gets_413(game_server):
    chunk = b"[" * 65536
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(64))  # 4 MB
    raw = _POST + b"Transfer-Encoding: chunked\r\n\r\n" + body + b"0\r\n\r\n"
    problem = _problem(_exchange(game_server, raw))
    assert (problem["status"], problem["code"]) == (413, "payload_too_large"), problem


@pytest.mark.integration
@pytest.mark.parametrize(
    "raw",
    [
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n",
        b"GARBAGE\r\n\r\n",
        b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nBad Name: 1\r\n\r\n",
    ],
    ids=["huge header", "garbage request line", "bad version", "bad header name"],
)
def test_http_level_errors_are_problems_and_the_worker_keeps_serving(game_server, raw):
    problem = _problem(_exchange(game_server, raw))
    assert (problem["status"], problem["code"]) == (400, "bad_request"), problem
    status, _, _ = _exchange(game_server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200


@pytest.mark.integration
def test_a_well_framed_chunked_body_is_served(game_server):
    raw = _POST + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (
        len(_ACCOUNT),
        _ACCOUNT,
    )
    status, _, body = _exchange(game_server, raw)
    assert status != 400 and status < 500, body
