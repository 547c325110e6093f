"""One test per rule of RULES.md §1 (ruleset ``standard``), from hand-made positions."""

from __future__ import annotations

import random

import pytest

from king_engine import (
    PHASE_CONTRACT,
    PHASE_OVER,
    BadInput,
    ConfigError,
    IllegalMove,
    contract_move,
    match_winners,
    new_match,
    parse_move,
    placements,
)
from king_engine.simulate import play_random_hand

from .positions import legal_codes, position


def illegal(state, seat, text):  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as err:
        state.apply(seat, parse_move(text))
    return err.value


def play_hand_with(state, contract: str, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    state.apply(state.turn, parse_move(contract))
    play_random_hand(state, rng.random)


# --- match set-up -------------------------------------------------------------------------


def test_match_lengths_are_8_12_or_20() -> None:
    for length in (8, 12, 20):
        assert new_match("standard", length, bytes(32)).num_hands == length
    with pytest.raises(ConfigError) as err:
        new_match("standard", 10, bytes(32))
    assert err.value.code == "bad_match_length"


def test_unknown_ruleset_is_rejected() -> None:
    with pytest.raises(ConfigError) as err:
        new_match("konturlu", 20, bytes(32))
    assert err.value.code == "unknown_ruleset"


def test_declarer_rotates_from_seat_0_and_leads_the_first_trick() -> None:
    rng = random.Random(1)
    state = new_match("standard", 12, bytes(range(32)))
    for hand in range(12):
        assert state.phase == PHASE_CONTRACT
        assert state.turn == hand % 4 == state.declarer
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.turn == hand % 4, "the declarer leads the first trick"
        play_random_hand(state, rng.random)
    assert [r.declarer for r in state.sheet] == [h % 4 for h in range(12)]


# --- contract choice and quotas -----------------------------------------------------------


@pytest.mark.parametrize(("length", "penalties", "trumps"), [(8, 1, 1), (12, 2, 1), (20, 3, 2)])
def test_each_player_picks_penalties_and_koz_per_the_length_table(
    length: int, penalties: int, trumps: int
) -> None:
    rng = random.Random(length)
    state = new_match("standard", length, bytes(32))
    # Seat 0 declares hands 0, 4, 8, ...: it takes its Koz picks first, then its penalties.
    for hand in range(length):
        if state.turn == 0:
            allowed = legal_codes(state)
            picks = [r for r in state.sheet if r.declarer == 0]
            koz_used = sum(r.contract == 6 for r in picks)
            if koz_used < trumps:
                play_hand_with(state, "trump:H", rng)
                continue
            assert not any(code.startswith("trump") for code in allowed), "Koz quota used up"
            assert allowed, "a declarer is never stuck"
            play_hand_with(state, sorted(allowed)[0], rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            play_random_hand(state, rng.random)
        del hand
    mine = [r for r in state.sheet if r.declarer == 0]
    assert sum(r.contract == 6 for r in mine) == trumps
    assert sum(r.contract != 6 for r in mine) == penalties


def test_a_declarer_without_penalty_picks_left_cannot_pick_a_penalty() -> None:
    rng = random.Random(2)
    state = new_match("standard", 8, bytes(32))
    play_hand_with(state, "queens", rng)  # seat 0 uses its only penalty pick
    for _ in range(3):
        play_hand_with(state, "trump:S", rng)
    assert state.turn == 0
    err = illegal(state, 0, "tricks")
    assert err.code == "contract_unavailable" and err.details["reason"] == "quota"
    assert legal_codes(state) == {"trump:C", "trump:D", "trump:H", "trump:S"}


def test_a_penalty_contract_is_capped_per_match() -> None:
    rng = random.Random(3)
    state = new_match("standard", 8, bytes(32))  # cap 1 per penalty contract in 8 hands
    play_hand_with(state, "queens", rng)
    err = illegal(state, 1, "queens")
    assert err.code == "contract_unavailable" and err.details["reason"] == "cap"
    assert "queens" not in legal_codes(state)
    assert "boys" in legal_codes(state)


def test_koz_needs_a_trump_suit_and_penalties_take_none() -> None:
    with pytest.raises(BadInput) as err:
        parse_move("trump")
    assert err.value.code == "trump_required"
    with pytest.raises(BadInput) as err:
        contract_move("queens", "S")
    assert err.value.code == "trump_not_allowed"
    assert str(contract_move("trump", "d")) == "trump:D"


def test_only_the_declarer_chooses_and_only_in_the_contract_phase() -> None:
    state = new_match("standard", 8, bytes(32))
    assert illegal(state, 2, "queens").code == "not_your_turn"
    assert illegal(state, 0, "QS").code == "wrong_phase"
    state.apply(0, parse_move("queens"))
    assert illegal(state, 0, "boys").code == "wrong_phase"


# --- trick play ---------------------------------------------------------------------------


def test_following_players_must_follow_the_led_suit() -> None:
    state = position(("2C 3D", "4C 5D", "6C 7D", "8C 9D"), "tricks", plays="2C")
    err = illegal(state, 1, "5D")
    assert err.code == "illegal_card" and err.details["rule"] == "follow_suit"
    assert legal_codes(state) == {"4C"}


def test_a_card_not_held_is_refused() -> None:
    state = position(("2C 3D", "4C 5D", "6C 7D", "8C 9D"), "tricks")
    assert illegal(state, 0, "AS").code == "card_not_in_hand"
    assert illegal(state, 1, "4C").code == "not_your_turn"


def test_highest_card_of_the_led_suit_takes_a_penalty_trick_and_leads_next() -> None:
    state = position(("5C 2D", "AD 3D", "7C 4D", "3C 6D"), "tricks", plays="5C AD 7C 3C")
    assert state.tricks_taken == [0, 0, 1, 0]
    assert state.turn == 2, "the trick's winner leads the next trick"


def test_in_koz_any_trump_beats_other_suits_and_the_highest_trump_wins() -> None:
    state = position(("AC 2D", "2S 3D", "KC 4D", "3S 5D"), "trump:S", plays="AC 2S KC 3S")
    assert state.tricks_taken == [0, 0, 0, 1]
    assert state.hand_points == [0, 0, 0, 50]


def test_koz_void_player_must_trump_but_need_not_overtrump() -> None:
    state = position(("AC 2D", "5S 3D", "KC 4D", "3S AS 5D"), "trump:S", plays="AC 5S KC")
    assert legal_codes(state) == {"3S", "AS"}
    err = illegal(state, 3, "5D")
    assert err.details["rule"] == "must_trump"


def test_koz_void_player_without_trumps_discards_freely() -> None:
    state = position(("AC 2D", "3D 4H", "KC 4D", "3S 5D"), "trump:S", plays="AC")
    assert legal_codes(state) == {"3D", "4H"}


def test_koz_trump_may_be_led_at_any_time() -> None:
    state = position(("AS 2D", "5S 3D", "KC 4D", "3S 5D"), "trump:S")
    assert legal_codes(state) == {"AS", "2D"}


def test_penalty_contracts_have_no_trump() -> None:
    # In Queens a spade discard does not win a club trick.
    state = position(("5C QD", "2S 3D", "7C 4D", "3C QS"), "queens", plays="5C 2S 7C 3C")
    assert state.tricks_taken == [0, 0, 1, 0]


# --- the seven contracts ------------------------------------------------------------------


def test_tricks_costs_50_per_trick() -> None:
    state = position(("5C 2D", "AD 3D", "7C 4D", "3C 6D"), "tricks", plays="5C AD 7C 3C")
    assert state.hand_points == [0, 0, -50, 0]


def test_hearts_costs_30_per_heart_taken() -> None:
    state = position(("5C 2D", "AH 3D", "7C 4D", "3C 6H"), "hearts", plays="5C AH 7C 3C")
    assert state.hand_points == [0, 0, -30, 0]


def test_hearts_void_player_must_discard_a_heart() -> None:
    state = position(("5C 2D", "AH 3D", "7C 4D", "3C 6H"), "hearts", plays="5C")
    err = illegal(state, 1, "3D")
    assert err.details["rule"] == "penalty_discard"
    assert legal_codes(state) == {"AH"}


def test_hearts_no_heart_lead_until_broken() -> None:
    state = position(("2H 5C", "AH 3D", "7C 4D", "3C 6H"), "hearts")
    err = illegal(state, 0, "2H")
    assert err.details["rule"] == "hearts_not_broken"
    assert legal_codes(state) == {"5C"}


def test_hearts_leader_holding_only_hearts_may_lead_one() -> None:
    state = position(("2H 5H", "AC 3D", "7C 4D", "3C 6D"), "hearts")
    assert legal_codes(state) == {"2H", "5H"}


def test_hearts_are_broken_by_a_heart_in_an_earlier_trick() -> None:
    # Trick 0: seat 1 (void in clubs) must discard AH; seat 2 wins with 7C and may lead a heart.
    state = position(
        ("5C 2D 9S", "AH 3D TS", "7C 4H JS", "3C 6D QS"), "hearts", plays="5C AH 7C 3C"
    )
    assert state.turn == 2
    assert "4H" in legal_codes(state)


def test_queens_costs_100_per_queen_and_void_player_must_shed_a_queen() -> None:
    state = position(("5C 2D", "QH 3D", "7C 4D", "3C QS"), "queens", plays="5C")
    assert illegal(state, 1, "3D").details["rule"] == "penalty_discard"
    for code in ("QH", "7C", "3C"):
        state.apply(state.turn, parse_move(code))
    assert state.hand_points == [0, 0, -100, 0]


def test_boys_costs_60_per_king_or_jack_and_void_player_must_shed_one() -> None:
    state = position(("5C 2D", "JH KD 3D", "7C 4D", "3C QS"), "boys", plays="5C")
    assert legal_codes(state) == {"JH", "KD"}
    for code in ("KD", "7C", "3C"):
        state.apply(state.turn, parse_move(code))
    assert state.hand_points == [0, 0, -60, 0]


def test_last_two_costs_180_for_each_of_the_last_two_tricks_only() -> None:
    rng = random.Random(4)
    state = new_match("standard", 8, bytes(range(32)))
    state.apply(0, parse_move("last_two"))
    events = []
    while state.hand_index == 0:
        seat = state.turn
        events += state.apply(seat, rng.choice(state.legal_moves()))
    tricks = [e for e in events if e["type"] == "trick_won"]
    assert len(tricks) == 13
    assert [t["points"] for t in tricks] == [0] * 11 + [-180, -180]
    assert sum(state.sheet[0].points) == -360


def test_king_of_hearts_costs_320_and_void_player_holding_it_must_play_it() -> None:
    state = position(("5C 2D", "KH 2H 3D", "7C 4D", "3C QS"), "king_of_hearts", plays="5C")
    assert legal_codes(state) == {"KH"}
    assert illegal(state, 1, "2H").details["rule"] == "penalty_discard"
    for code in ("KH", "7C", "3C"):
        state.apply(state.turn, parse_move(code))
    assert state.sheet[0].points == (0, 0, -320, 0), "hand ended early once K♥ was taken"


def test_king_of_hearts_void_player_without_it_discards_freely() -> None:
    state = position(("5C 2D", "AH 2H 3D", "7C 4D", "3C KH"), "king_of_hearts", plays="5C")
    assert legal_codes(state) == {"AH", "2H", "3D"}


def test_king_of_hearts_no_heart_lead_until_broken() -> None:
    state = position(("2H 5C", "AH 3D", "7C 4D", "3C KH"), "king_of_hearts")
    assert illegal(state, 0, "2H").details["rule"] == "hearts_not_broken"


def test_koz_scores_50_per_trick_for_the_taker() -> None:
    state = position(("AC 2D", "3C 3D", "KC 4D", "2C 5D"), "trump:D", plays="AC 3C KC 2C")
    assert state.hand_points == [50, 0, 0, 0]


# --- early end ----------------------------------------------------------------------------


def test_hand_ends_early_once_every_penalty_card_is_taken() -> None:
    # Queens: the three void players must shed their queens on QC; seat 0 takes all four in
    # trick 0 and the hand ends there.
    hands = (
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )
    state = position(hands, "queens", plays="QC QH QD QS")
    assert state.hand_index == 1 and state.phase == PHASE_CONTRACT
    assert state.sheet[0].points == (-400, 0, 0, 0)
    assert state.sheet[0].tricks_played == 1


def test_tricks_last_two_and_koz_always_play_13_tricks() -> None:
    rng = random.Random(5)
    for contract in ("tricks", "last_two", "trump:C"):
        for _ in range(20):
            state = new_match("standard", 8, rng.randbytes(32))
            play_hand_with(state, contract, rng)
            assert state.sheet[0].tricks_played == 13


# --- match end ----------------------------------------------------------------------------


def test_match_is_over_after_the_last_hand_and_refuses_moves() -> None:
    rng = random.Random(6)
    state = new_match("standard", 8, bytes(32))
    while not state.is_over:
        play_random_hand(state, rng.random)
    assert state.phase == PHASE_OVER and len(state.sheet) == 8
    assert state.totals == [sum(r.points[s] for r in state.sheet) for s in range(4)]
    assert illegal(state, 0, "2C").code == "match_over"


def test_every_player_on_the_top_total_is_a_winner() -> None:
    state = new_match("standard", 8, bytes(32))
    state.totals = [120, -40, 120, 0]
    assert state.winners() == [0, 2]


def test_equal_totals_share_a_place_and_forfeits_are_placed_last() -> None:
    assert placements([100, 100, 50, 0]) == [1, 1, 3, 4]
    assert placements([0, 0, 0, 0]) == [1, 1, 1, 1]
    # Seat 1 left first (lowest), then seat 3; the stayers rank among themselves.
    assert placements([10, 500, -20, 300], forfeits=[1, 3]) == [1, 4, 2, 3]


@pytest.mark.parametrize(
    ("totals", "forfeits", "winners"),
    [
        # The audit's two matches: the forfeited seat 2 had the top total both times.
        ([-170, 400, 1040, -220], [2], [1]),
        ([130, -140, 460, -450], [2], [0]),
        ([300, 300, 500, -100], [2], [0, 1]),
        ([300, 300, 500, -100], [], [2]),
        ([10, 20, 30, 40], [3, 0, 2, 1], []),
    ],
)
def test_a_player_who_forfeited_never_wins(
    totals: list[int], forfeits: list[int], winners: list[int]
) -> None:
    assert match_winners(totals, forfeits) == winners
    # The winners are exactly the seats that stayed and are placed first.
    places = placements(totals, forfeits)
    stayed_first = [s for s in range(4) if places[s] == 1 and s not in forfeits]
    assert match_winners(totals, forfeits) == stayed_first
