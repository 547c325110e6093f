"""The ``konturlu`` ruleset object: what it declares for ``GET /v1/rules`` and the
constructors of its state (``KonturluState``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..cards import RANK_CHARS
from ..deal import opening_draw
from ..errors import BadInput
from ..rulesets import OptionSpec, Ruleset
from .moves import MOVE_WORDS_ALL, Move, move_of_action, parse_move
from .rules import (
    CONTRACT_CODES,
    CONTRACT_NAMES,
    DURT,
    HAND_TOTALS,
    KOZ,
    NUM_HANDS,
    PENALTIES,
    POINTS_LAST_TWO,
    POINTS_PER_BOY,
    POINTS_PER_HEART,
    POINTS_PER_QUEEN,
    POINTS_PER_TRICK,
    POINTS_RIFKI,
    RIFKI,
    STARTING_TOTAL,
)
from .state import PHASE_NAMES, Dealer, KonturluState
from .stored import decode


class KonturluRuleset(Ruleset):
    """Konturlu King (seed 000): its own state class (``family``), see RULES-konturlu.md."""

    name = "konturlu"
    id = 3
    family = "konturlu"
    description = (
        "Konturlu King (seed 000): 32 hands; each player declares each of the six penalties, "
        "Koz and Dürt once; a kontur (×1) or sür kontur (×2) between two seats moves their "
        "point difference, and the one with more penalty eats the other's; +122 start; "
        "çıkar / batar."
    )
    lengths = (NUM_HANDS,)
    early_end = True
    first_declarer_rule = "the opening draw (FAIRNESS.md), then the next seat each hand"
    deck_size = 52
    cards_per_seat = 13
    tricks_per_hand = 13
    phases = PHASE_NAMES
    option_specs: tuple[OptionSpec, ...] = ()
    starting_total = STARTING_TOTAL
    match_end = "after 32 hands: every seat has declared each of its eight contracts once"
    outcome_labels = ("cikar", "batar")
    phased = False

    def unavailable_reason(
        self, num_hands: int, declarer: int, usage: Any, contract: int, trump: int
    ) -> str | None:
        # The shared Usage-based quota path is not used: KonturluState keeps its own.
        return None

    def describe_quotas(self, num_hands: int) -> dict[str, object]:
        return {"per_player": {"each_contract": 1, "picks": 8}}

    def describe(self) -> dict[str, Any]:
        data = super().describe()
        data["family"] = self.family
        data["contracts"] = [
            {
                "code": CONTRACT_CODES[c],
                "turkish": CONTRACT_NAMES[c],
                "penalty": c in PENALTIES,
                "hand_total": HAND_TOTALS[c],
                "moves": (
                    [f"koz:{s}" for s in "SHDC"]
                    if c == KOZ
                    else [f"durt:{r}" for r in RANK_CHARS]
                    if c == DURT
                    else [CONTRACT_CODES[c]] + (["rifki:boz"] if c == RIFKI else [])
                ),
            }
            for c in range(8)
        ]
        data["values"] = {
            "el": {"per_trick": -POINTS_PER_TRICK},
            "kupa": {"per_heart": -POINTS_PER_HEART},
            "erkek": {"per_king_or_jack": -POINTS_PER_BOY},
            "kiz": {"per_queen": -POINTS_PER_QUEEN},
            "rifki": {"king_of_hearts": -POINTS_RIFKI},
            "soniki": {"trick_12": -POINTS_LAST_TWO[0], "trick_13": -POINTS_LAST_TWO[1]},
            "koz": {"per_trick": POINTS_PER_TRICK},
            "durt": {"places": [45, 20, 10, -10]},
        }
        data["challenge"] = {
            "round_1": ["iyi", "kontur:<seats>", "masa", "haric", "boz"],
            "round_2": ["iyi", "sur:<seats>"],
            "multipliers": {"kontur": 1, "sur": 2},
        }
        return data

    def new_state(
        self,
        num_hands: int,
        match_key: bytes,
        options: Mapping[str, Any] | None,
        dealer: Dealer,
    ) -> KonturluState:
        self.check_length(num_hands)
        checked = self.check_options(options)
        if not isinstance(match_key, bytes) or len(match_key) != 32:
            raise BadInput("bad_seed", "the match key must be 32 bytes")
        draw = opening_draw(match_key)
        return KonturluState._new(self, match_key, checked, dealer, draw.winner, draw.to_dict())

    def state_from_bytes(self, data: bytes) -> KonturluState:
        """The inverse of ``KonturluState.to_bytes`` (``stored.decode``)."""
        return decode(self, data)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def move_of_action(self, action: int) -> Move:
        return move_of_action(action)

    def move_words(self) -> list[str]:
        """Every non-card move text form or prefix (for the API's move pattern)."""
        return list(MOVE_WORDS_ALL)


KONTURLU: Final[KonturluRuleset] = KonturluRuleset()


def new_konturlu_match_on_deals_for_tests(
    deals: Callable[[int], list[int]],
    options: Mapping[str, Any] | None = None,
    first: int = 0,
) -> KonturluState:
    """A match whose deal number n is ``deals(n)`` (four 13-card masks) and whose first
    declarer is ``first``: for tests that need given hands. Not serialisable."""
    checked = KONTURLU.check_options(options)
    return KonturluState._new(
        KONTURLU, bytes(32), checked, lambda _key, n, _deck: deals(n), first, None
    )
