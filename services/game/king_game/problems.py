"""All HTTP errors in one shape: problem details (``application/problem+json``).

Every error body has ``type``, ``title``, ``status``, ``detail`` and a stable ``code``;
validation failures add ``errors`` (field -> messages). ``ProblemApi`` produces these bodies for
every error (our own, the engine's, marshmallow's, werkzeug's, the rate limiter's) and documents
exactly that shape in the OpenAPI document. ``STATUS_BY_CODE`` is the one table that maps a
stable code to its HTTP status.
"""

from __future__ import annotations

import http
from typing import Any

import marshmallow as ma
from flask import Response, json
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_PREFIX = "https://king.example/problems/"

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
    "seat_taken": 409,
    "table_full": 409,
    "already_seated": 409,
    "not_seated": 403,
    "table_started": 409,
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

_CODES_BY_STATUS = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_failed",
    429: "rate_limited",
    500: "internal_error",
    503: "service_unavailable",
}


class ProblemSchema(ma.Schema):
    """The error body (documentation; ``problem_response`` builds it)."""

    type = ma.fields.String(
        metadata={"description": "URI naming the problem type", "example": TYPE_PREFIX + "x"}
    )
    title = ma.fields.String(metadata={"description": "Short summary of the HTTP status"})
    status = ma.fields.Integer(metadata={"description": "HTTP status code", "example": 409})
    detail = ma.fields.String(metadata={"description": "What went wrong, for people"})
    code = ma.fields.String(
        metadata={"description": "Stable machine-readable error code", "example": "not_your_turn"}
    )
    errors = ma.fields.Dict(
        metadata={"description": "Field errors (validation only): field -> list of messages"}
    )
    details = ma.fields.Dict(
        metadata={
            "description": "Extra facts for programs, e.g. rule, allowed, current_version",
        }
    )
    current_version = ma.fields.Integer(
        metadata={"description": "On stale_version: the match's current version"}
    )


class Problem(HTTPException):
    """An error raised by our code: a stable code, a detail, optional field errors/details."""

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
        super().__init__(description=detail)
        self.code = status or STATUS_BY_CODE.get(code, 400)
        self.problem_code = code
        self.detail = detail
        self.errors = errors
        self.details = details
        self.extra_headers = headers or {}


def problem_response(
    status: int,
    code: str,
    detail: str,
    errors: dict[str, Any] | None = None,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body: dict[str, Any] = {
        "type": TYPE_PREFIX + code,
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        body["errors"] = errors
    if details:
        body["details"] = details
        if "current_version" in details:
            body["current_version"] = details["current_version"]
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


class ProblemApi(Api):
    """flask-smorest ``Api`` whose errors are problem+json bodies, documented as such."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:  # type: ignore[override]
        status = error.code or 500
        if isinstance(error, Problem):
            return problem_response(
                status,
                error.problem_code,
                error.detail,
                error.errors,
                error.details,
                error.extra_headers,
            )
        data = getattr(error, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        detail = data.get("message") or error.description or http.HTTPStatus(status).phrase
        if status == 422 and errors is not None:
            detail = "the request did not pass validation; see errors"
            # flask-smorest nests field errors by location ("json", "query"): keep the fields.
            if isinstance(errors, dict) and len(errors) == 1:
                (inner,) = errors.values()
                if isinstance(inner, dict):
                    errors = inner
        headers = dict(data.get("headers") or {})
        if status == 405 and getattr(error, "valid_methods", None):
            headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
        if status == 429:
            headers.setdefault("Retry-After", str(_retry_after()))
            detail = "too many requests; slow down and retry after Retry-After seconds"
        if status >= 500:
            detail = http.HTTPStatus(status).phrase.lower()
        code = _CODES_BY_STATUS.get(status, f"http_{status}")
        return problem_response(status, code, str(detail), errors, None, headers)

    def _register_responses(self) -> None:
        # Same as flask-smorest's, but every error response is documented as problem+json.
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def _retry_after() -> int:
    """Seconds until the limit that was hit resets (1 when unknown)."""
    import math
    import time

    from flask import g

    limit = getattr(g, "view_rate_limit", None)
    if limit is None:
        return 1
    try:
        reset = limit.reset_at
        return max(1, math.ceil(reset - time.time()))
    except Exception:
        return 1


def problem_doc(blp: Any, status: int, codes: str) -> Any:
    """Document an error response of a view: problem+json with the codes it can carry."""
    code = codes.split(",")[0].split(":")[0].split()[0].strip()
    return blp.alt_response(
        status,
        schema=ProblemSchema,
        content_type=PROBLEM_CONTENT_TYPE,
        description=f"problem+json; code: {codes}",
        example={
            "type": TYPE_PREFIX + code,
            "title": http.HTTPStatus(status).phrase,
            "status": status,
            "detail": "what went wrong, in words",
            "code": code,
        },
    )
