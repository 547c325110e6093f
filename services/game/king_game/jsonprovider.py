"""Flask's JSON through orjson: one encoder for every body the service sends.

The views and events the service writes at full load (a match view on every ``your_turn``,
events on every stream) made the standard library's encoder about a tenth of the service's
CPU; orjson encodes the same data several times faster. Bodies are always compact UTF-8
(non-ASCII is not escaped); ``sort_keys`` is honoured, other formatting arguments are not.
"""

from __future__ import annotations

import decimal
from typing import Any

import orjson
from flask.json.provider import JSONProvider
from werkzeug.sansio.response import Response  # (the type JSONProvider.response declares)


def _default(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return str(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class OrjsonProvider(JSONProvider):
    sort_keys = False
    mimetype = "application/json"

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        option = orjson.OPT_NON_STR_KEYS
        if kwargs.get("sort_keys", self.sort_keys):
            option |= orjson.OPT_SORT_KEYS
        return orjson.dumps(obj, default=_default, option=option).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON response; the body ends with a newline, as Flask's own provider's does.

        It turns ``jsonify``'s arguments into one object with Flask's private
        ``_prepare_response_obj`` (so they mean what they mean in Flask) and builds the response
        with ``_app`` (named in ``JSONProvider``'s docstring). This is the only place that uses
        them (docs/library-seams.md)."""
        obj = self._prepare_response_obj(args, kwargs)
        body = self.dumps(obj) + "\n"
        response: Response = self._app.response_class(body, mimetype=self.mimetype)
        return response
