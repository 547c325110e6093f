"""All HTTP errors in one shape: RFC 9457 problem details (``application/problem+json``).

Every error body has ``type``, ``title``, ``status``, ``detail`` and a stable machine-readable
``code``; validation errors add ``errors`` (marshmallow's field messages). The ``Api`` subclass
below both produces these bodies and documents them in the OpenAPI document.
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
#: Problem types are relative URIs under this prefix; ``docs/rating.md`` lists the codes.
TYPE_PREFIX = "/problems/"

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


class ProblemSchema(ma.Schema):
    """Documentation of the error body (the handler below builds it)."""

    type = ma.fields.String(metadata={"description": "URI reference naming the problem type"})
    title = ma.fields.String(metadata={"description": "Short summary of the status"})
    status = ma.fields.Integer(metadata={"description": "HTTP status code"})
    detail = ma.fields.String(metadata={"description": "What went wrong, for people"})
    code = ma.fields.String(metadata={"description": "Stable machine-readable error code"})
    errors = ma.fields.Dict(metadata={"description": "Field errors, when validation failed"})


class Problem(HTTPException):
    """An error raised by our own code with its status, stable code and detail."""

    def __init__(
        self, status: int, code: str, detail: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code
        self.detail = detail
        self.errors = errors


def problem_response(
    status: int,
    code: str,
    detail: str,
    errors: dict[str, Any] | None = None,
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
            return problem_response(status, error.problem_code, error.detail, error.errors)
        data = getattr(error, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        detail = data.get("message") or error.description or http.HTTPStatus(status).phrase
        if status == 422 and errors is not None:
            detail = "the request did not pass validation; see errors"
        headers = dict(data.get("headers") or {})
        if status == 405 and hasattr(error, "valid_methods") and error.valid_methods:
            headers["Allow"] = ", ".join(error.valid_methods)
        if status >= 500 and not isinstance(error, Problem):
            detail = http.HTTPStatus(status).phrase.lower()
        code = _CODES_BY_STATUS.get(status, f"http_{status}")
        return problem_response(status, code, str(detail), errors, headers)

    def _register_responses(self) -> None:
        # Same as flask-smorest's, but error responses are documented as problem+json.
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
