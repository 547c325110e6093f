"""The arena's ceiling and baseline, and the hard search's levers.

* ``omniscient`` is arena-only: no policy level, no table level;
* ``hard_v1`` (the levers off) plays exactly as the hard bot did before them;
* ``PlayModel`` scores how likely the observed plays were in a world, seat by seat, and the
  ``WorldChain`` draws worlds by that score within what the view allows;
* the best reply to the medium policy is at least what medium's own card would score.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from king_bots import LEVELS, decide
from king_bots.arena import Omniscient, main, paired, parse_policy, run_arena, side_by_side
from king_bots.policies import Policy
from king_bots.policies.core import Position, must_ruff, void_bits
from king_bots.policies.heuristic import medium_card
from king_bots.policies.inference import PlayModel, WorldChain
from king_bots.policies.knowledge import DECLARER_TRUMP_BIAS, allowed_masks, sample_hands
from king_bots.policies.search import _best_reply, hand_result, playout, sim_state
from king_engine import PHASE_PLAY, MatchState, SeatView, get_ruleset, new_match, view_for
from king_engine.cards import CARD_SUIT, SUIT_MASK
from king_engine.contracts import TRUMP
from king_engine.tricks import beats
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
    off = Policy("hard", worlds=24, trust=0.0, steps=0, reply=0)
    assert parse_policy("hard_v1:worlds=24") == off
    assert parse_policy("hard:trust=0.5,steps=3,reply=2") == Policy(
        "hard", trust=0.5, steps=3, reply=2
    )
    with pytest.raises(ValueError):
        parse_policy("omniscient:worlds=4")
    for lever in ("trust=0.5", "steps=4", "reply=3"):
        with pytest.raises(ValueError):
            parse_policy(f"hard_v1:{lever}")
    with pytest.raises(ValueError):
        Policy("hard", trust=1.0)
    with pytest.raises(ValueError):
        Policy("hard", steps=-1)


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
    """Deterministic (fixed seed). The first 2 duplicate deals of seed 5 per contract: the
    deal means are +61 and +58 points a hand, twice the bar; a ceiling no better than medium
    would score near 0."""
    result = run_arena("omniscient", "medium", deals=2, seed=5, progress=False)
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
    # The levers' "off" values are the old search, whatever the defaults are: the spec is
    # exactly the policy with the levers at 0 (a frozen dataclass, so the same moves as above).
    off = Policy("hard", worlds=6, trust=0.0, steps=0, reply=0)
    assert v1 == off


def replayed_weight(view: SeatView, hands: list[int], trust: float) -> float:
    """How likely the other seats' plays of this hand were in the world ``hands``, stated
    plainly: rewind every hand to the hand's start, replay the plays in order, and at each
    play of another seat with a choice multiply in ``trust`` + (1 − ``trust``) / n when it is
    the medium policy's card there, else (1 − ``trust``) / n (n legal cards)."""
    rules = get_ruleset(view.ruleset).hand_rules(view.contract, view.trump)
    held = list(hands)
    for trick in view.tricks:
        for seat, card in trick.plays:
            held[seat] |= 1 << card
    koz = view.contract == TRUMP
    weight, voids, earlier = 1.0, 0, 0
    for trick_no, trick in enumerate(view.tricks):
        led = best = -1
        mask = 0
        for count, (seat, card) in enumerate(trick.plays):
            legal = rules.legal(held[seat], led, mask, earlier, trick_no)
            if seat != view.seat:
                if not legal >> card & 1:
                    return 0.0
                if legal.bit_count() > 1:
                    pos = Position(held[seat], legal, view.contract, view.trump, count, led,
                                   best, mask, earlier, trick_no, seat, voids)  # fmt: skip
                    chance = (1.0 - trust) / legal.bit_count()
                    weight *= chance + trust if medium_card(pos) == card else chance
            held[seat] ^= 1 << card
            if koz and count:
                voids |= void_bits(seat, card, led, view.trump, trick_no, must_ruff(rules))
            if count == 0:
                led, best = CARD_SUIT[card], card
            elif beats(card, best, view.trump):
                best = card
            mask |= 1 << card
        earlier |= mask
    return weight


def model_weight(model: PlayModel, view: SeatView, hands: list[int]) -> float:
    weight = 1.0
    for seat in range(4):
        if seat != view.seat:
            weight *= model.seat_weight(seat, hands[seat])
    return weight


def _prior(view: SeatView, hands: list[int]) -> float:
    """The chain's prior beside the plays: the Koz declarer holds trumps (as sample_hands)."""
    if view.contract != TRUMP or view.declarer == view.seat:
        return 1.0
    trumps = (hands[view.declarer] & SUIT_MASK[view.trump]).bit_count()
    return float(DECLARER_TRUMP_BIAS**trumps)


def _played_positions(ruleset: str, count: int, seed: int) -> list[MatchState]:
    """Play-phase states of hands played by four medium bots, some tricks in."""
    rng = random.Random(seed)
    medium = Policy("medium")
    out = []
    while len(out) < count:
        state = new_match(ruleset, 20, rng.randbytes(32))
        while state.hand_index == 0 and not state.is_over:
            if state.phase == PHASE_PLAY and state.trick_no > 0 and rng.random() < 0.2:
                out.append(state.copy())
            state.apply(state.turn, medium.decide(view_for(state, state.turn), rng.random()))
    return out


@pytest.mark.parametrize("ruleset", ["standard", "classic20", "traditional"])
def test_the_seat_by_seat_weight_is_the_replayed_hands_weight(ruleset: str) -> None:
    """The chain's weight of a world (the three seats' weights) is the plain replay's, for the
    true world and for sampled ones, whatever the trust."""
    rng = random.Random(3)
    for state in _played_positions(ruleset, 30, seed=8):
        view = view_for(state, state.turn)
        for trust in (0.5, 0.9, 0.999):
            model = PlayModel(view, trust)
            worlds = [list(state.hands)] + [sample_hands(view, rng) for _ in range(4)]
            for hands in worlds:
                expected = replayed_weight(view, hands, trust) * _prior(view, hands)
                assert model_weight(model, view, hands) == pytest.approx(expected, rel=1e-9)


def test_the_true_world_of_medium_players_is_among_the_likeliest() -> None:
    """Every play matched the medium policy in the true world: with near-full trust its
    weight stays near 1, and no sampled world is likelier than that by much."""
    rng = random.Random(3)
    for state in _played_positions("standard", 25, seed=9):
        view = view_for(state, state.turn)
        true = replayed_weight(view, list(state.hands), 0.999)
        assert true > 0.9
        for _ in range(5):
            assert replayed_weight(view, sample_hands(view, rng), 0.999) <= true * 1.1


def test_the_world_chain_keeps_to_the_view_and_follows_the_plays() -> None:
    """Every world of the chain deals each seat the cards it may hold, as many as it holds;
    and its worlds fit the observed plays far better than independent samples do."""
    chained, sampled = [], []
    for n, state in enumerate(_played_positions("standard", 30, seed=10)):
        view = view_for(state, state.turn)
        if view.hand.bit_count() < 4:
            continue
        allowed = allowed_masks(view)
        model = PlayModel(view, 0.9)
        chain = WorldChain(view, random.Random(n), allowed, model)
        rng = random.Random(1000 + n)
        for _ in range(12):
            hands = chain.next(10)
            assert hands[view.seat] == view.hand
            for seat in range(4):
                assert hands[seat] & ~allowed[seat] == 0
                assert hands[seat].bit_count() == view.cards_left[seat]
            assert sum(h.bit_count() for h in hands) == sum(view.cards_left)
            chained.append(replayed_weight(view, hands, 0.9))
            sampled.append(replayed_weight(view, sample_hands(view, rng, allowed), 0.9))
    assert len(chained) > 100
    assert sum(chained) / len(chained) > 5 * sum(sampled) / len(sampled)


def test_the_best_reply_scores_at_least_the_medium_playout() -> None:
    """In a world with every card known, our best line against the medium policy scores at
    least what playing medium's cards ourselves would, and exactly that with no choice left."""
    checked = 0
    for ruleset in ("standard", "classic20", "traditional"):
        for state in random_positions(ruleset, 80, seed=17):
            if state.phase != PHASE_PLAY or state.hands[state.turn].bit_count() > 4:
                continue
            view = view_for(state, state.turn)
            world = sim_state(view, state.hands)
            medium_line = world.copy()
            playout(medium_line)
            best = _best_reply(world.copy(), view.seat)
            assert best >= hand_result(medium_line)[view.seat]
            if state.hands[state.turn].bit_count() == 1:
                assert best == hand_result(medium_line)[view.seat]
            checked += 1
    assert checked > 20


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
