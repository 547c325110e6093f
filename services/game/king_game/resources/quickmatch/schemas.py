from __future__ import annotations

from typing import Any, ClassVar

import marshmallow as ma
from king_web.jsonbody import StrictInteger
from marshmallow import validate

from king_game.resources.tables.schemas import (
    ALL_LENGTHS,
    DEFAULT_HANDS,
    DEFAULT_RULESET,
    LENGTHS_DOC,
    RULESET_LENGTHS,
    RULESET_NAMES,
    SEED_DOC,
    SEED_FORMAT,
)


class QuickJoinSchema(ma.Schema):
    class Meta:
        openapi: ClassVar[dict[str, Any]] = {
            "description": "A pool to join. Lengths: " + LENGTHS_DOC + ".",
            "anyOf": RULESET_LENGTHS,
        }

    ruleset = ma.fields.String(load_default=DEFAULT_RULESET, validate=validate.OneOf(RULESET_NAMES))
    hands = StrictInteger(load_default=DEFAULT_HANDS, validate=validate.OneOf(ALL_LENGTHS))


class QuickConfirmSchema(ma.Schema):
    client_seed = ma.fields.String(
        load_default=None, allow_none=True, metadata={"description": SEED_DOC, **SEED_FORMAT}
    )


class QuickStatusSchema(ma.Schema):
    state = ma.fields.String(
        metadata={
            "description": "idle (not in quick match), waiting, found (confirm with your "
            "seed), matched (the match started: match_id), missed (you did not confirm in "
            "time), dropped (your client stopped answering), left",
            "example": "waiting",
        }
    )
    server_time_ms = ma.fields.Integer()
    ruleset = ma.fields.String()
    hands = ma.fields.Integer()
    guest = ma.fields.Boolean(metadata={"description": "guests are paired with guests, unranked"})
    rating = ma.fields.Integer(metadata={"description": "the rating you are paired by"})
    joined_ms = ma.fields.Integer()
    waited_ms = ma.fields.Integer()
    window = ma.fields.Integer(
        metadata={"description": "± Elo you accept now; widens with your waiting time"}
    )
    waiting = ma.fields.Integer(metadata={"description": "players waiting in your pool"})
    table_id = ma.fields.String()
    seat = ma.fields.Integer()
    server_commit = ma.fields.String(
        metadata={"description": "the found table's deal commitment: keep it, then confirm"}
    )
    confirm_by_ms = ma.fields.Integer()
    confirmed = ma.fields.Boolean(metadata={"description": "you have taken your seat"})
    confirmed_seats = ma.fields.Integer()
    match_id = ma.fields.String()
