"""The konturlu match (RULES-konturlu.md §1, §2, §2.7, §8): declaring order from the opening
draw, quotas, the play rules of §2.3–2.4, early end, the Rıfkı redeal and its test vector,
T9 through a whole hand, the view, the serialised form and the result."""

from __future__ import annotations

import json

import pytest

from king_engine import BadInput, IllegalMove, deal, parse_cards
from king_engine.konturlu import KONTURLU, KonturluState, parse_move

from .helpers import (
    CLIENT_SEEDS,
    MATCH_ID,
    SERVER_SEED,
    VECTOR_KEY,
    fixed,
    legal,
    match,
    play,
    vector_deals,
)


def words(text: str) -> list[str]:
    return text.split()


ALL_CONTRACTS = words(
    "el kupa erkek kiz rifki soniki koz:S koz:H koz:D koz:C "
    "durt:2 durt:3 durt:4 durt:5 durt:6 durt:7 durt:8 durt:9 durt:T durt:J durt:Q durt:K durt:A"
)


def suit(s: str, ranks: str = "23456789TJQKA") -> str:
    return " ".join(r + s for r in ranks)


def refused(state: KonturluState, seat: int, text: str, code: str) -> IllegalMove:
    before = state.copy()
    with pytest.raises(IllegalMove) as info:
        state.apply(seat, parse_move(text))
    assert info.value.code == code, info.value
    assert state == before
    return info.value


def all_iyi(state: KonturluState) -> None:
    while state.phase_name in ("kontur", "sur"):
        play(state, state.current_player, "iyi")  # type: ignore[arg-type]


# ---------------------------------------------------------------- §1: order, draw, quotas


def test_opening_draw_vectors_pick_the_first_declarer() -> None:
    state = KONTURLU.new_state(32, VECTOR_KEY, {}, deal.deal_hand)
    assert state.first == 0 and state.declarer == 0 and state.current_player == 0
    assert state.view(None)["draw"]["rounds"] == [[[0, "JD"], [1, "9D"], [2, "7D"], [3, "9C"]]]
    tie_key = deal.match_key(MATCH_ID, SERVER_SEED, [bytes([7]) * 32, *CLIENT_SEEDS[1:]])
    assert tie_key.hex().startswith("25cc6a328d946fea")
    tied = KONTURLU.new_state(32, tie_key, {}, deal.deal_hand)
    assert tied.first == 1 and tied.current_player == 1
    assert tied.view(None)["draw"]["rounds"][1] == [[0, "TD"], [1, "KD"]]


def test_declaring_passes_to_the_next_seat_and_every_deal_is_by_deal_number() -> None:
    state = KONTURLU.new_state(32, VECTOR_KEY, {}, deal.deal_hand)
    assert state.hands == deal.deal_hand(VECTOR_KEY, 0)
    play(state, 0, "koz:S")
    all_iyi(state)
    while state.hand_index == 0:
        play(state, state.current_player, legal(state)[0])  # type: ignore[arg-type]
    assert state.declarer == 1 and state.current_player == 1 and state.deal_no == 1
    assert state.hands == deal.deal_hand(VECTOR_KEY, 1)
    assert state.view(None)["dealer"] == 0


def test_the_contract_list_and_quota() -> None:
    state = match(first=0)
    assert legal(state) == ALL_CONTRACTS
    play(state, 0, "el")
    all_iyi(state)
    while state.hand_index == 0:
        play(state, state.current_player, legal(state)[0])  # type: ignore[arg-type]
    assert state.hand_index == 1
    for _ in range(3):  # hands 1..3, then seat 0 again
        play(state, state.declarer, "koz:C")
        all_iyi(state)
        hand = state.hand_index
        while state.hand_index == hand:
            play(state, state.current_player, legal(state)[0])  # type: ignore[arg-type]
    assert state.declarer == 0
    assert legal(state) == ALL_CONTRACTS[1:]
    error = refused(state, 0, "el", "contract_unavailable")
    assert error.details["reason"] == "quota"
    assert state.view(None)["to_declare"][0] == [
        "kupa", "erkek", "kiz", "rifki", "soniki", "koz", "durt",
    ]  # fmt: skip
    assert state.view(None)["to_declare"][1] == [
        "el", "kupa", "erkek", "kiz", "rifki", "soniki", "durt",
    ]  # fmt: skip


def test_wrong_phase_and_turn() -> None:
    state = match(first=0)
    refused(state, 0, "2C", "wrong_phase")
    refused(state, 0, "iyi", "wrong_phase")
    refused(state, 1, "el", "not_your_turn")
    play(state, 0, "el")
    refused(state, 1, "kupa", "wrong_phase")
    refused(state, 1, "7D", "wrong_phase")
    refused(state, 1, "boz", "not_eligible_for_redeal")
    with pytest.raises(BadInput):
        state.apply(5, parse_move("iyi"))


# ---------------------------------------------------------------- §2: play rules

RIFKI_VOID_DEAL = (
    suit("S"),
    "2H KH " + suit("D", "23456789TJQ"),
    "AD " + suit("C", "23456789TJQK"),
    "AC KD " + suit("H", "3456789TJQA"),
)


def test_rifki_void_must_play_a_heart_any_heart() -> None:
    state = match(first=0, deals=fixed(*RIFKI_VOID_DEAL))
    play(state, 0, "rifki")
    all_iyi(state)
    play(state, 0, "2S")
    assert legal(state) == ["2H", "KH"]  # K♥ is not forced while holding another heart
    assert refused(state, 1, "2D", "illegal_card").details["rule"] == "must_play_heart"
    play(state, 1, "2H")
    assert len(legal(state)) == 13  # seat 2: no heart, void: anything
    play(state, 2, "AD")
    assert legal(state) == suit("H", "3456789TJQA").split()


def test_kupa_lead_rules() -> None:
    state = match(first=0)  # deal 0: seat 0 holds 6H 8H and eleven other cards
    play(state, 0, "kupa")
    all_iyi(state)
    assert legal(state) == words("2C 7C 9C QC 5D TD JD KD 5S 7S KS")
    assert refused(state, 0, "6H", "illegal_card").details["rule"] == "hearts_not_broken"
    only_hearts = match(first=1, deals=fixed(suit("S"), suit("H"), suit("D"), suit("C")))
    play(only_hearts, 1, "kupa")
    all_iyi(only_hearts)
    assert legal(only_hearts) == ["AH"]  # only hearts: the highest
    assert refused(only_hearts, 1, "2H", "illegal_card").details["rule"] == "highest_heart"


def test_rifki_only_hearts_may_lead_any_heart() -> None:
    state = match(first=1, deals=fixed(suit("S"), suit("H"), suit("D"), suit("C")))
    play(state, 1, "rifki")
    all_iyi(state)
    assert legal(state) == suit("H").split()


def test_free_discards_and_no_overtaking_duty() -> None:
    for contract in ("el", "erkek", "kiz", "soniki", "koz:S"):
        state = match(first=0, deals=fixed(*RIFKI_VOID_DEAL))
        play(state, 0, contract)
        all_iyi(state)
        play(state, 0, "KS" if contract == "kiz" else "2S")
        assert len(legal(state)) == 13  # void in spades: any card


def test_koz_trump_lead_in_trick_1_and_the_trump_wins() -> None:
    state = match(first=3, deals=fixed(*RIFKI_VOID_DEAL))
    play(state, 3, "koz:H")
    all_iyi(state)
    assert "3H" in legal(state)  # trump led at once
    play(state, 3, "AC")
    play(state, 0, "2S")
    play(state, 1, "2H")  # void in clubs, trumps low
    events = play(state, 2, "KC")
    assert events[-1]["type"] == "trick_won" and events[-1]["seat"] == 1


def test_kiz_ends_after_the_fourth_queen() -> None:
    # queens all fall in the first trick: seat s leads/follows its suit's queen
    state = match(first=0, deals=fixed(suit("S"), suit("H"), suit("D"), suit("C")))
    play(state, 0, "kiz")
    all_iyi(state)
    play(state, 0, "QS")
    play(state, 1, "QH")
    play(state, 2, "QD")
    events = play(state, 3, "QC")
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["tricks_played"] == 1
    assert scored["scores"] == [-40, 0, 0, 0]
    assert state.hand_index == 1


T9_DEAL = (
    "KH " + suit("S", "23456789TJQK"),
    suit("D"),
    suit("C", "23456789TJQK") + " AH",
    "AC AS " + suit("H", "23456789TJQ"),
)


def test_t9_rifki_through_a_hand_with_the_lone_kh_forced() -> None:
    state = match(first=2, deals=fixed(*T9_DEAL))
    assert legal(state) == [*ALL_CONTRACTS[:5], "rifki:boz", *ALL_CONTRACTS[5:]]
    play(state, 2, "rifki")
    assert "boz" not in legal(state)  # seat 3: eleven hearts
    play(state, 3, "haric")
    assert legal(state)[-1] == "boz"  # seat 0: its only heart is K♥
    play(state, 0, "kontur:2")
    play(state, 1, "iyi")
    assert state.current_player == 2
    play(state, 2, "iyi")
    play(state, 0, "sur:3")  # seat 3 skipped
    play(state, 1, "iyi")
    assert state.phase_name == "play" and state.current_player == 2
    assert legal(state) == suit("C", "23456789TJQK").split()  # no heart lead yet
    play(state, 2, "2C")
    play(state, 3, "AC")
    assert legal(state) == ["KH"]  # void in clubs, its only heart
    events = play(state, 0, "KH")
    events += play(state, 1, "2D")
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["points"] == [0, 0, 0, 30]
    assert scored["scores"] == [60, 30, 0, -120]
    assert scored["pairs"] == {"0-2": "kontur", "0-3": "sur", "1-3": "kontur"}
    assert scored["tricks_played"] == 1
    assert state.totals == [182, 152, 122, 2]


# ---------------------------------------------------------------- §2.7: the Rıfkı redeal


def test_redeal_test_vector_deal_13_seat_3() -> None:
    assert deal.deal_hand(VECTOR_KEY, 13)[3] == parse_cards(
        "2C 7C AC 2D 4D 6D 7D 9D JD KH 3S 4S QS"
    )
    state = match(first=0, deals=vector_deals(13))
    assert "rifki:boz" not in legal(state)
    play(state, 0, "rifki")
    play(state, 1, "iyi")
    play(state, 2, "iyi")
    assert legal(state)[-1] == "boz"
    events = play(state, 3, "boz")
    redeal = next(e for e in events if e["type"] == "redeal")
    assert redeal == {
        "type": "redeal",
        "hand": 0,
        "deal": 0,
        "seat": 3,
        "card": "KH",
        "reason": "rifki_single_heart",
    }
    assert state.deal_no == 1 and state.hand_index == 0 and state.declarer == 0
    assert state.hands == deal.deal_hand(VECTOR_KEY, 14)
    assert legal(state)[0] == "rifki" and set(legal(state)) <= {"rifki", "rifki:boz"}
    assert refused(state, 0, "el", "contract_unavailable").details["reason"] == "rifki_redeal"
    view = state.view(None)
    assert view["redeals"][0]["seat"] == 3 and view["redeals"][0]["card"] == "KH"
    assert view["contract"] == {"type": "rifki"}
    log = state.deal_log()
    assert log[0]["ended"] == "redealt" and log[0]["asked_by"] == 3
    assert log[0]["moves"] == [[0, "rifki"], [1, "iyi"], [2, "iyi"], [3, "boz"]]
    play(state, 0, "rifki")
    all_iyi(state)
    while state.hand_index == 0:
        play(state, state.current_player, legal(state)[0])  # type: ignore[arg-type]
    assert state.sheet[0]["deals"] == [0, 1]
    assert state.deal_no == 2 and state.hands == deal.deal_hand(VECTOR_KEY, 15)


@pytest.mark.parametrize("number", [0, 1, 19])
def test_deals_without_an_eligible_seat(number: int) -> None:
    for first in range(4):
        state = match(first=first, deals=vector_deals(number))
        assert "rifki:boz" not in legal(state)
        play(state, first, "rifki")
        while state.phase_name == "kontur":
            assert "boz" not in legal(state)
            play(state, state.current_player, "iyi")  # type: ignore[arg-type]


def test_declarer_cancels_with_rifki_boz() -> None:
    state = match(first=2, deals=fixed(*T9_DEAL))
    events = play(state, 2, "rifki:boz")
    assert [e["type"] for e in events] == ["contract_chosen", "redeal", "hand_started"]
    assert events[1]["card"] == "AH"
    assert legal(state) == ["rifki", "rifki:boz"]  # the same deal again (a fixed deal)
    assert state.view(None)["to_declare"][2] == [
        "el", "kupa", "erkek", "kiz", "soniki", "koz", "durt",
    ]  # fmt: skip
    assert refused(match(first=0), 0, "rifki:boz", "not_eligible_for_redeal")


# ---------------------------------------------------------------- view, bytes, result


def test_view_shows_only_the_seats_own_cards() -> None:
    state = match(first=0)
    view = state.view(0)
    assert view["my_cards"] == words("2C 7C 9C QC 5D TD JD KD 6H 8H 5S 7S KS")
    assert view["legal_moves"] == ALL_CONTRACTS
    other = state.view(1)
    assert "legal_moves" not in other and other["my_cards"][0] == "3C"
    spectator = state.view(None)
    assert "my_cards" not in spectator and "legal_moves" not in spectator
    assert spectator["counts"] == [13, 13, 13, 13]


def test_bytes_round_trip_and_bad_states() -> None:
    state = KONTURLU.new_state(32, VECTOR_KEY, {}, deal.deal_hand)
    play(state, 0, "erkek")
    play(state, 1, "masa")
    state.forfeit(2)
    data = state.to_bytes()
    assert data[:2] == bytes((3, 3))
    again = KONTURLU.state_from_bytes(data)
    assert again == state and again.to_bytes() == data
    assert again.forfeits == (2,)
    for bad in (data[:-1], data + b"\x00", b"\x02" + data[1:], data[:40] + b"\x7f" + data[41:]):
        with pytest.raises(BadInput) as info:
            KONTURLU.state_from_bytes(bad)
        assert info.value.code == "bad_state"
    with pytest.raises(BadInput):
        match().to_bytes()


def test_result_outcome_and_forfeits() -> None:
    state = KONTURLU.new_state(32, VECTOR_KEY, {}, deal.deal_hand)
    state.totals = [200, -50, -50, -100]
    result = state.result()
    assert result["places"] == [1, 2, 2, 4]
    assert result["winners"] == [0]
    assert result["outcome"] == ["cikar", "batar", "batar", "batar"]
    forfeited = state.result(forfeits=(0,))
    assert forfeited["places"] == [4, 1, 1, 3] and forfeited["winners"] == [1, 2]
    assert forfeited["outcome"][0] == "batar"


def test_move_text_round_trip() -> None:
    for action in range(KONTURLU_NUM_ACTIONS):
        try:
            move = KONTURLU.move_of_action(action)
        except BadInput:
            assert action in (77, 96)  # empty seat lists
            continue
        assert move.action == action
        assert KONTURLU.parse_move(str(move)) == move
    assert str(KONTURLU.parse_move("durt:10")) == "durt:T"
    assert str(KONTURLU.parse_move(" KOZ:s ")) == "koz:S"
    assert str(KONTURLU.parse_move("10h")) == "TH"
    words = KONTURLU.move_words()
    assert {"el", "rifki:boz", "koz:", "durt:", "kontur:", "sur:", "masa", "pas"} <= set(words)


KONTURLU_NUM_ACTIONS = 113


def test_describe() -> None:
    data = KONTURLU.describe()
    json.dumps(data)
    assert data["name"] == "konturlu" and data["id"] == 3 and data["family"] == "konturlu"
    assert data["lengths"] == [32] and data["starting_total"] == 122
    assert data["outcome_labels"] == ["cikar", "batar"]
    assert [c["hand_total"] for c in data["contracts"]] == [-65, -39, -48, -40, -30, -30, 65, 65]


def test_forfeit_marks_round_trip_where_they_fell() -> None:
    state = KONTURLU.new_state(32, VECTOR_KEY, {}, deal.deal_hand)
    play(state, 0, "el")
    state.forfeit(3)
    state.forfeit(3)  # marking again changes nothing
    for _ in range(5):
        play(state, state.current_player, legal(state)[0])  # type: ignore[arg-type]
    state.forfeit(1)
    assert state.forfeits == (3, 1) and state.forfeit_at == (1, 6)
    again = KONTURLU.state_from_bytes(state.to_bytes())
    assert again == state and again.forfeit_at == (1, 6)
    result = state.result()
    assert result["places"][3] == 4 and result["places"][1] == 3
    assert 3 not in result["winners"] and 1 not in result["winners"]
    assert state.current_player is not None  # a forfeited seat's turns still come
