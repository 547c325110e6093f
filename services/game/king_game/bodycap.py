"""The body cap for chunked requests.

Flask checks ``MAX_CONTENT_LENGTH`` against a declared ``Content-Length`` (413 before reading),
but a chunked body declares none: werkzeug then reads up to the cap and stops there, silently,
so a 4 MB chunked body reached the views cut to 16 KB (and was refused as bad JSON, 400). Here
a chunked body is read up to one byte past the cap first: one that fits is handed on with its
length, as if it had come with a ``Content-Length`` (and no longer marked chunked); one that
does not is handed on declaring a length over the cap and with nothing to read, so Flask
answers it 413 ``payload_too_large`` the way it answers a declared one (and the request is
counted and logged like any other).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ChunkedBodyCap:
    """WSGI middleware: a chunked body gets the cap of ``max_body`` bytes (see the module)."""

    def __init__(self, wsgi_app: WSGIApp, max_body: int) -> None:
        self.wsgi_app = wsgi_app
        self.max_body = max_body

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not environ.get("CONTENT_LENGTH") and environ.get("wsgi.input_terminated"):
            coding = environ.get("HTTP_TRANSFER_ENCODING", "")
            if coding.strip().lower() == "chunked":
                body = environ["wsgi.input"].read(self.max_body + 1)
                # Now framed by its length (werkzeug ignores a length beside "chunked").
                del environ["HTTP_TRANSFER_ENCODING"]
                environ["CONTENT_LENGTH"] = str(len(body))
                environ["wsgi.input"] = io.BytesIO(b"" if len(body) > self.max_body else body)
        return self.wsgi_app(environ, start_response)
