"""The challenge phase (RULES-konturlu.md §3) as state-machine tests: the seed's examples
A–D and the Dürt example of §3.8, the calls of T5–T9, the rejections, and the pair
relation they leave."""

from __future__ import annotations

import pytest

from king_engine import BadInput, IllegalMove
from king_engine.konturlu import KonturluState, parse_move

from .helpers import legal, match, play

PENALTY_R1 = {  # d = 0: the legal round-1 lists of §3.8 example A
    1: "iyi kontur:0 kontur:2 kontur:3 kontur:0,2 kontur:0,3 masa haric",
    2: "iyi kontur:0 kontur:1 kontur:3 kontur:0,1 kontur:0,3 masa haric",
    3: "iyi kontur:0 kontur:1 kontur:2 kontur:0,1 kontur:0,2 masa haric",
}


def started(contract: str, declarer: int) -> KonturluState:
    state = match(first=declarer)
    play(state, declarer, contract)
    return state


def speak(state: KonturluState, seat: int, call: str, expected_legal: str | None = None) -> None:
    assert state.current_player == seat
    if expected_legal is not None:
        assert legal(state) == expected_legal.split()
    play(state, seat, call)


def pairs(state: KonturluState) -> dict[str, str]:
    assert state.challenge is not None
    return state.challenge.pair_table()


def test_example_a_kiz_masa_then_declarer_surs() -> None:
    state = started("kiz", 0)
    assert state.phase_name == "kontur"
    speak(state, 1, "iyi", PENALTY_R1[1])
    speak(state, 2, "iyi", PENALTY_R1[2])
    speak(state, 3, "masa", PENALTY_R1[3])
    assert state.phase_name == "sur"
    speak(state, 0, "sur:3", "iyi sur:3")
    speak(state, 1, "iyi", "iyi sur:3")
    speak(state, 2, "iyi", "iyi sur:3")
    # seat 3 is skipped (A = ∅): play starts with the declarer's lead
    assert state.phase_name == "play" and state.current_player == 0
    assert pairs(state) == {"0-3": "sur", "1-3": "kontur", "2-3": "kontur"}


def test_example_b_el_three_masa_all_pairs_surulu() -> None:
    state = started("el", 0)
    for seat in (1, 2, 3):
        speak(state, seat, "masa")
    assert pairs(state) == {
        "0-1": "kontur",
        "0-2": "kontur",
        "0-3": "kontur",
        "1-2": "sur_auto",
        "1-3": "sur_auto",
        "2-3": "sur_auto",
    }
    speak(state, 0, "sur:1,2,3", "iyi sur:1 sur:2 sur:3 sur:1,2 sur:1,3 sur:2,3 sur:1,2,3")
    assert state.phase_name == "play"
    assert state.challenge is not None
    assert state.challenge.multipliers() == {(a, b): 2 for a in range(4) for b in range(a + 1, 4)}


def test_example_c_erkek_the_iyici_may_sur_too() -> None:
    state = started("erkek", 0)
    speak(state, 1, "iyi")
    speak(state, 2, "kontur:0,1")
    speak(state, 3, "kontur:0,1")
    speak(state, 0, "sur:2", "iyi sur:2 sur:3 sur:2,3")
    speak(state, 1, "sur:2", "iyi sur:2 sur:3 sur:2,3")
    assert state.phase_name == "play"
    assert pairs(state) == {"0-2": "sur", "0-3": "kontur", "1-2": "sur", "1-3": "kontur"}


def test_example_d_erkek_masa_against_haric_is_auto_sur() -> None:
    state = started("erkek", 0)
    speak(state, 1, "masa")
    speak(state, 2, "iyi")
    events = state.apply(3, parse_move("haric"))
    assert events[0]["call"] == "haric" and events[0]["targets"] == [1, 2]
    assert events[1] == {"type": "sur_auto", "hand": 0, "pairs": [[1, 3]], "auto": True}
    # Appendix A's shape, at the first round-2 turn
    assert state.challenge is not None
    view = state.challenge.to_dict()
    assert view["kontur"] == [[1, 0], [1, 2], [1, 3], [3, 1], [3, 2]]
    assert view["pending"] == {"0": [1], "2": [1, 3]}
    speak(state, 0, "sur:1", "iyi sur:1")
    # seat 1 skipped: its only konturer, 3, is already sürülü
    speak(state, 2, "sur:3", "iyi sur:1 sur:3 sur:1,3")
    assert state.phase_name == "play"
    assert pairs(state) == {"0-1": "sur", "1-2": "kontur", "1-3": "sur_auto", "2-3": "sur"}
    assert state.challenge.multipliers() == {(0, 1): 2, (1, 2): 1, (1, 3): 2, (2, 3): 2}


def test_appendix_a_view_during_round_2() -> None:
    state = started("erkek", 0)
    for seat, call in ((1, "masa"), (2, "iyi"), (3, "haric"), (0, "sur:1")):
        play(state, seat, call)
    challenge = state.view(2)["challenge"]
    assert challenge["round"] == 2 and challenge["to_move"] == 2
    assert [(c["round"], c["seat"], c["call"]) for c in challenge["calls"]] == [
        (1, 1, "masa"),
        (1, 2, "iyi"),
        (1, 3, "haric"),
        (2, 0, "sur:1"),
    ]
    assert challenge["pairs"] == {"0-1": "sur", "1-2": "kontur", "1-3": "sur_auto", "2-3": "kontur"}
    assert challenge["pending"] == {"2": [1, 3]}
    assert state.view(2)["legal_moves"] == ["iyi", "sur:1", "sur:3", "sur:1,3"]
    assert "legal_moves" not in state.view(1)


def test_durt_example_only_the_declarer_may_be_konturred() -> None:
    state = started("durt:4", 2)
    speak(state, 3, "kontur:2", "iyi kontur:2")
    speak(state, 0, "iyi", "iyi kontur:2")
    speak(state, 1, "iyi", "iyi kontur:2")
    speak(state, 2, "sur:3", "iyi sur:3")
    assert state.phase_name == "durt"
    assert pairs(state) == {"2-3": "sur"}


def test_t5_masa_by_two_players_calls() -> None:
    state = started("el", 0)
    for seat, call in ((1, "masa"), (2, "iyi"), (3, "masa")):
        speak(state, seat, call)
    speak(state, 0, "sur:1", "iyi sur:1 sur:3 sur:1,3")
    speak(state, 2, "sur:3", "iyi sur:1 sur:3 sur:1,3")
    assert pairs(state) == {
        "0-1": "sur",
        "0-3": "kontur",
        "1-2": "kontur",
        "1-3": "sur_auto",
        "2-3": "sur",
    }


def test_t6_ties_calls_named_against_haric_is_auto_sur() -> None:
    state = started("kupa", 1)
    speak(state, 2, "masa")
    speak(state, 3, "kontur:0,2")
    speak(state, 0, "haric", "iyi kontur:1 kontur:2 kontur:3 kontur:1,2 kontur:1,3 masa haric")
    speak(state, 1, "iyi", "iyi sur:2")
    assert state.phase_name == "play"
    assert state.challenge is not None
    assert state.challenge.multipliers() == {(0, 2): 2, (0, 3): 2, (1, 2): 1, (2, 3): 2}


def test_t7_koz_calls() -> None:
    state = started("koz:S", 1)
    speak(state, 2, "iyi", "iyi kontur:1")
    speak(state, 3, "kontur:1", "iyi kontur:1")
    speak(state, 0, "kontur:1", "iyi kontur:1")
    speak(state, 1, "sur:3", "iyi sur:0 sur:3 sur:0,3")
    assert state.phase_name == "play"
    assert state.challenge is not None
    assert state.challenge.multipliers() == {(0, 1): 1, (1, 3): 2}


def test_t8_son_iki_calls() -> None:
    state = started("soniki", 0)
    for seat, call in ((1, "masa"), (2, "iyi"), (3, "kontur:0")):
        speak(state, seat, call)
    speak(state, 0, "sur:1", "iyi sur:1 sur:3 sur:1,3")
    speak(state, 2, "iyi", "iyi sur:1")
    speak(state, 3, "sur:1", "iyi sur:1")
    assert state.challenge is not None
    assert state.challenge.multipliers() == {(0, 1): 2, (0, 3): 1, (1, 2): 1, (1, 3): 2}


def test_no_kontur_no_round_2() -> None:
    state = started("koz:H", 0)
    for seat in (1, 2, 3):
        speak(state, seat, "iyi")
    assert state.phase_name == "play" and state.current_player == 0
    assert pairs(state) == {}


def refused(state: KonturluState, seat: int, text: str, code: str) -> IllegalMove:
    before = state.copy()
    with pytest.raises(IllegalMove) as info:
        state.apply(seat, parse_move(text))
    assert info.value.code == code
    assert state == before
    return info.value


def test_rejection_koz_non_declarer_targets() -> None:
    state = started("koz:S", 1)
    assert refused(state, 2, "kontur:3", "illegal_call").details["reason"] == "declarer_only"
    refused(state, 2, "masa", "illegal_call")
    refused(state, 2, "haric", "illegal_call")
    refused(state, 2, "kontur:1,3", "illegal_call")


def test_rejection_and_canonical_spellings_in_kiz() -> None:
    state = started("kiz", 0)
    play(state, 1, "iyi")
    play(state, 2, "iyi")
    assert refused(state, 3, "kontur:3", "illegal_call").details["reason"] == "own_seat"
    refused(state, 3, "kontur:2,3", "illegal_call")
    refused(state, 3, "sur:0", "wrong_phase")
    probe = state.copy()
    assert play(probe, 3, "kontur:2,1")[0]["call"] == "haric"
    assert state.copy().apply(3, parse_move("kontur:0,1,2"))[0]["call"] == "masa"
    assert state.copy().apply(3, parse_move("kontur:2,0"))[0]["call"] == "kontur:0,2"
    assert probe.challenge is not None and probe.challenge.calls[-1][2] == "haric"


def test_rejection_sur_on_a_seat_that_never_konturred() -> None:
    state = started("erkek", 0)
    for seat, call in ((1, "masa"), (2, "iyi"), (3, "haric")):
        play(state, seat, call)
    assert refused(state, 0, "sur:3", "illegal_call").details["reason"] == "not_konturred"
    refused(state, 0, "kontur:1", "wrong_phase")
    refused(state, 0, "masa", "wrong_phase")
    refused(state, 1, "iyi", "not_your_turn")


@pytest.mark.parametrize("text", ["kontur:1,1", "kontur:", "kontur:5", "kontur:a", "sur:", "x"])
def test_junk_calls_do_not_parse(text: str) -> None:
    with pytest.raises(BadInput):
        parse_move(text)


def test_the_declarer_does_not_speak_in_round_1() -> None:
    state = started("el", 2)
    assert state.current_player == 3
    refused(state, 2, "iyi", "not_your_turn")
