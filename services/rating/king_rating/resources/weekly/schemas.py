"""Schemas of the weekly boards."""

from __future__ import annotations

import marshmallow as ma
from king_web.jsonbody import QueryInteger
from marshmallow import validate

from king_rating.resources.rulesets import RulesetArgsSchema, RulesetPageArgsSchema


class BoardEntrySchema(ma.Schema):
    rank = ma.fields.Integer(required=True)
    player_id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    is_guest = ma.fields.Boolean(required=True, metadata={"description": "a guest account"})
    score = ma.fields.Float(
        required=True, metadata={"description": "(points + 15) / (matches + 10)"}
    )
    points = ma.fields.Float(required=True, metadata={"description": "placement points"})
    matches = ma.fields.Integer(required=True)
    reached_at = ma.fields.AwareDateTime(
        required=True, metadata={"description": "when the player reached this score"}
    )


class WeekSchema(ma.Schema):
    week = ma.fields.String(required=True, metadata={"description": "ISO week, e.g. 2026-W49"})
    starts_at = ma.fields.AwareDateTime(required=True)
    ends_at = ma.fields.AwareDateTime(required=True)
    frozen = ma.fields.Boolean(
        required=True, metadata={"description": "final ranks kept; will not change"}
    )


class BoardSchema(WeekSchema):
    ruleset = ma.fields.String(required=True, metadata={"description": "the board's ruleset"})
    items = ma.fields.List(ma.fields.Nested(BoardEntrySchema), required=True)
    page = ma.fields.Integer(required=True)
    page_size = ma.fields.Integer(required=True)
    has_more = ma.fields.Boolean(required=True)


class ResetSchema(ma.Schema):
    week = ma.fields.String(required=True)
    resets_at = ma.fields.AwareDateTime(required=True)
    seconds_until_reset = ma.fields.Integer(required=True)


class RankArgsSchema(RulesetArgsSchema):
    neighbours = QueryInteger(
        load_default=2,
        validate=validate.Range(min=0, max=25),
        metadata={"description": "players shown on each side", "example": 2},
    )


class RankSchema(ma.Schema):
    week = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True, metadata={"description": "the board's ruleset"})
    player_id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    is_guest = ma.fields.Boolean(required=True, metadata={"description": "a guest account"})
    frozen = ma.fields.Boolean(required=True)
    eligible = ma.fields.Boolean(
        required=True, metadata={"description": "has the matches needed to be listed"}
    )
    matches = ma.fields.Integer(required=True)
    min_matches = ma.fields.Integer(required=True)
    rank = ma.fields.Integer(allow_none=True)
    entry = ma.fields.Nested(BoardEntrySchema, allow_none=True)
    above = ma.fields.List(ma.fields.Nested(BoardEntrySchema), required=True)
    below = ma.fields.List(ma.fields.Nested(BoardEntrySchema), required=True)


#: A page of one ruleset's board.
PageArgsSchema = RulesetPageArgsSchema

__all__ = [
    "BoardSchema",
    "PageArgsSchema",
    "RankArgsSchema",
    "RankSchema",
    "ResetSchema",
]
