"""Shared set-up of the konturlu tests: the FAIRNESS.md test-vector key and fixed deals."""

from __future__ import annotations

from collections.abc import Callable

from king_engine import deal, parse_cards
from king_engine.konturlu import KonturluState, new_konturlu_match_on_deals_for_tests
from king_engine.konturlu import parse_move as parse

SERVER_SEED = bytes(range(32))
MATCH_ID = "00112233-4455-6677-8899-aabbccddeeff"
CLIENT_SEEDS = [bytes([b]) * 32 for b in (0x11, 0x22, 0x33, 0x44)]
VECTOR_KEY = deal.match_key(MATCH_ID, SERVER_SEED, CLIENT_SEEDS)


def vector_deals(offset: int = 0) -> Callable[[int], list[int]]:
    """Deal n is the test vectors' deal ``offset + n``."""
    return lambda n: deal.deal_hand(VECTOR_KEY, offset + n)


def fixed(*hands: str) -> Callable[[int], list[int]]:
    """The same hand-made deal (four hands of card codes) for every deal number."""
    masks = [parse_cards(h) for h in hands]
    assert sum(m.bit_count() for m in masks) == 52 and len(set(masks)) == 4
    assert masks[0] | masks[1] | masks[2] | masks[3] == (1 << 52) - 1
    return lambda n: masks[:]


def match(first: int = 0, deals: Callable[[int], list[int]] | None = None) -> KonturluState:
    return new_konturlu_match_on_deals_for_tests(deals or vector_deals(), first=first)


def legal(state: KonturluState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def play(state: KonturluState, seat: int, text: str) -> list[dict[str, object]]:
    """``seat`` makes the move ``text`` (the checked path)."""
    return state.apply(seat, parse(text))


def lowest_card_policy(state: KonturluState) -> str:
    """The legal move with the lowest action id (cards: the lowest card id)."""
    return str(min(state.legal_moves(), key=lambda m: m.action))
