"""Schemas of the player endpoints."""

from __future__ import annotations

import marshmallow as ma

from king_rating.resources.paging import page_schema


class RatingSchema(ma.Schema):
    player_id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    is_guest = ma.fields.Boolean(required=True, metadata={"description": "a guest account"})
    rating = ma.fields.Float(required=True, metadata={"description": "exact current rating"})
    display = ma.fields.String(
        required=True, metadata={"description": "rounded, with '?' while provisional"}
    )
    provisional = ma.fields.Boolean(
        required=True, metadata={"description": "fewer than 15 rated matches"}
    )
    rated_matches = ma.fields.Integer(required=True)
    last_rated_at = ma.fields.AwareDateTime(allow_none=True)


class RulesetRatingSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    rating = ma.fields.Float(required=True, metadata={"description": "exact current rating"})
    display = ma.fields.String(
        required=True, metadata={"description": "rounded, with '?' while provisional"}
    )
    provisional = ma.fields.Boolean(
        required=True, metadata={"description": "fewer than 15 rated matches"}
    )
    rated_matches = ma.fields.Integer(required=True)
    last_rated_at = ma.fields.AwareDateTime(allow_none=True)


class PlayerRatingSchema(RatingSchema):
    """The rating fields are those of ``ruleset`` (the one asked for, ``standard`` by default;
    1500 and no matches before a rated match there)."""

    ruleset = ma.fields.String(
        required=True, metadata={"description": "the ruleset of rating, display and counts"}
    )
    ratings = ma.fields.List(
        ma.fields.Nested(RulesetRatingSchema),
        required=True,
        metadata={"description": "every ruleset the player has a rating in"},
    )


class RatingChangeSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    ended_at = ma.fields.AwareDateTime(required=True)
    rating_before = ma.fields.Float(required=True)
    rating_after = ma.fields.Float(required=True)
    delta = ma.fields.Float(required=True)
    k = ma.fields.Float(required=True)
    place = ma.fields.Integer(required=True)
    rated_matches_before = ma.fields.Integer(required=True)


class SeatSummarySchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    player_id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    is_guest = ma.fields.Boolean(required=True, metadata={"description": "a guest account"})
    is_bot = ma.fields.Boolean(required=True)
    total = ma.fields.Integer(required=True)
    place = ma.fields.Integer(required=True)
    forfeited = ma.fields.Boolean(required=True)
    forfeit_order = ma.fields.Integer(allow_none=True)
    left_at = ma.fields.AwareDateTime(allow_none=True)


class PlayerMatchSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    mode = ma.fields.String(required=True)
    ranked = ma.fields.Boolean(required=True)
    rated = ma.fields.Boolean(required=True)
    ruleset = ma.fields.String(required=True)
    hands = ma.fields.Integer(required=True)
    outcome = ma.fields.String(required=True)
    started_at = ma.fields.AwareDateTime(required=True)
    ended_at = ma.fields.AwareDateTime(required=True)
    seat = ma.fields.Integer(required=True, metadata={"description": "this player's seat"})
    place = ma.fields.Integer(required=True)
    total = ma.fields.Integer(required=True)
    forfeited = ma.fields.Boolean(required=True)
    players = ma.fields.List(ma.fields.Nested(SeatSummarySchema), required=True)


RatingHistoryPageSchema = page_schema("RatingHistoryPage", RatingChangeSchema)
PlayerMatchPageSchema = page_schema("PlayerMatchPage", PlayerMatchSchema)
