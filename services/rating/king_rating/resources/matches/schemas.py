"""Schemas of the match archive."""

from __future__ import annotations

import marshmallow as ma


class SeatRatingChangeSchema(ma.Schema):
    rating_before = ma.fields.Float(required=True)
    rating_after = ma.fields.Float(required=True)
    delta = ma.fields.Float(required=True)
    k = ma.fields.Float(required=True)
    place = ma.fields.Integer(required=True)


class ArchivedSeatSchema(ma.Schema):
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
    rating_change = ma.fields.Nested(SeatRatingChangeSchema, allow_none=True)


class ArchivedMatchSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    schema_version = ma.fields.Integer(required=True)
    mode = ma.fields.String(required=True)
    ranked = ma.fields.Boolean(required=True)
    rated = ma.fields.Boolean(required=True)
    ruleset = ma.fields.String(required=True)
    hands = ma.fields.Integer(required=True)
    outcome = ma.fields.String(required=True)
    started_at = ma.fields.AwareDateTime(required=True)
    ended_at = ma.fields.AwareDateTime(required=True)
    week = ma.fields.String(allow_none=True, metadata={"description": "board week if rated"})
    board_applied = ma.fields.Boolean(required=True)
    ingested_at = ma.fields.AwareDateTime(required=True)
    players = ma.fields.List(ma.fields.Nested(ArchivedSeatSchema), required=True)
    winners = ma.fields.List(
        ma.fields.Integer(),
        required=True,
        metadata={
            "description": "the seats placed first that did not forfeit (after a King in "
            "traditional, the King maker; the game's çıkar/batar labels are its own)"
        },
    )
    fairness = ma.fields.Dict(
        required=True, metadata={"description": "the deal's fairness transcript, as received"}
    )
