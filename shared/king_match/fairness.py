"""The fair deal's inputs and its published transcript (KINGDEAL-v1, FAIRNESS.md).

* At table creation the server draws ``S`` (``secrets.token_bytes(32)``) and publishes
  ``server_commit``. Seats of server bots get the 32 zero bytes at once, so every server-side
  input is fixed before the first human seed arrives.
* A human sends a 64-hex-character seed when taking a seat; one who sends none gets a seed
  drawn by the server, and the transcript says so (``seed_sources``).
* When the match has ended (finished or aborted), ``transcript`` reveals ``S`` and the seeds
  and lists every deal's contract and plays in order, rebuilt from the move log. Each entry
  has its hand and its deal number (a redealt hand's deals are separate entries: the verifier
  re-derives each of them) and how the deal ``ended``.
* A ruleset whose first declarer or dealer is drawn (``DRAWN_RULESETS``) records the opening
  draw's cards, ``draw: [[[seat, card], …], …]`` (one list per round, in the order turned
  over), re-derived from the match key as FAIRNESS.md specifies; ``first_declarer`` is its
  winner. Every other transcript says ``draw: null``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Final

from king_engine import (
    CONTRACTS,
    DealRecord,
    GameState,
    MatchState,
    format_card,
    game_move_of_action,
    get_ruleset,
    move_of_action,
    new_game,
    new_match,
    own_state,
)
from king_engine import deal as kingdeal
from king_engine.moves import ChooseContract, PlayCard

from .record import MatchRecord, decode_moves

SPEC: Final = kingdeal.SPEC
BOT_SEED_HEX: Final = kingdeal.BOT_SEED.hex()
#: The rulesets that draw who starts (FAIRNESS.md, "The opening draw"): konturlu's first
#: declarer (RULES-konturlu.md §1.3) and international's first dealer (RULES-international.md
#: R1.2) win it.
DRAWN_RULESETS: Final = frozenset({"konturlu", "international"})


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


def transcript(record: MatchRecord, moves: bytes, final: GameState | None = None) -> dict[str, Any]:
    """The full transcript of an ended match (the caller checks that it has ended). ``final``
    is the match's state at its end: its forfeit marks are replayed where they were made (a
    mark changes what the later moves do in ``traditional``)."""
    seats = record.seats
    hands: list[dict[str, Any]] = []
    first_declarer = 0
    started = all(seat is not None for seat in seats) and record.started_ms is not None
    if started and get_ruleset(record.ruleset).family is not None:
        hands, first_declarer = _own_state_deals(record, moves, final)
    elif started:
        assert final is None or isinstance(final, MatchState)
        marks = list(zip(final.forfeit_at, final.forfeits, strict=True)) if final else []
        state = new_match(record.ruleset, record.hands, match_key(record), record.options)
        current: dict[str, Any] | None = None
        for seat, action in decode_moves(moves):
            while marks and marks[0][0] <= state.version:
                state.forfeit(marks.pop(0)[1])
            if current is None or current["deal"] != state.deal_no:
                current = {
                    "hand": state.hand_index,
                    "deal": state.deal_no,
                    "declarer": state.declarer,
                    "plays": [],
                    # A replayed Kız deal keeps its contract: no move chooses it again.
                    **_contract_in_force(state),
                }
                hands.append(current)
            move = move_of_action(action)
            if isinstance(move, ChooseContract):
                current["contract"] = CONTRACTS[move.contract].code
                current["trump"] = "CDHS"[move.trump] if move.trump >= 0 else None
            elif isinstance(move, PlayCard):
                current["plays"].append([seat, format_card(move.card)])
            else:  # a call (traditional's redeal answers and King announcement)
                current.setdefault("calls", []).append([seat, str(move)])
            state.apply(seat, move)
        _mark_ends(hands, state.deals)
        first_declarer = state.first
    draw: list[Any] | None = None
    if started and record.ruleset in DRAWN_RULESETS:
        draw = kingdeal.opening_draw(match_key(record)).to_dict()["rounds"]
    return {
        "spec": SPEC,
        "match_id": record.match_id,
        "server_commit": record.server_commit,
        "server_seed": record.server_seed,
        "client_seeds": [None if seat is None else seat.seed for seat in seats],
        "seed_sources": [None if seat is None else seat.seed_source for seat in seats],
        "ruleset": record.ruleset,
        "num_hands": record.hands,
        "options": record.options or {},
        "first_declarer": first_declarer,
        "draw": draw,
        "status": record.status,
        "outcome": record.outcome,
        "hands": hands,
    }


def _own_state_deals(
    record: MatchRecord, moves: bytes, final: GameState | None
) -> tuple[list[dict[str, Any]], int]:
    """A ruleset with its own state class lists its deals itself (``deal_log``): the moves
    are replayed from the log, with the forfeits where they fell, and the state says what
    each deal held."""
    state = new_game(record.ruleset, record.hands, match_key(record), record.options)
    marks = list(zip(own_state(final).forfeit_at, final.forfeits, strict=True)) if final else []
    for seat, action in decode_moves(moves):
        while marks and marks[0][0] <= state.version:
            state.forfeit(marks.pop(0)[1])
        state.apply(seat, game_move_of_action(state.ruleset, action))
    own = own_state(state)
    return own.deal_log(), own.first


def _contract_in_force(state: MatchState) -> dict[str, str | None]:
    """The deal's contract and trump as the deal starts: none yet, unless it was carried over."""
    if state.contract < 0:
        return {"contract": None, "trump": None}
    return {
        "contract": CONTRACTS[state.contract].code,
        "trump": "CDHS"[state.trump] if state.trump >= 0 else None,
    }


def _mark_ends(entries: list[dict[str, Any]], deals: Sequence[DealRecord]) -> None:
    """How each listed deal ended: ``played``, or ``redealt``/``replayed`` with who asked and
    why; ``None`` for the deal under way when the match ended."""
    by_number = {deal.deal: deal for deal in deals}
    for entry in entries:
        deal = by_number.get(entry["deal"])
        entry["ended"] = deal.ended if deal else None
        if deal is not None and deal.ended != "played":
            entry["asked_by"], entry["reason"] = deal.asked_by, deal.reason
