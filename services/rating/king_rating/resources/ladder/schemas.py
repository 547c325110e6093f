"""Schemas of the all-time ladder."""

from __future__ import annotations

import marshmallow as ma

from king_rating.resources.paging import page_schema
from king_rating.resources.players.schemas import RatingSchema


class LadderEntrySchema(RatingSchema):
    rank = ma.fields.Integer(required=True)


LadderPageSchema = page_schema("LadderPage", LadderEntrySchema)
