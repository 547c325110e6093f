"""Cards and moves: text forms that parse back, and precise errors for bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from king_engine import (
    BadInput,
    ChooseContract,
    PlayCard,
    format_card,
    format_cards,
    move_of_action,
    parse_card,
    parse_cards,
    parse_move,
)
from king_engine.moves import NUM_ACTIONS


def test_card_numbering_is_the_fair_deal_numbering() -> None:
    assert [parse_card(c) for c in ("2C", "AC", "2D", "KH", "AS")] == [0, 12, 13, 37, 51]


@given(st.integers(0, 51))
def test_card_codes_round_trip(card: int) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card).lower()) == card


def test_ten_may_be_written_10() -> None:
    assert parse_card("10H") == parse_card("TH")


@pytest.mark.parametrize("bad", ["", "1H", "KX", "ZZ", "QHH", "H", "52"])
def test_bad_card_codes_are_rejected(bad: str) -> None:
    with pytest.raises(BadInput) as err:
        parse_card(bad)
    assert err.value.code == "bad_card"
    assert repr(bad) in err.value.message


@given(st.integers(0, 2**52 - 1))
def test_card_sets_round_trip(mask: int) -> None:
    assert parse_cards(format_cards(mask)) == mask


@given(st.integers(0, NUM_ACTIONS - 1))
def test_moves_text_round_trips(action: int) -> None:
    move = move_of_action(action)
    assert parse_move(str(move)) == move
    assert move.action == action


def test_move_text_forms() -> None:
    assert parse_move("QH") == PlayCard(parse_card("QH"))
    assert parse_move("queens") == ChooseContract(2)
    assert parse_move("trump:s") == ChooseContract(6, 3)
    assert str(ChooseContract(5)) == "king_of_hearts"


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ("", "bad_move"),
        ("koz", "unknown_contract"),
        ("trump", "trump_required"),
        ("trump:X", "bad_suit"),
        ("queens:S", "trump_not_allowed"),
        ("QX", "bad_card"),
    ],
)
def test_bad_moves_are_rejected_with_a_code(bad: str, code: str) -> None:
    with pytest.raises(BadInput) as err:
        parse_move(bad)
    assert err.value.code == code
