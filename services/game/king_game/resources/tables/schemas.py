from __future__ import annotations

from typing import Any, ClassVar

import marshmallow as ma
from king_web.jsonbody import StrictBoolean, StrictInteger
from marshmallow import validate

from king_engine import Ruleset
from king_game.problems import Problem
from king_match.served import SERVED_RULESETS

SEED_DOC = (
    "Your deal contribution: 64 hex characters (32 random bytes), generated after you saw "
    "the table's server_commit. Left out or null: the server draws one and the transcript "
    "marks it server. Anything else: 422 bad_seed."
)
DEFAULT_RULESET = "standard"
DEFAULT_HANDS = 8
#: Every served ruleset's name and every length any of them plays, from the registry.
RULESET_NAMES: list[str] = list(SERVED_RULESETS)
ALL_LENGTHS: list[int] = sorted(
    {n for ruleset in SERVED_RULESETS.values() for n in ruleset.lengths}
)


def options_schema(rulesets: list[Ruleset]) -> dict[str, Any]:
    """The JSON Schema of ``options`` for these rulesets: each option's allowed values."""
    properties: dict[str, Any] = {}
    for ruleset in rulesets:
        for spec in ruleset.option_specs:
            values = properties.setdefault(spec.name, {"enum": []})["enum"]
            values.extend(v for v in spec.values if v not in values)
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _lengths_case(name: str, lengths: tuple[int, ...], options: bool) -> dict[str, Any]:
    """One ruleset's allowed lengths (and options, for a body that has them) as a JSON
    Schema case of ``anyOf``."""
    case: dict[str, Any] = {
        "properties": {"ruleset": {"const": name}, "hands": {"enum": list(lengths)}}
    }
    if options:
        case["properties"]["options"] = {
            "anyOf": [options_schema([SERVED_RULESETS[name]]), {"type": "null"}]
        }
    required = [] if name == DEFAULT_RULESET else ["ruleset"]
    if DEFAULT_HANDS not in lengths:
        required.append("hands")
    if required:
        case["required"] = required
    return case


#: The document's form of the rulesets' lengths (any other pair is 422 bad_table), for every
#: body with ``ruleset`` and ``hands``.
RULESET_LENGTHS: list[dict[str, Any]] = [
    _lengths_case(name, ruleset.lengths, options=False) for name, ruleset in SERVED_RULESETS.items()
]
#: The same with each ruleset's options, for a new table's body.
TABLE_CASES: list[dict[str, Any]] = [
    _lengths_case(name, ruleset.lengths, options=True) for name, ruleset in SERVED_RULESETS.items()
]
#: The same rule in words, for the bodies' descriptions.
LENGTHS_DOC = "; ".join(
    f"{name} plays {', '.join(map(str, ruleset.lengths))} hands"
    for name, ruleset in SERVED_RULESETS.items()
)
#: Documented here, checked by the match store (so that every wrong seed gets ``bad_seed``).
SEED_FORMAT = {"pattern": "^[0-9a-fA-F]{64}$", "minLength": 64, "maxLength": 64}


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer()
    player_id = ma.fields.String(allow_none=True)
    name = ma.fields.String()
    is_bot = ma.fields.Boolean()
    is_guest = ma.fields.Boolean(metadata={"description": "a guest account: show it as one"})
    automated = ma.fields.Boolean(metadata={"description": "our bot workers move for it"})
    played_by = ma.fields.String(
        validate=validate.OneOf(["player", "computer", "computer_after_forfeit"]),
        metadata={
            "description": "who moves for the seat: its player, a computer opponent, or the "
            "computer after the player forfeited"
        },
    )
    forfeited = ma.fields.Boolean()


class TableCreateSchema(ma.Schema):
    class Meta:
        openapi: ClassVar[dict[str, Any]] = {
            "description": "A new table; nobody sits yet. Keep server_commit, then sit with "
            "your client_seed through POST /tables/{id}/seats. A client_seed here is 422 "
            "seed_before_commit. Lengths: " + LENGTHS_DOC + ".",
            "anyOf": TABLE_CASES,
        }

    mode = ma.fields.String(
        required=True,
        validate=validate.OneOf(["live", "computer"]),
        metadata={"description": "live: four people, ranked; computer: you and three bots"},
    )
    hands = StrictInteger(load_default=DEFAULT_HANDS, validate=validate.OneOf(ALL_LENGTHS))
    ruleset = ma.fields.String(load_default=DEFAULT_RULESET, validate=validate.OneOf(RULESET_NAMES))
    level = ma.fields.String(
        load_default="easy",
        validate=validate.OneOf(["easy", "medium", "hard"]),
        metadata={"description": "computer tables: the bots' level"},
    )
    seat = StrictInteger(
        load_default=0,
        validate=validate.Range(min=0, max=3),
        metadata={
            "description": "computer tables: the seat you will take (the bots sit on the "
            "others); a live table's creator picks a seat when sitting"
        },
    )
    options = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=None,
        allow_none=True,
        metadata={
            **options_schema(list(SERVED_RULESETS.values())),
            "description": "the ruleset's options by name (GET /v1/rules lists each ruleset's, "
            "with their values and defaults); left out: the defaults. An unknown name or value: "
            "422 bad_table (details.field options)",
        },
    )
    sit = StrictBoolean(
        load_default=False,
        metadata={
            "enum": [False],
            "description": "only false: creating a table never seats you. Read server_commit, "
            "then POST /tables/{id}/seats with your seed (a computer table starts then); "
            "true: 422 seed_before_commit",
        },
    )

    @ma.pre_load
    def _no_seed_before_the_commitment(self, data: Any, **kwargs: object) -> Any:
        # A seed sent with creation was made before its sender saw server_commit (FAIRNESS
        # step 2); a plain unknown-field error would not tell the client what to do instead.
        if isinstance(data, dict) and "client_seed" in data:
            raise seed_before_commit()
        return data


def seed_before_commit() -> Problem:
    return Problem(
        "seed_before_commit",
        "a client seed is taken only after the table's server_commit was published: create the "
        "table without one, keep its server_commit, then POST /v1/tables/{id}/seats with your "
        "client_seed",
    )


class JoinSchema(ma.Schema):
    seat = StrictInteger(
        load_default=None,
        validate=validate.Range(min=0, max=3),
        metadata={"description": "a given seat; left out: any free seat"},
    )
    client_seed = ma.fields.String(
        load_default=None, allow_none=True, metadata={"description": SEED_DOC, **SEED_FORMAT}
    )


class TableSchema(ma.Schema):
    id = ma.fields.String(metadata={"example": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10"})
    match_id = ma.fields.String()
    mode = ma.fields.String(metadata={"example": "live"})
    ranked = ma.fields.Boolean()
    ruleset = ma.fields.String(metadata={"example": "standard"})
    hands = ma.fields.Integer(metadata={"example": 8})
    level = ma.fields.String(allow_none=True)
    options = ma.fields.Dict(
        metadata={"description": "the ruleset's options, defaults filled in ({}: it has none)"}
    )
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
