"""Konturlu's moves: action ids, their text forms and parsing (§2.1, §3.3, §3.5).

Actions: 0..51 play that card; 52..58 ``el kupa erkek kiz rifki rifki:boz soniki``; 59..62
``koz:C``..``koz:S`` (59 + suit); 63..75 ``durt:2``..``durt:A`` (63 + rank); 76 ``iyi``;
77 + m ``kontur:<seats of mask m>``; 93 ``masa``; 94 ``haric``; 95 ``boz``; 96 + m
``sur:<seats of m>``; 112 ``pas``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..cards import CARD_CODES, RANK_CHARS, SUIT_CHARS, parse_card, parse_suit
from ..errors import BadInput
from ..moves import PlayCard
from . import challenge as ch
from .rules import EL, ERKEK, KIZ, KUPA, RIFKI, SONIKI

CONTRACT_BASE: Final = 52
A_RIFKI: Final = 56
A_RIFKI_BOZ: Final = 57
CONTRACT_WORDS: Final = ("el", "kupa", "erkek", "kiz", "rifki", "rifki:boz", "soniki")
CONTRACT_OF_WORD: Final = (EL, KUPA, ERKEK, KIZ, RIFKI, RIFKI, SONIKI)
KOZ_BASE: Final = 59
DURT_BASE: Final = 63
A_IYI: Final = 76
KONTUR_BASE: Final = 77
A_MASA: Final = 93
A_HARIC: Final = 94
A_BOZ: Final = 95
SUR_BASE: Final = 96
A_PAS: Final = 112
NUM_ACTIONS: Final = 113
KOZ_ORDER: Final = (3, 2, 1, 0)  # §2.1 lists koz:S koz:H koz:D koz:C


def _action_text(action: int) -> str:
    if action < CONTRACT_BASE:
        return CARD_CODES[action]
    if action < KOZ_BASE:
        return CONTRACT_WORDS[action - CONTRACT_BASE]
    if action < DURT_BASE:
        return f"koz:{SUIT_CHARS[action - KOZ_BASE]}"
    if action < A_IYI:
        return f"durt:{RANK_CHARS[action - DURT_BASE]}"
    if action == A_IYI:
        return "iyi"
    if action < A_MASA:
        return f"kontur:{ch.format_seats(action - KONTUR_BASE)}"
    if action < SUR_BASE:
        return ("masa", "haric", "boz")[action - A_MASA]
    if action < A_PAS:
        return f"sur:{ch.format_seats(action - SUR_BASE)}"
    return "pas"


def valid_action(action: object) -> bool:
    return (
        isinstance(action, int)
        and not isinstance(action, bool)
        and 0 <= action < NUM_ACTIONS
        and action not in (KONTUR_BASE, SUR_BASE)  # empty seat lists
    )


ACTION_TEXT: Final = tuple(_action_text(a) if valid_action(a) else "" for a in range(NUM_ACTIONS))
_WORD_ACTIONS: Final = {
    **{word: CONTRACT_BASE + i for i, word in enumerate(CONTRACT_WORDS)},
    "iyi": A_IYI,
    "masa": A_MASA,
    "haric": A_HARIC,
    "boz": A_BOZ,
    "pas": A_PAS,
}
MOVE_WORDS: Final = (*CONTRACT_WORDS, "koz:", "durt:", "iyi", "kontur:", "masa", "haric", "boz")
MOVE_WORDS_ALL: Final = (*MOVE_WORDS, "sur:", "pas")


@dataclass(frozen=True, slots=True)
class KonturluMove:
    """A non-card move of konturlu: a contract, a call or ``pas``. Text: ``ACTION_TEXT``."""

    action: int

    def __post_init__(self) -> None:
        if not valid_action(self.action) or self.action < CONTRACT_BASE:
            raise BadInput("bad_move", f"{self.action!r} is not a konturlu move action")

    def __str__(self) -> str:
        return ACTION_TEXT[self.action]


Move = PlayCard | KonturluMove


def move_of_action(action: int) -> Move:
    if not valid_action(action):
        raise BadInput("bad_move", f"{action!r} is not an action id (0..{NUM_ACTIONS - 1})")
    return PlayCard(action) if action < CONTRACT_BASE else KonturluMove(action)


def parse_move(text: str) -> Move:
    """A move's text form (§2.1, §3.3, §3.5): ``"7S"``, ``"koz:S"``, ``"durt:7"``,
    ``"kontur:2,0"`` (seats in any order), ``"sur:1,3"``, ``"masa"`` …; ``BadInput`` for junk.
    A ``kontur:`` list naming all others or both non-declarers is made canonical on apply."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput("bad_move", f"{text!r} is not a move")
    body = text.strip()
    low = body.lower()
    action = _WORD_ACTIONS.get(low)
    if action is not None:
        return KonturluMove(action)
    word, sep, arg = low.partition(":")
    if sep:
        if word == "koz":
            return KonturluMove(KOZ_BASE + parse_suit(arg))
        if word == "durt":
            rank = "t" if arg.strip() == "10" else arg.strip()
            if len(rank) != 1 or rank.upper() not in RANK_CHARS:
                raise BadInput("bad_move", f"{text!r}: a Dürt rank is one of 2..9 T J Q K A")
            return KonturluMove(DURT_BASE + RANK_CHARS.index(rank.upper()))
        if word == "kontur":
            return KonturluMove(KONTUR_BASE + ch.parse_seats(arg))
        if word == "sur":
            return KonturluMove(SUR_BASE + ch.parse_seats(arg))
        raise BadInput("bad_move", f"{text!r} is not a move")
    try:
        return PlayCard(parse_card(body))
    except BadInput:
        raise BadInput("bad_move", f"{text!r} is not a move") from None


def call_action(word: str, mask: int) -> int:
    if word == ch.IYI:
        return A_IYI
    if word == ch.MASA:
        return A_MASA
    if word == ch.HARIC:
        return A_HARIC
    if word == ch.SUR:
        return SUR_BASE + mask
    return KONTUR_BASE + mask


def call_of_action(action: int) -> tuple[str, int]:
    """(word, mask) of a call action (masa/haric masks are filled in by the challenge)."""
    if action == A_IYI:
        return ch.IYI, 0
    if action == A_MASA:
        return ch.MASA, 0
    if action == A_HARIC:
        return ch.HARIC, 0
    if action >= SUR_BASE:
        return ch.SUR, action - SUR_BASE
    return ch.KONTUR, action - KONTUR_BASE
