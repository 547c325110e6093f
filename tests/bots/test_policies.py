"""The policies always answer with a legal move, deterministically, from the view alone."""

from __future__ import annotations

import dataclasses
import random

import pytest

from king_bots import BOT_RULESETS, decide
from king_bots.policies import LEVELS, Policy
from king_bots.policies.knowledge import allowed_masks, sample_hands
from king_engine import PHASE_PLAY, Call, ChooseContract, PlayCard, SeatView, view_for
from king_engine.cards import FULL_DECK, SUIT_MASK
from king_engine.simulate import state_from_view

from .helpers import random_positions

RULESETS = BOT_RULESETS
# The hard bot with a small fixed search (2 worlds, 2 world-chain swaps a world): the code
# paths of the full search (the world chain, the playouts, the endgame's best reply).
# Legality, determinism and reading only the view do not depend on the search's size.
SMALL_HARD = Policy("hard", worlds=2, steps=2)


def assert_legal(view: SeatView, move: object) -> None:
    if isinstance(move, Call):
        assert move.word in view.calls, f"{move} is not legal in {view.to_dict()}"
    elif view.phase == PHASE_PLAY:
        assert isinstance(move, PlayCard)
        assert view.legal_cards >> move.card & 1, f"{move} is not legal in {view.to_dict()}"
    else:
        assert isinstance(move, ChooseContract)
        assert move in view.allowed_contracts


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    ("policy", "count"),
    [(Policy("easy"), 2500), (Policy("medium"), 2500), (SMALL_HARD, 300)],
    ids=["easy", "medium", "hard"],
)
def test_always_legal(ruleset: str, policy: Policy, count: int) -> None:
    for n, state in enumerate(random_positions(ruleset, count, seed=count + len(ruleset))):
        seat = state.turn
        view = view_for(state, seat)
        move = policy.decide(view, n)
        assert_legal(view, move)
        state.apply(seat, move)  # the checked path accepts it


@pytest.mark.parametrize("ruleset", RULESETS)
def test_decide_entry_point_with_a_time_budget(ruleset: str) -> None:
    for n, state in enumerate(random_positions(ruleset, 40, seed=99)):
        view = view_for(state, state.turn)
        for level in LEVELS:
            move = decide(view, level, n, budget_s=0.01)
            assert_legal(view, move)


def test_deterministic_given_the_seed() -> None:
    policies = [Policy("easy"), Policy("medium"), SMALL_HARD]
    for n, state in enumerate(random_positions("standard", 150, seed=5)):
        view = view_for(state, state.turn)
        for policy in policies:
            first = policy.decide(view, 1000 + n)
            assert policy.decide(view, 1000 + n) == first


def test_easy_depends_on_the_seed() -> None:
    # The seed really drives the random choices: over many positions, two seeds disagree.
    differ = 0
    for state in random_positions("standard", 200, seed=6):
        view = view_for(state, state.turn)
        if Policy("easy").decide(view, 1) != Policy("easy").decide(view, 2):
            differ += 1
    assert differ > 0


def _same_view_other_cards(state, seat: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """A state that looks identical from ``seat`` but has the hidden cards dealt anew."""
    view = view_for(state, seat)
    hands = sample_hands(view, rng)
    other = state_from_view(view, hands)
    other.totals, other.sheet = state.totals[:], state.sheet[:]
    return other


def test_policies_see_only_the_view() -> None:
    """Two states that differ only in the other seats' cards give the same view, and every
    policy answers the same in both: nothing but the view reaches it."""
    rng = random.Random(11)
    policies = [Policy("easy"), Policy("medium"), SMALL_HARD]
    checked = 0
    for n, state in enumerate(random_positions("standard", 120, seed=8)):
        seat = state.turn
        view = view_for(state, seat)
        other = _same_view_other_cards(state, seat, rng)
        other_view = view_for(other, seat)
        assert other_view == view
        if state.phase == PHASE_PLAY:
            hidden = [state.hands[s] for s in range(4) if s != seat]
            if hidden != [other.hands[s] for s in range(4) if s != seat]:
                checked += 1
        for policy in policies:
            assert policy.decide(view, n) == policy.decide(other_view, n)
    assert checked > 50  # the hidden cards really were different


def test_a_hand_built_view_is_enough() -> None:
    """A SeatView rebuilt field by field (no engine state behind it) works."""
    for n, state in enumerate(random_positions("classic20", 60, seed=12)):
        view = view_for(state, state.turn)
        rebuilt = SeatView(**{f.name: getattr(view, f.name) for f in dataclasses.fields(view)})
        for level in LEVELS:
            assert_legal(rebuilt, Policy(level, worlds=2, steps=2).decide(rebuilt, n))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_sampled_worlds_are_consistent_with_the_view(ruleset: str) -> None:
    rng = random.Random(3)
    for state in random_positions(ruleset, 400, seed=21):
        if state.phase != PHASE_PLAY:
            continue
        seat = state.turn
        view = view_for(state, seat)
        allowed = allowed_masks(view)
        # The true hands satisfy every inference (so the inferences are sound).
        for s in range(4):
            assert state.hands[s] & ~allowed[s] == 0, (s, view.to_dict())
        hands = sample_hands(view, rng, allowed)
        assert hands[seat] == view.hand
        assert sum(h.bit_count() for h in hands) + view.played.bit_count() == 52
        assert (hands[0] | hands[1] | hands[2] | hands[3] | view.played) == FULL_DECK
        for s in range(4):
            assert hands[s].bit_count() == view.cards_left[s]
            assert hands[s] & ~allowed[s] == 0


def test_void_inference() -> None:
    """A seat that failed to follow a suit is never dealt that suit in a sampled world."""
    rng = random.Random(4)
    seen_void = 0
    for state in random_positions("standard", 600, seed=31):
        if state.phase != PHASE_PLAY:
            continue
        view = view_for(state, state.turn)
        for trick in view.tricks:
            led = trick.plays[0][1] // 13
            for s, card in trick.plays[1:]:
                if card // 13 != led and s != view.seat:
                    seen_void += 1
                    hands = sample_hands(view, rng)
                    assert hands[s] & SUIT_MASK[led] == 0
    assert seen_void > 20


def test_unknown_level_is_rejected() -> None:
    state = next(random_positions("standard", 1, seed=1))
    with pytest.raises(ValueError):
        decide(view_for(state, state.turn), "grandmaster", 1)


def test_not_my_turn_is_rejected() -> None:
    state = next(random_positions("standard", 1, seed=2))
    with pytest.raises(ValueError):
        decide(view_for(state, (state.turn + 1) % 4), "medium", 1)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_view_json_round_trip(ruleset: str) -> None:
    """What a third-party bot rebuilds from the API's JSON view is the engine's view."""
    import json

    from king_bots.viewjson import view_from_dict

    for state in random_positions(ruleset, 300, seed=41):
        for seat in range(4):
            view = view_for(state, seat)
            rebuilt = view_from_dict(json.loads(json.dumps(view.to_dict())))
            assert rebuilt == view
