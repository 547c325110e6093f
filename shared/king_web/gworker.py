"""The web services' gunicorn worker: gevent's own WSGI server (``pywsgi``) inside gunicorn.

Both services run it: the game service through ``king_game.gworker.GameWorker`` (this worker
plus the game's heartbeat), the rating service as ``ServiceWorker`` itself. A connection is a
greenlet (a few KB), so a client that holds one open — a player's stream, a long-poll, an idle
keep-alive connection, or a client that sends its request slowly — costs the worker a little
memory and no thread: under gunicorn's ``gthread`` worker eight slow clients took the rating
service's eight threads and ``/healthz`` went unanswered for a minute.

gunicorn ships two gevent workers. The default (``gevent``) parses requests and writes answers
with gunicorn's own HTTP code; ``gevent_pywsgi`` hands each connection to gevent's ``pywsgi``.
Measured with ``wrk`` against a one-line WSGI app (one worker, a POST of a move's size, see
docs/game-api.md): about 150 µs of CPU a request with ``gevent``, 115 µs with plain
``gevent_pywsgi`` and 73 µs with this worker (before the send changes below); a streamed
NDJSON line costs the same in all. A move is one POST and four stream lines, so the request's
share matters.

``ServiceHandler`` changes these things in gunicorn's pywsgi handler:

* read deadlines (``ReadLimits``; pywsgi itself waits for a client for ever): the request line
  must come within ``keepalive`` seconds of the last answer (or of the connection's start),
  else the connection is closed; the header section within ``GUNICORN_HEADER_TIMEOUT``
  seconds (default 10) after the request line, and the body within
  ``GUNICORN_BODY_TIMEOUT`` seconds (default 30) after the headers, else the answer is a
  408 problem and the connection is closed. A stream is not affected: it is one request,
  and its waits are for our own events. The deadlines are kept by one timer per worker rather
  than a ``gevent.Timeout`` per wait: at 1,000 matches thousands of connections wait at once,
  and each timeout is half a dozen objects the garbage collector walks;
* the request body (at most ``MAX_BODY_BYTES``, else 413) is read whole, under its deadline,
  before the app runs, and the app reads it from memory. A chunked body that is not well
  formed (a size that is not hex, such as ``-5``; a size of more than 16 hex digits) is
  refused with 400 whatever the endpoint, where pywsgi reads a body only when the app asks
  for it (a ``GET`` answered 200 before the bad chunk was seen);
* the request headers are parsed by the C parser gunicorn itself uses (``gunicorn_h1c``,
  picohttpparser) instead of ``http.client.parse_headers``, which goes through the ``email``
  package and was 5 % of the game workers' CPU at 1,000 moves/s. It is also stricter: obsolete
  line folding, bad header names and control characters in values get 400;
* framing that two servers could read differently is refused with 400 (``framing_problem``):
  more than one ``Content-Length`` (or a list, or a value that is not digits), a
  ``Content-Length`` beside a ``Transfer-Encoding``, and any ``Transfer-Encoding`` other than
  one plain ``chunked`` (pywsgi would read ``gzip, chunked`` as unframed). Behind a proxy
  these are the shapes of request smuggling. The 400s, 408s, 413s and 414s that the worker
  answers itself carry a problem+json body like every other error of the services, not
  pywsgi's empty one;
* no access-log record is built when the access log is off;
* fewer sends: an answer's head and its first data (all of a move's answer) go out in one
  send, where pywsgi makes two (pywsgi still builds the head; it is held back for the data),
  and each write tries a plain ``send`` before gevent's ``sendall`` (which first asks the
  kernel for the socket's buffer size);
* between two requests of a keep-alive connection it keeps nothing of the last one (pywsgi
  keeps its environ, headers and input until the next request). At 1,000 matches a player's
  connection waits seconds for its next move, and whatever it keeps then is walked by the
  garbage collector (docs/performance.md).

The apps cooperate with gevent's monkey-patching, which gunicorn applies in each worker before
it loads the app (no ``preload_app``): redis-py talks over patched sockets, and psycopg 3
chooses a waiting function that goes through the patched ``select`` when it is imported after
the patching (``psycopg.waiting``); psycopg-pool's threads and locks are patched into
greenlets and gevent's locks.

Both classes override private parts of gevent's ``pywsgi.WSGIHandler`` and gunicorn's
``GeventPyWSGIWorker``; this module is the only one that touches them. What they rely on, and
the tests that catch an upgrade changing it, are listed in docs/library-seams.md.

Use: ``worker_class = "king_web.gworker.ServiceWorker"`` (``deploy/gunicorn_rating.py``).
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator
from functools import cache
from time import monotonic
from typing import Any, TypeVar

import gevent
import gunicorn_h1c
from gevent.pywsgi import Input, _InvalidClientInput
from greenlet import getcurrent
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler

from king_web.wire import REFUSED_DETAIL, problem_answer

#: Limits on a request's header section, as http.client's (which pywsgi used).
MAX_HEADER_LINE = 65536
MAX_HEADERS = 100
#: The largest request body the worker reads (413 above it). The apps take far less (the game
#: service 16 KB, ``GAME_MAX_BODY_BYTES``; the rating service none): this bounds what a client
#: can make a worker hold before the app has looked at the request.
MAX_BODY_BYTES = 1 << 20
#: Defaults of the read deadlines (seconds), when ``GUNICORN_HEADER_TIMEOUT`` and
#: ``GUNICORN_BODY_TIMEOUT`` are not set; the request line's is gunicorn's ``keepalive``.
DEFAULT_HEADER_TIMEOUT_S = 10.0
DEFAULT_BODY_TIMEOUT_S = 30.0
#: What a handler keeps of a request after answering it (pywsgi's attributes).
_PER_REQUEST = ("environ", "headers", "wsgi_input", "response_headers", "result")
#: Answers up to this size go out with their head in one send (see ``_write_with_headers``).
ONE_SEND_MAX = 65536

T = TypeVar("T")


class Headers:
    """A request's headers, with the part of ``http.client.HTTPMessage``'s interface pywsgi
    uses: ``get``/``getheader`` (case-insensitive, first one), ``del``, ``headers`` (the lines),
    ``typeheader``; ``status`` is non-empty when the section was unreadable (pywsgi then
    answers 400)."""

    __slots__ = ("pairs", "status")

    def __init__(self, pairs: list[tuple[str, str]], status: str = "") -> None:
        self.pairs = pairs
        self.status = status

    def get(self, name: str, default: Any = None) -> Any:
        name = name.lower()
        for key, value in self.pairs:
            if key.lower() == name:
                return value
        return default

    getheader = get

    def __delitem__(self, name: str) -> None:
        name = name.lower()
        self.pairs = [(key, value) for key, value in self.pairs if key.lower() != name]

    @property
    def headers(self) -> Iterator[str]:
        for key, value in self.pairs:
            yield f"{key}: {value}\r\n"

    @property
    def typeheader(self) -> str | None:
        value: str | None = self.get("content-type")
        return value


def read_headers(rfile: Any) -> Headers:
    """Read a request's header section from ``rfile`` (up to its empty line) and parse it."""
    lines = []
    while True:
        line = rfile.readline(MAX_HEADER_LINE + 1)
        if len(line) > MAX_HEADER_LINE:
            return Headers([], "Line too long")
        if line in (b"\r\n", b"\n", b""):
            break
        lines.append(line)
        if len(lines) > MAX_HEADERS:
            return Headers([], "Too many headers")
    try:
        parsed = gunicorn_h1c.parse_headers(b"".join(lines) + b"\r\n")
    except gunicorn_h1c.ParseError as exc:
        return Headers([], str(exc) or "Invalid headers")
    pairs = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in parsed]
    problem = framing_problem(pairs)
    if problem:
        return Headers([], problem)
    return Headers(pairs)


def framing_problem(pairs: list[tuple[str, str]]) -> str:
    """Why the body's framing of these headers is ambiguous ("" when it is not): one server
    could take a different length from it than another (a proxy in front of us), so what one
    reads as the next request the other reads as this body. The same rules as gunicorn's own
    parser (RFC 9112 §6)."""
    lengths = [value for name, value in pairs if name.lower() == "content-length"]
    codings = [value for name, value in pairs if name.lower() == "transfer-encoding"]
    if len(lengths) > 1:
        return "more than one Content-Length"
    if lengths and not (lengths[0].isascii() and lengths[0].isdigit()):
        return "a Content-Length that is not a number"
    if codings and lengths:
        return "both Content-Length and Transfer-Encoding"
    if len(codings) > 1 or (codings and codings[0].strip().lower() != "chunked"):
        return "a Transfer-Encoding other than chunked"
    return ""


_DETAILS = {
    400: REFUSED_DETAIL,
    408: "the request was not sent in time",
    413: f"the request body is larger than {MAX_BODY_BYTES} bytes",
    414: "the request line is too long",
}


@cache
def _problem_answer(status: int) -> bytes:
    return problem_answer(status, _DETAILS.get(status, REFUSED_DETAIL))


class ReadExpired(Exception):
    """Thrown into a connection's greenlet whose wait for the client passed its deadline."""


class BodyRefused(ValueError):
    """A request body the worker does not pass on (the handler's ``_refusal`` says how it
    answers). A ``ValueError``: pywsgi takes it for a client's error, logged in a line without
    a traceback."""


def _drain(body: Any) -> None:
    while body.read(65536):
        pass


class ReadLimits:
    """The read deadlines of one worker's connections. A connection about to wait for its
    client is filed here (greenlet -> its deadline), and one repeating timer on the worker's
    event loop throws ``ReadExpired`` into those past their deadline, as a ``gevent.Timeout``
    would (from the event loop, checked again at that moment).

    A wait ends between its limit and its limit plus one sweep (a quarter of the shortest
    limit, at most a second) after it began."""

    def __init__(self, idle_s: float, header_s: float, body_s: float) -> None:
        self.idle_s = idle_s
        self.header_s = header_s
        self.body_s = body_s
        self.waiting: dict[Any, float] = {}
        self._timer: Any = None

    def within(self, limit_s: float, read: Callable[[], T]) -> T:
        """``read()``, or ``ReadExpired`` when it has not returned ``limit_s`` seconds on."""
        if self._timer is None:
            self._start()
        current = getcurrent()
        self.waiting[current] = monotonic() + limit_s
        try:
            return read()
        finally:
            self.waiting.pop(current, None)

    def _start(self) -> None:
        every = min(1.0, min(self.idle_s, self.header_s, self.body_s) / 4)
        # (ref=False: the timer alone does not keep the worker's loop running at shutdown)
        self._timer = gevent.get_hub().loop.timer(every, every, ref=False)
        self._timer.start(self._sweep)

    def _sweep(self) -> None:
        """(On the event loop.) Expire the waits whose deadline has passed."""
        now = monotonic()
        expired = [waiter for waiter, deadline in self.waiting.items() if deadline <= now]
        for waiter in expired:
            # Still waiting (a throw into an earlier one may have run others), and alive.
            if self.waiting.pop(waiter, None) is not None and not waiter.dead:
                waiter.throw(ReadExpired)


def read_limits_from_env(keepalive_s: float) -> ReadLimits:
    """The deadlines a worker uses: ``keepalive_s`` for the request line, and the header and
    body timeouts from ``GUNICORN_HEADER_TIMEOUT`` / ``GUNICORN_BODY_TIMEOUT`` (seconds)."""
    header_s = float(os.environ.get("GUNICORN_HEADER_TIMEOUT") or DEFAULT_HEADER_TIMEOUT_S)
    body_s = float(os.environ.get("GUNICORN_BODY_TIMEOUT") or DEFAULT_BODY_TIMEOUT_S)
    if min(keepalive_s, header_s, body_s) <= 0:
        raise ValueError("keepalive, GUNICORN_HEADER_TIMEOUT and GUNICORN_BODY_TIMEOUT must be > 0")
    return ReadLimits(keepalive_s, header_s, body_s)


class ServiceHandler(PyWSGIHandler):  # type: ignore[misc]
    """gunicorn's pywsgi handler with read deadlines, the body read before the app, the C
    header parser, no access-log record when the access log is off, fewer sends and nothing
    kept between requests (see the module's docstring)."""

    #: Set by ``ServiceWorker`` from its settings (one per worker).
    limits: ReadLimits = ReadLimits(30.0, DEFAULT_HEADER_TIMEOUT_S, DEFAULT_BODY_TIMEOUT_S)
    #: The request's body, read before the app runs (None: it has none).
    _body: bytes | None = None
    #: The status of the worker's own refusal of the request being read (0: none; -1: the
    #: client went away mid-body, nobody to answer).
    _refusal = 0
    #: An answer's head waiting for its first data (``_write_with_headers``).
    _hold_head = False
    _held_head: bytearray | None = None
    #: pywsgi's status code of the answer, set by ``start_response`` before anything is sent
    #: (None, pywsgi's class default, only before that). Annotated: mypy cannot see the base.
    code: int

    def read_requestline(self) -> Any:
        try:
            return self.limits.within(self.limits.idle_s, super().read_requestline)
        except ReadExpired:
            return ""  # (pywsgi: the client has gone; the connection is closed)

    def MessageClass(self, rfile: Any, *args: Any) -> Headers:  # (pywsgi's name for it)
        try:
            return self.limits.within(self.limits.header_s, lambda: read_headers(rfile))
        except ReadExpired:
            self._refusal = 408
            return Headers([], "the header section was not sent in time")

    def read_request(self, raw_requestline: str) -> Any:
        parsed = super().read_request(raw_requestline)  # (the request line and headers)
        self._body = None
        chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        if (self.content_length or chunked) and not self._connection_upgrade_requested():
            self._body = self._read_body(chunked)
        return parsed

    def _read_body(self, chunked: bool) -> bytes:
        """The whole body, read under the body deadline (``BodyRefused`` when it cannot be)."""
        expect = self.headers.get("expect", "").lower() == "100-continue"
        # pywsgi's own reader of a request's body (it answers "100 Continue" when asked).
        body = Input(
            self.rfile,
            self.content_length,
            socket=self.socket if expect else None,
            chunked_input=chunked,
        )
        declared_too_large = (self.content_length or 0) > MAX_BODY_BYTES
        data = b""
        try:
            if not declared_too_large:
                # (Chunked: a read of the cap plus one ends at the last chunk, trailers too.)
                data = self.limits.within(self.limits.body_s, lambda: body.read(MAX_BODY_BYTES + 1))
            if declared_too_large or len(data) > MAX_BODY_BYTES:
                # Too large: read the rest (still within the deadline) and drop it, so that
                # the client, still sending, gets the answer rather than a reset (one that
                # waits for "100 Continue" has sent nothing yet).
                if not (declared_too_large and expect):
                    self.limits.within(self.limits.body_s, lambda: _drain(body))
                self._refusal = 413
                raise BodyRefused(f"a body over {MAX_BODY_BYTES} bytes")
        except ReadExpired:
            self._refusal = 408
            raise BodyRefused("the body was not sent in time") from None
        except _InvalidClientInput as exc:  # a chunk pywsgi cannot read
            self._refusal = 400
            raise BodyRefused(str(exc)) from None
        except OSError as exc:  # a body that stops short: the client has gone
            self._refusal = -1
            raise BodyRefused(str(exc) or type(exc).__name__) from None
        return data

    def get_environ(self) -> Any:
        environ = super().get_environ()
        if self._body is not None:
            # The app reads the body read above, from memory, as one of a declared length.
            self.wsgi_input = Input(io.BytesIO(self._body), len(self._body))
            environ["wsgi.input"] = self.wsgi_input
            environ["CONTENT_LENGTH"] = str(len(self._body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            self._body = None
        return environ

    def handle_one_request(self) -> Any:
        self._refusal = 0
        result = super().handle_one_request()
        if isinstance(result, tuple):
            # pywsgi's own answer to a request it refused (400, 414), or the worker's (408,
            # 413, a bad body): the same, as a problem; nothing when the client has gone.
            status = self._refusal or int(result[0])
            if status < 0:
                return None
            return str(status), _problem_answer(status)
        if result is True:
            # The connection waits for its next request, at 1,000 matches for seconds: drop
            # this request's objects now, while they die by reference counting, rather than
            # keep them (and have the garbage collector walk them) until the next one.
            for name in _PER_REQUEST:
                self.__dict__.pop(name, None)  # (back to the class's empty defaults)
        return result

    def _sendall(self, data: Any) -> None:
        if self._hold_head:  # the head, held for the data that follows it
            self._hold_head = False
            self._held_head = data
            return
        if self._held_head is not None:
            data = self._held_head + data
            self._held_head = None
        # One ``send`` first: gevent's ``sendall`` asks the kernel for the socket's buffer size
        # and slices a memoryview before every send, which for a few hundred bytes (a move's
        # answer, a stream's line) costs more than the send. The rest, if any, by ``sendall``.
        sock = self.socket
        try:
            sent = sock.send(data)
            if sent < len(data):
                sock.sendall(memoryview(data)[sent:])
        except OSError as exc:
            self.status = f"socket error: {exc}"
            if self.code > 0:
                self.code = -self.code
            raise
        self.response_length += len(data)

    def _write_with_headers(self, data: Any) -> None:
        # pywsgi sends the head, then the first data: two sends, and a move's answer is all
        # "first data". Its head is held back here and goes out with that data, in one send
        # (a large body keeps its own send, uncopied).
        self._hold_head = bool(data) and len(data) <= ONE_SEND_MAX
        try:
            super()._write_with_headers(data)  # (head, then the data: both via _sendall)
        finally:
            self._hold_head = False
            self._held_head = None

    def _send_error_response_if_possible(self, error_code: int) -> None:
        # A body that turned out unreadable half way (a bad chunk): a problem too, as above.
        if error_code == 400 and not self.response_length:
            self.status, self.code = "400 Bad Request", 400
            with contextlib.suppress(OSError):
                self._sendall(_problem_answer(400))
            self.close_connection = True
            return
        super()._send_error_response_if_possible(error_code)

    def log_request(self) -> None:
        if self.server.log.access_log_enabled:
            super().log_request()


class ServiceWorker(GeventPyWSGIWorker):  # type: ignore[misc]
    """gunicorn's ``gevent_pywsgi`` worker with ``ServiceHandler`` and its read deadlines:
    the request line's is gunicorn's ``keepalive``, the header section's and the body's come
    from ``GUNICORN_HEADER_TIMEOUT`` and ``GUNICORN_BODY_TIMEOUT``."""

    def init_process(self) -> None:
        limits = read_limits_from_env(float(self.cfg.keepalive or 30))
        self.wsgi_handler = type("ServiceHandler", (ServiceHandler,), {"limits": limits})
        super().init_process()
