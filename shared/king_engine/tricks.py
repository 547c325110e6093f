"""Who takes a trick, and what it scores: the one definition every path uses.

A card takes the lead of a trick from the card winning it so far when it is a higher card of
that card's suit, or a trump played over a card of another suit (no suit outranks another
except the hand's trump; penalty contracts have none, ``NO_TRUMP``). The first card of a trick
wins it until beaten. The winner scores ``HandRules.trick_points``.

These are *unchecked* primitives: they trust that the cards are a legal trick.
``MatchState.play_card``, the state decoder's replay and the bots' exact search call them;
``simulate.play_random_hand`` keeps one unrolled copy of ``beats`` in its loop (the random
playout is the engine's hottest code), and ``tests/engine/test_fast_paths.py`` checks it gives
what these give on random tricks of every ruleset and contract.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_SUIT
from .rulesets import HandRules


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card``, played to a trick that ``best`` is winning so far, takes it over."""
    suit = CARD_SUIT[card]
    return card > best if suit == CARD_SUIT[best] else suit == trump


def trick_winner(cards: Sequence[int], leader: int, trump: int) -> int:
    """The seat that takes the trick whose ``cards`` were played in order from ``leader``."""
    best, best_seat = cards[0], leader
    for offset in range(1, len(cards)):
        card = cards[offset]
        if beats(card, best, trump):
            best, best_seat = card, (leader + offset) & 3
    return best_seat


def resolve_trick(
    rules: HandRules, cards: Sequence[int], leader: int, trick_no: int
) -> tuple[int, int]:
    """``(winner, points)`` of the complete trick ``cards`` (in play order from ``leader``),
    the ``trick_no``-th of its hand (0-based), under the hand's ``rules``."""
    trick = 0
    for card in cards:
        trick |= 1 << card
    return trick_winner(cards, leader, rules.trump), rules.trick_points(trick, trick_no)


__all__ = ["beats", "resolve_trick", "trick_winner"]
