"""The arena's ceiling and baseline, and the hard search's world weighting.

* ``omniscient`` is arena-only: no policy level, no table level;
* ``hard_v1`` (the levers off) plays exactly as the hard bot did before them;
* ``play_weight`` scores how likely the observed plays were in a sampled world.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from king_bots import LEVELS, decide
from king_bots.arena import Omniscient, main, paired, parse_policy, run_arena, side_by_side
from king_bots.policies import Policy
from king_bots.policies.knowledge import sample_hands
from king_bots.policies.search import play_weight
from king_engine import PHASE_PLAY, new_match, view_for
from king_match import seating
from king_match.errors import MatchError
from king_match.lifecycle import Player
from king_match.record import BOT_LEVELS

from .helpers import random_positions
from .test_policies import assert_legal

ARENA_ONLY = ("omniscient", "hard_v1")


@pytest.mark.parametrize("level", ARENA_ONLY)
def test_arena_only_policies_are_no_level(level: str) -> None:
    assert level not in LEVELS
    assert level not in BOT_LEVELS  # the game service's table levels (king_match.seating)
    with pytest.raises(ValueError):
        Policy(level)
    state = new_match("standard", 12, b"k" * 32)
    with pytest.raises(ValueError):
        decide(view_for(state, state.turn), level, 1)  # the bot job's entry point


@pytest.mark.parametrize("level", ARENA_ONLY)
def test_a_table_refuses_an_arena_only_level(level: str) -> None:
    with pytest.raises(MatchError) as caught:  # what the game service's table routes call
        seating.new_table(
            Player("p1", "Ada"), 0, mode="computer", ruleset="standard", hands=12, level=level,
            seat=0, match_id=None,
        )  # fmt: skip
    assert caught.value.code == "bad_table"


def test_parse_policy_arena_specs() -> None:
    assert parse_policy("omniscient") == Omniscient()
    assert parse_policy("hard_v1:worlds=24") == Policy("hard", worlds=24, trust=0.0, pick=1)
    assert parse_policy("hard:trust=0.5,pick=3") == Policy("hard", trust=0.5, pick=3)
    with pytest.raises(ValueError):
        parse_policy("omniscient:worlds=4")
    with pytest.raises(ValueError):
        parse_policy("hard_v1:trust=0.5")
    with pytest.raises(ValueError):
        Policy("hard", trust=1.0)


@pytest.mark.parametrize("ruleset", ["standard", "classic20", "traditional"])
def test_omniscient_plays_legal_moves(ruleset: str) -> None:
    policy = Omniscient()
    for n, state in enumerate(random_positions(ruleset, 150, seed=31)):
        seat = state.turn
        view = view_for(state, seat)
        move = policy.decide(view, n, state.hands)
        assert_legal(view, move)
        state.apply(seat, move)


def test_the_ceiling_is_far_above_medium() -> None:
    result = run_arena("omniscient", "medium", deals=3, seed=5, progress=False)
    assert result.overall[0] > 30


# Digests of the hard bot's moves (worlds=6) on fixed positions and seeds, made by the code at
# commit 4e32e39, before the world weighting existed: hard_v1 must keep playing them.
V1_DIGESTS = {
    "standard": "a1aa9b840407711b5aee",
    "classic20": "f699517592573f5917ff",
    "traditional": "951c13ef40170029aec7",
}


def _digest(policy: Policy, ruleset: str) -> str:
    moves = []
    for n, state in enumerate(random_positions(ruleset, 60, seed=2424)):
        moves.append(repr(policy.decide(view_for(state, state.turn), 7000 + n)))
    return hashlib.sha256("|".join(moves).encode()).hexdigest()[:20]


@pytest.mark.parametrize("ruleset", sorted(V1_DIGESTS))
def test_hard_v1_plays_as_the_hard_bot_did(ruleset: str) -> None:
    v1 = parse_policy("hard_v1:worlds=6")
    assert isinstance(v1, Policy)
    assert _digest(v1, ruleset) == V1_DIGESTS[ruleset]
    # The levers' "off" values are the old search, whatever the defaults are.
    assert _digest(Policy("hard", worlds=6, trust=0.0, pick=1), ruleset) == V1_DIGESTS[ruleset]


def _medium_positions(count: int, seed: int):  # type: ignore[no-untyped-def]
    """Play-phase states of standard hands played by four medium bots."""
    rng = random.Random(seed)
    medium = Policy("medium")
    out = []
    while len(out) < count:
        state = new_match("standard", 12, rng.randbytes(32))
        while state.hand_index == 0 and not state.is_over:
            if state.phase == PHASE_PLAY and state.trick_no > 0 and rng.random() < 0.2:
                out.append(state.copy())
            state.apply(state.turn, medium.decide(view_for(state, state.turn), rng.random()))
    return out


def test_play_weight_of_the_true_world_against_medium_players() -> None:
    """Every play matched the medium policy in the true world, so with near-full trust its
    weight stays near 1, and a sampled world is never likelier than that by much."""
    rng = random.Random(3)
    for state in _medium_positions(25, seed=8):
        view = view_for(state, state.turn)
        true = play_weight(view, state.hands, 0.999)
        assert true > 0.9
        for _ in range(5):
            assert play_weight(view, sample_hands(view, rng), 0.999) <= true * 1.1


def test_play_weight_without_plays_and_for_an_impossible_world() -> None:
    state = new_match("standard", 12, b"w" * 32)
    medium = Policy("medium")
    while state.phase != PHASE_PLAY:
        state.apply(state.turn, medium.decide(view_for(state, state.turn), 1))
    view = view_for(state, state.turn)
    assert play_weight(view, state.hands, 0.7) == 1.0  # nothing observed yet
    for _ in range(6):  # a few plays, then swap a played card's owner's hand with another seat
        state.apply(state.turn, medium.decide(view_for(state, state.turn), 2))
    view = view_for(state, state.turn)
    hands = list(state.hands)
    others = [s for s in range(4) if s != view.seat]
    hands[others[0]], hands[others[1]] = hands[others[1]], hands[others[0]]
    # Swapped hands of equal size: a seat that followed suit may now hold none of it... or not;
    # whatever the weight, it is a probability-like number in [0, 1].
    assert 0.0 <= play_weight(view, hands, 0.7) <= 1.0


def test_the_levers_change_nothing_when_off_and_stay_deterministic() -> None:
    for n, state in enumerate(random_positions("standard", 40, seed=12)):
        view = view_for(state, state.turn)
        on = Policy("hard", worlds=3, trust=0.5, pick=3)
        move = on.decide(view, n)
        assert_legal(view, move)
        assert on.decide(view, n) == move


def test_side_by_side_pairs_the_candidates_on_the_same_deals() -> None:
    results = [
        run_arena(spec, "medium", deals=2, seed=4, contracts=[0, 2], progress=False)
        for spec in ("easy", "medium", "omniscient")
    ]
    assert paired(results[0], results[0]) == (0.0, 0.0)
    # medium against medium scores 0, so its paired difference from easy is minus easy's score
    assert paired(results[0], results[1])[0] == pytest.approx(-results[0].overall[0])
    text = side_by_side(results)
    assert "| omniscient |" in text and "100 %" in text and "vs easy" in text
    with pytest.raises(ValueError):
        paired(results[0], run_arena("easy", "medium", deals=2, seed=5, contracts=[0, 2],
                                     progress=False))  # fmt: skip


def test_the_command_takes_several_candidates(capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["--candidate", "easy", "--candidate", "omniscient", "--baseline", "medium",
            "--deals", "1", "--contracts", "queens", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "### easy vs medium" in out and "### omniscient vs medium" in out
    assert "### Side by side against medium" in out
