"""The ``international`` ruleset object (RULES-international.md, FAMILY-PROTOCOL.md): what it
declares for ``GET /v1/rules``, its options, and the constructors of its state.

It has its own state class (``InternationalState``), so ``family`` names it and the base
class's contract-quota hooks are trivial: no hand here is picked against a quota.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..deal import opening_draw
from ..errors import BadInput
from ..rulesets import OptionSpec, Ruleset, Usage
from .moves import MOVE_WORDS, Move, move_of_action, parse_move
from .rules import (
    ALL_POSITIVE_CONTRACTS,
    ANNUL_CONDITIONS,
    ANNUL_TOP_BELOW_PLUS3,
    BID_TEXTS,
    DECK_VALUES,
    NEGATIVE_CONTRACTS,
    PER_CARD,
    PLUS_CONTRACTS,
)
from .state import PHASES, Dealer, InternationalState
from .stored import decode

RULESET_ID: Final = 4  # stable forever (FAMILY-PROTOCOL.md)


class InternationalRuleset(Ruleset):
    name = "international"
    id = RULESET_ID
    family = "international"
    description = (
        "Seed 003, the King of Portugal, Brazil and Russia: 10 hands, six negative hands in "
        "a fixed order, then four positive hands whose dealer auctions the right to name the "
        "contract (trumps, no-trump or the minus deal); 52 or 32 cards."
    )
    lengths = (10,)
    early_end = True
    first_declarer_rule = "the winner of the opening draw deals first; the deal passes left"
    deck_size = 52
    cards_per_seat = 13
    tricks_per_hand = 13
    phases = PHASES
    option_specs = (
        OptionSpec("deck", (52, 32), 52, "52 cards (13 tricks) or 32 cards 7..A (8 tricks)"),
        OptionSpec(
            "annul_condition",
            ANNUL_CONDITIONS,
            ANNUL_TOP_BELOW_PLUS3,
            "when the auctioneer may annul: top bid below +3 (below +2 with 32 cards), "
            "fewer than 3 bids, or top bid at most +1",
        ),
    )
    starting_total = 0
    match_end = "after hand 9; the highest total wins, ties share the win"
    outcome_labels = None
    phased = False

    def unavailable_reason(
        self, num_hands: int, declarer: int, usage: Usage, contract: int, trump: int
    ) -> str | None:
        return None  # no quotas: the hands' order is fixed and positive contracts are free

    def describe_quotas(self, num_hands: int) -> dict[str, object]:
        return {}

    def describe(self) -> dict[str, Any]:
        data = super().describe()
        data["family"] = self.family
        data["contracts"] = {
            "negative": list(NEGATIVE_CONTRACTS),
            "positive": list(ALL_POSITIVE_CONTRACTS),
            "plus": list(PLUS_CONTRACTS),
        }
        data["quotas"] = {}
        data["decks"] = {
            str(size): {
                "cards_per_seat": v.tricks,
                "tricks_per_hand": v.tricks,
                "negative_hand_totals": dict(
                    zip(NEGATIVE_CONTRACTS, v.negative_totals, strict=True)
                ),
                "per_card": dict(PER_CARD),
                "no_tricks_per_trick": v.per_trick_h0,
                "no_last_two_per_trick": v.last_two,
                "plus_per_trick": v.plus_unit,
                "minus_per_trick": v.minus_unit,
                "positive_hand_total": v.positive_total,
                "ladder": [{"bid": BID_TEXTS[b], "value": v.bid_value(b)} for b in range(v.ladder)],
                "unrefusable": BID_TEXTS[v.top_bid],
                "annul_scores": {"auctioneer": v.annul_auctioneer, "other": v.annul_other},
            }
            for size, v in DECK_VALUES.items()
        }
        return data

    def new_state(
        self,
        num_hands: int,
        match_key: bytes,
        options: Mapping[str, Any],
        dealer: Dealer,
    ) -> InternationalState:
        """A new match; the first dealer is the winner of the opening draw (R1.2)."""
        self.check_length(num_hands)
        if not isinstance(match_key, bytes) or len(match_key) != 32:
            raise BadInput("bad_seed", "the match key must be 32 bytes")
        return InternationalState.start(
            self, match_key, self.check_options(options), dealer, opening_draw(match_key).winner
        )

    def state_from_bytes(self, data: bytes) -> InternationalState:
        return decode(self, data)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def move_of_action(self, action: int) -> Move:
        return move_of_action(action)

    def move_words(self) -> list[str]:
        return list(MOVE_WORDS)


INTERNATIONAL: Final[InternationalRuleset] = InternationalRuleset()


def new_international_match_on_deals_for_tests(
    deals: Callable[[int], list[int]],
    options: Mapping[str, Any] | None = None,
    first: int = 0,
) -> InternationalState:
    """A match whose deal d is ``deals(d)`` (four card masks) and whose first dealer is
    ``first``: for tests that need given hands. It has no real match key (32 zero bytes),
    so its bytes do not load back."""
    return InternationalState.start(
        INTERNATIONAL,
        bytes(32),
        INTERNATIONAL.check_options(options),
        lambda _key, d, _deck: deals(d),
        first,
    )
