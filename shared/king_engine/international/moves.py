"""The moves of ``international`` and their text forms (RULES-international.md §3, R3.10).

* card plays: ``PlayCard`` of the engine, text the card code (``"KH"``), actions 0..51;
* ``Bid``: ``bid:+3``, ``bid:-1``; actions 52..61 (ladder order, ``rules.BID_TEXTS``);
* ``Word``: ``pass``, ``accept``, ``refuse``, ``annul``, ``take``, ``decline``; 62..67;
* ``Ultimatum``: ``ultimatum:+8``; 68..77 (ladder order);
* ``NameContract``: ``contract:trump:S`` ... ``contract:notrump``, ``contract:minus``; 78..83
  (trumps in suit id order C, D, H, S, then notrump, minus).

A move that does not exist in any deck (``bid:+9``, ``bid:-3``, ``bid:+0``) fails to parse
(``bad_move``); one that exists but not on the 32-card ladder parses and is refused on apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..cards import SUIT_CHARS, parse_card
from ..errors import BadInput
from ..moves import PlayCard
from .rules import ALL_POSITIVE_CONTRACTS, BID_TEXTS, MINUS, NOTRUMP

BID_ACTION_BASE: Final = 52
WORDS: Final = ("pass", "accept", "refuse", "annul", "take", "decline")
WORD_ACTION_BASE: Final = BID_ACTION_BASE + len(BID_TEXTS)  # 62
ULTIMATUM_ACTION_BASE: Final = WORD_ACTION_BASE + len(WORDS)  # 68
CONTRACT_ACTION_BASE: Final = ULTIMATUM_ACTION_BASE + len(BID_TEXTS)  # 78
# Contract action order: trump C, D, H, S (suit ids), notrump, minus.
CONTRACT_BY_OFFSET: Final = (*tuple(f"trump:{s}" for s in SUIT_CHARS), NOTRUMP, MINUS)
NUM_ACTIONS: Final = CONTRACT_ACTION_BASE + len(CONTRACT_BY_OFFSET)  # 84
MOVE_WORDS: Final = (
    "bid:",
    *WORDS,
    "ultimatum:",
    "contract:trump:",
    "contract:notrump",
    "contract:minus",
)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid on the ladder: ``bid`` is its ladder index (0 = +1 ... 9 = +8)."""

    bid: int

    def __str__(self) -> str:
        return "bid:" + BID_TEXTS[self.bid]

    @property
    def action(self) -> int:
        return BID_ACTION_BASE + self.bid


@dataclass(frozen=True, slots=True)
class Word:
    """A one-word move: pass (bidding), accept/refuse/annul (decision), take/decline."""

    word: str

    def __str__(self) -> str:
        return self.word

    @property
    def action(self) -> int:
        return WORD_ACTION_BASE + WORDS.index(self.word)


@dataclass(frozen=True, slots=True)
class Ultimatum:
    """The auctioneer's final demand, a ladder index like ``Bid``."""

    bid: int

    def __str__(self) -> str:
        return "ultimatum:" + BID_TEXTS[self.bid]

    @property
    def action(self) -> int:
        return ULTIMATUM_ACTION_BASE + self.bid


@dataclass(frozen=True, slots=True)
class NameContract:
    """The declarer names the positive hand's contract: ``trump:S``, ``notrump``, ``minus``."""

    contract: str

    def __str__(self) -> str:
        return "contract:" + self.contract

    @property
    def action(self) -> int:
        return CONTRACT_ACTION_BASE + CONTRACT_BY_OFFSET.index(self.contract)


Move = PlayCard | Bid | Word | Ultimatum | NameContract

PASS: Final = Word("pass")
ACCEPT: Final = Word("accept")
REFUSE: Final = Word("refuse")
ANNUL: Final = Word("annul")
TAKE: Final = Word("take")
DECLINE: Final = Word("decline")


def parse_move(text: str) -> Move:
    """A move's text form back to the move; ``BadInput("bad_move")`` for anything else."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput("bad_move", f"{text!r} is not a move")
    body = text.strip()
    lower = body.lower()
    if lower in WORDS:
        return Word(lower)
    for prefix, kind in (("bid:", Bid), ("ultimatum:", Ultimatum)):
        if lower.startswith(prefix):
            amount = body[len(prefix) :]
            if amount not in BID_TEXTS:
                raise BadInput(
                    "bad_move",
                    f"{body!r}: a bid is one of {', '.join(BID_TEXTS)} (no +9, -3 or +0)",
                )
            return kind(BID_TEXTS.index(amount))
    if lower.startswith("contract:"):
        name = lower[len("contract:") :]
        if name.startswith("trump:"):
            name = "trump:" + name[6:].upper()
        if name not in ALL_POSITIVE_CONTRACTS:
            raise BadInput(
                "bad_move",
                f"{body!r}: a contract is trump:S|H|D|C, notrump or minus",
            )
        return NameContract(name)
    if len(body) == 2 or (len(body) == 3 and body.startswith("10")):
        try:
            return PlayCard(parse_card(body))
        except BadInput as exc:
            raise BadInput("bad_move", f"{body!r} is not a move ({exc.message})") from exc
    raise BadInput("bad_move", f"{body!r} is not a move")


def move_of_action(action: int) -> Move:
    """The move of an action id (0..83); ``BadInput("bad_move")`` for any other int."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise BadInput("bad_move", f"{action!r} is not an action id (0..{NUM_ACTIONS - 1})")
    if action < BID_ACTION_BASE:
        return PlayCard(action)
    if action < WORD_ACTION_BASE:
        return Bid(action - BID_ACTION_BASE)
    if action < ULTIMATUM_ACTION_BASE:
        return Word(WORDS[action - WORD_ACTION_BASE])
    if action < CONTRACT_ACTION_BASE:
        return Ultimatum(action - ULTIMATUM_ACTION_BASE)
    return NameContract(CONTRACT_BY_OFFSET[action - CONTRACT_ACTION_BASE])
