from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from king_game.resources.tables.schemas import SEED_DOC


class QuickJoinSchema(ma.Schema):
    ruleset = ma.fields.String(
        load_default="standard", validate=validate.OneOf(["standard", "classic20"])
    )
    hands = ma.fields.Integer(load_default=8, validate=validate.OneOf([8, 12, 20]))


class QuickConfirmSchema(ma.Schema):
    client_seed = ma.fields.String(
        load_default=None, validate=validate.Length(equal=64), metadata={"description": SEED_DOC}
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
