"""Worlds drawn in proportion to how likely the other seats' plays were in them.

A seat's plays of this hand depend only on the cards it held, and those are its cards now plus
the ones it played since: so the chance of everything seat ``s`` did, if it plays the medium
policy's card with probability ``trust`` (else any legal card), is a function of its hidden
hand alone, ``PlayModel.seat_weight(s, hand)``, and a world's weight is the product over the
three other seats. ``WorldChain`` walks among the worlds that ``allowed_masks`` permits with
Metropolis–Hastings steps that swap one card between two seats (only those two seats' weights
change), so after a few steps per world the worlds follow the weights without sampling many
and discarding most.
"""

from __future__ import annotations

import random

from king_engine import SeatView, get_ruleset
from king_engine.cards import CARD_SUIT, SUIT_MASK
from king_engine.contracts import TRUMP
from king_engine.tricks import beats

from .core import Position, cards, must_ruff, void_bits
from .heuristic import medium_card
from .knowledge import DECLARER_TRUMP_BIAS, sample_hands

# One observed decision of a seat: the position without its first two fields (the hand and the
# legal cards), the card it played, and the cards it played from then on (held then, not now).
_Decision = tuple[tuple[int, ...], int, int]


class PlayModel:
    """The likelihood of each seat's observed plays of the current hand, given its hand now."""

    def __init__(self, view: SeatView, trust: float) -> None:
        self.trust = trust
        self.rules = get_ruleset(view.ruleset).hand_rules(view.contract, view.trump)
        self.cache: dict[tuple[int, int], float] = {}
        contract, trump = view.contract, view.trump
        koz = contract == TRUMP
        ruff = must_ruff(self.rules) if koz else False
        made: dict[int, list[tuple[tuple[int, ...], int]]] = {s: [] for s in range(4)}
        voids = earlier = 0
        for trick_no, trick in enumerate(view.tricks):
            led = best = -1
            mask = 0
            for count, (seat, card) in enumerate(trick.plays):
                if seat != view.seat:
                    template = (contract, trump, count, led, best, mask, earlier, trick_no, seat,
                                voids)  # fmt: skip
                    made[seat].append((template, card))
                if koz and count:
                    voids |= void_bits(seat, card, led, trump, trick_no, ruff)
                if count == 0:
                    led, best = CARD_SUIT[card], card
                elif beats(card, best, trump):
                    best = card
                mask |= 1 << card
            earlier |= mask
        # Each decision with the cards its seat played from then on (they were in hand then).
        self.decisions: dict[int, list[_Decision]] = {}
        for seat, plays in made.items():
            later = 0
            out: list[_Decision] = []
            for fields, card in reversed(plays):
                later |= 1 << card
                out.append((fields, card, later))
            out.reverse()
            self.decisions[seat] = out
        self.favoured = view.declarer if koz and view.declarer != view.seat else -1
        self.tmask = SUIT_MASK[trump] if trump >= 0 else 0

    def seat_weight(self, seat: int, hand: int) -> float:
        key = (seat, hand)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        trust = self.trust
        legal_of = self.rules.legal
        weight = 1.0
        for template, card, later in self.decisions[seat]:
            _, _, _, led, _, mask, earlier, trick_no, _, _ = template
            held = hand | later
            legal = legal_of(held, led, mask, earlier, trick_no)
            if not legal >> card & 1:
                weight = 0.0
                break
            if legal & (legal - 1):
                chance = (1.0 - trust) / legal.bit_count()
                played = medium_card(Position(held, legal, *template))
                weight *= chance + trust if played == card else chance
        if seat == self.favoured:  # the sampler's prior: the Koz declarer holds trumps
            weight *= DECLARER_TRUMP_BIAS ** (hand & self.tmask).bit_count()
        self.cache[key] = weight
        return weight


class WorldChain:
    """A Markov chain over the worlds ``allowed`` permits whose stationary law weighs each
    world by ``PlayModel``; ``next(steps)`` moves it and returns the hands."""

    def __init__(
        self, view: SeatView, rng: random.Random, allowed: list[int], model: PlayModel
    ) -> None:
        self.rng, self.allowed, self.model = rng, allowed, model
        self.others = [s for s in range(4) if s != view.seat]
        self.hands = sample_hands(view, rng, allowed)
        self.weights = {s: model.seat_weight(s, self.hands[s]) for s in self.others}

    def next(self, steps: int) -> list[int]:
        rng, allowed, model = self.rng, self.allowed, self.model
        hands, weights = self.hands, self.weights
        for _ in range(steps):
            a, b = rng.sample(self.others, 2)
            give = hands[a] & allowed[b]
            take = hands[b] & allowed[a]
            if not give or not take:
                continue
            give_cards, take_cards = cards(give), cards(take)
            x, y = rng.choice(give_cards), rng.choice(take_cards)
            new_a = hands[a] ^ (1 << x) ^ (1 << y)
            new_b = hands[b] ^ (1 << y) ^ (1 << x)
            wa, wb = model.seat_weight(a, new_a), model.seat_weight(b, new_b)
            old = weights[a] * weights[b]
            new = wa * wb
            if new <= 0.0:
                continue
            # Hastings: the reverse swap's choices from the new hands.
            back = (new_a & allowed[b]).bit_count() * (new_b & allowed[a]).bit_count()
            ratio = new * len(give_cards) * len(take_cards) / (old * back) if old > 0 else 2.0
            if ratio >= 1.0 or rng.random() < ratio:
                hands[a], hands[b] = new_a, new_b
                weights[a], weights[b] = wa, wb
        return list(hands)
