from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

#: Postgres text cannot hold NUL: refuse it here (422) rather than fail in the database (500).
NO_NUL = validate.Regexp(r"^[^\x00]*$", error="must not contain NUL characters")


class AccountCreateSchema(ma.Schema):
    name = ma.fields.String(
        required=True,
        validate=[validate.Length(min=1, max=40), NO_NUL],
        metadata={"example": "Ayşe", "pattern": "^[^\\u0000]*$"},
    )
    password = ma.fields.String(
        load_default=None,
        validate=validate.Length(min=8, max=200),
        metadata={"description": "Leave out for a guest account (no later log-in)"},
    )
    is_bot = ma.fields.Boolean(
        load_default=False, metadata={"description": "A program that plays: flagged as a bot"}
    )


class LoginSchema(ma.Schema):
    name = ma.fields.String(
        required=True,
        validate=[validate.Length(min=1, max=40), NO_NUL],
        metadata={"pattern": "^[^\\u0000]*$"},
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
