"""All HTTP errors in one shape: problem details (``application/problem+json``).

Every error body has ``type``, ``title``, ``status``, ``detail`` and a stable ``code``;
validation failures add ``errors`` (field -> messages) and refusals of the game add ``details``
(the broken rule, the allowed contracts, the current version). ``ProblemApi`` (shared with the
rating service: ``king_web.problems``) produces these bodies for every error — our own, the
engine's, marshmallow's, werkzeug's, the rate limiter's — and documents exactly that shape in
the OpenAPI document. Each code's status is in ``king_game.errorcodes``, the one table of
codes; ``problems`` documents a view's error responses from it.
"""

from __future__ import annotations

import functools
import http
from collections.abc import Callable
from typing import Any, TypeVar

import marshmallow as ma
from king_web import problems as shared
from king_web.problems import PROBLEM_CONTENT_TYPE

from king_game.errorcodes import ERRORS, status_of

F = TypeVar("F", bound=Callable[..., Any])

#: The problem ``type`` prefix all our services share (``king_web.problems``).
TYPE_PREFIX = shared.TYPE_PREFIX


class ProblemSchema(shared.ProblemSchema):
    """The error body (documentation; ``problem_response`` builds it)."""

    code = ma.fields.String(
        metadata={"description": "Stable machine-readable error code", "example": "not_your_turn"}
    )
    details = ma.fields.Dict(
        metadata={
            "description": "Extra facts for programs, e.g. rule, allowed, current_version",
        }
    )
    current_version = ma.fields.Integer(
        metadata={"description": "On stale_version: the match's current version"}
    )


class Problem(shared.Problem):
    """An error raised by our code: a stable code (its status from ``king_game.errorcodes``;
    a code missing there is a KeyError), a detail, optional field errors, details and headers."""

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        errors: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
        status: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(
            status or status_of(code),
            code,
            detail,
            errors=errors,
            details=details,
            headers=headers,
        )


#: ``problem_response(status, code, detail, errors=None, details=None, headers=None)``
problem_response = functools.partial(shared.problem_response, TYPE_PREFIX)


class ProblemApi(shared.ProblemApi):
    FLAT_FIELD_ERRORS = True
    ERROR_SCHEMA = ProblemSchema


#: Operation documentation of an endpoint that needs no token (the document's default
#: security is the bearer token): ``@blp.doc(**PUBLIC)``.
PUBLIC: dict[str, Any] = {"security": []}


def problems(blp: Any, *codes: str) -> Callable[[F], F]:
    """Document the error responses of a view: the codes it may answer, each documented under
    its status from ``king_game.errorcodes`` (one problem+json response per status, with an
    example body of each code), so a view cannot list a code under another status.

    A code may carry a note for this view: ``"seat_taken (details.free_seats)"`` or
    ``"match_not_over: seeds are revealed at the end"``.
    """
    by_status: dict[int, list[tuple[str, str]]] = {}
    if "unauthenticated" in codes:
        # Whatever takes a token may find it expired (king_game.accounts).
        codes = (*codes, "token_expired")
    for text in codes:
        name = text.split(":")[0].split()[0]
        entry = ERRORS[name]
        if entry.sent_as is not None:
            raise ValueError(f"{name} is sent as {entry.sent_as}: document that")
        by_status.setdefault(entry.status, []).append((name, text))
    docs = [
        blp.alt_response(
            status,
            schema=ProblemSchema,
            content_type=PROBLEM_CONTENT_TYPE,
            description="problem+json; code: " + ", ".join(text for _, text in listed),
            examples={
                name: {
                    "summary": name,
                    "description": ERRORS[name].when,
                    "value": problem_example(status, name),
                }
                for name, _ in listed
            },
        )
        for status, listed in sorted(by_status.items())
    ]

    def decorator(func: F) -> F:
        # Two calls could document one status twice, the later hiding the earlier's codes.
        # (The mark survives the decorators above: they wrap with functools.wraps.)
        if getattr(func, "_king_problems", False):
            raise ValueError(f"{func.__qualname__}: one @problems a view")
        for doc in docs:
            func = doc(func)
        func._king_problems = True  # type: ignore[attr-defined]
        return func

    return decorator


def problem_example(status: int, code: str) -> dict[str, Any]:
    """An example problem+json body of ``code`` (the OpenAPI document's)."""
    return {
        "type": TYPE_PREFIX + code,
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "detail": "what went wrong, in words",
        "code": code,
    }
