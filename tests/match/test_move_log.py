"""The match's move log: one byte a card or contract, as every log ever written, and two for
the moves past them (a phased ruleset's calls); it decodes to the moves in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from king_engine.moves import NUM_ACTIONS
from king_match.record import decode_moves, encode_move

moves = st.lists(st.tuples(st.integers(0, 3), st.integers(0, NUM_ACTIONS - 1)), max_size=60)


@given(moves)
def test_a_log_decodes_to_its_moves(log: list[tuple[int, int]]) -> None:
    data = b"".join(encode_move(seat, action) for seat, action in log)
    assert decode_moves(data) == log


def test_cards_and_contracts_keep_the_one_byte_form() -> None:
    for seat in range(4):
        for action in range(62):
            assert encode_move(seat, action) == bytes((seat << 6 | action,))
    assert len(encode_move(2, NUM_ACTIONS - 1)) == 2
    assert NUM_ACTIONS - 1 - 63 < 256  # the second byte has room
