"""The tests' own KINGDEAL-v1 verifier reproduces FAIRNESS.md's test vectors."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from king_engine import deal as kingdeal
from king_engine import format_cards

from . import verifier

M = "00112233-4455-6677-8899-aabbccddeeff"
S = bytes(range(32))
SEEDS = [bytes([b]) * 32 for b in (0x11, 0x22, 0x33, 0x44)]


def test_commitment_and_keys_match_the_vectors():
    assert (
        verifier.commit(M, S) == "852f136fd8c4304f34350fa24bec8b7af33743613034836e79aae55186a0e9c3"
    )
    key = verifier.match_key(M, S, SEEDS)
    assert key.hex() == "610e152d106945d1378252d8fed7c262fbe759ad9398ce185965ed7a7503503a"
    assert verifier.hand_key(key, 0).hex() == (
        "515b37ae7096660f2fad2126701ee083c403a71727b1aebb2250feb083ae79d6"
    )


def test_hand_zero_deck_and_hands_match_the_vectors():
    key = verifier.match_key(M, S, SEEDS)
    deck = [verifier.card_code(c) for c in verifier.deck(key, 0)]
    assert deck[:6] == ["QC", "5D", "9C", "KD", "KS", "TD"]
    assert verifier.hands(key, 0)[3] == set(
        ["5C", "6C", "JC", "KC", "2D", "3D", "4D", "6D", "QD", "4H", "5H", "TH", "3S"]
    )
    assert verifier.hands(key, 19)[0] == set(
        ["7C", "8C", "TC", "JC", "QC", "4D", "TD", "KD", "JH", "QH", "AH", "2S", "AS"]
    )


def test_rejection_sampling_skips_values_at_or_over_the_limit():
    limit = 2**32 - (2**32 % 52)
    draws = iter([limit, limit + 3, 2**32 - 1, 105])
    assert verifier.uniform(52, draws.__next__) == 1


DECK_32_DEAL_0 = (
    "JD 7C 9S 8S QD KH 8H AS 7H AH 9C TD TC AC JH KS QC TH QS KD KC TS JC 8C 9H JS 7D QH AD "
    "7S 8D 9D"
)
HANDS_32 = {
    0: ["7C JD QD 8H KH 8S 9S AS", "9C TC AC TD 7H JH AH KS",
        "8C JC QC KC KD TH TS QS", "7D 8D 9D AD 9H QH 7S JS"],
    1: ["9C AC 8D 9D AD JH KH JS", "TD 7H 8H 9H QH AH 7S KS",
        "TC QC 7D JD QD TH 9S AS", "7C 8C JC KC KD 8S TS QS"],
}  # fmt: skip


def test_the_32_card_deck_and_its_deals_match_the_vectors():
    assert " ".join(verifier.card_code(c) for c in verifier.DECK_32) == (
        "7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH "
        "7S 8S 9S TS JS QS KS AS"
    )
    key = verifier.match_key(M, S, SEEDS)
    deck = verifier.deck(key, 0, verifier.DECK_32)
    assert " ".join(verifier.card_code(c) for c in deck) == DECK_32_DEAL_0
    for deal, seats in HANDS_32.items():
        assert verifier.hands(key, deal, verifier.DECK_32) == [set(s.split()) for s in seats]


def test_a_redealt_hand_is_played_on_the_next_deal_number():
    """Hand 0 redealt once is played on deal 1: the "hand 1" cards of the 52-card vectors."""
    key = verifier.match_key(M, S, SEEDS)
    assert verifier.hand_key(key, 1).hex() == (
        "6db715a1724fcf741b200f7850fc480cf70c5731d45d6bea065302e05797a2f4"
    )
    assert verifier.hands(key, 1)[0] == set(
        ["2C", "4C", "TC", "6D", "TD", "QD", "AD", "2H", "QH", "AH", "2S", "8S", "AS"]
    )


def test_the_opening_draw_matches_the_vectors():
    key = verifier.match_key(M, S, SEEDS)
    assert verifier.draw_key(key).hex() == (
        "076cc80d0300ce14a48c4f07df5812144b5afaebfa08a8fcef89b0c14b73e854"
    )
    draw_deck = [verifier.card_code(c) for c in verifier.draw_deck(key)]
    assert draw_deck[:8] == ["JD", "9D", "7D", "9C", "5S", "7H", "8C", "KS"]
    assert verifier.opening_draw(key) == ([[(0, "JD"), (1, "9D"), (2, "7D"), (3, "9C")]], 0)


def test_a_tie_in_the_opening_draw_is_drawn_again_by_the_tied_seats():
    key = verifier.match_key(M, S, [bytes([0x07]) * 32, *SEEDS[1:]])
    assert key.hex() == "25cc6a328d946fea69cfd20a6c98365b6d6d78791f091e6c2b80fb441645ecad"
    rounds, winner = verifier.opening_draw(key)
    assert rounds == [[(0, "TH"), (1, "TC"), (2, "7D"), (3, "5D")], [(0, "TD"), (1, "KD")]]
    assert winner == 1


@settings(max_examples=100, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), deal=st.integers(0, 2**32 - 1))
def test_the_verifier_and_the_engine_agree_on_any_key(key, deal):
    """Two readings of FAIRNESS.md, written apart: same deals of both decks, same draw."""
    for engine_deck, cards in (
        (kingdeal.DECK_52, verifier.DECK_52),
        (kingdeal.DECK_32, verifier.DECK_32),
    ):
        masks = kingdeal.deal_hand(key, deal, engine_deck)
        assert [set(format_cards(m).split()) for m in masks] == verifier.hands(key, deal, cards)
    engine_draw = kingdeal.opening_draw(key).to_dict()
    rounds, winner = verifier.opening_draw(key)
    assert engine_draw == {
        "rounds": [[list(pair) for pair in rnd] for rnd in rounds],
        "winner": winner,
    }
