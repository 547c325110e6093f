"""The bots play ``traditional`` end to end: contracts within its quotas, its card rules, and
its one-word moves (redeal requests, the King announcement), every move through the checked
path ``state.apply``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from king_bots.arena import run_arena
from king_bots.policies import Policy
from king_bots.policies.calls import certain_king
from king_engine import (
    PHASE_ANNOUNCE,
    PHASE_CONTRACT,
    PHASE_REDEAL_OFFER,
    Call,
    MatchState,
    new_match,
    parse_cards,
    parse_move,
    parse_suit,
    view_for,
)
from king_engine.match import new_match_on_deals_for_tests
from tests.engine.test_oracle_traditional import R2_DEAL, VECTOR_KEY, first_of, suit_deal

from .helpers import random_options

# The hard bot with a small fixed search (2 worlds, 2 world-chain swaps a world): the code
# paths of the full search, at a fraction of its cost. Its decisions asserted here (redeal
# requests, announcements) do not depend on the search's size.
POLICIES = {
    "easy": Policy("easy"),
    "medium": Policy("medium"),
    "hard": Policy("hard", worlds=2, steps=2),
}
NO_FIRST_FOUR = {"first_four_penalties": False}
ANNOUNCED = {"king_feat": "announced", "first_four_penalties": False}


def deal_match(deals: Callable[[int], list[list[str]]], options: dict[str, Any]) -> MatchState:
    """A traditional match on hand-made deals (card codes per seat, by deal number)."""

    def masks(number: int) -> list[int]:
        return [parse_cards(" ".join(hand)) for hand in deals(number)]

    return new_match_on_deals_for_tests("traditional", 20, masks, options)


def play_out(state: MatchState, policy: Policy, seed: int) -> list[str]:
    """Let ``policy`` move for every seat until the match is over; the calls it made."""
    calls = []
    while not state.is_over:
        seat = state.turn
        view = view_for(state, seat)
        move = policy.decide(view, seed + state.version)
        assert move in state.legal_moves(seat), (move, view.to_dict())
        if isinstance(move, Call):
            calls.append(move.word)
        state.apply(seat, move)  # the checked path
    return calls


def assert_played_out(state: MatchState) -> None:
    """A traditional match that ran to the end: 20 scored hands, every quota used up (§1.10),
    or an earlier end on the King feat."""
    result = state.result()
    if result["end_reason"] == "played_out":
        assert len(state.sheet) == 20
        assert sum(state.totals) == 0  # penalties -5200, Koz +5200
    else:
        assert result["end_reason"] in ("king", "king_failed")
        assert state.sheet[-1].partial


@pytest.mark.parametrize("level", list(POLICIES))
def test_every_level_plays_whole_matches_from_random_seeds(level: str) -> None:
    rng = random.Random(len(level))
    for _ in range(3 if level != "hard" else 1):
        state = new_match("traditional", 20, rng.randbytes(32), random_options("traditional", rng))
        play_out(state, POLICIES[level], rng.getrandbits(32))
        assert_played_out(state)


@pytest.mark.parametrize("level", list(POLICIES))
def test_a_lone_ace_of_hearts_in_rifki_gets_a_redeal_offer_and_the_match_goes_on(
    level: str,
) -> None:
    """R2: seat 1's only heart is A♥; after Rıfkı it is asked first. Medium and hard always ask
    for the redeal; every level then plays the match to its end on later deals."""
    state = deal_match(first_of(R2_DEAL), NO_FIRST_FOUR)
    state.apply(state.turn, parse_move("king_of_hearts"))
    assert state.phase == PHASE_REDEAL_OFFER and state.turn == 1
    view = view_for(state, 1)
    assert view.calls == ("redeal", "keep")
    answer = POLICIES[level].decide(view, 7)
    if level != "easy":
        assert answer == Call("redeal")
    state.apply(1, answer)
    if answer == Call("redeal"):
        assert state.deals[-1].ended == "redealt" and state.phase == PHASE_CONTRACT
    play_out(state, POLICIES[level], 11)
    assert_played_out(state)


def test_easy_sometimes_keeps_a_redealable_hand_and_ineligible_seats_keep() -> None:
    state = deal_match(first_of(R2_DEAL), NO_FIRST_FOUR)
    state.apply(state.turn, parse_move("king_of_hearts"))
    view = view_for(state, 1)
    answers = {Policy("easy").decide(view, seed) for seed in range(40)}
    assert answers == {Call("redeal"), Call("keep")}
    state.apply(1, Call("keep"))
    view = view_for(state, 2)  # thirteen cards, twelve of them hearts: not eligible
    assert view.calls == ("keep",)
    assert {POLICIES[level].decide(view, 3) for level in POLICIES} == {Call("keep")}


def test_the_kupa_declarer_with_thirteen_hearts_asks_for_a_redeal() -> None:
    """§3.3: a forced Kupa with all hearts; the view offers A♥ and "redeal"."""
    state = deal_match(suit_deal("HDCS"), NO_FIRST_FOUR)  # seat 0 all hearts; seat 1 holds ♦2
    # Hand 3 is declared by seat 0; make Kupa its only choice, as late in a match.
    state.hand_index = 3
    state.turn = 0
    state.usage.penalty_picks[0], state.usage.trump_picks[0] = 2, 2
    state.usage.contract_counts[:] = [2, 1, 2, 2, 2, 2, 0]
    assert [str(m) for m in state.legal_moves(0)] == ["hearts"]
    state.apply(0, parse_move("hearts"))
    view = view_for(state, 0)
    assert view.calls == ("redeal",) and view.legal_cards == parse_cards("AH")
    for level in ("medium", "hard"):
        assert POLICIES[level].decide(view, 1) == Call("redeal")
    state.apply(0, POLICIES["hard"].decide(view, 1))
    assert state.deals[-1].reason == "kupa_all_hearts"


@pytest.mark.parametrize("level", list(POLICIES))
def test_a_certain_king_is_announced_and_made(level: str) -> None:
    """R9's deal: seat 2 holds every diamond and declares Koz ♦ in the announced variant; it
    announces King, the others pass, and it wins the match on the feat."""
    state = deal_match(suit_deal("CSDH"), ANNOUNCED)
    assert state.turn == 2
    state.apply(2, parse_move("trump:D"))
    assert state.phase == PHASE_ANNOUNCE
    calls = play_out(state, POLICIES[level], 5)
    assert calls[0] == "king"
    result = state.result()
    assert (result["end_reason"], result["king_seat"], result["winners"]) == ("king", 2, [2])


@pytest.mark.parametrize("level", list(POLICIES))
def test_a_forfeited_seats_bot_passes_even_a_certain_king(level: str) -> None:
    """§4.5: the same certain hand, but its seat has forfeited: its bot may only pass."""
    state = deal_match(suit_deal("CSDH"), ANNOUNCED)
    state.apply(2, parse_move("trump:D"))
    state.forfeit(2)
    view = view_for(state, 2)
    assert view.calls == ("pass",)
    assert POLICIES[level].decide(view, 5) == Call("pass")


@pytest.mark.parametrize("level", list(POLICIES))
def test_an_uncertain_hand_passes_the_announcement(level: str) -> None:
    """A Koz hand from the vector key: nobody holds a guaranteed King, so all four pass."""
    state = new_match("traditional", 20, VECTOR_KEY, ANNOUNCED)
    declarer = state.turn
    state.apply(declarer, parse_move("trump:S"))
    answers = []
    while state.phase == PHASE_ANNOUNCE:
        seat = state.turn
        hand = state.hands[seat]
        assert not certain_king(hand, parse_suit("S"), seat == declarer)
        move = POLICIES[level].decide(view_for(state, seat), seat)
        answers.append(str(move))
        state.apply(seat, move)
    assert answers == ["pass"] * 4


@pytest.mark.parametrize(
    ("cards", "trump", "leads", "certain"),
    [
        ("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "D", False, True),  # all 13 trumps
        ("AD KD QD JD TD 9D 8D 7D AS KS QS 2C 3C", "D", True, True),  # 8 drawn + 3 spades
        ("AD KD QD JD TD 9D 8D 7D AS KS 2H 2C 3C", "D", True, True),  # exactly 10 in a row
        ("AD KD QD JD TD 9D 8D 7D AS KS 2H 2C 3C", "D", False, False),  # not on lead
        ("AD KD QD JD TD 9D 8D 7D AS QS 2H 2C 3C", "D", True, False),  # ♠Q is no master
        ("AD KD JD TD 9D 8D 7D 6D AS KS QS JS TS", "D", True, False),  # no ♦Q: may not lead ♦
        ("AD KD QD 9D 8D 7D 6D 5D AS KS QS JS TS", "D", True, False),  # ♦J, ♦T can stay out
    ],
)
def test_certain_king(cards: str, trump: str, leads: bool, certain: bool) -> None:
    hand = parse_cards(cards)
    assert certain_king(hand, parse_suit(trump), leads) is certain


def test_the_arena_plays_traditional_fixed_deals_and_matches() -> None:
    """The arena runs traditional's fixed deals (Koz at hand 0 allowed, the same contract again
    after a redeal) and its matches; a policy against itself scores exactly zero."""
    result = run_arena("medium", "easy", ruleset="traditional", deals=2, matches=1, seed=4,
                       progress=False)  # fmt: skip
    assert set(result.per_contract) == set(range(7))
    assert len(result.match_diffs) == 4
    same = run_arena("medium", "medium", ruleset="traditional", deals=2, progress=False)
    assert same.overall == (0.0, 0.0)


def test_the_jobs_fallback_move_covers_the_calls() -> None:
    """A bot job whose policy fails plays a random legal move: in a redeal round, a call."""
    from king_bots.jobs import _random_legal

    state = deal_match(first_of(R2_DEAL), NO_FIRST_FOUR)
    state.apply(state.turn, parse_move("king_of_hearts"))
    view = view_for(state, state.turn)
    for seed in range(5):
        assert _random_legal(view, seed) in state.legal_moves(state.turn)


def test_a_bot_answers_a_redeal_round_after_the_same_wait_whatever_its_cards() -> None:
    """§8.2: seat 1 may ask (lone A♥), seat 2 may not; both jobs wait until the production
    setting's hold after they started, so the answer's timing tells nothing. Other moves do
    not wait."""
    from king_bots.jobs import hold_answer
    from king_match import MatchSettings

    hold_s = MatchSettings().clocks.bot_call_answer_ms / 1000
    assert hold_s > 0.3, "long enough to cover a decision"

    state = deal_match(first_of(R2_DEAL), NO_FIRST_FOUR)
    state.apply(state.turn, parse_move("king_of_hearts"))
    eligible = view_for(state, 1)
    state.apply(1, Call("keep"))
    ineligible = view_for(state, 2)
    assert eligible.calls == ("redeal", "keep") and ineligible.calls == ("keep",)
    for view, spent in ((eligible, 0.05), (ineligible, 0.01), (ineligible, 0.3)):
        waits: list[float] = []
        hold_answer(view, 100.0, hold_s, now=lambda spent=spent: 100.0 + spent, sleep=waits.append)
        assert waits == [pytest.approx(hold_s - spent)]
    playing = deal_match(first_of(R2_DEAL), NO_FIRST_FOUR)
    waits = []
    hold_answer(
        view_for(playing, playing.turn), 100.0, hold_s, now=lambda: 100.0, sleep=waits.append
    )
    assert waits == []
