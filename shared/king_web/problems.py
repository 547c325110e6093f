"""Every HTTP error of our services in one shape: problem details (RFC 9457,
``application/problem+json``), produced and documented by one flask-smorest ``Api`` subclass.

A body has ``type``, ``title``, ``status``, ``detail`` and a stable machine-readable ``code``;
validation failures add ``errors`` (field -> messages) and a service may add ``details`` (facts
for programs). ``ProblemApi`` turns every error into such a body — the service's own
``Problem``, werkzeug's and flask-smorest's HTTP errors (404, 405, 413, 415, 422 from marshmallow,
429 from the rate limiter) — and documents exactly that shape for every status in the OpenAPI
document, so what is sent is what is documented. Each service subclasses it with its type
prefix, its codes for bare HTTP errors and its documented schema.
"""

from __future__ import annotations

import http
import math
import time
from typing import Any, ClassVar

import marshmallow as ma
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from flask import Response, current_app, json
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from .wire import CODES_BY_STATUS
from .wire import TYPE_PREFIX as TYPE_PREFIX  # (re-exported: the services use it from here)

PROBLEM_CONTENT_TYPE = "application/problem+json"


class ProblemSchema(ma.Schema):
    """The error body, for the OpenAPI document (``problem_response`` builds it)."""

    type = ma.fields.String(metadata={"description": "URI reference naming the problem type"})
    title = ma.fields.String(metadata={"description": "Short summary of the HTTP status"})
    status = ma.fields.Integer(metadata={"description": "HTTP status code", "example": 409})
    detail = ma.fields.String(metadata={"description": "What went wrong, for people"})
    code = ma.fields.String(metadata={"description": "Stable machine-readable error code"})
    errors = ma.fields.Dict(
        metadata={"description": "Field errors (validation only): field -> list of messages"}
    )


class Problem(HTTPException):
    """An error raised by a service's own code: its status, stable code and detail, and
    optionally field errors, facts for programs and response headers."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        errors: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code
        self.detail = detail
        self.errors = errors
        self.details = details
        self.extra_headers = headers or {}


def problem_response(
    type_prefix: str,
    status: int,
    code: str,
    detail: str,
    errors: dict[str, Any] | None = None,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body: dict[str, Any] = {
        "type": type_prefix + code,
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


class _Converter(OpenAPIConverter):
    """apispec's converter, plus the JSON Schema keywords a schema's ``Meta.openapi`` adds: the
    rules its ``@validates_schema`` checks enforce (``oneOf``, ``not`` ...), which fields alone
    cannot say, so that the document states every rule the server applies."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        json_schema: dict[str, Any] = super().schema2jsonschema(schema)  # type: ignore[no-untyped-call]
        json_schema.update(getattr(getattr(schema, "Meta", None), "openapi", {}))
        return json_schema


class _Plugin(MarshmallowPlugin):
    Converter = _Converter


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest ``Api`` whose errors are problem+json bodies, documented as such."""

    #: The ``type`` of a body is this prefix and its ``code`` (the same for every service).
    TYPE_PREFIX: ClassVar[str] = TYPE_PREFIX
    #: Stable codes of errors that come from HTTP itself, not from the service's own checks.
    CODES_BY_STATUS: ClassVar[dict[int, str]] = CODES_BY_STATUS
    #: flask-smorest nests field errors by location ("json", "query"); True keeps the fields
    #: only (a request has one body).
    FLAT_FIELD_ERRORS: ClassVar[bool] = False
    ERROR_SCHEMA: type[ma.Schema] = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        if isinstance(error, Problem):
            return problem_response(
                self.TYPE_PREFIX,
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
            if self.FLAT_FIELD_ERRORS and isinstance(errors, dict) and len(errors) == 1:
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
        code = self.CODES_BY_STATUS.get(status, f"http_{status}")
        return problem_response(self.TYPE_PREFIX, status, code, str(detail), errors, None, headers)

    def __init__(
        self, app: Any = None, *, spec_kwargs: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        # ``marshmallow_plugin`` is flask-smorest's documented spec_kwargs key for the plugin.
        spec_kwargs = {"marshmallow_plugin": _Plugin(), **(spec_kwargs or {})}
        super().__init__(app, spec_kwargs=spec_kwargs, **kwargs)

    def _register_responses(self) -> None:
        # Same as flask-smorest's private method (``Api.init_app`` calls it), but every error
        # response is documented as problem+json (docs/library-seams.md).
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
                code = self.CODES_BY_STATUS.get(status, f"http_{status.value}")
                response["example"] = {
                    "type": self.TYPE_PREFIX + code,
                    "title": status.phrase,
                    "status": status.value,
                    "detail": "what went wrong, in words",
                    "code": code,
                }
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {
            "description": "Default error response",
            "schema": self.ERROR_SCHEMA,
            "example": {
                "type": self.TYPE_PREFIX + "internal_error",
                "title": "Internal Server Error",
                "status": 500,
                "detail": "internal server error",
                "code": "internal_error",
            },
        }
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def _retry_after() -> int:
    """Seconds until the window of the rate limit this request broke (Flask-Limiter's) ends,
    rounded up; 1 when unknown. The app's limiters are where Flask-Limiter files itself,
    ``app.extensions["limiter"]`` (not documented; docs/library-seams.md)."""
    for limiter in current_app.extensions.get("limiter", ()):
        limit = limiter.current_limit
        if limit is None or not limit.breached:
            continue
        try:
            reset_at: float = limit.reset_at
        except Exception:  # the limiter's storage is unreachable
            return 1
        return max(1, math.ceil(reset_at - time.time()))
    return 1
