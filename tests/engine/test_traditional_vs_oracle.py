"""The engine's `traditional` ruleset against the independent oracle, move by move.

Random matches under every combination of ``first_four_penalties`` × ``king_feat`` (and some
with no redeals at all) are played through both; at every step the seat to move, the phase
and the exact set of legal moves must agree, and at the end the result and the score sheet.
Random deals seldom reach a redeal or the King feat, so the test cases of
RULES-traditional.md §6 that start from a hand-made deal are played through both too: their
scripted moves first, then random play to the end of the match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import king_engine
import king_engine.match

from . import oracle_traditional as ot
from .oracle_traditional import OracleMatch
from .test_oracle_traditional import (
    ALL_HEARTS,
    GOLDEN,
    R2_DEAL,
    R4_DEAL,
    VECTOR_KEY,
    first_of,
    random_move,
    suit_deal,
)

OPTION_SETS = [
    {"first_four_penalties": ffp, "king_feat": feat, "max_redeals_per_hand": cap}
    for ffp in (True, False)
    for feat in ("plain", "announced")
    for cap in (3, 0)
]
MATCHES_PER_OPTION_SET = 6


# --- the adapter: every use of the engine's API is in this block ----------------------------


def engine_match(key: bytes, options: dict[str, Any], deals: ot.Deals | None = None) -> Any:
    if deals is None:
        return king_engine.new_match("traditional", 20, key, options=options)

    def masks(number: int) -> list[int]:
        return [sum(1 << king_engine.parse_card(card) for card in hand) for hand in deals(number)]

    return king_engine.match.new_match_on_deals_for_tests("traditional", 20, masks, options)


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


def play_both(
    options: dict[str, Any],
    seed: int,
    *,
    key: bytes | None = None,
    deals: ot.Deals | None = None,
    script: tuple[str, ...] = (),
) -> Any:
    """Play one match through the oracle and the engine (the moves of ``script``, then random
    ones), comparing them at every step and at the end: the engine's final state."""
    rng = random.Random(seed)
    if key is None:
        key = rng.randbytes(32)
    match = (
        OracleMatch(key, options) if deals is None else OracleMatch(deals=deals, options=options)
    )
    state = engine_match(key, options, deals)
    history: list[str] = []
    while True:
        expected = oracle_observe(match)
        got = engine_observe(state)
        where = f"options {options}, seed {seed}, move {len(history)}, after ...{history[-12:]}"
        assert got == expected, where
        if match.phase == "over":
            break
        scripted = len(history) < len(script)
        move = script[len(history)] if scripted else random_move(match, rng)
        if scripted:
            assert move in expected["legal"], where
        seat = match.current_player()
        assert seat is not None
        match.apply(move)
        engine_apply(state, seat, move)
        history.append(move)
    result, rows = engine_outcome(state)
    assert result == match.result, f"options {options}, seed {seed}"
    optional = {name for row in rows for name in row} & {"deal", "partial"}
    assert rows == oracle_rows(match, optional), f"options {options}, seed {seed}"
    return state


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_engine_agrees_with_the_oracle(options: dict[str, Any]) -> None:
    for seed in range(MATCHES_PER_OPTION_SET):
        play_both(options, seed)


NO_FIRST_FOUR = {"first_four_penalties": False}
ANNOUNCED = {"king_feat": "announced", "first_four_penalties": False}
KEEP_3 = ("keep",) * 3
PASS_3 = ("pass",) * 3

#: §6 cases from a hand-made or vector deal: (id, deals or None for the vector key, options,
#: scripted moves). What each must show is asserted on the oracle in test_oracle_traditional.
SCENARIOS = [
    ("R1-nobody-eligible", None, {}, ("king_of_hearts", *KEEP_3)),
    ("R2-rifki-redeal", first_of(R2_DEAL), NO_FIRST_FOUR, ("king_of_hearts", "redeal")),
    ("R4-first-redeal-ends", first_of(R4_DEAL), {}, ("king_of_hearts", "keep", "redeal")),
    ("R5-up-to-the-cap", R2_DEAL, NO_FIRST_FOUR, ("king_of_hearts", "redeal") * 3),
    ("R6-all-hearts", ALL_HEARTS, NO_FIRST_FOUR, ()),
    ("R7-cap-zero", R2_DEAL, {"max_redeals_per_hand": 0}, ("king_of_hearts",)),
    ("R7-cap-zero-kiz", None, {"max_redeals_per_hand": 0}, tuple(GOLDEN)),
    ("R8-golden-kiz-replay", None, {}, tuple(GOLDEN)),
    ("R9-announce", suit_deal("CSDH"), ANNOUNCED, ("trump:H", "pass", "king")),
    ("K1-plain-king", suit_deal("CDSH"), NO_FIRST_FOUR, ("trump:D",)),
    ("K2-announced-king-fails", suit_deal("CDSH"), ANNOUNCED, ("trump:D", *PASS_3, "king")),
    ("K3-unannounced-13", suit_deal("CDSH"), ANNOUNCED, ("trump:D", *PASS_3, "pass")),
]  # fmt: skip


@pytest.mark.parametrize(("deals", "options", "script"), [s[1:] for s in SCENARIOS],
                         ids=[s[0] for s in SCENARIOS])  # fmt: skip
def test_the_specifications_cases_agree_with_the_oracle(
    deals: ot.Deals | None, options: dict[str, Any], script: tuple[str, ...]
) -> None:
    for seed in range(3):
        play_both(options, seed, key=VECTOR_KEY, deals=deals, script=script)


def test_a_plain_king_ends_the_match_in_the_engine() -> None:
    """K1 on the engine alone: seat 1 holds every diamond, declares Koz ♦ and takes ten tricks
    in a row; the hand stops there and the match ends on the feat."""
    state = play_both(
        NO_FIRST_FOUR, 0, key=VECTOR_KEY, deals=suit_deal("CDSH"), script=("trump:D",)
    )
    result = state.result()
    assert (result["end_reason"], result["king_seat"]) == ("king", 1)
    assert len(state.sheet) == 1 and state.sheet[0].partial
    assert state.sheet[0].points[1] == 10 * 50  # ten Koz tricks at 50


def test_the_golden_kiz_hand_is_replayed_on_the_next_deal_in_the_engine() -> None:
    state = engine_match(VECTOR_KEY, {})
    for move in GOLDEN:
        engine_apply(state, state.current_player, move)
    assert [deal.ended for deal in state.deals] == ["replayed"]
    assert state.deal_no == 1 and state.hand_index == 0 and state.sheet == []
    assert king_engine.PHASE_NAMES[state.phase] == "play"


def test_a_played_out_match_has_the_specifications_sums_in_the_engine() -> None:
    """§5.5 on the engine alone: each scored hand sums to its contract's total, the penalties
    to −5,200 and the Koz hands to +5,200, every penalty twice, the four totals to 0."""
    for seed in range(12):
        rng = random.Random(seed)
        state = engine_match(rng.randbytes(32), {"king_feat": "announced"})
        while not state.is_over:
            legal = state.legal_moves()
            calls = [m for m in legal if str(m) == "pass"]  # no announcement: no King end
            state.apply(state.current_player, calls[0] if calls else rng.choice(legal))
        assert state.result()["end_reason"] == "played_out"
        sheet = state.sheet
        assert len(sheet) == 20
        for record in sheet:
            assert sum(record.points) == king_engine.CONTRACTS[record.contract].total
        koz = [r for r in sheet if r.contract == king_engine.TRUMP]
        assert len(koz) == 8 and sum(sum(r.points) for r in koz) == 5200
        assert sum(sum(r.points) for r in sheet if r not in koz) == -5200
        counts = [sum(r.contract == c for r in sheet) for c in king_engine.PENALTY_CONTRACTS]
        assert counts == [2] * 6
        assert sum(state.totals) == 0
