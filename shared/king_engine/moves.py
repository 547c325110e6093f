"""Moves as frozen value objects with a text form that parses back.

* ``PlayCard``: text is the card code, ``"QH"``.
* ``ChooseContract``: text is the contract code, ``"queens"``; Koz names its trump suit,
  ``"trump:S"``.
* ``Call``: a one-word answer in a ruleset's extra phases: ``"redeal"``, ``"keep"`` (the
  ``traditional`` redeal round and the Kupa request), ``"king"``, ``"pass"`` (its King
  announcement). Words are matched whole: ``"king"`` is not ``"king_of_hearts"``.

The fast path uses *actions*, plain ints: 0..51 play that card, 52..57 pick a penalty contract
(52 + contract id), 58..61 pick Koz with trump suit 0..3 (C, D, H, S), 62..65 the calls in the
order of ``CALL_WORDS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import format_card, format_suit, parse_card, parse_suit
from .contracts import NO_TRUMP, TRUMP, contract_code, parse_contract
from .errors import BadInput

CONTRACT_ACTION_BASE: Final = 52
TRUMP_ACTION_BASE: Final = CONTRACT_ACTION_BASE + TRUMP  # 58: Koz in clubs
CALL_ACTION_BASE: Final = TRUMP_ACTION_BASE + 4  # 62
CALL_WORDS: Final = ("redeal", "keep", "king", "pass")
NUM_ACTIONS: Final = CALL_ACTION_BASE + len(CALL_WORDS)


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: int

    def __str__(self) -> str:
        return format_card(self.card)

    @property
    def action(self) -> int:
        return self.card


@dataclass(frozen=True, slots=True)
class ChooseContract:
    contract: int
    trump: int = NO_TRUMP

    def __str__(self) -> str:
        if self.contract == TRUMP:
            return f"trump:{format_suit(self.trump)}"
        return contract_code(self.contract)

    @property
    def action(self) -> int:
        if self.contract == TRUMP:
            return TRUMP_ACTION_BASE + self.trump
        return CONTRACT_ACTION_BASE + self.contract


@dataclass(frozen=True, slots=True)
class Call:
    """A one-word move of a ruleset's extra phases (one of ``CALL_WORDS``)."""

    word: str

    def __post_init__(self) -> None:
        if self.word not in CALL_WORDS:
            raise BadInput("bad_move", f"{self.word!r} is not a call ({', '.join(CALL_WORDS)})")

    def __str__(self) -> str:
        return self.word

    @property
    def action(self) -> int:
        return CALL_ACTION_BASE + CALL_WORDS.index(self.word)


REDEAL: Final = Call("redeal")
KEEP: Final = Call("keep")
KING: Final = Call("king")
PASS: Final = Call("pass")

Move = PlayCard | ChooseContract | Call


def contract_move(code: str, trump: str | None = None) -> ChooseContract:
    """Build a contract choice from API fields; Koz needs a suit, penalties take none."""
    contract = parse_contract(code)
    if contract == TRUMP:
        if trump is None or trump == "":
            raise BadInput("trump_required", "Koz (trump) needs a trump suit: C, D, H or S")
        return ChooseContract(TRUMP, parse_suit(trump))
    if trump not in (None, ""):
        raise BadInput("trump_not_allowed", f"{code} is a penalty contract: it has no trump")
    return ChooseContract(contract)


def parse_move(text: str) -> Move:
    """Parse a move's text form: ``"QH"``, ``"queens"``, ``"trump:S"``, ``"redeal"``."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput("bad_move", f"{text!r} is not a move")
    body = text.strip()
    if body.lower() in CALL_WORDS:
        return Call(body.lower())
    if len(body) == 2 or (len(body) == 3 and body.startswith("10")):
        return PlayCard(parse_card(body))
    code, _, suit = body.partition(":")
    return contract_move(code, suit if _ else None)


def move_of_action(action: int) -> Move:
    if 0 <= action < CONTRACT_ACTION_BASE:
        return PlayCard(action)
    if CONTRACT_ACTION_BASE <= action < TRUMP_ACTION_BASE:
        return ChooseContract(action - CONTRACT_ACTION_BASE)
    if TRUMP_ACTION_BASE <= action < CALL_ACTION_BASE:
        return ChooseContract(TRUMP, action - TRUMP_ACTION_BASE)
    if CALL_ACTION_BASE <= action < NUM_ACTIONS:
        return Call(CALL_WORDS[action - CALL_ACTION_BASE])
    raise BadInput("bad_move", f"{action!r} is not an action id (0..{NUM_ACTIONS - 1})")
