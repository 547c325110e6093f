"""The engine's `traditional` ruleset against the independent oracle, move by move.

Random matches under every combination of ``first_four_penalties`` × ``king_feat`` (and some
with no redeals at all) are played through both; at every step the seat to move, the phase
and the exact set of legal moves must agree, and at the end the result and the score sheet.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import king_engine

from .oracle_traditional import OracleMatch
from .test_oracle_traditional import random_move

pytestmark = pytest.mark.skipif(
    "traditional" not in king_engine.RULESETS,
    reason="the engine has no `traditional` ruleset yet",
)

OPTION_SETS = [
    {"first_four_penalties": ffp, "king_feat": feat, "max_redeals_per_hand": cap}
    for ffp in (True, False)
    for feat in ("plain", "announced")
    for cap in (3, 0)
]
MATCHES_PER_OPTION_SET = 6


# --- the adapter: every use of the engine's API is in this block ----------------------------


def engine_match(key: bytes, options: dict[str, Any]) -> Any:
    return king_engine.new_match("traditional", 20, key, options=options)


def engine_apply(state: Any, seat: int, text: str) -> None:
    state.apply(seat, king_engine.parse_move(text))


def engine_observe(state: Any) -> dict[str, Any]:
    """What is compared with the oracle, in the oracle's terms."""
    return {
        "player": state.current_player,
        "phase": king_engine.PHASE_NAMES[state.phase],
        "legal": {str(move) for move in state.legal_moves()},
    }


def engine_outcome(state: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The result (§5.6 keys) and the score sheet rows (hand, declarer, contract as text,
    points, and deal and partial when the engine's rows carry them)."""
    result = state.result()
    keys = ("end_reason", "king_seat", "totals", "outcome", "winners", "places")
    rows = []
    for record in state.sheet:
        row = record.to_dict() if hasattr(record, "to_dict") else dict(record._asdict())
        contract = row["contract"]
        if contract == "trump":
            contract = f"trump:{row['trump']}"
        shaped = {
            "hand": row.get("hand", row.get("hand_index")),
            "declarer": row["declarer"],
            "contract": contract,
            "points": list(record.points),
        }
        for optional in ("deal", "partial"):
            if optional in row:
                shaped[optional] = row[optional]
        rows.append(shaped)
    return {k: result[k] for k in keys}, rows


# ---------------------------------------------------------------------------------------------


def oracle_observe(match: OracleMatch) -> dict[str, Any]:
    return {
        "player": match.current_player(),
        "phase": match.phase,
        "legal": match.legal_moves(),
    }


def oracle_rows(match: OracleMatch, optional: set[str]) -> list[dict[str, Any]]:
    rows = []
    for row in match.sheet:
        shaped = {
            "hand": row.hand,
            "declarer": row.declarer,
            "contract": row.contract,
            "points": row.points,
        }
        for name in sorted(optional):
            shaped[name] = getattr(row, name)
        rows.append(shaped)
    return rows


def play_both(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    key = rng.randbytes(32)
    match = OracleMatch(key, options)
    state = engine_match(key, options)
    history: list[str] = []
    while True:
        expected = oracle_observe(match)
        got = engine_observe(state)
        where = f"options {options}, seed {seed}, move {len(history)}, after ...{history[-12:]}"
        assert got == expected, where
        if match.phase == "over":
            break
        move = random_move(match, rng)
        seat = match.current_player()
        assert seat is not None
        match.apply(move)
        engine_apply(state, seat, move)
        history.append(move)
    result, rows = engine_outcome(state)
    assert result == match.result, f"options {options}, seed {seed}"
    optional = {name for row in rows for name in row} & {"deal", "partial"}
    assert rows == oracle_rows(match, optional), f"options {options}, seed {seed}"


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_engine_agrees_with_the_oracle(options: dict[str, Any]) -> None:
    for seed in range(MATCHES_PER_OPTION_SET):
        play_both(options, seed)
