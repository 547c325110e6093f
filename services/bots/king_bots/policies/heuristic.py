"""Rule-based card play: the medium bot's heuristics (also the playout policy of the hard bot)
and the easy bot's simpler, noisier ones.

Everything here looks only at a ``Position``: the mover's own cards, the public cards and the
current trick. It never looks at another seat's cards, so it is fair both as a real policy and
inside a determinized simulation.
"""

from __future__ import annotations

import random

from king_engine.cards import SUIT_MASK
from king_engine.contracts import LAST_TWO, TRICKS, TRUMP

from .core import (
    ABOVE_MASK,
    LOW_MASK,
    PENALTY,
    PENALTY_MASK,
    PENALTY_UNIT,
    RANK,
    SUIT_OF,
    Position,
    cards,
    higher_in_suit,
    highest,
    lower_in_suit,
    lowest,
)

# Son İki: from this trick on, the bot avoids winning (tricks 11 and 12 cost 180 each; winning
# trick 10 means leading trick 11).
LAST_TWO_CAREFUL_FROM = 10


def medium_card(pos: Position) -> int:
    """The medium bot's card for a position (any legal card set with at least one card)."""
    legal = pos.legal
    if not legal & (legal - 1):
        return lowest(legal)
    if pos.contract == TRUMP:
        return _trump_card(pos)
    return _penalty_card(pos)


# --------------------------------------------------------------------------- penalty contracts


def _trick_cost(pos: Position) -> int:
    """What winning a trick costs by itself (before the penalty cards in it)."""
    if pos.contract == TRICKS:
        return 50
    if pos.contract == LAST_TWO:
        return 180 if pos.trick_no >= 11 else (60 if pos.trick_no == 10 else 0)
    return 0


def _penalty_card(pos: Position) -> int:
    contract, legal = pos.contract, pos.legal
    if contract == LAST_TWO and pos.trick_no < LAST_TWO_CAREFUL_FROM:
        return _shed_high(pos)
    if pos.trick_count == 0:
        return _penalty_lead(pos)
    led = pos.led
    follow = legal & SUIT_MASK[led]
    if follow:
        pen_mask = PENALTY_MASK[contract]
        below = follow & LOW_MASK[pos.best]
        if below:
            return highest(below)  # duck as high as possible
        # Every card of ours in the suit beats the trick so far.
        safe = follow & ~pen_mask
        unseen = pos.unseen
        if pos.trick_count == 3 or not higher_in_suit(unseen, lowest(follow)):
            # We take this trick whatever happens: get rid of our highest harmless card.
            return highest(safe) if safe else lowest(follow)
        return lowest(safe) if safe else lowest(follow)
    return _dump(pos)


def _danger(pos: Position, card: int, unseen: int) -> float:
    """How much we want to get rid of ``card`` (higher: shed it first)."""
    contract = pos.contract
    pen = PENALTY[contract]
    value = float(pen[card]) * 1.5
    in_suit = unseen & SUIT_MASK[SUIT_OF[card]]
    below = in_suit & LOW_MASK[card]
    lower = below.bit_count()
    higher = (in_suit & ABOVE_MASK[card]).bit_count()
    # A card that would win its suit's trick (few higher outstanding, many lower) is a liability.
    win_risk = lower / (lower + higher + 0.5) if lower else 0.0
    if higher == 0 and lower:
        win_risk = 1.0
    # Catching a penalty card below us in the same suit (every penalty card costs the same).
    catch = PENALTY_UNIT[contract] * (below & PENALTY_MASK[contract]).bit_count()
    base = _trick_cost(pos) or 40
    value += win_risk * (base + 0.6 * catch) + RANK[card] * 0.5
    return value


def _dump(pos: Position) -> int:
    unseen = pos.unseen
    hand = pos.hand
    best_card, best_value = -1, -1.0
    for card in cards(pos.legal):
        value = _danger(pos, card, unseen)
        # Prefer emptying short suits: a void lets us dump more later.
        value += (6 - (hand & SUIT_MASK[SUIT_OF[card]]).bit_count()) * 0.8
        if value > best_value:
            best_card, best_value = card, value
    return best_card


def _penalty_lead(pos: Position) -> int:
    contract = pos.contract
    pen = PENALTY[contract]
    pen_mask = PENALTY_MASK[contract]
    unit = PENALTY_UNIT[contract]
    unseen = pos.unseen
    hand = pos.hand
    base = _trick_cost(pos)
    avg_pen = float(unit) if unseen & pen_mask else 0.0  # every penalty card costs the same
    best_card, best_cost = -1, 1e18
    for card in cards(pos.legal):
        suit_mask = SUIT_MASK[SUIT_OF[card]]
        in_suit = unseen & suit_mask
        below = in_suit & LOW_MASK[card]
        higher = (in_suit & ABOVE_MASK[card]).bit_count()
        lower = below.bit_count()
        outstanding = higher + lower
        p_win = 1.0 if higher == 0 else (lower / outstanding) ** 2 * 0.7
        # If the suit is nearly gone, void players throw their penalty cards on the winner.
        voids = max(0, 3 - outstanding)
        caught = unit * (below & pen_mask).bit_count() * 0.6
        value = base + pen[card] + caught + voids * avg_pen * 0.7
        cost = p_win * value
        # Leading our own penalty card under higher outstanding cards passes it on (good),
        # but leading a suit where we hold a penalty card lets it come back to us later.
        if pen[card] and higher:
            cost -= 0.3 * pen[card]
        in_hand = hand & suit_mask
        held_pen = in_hand & pen_mask & ~(1 << card)
        if held_pen and not in_suit & ABOVE_MASK[held_pen.bit_length() - 1]:
            cost += 10
        cost += RANK[card] * 0.2 + in_hand.bit_count() * 0.3
        if cost < best_cost:
            best_card, best_cost = card, cost
    return best_card


def _shed_high(pos: Position) -> int:
    """Son İki before the end: winning is free, so throw the cards that could win late."""
    legal = pos.legal
    unseen = pos.unseen
    best_card, best_value = -1, -1.0
    for card in cards(legal):
        lower = lower_in_suit(unseen, card).bit_count()
        value = RANK[card] + lower * 0.5
        if value > best_value:
            best_card, best_value = card, value
    return best_card


# --------------------------------------------------------------------------- Koz


# Following with the master of a side suit: hold it back (play low) when a seat still to play
# is known to be out of the suit and holds a trump with at least this probability.
KOZ_RUFF_THREAT = 0.5


def _holds_trump(pos: Position, seat: int, out_trumps: int) -> float:
    """Rough probability that ``seat`` holds a trump (the unseen trumps spread evenly over the
    other seats not known to be out of trumps)."""
    trump, voids = pos.trump, pos.voids
    if not out_trumps or voids >> (4 * seat + trump) & 1:
        return 0.0
    candidates = sum(1 for s in range(4) if s != pos.seat and not voids >> (4 * s + trump) & 1)
    return 1.0 - ((candidates - 1) / candidates) ** out_trumps.bit_count()


def _ruff_threat(pos: Position, suit: int, out_trumps: int) -> bool:
    """A seat still to play in this trick is known to be out of ``suit`` and probably trumps."""
    if pos.seat < 0 or suit == pos.trump or not out_trumps:
        return False
    for k in range(1, 4 - pos.trick_count):
        seat = (pos.seat + k) & 3
        known_void = pos.voids >> (4 * seat + suit) & 1
        if known_void and _holds_trump(pos, seat, out_trumps) >= KOZ_RUFF_THREAT:
            return True
    return False


def _trump_card(pos: Position) -> int:
    legal, trump = pos.legal, pos.trump
    tmask = SUIT_MASK[trump]
    unseen = pos.unseen
    if pos.trick_count == 0:
        return _trump_lead(pos, tmask, unseen)
    led, best = pos.led, pos.best
    follow = legal & SUIT_MASK[led]
    if follow:
        if SUIT_OF[best] != led:  # someone has trumped a side suit: we cannot win
            return lowest(follow)
        over = follow & ~LOW_MASK[best] & ~(1 << best)
        if not over:
            return lowest(follow)
        if pos.trick_count == 3:
            return lowest(over)
        top = highest(follow)
        if not higher_in_suit(unseen, top):
            # Our top card is the master, but a player after us who is out of the suit would
            # have to trump it: keep it for later and play low.
            if _ruff_threat(pos, led, unseen & tmask):
                return lowest(follow)
            return top
        return lowest(follow)
    trumps = legal & tmask
    if trumps:
        if SUIT_OF[best] == trump:
            over = trumps & ~LOW_MASK[best] & ~(1 << best)
            return lowest(over) if over else lowest(trumps)
        return lowest(trumps)
    # Void and no trump: throw the lowest card, from a short suit when ranks tie; never a side
    # master (with no trump left it is one of our few sure tricks).
    best_card, best_value = -1, 1e9
    for card in cards(legal):
        value = RANK[card] * 2 + (pos.hand & SUIT_MASK[SUIT_OF[card]]).bit_count() * 0.5
        if not higher_in_suit(unseen, card):
            value += 100
        if value < best_value:
            best_card, best_value = card, value
    return best_card


def _trump_lead(pos: Position, tmask: int, unseen: int) -> int:
    legal = pos.legal
    my_trumps = legal & tmask
    out_trumps = unseen & tmask
    if my_trumps and out_trumps and highest(my_trumps) > highest(out_trumps):
        return highest(my_trumps)  # draw trumps with a master
    if not out_trumps:
        # Nobody can trump any more: cash side-suit masters, the longest outstanding suit first,
        # then our trumps (all masters now).
        best_card, best_value = -1, -1
        for card in cards(legal & ~tmask):
            if higher_in_suit(unseen, card):
                continue
            outstanding = (unseen & SUIT_MASK[SUIT_OF[card]]).bit_count()
            if outstanding > best_value:
                best_card, best_value = card, outstanding
        if best_card >= 0:
            return best_card
        if my_trumps:
            return highest(my_trumps)
    # While trumps are out, side-suit masters are kept (they still win when someone else leads
    # the suit, and leading them only hands us the lead again); lead low instead: from the
    # shortest side suit when we hold trumps (to ruff it later), else simply our lowest card.
    side = legal & ~tmask
    if side:
        short_weight = 3.0 if my_trumps else 0.0
        low_card, low_value = -1, 1e9
        for card in cards(side):
            length = (pos.hand & SUIT_MASK[SUIT_OF[card]]).bit_count()
            value = length * short_weight + RANK[card] * 0.5
            if value < low_value:
                low_card, low_value = card, value
        return low_card
    return lowest(legal)


# --------------------------------------------------------------------------- easy


def easy_card(pos: Position, rng: random.Random, noise: float = 0.3) -> int:
    """A plausible card with plenty of mistakes: a crude rule, or a random legal card."""
    legal = pos.legal
    options = cards(legal)
    if len(options) == 1:
        return options[0]
    if rng.random() < noise:
        return rng.choice(options)
    if pos.contract == TRUMP:
        if pos.trick_count == 0:
            return highest(legal) if RANK[highest(legal)] >= 10 else lowest(legal)
        beat = [c for c in options if SUIT_OF[c] == SUIT_OF[pos.best] and c > pos.best]
        return beat[-1] if beat else min(options, key=RANK.__getitem__)
    # Penalties: low when leading or following, the most expensive card when void.
    if pos.trick_count and not legal & SUIT_MASK[pos.led]:
        pen = PENALTY[pos.contract]
        return max(options, key=lambda c: (pen[c], RANK[c]))
    return min(options, key=RANK.__getitem__)
