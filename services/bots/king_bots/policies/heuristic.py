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
    LOW_MASK,
    PENALTY,
    PENALTY_MASK,
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
    if pos.count == 0:
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
        if pos.count == 3 or not higher_in_suit(unseen, lowest(follow)):
            # We take this trick whatever happens: get rid of our highest harmless card.
            return highest(safe) if safe else lowest(follow)
        return lowest(safe) if safe else lowest(follow)
    return _dump(pos)


def _danger(pos: Position, card: int, unseen: int) -> float:
    """How much we want to get rid of ``card`` (higher: shed it first)."""
    contract = pos.contract
    pen = PENALTY[contract]
    value = float(pen[card]) * 1.5
    lower = lower_in_suit(unseen, card).bit_count()
    higher = higher_in_suit(unseen, card).bit_count()
    # A card that would win its suit's trick (few higher outstanding, many lower) is a liability.
    win_risk = lower / (lower + higher + 0.5) if lower else 0.0
    if higher == 0 and lower:
        win_risk = 1.0
    # Catching a penalty card below us in the same suit.
    catch = sum(pen[c] for c in cards(lower_in_suit(unseen, card) & PENALTY_MASK[contract]))
    base = _trick_cost(pos) or 40
    value += win_risk * (base + 0.6 * catch) + RANK[card] * 0.5
    return value


def _dump(pos: Position) -> int:
    unseen = pos.unseen
    best_card, best_value = -1, -1.0
    for card in cards(pos.legal):
        value = _danger(pos, card, unseen)
        # Prefer emptying short suits: a void lets us dump more later.
        value += (6 - (pos.hand & SUIT_MASK[SUIT_OF[card]]).bit_count()) * 0.8
        if value > best_value:
            best_card, best_value = card, value
    return best_card


def _penalty_lead(pos: Position) -> int:
    contract = pos.contract
    pen = PENALTY[contract]
    pen_mask = PENALTY_MASK[contract]
    unseen = pos.unseen
    base = _trick_cost(pos)
    unseen_pen = unseen & pen_mask
    avg_pen = sum(pen[c] for c in cards(unseen_pen)) / unseen_pen.bit_count() if unseen_pen else 0.0
    best_card, best_cost = -1, 1e18
    for card in cards(pos.legal):
        suit = SUIT_OF[card]
        in_suit = unseen & SUIT_MASK[suit]
        higher = higher_in_suit(unseen, card).bit_count()
        lower = lower_in_suit(unseen, card).bit_count()
        outstanding = higher + lower
        p_win = 1.0 if higher == 0 else (lower / outstanding) ** 2 * 0.7
        # If the suit is nearly gone, void players throw their penalty cards on the winner.
        voids = max(0, 3 - outstanding)
        caught = sum(pen[c] for c in cards(lower_in_suit(in_suit, card) & pen_mask)) * 0.6
        value = base + pen[card] + caught + voids * avg_pen * 0.7
        cost = p_win * value
        # Leading our own penalty card under higher outstanding cards passes it on (good),
        # but leading a suit where we hold a penalty card lets it come back to us later.
        if pen[card] and higher:
            cost -= 0.3 * pen[card]
        held_pen = pos.hand & SUIT_MASK[suit] & pen_mask & ~(1 << card)
        if held_pen and not higher_in_suit(unseen, highest(held_pen)):
            cost += 10
        cost += RANK[card] * 0.2 + (pos.hand & SUIT_MASK[suit]).bit_count() * 0.3
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


KOZ = {
    "cash_risk": 0.65,  # cash a side master when the estimated ruff risk is below this
    "known_ruff": True,  # use known voids for ruff threats
    "long_trump_lead": 99,  # lead a trump without the master when holding this many more
    "keep_masters": True,  # void without trumps: keep side masters
    "lead_short_only_with_trumps": True,
    "honour_guard": 0.0,
    "prob_follow_ruff": 0.0,  # following: do not play a master if P(ruff) above this (0: off)
    "cash_side": False,
    "draw_ratio": 0.0,
    "cover": False,  # following in 2nd/3rd seat: play a non-master over-card when it likely wins
    "cover_margin": 0.0,
    "fv_step": 0.35,  # lead the master trump only with at least this share of trumps out
}


def _after(pos: Position) -> list[int]:
    """Seats still to play in the current trick after the mover."""
    if pos.seat < 0:
        return []
    return [(pos.seat + k) & 3 for k in range(1, 4 - pos.count)]


def _ruff_risk(pos: Position, suit: int, seats: list[int], out_trumps: int, unseen: int) -> float:
    """Rough probability that one of ``seats`` trumps a trick led in side suit ``suit``."""
    if not out_trumps or suit == pos.trump:
        return 0.0
    voids = pos.voids
    trump = pos.trump
    others = [s for s in range(4) if s != pos.seat]
    holders = [s for s in others if not voids >> (4 * s + suit) & 1]
    outstanding = (unseen & SUIT_MASK[suit]).bit_count()
    n_trumps = out_trumps.bit_count()
    p_trump = 1.0 if n_trumps >= 3 else 0.6 if n_trumps == 2 else 0.35
    keep = 1.0
    m = len(holders)
    for s in seats:
        if voids >> (4 * s + trump) & 1:
            continue
        if voids >> (4 * s + suit) & 1:
            if KOZ["known_ruff"]:
                p_void = 1.0
            else:
                p_void = ((m - 1) / m) ** outstanding if m else 1.0
        else:
            p_void = ((m - 1) / m) ** outstanding if m > 1 else (0.0 if outstanding else 1.0)
        keep *= 1.0 - p_void * p_trump
    return 1.0 - keep


def _cover(pos: Position, over: int, unseen: int, out_trumps: int) -> int:
    """A card of ``over`` (ours, beating the trick so far, none a master) worth playing now:
    the one with the best chance of winning against what it risks, or -1 to duck."""
    led = pos.led
    voids = pos.voids
    after = _after(pos)
    holders = [s for s in range(4) if s != pos.seat and not voids >> (4 * s + led) & 1]
    after_holders = [s for s in after if s in holders]
    share = len(after_holders) / len(holders) if holders else 0.0
    ruff = _ruff_risk(pos, led, after, out_trumps, unseen)
    best_card, best_score = -1, KOZ["cover_margin"]
    for card in cards(over):
        higher = higher_in_suit(unseen, card).bit_count()
        p_win = (1.0 - share) ** higher * (1.0 - ruff)
        keep = max(0.0, 1.0 - KOZ["fv_step"] * higher)
        score = p_win - (1.0 - p_win) * keep
        if score > best_score:
            best_card, best_score = card, score
    return best_card


def _trump_card(pos: Position) -> int:
    legal, trump = pos.legal, pos.trump
    tmask = SUIT_MASK[trump]
    unseen = pos.unseen
    if pos.count == 0:
        return _trump_lead(pos, tmask, unseen)
    led, best = pos.led, pos.best
    out_trumps = unseen & tmask
    follow = legal & SUIT_MASK[led]
    if follow:
        if SUIT_OF[best] != led:  # someone has trumped a side suit: we cannot win
            return lowest(follow)
        over = follow & ~LOW_MASK[best] & ~(1 << best)
        if not over:
            return lowest(follow)
        if pos.count == 3:
            return lowest(over)
        top = highest(follow)
        if not higher_in_suit(unseen, top):
            # Our top card is the master; a player after us who is out of the suit would trump it.
            if KOZ["prob_follow_ruff"] or KOZ["known_ruff"]:
                risk = _ruff_risk(pos, led, _after(pos), out_trumps, unseen)
                limit = KOZ["prob_follow_ruff"] or 0.99
                if risk > limit:
                    return lowest(follow)
            return top
        if KOZ["cover"] and pos.seat >= 0:
            choice = _cover(pos, over, unseen, out_trumps)
            if choice >= 0:
                return choice
        return lowest(follow)
    trumps = legal & tmask
    if trumps:
        if SUIT_OF[best] == trump:
            over = trumps & ~LOW_MASK[best] & ~(1 << best)
            return lowest(over) if over else lowest(trumps)
        return lowest(trumps)
    # Void and no trump: throw the lowest card, from a short suit when ranks tie.
    best_card, best_value = -1, 1e9
    for card in cards(legal):
        value = RANK[card] * 2 + (pos.hand & SUIT_MASK[SUIT_OF[card]]).bit_count() * 0.5
        if KOZ["keep_masters"] and not higher_in_suit(unseen, card):
            value += 100
        if value < best_value:
            best_card, best_value = card, value
    return best_card


def _trump_lead(pos: Position, tmask: int, unseen: int) -> int:
    legal = pos.legal
    my_trumps = legal & tmask
    out_trumps = unseen & tmask
    if (
        my_trumps
        and out_trumps
        and highest(my_trumps) > highest(out_trumps)
        and my_trumps.bit_count() >= KOZ["draw_ratio"] * out_trumps.bit_count()
    ):
        return highest(my_trumps)  # draw trumps with a master
    # Cash side-suit masters that are unlikely to be ruffed.
    others = [s for s in range(4) if s != pos.seat] if pos.seat >= 0 else []
    best_card, best_value = -1, -1.0
    for card in cards(legal & ~tmask):
        if higher_in_suit(unseen, card) or (out_trumps and not KOZ["cash_side"]):
            continue
        outstanding = (unseen & SUIT_MASK[SUIT_OF[card]]).bit_count()
        if others:
            risk = _ruff_risk(pos, SUIT_OF[card], others, out_trumps, unseen)
            if out_trumps and risk > KOZ["cash_risk"]:
                continue
            value = outstanding + (5.0 if not out_trumps else 0.0) - risk
        else:
            value = outstanding + (5.0 if not out_trumps else 0.0)
            if out_trumps and outstanding < 3:
                continue
        if value <= best_value:
            continue
        best_card, best_value = card, value
    if best_card >= 0:
        return best_card
    if my_trumps and not out_trumps:
        return highest(my_trumps)
    if my_trumps and my_trumps.bit_count() >= out_trumps.bit_count() + KOZ["long_trump_lead"]:
        return lowest(my_trumps)
    # Lead low from the shortest side suit (to ruff it later), else a low trump.
    side = legal & ~tmask
    if side:
        best_card, best_value = -1, 1e9
        short_weight = 3.0 if my_trumps or not KOZ["lead_short_only_with_trumps"] else 0.0
        for card in cards(side):
            suit_cards = pos.hand & SUIT_MASK[SUIT_OF[card]]
            length = suit_cards.bit_count()
            value = length * short_weight + RANK[card] * 0.5
            if KOZ["honour_guard"]:
                top = highest(suit_cards)
                if top != card and higher_in_suit(unseen, top).bit_count() == 1:
                    value += KOZ["honour_guard"]
            if value < best_value:
                best_card, best_value = card, value
        return best_card
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
        if pos.count == 0:
            return highest(legal) if RANK[highest(legal)] >= 10 else lowest(legal)
        beat = [c for c in options if SUIT_OF[c] == SUIT_OF[pos.best] and c > pos.best]
        return beat[-1] if beat else min(options, key=RANK.__getitem__)
    # Penalties: low when leading or following, the most expensive card when void.
    if pos.count and not legal & SUIT_MASK[pos.led]:
        pen = PENALTY[pos.contract]
        return max(options, key=lambda c: (pen[c], RANK[c]))
    return min(options, key=RANK.__getitem__)
