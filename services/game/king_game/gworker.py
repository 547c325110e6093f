"""The game service's gunicorn worker: gevent's own WSGI server (``pywsgi``) inside gunicorn.

gunicorn ships two gevent workers. The default (``gevent``) parses requests and writes answers
with gunicorn's own HTTP code; ``gevent_pywsgi`` hands each connection to gevent's ``pywsgi``.
Measured with ``wrk`` against a one-line WSGI app (one worker, a POST of a move's size, see
docs/game-api.md): about 150 µs of CPU a request with ``gevent``, 115 µs with plain
``gevent_pywsgi`` and 73 µs with ``GameWorker`` (before the send changes below); a streamed
NDJSON line costs the same in all. A move is one POST and four stream lines, so the request's
share matters.

``GameHandler`` changes six things in gunicorn's pywsgi handler:

* an idle limit: pywsgi has no keep-alive limit, so an idle connection would hold its greenlet
  for as long as the client keeps it open. Each request line must come within the ``keepalive``
  seconds (default 30 in ``deploy/gunicorn_game.py``), else the connection is closed. A stream
  is not affected: it is one request, and its wait is for our own events. The limit is kept by
  one timer per worker (``IdleLimit``) rather than a ``gevent.Timeout`` per wait: at 1,000
  matches thousands of connections wait at once, and each timeout is half a dozen objects the
  garbage collector walks;
* the request headers are parsed by the C parser gunicorn itself uses (``gunicorn_h1c``,
  picohttpparser) instead of ``http.client.parse_headers``, which goes through the ``email``
  package and was 5 % of the workers' CPU at 1,000 moves/s. It is also stricter: obsolete line
  folding, bad header names and control characters in values get 400;
* framing that two servers could read differently is refused with 400 (``framing_problem``):
  more than one ``Content-Length`` (or a list, or a value that is not digits), a
  ``Content-Length`` beside a ``Transfer-Encoding``, and any ``Transfer-Encoding`` other than
  one plain ``chunked`` (pywsgi would read ``gzip, chunked`` as unframed). Behind a proxy
  these are the shapes of request smuggling. The 400s and 414s that pywsgi answers itself
  (this, an unreadable header section, a garbage request line) carry a problem+json body like
  every other error of the service, not pywsgi's empty one;
* no access-log record is built when the access log is off;
* fewer sends: an answer's head and its first data (all of a move's answer) go out in one
  send, where pywsgi makes two (pywsgi still builds the head; it is held back for the data),
  and each write tries a plain ``send`` before gevent's ``sendall`` (which first asks the
  kernel for the socket's buffer size);
* between two requests of a keep-alive connection it keeps nothing of the last one (pywsgi
  keeps its environ, headers and input until the next request). At 1,000 matches a player's
  connection waits seconds for its next move, and whatever it keeps then is walked by the
  garbage collector (docs/performance.md).

``GameWorker`` also writes the game service's heartbeat (``beat_while_serving``), by which the
clock sweeper knows whether any worker can take moves (``king_match.serving``).

Both classes override private parts of gevent's ``pywsgi.WSGIHandler`` and gunicorn's
``GeventPyWSGIWorker``; this module is the only one that touches them. What they rely on, and
the tests that catch an upgrade changing it, are listed in docs/library-seams.md.

Use: ``worker_class = "king_game.gworker.GameWorker"`` (the default in
``deploy/gunicorn_game.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from functools import cache
from time import monotonic
from typing import Any

import gevent
import gunicorn_h1c
from greenlet import getcurrent
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler
from king_web.wire import REFUSED_DETAIL, problem_answer

#: Limits on a request's header section, as http.client's (which pywsgi used).
MAX_HEADER_LINE = 65536
MAX_HEADERS = 100
#: What a handler keeps of a request after answering it (pywsgi's attributes).
_PER_REQUEST = ("environ", "headers", "wsgi_input", "response_headers", "result")
#: Answers up to this size go out with their head in one send (see ``_write_with_headers``).
ONE_SEND_MAX = 65536


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
    parser (RFC 9112 §6), which the rating service uses."""
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


@cache
def _problem_answer(status: int) -> bytes:
    if status == 414:
        return problem_answer(414, "the request line is too long")
    return problem_answer(status, REFUSED_DETAIL)


class IdleExpired(Exception):
    """Thrown into a connection's greenlet whose wait for a request line passed the limit."""


class IdleLimit:
    """The idle limit of one worker's keep-alive connections: a connection waiting for its next
    request line is filed here (greenlet -> when its wait began), and one repeating timer on
    the worker's event loop throws ``IdleExpired`` into those waiting longer than ``idle_s``,
    as a ``gevent.Timeout`` would (from the event loop, checked again at that moment).

    A connection is closed between ``idle_s`` and ``idle_s`` plus one sweep (a quarter of the
    limit, at most a second) after its wait began."""

    def __init__(self, idle_s: float) -> None:
        self.idle_s = idle_s
        self.waiting: dict[Any, float] = {}
        self._timer: Any = None

    def read(self, read_line: Callable[[], Any]) -> Any:
        """``read_line()`` with the limit: its result, or "" when the wait expired."""
        if self._timer is None:
            self._start()
        current = getcurrent()
        self.waiting[current] = monotonic()
        try:
            return read_line()
        except IdleExpired:
            return ""
        finally:
            self.waiting.pop(current, None)

    def _start(self) -> None:
        every = min(1.0, self.idle_s / 4)
        # (ref=False: the timer alone does not keep the worker's loop running at shutdown)
        self._timer = gevent.get_hub().loop.timer(every, every, ref=False)
        self._timer.start(self._sweep)

    def _sweep(self) -> None:
        """(On the event loop.) Expire the waits that began more than ``idle_s`` ago."""
        oldest = monotonic() - self.idle_s
        expired = [waiter for waiter, since in self.waiting.items() if since <= oldest]
        for waiter in expired:
            # Still waiting (a throw into an earlier one may have run others), and alive.
            if self.waiting.pop(waiter, None) is not None and not waiter.dead:
                waiter.throw(IdleExpired)


class GameHandler(PyWSGIHandler):  # type: ignore[misc]
    """gunicorn's pywsgi handler with an idle limit, the C header parser, no access-log record
    when the access log is off, fewer sends and nothing kept between requests (see the
    module's docstring)."""

    #: Set by ``GameWorker`` from gunicorn's ``keepalive`` setting (one per worker).
    idle: IdleLimit = IdleLimit(30.0)
    #: An answer's head waiting for its first data (``_write_with_headers``).
    _hold_head = False
    _held_head: bytearray | None = None
    #: pywsgi's status code of the answer, set by ``start_response`` before anything is sent
    #: (None, pywsgi's class default, only before that). Annotated: mypy cannot see the base.
    code: int

    def read_requestline(self) -> Any:
        return self.idle.read(super().read_requestline)

    def MessageClass(self, rfile: Any, *args: Any) -> Headers:  # (pywsgi's name for it)
        return read_headers(rfile)

    def handle_one_request(self) -> Any:
        result = super().handle_one_request()
        if isinstance(result, tuple):
            # pywsgi's own answer to a request it refused (400, 414): the same, as a problem.
            status = int(result[0])
            return result[0], _problem_answer(status)
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


class GameWorker(GeventPyWSGIWorker):  # type: ignore[misc]
    """gunicorn's ``gevent_pywsgi`` worker with ``GameHandler``, writing the game service's
    heartbeat while it serves."""

    def init_process(self) -> None:
        self.wsgi_handler = type(
            "GameHandler", (GameHandler,), {"idle": IdleLimit(float(self.cfg.keepalive or 30))}
        )
        super().init_process()

    def run(self) -> None:
        context = getattr(self.wsgi, "extensions", {}).get("king_game")
        if context is not None:
            gevent.spawn(beat_while_serving, context.store.redis, context.store.keys)
        super().run()


def beat_while_serving(redis: Any, keys: Any) -> None:
    """Write the service's heartbeat (``king_match.serving``) for as long as this worker's
    event loop runs: a worker that hangs, or cannot reach Redis, stops beating, and the clock
    sweeper then stops every player's clock until a worker serves again."""
    from king_match.serving import HEARTBEAT_EVERY_S, Heartbeat

    heartbeat = Heartbeat(redis, keys)
    while True:
        # (Redis away: no heartbeat, which is the point.)
        with contextlib.suppress(Exception):
            heartbeat.beat()
        gevent.sleep(HEARTBEAT_EVERY_S)
