"""The private library APIs behind ``king_web`` (docs/library-seams.md), each through its one
seam on a small Flask app: webargs' JSON hooks (``BodyParser``), flask-smorest's response
registration (``ProblemApi._register_responses``) and Flask-Limiter's list of limiters
(``_retry_after``). Each test fails when an upgrade moves what the seam relies on."""

from __future__ import annotations

import inspect

import marshmallow as ma
from flask import Flask
from flask.views import MethodView
from flask_limiter import Limiter
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from king_web.jsonbody import MAX_DEPTH, Blueprint, BodyParser
from king_web.problems import PROBLEM_CONTENT_TYPE, ProblemApi
from webargs.flaskparser import FlaskParser


class Body(ma.Schema):
    name = ma.fields.Raw(required=True)


def _app(limit: str | None = None) -> tuple[Flask, ProblemApi]:
    app = Flask(__name__)
    app.config.update(API_TITLE="seams", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = ProblemApi(app)
    blp = Blueprint("echo", __name__)

    @blp.route("/echo")
    class Echo(MethodView):
        @blp.arguments(Body)
        def post(self, body: dict[str, object]) -> dict[str, object]:
            return body

    api.register_blueprint(blp)
    if limit is not None:
        Limiter(lambda: "everyone", app=app, default_limits=[limit], storage_uri="memory://")
    return app, api


def test_the_body_parser_replaces_webargs_json_hook():
    """``BodyParser`` overrides webargs' private ``_raw_load_json`` (called by ``load_json``)
    and calls its private ``_handle_invalid_json_error`` for text that is not JSON."""
    assert list(inspect.signature(FlaskParser._raw_load_json).parameters) == ["self", "req"]
    assert list(inspect.signature(FlaskParser._handle_invalid_json_error).parameters)[:3] == [
        "self",
        "error",
        "req",
    ]
    assert isinstance(Blueprint.ARGUMENTS_PARSER, BodyParser)
    client = _app()[0].test_client()
    ok = client.post("/echo", json={"name": "Ayla"})
    assert (ok.status_code, ok.get_json()) == (200, {"name": "Ayla"})
    # Deeper than MAX_DEPTH but far from any recursion limit: only our hook refuses it (400);
    # webargs' own parser would read it and leave it to validation.
    deep = '{"name": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    refused = client.post("/echo", data=deep, content_type="application/json")
    assert (refused.status_code, refused.mimetype) == (400, PROBLEM_CONTENT_TYPE)
    broken = client.post("/echo", data='{"name": ', content_type="application/json")
    assert (broken.status_code, broken.mimetype) == (400, PROBLEM_CONTENT_TYPE)


def test_every_documented_error_response_is_problem_json():
    """``ProblemApi._register_responses`` replaces flask-smorest's private method of the same
    name, which ``Api.init_app`` calls, and uses its undocumented ``utils.prepare_response``."""
    assert callable(Api._register_responses)
    assert list(inspect.signature(prepare_response).parameters) == [
        "response",
        "spec",
        "content_type",
    ]
    responses = _app()[1].spec.to_dict()["components"]["responses"]
    assert {"DEFAULT_ERROR", "UNPROCESSABLE_ENTITY"} <= responses.keys()  # (the ones used)
    for name, response in responses.items():
        assert list(response["content"]) == [PROBLEM_CONTENT_TYPE], name


def test_retry_after_comes_from_the_limiter_flask_limiter_registered():
    """``_retry_after`` finds the app's limiters in ``app.extensions["limiter"]`` (where
    Flask-Limiter files itself; not documented) and reads the breached limit's reset time."""
    app, _ = _app(limit="1/minute")
    assert all(isinstance(limiter, Limiter) for limiter in app.extensions["limiter"])
    client = app.test_client()
    assert client.post("/echo", json={"name": "a"}).status_code == 200
    limited = client.post("/echo", json={"name": "a"})
    assert (limited.status_code, limited.mimetype) == (429, PROBLEM_CONTENT_TYPE)
    # The rest of the one-minute window, rounded up (1 is the fallback of an unknown limit).
    assert 1 < int(limited.headers["Retry-After"]) <= 61
