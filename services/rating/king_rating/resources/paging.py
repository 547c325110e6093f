"""Page-number pagination shared by every list endpoint.

Lists are returned as ``{"items": [...], "page": n, "page_size": m, "has_more": bool}``;
``has_more`` comes from fetching one row beyond the page, so no count of a large table is
ever needed.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from king_web.jsonbody import QueryInteger
from marshmallow import validate

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20
#: Deep pages cost an offset scan; nobody reads the board past this page.
MAX_PAGE = 10_000


class PageArgsSchema(ma.Schema):
    page = QueryInteger(
        load_default=1,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": "1-based page number", "example": 1},
    )
    page_size = QueryInteger(
        load_default=DEFAULT_PAGE_SIZE,
        validate=validate.Range(min=1, max=MAX_PAGE_SIZE),
        metadata={"description": f"items per page (1-{MAX_PAGE_SIZE})", "example": 20},
    )


def page_schema(name: str, item: type[ma.Schema]) -> type[ma.Schema]:
    """A page-of-``item`` response schema."""
    fields: dict[str, Any] = {
        "items": ma.fields.List(ma.fields.Nested(item), required=True),
        "page": ma.fields.Integer(required=True),
        "page_size": ma.fields.Integer(required=True),
        "has_more": ma.fields.Boolean(required=True),
    }
    return ma.Schema.from_dict(fields, name=name)
