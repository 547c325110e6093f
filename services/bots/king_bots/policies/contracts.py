"""Contract choice for the easy and medium bots.

``estimate`` is a quick look at the declarer's 13 cards: a guess of the declarer's score
relative to the others under each contract. The easy bot picks by this guess with noise; the
medium bot keeps the few best-looking options and settles between them with a small simulation
(``search.evaluate_contracts``) on a handful of sampled deals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from king_engine import CONTRACTS, ChooseContract, SeatView
from king_engine.cards import SUIT_MASK
from king_engine.contracts import BOYS, HEARTS, KING_OF_HEARTS_CONTRACT, LAST_TWO, QUEENS, TRICKS

from .core import RANK, cards

_HONOUR = {12: 1.0, 11: 0.65, 10: 0.35, 9: 0.15}


def _tricks_guess(hand: int, trump: int = -1) -> float:
    """Rough number of tricks a hand takes (no trump) or as Koz declarer."""
    total = 0.0
    for suit in range(4):
        suit_cards = hand & SUIT_MASK[suit]
        length = suit_cards.bit_count()
        for card in cards(suit_cards):
            rank = RANK[card]
            value = _HONOUR.get(rank, 0.0)
            if rank in (11, 10) and length <= 13 - rank:
                value *= 0.6  # an unguarded king or queen falls to the ace
            total += value
        if suit == trump:
            total += max(0, length - 3) * 0.9 + length * 0.15
    if trump >= 0:
        trumps = (hand & SUIT_MASK[trump]).bit_count()
        shorts = sum(1 for s in range(4) if s != trump and (hand & SUIT_MASK[s]).bit_count() <= 1)
        total += min(trumps, shorts * 1.5) * 0.4
    return total


def _danger(hand: int, card_mask: int) -> float:
    """Expected number of the contract's penalty cards a hand ends up taking (very rough)."""
    expected = 0.0
    for card in cards(card_mask):
        suit = card // 13
        suit_cards = hand & SUIT_MASK[suit]
        length = suit_cards.bit_count()
        low = (suit_cards & ((1 << card) - 1)).bit_count()
        high = (suit_cards & ~((2 << card) - 1)).bit_count()
        if hand >> card & 1:
            expected += 0.6 if low < 3 else 0.3
        else:
            expected += 0.25 * (1.0 if high and low < 2 else 0.4 if high else 0.2)
        if length <= 1:
            expected -= 0.05
    return max(expected, 0.0)


def own_points_guess(hand: int, contract: int, trump: int) -> float:
    spec = CONTRACTS[contract]
    strength = _tricks_guess(hand, trump)
    if spec.id == 6:  # Koz
        return 50.0 * min(13.0, strength + 1.0)
    if contract == TRICKS:
        return -50.0 * (1.0 + strength)
    if contract == LAST_TWO:
        highs = sum(1 for c in cards(hand) if RANK[c] >= 10)
        return -180.0 * (0.25 + 0.06 * highs)
    if contract in (HEARTS, QUEENS, BOYS, KING_OF_HEARTS_CONTRACT):
        return spec.per_card * _danger(hand, spec.card_mask) * (1.0 + 0.1 * strength)
    return spec.total / 4.0


def estimate(hand: int, option: ChooseContract) -> float:
    """Guess of the declarer's score minus the others' mean under ``option``."""
    spec = CONTRACTS[option.contract]
    own = own_points_guess(hand, option.contract, option.trump)
    return own - (spec.total - own) / 3.0


def easy_contract(view: SeatView, rng: random.Random) -> ChooseContract:
    options = view.allowed_contracts
    scored = [(estimate(view.hand, o) + rng.gauss(0.0, 90.0), i) for i, o in enumerate(options)]
    return options[max(scored)[1]]


def shortlist(view: SeatView, keep: int) -> Sequence[ChooseContract]:
    options = list(view.allowed_contracts)
    if len(options) <= keep:
        return options
    ranked = sorted(range(len(options)), key=lambda i: -estimate(view.hand, options[i]))
    return [options[i] for i in sorted(ranked[:keep])]
