"""The seven contracts of King and how each one scores (RULES.md §1, seed 004 values).

| contract        | Turkish     | scoring                               | void in led suit      |
|-----------------|-------------|---------------------------------------|-----------------------|
| tricks          | El Almaz    | −50 per trick (−650 in all)           | free                  |
| hearts          | Kupa Almaz  | −30 per heart taken (−390)            | play a heart if any   |
| queens          | Kız Almaz   | −100 per queen taken (−400)           | play a queen if any   |
| boys            | Erkek Almaz | −60 per king or jack taken (−480)     | play a K or J if any  |
| last_two        | Son İki     | −180 for each of the last two (−360)  | free                  |
| king_of_hearts  | Rıfkı       | −320 for taking K♥                    | play K♥ if held       |
| trump           | Koz         | +50 per trick taken (+650)            | play a trump if any   |

Each contract is data: a per-trick value, a per-card value with the mask of the cards it
counts, a value for each of the last two tricks, and the mask of cards a void player must
discard. Scoring a trick is then one popcount, whatever the contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import BOYS_MASK, HEARTS_MASK, KING_OF_HEARTS, QUEENS_MASK
from .errors import BadInput

TRICKS: Final = 0
HEARTS: Final = 1
QUEENS: Final = 2
BOYS: Final = 3
LAST_TWO: Final = 4
KING_OF_HEARTS_CONTRACT: Final = 5
TRUMP: Final = 6

PENALTY_CONTRACTS: Final = (TRICKS, HEARTS, QUEENS, BOYS, LAST_TWO, KING_OF_HEARTS_CONTRACT)
ALL_CONTRACTS: Final = (*PENALTY_CONTRACTS, TRUMP)
NO_TRUMP: Final = -1


@dataclass(frozen=True, slots=True)
class ContractSpec:
    """How one contract scores and which cards a void player must shed."""

    id: int
    code: str  # stable API code
    turkish: str  # the name players know
    per_trick: int  # points for every trick taken
    per_card: int  # points for every card of card_mask taken
    card_mask: int  # the cards per_card counts (0: none)
    last_two: int  # points for each of tricks 12 and 13 (0: none)
    discard_mask: int  # a void player holding any of these must play one (0: free)
    total: int  # what every hand of this contract adds up to
    is_penalty: bool
    restrict_heart_lead: bool  # "no heart lead until hearts are broken"


CONTRACTS: Final[tuple[ContractSpec, ...]] = (
    ContractSpec(TRICKS, "tricks", "El Almaz", -50, 0, 0, 0, 0, -650, True, False),
    ContractSpec(HEARTS, "hearts", "Kupa Almaz", 0, -30, HEARTS_MASK, 0, HEARTS_MASK, -390, True,
                 True),
    ContractSpec(QUEENS, "queens", "Kız Almaz", 0, -100, QUEENS_MASK, 0, QUEENS_MASK, -400, True,
                 False),
    ContractSpec(BOYS, "boys", "Erkek Almaz", 0, -60, BOYS_MASK, 0, BOYS_MASK, -480, True, False),
    ContractSpec(LAST_TWO, "last_two", "Son İki", 0, 0, 0, -180, 0, -360, True, False),
    ContractSpec(KING_OF_HEARTS_CONTRACT, "king_of_hearts", "Rıfkı", 0, -320,
                 1 << KING_OF_HEARTS, 0, 1 << KING_OF_HEARTS, -320, True, True),
    # Koz: the discard mask depends on the trump suit; MatchState fills it in per hand.
    ContractSpec(TRUMP, "trump", "Koz", 50, 0, 0, 0, 0, 650, False, False),
)  # fmt: skip

_BY_CODE: Final = {spec.code: spec.id for spec in CONTRACTS}
CONTRACT_CODES: Final = tuple(spec.code for spec in CONTRACTS)  # by id, for hot formatting


def contract_code(contract: int) -> str:
    return CONTRACT_CODES[contract]


def parse_contract(code: str) -> int:
    """``"queens"`` -> ``QUEENS``; unknown codes raise ``BadInput("unknown_contract")``."""
    contract = _BY_CODE.get(code.strip().lower()) if isinstance(code, str) else None
    if contract is None:
        raise BadInput(
            "unknown_contract",
            f"{code!r} is not a contract (one of {', '.join(_BY_CODE)})",
        )
    return contract
