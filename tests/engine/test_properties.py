"""Property tests over random legal matches in both rulesets.

``test_checked_matches_obey_the_rules`` plays random matches through the checked path and
compares the engine, move by move, with the independent oracle in ``oracle.py``: the legal
cards, trick winners and trick points; it also round-trips the state through its serialised
form and checks that no view holds another seat's cards. ``test_fast_matches_keep_invariants``
plays thousands more through the fast path and checks the score and quota invariants.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from king_engine import (
    CONTRACTS,
    MatchState,
    PlayCard,
    deal,
    format_card,
    move_of_action,
    new_match,
    view_for,
)
from king_engine.rulesets import STANDARD_QUOTAS
from king_engine.simulate import play_random_hand

from . import oracle

CONFIGS = [("standard", 8), ("standard", 12), ("standard", 20), ("classic20", 20)]
CONTRACT_TOTALS = {"tricks": -650, "hearts": -390, "queens": -400, "boys": -480,
                   "last_two": -360, "king_of_hearts": -320, "trump": 650}  # fmt: skip
EARLY_END = {"hearts", "queens", "boys", "king_of_hearts"}
PENALTY_CARDS = {
    "hearts": lambda c: c[1] == "H",
    "queens": lambda c: c[0] == "Q",
    "boys": lambda c: c[0] in "KJ",
    "king_of_hearts": lambda c: c == "KH",
}


def codes(mask: int) -> list[str]:
    return [format_card(c) for c in range(52) if mask >> c & 1]


def check_quotas_at_end(ruleset: str, length: int, sheet: list[dict]) -> None:  # type: ignore[type-arg]
    if ruleset == "standard":
        penalties, trumps, cap = STANDARD_QUOTAS[length]
        for seat in range(4):
            mine = [r for r in sheet if r["declarer"] == seat]
            assert sum(r["contract"] == "trump" for r in mine) == trumps
            assert sum(r["contract"] != "trump" for r in mine) == penalties
        per_contract = Counter(r["contract"] for r in sheet if r["contract"] != "trump")
        assert max(per_contract.values()) <= cap
    else:
        per_contract = Counter(r["contract"] for r in sheet)
        assert all(per_contract[c.code] == 2 for c in CONTRACTS if c.code != "trump")
        assert Counter(r["trump"] for r in sheet if r["contract"] == "trump") == {
            "C": 2, "D": 2, "H": 2, "S": 2
        }  # fmt: skip


def play_checked_match(ruleset: str, length: int, seed: int) -> None:
    rng = random.Random(seed)
    key = rng.randbytes(32)
    state = new_match(ruleset, length, key)
    holdings: list[list[str]] = []
    trick: list[str] = []
    trick_seats: list[int] = []
    earlier: list[str] = []
    contract, trump = "", None
    sheet: list[dict] = []  # type: ignore[type-arg]
    moves = 0
    while not state.is_over:
        if not holdings:
            holdings = [codes(m) for m in deal.deal_hand(key, state.hand_index)]
        seat = state.turn
        version = state.version
        if moves % 3 == 0:
            assert MatchState.from_bytes(state.to_bytes()) == state
        if moves % 5 == 0:
            for viewer in range(4):
                shown = json.dumps(view_for(state, viewer).to_dict())
                for other in range(4):
                    if other != viewer:
                        leaked = [c for c in holdings[other] if f'"{c}"' in shown]
                        assert not leaked, f"seat {viewer} sees {leaked} of seat {other}"
                assert sorted(view_for(state, viewer).to_dict()["my_cards"]) == sorted(
                    holdings[viewer]
                )
        legal = state.legal_moves(seat)
        assert all(not state.legal_moves(s) for s in range(4) if s != seat)
        if state.phase == 1:
            expected = oracle.legal_cards(
                ruleset, contract, trump, holdings[seat], trick, earlier, len(earlier) // 4
            )
            assert {str(m) for m in legal} == expected, (contract, trump, holdings[seat], trick)
        move = rng.choice(legal)
        events = state.apply(seat, move)
        moves += 1
        assert state.version == version + 1
        for event in events:
            kind = event["type"]
            if kind == "contract_chosen":
                contract, trump = event["contract"], event["trump"]
                assert event["seat"] == seat
            elif kind == "card_played":
                card = event["card"]
                assert card in holdings[seat], "only the holder plays a card, once"
                holdings[seat].remove(card)
                trick.append(card)
                trick_seats.append(seat)
            elif kind == "trick_won":
                winner = trick_seats[oracle.trick_winner(contract, trump, trick)]
                assert event["seat"] == winner
                assert event["points"] == oracle.trick_points(contract, trick, len(earlier) // 4)
                assert event["cards"] == trick
                earlier += trick
                trick, trick_seats = [], []
                assert state.is_over or state.phase == 0 or state.turn == winner
            elif kind == "hand_scored":
                assert sum(event["points"]) == CONTRACT_TOTALS[contract]
                if event["tricks_played"] < 13:
                    assert ruleset == "standard" and contract in EARLY_END
                    taken = PENALTY_CARDS[contract]
                    assert not any(taken(c) for hand in holdings for c in hand)
                sheet.append(event)
                holdings, earlier, contract, trump = [], [], "", None
    check_quotas_at_end(ruleset, length, sheet)
    assert state.totals == [sum(r["points"][s] for r in sheet) for s in range(4)]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
@given(seed=st.integers(0, 2**63))
def test_checked_matches_obey_the_rules(ruleset: str, length: int, seed: int) -> None:
    play_checked_match(ruleset, length, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
def test_fast_matches_keep_invariants(ruleset: str, length: int) -> None:
    rng = random.Random(f"{ruleset}-{length}")
    for _ in range(600):
        state = new_match(ruleset, length, rng.randbytes(32))
        while not state.is_over:
            play_random_hand(state, rng.random)
            record = state.sheet[-1]
            assert sum(record.points) == CONTRACTS[record.contract].total
            if record.tricks_played < 13:
                assert ruleset == "standard" and CONTRACTS[record.contract].code in EARLY_END
        sheet = [r.to_dict() for r in state.sheet]
        check_quotas_at_end(ruleset, length, sheet)


@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
def test_fast_path_and_checked_path_agree(ruleset: str, length: int) -> None:
    """The same random choices through play_random_hand and through apply() end equal."""
    for seed in range(30):
        key = random.Random(seed).randbytes(32)
        fast = new_match(ruleset, length, key)
        slow = new_match(ruleset, length, key)
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        while not fast.is_over:
            play_random_hand(fast, rng_fast.random)
            # Replay the same draws: contract first, then cards, as play_random_hand does.
            allowed = slow.allowed_contracts()
            slow.apply(slow.turn, allowed[int(rng_slow.random() * len(allowed))])
            hand = slow.hand_index
            while slow.hand_index == hand and not slow.is_over:
                mask = slow.legal_card_mask()
                cards = [c for c in range(52) if mask >> c & 1]
                pick = 0 if len(cards) == 1 else int(rng_slow.random() * len(cards))
                slow.apply(slow.turn, PlayCard(cards[pick]))
            assert slow == fast
        assert fast.totals == slow.totals


def test_actions_and_moves_agree() -> None:
    rng = random.Random(9)
    state = new_match("standard", 8, rng.randbytes(32))
    while not state.is_over:
        actions = state.legal_actions()
        assert sorted(m.action for m in state.legal_moves()) == sorted(actions)
        state.apply(state.turn, move_of_action(rng.choice(actions)))
