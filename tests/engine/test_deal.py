"""KINGDEAL-v1 (FAIRNESS.md): the published test vectors, the rejection branch, and the fast
shuffle against the specification's own reading."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from king_engine import BadInput, deal, format_card, format_cards

SERVER_SEED = bytes(range(32))
MATCH_ID = "00112233-4455-6677-8899-aabbccddeeff"
CLIENT_SEEDS = [bytes([b]) * 32 for b in (0x11, 0x22, 0x33, 0x44)]

DECK_0 = (
    "QC 5D 9C KD KS TD 5S 7C 7S 6H 8H 2C JD 7D 2S AC AS 7H TC JH QH AD 9H 3C 3H AH "
    "6S KH 4C 9S 9D 8D TS 8S 8C JS 4S 2H QS 3D 4D 5H 3S 6D QD 5C KC JC 2D 6C 4H TH"
)
HANDS = {
    0: (
        "2C 7C 9C QC 5D TD JD KD 6H 8H 5S 7S KS",
        "3C TC AC 7D AD 3H 7H 9H JH QH AH 2S AS",
        "4C 8C 8D 9D 2H KH 4S 6S 8S 9S TS JS QS",
        "5C 6C JC KC 2D 3D 4D 6D QD 4H 5H TH 3S",
    ),
    1: (
        "2C 4C TC 6D TD QD AD 2H QH AH 2S 8S AS",
        "7C 8C 9C JC KC 2D 3D 8D 7H JH TS JS KS",
        "3C QC 5D 7D 9D JD 4H 5H 6H 8H 3S 5S 7S",
        "5C 6C AC 4D KD 3H 9H TH KH 4S 6S 9S QS",
    ),
    19: (
        "7C 8C TC JC QC 4D TD KD JH QH AH 2S AS",
        "2C 4C 8D JD 6H 7H 9H KH 4S 5S 9S JS KS",
        "5C 6C 9C 2D 9D AD 3H 5H 8H TH 3S 7S 8S",
        "3C KC AC 3D 5D 6D 7D QD 2H 4H 6S TS QS",
    ),
}


@pytest.fixture(scope="module")
def key() -> bytes:
    return deal.match_key(MATCH_ID, SERVER_SEED, CLIENT_SEEDS)


def test_server_commit_vector() -> None:
    assert deal.server_commit(MATCH_ID, SERVER_SEED) == (
        "852f136fd8c4304f34350fa24bec8b7af33743613034836e79aae55186a0e9c3"
    )
    assert deal.verify_commit(MATCH_ID, SERVER_SEED, deal.server_commit(MATCH_ID, SERVER_SEED))
    assert not deal.verify_commit(MATCH_ID, bytes(32), deal.server_commit(MATCH_ID, SERVER_SEED))


def test_match_key_vector(key: bytes) -> None:
    assert key.hex() == "610e152d106945d1378252d8fed7c262fbe759ad9398ce185965ed7a7503503a"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (0, "515b37ae7096660f2fad2126701ee083c403a71727b1aebb2250feb083ae79d6"),
        (1, "6db715a1724fcf741b200f7850fc480cf70c5731d45d6bea065302e05797a2f4"),
        (19, "3e33582d4f9308c593bd513a6f08e4882c2267eb0898e4d9f27821b47a7cb4ca"),
    ],
)
def test_hand_key_vectors(key: bytes, hand: int, expected: str) -> None:
    assert deal.hand_key(key, hand).hex() == expected


def test_deck_after_hand_0_shuffle(key: bytes) -> None:
    assert " ".join(format_card(c) for c in deal.shuffled_deck(key, 0)) == DECK_0
    assert " ".join(format_card(c) for c in deal.shuffled_deck_reference(key, 0)) == DECK_0


@pytest.mark.parametrize("hand", sorted(HANDS))
def test_dealt_hands_vectors(key: bytes, hand: int) -> None:
    assert tuple(format_cards(mask) for mask in deal.deal_hand(key, hand)) == HANDS[hand]


def test_uniform_rejection_branch() -> None:
    """FAIRNESS.md: next_u32 returning limit, limit+3, 2^32-1, 105 for n = 52 gives 1."""
    limit = 2**32 - (2**32 % 52)
    draws = iter([limit, limit + 3, 2**32 - 1, 105])
    assert deal.uniform(52, draws.__next__) == 1


def test_uniform_accepts_the_largest_value_below_the_limit() -> None:
    limit = 2**32 - (2**32 % 52)
    draws = iter([limit - 1])
    assert deal.uniform(52, draws.__next__) == (limit - 1) % 52


@settings(max_examples=300, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), hand=st.integers(0, 200))
def test_fast_shuffle_equals_the_specification(key: bytes, hand: int) -> None:
    reference = deal.shuffled_deck_reference(key, hand)
    assert deal.shuffled_deck(key, hand) == reference
    assert sorted(reference) == list(range(52))
    hands = deal.deal_hand(key, hand)
    assert hands == [sum(1 << c for c in reference[13 * s : 13 * s + 13]) for s in range(4)]


def test_fast_shuffle_falls_back_when_a_draw_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    # Force the fast path to see a rejected draw: the answer must still be the reference one.
    monkeypatch.setattr(deal, "_MIN_LIMIT", 0)
    key = bytes(range(32))
    assert deal.shuffled_deck(key, 3) == deal.shuffled_deck_reference(key, 3)


def test_seeds_must_be_64_hex_characters() -> None:
    assert deal.parse_seed("ab" * 32) == bytes([0xAB]) * 32
    # 64 characters with spaces: bytes.fromhex skips them, so it would be fewer than 32 bytes.
    spaced = "ab " * 21 + " "
    for bad in ("ab" * 31, "zz" * 32, "", "ab" * 33, spaced, "ab" * 31 + "\u0661\u0662"):
        with pytest.raises(BadInput) as err:
            deal.parse_seed(bad)
        assert err.value.code == "bad_seed"
    with pytest.raises(BadInput):
        deal.match_key(MATCH_ID, SERVER_SEED, CLIENT_SEEDS[:3])
    with pytest.raises(BadInput):
        deal.match_id_bytes("not-a-uuid")


def test_verify_plays_detects_foreign_and_repeated_cards(key: bytes) -> None:
    hands = deal.deal_hand(key, 0)
    own = (hands[0] & -hands[0]).bit_length() - 1
    other = (hands[1] & -hands[1]).bit_length() - 1
    assert deal.verify_plays(key, 0, [(0, own)]) == []
    assert deal.verify_plays(key, 0, [(0, other)])
    assert deal.verify_plays(key, 0, [(0, own), (0, own)])
