"""KINGDEAL-v1 (FAIRNESS.md): the published test vectors (52- and 32-card deals, the opening
draw), the rejection branch, and the fast shuffle against the specification's own reading."""

from __future__ import annotations

import hashlib
import hmac
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from king_engine import BadInput, deal, format_card, format_cards, parse_card

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


# ---------------------------------------------------------------- deal numbers and the 32-card deck

DECK_32 = (
    "7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH "
    "7S 8S 9S TS JS QS KS AS"
)
DECK_32_DEAL_0 = (
    "JD 7C 9S 8S QD KH 8H AS 7H AH 9C TD TC AC JH KS QC TH QS KD KC TS JC 8C 9H JS 7D QH AD "
    "7S 8D 9D"
)
HANDS_32 = {
    0: (
        "7C JD QD 8H KH 8S 9S AS",
        "9C TC AC TD 7H JH AH KS",
        "8C JC QC KC KD TH TS QS",
        "7D 8D 9D AD 9H QH 7S JS",
    ),
    1: (
        "9C AC 8D 9D AD JH KH JS",
        "TD 7H 8H 9H QH AH 7S KS",
        "TC QC 7D JD QD TH 9S AS",
        "7C 8C JC KC KD 8S TS QS",
    ),
}


def test_the_32_card_deck_is_seven_to_ace_in_id_order() -> None:
    assert " ".join(format_card(c) for c in deal.DECK_32) == DECK_32
    assert tuple(range(52)) == deal.DECK_52


def test_32_card_deck_after_deal_0_shuffle(key: bytes) -> None:
    assert " ".join(format_card(c) for c in deal.shuffled_deck(key, 0, deal.DECK_32)) == (
        DECK_32_DEAL_0
    )
    reference = deal.shuffled_deck_reference(key, 0, deal.DECK_32)
    assert " ".join(format_card(c) for c in reference) == DECK_32_DEAL_0


@pytest.mark.parametrize("deal_no", sorted(HANDS_32))
def test_32_card_deals_give_each_seat_eight_cards(key: bytes, deal_no: int) -> None:
    hands = deal.deal_hand(key, deal_no, deck=deal.DECK_32)
    assert tuple(format_cards(mask) for mask in hands) == HANDS_32[deal_no]


def test_a_redealt_hand_takes_the_next_deal_number(key: bytes) -> None:
    """FAIRNESS.md: hand 0 redealt once is played on deal 1, the "hand 1" cards."""
    assert deal.deal_hand(key, deal_no=1) == deal.deal_hand(key, 1, deal.DECK_52)
    assert tuple(format_cards(mask) for mask in deal.deal_hand(key, 1)) == HANDS[1]


def test_a_deck_must_be_ascending_card_ids_for_four_seats(key: bytes) -> None:
    for bad in ((), (0, 1, 2), (3, 2, 1, 0), (0, 0, 1, 2), (49, 50, 51, 52), (-1, 0, 1, 2)):
        with pytest.raises(ValueError):
            deal.deal_hand(key, 0, deck=bad)
    # An equal deck that is not the constant itself takes the general path: same cards.
    assert deal.deal_hand(key, 0, deck=list(range(52))) == deal.deal_hand(key, 0)


def test_fast_32_card_shuffle_falls_back_when_a_draw_is_rejected(
    monkeypatch: pytest.MonkeyPatch, key: bytes
) -> None:
    monkeypatch.setattr(deal, "_MIN_LIMIT", 0)
    assert deal.shuffled_deck(key, 0, deal.DECK_32) == deal.shuffled_deck_reference(
        key, 0, deal.DECK_32
    )
    hands = deal.deal_hand(key, 0, deal.DECK_32)
    assert tuple(format_cards(mask) for mask in hands) == HANDS_32[0]


# ---------------------------------------------------------------- the opening draw


def _draw_codes(result: deal.OpeningDraw) -> list[list[tuple[int, str]]]:
    return [[(seat, format_card(card)) for seat, card in rnd] for rnd in result.rounds]


def test_draw_key_vector(key: bytes) -> None:
    assert deal.draw_key(key).hex() == (
        "076cc80d0300ce14a48c4f07df5812144b5afaebfa08a8fcef89b0c14b73e854"
    )


def test_draw_deck_vector(key: bytes) -> None:
    draw_deck = deal.draw_deck(key)
    assert " ".join(format_card(c) for c in draw_deck[:8]) == "JD 9D 7D 9C 5S 7H 8C KS"
    assert sorted(draw_deck) == list(range(52))


def test_opening_draw_highest_rank_starts(key: bytes) -> None:
    """Seat 0 draws J♦, seat 1 9♦, seat 2 7♦, seat 3 9♣: seat 0 starts after one round."""
    result = deal.opening_draw(key)
    assert _draw_codes(result) == [[(0, "JD"), (1, "9D"), (2, "7D"), (3, "9C")]]
    assert result.winner == 0
    assert result.to_dict() == {
        "rounds": [[[0, "JD"], [1, "9D"], [2, "7D"], [3, "9C"]]],
        "winner": 0,
    }


def test_opening_draw_tied_seats_draw_again() -> None:
    """C_0 = 0x07×32: T♥ and T♣ tie for seats 0 and 1, who alone draw again: T♦, K♦."""
    seeds = [bytes([0x07]) * 32, *CLIENT_SEEDS[1:]]
    key = deal.match_key(MATCH_ID, SERVER_SEED, seeds)
    assert key.hex() == "25cc6a328d946fea69cfd20a6c98365b6d6d78791f091e6c2b80fb441645ecad"
    result = deal.opening_draw(key)
    assert _draw_codes(result) == [
        [(0, "TH"), (1, "TC"), (2, "7D"), (3, "5D")],
        [(0, "TD"), (1, "KD")],
    ]
    assert result.winner == 1


def test_suits_do_not_rank_in_the_draw() -> None:
    """A♠ and A♣ tie whatever their suits; the next cards decide."""
    cards = [parse_card(c) for c in ["AS", "2C", "AC", "3D", "4H", "5H"]]
    result = deal.high_card_draw(cards)
    assert _draw_codes(result) == [
        [(0, "AS"), (1, "2C"), (2, "AC"), (3, "3D")],
        [(0, "4H"), (2, "5H")],
    ]
    assert result.winner == 2


def test_when_the_draw_deck_runs_out_the_lowest_remaining_seat_wins() -> None:
    """Every round ties (seats 1 and 2 on aces, then pair after pair): after 25 rounds the 52
    cards are gone, and seat 1 is the lowest seat still drawing."""
    pairs = [f"{rank}{suit}" for rank in "KQJT98765432" for suit in "CDHS"]
    codes = ["2C", "AC", "AD", "2D", "AH", "AS", *pairs[:-4], "2H", "2S"]
    cards = [parse_card(c) for c in codes]
    assert sorted(cards) == list(range(52))
    result = deal.high_card_draw(cards)
    assert len(result.rounds) == 25
    assert all(len(rnd) == 2 for rnd in result.rounds[1:])
    assert result.winner == 1
    # Running out in the middle of a round: the seats still drawing are not narrowed by it.
    short = deal.high_card_draw([parse_card(c) for c in ["2C", "AC", "AD", "2D", "KC"]])
    assert _draw_codes(short) == [[(0, "2C"), (1, "AC"), (2, "AD"), (3, "2D")], [(1, "KC")]]
    assert short.winner == 1


# ---------------------------------------------------------------- a plain reading of the spec


def _plain_deck(match_key: bytes, deal_no: int, deck: list[int]) -> list[int]:
    """FAIRNESS.md step 4, written out from the text with nothing shared with the engine."""
    hand_key = hmac.new(
        match_key, b"KINGDEAL-v1/hand\0" + deal_no.to_bytes(4, "big"), hashlib.sha256
    ).digest()
    words: list[int] = []
    counter = 0

    def next_u32() -> int:
        nonlocal counter
        if not words:
            block = hmac.new(hand_key, counter.to_bytes(4, "big"), hashlib.sha256).digest()
            words.extend(int.from_bytes(block[i : i + 4], "big") for i in range(28, -1, -4))
            counter += 1
        return words.pop()

    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        x = next_u32()
        while x >= limit:
            x = next_u32()
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_the_plain_reading_reproduces_the_vectors(key: bytes) -> None:
    assert " ".join(format_card(c) for c in _plain_deck(key, 0, list(range(52)))) == DECK_0
    deck_32 = [c for c in range(52) if c % 13 >= 5]
    assert " ".join(format_card(c) for c in _plain_deck(key, 0, deck_32)) == DECK_32_DEAL_0


@settings(max_examples=300, deadline=None)
@given(
    key=st.binary(min_size=32, max_size=32),
    deal_no=st.one_of(st.integers(0, 100), st.integers(0, 2**32 - 1)),
)
def test_fast_deal_equals_a_plain_reading_of_the_spec(key: bytes, deal_no: int) -> None:
    """The engine's 52-card fast path (and its 32-card path) deal what the text says."""
    plain = _plain_deck(key, deal_no, list(range(52)))
    assert deal.shuffled_deck(key, deal_no) == plain
    assert deal.deal_hand(key, deal_no) == [
        sum(1 << c for c in plain[13 * s : 13 * s + 13]) for s in range(4)
    ]
    plain_32 = _plain_deck(key, deal_no, list(deal.DECK_32))
    assert deal.shuffled_deck(key, deal_no, deal.DECK_32) == plain_32
    assert deal.deal_hand(key, deal_no, deal.DECK_32) == [
        sum(1 << c for c in plain_32[8 * s : 8 * s + 8]) for s in range(4)
    ]


@settings(max_examples=100, deadline=None)
@given(
    match_id=st.uuids(), seeds=st.lists(st.binary(min_size=32, max_size=32), min_size=5, max_size=5)
)
def test_opening_draw_follows_the_rules(match_id: uuid.UUID, seeds: list[bytes]) -> None:
    """The winner holds the highest rank of the last round, alone; every later round is the
    previous round's seats on its highest rank; the cards are D's, in order."""
    key = deal.match_key(match_id, seeds[0], seeds[1:])
    result = deal.opening_draw(key)
    turned = [card for rnd in result.rounds for _, card in rnd]
    assert turned == deal.draw_deck(key)[: len(turned)]
    assert [seat for seat, _ in result.rounds[0]] == [0, 1, 2, 3]
    for earlier, later in zip(result.rounds, result.rounds[1:], strict=False):
        top = max(card % 13 for _, card in earlier)
        assert [seat for seat, _ in later] == [s for s, c in earlier if c % 13 == top]
    last = result.rounds[-1]
    top = max(card % 13 for _, card in last)
    assert [s for s, c in last if c % 13 == top] == [result.winner]
