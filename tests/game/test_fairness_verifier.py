"""The tests' own KINGDEAL-v1 verifier reproduces FAIRNESS.md's test vectors."""

from __future__ import annotations

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
