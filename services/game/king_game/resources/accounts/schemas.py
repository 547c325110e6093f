from __future__ import annotations

import marshmallow as ma
from king_web.jsonbody import StrictBoolean
from marshmallow import validate

from king_game.names import NAME_PATTERN, Name

NAME_DOC = (
    "1-40 characters once normalised (Unicode NFC, trimmed, one space between words); no "
    "control, invisible, direction, private-use or unassigned characters. The pattern is a "
    "safe subset of what the server takes."
)


class AccountCreateSchema(ma.Schema):
    name = Name(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={"example": "Ayşe", "pattern": NAME_PATTERN, "description": NAME_DOC},
    )
    password = ma.fields.String(
        load_default=None,
        validate=validate.Length(min=8, max=200),
        metadata={"description": "Leave out for a guest account (no later log-in)"},
    )
    is_bot = StrictBoolean(
        load_default=False, metadata={"description": "A program that plays: flagged as a bot"}
    )


class LoginSchema(ma.Schema):
    name = Name(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={"example": "Ayşe", "pattern": NAME_PATTERN, "description": NAME_DOC},
    )
    password = ma.fields.String(required=True, validate=validate.Length(min=1, max=200))


class AccountSchema(ma.Schema):
    id = ma.fields.String(metadata={"example": "6f1c4a52-5b8e-4e43-9a4e-0e0c8c1d2f3a"})
    name = ma.fields.String(metadata={"example": "Ayşe"})
    is_guest = ma.fields.Boolean()
    is_bot = ma.fields.Boolean()


class TokenSchema(ma.Schema):
    token = ma.fields.String(metadata={"description": "Send as Authorization: Bearer <token>"})
    account = ma.fields.Nested(AccountSchema)
