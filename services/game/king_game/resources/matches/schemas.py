from __future__ import annotations

import re
from typing import Any, ClassVar

import marshmallow as ma
from king_web.jsonbody import QueryInteger, StrictInteger
from marshmallow import validate

from king_engine import CALL_WORDS, PENALTY_CONTRACTS
from king_engine.contracts import contract_code
from king_game.resources.tables.schemas import TableSchema
from king_match.served import SERVED_RULESETS

# What the engine parses (``king_engine.parse_card``, ``parse_contract``, ``parse_move``): codes
# in either case, around spaces ignored, 10 for T; the words come from the engine.
_CARD = r"(10|[2-9TJQKAtjqka])[CDHScdhs]"
_PENALTY = "({})".format("|".join(contract_code(c) for c in PENALTY_CONTRACTS))
# Calls are read in either case; JSON Schema patterns have no case flag.
_CALL = "({})".format("|".join("".join(f"[{c}{c.upper()}]" for c in w) for w in CALL_WORDS))
# The moves of the served rulesets with their own state class, each text form as it is.
_OWN = "".join(
    "|" + re.escape(word) + (r"[0-9A-Za-z+\-,:]+" if word.endswith(":") else "")
    for word in sorted(
        {w for ruleset in SERVED_RULESETS.values() if ruleset.family for w in ruleset.move_words()}
    )
)
CARD_PATTERN = rf"^\s*{_CARD}\s*$"
CONTRACT_PATTERN = rf"^\s*({_PENALTY}|trump)\s*$"
MOVE_PATTERN = rf"^\s*({_CARD}|{_PENALTY}(\s*:\s*)?|trump\s*:\s*[CDHScdhs]|{_CALL}{_OWN})\s*$"


def _one_of(given: str, properties: dict[str, Any]) -> dict[str, Any]:
    """A ``oneOf`` branch: ``given`` (and what ``properties`` requires), the other two of move,
    card and contract left out or null."""
    others = {name: {"type": "null"} for name in ("move", "card", "contract") if name != given}
    required = [name for name, spec in properties.items() if spec.get("type") == "string"]
    return {"required": required, "properties": {**others, **properties}}


class MoveSchema(ma.Schema):
    """Exactly one of ``move``, ``card`` or ``contract``."""

    class Meta:
        # The document's form of ``exactly_one`` below and of the engine's trump rule (a null
        # counts as left out).
        openapi: ClassVar[dict[str, Any]] = {
            "description": "Exactly one of move, card or contract (a string; null counts as "
            "left out), optionally with the version you saw. trump goes with contract=trump "
            "only.",
            "oneOf": [
                _one_of("move", {"move": {"type": "string"}}),
                _one_of("card", {"card": {"type": "string"}}),
                _one_of(
                    "contract",
                    {
                        "contract": {"type": "string", "pattern": rf"^\s*{_PENALTY}\s*$"},
                        "trump": {"type": "null"},
                    },
                ),
                _one_of(
                    "contract",
                    {
                        "contract": {"type": "string", "pattern": r"^\s*trump\s*$"},
                        "trump": {"type": "string"},
                    },
                ),
            ],
        }

    move = ma.fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=16),
        metadata={
            "description": "text form: a card (QH), a contract (queens), trump:S, or a call "
            "of a ruleset's extra phases (redeal, keep, king, pass)",
            "pattern": MOVE_PATTERN,
            "example": "queens",
        },
    )
    card = ma.fields.String(
        load_default=None,
        validate=validate.Length(min=2, max=3),
        metadata={"example": "QH", "pattern": CARD_PATTERN},
    )
    contract = ma.fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=16),
        metadata={
            "description": "tricks, hearts, queens, boys, last_two, king_of_hearts, trump",
            "pattern": CONTRACT_PATTERN,
            "example": "trump",
        },
    )
    trump = ma.fields.String(
        load_default=None,
        validate=validate.OneOf(["C", "D", "H", "S"]),
        metadata={"description": "the trump suit, with contract=trump only"},
    )
    version = StrictInteger(
        load_default=None,
        validate=validate.Range(min=0, max=2**53),
        metadata={"description": "the version you saw; another one gets 409 stale_version"},
    )

    @ma.validates_schema
    def exactly_one(self, data: dict[str, object], **kwargs: object) -> None:
        given = [name for name in ("move", "card", "contract") if data.get(name) is not None]
        if len(given) != 1:
            raise ma.ValidationError(
                "give exactly one of move, card or contract", field_name="move"
            )


class ResignSchema(ma.Schema):
    version = StrictInteger(load_default=None, validate=validate.Range(min=0, max=2**53))


class EventSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    seq = ma.fields.Integer(metadata={"description": "the event's sequence number in the match"})
    type = ma.fields.String(metadata={"example": "card_played"})
    v = ma.fields.Integer(metadata={"description": "the match version after this change"})

    @ma.post_dump(pass_original=True)
    def keep_event_fields(self, data: dict, original: dict, **kwargs: object) -> dict:  # type: ignore[type-arg]
        # An event's own fields (seat, card, points, ...) vary by type: send them all.
        # (``unknown = INCLUDE`` only applies when loading.)
        return {**original, **data} if isinstance(original, dict) else data


class MoveResultSchema(ma.Schema):
    match_id = ma.fields.String()
    version = ma.fields.Integer(metadata={"description": "the match version after the move"})
    seat = ma.fields.Integer(allow_none=True)
    move = ma.fields.String(allow_none=True, metadata={"example": "QH"})
    events = ma.fields.List(ma.fields.Nested(EventSchema))


class ClockSchema(ma.Schema):
    server_time_ms = ma.fields.Integer()
    turn = ma.fields.Integer(allow_none=True)
    turn_started_ms = ma.fields.Integer()
    deadline_ms = ma.fields.Integer(
        allow_none=True, metadata={"description": "absolute time the mover's time runs out"}
    )
    move_ms = ma.fields.Integer()
    reserve_ms = ma.fields.List(ma.fields.Integer())


class MatchSchema(TableSchema):
    seat = ma.fields.Integer(metadata={"description": "your seat"})
    played_by = ma.fields.String(
        metadata={
            "description": "who moves for your seat: player (you), or computer_after_forfeit "
            "once you forfeited (a bot finishes the seat; you may not move)"
        }
    )
    my_turn = ma.fields.Boolean(
        metadata={
            "description": "you may move now (never while a bot plays your seat); legal_cards "
            "and allowed_contracts are empty otherwise"
        }
    )
    clock = ma.fields.Nested(ClockSchema)
    outcome = ma.fields.String(allow_none=True)
    forfeits = ma.fields.List(ma.fields.Integer())
    places = ma.fields.List(ma.fields.Integer())
    winners = ma.fields.List(
        ma.fields.Integer(),
        metadata={
            "description": "ended: the winning seats, the best total among the seats that did "
            "not forfeit"
        },
    )
    end_reason = ma.fields.String(
        metadata={
            "description": "ended, rulesets with a feat (traditional): played_out, king (a "
            "seat made King and wins alone) or king_failed (an announced King failed)"
        }
    )
    king_seat = ma.fields.Integer(
        allow_none=True, metadata={"description": "ended: the seat that made or announced King"}
    )
    seat_outcomes = ma.fields.List(
        ma.fields.String(),
        metadata={
            "description": "ended, rulesets with outcome labels: cikar (goes out) or batar "
            "(sinks) per seat"
        },
    )
    view = ma.fields.Dict(
        allow_none=True,
        metadata={
            "description": "your seat's view: my_cards, current_trick, tricks, legal_cards, "
            "allowed_contracts, hand_points, totals, score_sheet ..."
        },
    )


class EventsQuerySchema(ma.Schema):
    after = QueryInteger(
        load_default=0,
        validate=validate.Range(min=0, max=2**53),
        metadata={"description": "the last seq you have read (0: from the start)", "example": 12},
    )
    wait = ma.fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=25),
        metadata={
            "description": "seconds to wait for a new event (long-poll), at most 25",
            "example": 20,
        },
    )


class EventsSchema(ma.Schema):
    events = ma.fields.List(ma.fields.Nested(EventSchema))
    last_seq = ma.fields.Integer(metadata={"description": "pass as after= next time"})
    reset = ma.fields.Boolean(
        metadata={
            "description": "events before the first one returned were trimmed (older hands): "
            "re-read the match view, then go on from last_seq"
        }
    )
    finished = ma.fields.Boolean()


class StreamQuerySchema(ma.Schema):
    after = QueryInteger(
        load_default=0,
        validate=validate.Range(min=0, max=2**53),
        metadata={"description": "the last seq you have read (0: from the start)", "example": 12},
    )
    turns = ma.fields.Boolean(
        truthy={"true"},
        falsy={"false"},
        load_default=False,
        metadata={
            "description": "also send a private `your_turn` line with your view",
            "example": True,
        },
    )


class MyMatchSchema(TableSchema):
    seat = ma.fields.Integer()
    my_turn = ma.fields.Boolean()
    deadline_ms = ma.fields.Integer(allow_none=True)
    outcome = ma.fields.String(allow_none=True)


class MyMatchesSchema(ma.Schema):
    active = ma.fields.List(ma.fields.Nested(MyMatchSchema))
    recent = ma.fields.List(ma.fields.Nested(MyMatchSchema))


class TranscriptSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    spec = ma.fields.String(metadata={"example": "KINGDEAL-v1"})
    match_id = ma.fields.String()
    server_commit = ma.fields.String()
    server_seed = ma.fields.String()
    client_seeds = ma.fields.List(ma.fields.String(allow_none=True))
    seed_sources = ma.fields.List(
        ma.fields.String(allow_none=True),
        metadata={
            "description": "who made each seat's seed: client (its player sent it when sitting, "
            "after server_commit), server (drawn for a player who sent none) or bot (a server "
            "bot's 32 zero bytes)"
        },
    )
    ruleset = ma.fields.String()
    num_hands = ma.fields.Integer()
    options = ma.fields.Dict(metadata={"description": "the ruleset's options ({}: none)"})
    first_declarer = ma.fields.Integer()
    draw = ma.fields.List(
        ma.fields.List(ma.fields.List(ma.fields.Raw())),
        allow_none=True,
        metadata={
            "description": "the opening draw that chose first_declarer (konturlu: the first "
            "declarer; international: the first dealer): one list of [seat, card] per round, "
            "in the order turned over, as FAIRNESS.md derives it; null for a ruleset that "
            "draws nobody",
            "example": [[[0, "JD"], [1, "9D"], [2, "7D"], [3, "9C"]]],
        },
    )
    status = ma.fields.String()
    outcome = ma.fields.String(allow_none=True)
    hands = ma.fields.List(
        ma.fields.Dict(),
        metadata={
            "description": "each deal in order: hand, deal (its deal number: the hand number "
            "unless a hand was dealt again), declarer, contract, trump, plays [[seat, card]], "
            "ended (played, redealt or replayed, with asked_by and reason; null for the deal "
            "under way when the match ended)"
        },
    )
