"""Card play, playouts and world sampling for ``konturlu`` (RULES-konturlu.md), on card masks.

Pure functions, no view parsing (``konturlu.py`` does that):

* ``trick_card`` — the heuristic card in a trick contract: in the six penalties it ducks under
  the trick's winner, sheds the cards the contract penalises when void (K♥ first in Rıfkı),
  and in Son iki it spends its high cards before tricks 12–13; in Koz it wins as cheaply as it
  can and keeps its high cards otherwise;
* ``durt_card`` — the heuristic Dürt card: keep the cards that would open runs for the others,
  play those that open runs for itself;
* ``play_out_tricks`` / ``play_out_durt`` — a hand played to its end from given hands, every
  seat on the heuristic: the medium and hard bots value contracts, calls and cards with it;
* ``sample_world`` — the unseen cards dealt at random to the other seats, consistent with the
  counts, the known voids and the penalty cards known to be still in play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from king_engine.cards import (
    BOYS_MASK,
    HEARTS_MASK,
    KING_OF_HEARTS,
    QUEENS_MASK,
    SUIT_MASK,
    card_of,
)
from king_engine.konturlu import playable_mask, settle, trick_legal_mask
from king_engine.konturlu.durt import Layout, place_card
from king_engine.konturlu.rules import (
    DURT,
    EL,
    ERKEK,
    KIZ,
    KOZ,
    KUPA,
    PENALTIES,
    RIFKI,
    SONIKI,
    TRICKS,
)
from king_engine.konturlu.settle import DURT_PLACE_POINTS

from .core import cards as cards_of  # (the card ids of a mask, lowest first)

KH_BIT: Final = 1 << KING_OF_HEARTS
#: The cards each contract penalises (shed first when void; their taking can end the hand).
PENALTY_MASK: Final = {EL: 0, KUPA: HEARTS_MASK, ERKEK: BOYS_MASK, KIZ: QUEENS_MASK, RIFKI: KH_BIT}
#: Contracts that end once their penalty cards are all taken (§2.6).
EARLY_END: Final = frozenset({KUPA, ERKEK, KIZ, RIFKI})
#: Penalty points per penalty card (the Σ of points tells how many were taken).
POINTS_PER_CARD: Final = {KUPA: 3, ERKEK: 6, KIZ: 10, RIFKI: 30}
#: Son iki: tricks from this index on are the penalised ones (12 and 13).
SONIKI_LAST: Final = TRICKS - 2
TRICK_POINTS_EL_KOZ: Final = 5
SONIKI_POINTS: Final = (10, 20)


def _rank(card: int) -> int:
    return card % 13


def _highest(mask: int) -> int:
    """The highest-ranked card of a non-empty ``mask`` (ties: the higher suit)."""
    return max(cards_of(mask), key=lambda c: (c % 13, c))


def _lowest(mask: int) -> int:
    return min(cards_of(mask), key=lambda c: (c % 13, c))


def winning_card(trick: Sequence[int], trump: int) -> int:
    """The card winning the (non-empty) trick so far."""
    best = trick[0]
    for card in trick[1:]:
        if card // 13 == best // 13:
            if card > best:
                best = card
        elif card // 13 == trump:
            best = card
    return best


def _beats(card: int, best: int, trump: int) -> bool:
    return card > best if card // 13 == best // 13 else card // 13 == trump


# ---------------------------------------------------------------------- trick play


def trick_card(
    contract: int, trump: int, hand: int, legal: int, trick: Sequence[int], trick_no: int, out: int
) -> int:
    """The heuristic card among ``legal`` (a mask of ``hand``) for a trick holding ``trick``
    (cards in play order); ``out`` the cards other seats may still hold."""
    if contract == KOZ:
        return _koz_card(trump, legal, trick, out)
    if contract == SONIKI and trick_no < SONIKI_LAST:
        return _spend_high(legal, trick)
    return _avoid_card(contract, hand, legal, trick)


def _spend_high(legal: int, trick: Sequence[int]) -> int:
    """Son iki before trick 12: tricks cost nothing yet, so get rid of the high cards (the
    low ones are what lose tricks 12 and 13)."""
    return _highest(legal)


def _avoid_card(contract: int, hand: int, legal: int, trick: Sequence[int]) -> int:
    penalty = PENALTY_MASK.get(contract, 0)
    if not trick:
        if contract == RIFKI and not hand & KH_BIT:
            # Without K♥, low hearts flush it out of the hand that holds it.
            hearts = legal & HEARTS_MASK & (KH_BIT - 1)
            if hearts:
                return _lowest(hearts)
        safe = legal & ~penalty
        pool = safe or legal
        # The lowest card, from the suit whose lowest card is lowest.
        return _lowest(pool)
    best = winning_card(trick, -1)
    led = trick[0] // 13
    following = legal & SUIT_MASK[led]
    if following:
        under = [c for c in cards_of(following) if not _beats(c, best, -1)]
        if under:
            losing_penalty = [c for c in under if penalty >> c & 1]
            if losing_penalty:
                return max(losing_penalty, key=_rank)  # a penalty card that loses the trick
            return max(under, key=_rank)  # the highest card that still loses
        # Every card wins: win with the highest non-penalty card (it would take a later
        # trick anyway), keeping the penalty cards out of my own trick.
        clean = following & ~penalty
        return _highest(clean or following)
    shed = legal & penalty
    if shed:
        return _highest(shed)
    return _highest_of_short(legal, hand)


def _highest_of_short(legal: int, hand: int) -> int:
    """Void in the led suit: the highest card, from the shorter suit on ties of rank."""
    return max(cards_of(legal), key=lambda c: (c % 13, -(hand & SUIT_MASK[c // 13]).bit_count(), c))


def _koz_card(trump: int, legal: int, trick: Sequence[int], out: int) -> int:
    trumps = SUIT_MASK[trump]
    if not trick:
        # A card that is the top of its suit among the cards still out wins: lead it
        # (trumps first when this seat holds the top trump, to draw the others' trumps).
        tops = [c for c in cards_of(legal) if not (out & SUIT_MASK[c // 13]) >> c]
        if tops:
            return max(tops, key=lambda c: (c // 13 == trump, c % 13))
        side = legal & ~trumps or legal
        longest = max(range(4), key=lambda s: ((side & SUIT_MASK[s]).bit_count(), s))
        return _lowest(side & SUIT_MASK[longest] or side)
    best = winning_card(trick, trump)
    winners = [c for c in cards_of(legal) if _beats(c, best, trump)]
    if winners:
        if len(trick) == 3:
            return min(winners, key=lambda c: (c // 13 == trump, c % 13))
        # Not last: the cheapest winner the cards still out cannot beat; a ruff (it is hard
        # to overruff); else keep the winners and play low.
        sure = [c for c in winners if not (out & SUIT_MASK[c // 13]) >> c]
        if sure:
            return min(sure, key=lambda c: (c // 13 == trump, c % 13))
        ruffs = [c for c in winners if c // 13 == trump and trick[0] // 13 != trump]
        if ruffs:
            return min(ruffs, key=_rank)
    non_trump = legal & ~trumps
    return _lowest(non_trump or legal)


@dataclass(slots=True)
class TrickPosition:
    """A trick contract's hand in progress: enough to play it out."""

    contract: int
    trump: int
    hands: list[int]
    trick: list[int] = field(default_factory=list)
    leader: int = 0
    trick_no: int = 0
    hearts_broken: bool = False
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


def _trick_points(contract: int, trick_mask: int, trick_no: int) -> int:
    if contract in (EL, KOZ):
        return TRICK_POINTS_EL_KOZ
    if contract == SONIKI:
        return SONIKI_POINTS[trick_no - SONIKI_LAST] if trick_no >= SONIKI_LAST else 0
    return POINTS_PER_CARD[contract] * (trick_mask & PENALTY_MASK[contract]).bit_count()


def play_out_tricks(pos: TrickPosition, first: int = -1) -> list[int]:
    """The points (P or G) per seat when ``pos`` is played out with ``trick_card`` for every
    seat; ``first`` (a card) is the mover's card instead of the heuristic's, if given.
    ``pos`` is not changed."""
    contract, trump = pos.contract, pos.trump
    hands = pos.hands[:]
    trick = pos.trick[:]
    points = pos.points[:]
    leader, trick_no = pos.leader, pos.trick_no
    earlier = HEARTS_MASK if pos.hearts_broken else 0
    penalty = PENALTY_MASK.get(contract, 0)
    early = contract in EARLY_END
    out = hands[0] | hands[1] | hands[2] | hands[3]
    while trick_no < TRICKS:
        if early and not (out | _mask(trick)) & penalty:
            break  # every penalty card is taken: nothing else scores (§2.6)
        seat = (leader + len(trick)) & 3
        while len(trick) < 4:
            hand = hands[seat]
            led = trick[0] // 13 if trick else -1
            legal = trick_legal_mask(contract, hand, led, earlier)
            if first >= 0:
                card, first = first, -1
            else:
                card = trick_card(contract, trump, hand, legal, trick, trick_no, out & ~hand)
            hands[seat] = hand ^ (1 << card)
            out ^= 1 << card
            trick.append(card)
            seat = (seat + 1) & 3
        best = winning_card(trick, trump if contract == KOZ else -1)
        winner = (leader + trick.index(best)) & 3
        mask = _mask(trick)
        points[winner] += _trick_points(contract, mask, trick_no)
        earlier |= mask
        trick = []
        leader = winner
        trick_no += 1
    return points


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# ---------------------------------------------------------------------- Dürt


def _opened(card: int, rank: int, layout: Layout) -> list[int]:
    """The cards that become playable once ``card`` is on ``layout``."""
    suit, r = card // 13, card % 13
    run = layout[suit]
    if run is None:
        ranks = [x for x in (rank - 1, rank + 1) if 0 <= x <= 12]
    elif r < run[0]:
        ranks = [r - 1] if r > 0 else []
    else:
        ranks = [r + 1] if r < 12 else []
    return [card_of(suit, x) for x in ranks]


def _beyond(card: int, rank: int, layout: Layout) -> int:
    """The cards of ``card``'s suit that lie past it, away from the run (they need it)."""
    suit, r = card // 13, card % 13
    run = layout[suit]
    base = suit * 13
    if run is None:  # the rank card opens both directions
        return SUIT_MASK[suit] & ~(1 << card)
    if r < run[0]:
        return ((1 << r) - 1) << base
    return SUIT_MASK[suit] & ~(((1 << (r + 1)) - 1) << base)


def durt_card(hand: int, rank: int, layout: Layout, playable: int) -> int:
    """The heuristic Dürt card among ``playable``: a card that opens cards this seat holds is
    good, one that opens cards of the others bad; a card with many of the others' cards
    behind it blocks them, so it is held while there is a choice."""
    best, best_score = -1, -1e9
    for card in cards_of(playable):
        score = 0.0
        for nxt in _opened(card, rank, layout):
            score += 2.0 if hand >> nxt & 1 else -1.0
        behind = _beyond(card, rank, layout)
        mine = (behind & hand).bit_count()
        theirs = (behind & ~hand).bit_count()
        score += 0.5 * mine - 0.25 * theirs
        if score > best_score or (score == best_score and card < best):
            best, best_score = card, score
    return best


@dataclass(slots=True)
class DurtPosition:
    """A Dürt in progress: the hands, the named rank, the layout, who moves, places so far."""

    rank: int
    hands: list[int]
    layout: Layout
    turn: int
    places: list[int] = field(default_factory=list)


def play_out_durt(pos: DurtPosition, first: int = -1) -> list[int]:
    """The place points (45/20/10/−10) per seat when ``pos`` is played out with
    ``durt_card`` for every seat (``first``: the mover's card, if given)."""
    hands = pos.hands[:]
    layout, rank, seat = pos.layout, pos.rank, pos.turn
    places = pos.places[:]
    guard = 0
    while len(places) < 3:
        guard += 1
        if guard > 400:  # unreachable (§4.5), a safety net for bad input
            break
        hand = hands[seat]
        if hand:
            playable = playable_mask(hand, rank, layout)
            if playable:
                if first >= 0:
                    card, first = first, -1
                else:
                    card = durt_card(hand, rank, layout, playable)
                hands[seat] = hand ^ (1 << card)
                layout = place_card(layout, card, rank)
                if not hands[seat]:
                    places.append(seat)
        seat = (seat + 1) & 3
    for s in range(4):
        if s not in places:
            places.append(s)
    gains = [0, 0, 0, 0]
    for place, s in enumerate(places[:4]):
        gains[s] = DURT_PLACE_POINTS[place]
    return gains


# ---------------------------------------------------------------------- worlds


def sample_world(
    me: int,
    mine: int,
    pool: int,
    counts: Sequence[int],
    rng: random.Random,
    voids: Sequence[int] = (0, 0, 0, 0),
    must_hold: int = 0,
    limited: int = 0,
    limited_count: int = -1,
) -> list[int]:
    """Four hands: ``mine`` for ``me``; for the others ``counts[s]`` cards from ``pool``.

    ``must_hold``: cards certainly still in the others' hands (e.g. hearts before they are
    broken). ``limited``/``limited_count``: exactly that many cards of ``limited`` are still
    held (e.g. the hearts not yet taken in Kupa). ``voids[s]``: a mask of suits (bit per suit)
    seat s is known to be void in; kept where the deal allows it.
    """
    need = sum(counts[s] for s in range(4) if s != me)
    held = must_hold & pool
    rest_pool = pool & ~held
    if limited_count >= 0:
        lim = cards_of(rest_pool & limited)
        rng.shuffle(lim)
        k = max(0, min(len(lim), limited_count - (held & limited).bit_count()))
        held |= _mask(lim[:k])
        rest_pool &= ~limited
    others = cards_of(rest_pool)
    rng.shuffle(others)
    missing = need - held.bit_count()
    if missing > 0:
        held |= _mask(others[:missing])
    cards = cards_of(held)
    rng.shuffle(cards)
    seats = [s for s in range(4) if s != me]
    for _attempt in range(4):
        hands = [0, 0, 0, 0]
        hands[me] = mine
        room = {s: counts[s] for s in seats}
        ok = True
        # The cards with the fewest possible seats go first.
        order = sorted(cards, key=lambda c: sum(1 for s in seats if not voids[s] >> (c // 13) & 1))
        for card in order:
            options = [s for s in seats if room[s] > 0 and not voids[s] >> (card // 13) & 1]
            if not options:
                options = [s for s in seats if room[s] > 0]
                ok = False
            if not options:
                break
            s = rng.choice(options)
            hands[s] |= 1 << card
            room[s] -= 1
        if ok:
            return hands
        rng.shuffle(cards)
    return hands


def settled_score(
    contract: int, points: Sequence[int], pairs: dict[tuple[int, int], int], seat: int
) -> int:
    """``seat``'s score of a hand with these points and pair multipliers (§5)."""
    if contract in (DURT, KOZ):
        return settle(points, pairs, penalty=False).scores[seat]
    return settle(points, pairs, penalty=contract in PENALTIES).scores[seat]


__all__ = [
    "PENALTY_MASK",
    "POINTS_PER_CARD",
    "DurtPosition",
    "TrickPosition",
    "cards_of",
    "durt_card",
    "play_out_durt",
    "play_out_tricks",
    "sample_world",
    "settled_score",
    "trick_card",
    "winning_card",
]
