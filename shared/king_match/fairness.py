"""The fair deal's inputs and its published transcript (KINGDEAL-v1, FAIRNESS.md).

* At table creation the server draws ``S`` (``secrets.token_bytes(32)``) and publishes
  ``server_commit``. Seats of server bots get the 32 zero bytes at once, so every server-side
  input is fixed before the first human seed arrives.
* A human sends a 64-hex-character seed when taking a seat; one who sends none gets a seed
  drawn by the server, and the transcript says so (``seed_sources``).
* When the match has ended (finished or aborted), ``transcript`` reveals ``S`` and the seeds
  and lists every hand's contract and plays in order, rebuilt from the move log.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from king_engine import CONTRACTS, format_card, move_of_action, new_match
from king_engine import deal as kingdeal
from king_engine.moves import ChooseContract, PlayCard

from .record import MatchRecord

SPEC: Final = kingdeal.SPEC
BOT_SEED_HEX: Final = kingdeal.BOT_SEED.hex()


def draw_server_seed() -> str:
    return secrets.token_bytes(kingdeal.SEED_BYTES).hex()


def draw_client_seed() -> str:
    """For a human who sent no seed (the transcript marks it ``server``)."""
    return secrets.token_bytes(kingdeal.SEED_BYTES).hex()


def normalise_seed(text: str) -> str:
    """A client seed as lowercase hex; ``BadInput('bad_seed')`` unless 64 hex characters."""
    return kingdeal.parse_seed(text).hex()


def commitment(match_id: str, server_seed_hex: str) -> str:
    return kingdeal.server_commit(match_id, bytes.fromhex(server_seed_hex))


def match_key(record: MatchRecord) -> bytes:
    seeds = [bytes.fromhex(record.seat(index).seed) for index in range(4)]
    return kingdeal.match_key(record.match_id, bytes.fromhex(record.server_seed), seeds)


def transcript(record: MatchRecord, moves: bytes) -> dict[str, Any]:
    """The full transcript of an ended match (the caller checks that it has ended)."""
    seats = record.seats
    hands: list[dict[str, Any]] = []
    if all(seat is not None for seat in seats) and record.started_ms is not None:
        state = new_match(record.ruleset, record.hands, match_key(record))
        current: dict[str, Any] | None = None
        for byte in moves:
            seat, action = byte >> 6, byte & 63
            if current is None or current["hand"] != state.hand_index:
                current = {
                    "hand": state.hand_index,
                    "declarer": state.declarer,
                    "contract": None,
                    "trump": None,
                    "plays": [],
                }
                hands.append(current)
            move = move_of_action(action)
            if isinstance(move, ChooseContract):
                current["contract"] = CONTRACTS[move.contract].code
                current["trump"] = "CDHS"[move.trump] if move.trump >= 0 else None
            elif isinstance(move, PlayCard):
                current["plays"].append([seat, format_card(move.card)])
            state.apply(seat, move)
    return {
        "spec": SPEC,
        "match_id": record.match_id,
        "server_commit": record.server_commit,
        "server_seed": record.server_seed,
        "client_seeds": [None if seat is None else seat.seed for seat in seats],
        "seed_sources": [None if seat is None else seat.seed_source for seat in seats],
        "ruleset": record.ruleset,
        "num_hands": record.hands,
        "first_declarer": 0,
        "status": record.status,
        "outcome": record.outcome,
        "hands": hands,
    }
