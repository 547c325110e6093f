"""Cards, suits and hands.

A card is a small int, ``suit * 13 + rank``, exactly the numbering of the fair-deal
specification (KINGDEAL-v1): suits clubs=0, diamonds=1, hearts=2, spades=3; ranks 2..A = 0..12.
So ``2C`` is 0, ``AC`` 12, ``KH`` 37 and ``AS`` 51. A set of cards (a hand, a trick, the cards
taken) is a 52-bit mask with bit ``card`` set. Inside one suit a higher rank is a higher bit, so
"the highest card of a suit in a mask" is ``(mask & SUIT_MASK[s]).bit_length() - 1``.

No suit outranks another; the ranks run 2 < 3 < ... < T < J < Q < K < A.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .errors import BadInput

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)

SUIT_CHARS: Final = "CDHS"
RANK_CHARS: Final = "23456789TJQKA"
SUIT_SYMBOLS: Final = "♣♦♥♠"

RANK_JACK: Final = 9
RANK_QUEEN: Final = 10
RANK_KING: Final = 11
RANK_ACE: Final = 12

FULL_DECK: Final = (1 << 52) - 1
SUIT_MASK: Final = tuple(((1 << 13) - 1) << (13 * s) for s in SUITS)


def card_of(suit: int, rank: int) -> int:
    """The card id of ``rank`` (0 = two .. 12 = ace) in ``suit``."""
    return suit * 13 + rank


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def _mask_of_ranks(*ranks: int) -> int:
    mask = 0
    for suit in SUITS:
        for rank in ranks:
            mask |= 1 << card_of(suit, rank)
    return mask


KING_OF_HEARTS: Final = card_of(HEARTS, RANK_KING)
QUEENS_MASK: Final = _mask_of_ranks(RANK_QUEEN)
BOYS_MASK: Final = _mask_of_ranks(RANK_KING, RANK_JACK)  # kings and jacks, "erkek"
HEARTS_MASK: Final = SUIT_MASK[HEARTS]

# Card id -> its suit and its one-bit mask, as tuples: indexing beats arithmetic in hot loops.
CARD_SUIT: Final = tuple(c // 13 for c in range(52))
CARD_BIT: Final = tuple(1 << c for c in range(52))
CARD_SUIT_MASK: Final = tuple(SUIT_MASK[c // 13] for c in range(52))


# Card id -> its code: views and events format many cards, and indexing is cheaper.
CARD_CODES: Final = tuple(RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in range(52))


def format_card(card: int) -> str:
    """``37`` -> ``"KH"``."""
    if not 0 <= card < 52:
        raise BadInput("bad_card", f"card id {card!r} is not in 0..51")
    return CARD_CODES[card]


_CODE_TO_CARD: Final = {
    RANK_CHARS[r] + SUIT_CHARS[s]: card_of(s, r) for s in SUITS for r in range(13)
}


def parse_card(code: str) -> int:
    """``"KH"`` (also ``"kh"`` and ``"10H"``) -> 37; anything else raises ``BadInput``."""
    if not isinstance(code, str):
        raise BadInput("bad_card", f"card code must be a string, got {code!r}")
    text = code.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    card = _CODE_TO_CARD.get(text)
    if card is None:
        raise BadInput("bad_card", f"{code!r} is not a card code (rank 2-9TJQKA + suit CDHS)")
    return card


def parse_suit(text: str) -> int:
    if not isinstance(text, str) or text.strip().upper() not in ("C", "D", "H", "S"):
        raise BadInput("bad_suit", f"{text!r} is not a suit (one of C, D, H, S)")
    return SUIT_CHARS.index(text.strip().upper())


def format_suit(suit: int) -> str:
    return SUIT_CHARS[suit]


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _byte_codes(first: int, count: int) -> tuple[tuple[str, ...], ...]:
    """For each value of a byte whose bit 0 is card ``first``, the codes of its cards."""
    table: list[tuple[str, ...]] = [()]
    for value in range(1, 1 << count):
        top = value.bit_length() - 1
        table.append(table[value ^ (1 << top)] + (CARD_CODES[first + top],))
    return tuple(table)


# A mask's codes, a byte at a time: seven lookups instead of a loop over its cards (a view
# formats several masks). The last byte holds cards 48..51 only, so a bigger value (a card id
# over 51) is an IndexError there.
_BYTE_CODES: Final = tuple(_byte_codes(8 * i, 8 if i < 6 else 4) for i in range(7))


def card_codes(mask: int) -> list[str]:
    """The codes of a mask's cards, lowest id first: ``[format_card(c) for c in cards_in(mask)]``.

    A mask with a card id outside 0..51 raises ``BadInput("bad_card")`` as ``format_card`` does.
    """
    if not mask:
        return []
    b0, b1, b2, b3, b4, b5, b6 = _BYTE_CODES
    try:
        data = mask.to_bytes(7, "little")
        return [
            *b0[data[0]], *b1[data[1]], *b2[data[2]], *b3[data[3]],
            *b4[data[4]], *b5[data[5]], *b6[data[6]],
        ]  # fmt: skip
    except (OverflowError, IndexError):
        return [format_card(c) for c in cards_in(mask)]  # raises format_card's BadInput


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def format_cards(mask: int) -> str:
    """A mask as space-separated codes sorted by id, e.g. ``"2C 7C QC 5D"``."""
    return " ".join(format_card(c) for c in cards_in(mask))


def parse_cards(text: str) -> int:
    """The inverse of ``format_cards`` (any order; duplicates are an error)."""
    mask = 0
    for code in text.split():
        bit = 1 << parse_card(code)
        if mask & bit:
            raise BadInput("bad_card", f"card {code} appears twice")
        mask |= bit
    return mask
