"""Card play, playouts and world sampling for ``international`` (RULES-international.md), on
card masks. Pure functions, no view parsing (``international.py`` does that):

* ``heuristic_card`` — the medium card of a seat. In the avoiding hands (the six negative
  hands and the minus deal) it ducks under the trick's winner and sheds what the hand
  penalises; in ``no_last_two`` it spends its high cards while the early tricks cost nothing.
  In the plus hands it cashes the top card of a suit, wins as cheaply as it can in last seat,
  ruffs low and otherwise throws its lowest card. Legality always comes from the engine's
  ``rules.legal_cards`` (R1.5-R1.8, R2.5), so the K♥ and heart-lead rules hold by construction.
* ``play_rest`` — the rest of a hand from any point (trick in progress included), every seat on
  ``heuristic_card``: the points each seat still scores. The bots value a contract by playing
  sampled deals out from the first lead, and the hard bot tries each legal card this way.
* ``sample_world`` — the other seats' hands, drawn at random from the cards this seat has not
  seen, in the numbers the view shows, and never giving a seat a suit it has shown void in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from king_engine.cards import CARD_SUIT, SUIT_MASK
from king_engine.international.rules import (
    MINUS,
    NEGATIVE_CONTRACTS,
    NO_LAST_TWO,
    DeckValues,
    early_end_mask,
    legal_cards,
    negative_trick_points,
    penalty_mask,
)
from king_engine.tricks import beats

from .core import cards as cards_of  # (the card ids of a mask, lowest first)

AVOIDING: Final = frozenset({*NEGATIVE_CONTRACTS, MINUS})
#: Per contract, the cards a seat sheds first when it cannot follow suit.
_PENALTY: Final = {contract: penalty_mask(contract) for contract in AVOIDING}
_RANK: Final = tuple(card % 13 for card in range(52))


def _highest(mask: int) -> int:
    """The highest-ranked card of ``mask`` (any suit; ties: the higher suit id)."""
    return max(cards_of(mask), key=lambda card: (_RANK[card], card))


def _lowest(mask: int) -> int:
    return min(cards_of(mask), key=lambda card: (_RANK[card], card))


def _beating(mask: int, best: int, trump: int) -> int:
    """The cards of ``mask`` that would take a trick ``best`` is winning."""
    out = 0
    for card in cards_of(mask):
        if beats(card, best, trump):
            out |= 1 << card
    return out


def heuristic_card(
    contract: str,
    trump: int,
    legal: int,
    trick: Sequence[int],
    gone: int,
    trick_no: int,
    tricks: int,
) -> int:
    """The heuristic card among ``legal`` (a mask) for a trick holding ``trick`` (cards in play
    order). ``gone`` is every card known to be out of play, ``trick_no`` the 0-based trick of a
    hand of ``tricks`` tricks."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if contract in AVOIDING:
        if contract == NO_LAST_TWO and trick_no < tricks - 3:
            return _highest(legal)  # the early tricks are free: spend the high cards
        return _avoid(contract, trump, legal, trick)
    return _win(trump, legal, trick, gone)


def _avoid(contract: str, trump: int, legal: int, trick: Sequence[int]) -> int:
    penalty = _PENALTY[contract]
    if not trick:
        return _lowest(legal & ~penalty or legal)
    best = trick[0]
    trick_mask = 1 << best
    for card in trick[1:]:
        trick_mask |= 1 << card
        if beats(card, best, trump):
            best = card
    led = CARD_SUIT[trick[0]]
    if legal & SUIT_MASK[led]:
        under = legal & ~_beating(legal, best, trump)
        if under:
            return _highest(under)  # the highest card that still loses
        # Every card takes the trick: take it with the highest that costs nothing.
        return _highest(legal & ~penalty or legal)
    return _highest(legal & penalty or legal)  # void: shed the penalised cards, then high ones


def _win(trump: int, legal: int, trick: Sequence[int], gone: int) -> int:
    trumps = SUIT_MASK[trump] if trump >= 0 else 0
    if not trick:
        # Cash a card that is the top of its suit among the cards still out.
        for card in sorted(cards_of(legal), key=lambda c: -_RANK[c]):
            suit = SUIT_MASK[CARD_SUIT[card]]
            out = suit & ~gone & ~legal
            if not out >> card:
                return card
        side = legal & ~trumps or legal
        longest = max(range(4), key=lambda s: (side & SUIT_MASK[s]).bit_count())
        return _lowest(side & SUIT_MASK[longest] or side)
    best = trick[0]
    for card in trick[1:]:
        if beats(card, best, trump):
            best = card
    winners = _beating(legal, best, trump)
    if winners:
        if len(trick) == 3 or (winners & trumps and not legal & SUIT_MASK[CARD_SUIT[trick[0]]]):
            return _lowest(winners)  # last seat, or a ruff: as cheaply as possible
        return _highest(winners)
    return _lowest(legal & ~trumps or legal)


def play_rest(
    contract: str,
    trump: int,
    values: DeckValues,
    hands: Sequence[int],
    trick: Sequence[tuple[int, int]],
    turn: int,
    trick_no: int,
    gone: int = 0,
    taken_penalty: int = 0,
) -> list[int]:
    """The points each seat scores from here to the end of the hand, every seat playing
    ``heuristic_card``: ``hands`` the four masks still held, ``trick`` the (seat, card) pairs
    of the trick in progress, ``turn`` the seat to play, ``gone`` the cards out of play and
    ``taken_penalty`` the penalty cards already taken (for the early end of R1.6).

    A plus trick scores ``plus_unit``, a minus trick ``-minus_unit`` (the 325 start is left to
    the caller), a negative hand's trick what ``negative_trick_points`` says."""
    hands = list(hands)
    points = [0, 0, 0, 0]
    positive = contract not in NEGATIVE_CONTRACTS
    per_trick = (-values.minus_unit if contract == MINUS else values.plus_unit) if positive else 0
    early = 0 if positive else early_end_mask(contract, values)
    taken = taken_penalty
    cards = [card for _, card in trick]
    seats = [seat for seat, _ in trick]
    seat = turn
    tricks = values.tricks
    while trick_no < tricks:
        while len(cards) < 4:
            hand = hands[seat]
            legal = legal_cards(contract, hand, CARD_SUIT[cards[0]] if cards else -1)
            card = heuristic_card(contract, trump, legal, cards, gone, trick_no, tricks)
            hands[seat] = hand ^ (1 << card)
            cards.append(card)
            seats.append(seat)
            seat = (seat + 1) & 3
        best = 0
        for index in range(1, 4):
            if beats(cards[index], cards[best], trump):
                best = index
        winner = seats[best]
        mask = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3])
        gone |= mask
        if positive:
            points[winner] += per_trick
        else:
            points[winner] += negative_trick_points(contract, values, mask, trick_no)
        trick_no += 1
        taken |= mask
        if early and taken & early == early:
            break
        cards = []
        seats = []
        seat = winner
    return points


def sample_world(
    me: int,
    pool: int,
    counts: Sequence[int],
    voids: Sequence[int],
    rng: random.Random,
    tries: int = 20,
) -> list[int]:
    """The hands of the three other seats (``me``'s entry is 0): ``counts[s]`` cards each,
    drawn from ``pool`` (the cards ``me`` has not seen; what is left over was played in tricks
    the view no longer shows). ``voids[s]`` is a mask of the suits seat ``s`` cannot hold
    (suit-mask union); when the voids cannot be met in ``tries`` draws they are ignored."""
    cards = cards_of(pool)
    others = [seat for seat in range(4) if seat != me]
    for attempt in range(tries + 1):
        rng.shuffle(cards)
        hands = [0, 0, 0, 0]
        room = [counts[seat] if seat != me else 0 for seat in range(4)]
        spare = len(cards) - sum(room)  # cards already played in the hidden tricks
        ok = True
        for card in cards:
            bit = 1 << card
            eligible = [s for s in others if room[s] and (attempt == tries or not voids[s] & bit)]
            weight = sum(room[s] for s in eligible) + spare
            if weight == 0:
                ok = False
                break
            pick = rng.randrange(weight)
            if pick < spare:
                spare -= 1
                continue
            pick -= spare
            for s in eligible:
                if pick < room[s]:
                    hands[s] |= bit
                    room[s] -= 1
                    break
                pick -= room[s]
        if ok:
            return hands
    raise AssertionError("unreachable: the last try ignores the voids")
