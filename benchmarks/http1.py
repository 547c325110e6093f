"""The load generator's HTTP/1.1 client for the play loop: asyncio protocols, no streams.

The load generator shares the machine's two cores with the service it measures, so every
microsecond it spends is taken from the service. aiohttp (still used for the set-up: accounts,
tables) spends about four times what this needs per move, and even asyncio's own streams
(``StreamReader``: a buffer, a waiter future and a task wake-up for every read) cost a third of
what the load generator spent per move. A scripted player only ever sends small requests to a
server we know (gunicorn: ``Content-Length`` answers, chunked streams), so the whole client is a
request line, a few headers, and two parsers fed straight from ``data_received``: one for
answers framed by ``Content-Length`` and one for a chunked stream of lines.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import urlsplit

#: (status, body) of an answer; status 0 when the connection was lost before it came.
OnAnswer = Callable[[int, bytes], None]


class Endpoint:
    """Where the server is, and the header lines every request of one player carries."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        url = urlsplit(base)
        self.host = url.hostname or "127.0.0.1"
        self.port = url.port or 80
        fixed = {"Host": f"{self.host}:{self.port}", **headers}
        self.fixed = "".join(f"{name}: {value}\r\n" for name, value in fixed.items()).encode()

    def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        head = f"{method} {path} HTTP/1.1\r\n{extra}Content-Length: {len(body)}\r\n"
        return head.encode() + self.fixed + b"\r\n" + body


def _head(raw: bytes) -> tuple[int, dict[bytes, bytes]]:
    lines = raw.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name:
            fields[name.strip().lower()] = value.strip().lower()
    return status, fields


class Requests(asyncio.Protocol):
    """One keep-alive connection, one request at a time: ``send`` and get the answer through
    the callback (answers framed by ``Content-Length``, as our server sends them)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.on_answer: OnAnswer | None = None
        self.status = 0
        self.length = -1  # body length of the answer being read; -1: its head is not in yet
        self.closing = False

    @classmethod
    async def open(cls, endpoint: Endpoint) -> Requests:
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.create_connection(cls, endpoint.host, endpoint.port)
        protocol.transport = transport  # (uvloop may call connection_made after this returns)
        return protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # (uvloop's is not a subclass)

    def send(self, data: bytes, on_answer: OnAnswer) -> None:
        assert self.transport is not None and self.on_answer is None
        self.on_answer = on_answer
        self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data if self.buffer else data
        if self.length < 0:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            self.status, fields = _head(buffer[:end])
            self.length = int(fields.get(b"content-length", b"0"))
            self.closing = fields.get(b"connection") == b"close"
            buffer = buffer[end + 4 :]
        if len(buffer) < self.length:
            self.buffer = buffer
            return
        body, self.buffer = buffer[: self.length], buffer[self.length :]
        self.length = -1
        on_answer, self.on_answer = self.on_answer, None
        if self.closing and self.transport is not None:
            self.transport.close()
        if on_answer is not None:
            on_answer(self.status, body)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        on_answer, self.on_answer = self.on_answer, None
        if on_answer is not None:
            on_answer(0, b"")

    @property
    def usable(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class LineStream(asyncio.Protocol):
    """A GET whose chunked answer is a stream of lines: ``on_lines`` gets the complete lines
    each read brought (one call per read, as the server writes a commit's lines at once), and
    ``on_end`` is called once when the stream ends or the connection goes."""

    def __init__(self, on_lines: Callable[[list[bytes]], None], on_end: Callable[[], None]):
        self.on_lines = on_lines
        self.on_end: Callable[[], None] | None = on_end
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.in_body = False
        self.refused = 0  # the status of an answer that was not a stream
        self.partial = b""  # the start of a line whose end is in a later chunk

    @classmethod
    async def open(
        cls,
        endpoint: Endpoint,
        path: str,
        on_lines: Callable[[list[bytes]], None],
        on_end: Callable[[], None],
    ) -> LineStream:
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.create_connection(
            lambda: cls(on_lines, on_end), endpoint.host, endpoint.port
        )
        protocol.transport = transport  # (uvloop may call connection_made after this returns)
        transport.write(endpoint.request("GET", path, {}))
        return protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # (uvloop's is not a subclass)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data if self.buffer else data
        if not self.in_body:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            status, fields = _head(buffer[:end])
            if status != 200 or fields.get(b"transfer-encoding") != b"chunked":
                self.refused = status
                self._end()
                return
            self.in_body = True
            buffer = buffer[end + 4 :]
        text = b""
        position = 0
        finished = False
        while True:
            line_end = buffer.find(b"\r\n", position)
            if line_end < 0:
                break
            size = int(buffer[position:line_end].split(b";", 1)[0], 16)
            if size == 0:
                finished = True
                break
            start = line_end + 2
            if len(buffer) < start + size + 2:
                break
            text += buffer[start : start + size]
            position = start + size + 2
        self.buffer = buffer[position:]
        if text:
            text = self.partial + text
            lines = text.split(b"\n")
            self.partial = lines.pop()
            if lines:
                self.on_lines(lines)
        if finished:
            self._end()

    def _end(self) -> None:
        if self.transport is not None:
            self.transport.close()
        on_end, self.on_end = self.on_end, None
        if on_end is not None:
            on_end()

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        on_end, self.on_end = self.on_end, None
        if on_end is not None:
            on_end()

    def close(self) -> None:
        self.on_end = None
        if self.transport is not None:
            self.transport.close()
