"""All HTTP errors in one shape: problem details (``application/problem+json``).

Every error body has ``type``, ``title``, ``status``, ``detail`` and a stable ``code``;
validation failures add ``errors`` (field -> messages) and refusals of the game add ``details``
(the broken rule, the allowed contracts, the current version). ``ProblemApi`` (shared with the
rating service: ``king_web.problems``) produces these bodies for every error — our own, the
engine's, marshmallow's, werkzeug's, the rate limiter's — and documents exactly that shape in
the OpenAPI document. ``STATUS_BY_CODE`` is the one table that maps a stable code to its HTTP
status.
"""

from __future__ import annotations

import functools
import http
from typing import Any

import marshmallow as ma
from king_web import problems as shared
from king_web.problems import PROBLEM_CONTENT_TYPE

#: The problem ``type`` prefix all our services share (``king_web.problems``).
TYPE_PREFIX = shared.TYPE_PREFIX

STATUS_BY_CODE: dict[str, int] = {
    # the request itself
    "bad_request": 400,
    "validation_failed": 422,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "method_not_allowed": 405,
    "not_found": 404,
    "rate_limited": 429,
    # who is asking
    "unauthenticated": 401,
    "invalid_credentials": 401,
    "forbidden": 403,
    "name_taken": 409,
    # tables
    "bad_table": 422,
    "bad_seed": 422,
    "seed_before_commit": 422,
    "seat_taken": 409,
    "table_full": 409,
    "already_seated": 409,
    "not_seated": 403,
    "table_started": 409,
    "seat_reserved": 409,
    # quick match
    "already_queued": 409,
    "already_playing": 409,
    "table_found": 409,
    "no_table_found": 409,
    "table_expired": 409,
    # play (the engine's codes and the match layer's)
    "not_your_turn": 409,
    "wrong_phase": 409,
    "match_over": 409,
    "match_not_started": 409,
    "match_not_over": 409,
    "seat_forfeited": 409,
    "stale_version": 409,
    "idempotency_key_reused": 422,
    "card_not_in_hand": 422,
    "illegal_card": 422,
    "contract_unavailable": 422,
    "bad_move": 422,
    "bad_card": 422,
    "bad_suit": 422,
    "unknown_contract": 422,
    "trump_required": 422,
    "trump_not_allowed": 422,
    # the service
    "busy": 503,
    "service_unavailable": 503,
    "internal_error": 500,
}


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
    """An error raised by our code: a stable code (its status from ``STATUS_BY_CODE``), a
    detail, optional field errors, details and headers."""

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
            status or STATUS_BY_CODE.get(code, 400),
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


def problem_doc(blp: Any, status: int, codes: str) -> Any:
    """Document an error response of a view: problem+json with the codes it can carry.

    ``codes`` lists them, each optionally with a note: ``"seat_taken (details.free_seats),
    table_full"`` or ``"match_not_over: seeds are revealed at the end"``. Every code must have
    this status in ``STATUS_BY_CODE`` (so a response never lists another status's codes); each
    gets an example body.
    """
    names = [part.split(":")[0].split()[0] for part in codes.split(",")]
    wrong = [name for name in names if STATUS_BY_CODE.get(name) != status]
    if wrong:
        raise ValueError(f"not {status} codes: {', '.join(wrong)}")
    return blp.alt_response(
        status,
        schema=ProblemSchema,
        content_type=PROBLEM_CONTENT_TYPE,
        description=f"problem+json; code: {codes}",
        examples={
            name: {"summary": name, "value": problem_example(status, name)} for name in names
        },
    )


def problem_example(status: int, code: str) -> dict[str, Any]:
    """An example problem+json body of ``code`` (the OpenAPI document's)."""
    return {
        "type": TYPE_PREFIX + code,
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "detail": "what went wrong, in words",
        "code": code,
    }
