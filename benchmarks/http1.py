"""The load generator's HTTP/1.1 client for the play loop: one keep-alive connection per use,
one request at a time, on asyncio streams.

The load generator shares the machine's two cores with the service it measures, so every
microsecond it spends is taken from the service. aiohttp (still used for the set-up: accounts,
tables) spends about four times what this needs per move; a scripted player only ever sends
small requests to a server we know (gunicorn: ``Content-Length`` answers, chunked streams), so
the whole client is a request line, a few headers, and a reader for those two framings.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from urllib.parse import urlsplit


class Http1:
    """Requests to one server over one keep-alive connection (re-opened when it drops)."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        url = urlsplit(base)
        self.host = url.hostname or "127.0.0.1"
        self.port = url.port or 80
        fixed = {"Host": f"{self.host}:{self.port}", **headers}
        self.fixed = "".join(f"{name}: {value}\r\n" for name, value in fixed.items()).encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self.reader, self.writer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    def _request(self, method: str, path: str, headers: dict[str, str], body: bytes) -> bytes:
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        head = f"{method} {path} HTTP/1.1\r\n{extra}Content-Length: {len(body)}\r\n"
        return head.encode() + self.fixed + b"\r\n" + body

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, bytes]:
        """(status, body). A connection the server closed is opened again and the request
        sent once more: only for requests that are safe to repeat (ours carry an
        Idempotency-Key)."""
        data = self._request(method, path, headers, body)
        for attempt in (1, 2):
            reader, writer = await self._open()
            try:
                writer.write(data)
                status, fields = await _head(reader)
                if fields.get(b"transfer-encoding") == b"chunked":
                    answer = b"".join([chunk async for chunk in _chunks(reader)])
                else:
                    answer = await reader.readexactly(int(fields.get(b"content-length", b"0")))
                if fields.get(b"connection") == b"close":
                    self.close()
                return status, answer
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def stream(self, path: str) -> AsyncGenerator[bytes, None]:
        """GET ``path`` and yield the body as it comes, chunk by chunk (the connection is
        this stream's alone and is closed after it)."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self._request("GET", path, {}, b""))
            status, fields = await _head(reader)
            if status != 200:
                raise ConnectionError(f"stream answered {status}")
            if fields.get(b"transfer-encoding") != b"chunked":
                yield await reader.read()
                return
            async for chunk in _chunks(reader):
                yield chunk
        finally:
            writer.close()


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name:
            fields[name.strip().lower()] = value.strip().lower()
    return status, fields


async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")  # no trailers from our server: the final CRLF
            return
        data = await reader.readexactly(size + 2)
        yield data[:-2]
