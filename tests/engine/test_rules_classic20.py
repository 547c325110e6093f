"""One test per rule of RULES.md §2 (ruleset ``classic20``), from hand-made positions."""

from __future__ import annotations

import random

import pytest

from king_engine import ConfigError, IllegalMove, new_match, parse_move
from king_engine.simulate import play_random_hand

from .positions import legal_codes, position


def rule_of(state, seat, text) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as err:
        state.apply(seat, parse_move(text))
    assert err.value.code == "illegal_card"
    return str(err.value.details["rule"])


def c20(hands: tuple[str, str, str, str], contract: str, plays: str = ""):  # type: ignore[no-untyped-def]
    return position(hands, contract, ruleset="classic20", length=20, plays=plays)


def test_a_match_is_always_20_hands() -> None:
    assert new_match("classic20", 20, bytes(32)).num_hands == 20
    for length in (8, 12):
        with pytest.raises(ConfigError) as err:
            new_match("classic20", length, bytes(32))
        assert err.value.code == "bad_match_length"


def test_each_penalty_twice_per_match_for_anyone() -> None:
    rng = random.Random(1)
    state = new_match("classic20", 20, bytes(32))
    for _ in range(2):
        state.apply(state.turn, parse_move("queens"))
        play_random_hand(state, rng.random)
    assert "queens" not in legal_codes(state)
    with pytest.raises(IllegalMove) as err:
        state.apply(state.turn, parse_move("queens"))
    assert err.value.code == "contract_unavailable" and err.value.details["reason"] == "cap"


def test_koz_twice_in_each_suit() -> None:
    rng = random.Random(2)
    state = new_match("classic20", 20, bytes(32))
    for _ in range(2):
        state.apply(state.turn, parse_move("trump:S"))
        play_random_hand(state, rng.random)
    allowed = legal_codes(state)
    assert "trump:S" not in allowed and {"trump:C", "trump:D", "trump:H"} <= allowed
    with pytest.raises(IllegalMove) as err:
        state.apply(state.turn, parse_move("trump:S"))
    assert err.value.details["reason"] == "trump_quota"


def test_the_same_player_may_pick_any_contract_with_quota_left() -> None:
    # Quotas are per match, not per player: seat 0 may pick Koz in every one of its hands.
    rng = random.Random(3)
    state = new_match("classic20", 20, bytes(32))
    for hand in range(20):
        if state.turn == 0:
            suit = "CDHS"[hand // 4 % 4]
            state.apply(0, parse_move(f"trump:{suit}"))
        else:
            allowed = legal_codes(state)
            penalties = sorted(c for c in allowed if not c.startswith("trump"))
            others = sorted(c for c in allowed if c != "trump:C")
            state.apply(state.turn, parse_move((penalties or others)[0]))
        play_random_hand(state, rng.random)
    assert [r.contract for r in state.sheet if r.declarer == 0] == [6] * 5


def test_koz_no_trump_lead_in_the_first_trick() -> None:
    state = c20(("AS 2D", "5S 3D", "KC 4D", "3S 5D"), "trump:S")
    assert rule_of(state, 0, "AS") == "no_trump_first_trick"
    assert legal_codes(state) == {"2D"}


def test_koz_first_trick_leader_with_only_trumps_may_lead_one() -> None:
    state = c20(("AS 2S", "5S 3D", "KC 4D", "3S 5D"), "trump:S")
    assert legal_codes(state) == {"AS", "2S"}


def test_koz_no_trump_discard_in_the_first_trick() -> None:
    state = c20(("AC 2D", "5S 3D", "KC 4D", "3S 5D"), "trump:S", plays="AC")
    assert rule_of(state, 1, "5S") == "no_trump_first_trick"
    assert legal_codes(state) == {"3D"}


def test_koz_no_trump_lead_until_broken() -> None:
    # Trick 0 is all clubs; seat 3 wins it and may not lead a spade yet.
    state = c20(("2C 2D", "3C 3D", "4C 4D", "5C 5S 6D"), "trump:S", plays="2C 3C 4C 5C")
    assert state.turn == 3
    assert rule_of(state, 3, "5S") == "trump_not_broken"


def test_koz_trump_lead_allowed_with_ace_king_queen_of_trump() -> None:
    state = c20(("2C 2D", "3C 3D", "4C 4D", "5C AS KS QS 6D"), "trump:S", plays="2C 3C 4C 5C")
    assert {"AS", "KS", "QS"} <= legal_codes(state)


def test_koz_trump_lead_allowed_once_a_trump_has_fallen() -> None:
    # Trick 1: seat 0 is void in diamonds and must trump; it wins and may then lead trump.
    state = c20(
        ("2C 2S 3S", "3C 7D 8H", "4C 8D 9H", "5C 6D 9S"),
        "trump:S",
        plays="2C 3C 4C 5C 6D 2S 7D 8D",
    )
    assert state.turn == 0
    assert "3S" in legal_codes(state)


def test_koz_void_player_must_trump() -> None:
    state = c20(
        ("2C 6D", "3C 7D", "4C 8D", "5C 2H 2S"), "trump:S", plays="2C 3C 4C 5C 2H"
    )  # trick 1 led by seat 3 with 2H; seat 0 is void in hearts
    assert state.turn == 0
    assert legal_codes(state) == {"6D"}  # no trump held: free
    state2 = c20(("2C 6S 6D", "3C 7D", "4C 8D", "5C 2H 2S"), "trump:S", plays="2C 3C 4C 5C 2H")
    assert rule_of(state2, 0, "6D") == "must_trump"


def test_koz_must_overtrump_when_able() -> None:
    state = c20(
        ("2C 4S 9S 6D", "3C 5S 7D", "4C 8D 9D", "5C 2H 2S"),
        "trump:S",
        plays="2C 3C 4C 5C 2H 4S",
    )  # seat 1 is void in hearts; 4S is in the trick; seat 1 holds 5S
    assert state.turn == 1
    assert legal_codes(state) == {"5S"}


def test_koz_any_trump_when_unable_to_overtrump() -> None:
    state = c20(
        ("2C AS 6D", "3C 5S 6S 7D", "4C 8D 9D", "5C 2H 2S"),
        "trump:S",
        plays="2C 3C 4C 5C 2H AS",
    )
    assert legal_codes(state) == {"5S", "6S"}


def test_koz_when_trump_is_led_followers_must_beat_the_highest_trump() -> None:
    # Seat 3 wins trick 0 and, holding A-K-Q of trump, may lead trump (5S) in trick 1.
    state = c20(
        ("2C 6S 2S", "3C 3S 9S 8D", "4C 7D 9D", "5C AS KS QS 5S"),
        "trump:S",
        plays="2C 3C 4C 5C 5S",
    )
    assert state.turn == 0
    assert legal_codes(state) == {"6S"}
    assert rule_of(state, 0, "2S") == "must_overtrump"
    state.apply(0, parse_move("6S"))
    assert legal_codes(state) == {"9S"}
    assert rule_of(state, 1, "8D") == "follow_suit"


def test_king_of_hearts_void_player_holding_it_must_play_it() -> None:
    state = c20(("5C 2D", "KH 2H 3D", "7C 4D", "3C QS"), "king_of_hearts", plays="5C")
    assert legal_codes(state) == {"KH"}


def test_king_of_hearts_otherwise_any_heart_may_be_discarded() -> None:
    state = c20(("5C 2D", "AH 2H 3D", "7C 4D", "3C KH"), "king_of_hearts", plays="5C")
    assert legal_codes(state) == {"AH", "2H", "3D"}


def test_no_early_end() -> None:
    hands = (
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )
    state = c20(hands, "queens", plays="QC QH QD QS")
    assert state.hand_index == 0 and state.trick_no == 1, "the hand goes on after the queens"
    rng = random.Random(4)
    play_random_hand(state, rng.random)
    assert state.sheet[0].tricks_played == 13
    assert state.sheet[0].points[0] == -400
