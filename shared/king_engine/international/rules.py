"""The fixed data and pure rules of ``international`` (RULES-international.md): the ten hands,
the bid ladder, the card rules of each hand and the settlement of a positive hand.

Nothing here holds state: the state class (``state.py``) asks these functions, and the tests
can check the settlement formulas (§4) on a worked example's tricks without playing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import (
    BOYS_MASK,
    HEARTS_MASK,
    KING_OF_HEARTS,
    QUEENS_MASK,
    SUIT_CHARS,
    SUIT_MASK,
)
from ..deal import DECK_32, DECK_52
from ..errors import (
    RULE_FOLLOW_SUIT,
    RULE_HEART_LEAD,
    RULE_KING_OF_HEARTS_LEAD,
    RULE_MUST_PLAY_KING_OF_HEARTS,
)

NUM_HANDS: Final = 10  # R1.1
NEGATIVE_HANDS: Final = 6  # hands 0..5; 6..9 are the positive hands with an auction

# R1.6: the six negative hands in their fixed order.
NO_TRICKS: Final = "no_tricks"
NO_HEARTS: Final = "no_hearts"
NO_QUEENS: Final = "no_queens"
NO_KINGS_JACKS: Final = "no_kings_jacks"
NO_KING_OF_HEARTS: Final = "no_king_of_hearts"
NO_LAST_TWO: Final = "no_last_two"
NEGATIVE_CONTRACTS: Final = (
    NO_TRICKS,
    NO_HEARTS,
    NO_QUEENS,
    NO_KINGS_JACKS,
    NO_KING_OF_HEARTS,
    NO_LAST_TWO,
)

# R2.2: the positive contracts, in the order R3.9 lists them (A11: trump:S, H, D, C, notrump).
NOTRUMP: Final = "notrump"
MINUS: Final = "minus"
TRUMP_SUIT_ORDER: Final = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs
PLUS_CONTRACTS: Final = (*tuple(f"trump:{SUIT_CHARS[s]}" for s in TRUMP_SUIT_ORDER), NOTRUMP)
ALL_POSITIVE_CONTRACTS: Final = (*PLUS_CONTRACTS, MINUS)

# R3.2: the ladder, lowest first; a bid is its index here. The 32-card ladder (§5) is the
# first six steps: +1 +2 +3 -1 +4 +5.
BID_TEXTS: Final = ("+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8")
NO_BID: Final = -1


def bid_is_minus(bid: int) -> bool:
    return BID_TEXTS[bid][0] == "-"


def bid_number(bid: int) -> int:
    return int(BID_TEXTS[bid][1:])


def trump_of(contract: str) -> int:
    """The trump suit of a contract code, -1 for none (negative hands, notrump, minus)."""
    if contract.startswith("trump:"):
        return SUIT_CHARS.index(contract[6])
    return -1


@dataclass(frozen=True, slots=True)
class DeckValues:
    """Everything that depends on the deck option (R5.2)."""

    size: int
    cards: int  # mask of the deck's cards
    tricks: int  # tricks per hand = cards per seat
    ladder: int  # bids 0..ladder-1 exist
    plus_unit: int  # a plus trick, and one step of a plus bid
    minus_unit: int  # a trick of the minus deal, and one step of a minus bid
    positive_total: int  # what every positive hand sums to
    annul_auctioneer: int
    annul_other: int
    negative_totals: tuple[int, ...]  # h0..h5
    per_trick_h0: int
    last_two: int  # each of the last two tricks in h5
    below_plus3_limit: int  # top_below_plus3: annul while top < this ladder index

    @property
    def top_bid(self) -> int:
        """The highest bid: unrefusable (+8, or +5 with 32 cards)."""
        return self.ladder - 1

    def bid_value(self, bid: int) -> int:
        """Points a bid moves from buyer to auctioneer (R4.1)."""
        unit = self.minus_unit if bid_is_minus(bid) else self.plus_unit
        return unit * bid_number(bid)


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


DECK_VALUES: Final = {
    52: DeckValues(
        size=52,
        cards=_mask(DECK_52),
        tricks=13,
        ladder=10,
        plus_unit=25,
        minus_unit=75,
        positive_total=325,
        annul_auctioneer=100,
        annul_other=75,
        negative_totals=(-260, -260, -200, -240, -160, -180),
        per_trick_h0=-20,
        last_two=-90,
        below_plus3_limit=2,  # none, +1, +2
    ),
    32: DeckValues(
        size=32,
        cards=_mask(DECK_32),
        tricks=8,
        ladder=6,
        plus_unit=40,
        minus_unit=120,
        positive_total=320,
        annul_auctioneer=95,
        annul_other=75,
        negative_totals=(-320, -160, -200, -240, -160, -200),
        per_trick_h0=-40,
        last_two=-100,
        below_plus3_limit=1,  # R5.2: "below +2" (none or +1)
    ),
}

# R3.8 / §6 D22: when the auctioneer may annul.
ANNUL_TOP_BELOW_PLUS3: Final = "top_below_plus3"
ANNUL_FEWER_THAN_3_BIDS: Final = "fewer_than_3_bids"
ANNUL_TOP_AT_MOST_PLUS1: Final = "top_at_most_plus1"
ANNUL_CONDITIONS: Final = (ANNUL_TOP_BELOW_PLUS3, ANNUL_FEWER_THAN_3_BIDS, ANNUL_TOP_AT_MOST_PLUS1)


def annul_allowed(condition: str, values: DeckValues, top: int, bids_made: int) -> bool:
    """Whether the auction was poor enough to annul (at the decision step only)."""
    if condition == ANNUL_TOP_BELOW_PLUS3:
        return top < values.below_plus3_limit
    if condition == ANNUL_TOP_AT_MOST_PLUS1:
        return top < 1
    return bids_made < 3 and top != values.top_bid


# ------------------------------------------------------------------ card rules


def legal_cards(contract: str, hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played: ``led`` is the led suit, -1 when leading.

    R1.5 follow suit everywhere; R1.6/R1.9 heart lead in ``no_hearts``; R1.7 and R1.8 in
    ``no_king_of_hearts``; R2.5 trumping is never forced and a trump may always be led.
    """
    if led < 0:
        if contract == NO_HEARTS:
            return hand & ~HEARTS_MASK or hand
        if contract == NO_KING_OF_HEARTS:
            rest = hand & ~HEARTS_MASK
            if rest:
                return rest
            return hand & ~(1 << KING_OF_HEARTS) or hand
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    if contract == NO_KING_OF_HEARTS and hand >> KING_OF_HEARTS & 1:
        return 1 << KING_OF_HEARTS
    return hand


def illegal_card_rule(contract: str, hand: int, led: int, card: int) -> str:
    """The rule a card outside ``legal_cards`` breaks (``details["rule"]`` of the error)."""
    if led < 0:
        if contract == NO_KING_OF_HEARTS and card == KING_OF_HEARTS:
            return RULE_KING_OF_HEARTS_LEAD
        return RULE_HEART_LEAD
    if hand & SUIT_MASK[led]:
        return RULE_FOLLOW_SUIT
    return RULE_MUST_PLAY_KING_OF_HEARTS


def penalty_mask(contract: str) -> int:
    """The cards a negative hand charges for (0 for the per-trick hands)."""
    if contract == NO_HEARTS:
        return HEARTS_MASK
    if contract == NO_QUEENS:
        return QUEENS_MASK
    if contract == NO_KINGS_JACKS:
        return BOYS_MASK
    if contract == NO_KING_OF_HEARTS:
        return 1 << KING_OF_HEARTS
    return 0


PER_CARD: Final = {NO_HEARTS: -20, NO_QUEENS: -50, NO_KINGS_JACKS: -30, NO_KING_OF_HEARTS: -160}


def negative_trick_points(contract: str, values: DeckValues, trick: int, trick_no: int) -> int:
    """What the taker of a trick (mask ``trick``, 0-based ``trick_no``) scores in h0..h5."""
    if contract == NO_TRICKS:
        return values.per_trick_h0
    if contract == NO_LAST_TWO:
        return values.last_two if trick_no >= values.tricks - 2 else 0
    return PER_CARD[contract] * (trick & penalty_mask(contract)).bit_count()


def early_end_mask(contract: str, values: DeckValues) -> int:
    """R1.6: the hand ends once every card of this mask is taken (0: played to the end)."""
    return penalty_mask(contract) & values.cards


# ------------------------------------------------------------------ settlement (§4)


def base_scores(contract: str, tricks: Sequence[int], values: DeckValues) -> list[int]:
    """R2.7: 25 (40) per trick for a plus contract, 325 - 75 t (320 - 120 t) for minus."""
    if contract == MINUS:
        return [values.positive_total - values.minus_unit * t for t in tricks]
    return [values.plus_unit * t for t in tricks]


def settle_positive(
    auctioneer: int,
    contract: str | None,
    tricks: Sequence[int] | None,
    buyer: int | None = None,
    price: int = NO_BID,
    deck: int = 52,
) -> list[int]:
    """The four final scores F of a positive hand (R4.2).

    ``contract`` None means annulled (no tricks). ``buyer``/``price`` (a ladder index) are
    set when the right was sold (accepted, or an ultimatum taken); else the auctioneer played
    himself and nobody pays. The payment is always in full (R4.3).
    """
    values = DECK_VALUES[deck]
    if contract is None:
        return [
            values.annul_auctioneer if seat == auctioneer else values.annul_other
            for seat in range(4)
        ]
    if tricks is None or len(tricks) != 4 or sum(tricks) != values.tricks:
        raise ValueError(f"a played hand has {values.tricks} tricks, not {tricks!r}")
    scores = base_scores(contract, tricks, values)
    if buyer is not None:
        if buyer == auctioneer or price == NO_BID:
            raise ValueError("a sale has a buyer other than the auctioneer and a price")
        payment = values.bid_value(price)
        scores[buyer] -= payment
        scores[auctioneer] += payment
    return scores
