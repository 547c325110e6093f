"""Trick resolution: the primitive (``king_engine.tricks``) against the independent oracle, and
the random playout's unrolled copy of it (``simulate.play_random_hand``) against the primitive,
on random tricks of every ruleset, contract and trump suit."""

from __future__ import annotations

import random

import pytest

from king_engine import format_card, new_match
from king_engine.contracts import CONTRACTS, NO_TRUMP, TRUMP
from king_engine.match import PHASE_OVER, MatchState
from king_engine.rulesets import RULESETS
from king_engine.simulate import play_random_hand
from king_engine.tricks import beats, resolve_trick, trick_winner

from . import oracle

SUITS = "CDHS"
HAND_KINDS = [
    (ruleset, contract.id, trump)
    for ruleset in RULESETS
    if RULESETS[ruleset].family is None  # the systems with their own state play elsewhere
    for contract in CONTRACTS
    for trump in (range(4) if contract.id == TRUMP else (NO_TRUMP,))
]


def random_trick(rng: random.Random) -> list[int]:
    return rng.sample(range(52), 4)


@pytest.mark.parametrize("trump", [NO_TRUMP, 0, 1, 2, 3])
def test_the_winner_is_the_oracles_on_random_tricks(trump: int) -> None:
    rng = random.Random(trump)
    contract = "trump" if trump != NO_TRUMP else "tricks"
    for _ in range(3000):
        cards = random_trick(rng)
        # Tricks sharing suits are the interesting ones: draw some from two suits only.
        if rng.random() < 0.5:
            suits = rng.sample(range(4), 2)
            pool = [s * 13 + r for s in suits for r in range(13)]
            cards = rng.sample(pool, 4)
        leader = rng.randrange(4)
        want = oracle.trick_winner(
            contract, SUITS[trump] if trump != NO_TRUMP else None, [format_card(c) for c in cards]
        )
        assert trick_winner(cards, leader, trump) == (leader + want) & 3
        # beats agrees with a card-by-card reading of the same rule.
        best = cards[0]
        for card in cards[1:]:
            if beats(card, best, trump):
                best = card
        assert cards[want] == best


def played_hand(ruleset: str, contract: int, trump: int, seed: int) -> MatchState:
    """One random hand of ``contract`` played by the unrolled playout, kept as it ended."""
    rng = random.Random(seed)
    state = new_match(ruleset, max(RULESETS[ruleset].lengths), rng.randbytes(32))
    state.num_hands = 1  # the hand's end is the match's end: its plays stay on the state
    state.choose_contract(contract, trump)
    play_random_hand(state, rng.random)
    assert state.phase == PHASE_OVER
    return state


@pytest.mark.parametrize(("ruleset", "contract", "trump"), HAND_KINDS)
def test_the_random_playout_resolves_tricks_as_the_primitive(
    ruleset: str, contract: int, trump: int
) -> None:
    rules = RULESETS[ruleset].hand_rules(contract, trump)
    for seed in range(40):
        state = played_hand(ruleset, contract, trump, seed)
        plays = state.plays
        points, tricks, taken = [0] * 4, [0] * 4, [0] * 4
        leader = state.declarer
        for trick_no, start in enumerate(range(0, len(plays), 4)):
            chunk = plays[start : start + 4]
            assert chunk[0] >> 6 == leader  # the previous trick's winner leads
            cards = [play & 63 for play in chunk]
            winner, score = resolve_trick(rules, cards, leader, trick_no)
            code = CONTRACTS[contract].code
            assert score == oracle.trick_points(code, [format_card(c) for c in cards], trick_no)
            points[winner] += score
            tricks[winner] += 1
            for card in cards:
                taken[winner] |= 1 << card
            leader = winner
        assert (points, tricks, taken) == (state.hand_points, state.tricks_taken, state.taken)
        assert state.sheet[-1].points == tuple(points)
