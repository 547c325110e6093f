"""Card play and hand valuation for ``international`` (RULES-international.md), on card masks.

Pure functions, no view parsing (``international.py`` does that):

* ``choose_card`` — the heuristic card of a seat: in the avoiding hands (the six negative
  hands and the minus deal) it ducks under the trick's winner and sheds what the hand
  penalises; in the plus hands it wins as cheaply as it can and saves its high cards otherwise;
* ``play_out`` — a whole positive hand from given hands, every seat on ``choose_card``: the
  medium and hard bots value a contract (and the right to name it) by playing sampled deals
  out with it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from king_engine.cards import CARD_SUIT, HEARTS, KING_OF_HEARTS, SUIT_MASK, rank_of
from king_engine.tricks import beats

#: What each avoiding hand penalises, as "shed these first when void" masks.
_QUEENS: Final = sum(1 << (s * 13 + 10) for s in range(4))
_KINGS_JACKS: Final = sum(1 << (s * 13 + r) for s in range(4) for r in (9, 11))
PENALTY_CARDS: Final = {
    "no_hearts": SUIT_MASK[HEARTS],
    "no_queens": _QUEENS,
    "no_kings_jacks": _KINGS_JACKS,
    "no_king_of_hearts": 1 << KING_OF_HEARTS,
}
AVOIDING: Final = frozenset(
    {
        "no_tricks",
        "no_hearts",
        "no_queens",
        "no_kings_jacks",
        "no_king_of_hearts",
        "no_last_two",
        "minus",
    }
)


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _highest(mask: int) -> int:
    """The highest-ranked card of ``mask`` (any suit)."""
    return max(cards_of(mask), key=lambda card: (rank_of(card), card))


def _lowest(mask: int) -> int:
    return min(cards_of(mask), key=lambda card: (rank_of(card), card))


def winning(trick: Sequence[int], trump: int) -> int:
    """The card winning the (non-empty) trick so far."""
    best = trick[0]
    for card in trick[1:]:
        if beats(card, best, trump):
            best = card
    return best


def choose_card(
    legal: int, trick: Sequence[int], contract: str, trump: int, played: int = 0
) -> int:
    """The heuristic card among ``legal`` (a mask) for a trick holding ``trick`` (cards in play
    order), under ``contract`` (``trump`` its suit or -1); ``played`` is every card out of play
    (completed tricks), which tells which high cards are already gone."""
    if contract in AVOIDING:
        return _avoid(legal, trick, contract, trump)
    return _win(legal, trick, trump, played)


def _avoid(legal: int, trick: Sequence[int], contract: str, trump: int) -> int:
    penalty = PENALTY_CARDS.get(contract, 0)
    if not trick:
        # Lead the lowest card, from outside the penalised cards where possible.
        safe = legal & ~penalty
        return _lowest(safe or legal)
    best = winning(trick, trump)
    led = CARD_SUIT[trick[0]]
    following = legal & SUIT_MASK[led]
    if following:
        under = [card for card in cards_of(following) if not beats(card, best, trump)]
        if under:
            return max(under, key=rank_of)  # the highest card that still loses
        # Must take it: with the highest (it would take a later trick anyway), unless it is
        # the last card to the trick and the trick is clean.
        return _highest(following)
    # Void: shed the penalised cards first, then the highest card.
    shed = legal & penalty
    return _highest(shed or legal)


def _win(legal: int, trick: Sequence[int], trump: int, played: int) -> int:
    trumps = SUIT_MASK[trump] if trump >= 0 else 0
    if not trick:
        # Lead a card that is the top of its suit still out; else the lowest of the longest
        # non-trump suit.
        for card in sorted(cards_of(legal), key=rank_of, reverse=True):
            suit = CARD_SUIT[card]
            higher_out = SUIT_MASK[suit] & ~played & ~(1 << card) & ~legal
            if not higher_out >> card:
                return card
        side = legal & ~trumps or legal
        longest = max(range(4), key=lambda s: (side & SUIT_MASK[s]).bit_count())
        return _lowest(side & SUIT_MASK[longest] or side)
    best = winning(trick, trump)
    winners = [card for card in cards_of(legal) if beats(card, best, trump)]
    if winners:
        if len(trick) == 3:
            return min(winners, key=lambda card: (CARD_SUIT[card] == trump, rank_of(card)))
        return max(winners, key=lambda card: (CARD_SUIT[card] != trump, rank_of(card)))
    non_trump = legal & ~trumps
    return _lowest(non_trump or legal)


def play_out(
    hands: Sequence[int], leader: int, contract: str, trump: int, tricks: int
) -> list[int]:
    """The tricks each seat takes when the positive hand ``hands`` (four masks) is played out
    from ``leader`` with ``choose_card`` for every seat (follow suit, else any card: R1.5,
    R2.5)."""
    hands = list(hands)
    taken = [0, 0, 0, 0]
    played = 0
    for _ in range(tricks):
        trick: list[int] = []
        seat = leader
        for _position in range(4):
            hand = hands[seat]
            legal = hand & SUIT_MASK[CARD_SUIT[trick[0]]] if trick else hand
            card = choose_card(legal or hand, trick, contract, trump, played)
            hands[seat] ^= 1 << card
            trick.append(card)
            seat = (seat + 1) & 3
        best = winning(trick, trump)
        winner = (leader + trick.index(best)) & 3
        taken[winner] += 1
        for card in trick:
            played |= 1 << card
        leader = winner
    return taken


def sample_hands(
    me: int, mine: int, unseen: int, sizes: Sequence[int], rng: random.Random
) -> list[int]:
    """Four hands: ``mine`` for seat ``me``, the ``unseen`` cards dealt at random to the others
    in the numbers ``sizes`` gives (by seat)."""
    cards = cards_of(unseen)
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    hands[me] = mine
    position = 0
    for seat in range(4):
        if seat == me:
            continue
        for card in cards[position : position + sizes[seat]]:
            hands[seat] |= 1 << card
        position += sizes[seat]
    return hands
