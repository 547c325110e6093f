"""The konturlu bots (``king_bots.policies.konturlu``): legal, deterministic, view-only, and
the heuristics' key decisions."""

from __future__ import annotations

import functools
import random

import pytest

from king_bots.arena_konturlu import CallStats, count_calls
from king_bots.arena_own import match_key, play_match
from king_bots.policies import konturlu as bot
from king_bots.policies.konturlu_play import (
    TrickPosition,
    durt_card,
    play_out_tricks,
    sample_world,
    trick_card,
)
from king_bots.policies.own import decide_own
from king_engine import get_ruleset, new_game, own_state
from king_engine.cards import HEARTS_MASK, SUIT_MASK, parse_card, parse_cards
from king_engine.konturlu import KonturluState, settle
from king_engine.konturlu.rules import EL, KIZ, KOZ, KUPA, RIFKI, SONIKI

PHASES = {"contract", "kontur", "sur", "play", "durt"}


def _m(text: str) -> int:
    return parse_cards(text)


def _c(code: str) -> int:
    return parse_card(code)


# ---------------------------------------------------------------------- whole matches

#: The hard bot with a small search: fewer simulated worlds for its calls and contracts and
#: fewer sampled worlds per card (and Dürt card). The code paths are those of the full effort;
#: only the counts are smaller (medium keeps its own effort).
SMALL_HARD = bot.Effort(
    call_worlds=4, contract_worlds=3, koz_suits=3, durt_ranks=4, card_worlds=3, call_margin=2.0
)
MIXED = ["easy", "medium", "hard", "medium"]


def _small_hard(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(bot, "HARD", SMALL_HARD)
    patch.setitem(bot.EFFORT, "hard", SMALL_HARD)


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard bot's small search (``SMALL_HARD``) for one test."""
    _small_hard(monkeypatch)


@pytest.fixture(scope="module")
def mixed_match() -> tuple[KonturluState, dict[str, set[str]]]:
    """One whole match (easy, medium, hard, medium; the hard seat on ``SMALL_HARD``), every
    move checked to be one of the view's legal moves as it is made; the finished state and the
    phases each level answered in. Shared by the tests that read a whole match."""
    seen: dict[str, set[str]] = {level: set() for level in MIXED}

    def check(state: object, seat: int, text: str) -> None:
        assert isinstance(state, KonturluState)
        view = state.view(seat)
        assert text in view["legal_moves"], (MIXED[seat], view["phase"], text)
        seen[MIXED[seat]].add(view["phase"])

    with pytest.MonkeyPatch.context() as patch:
        _small_hard(patch)
        state = play_match("konturlu", 1, MIXED, on_move=check)
    assert isinstance(state, KonturluState)
    return state, seen


def test_every_level_answers_a_legal_move_in_every_phase(
    mixed_match: tuple[KonturluState, dict[str, set[str]]],
) -> None:
    """Every move of the match was legal (checked as it was made, ``mixed_match``); the match
    ended and sums to 0; every level answered in every phase with a choice."""
    state, seen = mixed_match
    assert state.is_over
    assert sum(state.totals) == 0
    for level in MIXED:
        # Every phase with a choice came up for every level (sür may be missing for a seat
        # nobody konturred, so it is checked over the levels together).
        assert PHASES - {"sur"} <= seen[level], (level, seen[level])
    assert any("sur" in phases for phases in seen.values())


@functools.cache
def _positions(index: int, count: int) -> tuple[KonturluState, ...]:
    """States at random points of a match played by medium bots, someone with a choice
    (computed once for the levels' tests, which only read them)."""
    rules = get_ruleset("konturlu")
    state = own_state(new_game("konturlu", 32, match_key("konturlu", 100 + index), None))
    assert isinstance(state, KonturluState)
    rng = random.Random(index)
    out: list[KonturluState] = []
    moves = 0
    while not state.is_over and len(out) < count:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        if len(view["legal_moves"]) > 1 and rng.random() < 0.08:
            out.append(state.copy())
        text = decide_own(view, "medium", moves)
        state.apply(seat, rules.parse_move(text))
        moves += 1
    return tuple(out)


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_move_is_a_function_of_view_level_and_seed(level: str) -> None:
    """Asked twice about the same view with the same seed, a bot answers the same legal move
    (hard on ``SMALL_HARD``: the answer does not depend on the effort's counts)."""
    for state in _positions(1, 25):
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        first = bot.decide(view, level, 7)
        assert first in view["legal_moves"]
        assert bot.decide(state.view(seat), level, 7) == first


def _shuffle_others(state: KonturluState, seat: int, rng: random.Random) -> KonturluState:
    """The same state with the other seats' cards dealt among them anew (same counts)."""
    other = state.copy()
    seats = [s for s in range(4) if s != seat]
    cards = [c for s in seats for c in range(52) if other.hands[s] >> c & 1]
    rng.shuffle(cards)
    at = 0
    for s in seats:
        n = other.hands[s].bit_count()
        other.hands[s] = sum(1 << c for c in cards[at : at + n])
        at += n
    return other


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_other_seats_cards_do_not_change_the_move(level: str) -> None:
    """Same view ⇒ same move: the bots read nothing but the seat's view (hard on
    ``SMALL_HARD``: what it reads does not depend on the effort's counts)."""
    rng = random.Random(3)
    for state in _positions(2, 25):
        seat = state.current_player
        assert seat is not None
        other = _shuffle_others(state, seat, rng)
        view = state.view(seat)
        view_other = other.view(seat)
        view.pop("if_ended_now", None)
        view_other.pop("if_ended_now", None)
        assert view == view_other
        assert bot.decide(state.view(seat), level, 11) == bot.decide(other.view(seat), level, 11)


def test_decide_own_dispatches_konturlu() -> None:
    state = own_state(new_game("konturlu", 32, match_key("konturlu", 5), None))
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    assert decide_own(view, "medium", 1) == bot.decide(view, "medium", 1)
    with pytest.raises(ValueError):
        bot.decide(view, "wizard", 1)


# ---------------------------------------------------------------------- trick heuristics


def test_penalty_follow_ducks_under_the_winner() -> None:
    """El almaz: holding 3♠ 9♠ Q♠ to a trick led with T♠, the 9♠ is the highest that loses."""
    hand = _m("3S 9S QS 2C")
    legal = _m("3S 9S QS")
    assert trick_card(EL, -1, hand, legal, [_c("TS")], 0, 0) == _c("9S")


def test_penalty_follow_sheds_a_penalty_card_that_loses() -> None:
    """Kız almaz: Q♠ under a K♠ goes to the K's owner."""
    hand = _m("3S QS 2C")
    assert trick_card(KIZ, -1, hand, _m("3S QS"), [_c("KS")], 0, 0) == _c("QS")


def test_void_sheds_the_contract_s_penalty_cards() -> None:
    """Void in the led suit: Kız the queen, Kupa the highest heart, Rıfkı K♥."""
    hand = _m("QD AC 5H")
    assert trick_card(KIZ, -1, hand, hand, [_c("4S")], 0, 0) == _c("QD")
    hand = _m("3H JH AC")
    assert trick_card(KUPA, -1, hand, hand, [_c("4S")], 0, 0) == _c("JH")
    hand = _m("3H KH AH")
    assert trick_card(RIFKI, -1, hand, hand, [_c("4S")], 0, 0) == _c("KH")


def test_rifki_lead_without_the_king_flushes_it_with_a_low_heart() -> None:
    hand = _m("3H 8H AH 2C")
    assert trick_card(RIFKI, -1, hand, hand, [], 5, 0) == _c("3H")


def test_penalty_lead_is_the_lowest_card_outside_the_penalty_cards() -> None:
    hand = _m("2H 5C 9D")
    assert trick_card(KUPA, -1, hand, hand, [], 5, 0) == _c("5C")


def test_son_iki_spends_high_cards_early_and_ducks_late() -> None:
    hand = _m("3S QS")
    assert trick_card(SONIKI, -1, hand, hand, [_c("TS")], 2, 0) == _c("QS")
    assert trick_card(SONIKI, -1, hand, hand, [_c("TS")], 11, 0) == _c("3S")


def test_koz_last_to_play_wins_with_the_cheapest_card() -> None:
    """Koz ♥: to K♠ 2♠ 5♠, holding A♠ the 2♥ cannot be played (follow suit); void it ruffs
    with the lowest trump."""
    trick = [_c("KS"), _c("2S"), _c("5S")]
    hand = _m("AS 2H 9H")
    assert trick_card(KOZ, 2, hand, _m("AS"), trick, 0, 0) == _c("AS")
    hand = _m("2H 9H 4C")
    assert trick_card(KOZ, 2, hand, hand, trick, 0, 0) == _c("2H")


def test_koz_lead_takes_a_sure_trick() -> None:
    """Leading, the A♦ (top of its suit) is a sure trick."""
    hand = _m("AD 4C 5C")
    out = _m("KD 2D AC KC")
    assert trick_card(KOZ, 3, hand, hand, [], 0, out) == _c("AD")


def test_play_out_counts_the_penalties() -> None:
    """A one-trick Kupa end: seat 0 leads 2♠ and takes the 3 hearts the void seats shed."""
    hands = [_m("2S"), _m("2H"), _m("3H"), _m("4H")]
    pos = TrickPosition(KUPA, -1, hands, leader=0, trick_no=12, hearts_broken=True)
    assert play_out_tricks(pos) == [9, 0, 0, 0]


# ---------------------------------------------------------------------- Dürt


def test_durt_opens_its_own_cards_rather_than_the_others() -> None:
    """Dürt 7, all suits closed: 7♠ (holding 8♠ 6♠: opens its own) beats 7♥ (opens others)."""
    hand = _m("7S 8S 6S 7H")
    closed = (None, None, None, None)
    assert durt_card(hand, 5, closed, _m("7S 7H")) == _c("7S")


def test_durt_holds_a_card_that_blocks_the_others() -> None:
    """♣ open 7..7: 8♣ (the others' 9♣..A♣ wait on it) is held, 6♣ is played (2..5♣ are
    this seat's own)."""
    hand = _m("8C 6C 5C 4C 3C 2C")
    layout = ((5, 5), None, None, None)
    assert durt_card(hand, 5, layout, _m("8C 6C")) == _c("6C")


# ---------------------------------------------------------------------- worlds


def test_sampled_worlds_keep_counts_voids_and_known_cards() -> None:
    rng = random.Random(1)
    mine = _m("2C 3C 4C")
    pool = ((1 << 52) - 1) & ~mine
    for _ in range(50):
        hands = sample_world(
            0, mine, pool, (3, 10, 10, 10), rng, voids=(0, 1 << 3, 0, 0),
            must_hold=_m("AH"), limited=HEARTS_MASK, limited_count=5,
        )  # fmt: skip
        assert hands[0] == mine
        assert [h.bit_count() for h in hands] == [3, 10, 10, 10]
        assert not hands[1] & SUIT_MASK[3]  # seat 1 showed out of spades
        held = hands[1] | hands[2] | hands[3]
        assert held & _m("AH")
        assert (held & HEARTS_MASK).bit_count() == 5
        assert not held & mine


# ---------------------------------------------------------------------- calls


def _call_view(contract: dict[str, str], declarer: int, seat: int, kontur=(), pairs=None):  # type: ignore[no-untyped-def]
    return {
        "seat": seat,
        "declarer": declarer,
        "contract": contract,
        "phase": "kontur",
        "challenge": {
            "round": 1,
            "calls": [],
            "kontur": [list(p) for p in kontur],
            "pairs": pairs or {},
        },
    }


def test_call_values_follow_the_settlement() -> None:
    """Kız, d = 0, seat 1 to speak; in every world seat 1 takes no queen and seat 0 takes
    all four: a kontur on 0 earns 1 × 40 and eating nothing (1 has no points); seat 0 (worse)
    does not sür in the model."""
    view = _call_view({"type": "kiz"}, 0, 1)
    worlds = [[40, 0, 0, 0]] * 3
    values = bot.call_values(view, ["iyi", "kontur:0", "kontur:2"], worlds, KIZ)
    expected_kontur = settle([40, 0, 0, 0], {(0, 1): 1}, penalty=True).scores[1]
    assert values["iyi"] == 0
    assert values["kontur:0"] == expected_kontur == 40
    assert values["kontur:2"] == 0  # equal points: nothing moves


def test_call_values_expect_a_sur_back_from_a_better_seat() -> None:
    """Koz ♠, d = 0: seat 1 konturring a declarer who takes 10 tricks to its 1 is answered with
    a sür: 1 pays 2 × (50 − 5)."""
    view = _call_view({"type": "koz", "trump": "S"}, 0, 1)
    worlds = [[50, 5, 5, 5]] * 2
    values = bot.call_values(view, ["iyi", "kontur:0"], worlds, KOZ)
    assert values["iyi"] == 5
    assert values["kontur:0"] == 5 - 2 * 45


def test_medium_declines_a_losing_challenge_and_takes_a_winning_one() -> None:
    """A hand of the four aces and kings in Kız against a declarer: no kontur (it will take
    queens); the lowest cards: kontur the declarer."""
    low = "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 2S 3S"
    view = {
        "ruleset": "konturlu", "phase": "kontur", "seat": 1, "declarer": 0,
        "contract": {"type": "kiz"}, "my_cards": low.split(),
        "challenge": {"round": 1, "calls": [], "kontur": [], "pairs": {}},
        "legal_moves": ["iyi", "kontur:0", "kontur:2", "kontur:3", "kontur:0,2", "kontur:0,3",
                        "masa", "haric"],
    }  # fmt: skip
    assert bot.decide(view, "medium", 3) != "iyi"
    high = "AC KC AD KD AH KH AS KS QS QH QD QC JC"
    view["my_cards"] = high.split()
    assert bot.decide(view, "medium", 3) == "iyi"


def test_medium_picks_koz_with_a_long_strong_suit() -> None:
    hand = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH", "AD", "KD", "AC"]
    legal = ["el", "kupa", "erkek", "kiz", "rifki", "soniki"]
    legal += [f"koz:{s}" for s in "SHDC"] + [f"durt:{r}" for r in "23456789TJQKA"]
    view = {"ruleset": "konturlu", "phase": "contract", "seat": 2, "declarer": 2,
            "my_cards": hand, "legal_moves": legal}  # fmt: skip
    assert bot.decide(view, "medium", 1) == "koz:S"
    assert bot.decide(view, "hard", 1) == "koz:S"


def test_the_search_tries_one_card_of_each_equivalent_run() -> None:
    """9♠ T♠ J♠ K♠ with no card the others may hold between them play alike; a Q♠ (in the
    current trick) splits J♠ from K♠; in Kız the Q♥ (a penalty card) is not merged with J♥."""
    legal = _m("9S TS JS KS")
    assert bot.distinct_cards(legal, 0) == [_c("9S")]
    assert bot.distinct_cards(legal, _m("QS")) == [_c("9S"), _c("KS")]
    assert bot.distinct_cards(_m("JH QH"), 0, penalty=_m("QH QS QD QC")) == [_c("JH"), _c("QH")]


def test_hard_search_throws_the_king_of_hearts_away() -> None:
    """Rıfkı, void in the led suit with K♥ and 2♥: the search plays K♥ under the other's
    trick (seat 1 leads A♣, seat 2 to play holding only hearts)."""
    view = {
        "ruleset": "konturlu", "phase": "play", "seat": 2, "declarer": 1,
        "contract": {"type": "rifki"}, "my_cards": ["KH", "2H"],
        "legal_moves": ["2H", "KH"], "counts": [2, 1, 2, 2],
        "trick": {"number": 11, "leader": 1, "cards": [[1, "AC"]]},
        "last_trick": None, "points": [0, 0, 0, 0], "hearts_broken": True,
        "challenge": {"pairs": {}},
    }  # fmt: skip
    assert bot.decide(view, "hard", 5) == "KH"
    assert bot.decide(view, "medium", 5) == "KH"


# ---------------------------------------------------------------------- arena counting


def test_the_arena_counts_challenges_from_the_sheet(
    mixed_match: tuple[KonturluState, dict[str, set[str]]],
) -> None:
    """The challenges of ``mixed_match``, counted per level from its sheet and deal log."""
    state, _ = mixed_match
    stats = {level: CallStats() for level in set(MIXED)}
    count_calls(state, MIXED, stats)
    # Each seat's hands go to its level: medium has two seats.
    assert {level: made.hands for level, made in stats.items()} == {
        "easy": 32, "medium": 64, "hard": 32,
    }  # fmt: skip
    for made in stats.values():
        assert made.won + made.lost + made.tied == made.konturs + made.surs
    surs = sum(made.surs for made in stats.values())
    konturs = sum(made.konturs for made in stats.values())
    relations = [rel for row in state.sheet for rel in row["pairs"].values()]
    # Each sür call makes one "sur" pair; each related pair needs at least one kontur.
    assert surs == relations.count("sur") > 0
    assert konturs >= len(relations) > 0
