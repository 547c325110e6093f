"""Konturlu's contracts, their points and the rules of its trick play (RULES-konturlu.md §2)."""

from __future__ import annotations

from typing import Final

from ..cards import BOYS_MASK, HEARTS_MASK, KING_OF_HEARTS, QUEENS_MASK, SUIT_MASK, card_of

# ---------------------------------------------------------------------- contracts (§2.5)

EL, KUPA, ERKEK, KIZ, RIFKI, SONIKI, KOZ, DURT = range(8)
CONTRACT_CODES: Final = ("el", "kupa", "erkek", "kiz", "rifki", "soniki", "koz", "durt")
CONTRACT_NAMES: Final = (
    "El almaz",
    "Kupa almaz",
    "Erkek almaz",
    "Kız almaz",
    "Rıfkı",
    "Son iki",
    "Koz",
    "Dürt",
)
PENALTIES: Final = frozenset({EL, KUPA, ERKEK, KIZ, RIFKI, SONIKI})
#: What the four scores of one hand of each contract add up to (§6.1).
HAND_TOTALS: Final = (-65, -39, -48, -40, -30, -30, 65, 65)
ALL_DECLARED: Final = (1 << 8) - 1
NUM_HANDS: Final = 32
STARTING_TOTAL: Final = 122
TRICKS: Final = 13
POINTS_PER_TRICK: Final = 5  # El almaz (penalty) and Koz (gain)
POINTS_PER_HEART: Final = 3
POINTS_PER_BOY: Final = 6
POINTS_PER_QUEEN: Final = 10
POINTS_RIFKI: Final = 30
POINTS_LAST_TWO: Final = (10, 20)  # tricks 12 and 13
KH_BIT: Final = 1 << KING_OF_HEARTS
AH_BIT: Final = 1 << card_of(2, 12)
#: The cards whose taking ends the hand early (§2.6, D11); 0: always 13 tricks.
EARLY_END_MASK: Final = (0, HEARTS_MASK, BOYS_MASK, QUEENS_MASK, KH_BIT, 0, 0, 0)


def can_cancel_rifki(hand: int) -> bool:
    """§2.7: exactly one heart, and it is K♥ or A♥."""
    hearts = hand & HEARTS_MASK
    return hearts in (KH_BIT, AH_BIT)


def trick_legal_mask(contract: int, hand: int, led: int, earlier: int) -> int:
    """The cards of ``hand`` playable in a trick (§2.2–2.4); ``led`` -1 when leading,
    ``earlier`` the cards of this hand's completed tricks."""
    if led < 0:
        if contract in (KUPA, RIFKI) and not earlier & HEARTS_MASK:
            rest = hand & ~HEARTS_MASK
            if rest:
                return rest
            if contract == KUPA:  # only hearts: the highest one
                return 1 << (hand.bit_length() - 1)
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    if contract == RIFKI:
        return hand & HEARTS_MASK or hand
    return hand


def trick_points(contract: int, trick: int, trick_no: int) -> int:
    """The points (P or G) the winner of a completed trick takes."""
    if contract in (EL, KOZ):
        return POINTS_PER_TRICK
    if contract == KUPA:
        return POINTS_PER_HEART * (trick & HEARTS_MASK).bit_count()
    if contract == ERKEK:
        return POINTS_PER_BOY * (trick & BOYS_MASK).bit_count()
    if contract == KIZ:
        return POINTS_PER_QUEEN * (trick & QUEENS_MASK).bit_count()
    if contract == RIFKI:
        return POINTS_RIFKI if trick & KH_BIT else 0
    if trick_no >= TRICKS - 2:  # Son iki
        return POINTS_LAST_TWO[trick_no - (TRICKS - 2)]
    return 0
