"""All HTTP errors in one shape: RFC 9457 problem details (``application/problem+json``).

Every error body has ``type``, ``title``, ``status``, ``detail`` and a stable machine-readable
``code``; validation errors add ``errors`` (marshmallow's field messages, by location). The
``Api`` subclass (shared with the game service: ``king_web.problems``) both produces these
bodies and documents them in the OpenAPI document.
"""

from __future__ import annotations

import functools
from typing import Any

from king_web import problems as shared

#: Problem types share the game service's scheme (``king_web.problems.TYPE_PREFIX`` and the
#: code); ``docs/rating.md`` lists the codes.
TYPE_PREFIX = shared.TYPE_PREFIX

#: Stable codes for errors that come from HTTP itself (not from our own checks).
_CODES_BY_STATUS = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    415: "unsupported_media_type",
    422: "validation_failed",
    429: "too_many_requests",
    500: "internal_error",
    503: "service_unavailable",
}


class Problem(shared.Problem):
    """An error raised by our own code with its status, stable code and detail."""

    def __init__(
        self, status: int, code: str, detail: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(status, code, detail, errors=errors)


#: ``problem_response(status, code, detail, errors=None, details=None, headers=None)``
problem_response = functools.partial(shared.problem_response, TYPE_PREFIX)


class ProblemApi(shared.ProblemApi):
    CODES_BY_STATUS = _CODES_BY_STATUS
