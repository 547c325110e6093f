"""Request bodies: JSON parsed by orjson with a nesting limit, and strict field types.

webargs parses a body with the standard library's ``json``, which recurses in C for every
level of nesting: a 2 KB body of ``[[[[...`` raises ``RecursionError`` (a 500). Our bodies are
flat objects, so ``loads_body`` refuses anything nested deeper than ``MAX_DEPTH`` (a 400,
like malformed JSON), and ``Blueprint`` makes every ``@blp.arguments`` body go through it.

The body schemas type their fields strictly: ``StrictBoolean`` takes only ``true`` or
``false``, and ``StrictInteger`` only integers (never ``"1"``, ``2.9`` or ``true``; ``2.0`` is
the integer 2, as JSON Schema counts it, so the OpenAPI document's ``integer`` is exact).
Query strings are text by nature: ``QueryInteger`` takes decimal digits only (Python's ``int``
would also read ``" 5"``, ``"+5"`` and ``"5_0"``).
"""

from __future__ import annotations

import re
import typing
from typing import Any

import flask
import marshmallow as ma
import orjson
from flask_smorest import Blueprint as SmorestBlueprint
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

#: The deepest nesting a body may have (the top-level object is level 1).
MAX_DEPTH = 16


class JSONTooDeep(ValueError):
    """A body nested deeper than ``MAX_DEPTH``."""


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` has containers nested deeper than ``limit`` levels (iterative, so
    it cannot recurse itself)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def loads_body(raw: bytes | str) -> Any:
    """A JSON body as orjson reads it (strict UTF-8, no NaN, no lone surrogates);
    ``orjson.JSONDecodeError`` when it is not JSON, ``JSONTooDeep`` when nested too deep."""
    data = orjson.loads(raw)
    if too_deep(data):
        raise JSONTooDeep(f"the body is nested deeper than {MAX_DEPTH} levels")
    return data


class BodyParser(FlaskParser):
    """webargs' Flask parser with ``loads_body`` for JSON bodies.

    ``_raw_load_json`` and ``_handle_invalid_json_error`` are webargs' internal hooks (its
    ``load_json`` calls the first; not public API): this class is the one place that uses them
    (docs/library-seams.md)."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        raw = req.get_data(cache=True)
        if not raw:
            return core.missing
        try:
            return loads_body(raw)
        except JSONTooDeep as exc:
            abort(400, exc=exc, messages={"json": [str(exc)]})
        except orjson.JSONDecodeError as exc:
            self._handle_invalid_json_error(exc, req)


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    """flask-smorest's ``Blueprint`` whose ``arguments`` parse bodies with ``BodyParser``."""

    ARGUMENTS_PARSER = BodyParser()


class StrictBoolean(ma.fields.Boolean):
    """A JSON boolean: ``true`` or ``false`` only (not ``1``, ``0``, ``"yes"``)."""

    def _deserialize(
        self, value: Any, attr: str | None, data: typing.Mapping[str, Any] | None, **kwargs: Any
    ) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid", input=value)


class StrictInteger(ma.fields.Integer):
    """A JSON integer: ``2`` or ``2.0`` (a number without a fraction, as JSON Schema's
    ``integer``), never ``"2"``, ``2.5`` or ``true``."""

    def _deserialize(
        self, value: Any, attr: str | None, data: typing.Mapping[str, Any] | None, **kwargs: Any
    ) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float):
            if not value.is_integer():
                raise self.make_error("invalid", input=value)
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


_DIGITS = re.compile(r"-?[0-9]{1,20}")


class QueryInteger(ma.fields.Integer):
    """An integer in a query string: decimal digits, an optional minus, nothing else."""

    def _deserialize(
        self, value: Any, attr: str | None, data: typing.Mapping[str, Any] | None, **kwargs: Any
    ) -> int:
        if not isinstance(value, str) or _DIGITS.fullmatch(value) is None:
            raise self.make_error("invalid", input=value)
        return int(value)
