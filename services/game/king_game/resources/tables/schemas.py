from __future__ import annotations

from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import validate

SEED_DOC = (
    "Your deal contribution: 64 hex characters (32 random bytes), generated after you saw "
    "server_commit. Left out: the server draws one and the transcript says so."
)
#: What the server accepts as a client seed (``king_engine.deal.parse_seed``).
SEED_PATTERN = "^[0-9a-fA-F]{64}$"


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer()
    player_id = ma.fields.String(allow_none=True)
    name = ma.fields.String()
    is_bot = ma.fields.Boolean()
    automated = ma.fields.Boolean(metadata={"description": "our bot workers move for it"})
    forfeited = ma.fields.Boolean()


class TableCreateSchema(ma.Schema):
    class Meta:
        # The document's form of ``_seed_only_when_sitting`` below, and of the rulesets'
        # lengths (``king_engine.RULESETS``: classic20 plays 20 hands only; else 422 bad_table).
        openapi: ClassVar[dict[str, Any]] = {
            "description": "A new table. With sit: false no client_seed (send it with your "
            "seat, after reading server_commit). The classic20 ruleset plays 20 hands only.",
            "not": {
                "required": ["sit", "client_seed"],
                "properties": {"sit": {"const": False}, "client_seed": {"type": "string"}},
            },
            "anyOf": [
                {"properties": {"ruleset": {"const": "standard"}}},
                {
                    "required": ["ruleset", "hands"],
                    "properties": {"ruleset": {"const": "classic20"}, "hands": {"const": 20}},
                },
            ],
        }

    mode = ma.fields.String(
        required=True,
        validate=validate.OneOf(["live", "computer"]),
        metadata={"description": "live: four people, ranked; computer: you and three bots"},
    )
    hands = ma.fields.Integer(load_default=8, validate=validate.OneOf([8, 12, 20]))
    ruleset = ma.fields.String(
        load_default="standard", validate=validate.OneOf(["standard", "classic20"])
    )
    level = ma.fields.String(
        load_default="easy",
        validate=validate.OneOf(["easy", "medium", "hard"]),
        metadata={"description": "computer tables: the bots' level"},
    )
    seat = ma.fields.Integer(load_default=0, validate=validate.Range(min=0, max=3))
    client_seed = ma.fields.String(
        load_default=None,
        validate=validate.Length(equal=64),
        metadata={"description": SEED_DOC, "pattern": SEED_PATTERN},
    )
    sit = ma.fields.Boolean(
        load_default=True,
        metadata={
            "description": "false: do not take a seat yet; read server_commit first, then "
            "POST /tables/{id}/seats with your seed (a computer table starts then)"
        },
    )

    @ma.validates_schema
    def _seed_only_when_sitting(self, data: dict, **kwargs: object) -> None:  # type: ignore[type-arg]
        if not data.get("sit", True) and data.get("client_seed"):
            raise ma.ValidationError("send the seed when you take your seat", "client_seed")


class JoinSchema(ma.Schema):
    seat = ma.fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=3),
        metadata={"description": "a given seat; left out: any free seat"},
    )
    client_seed = ma.fields.String(
        load_default=None,
        validate=validate.Length(equal=64),
        metadata={"description": SEED_DOC, "pattern": SEED_PATTERN},
    )


class TableSchema(ma.Schema):
    id = ma.fields.String(metadata={"example": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10"})
    match_id = ma.fields.String()
    mode = ma.fields.String(metadata={"example": "live"})
    ranked = ma.fields.Boolean()
    ruleset = ma.fields.String(metadata={"example": "standard"})
    hands = ma.fields.Integer(metadata={"example": 8})
    level = ma.fields.String(allow_none=True)
    status = ma.fields.String(metadata={"example": "waiting"})
    version = ma.fields.Integer()
    server_commit = ma.fields.String(
        metadata={"description": "SHA256 commitment to the server seed (KINGDEAL-v1)"}
    )
    seats = ma.fields.List(ma.fields.Nested(SeatSchema, allow_none=True))
    free_seats = ma.fields.List(ma.fields.Integer())
    created_at_ms = ma.fields.Integer()


class SeatedSchema(ma.Schema):
    seat = ma.fields.Integer()
    table = ma.fields.Nested(TableSchema)


class LobbySchema(ma.Schema):
    tables = ma.fields.List(ma.fields.Nested(TableSchema))
