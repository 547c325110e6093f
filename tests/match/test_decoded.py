"""The kept decoded states (``king_match.decoded``): what they hand out is what a decode of the
same bytes gives, for every ruleset, and the store's loads and writes use them."""

from __future__ import annotations

import random

import pytest

import king_match.decoded as decoded_module
from king_engine import RULESETS, BadInput, game_from_bytes, new_game
from king_match import Player
from king_match.decoded import DecodedStates
from king_match.store import fallback_move

SEED = "ab" * 32
PLAYERS = [Player(f"p-{n}", n) for n in ("alice", "bob", "cem", "deniz")]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_kept_state_is_the_decode_of_its_bytes_and_plays_on_the_same(ruleset: str) -> None:
    rng = random.Random(ruleset)
    state = new_game(ruleset, min(RULESETS[ruleset].lengths), bytes(range(32)))
    decoded = DecodedStates()
    kept = 0
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(state.current_player, moves[rng.randrange(len(moves))])
        if state.version % 37:
            continue
        data = state.to_bytes()
        # Kept by a write (the writer's own state) or by a first read (a decode): either way
        # the copy handed out is the plain decode's, and the next move leaves both equal.
        if kept % 2:
            decoded.keep("m", data, state.copy())
        else:
            decoded.state("m", data)
        kept += 1
        copy, plain = decoded.state("m", data), game_from_bytes(data)
        assert copy == plain and copy.to_bytes() == data
        seat = plain.current_player
        if seat is not None:
            move = plain.legal_moves()[0]
            assert copy.apply(seat, move) == plain.apply(seat, move)
            assert copy == plain
    assert kept >= 5


def test_other_bytes_for_the_same_match_are_decoded_and_checked() -> None:
    state = new_game("konturlu", 32, bytes(range(32)))
    decoded = DecodedStates()
    data = state.to_bytes()
    decoded.state("m", data)
    tampered = bytearray(data)
    tampered[-1] ^= 1
    with pytest.raises(BadInput) as refused:
        decoded.state("m", bytes(tampered))
    assert refused.value.code == "bad_state"


@pytest.mark.integration
def test_the_store_decodes_a_state_once_for_its_reads_and_not_after_its_own_write(
    make_store, monkeypatch
) -> None:
    decodes: list[bytes] = []

    def counted(data: bytes):
        decodes.append(data)
        return game_from_bytes(data)

    monkeypatch.setattr(decoded_module, "game_from_bytes", counted)
    store, _, _ = make_store()
    record = store.create_table(PLAYERS[0], mode="live", ruleset="konturlu", hands=32)
    for seat, player in enumerate(PLAYERS):
        store.join(record.match_id, player, client_seed=SEED, seat=seat)
    store.reader.decoded = DecodedStates()  # forget what the seating wrote
    record, state = store.load(record.match_id)
    again = store.load(record.match_id)[1]
    assert len(decodes) == 1 and again == state
    seat = state.current_player
    store.play(record.match_id, PLAYERS[seat], fallback_move(state, seat, "x"))
    record, after = store.load(record.match_id)
    assert len(decodes) == 1  # the write kept the state it committed
    assert after == game_from_bytes(after.to_bytes()) and after.version == state.version + 1
