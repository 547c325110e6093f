"""Forfeit marks (RULES-traditional.md §4.5): a seat that lost on time or resigned never makes
King, answers only ``pass`` to the announcement, a forfeited announcer fails, a forfeited seat
is placed last in any case, and the marks survive format 2 where they fell in the moves."""

from __future__ import annotations

import random
from typing import Any

import pytest

import king_engine
import king_engine.match
from king_engine import BadInput, IllegalMove, MatchState, new_match, parse_move, view_for

from .test_oracle_traditional import suit_deal

NO_FIRST_FOUR = {"first_four_penalties": False}
ANNOUNCED = {"king_feat": "announced", "first_four_penalties": False}
DIAMONDS = 1  # seat 1 holds every diamond in suit_deal("CDSH"), so it declares hand 0


def diamonds_match(options: dict[str, Any]) -> MatchState:
    """Seat s holds suit "CDSH"[s]: seat 1 (♦2) declares Koz ♦ and can take every trick."""
    deal = suit_deal("CDSH")

    def masks(number: int) -> list[int]:
        return [sum(1 << king_engine.parse_card(card) for card in hand) for hand in deal(number)]

    state = king_engine.match.new_match_on_deals_for_tests("traditional", 20, masks, options)
    assert state.current_player == DIAMONDS
    return state


def play(state: MatchState, text: str) -> None:
    seat = state.current_player
    assert seat is not None
    state.apply(seat, parse_move(text))


def play_tricks(state: MatchState, tricks: int) -> None:
    """The first legal card, until ``tricks`` more tricks are complete (or the hand ends)."""
    target, hand = state.trick_no + tricks, state.hand_index
    while not state.is_over and state.hand_index == hand and state.trick_no < target:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, state.legal_moves()[0])


def test_a_forfeited_seat_that_takes_every_trick_makes_no_king() -> None:
    state = diamonds_match(NO_FIRST_FOUR)
    play(state, "trump:D")
    play_tricks(state, 4)
    state.forfeit(DIAMONDS)  # mid-hand: from here on its tricks do not make King
    play_tricks(state, 13)
    assert not state.is_over and state.end_reason is None and state.king_seat == -1
    line = state.sheet[0]
    assert not line.partial and line.tricks_played == 13
    assert line.points == (0, 13 * 50, 0, 0)  # the bot played on: +50 per trick
    assert state.hand_index == 1


def test_without_the_mark_the_same_hand_ends_on_king() -> None:
    state = diamonds_match(NO_FIRST_FOUR)
    play(state, "trump:D")
    play_tricks(state, 13)
    assert (state.end_reason, state.king_seat) == ("king", DIAMONDS)


def test_another_seat_makes_king_and_a_forfeited_seat_is_still_last() -> None:
    state = diamonds_match(NO_FIRST_FOUR)
    state.forfeit(3)
    play(state, "trump:D")
    play_tricks(state, 13)
    result = state.result()
    assert (result["end_reason"], result["king_seat"]) == ("king", DIAMONDS)
    assert result["winners"] == [DIAMONDS]
    assert result["places"] == [2, 1, 2, 4]


def test_a_forfeited_seat_may_only_pass_the_announcement() -> None:
    state = diamonds_match(ANNOUNCED)
    play(state, "trump:D")
    assert king_engine.PHASE_NAMES[state.phase] == "announce"
    assert state.current_player == DIAMONDS
    assert {str(m) for m in state.legal_moves()} == {"king", "pass"}
    state.forfeit(DIAMONDS)
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    assert state.legal_actions() == [parse_move("pass").action]
    assert view_for(state, DIAMONDS).to_dict()["legal_moves"] == ["pass"]
    with pytest.raises(IllegalMove) as caught:
        play(state, "king")
    assert caught.value.code == "seat_forfeited"
    assert state.current_player == DIAMONDS  # refused: nothing changed
    for _ in range(4):
        play(state, "pass")
    play_tricks(state, 13)
    assert state.end_reason is None and state.sheet[0].points[DIAMONDS] == 650


def test_the_other_seats_may_still_announce() -> None:
    state = diamonds_match(ANNOUNCED)
    play(state, "trump:D")
    state.forfeit(DIAMONDS)
    play(state, "pass")
    assert {str(m) for m in state.legal_moves()} == {"king", "pass"}


def test_a_forfeited_announcer_fails_at_the_next_tricks_end() -> None:
    """§4.5 with §4.6.4: once the announcer forfeits, its tricks cannot make King, so the King
    it announced can no longer be made; the failure is detected, as always, at a trick's end."""
    state = diamonds_match(ANNOUNCED)
    play(state, "trump:D")
    play(state, "king")
    play_tricks(state, 3)
    state.forfeit(2)  # an earlier leaver, to show the order of the last places
    state.forfeit(DIAMONDS)
    assert not state.is_over  # the forfeit is no move: the match ends at a trick's end
    state.apply(DIAMONDS, state.legal_moves()[0])
    assert not state.is_over  # mid-trick
    play_tricks(state, 1)
    assert (state.end_reason, state.king_seat) == ("king_failed", DIAMONDS)
    line = state.sheet[-1]
    assert line.partial and line.tricks_played == 4 and line.points == (0, 200, 0, 0)
    result = state.result()
    assert result["winners"] == [0, 3]  # the forfeited seat 2 never wins
    assert result["places"] == [1, 3, 4, 1]  # the earliest leaver last
    assert result["outcome"] == ["cikar", "batar", "batar", "cikar"]


def test_a_forfeit_after_the_end_or_twice_changes_nothing() -> None:
    state = diamonds_match(NO_FIRST_FOUR)
    state.forfeit(0)
    state.forfeit(0)
    assert (state.forfeits, state.forfeit_at) == ((0,), (0,))
    play(state, "trump:D")
    play_tricks(state, 13)
    assert state.is_over
    state.forfeit(3)
    assert state.forfeits == (0,)
    with pytest.raises(BadInput) as caught:
        state.forfeit(4)
    assert caught.value.code == "bad_seat"


def test_a_copy_keeps_the_marks() -> None:
    state = diamonds_match(ANNOUNCED)
    state.forfeit(2)
    other = state.copy()
    assert other == state and other.forfeits == (2,)
    other.forfeit(0)
    assert state.forfeits == (2,)


# ---------------------------------------------------------------------- stored form


def koz_announced_match() -> MatchState:
    """A real-key traditional match at the announcement of a Koz hand 0."""
    state = new_match("traditional", 20, bytes(range(32)), ANNOUNCED)
    play(state, "trump:C")
    assert king_engine.PHASE_NAMES[state.phase] == "announce"
    return state


def test_the_marks_are_stored_where_they_fell_and_replayed() -> None:
    state = koz_announced_match()
    announcer = state.current_player
    assert announcer is not None
    play(state, "king")
    unmarked = state.to_bytes()
    state.forfeit(announcer)
    stored = state.to_bytes()
    assert stored == unmarked + bytes((1, announcer, state.version))  # the marks go last
    again = MatchState.from_bytes(stored)
    assert again == state and again.forfeit_at == (state.version,)
    assert again.to_bytes() == stored
    play_tricks(state, 1)
    assert state.end_reason == "king_failed"
    ended = state.to_bytes()
    loaded = MatchState.from_bytes(ended)
    assert loaded == state and loaded.end_reason == "king_failed"
    # Without its mark the same moves do not end the match: the stored facts would not be met.
    marks = 1 + 1 + 1  # count, seat, one-byte varint
    with pytest.raises(BadInput) as caught:
        MatchState.from_bytes(ended[:-marks])
    assert caught.value.code == "bad_state"


def test_a_state_without_forfeits_keeps_its_bytes() -> None:
    state = koz_announced_match()
    before = state.to_bytes()
    marked = state.copy()
    marked.forfeit(1)
    assert marked.to_bytes()[: len(before)] == before
    assert len(marked.to_bytes()) == len(before) + 3


def test_random_matches_with_forfeits_round_trip() -> None:
    rng = random.Random(45)
    for _ in range(6):
        options = {"king_feat": rng.choice(["plain", "announced"]), "first_four_penalties": False}
        state = new_match("traditional", 20, rng.randbytes(32), options)
        left = rng.sample(range(4), 2)
        at = sorted(rng.randrange(0, 300) for _ in left)
        while not state.is_over:
            while at and state.version == at[0]:
                at.pop(0)
                state.forfeit(left.pop(0))
            state.apply_action(rng.choice(state.legal_actions()))
            if state.version % 37 == 0:
                assert MatchState.from_bytes(state.to_bytes()) == state
        assert MatchState.from_bytes(state.to_bytes()) == state


@pytest.mark.parametrize(
    "tail",
    [b"\x00", b"\x01\x05\x00", b"\x02\x01\x02\x00\x01", b"\x02\x01\x00\x01\x00", b"\x01\x01"],
    ids=["no-marks", "seat-5", "out-of-order", "twice", "short"],
)
def test_bad_marks_are_refused(tail: bytes) -> None:
    state = koz_announced_match()
    with pytest.raises(BadInput) as caught:
        MatchState.from_bytes(state.to_bytes() + tail)
    assert caught.value.code == "bad_state"


def test_plain_rulesets_keep_no_marks_and_their_bytes() -> None:
    state = new_match("standard", 8, bytes(range(32)))
    before = state.to_bytes()
    state.forfeit(2)
    assert state.forfeits == () and state.to_bytes() == before
