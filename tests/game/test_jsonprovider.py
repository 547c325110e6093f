"""The game service's JSON provider (orjson) on a real Flask app: ``jsonify`` answers as with
Flask's own provider, and the private part of Flask it relies on is still there
(docs/library-seams.md)."""

from __future__ import annotations

import decimal
import inspect
import json

import pytest
from flask import Flask, jsonify
from flask.json.provider import DefaultJSONProvider, JSONProvider

from king_game.jsonprovider import OrjsonProvider

SHAPES = [
    ((), {}),
    (({"b": 1, "a": [1, "ü"]},), {}),
    ((1, "two", None), {}),
    ((), {"seq": 3, "name": "Ayla"}),
    ((decimal.Decimal("1.50"),), {}),
]


def _app(provider: type[JSONProvider]) -> Flask:
    app = Flask(__name__)
    app.json = provider(app)
    return app


@pytest.mark.parametrize(("args", "kwargs"), SHAPES)
def test_jsonify_answers_as_with_flasks_own_provider(args, kwargs):
    ours, theirs = _app(OrjsonProvider), _app(DefaultJSONProvider)
    with ours.app_context():
        answer = jsonify(*args, **kwargs)
    with theirs.app_context():
        expected = jsonify(*args, **kwargs)
    assert answer.mimetype == expected.mimetype == "application/json"
    assert json.loads(answer.get_data()) == json.loads(expected.get_data())
    assert answer.get_data().endswith(b"\n")  # as Flask's own provider's bodies end
    assert type(answer) is ours.response_class


def test_args_and_kwargs_together_are_refused_as_flask_refuses_them():
    with _app(OrjsonProvider).app_context(), pytest.raises(TypeError):
        jsonify(1, seq=2)


def test_the_flask_internals_the_provider_relies_on_are_there():
    """``OrjsonProvider.response`` uses ``JSONProvider._prepare_response_obj(args, kwargs)``
    (private: the rule that turns ``jsonify``'s arguments into one object) and ``_app`` (the
    weak proxy of the app that Flask's docstring names)."""
    parameters = inspect.signature(JSONProvider._prepare_response_obj).parameters
    assert list(parameters) == ["self", "args", "kwargs"]
    app = _app(OrjsonProvider)
    provider = app.json
    assert isinstance(provider, OrjsonProvider)
    assert provider._app.response_class is app.response_class
    assert provider._prepare_response_obj((), {"a": 1}) == {"a": 1}
