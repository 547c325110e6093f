"""Problems answered below the application: when the HTTP server itself refuses a request (a
garbage request line, a header section too large, ambiguous framing), before any WSGI app runs.

These answers have the same problem+json shape as the apps' own, so a client reads every
error the same way. Standard library only: the web services' worker (``king_web.gworker``)
imports this before gevent has patched the process.

``problem_answer`` is a whole HTTP/1.1 answer (head and body) that closes the connection.
"""

from __future__ import annotations

import json
from http import HTTPStatus

#: Every service's problem ``type`` is this prefix and the body's ``code``: one absolute URI
#: scheme for all of them, so a code means the same problem whichever service sent it. The
#: ``type`` identifies the problem (``king.example`` is a reserved name, RFC 6761: nothing to
#: fetch); programs compare ``code`` (or ``type``) as strings.
TYPE_PREFIX = "https://king.example/problems/"

#: Stable codes of errors that come from HTTP itself, not from a service's own checks.
CODES_BY_STATUS: dict[int, str] = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "validation_failed",
    429: "rate_limited",
    431: "request_header_fields_too_large",
    500: "internal_error",
    503: "service_unavailable",
}


def code_for(status: int) -> str:
    return CODES_BY_STATUS.get(status, f"http_{status}")


def problem_answer(status: int, detail: str) -> bytes:
    """A whole HTTP answer with a problem+json body that closes the connection."""
    phrase = HTTPStatus(status).phrase
    code = code_for(status)
    body = json.dumps(
        {
            "type": TYPE_PREFIX + code,
            "title": phrase,
            "status": status,
            "detail": detail,
            "code": code,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {phrase}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


#: What a refused request says (never echoing the client's bytes back).
REFUSED_DETAIL = "the request line or headers could not be read, or frame the body ambiguously"
